// What an EVM chain keeps of each accepted block besides the block itself: per tx its sender and
// receipt (as geth's stored receipts, plus what RPC answers need without re-executing: the sender,
// the gas it used, its effective price and the contract it created).
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';

export interface EvmLog {
  address: Uint8Array;
  topics: Uint8Array[];
  data: Uint8Array;
}

export interface TxRecord {
  /** The tx's hash, so logs can be answered from the records alone. */
  hash: Uint8Array;
  from: Uint8Array;
  status: 0 | 1;
  cumulativeGasUsed: bigint;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  contractAddress?: Uint8Array;
  logs: EvmLog[];
}

const q = bigIntToUnpaddedBytes;

export function encodeRecords(records: TxRecord[]): Uint8Array {
  return RLP.encode(
    records.map((r) => [
      r.from,
      Uint8Array.of(r.status),
      q(r.cumulativeGasUsed),
      q(r.gasUsed),
      q(r.effectiveGasPrice),
      r.contractAddress ?? new Uint8Array(),
      r.logs.map((l) => [l.address, l.topics, l.data]),
      r.hash,
    ]),
  );
}

export function decodeRecords(bytes: Uint8Array): TxRecord[] {
  return (RLP.decode(bytes) as unknown as Uint8Array[][]).map((f) => ({
    hash: f[7]!,
    from: f[0]!,
    status: f[1]![0] === 1 ? 1 : 0,
    cumulativeGasUsed: bytesToBigInt(f[2]!),
    gasUsed: bytesToBigInt(f[3]!),
    effectiveGasPrice: bytesToBigInt(f[4]!),
    ...(f[5]!.length > 0 ? { contractAddress: f[5]! } : {}),
    logs: (f[6] as unknown as Uint8Array[][]).map((l) => ({ address: l[0]!, topics: l[1] as unknown as Uint8Array[], data: l[2]! })),
  }));
}

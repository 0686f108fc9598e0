// coreth's block header (avalanchego 1.14, graft/coreth HeaderSerializable): Ethereum's fifteen
// fields, then ExtDataHash (always present, before the base fee), then an optional tail written up
// to its last present field, a missing one before it as an empty string. The block hash is the
// keccak of this encoding, which is not what @ethereumjs's BlockHeader hashes, so the EVM chains
// encode and hash their headers here. Notes: docs/research/cchain.md §1.
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';

export interface CorethHeader {
  parentHash: Uint8Array;
  uncleHash: Uint8Array;
  coinbase: Uint8Array;
  stateRoot: Uint8Array;
  txHash: Uint8Array;
  receiptHash: Uint8Array;
  bloom: Uint8Array;
  difficulty: bigint;
  number: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  /** Unix seconds. */
  time: bigint;
  extra: Uint8Array;
  mixDigest: Uint8Array;
  /** 8 bytes. */
  nonce: Uint8Array;
  extDataHash: Uint8Array;
  // The optional tail, in order (each present from its upgrade on):
  baseFee?: bigint;
  extDataGasUsed?: bigint;
  blockGasCost?: bigint;
  blobGasUsed?: bigint;
  excessBlobGas?: bigint;
  parentBeaconRoot?: Uint8Array;
  /** Granite: the block time in milliseconds. */
  timeMilliseconds?: bigint;
  /** Granite (ACP-226). */
  minDelayExcess?: bigint;
}

/** keccak256 of RLP("") and of RLP([]): the empty trie root and the empty uncles hash. */
export const EMPTY_ROOT = keccak_256(RLP.encode(new Uint8Array()));
export const EMPTY_UNCLES = keccak_256(RLP.encode([]));

const quantity = (n: bigint): Uint8Array => bigIntToUnpaddedBytes(n);

/** The header's RLP, as coreth encodes it. */
export function encodeHeader(h: CorethHeader): Uint8Array {
  const fields: Uint8Array[] = [
    h.parentHash,
    h.uncleHash,
    h.coinbase,
    h.stateRoot,
    h.txHash,
    h.receiptHash,
    h.bloom,
    quantity(h.difficulty),
    quantity(h.number),
    quantity(h.gasLimit),
    quantity(h.gasUsed),
    quantity(h.time),
    h.extra,
    h.mixDigest,
    h.nonce,
    h.extDataHash,
  ];
  const tail = [h.baseFee, h.extDataGasUsed, h.blockGasCost, h.blobGasUsed, h.excessBlobGas, h.parentBeaconRoot, h.timeMilliseconds, h.minDelayExcess];
  let last = -1;
  tail.forEach((v, i) => {
    if (v !== undefined) last = i;
  });
  for (const v of tail.slice(0, last + 1)) fields.push(v === undefined ? new Uint8Array() : v instanceof Uint8Array ? v : quantity(v));
  return RLP.encode(fields);
}

export function headerHash(h: CorethHeader): Uint8Array {
  return keccak_256(encodeHeader(h));
}

/** A block's RLP: [header, txs, uncles, version (always 0), extData (atomic txs, if any)]; `size` is its length. */
export function encodeBlock(h: CorethHeader, txs: Uint8Array[], extData?: Uint8Array): Uint8Array {
  return RLP.encode([RLP.decode(encodeHeader(h)) as Uint8Array[], txs, [], new Uint8Array(), extData ?? new Uint8Array()]);
}

// A built block sealed: its txs' records and receipts, its header (coreth's or Subnet-EVM's fields,
// with the fee state and what an extension added), and its bytes and hash.
import { RLP } from '@ethereumjs/rlp';
import { Bloom, encodeReceipt, type RunTxResult } from '@ethereumjs/vm';
import { keccak256 } from '../../crypto/keccak.js';
import type { ExtensionContent } from './chaintypes.js';
import type { EvmFlavor, NextFees } from './flavor.js';
import { type CorethHeader, EMPTY_UNCLES, sealBlock } from './header.js';
import { effectivePrice, type PoolTx } from './pooltx.js';
import type { EvmLog, TxRecord } from './records.js';
import type { StoredBlock } from './store.js';
import { listRoot } from './trieroot.js';
import { bodyTx } from './txcodec.js';

/** What the builder settled for a block besides its txs. */
export interface BlockFacts {
  number: bigint;
  time: bigint;
  timeMs: bigint;
  fees: NextFees;
  coinbase: Uint8Array;
  stateRoot: Uint8Array;
  gasUsed: bigint;
  predicateResults: Uint8Array;
  content: ExtensionContent | undefined;
  /** hardhat_setPrevRandao's value for this block (its PREVRANDAO); coreth's headers carry zero. */
  prevRandao?: Uint8Array;
}

/** A sealed block: what the store keeps of it, its encoding and its txs' records. */
export interface SealedBlock {
  block: StoredBlock;
  bytes: Uint8Array;
  records: TxRecord[];
}

/** The records of the included txs, their receipts' encodings and the block's bloom. */
function txRecords(
  included: readonly PoolTx[],
  results: readonly RunTxResult[],
  baseFee: bigint,
): { records: TxRecord[]; receipts: Uint8Array[]; bloom: Bloom } {
  const records: TxRecord[] = [];
  const receipts: Uint8Array[] = [];
  const bloom = new Bloom();
  for (let i = 0; i < included.length; i++) {
    const p = included[i]!;
    const r = results[i]!;
    const logs: EvmLog[] = (r.execResult.logs ?? []).map(([address, topics, data]) => ({ address, topics, data }));
    const record: TxRecord = {
      hash: p.hash,
      from: p.from,
      status: r.execResult.exceptionError ? 0 : 1,
      cumulativeGasUsed: r.receipt.cumulativeBlockGasUsed,
      gasUsed: r.totalGasSpent,
      effectiveGasPrice: effectivePrice(p, baseFee),
      ...(r.createdAddress ? { contractAddress: r.createdAddress.bytes } : {}),
      logs,
    };
    records.push(record);
    bloom.or(r.bloom);
    receipts.push(encodeReceipt(r.receipt, p.tx.type));
  }
  return { records, receipts, bloom };
}

/** Seals the block built on `parent` from the included txs and how they ran. */
export function sealBuilt(flavor: EvmFlavor, parent: StoredBlock, b: BlockFacts, included: readonly PoolTx[], results: readonly RunTxResult[]): SealedBlock {
  const { records, receipts, bloom } = txRecords(included, results, b.fees.baseFee);
  const header: CorethHeader = {
    parentHash: parent.hash,
    uncleHash: EMPTY_UNCLES,
    coinbase: b.coinbase,
    stateRoot: b.stateRoot,
    // A pool tx's bytes are its encoding (decoded strictly, they re-encode to themselves).
    txHash: listRoot(included.map((p) => p.bytes)),
    receiptHash: listRoot(receipts),
    bloom: bloom.bitvector,
    difficulty: 1n,
    number: b.number,
    gasLimit: b.fees.gasLimit,
    gasUsed: b.gasUsed,
    time: b.time,
    extra: b.fees.extra(b.gasUsed, b.predicateResults, b.content?.gasUsed),
    mixDigest: b.prevRandao ?? new Uint8Array(32),
    nonce: new Uint8Array(8),
    ...flavor.headerExtras,
    // coreth's ExtDataHash: keccak256(rlp(extData)) (the flavor's empty hash without atomic txs).
    ...(b.content ? { extDataHash: keccak256(RLP.encode(b.content.extData)), extDataGasUsed: b.content.gasUsed } : {}),
    baseFee: b.fees.baseFee,
    blockGasCost: b.fees.blockGasCost,
    blobGasUsed: 0n,
    excessBlobGas: 0n,
    parentBeaconRoot: new Uint8Array(32),
    timeMilliseconds: b.timeMs,
    minDelayExcess: parent.header.minDelayExcess ?? 0n,
  };
  const body = included.map(bodyTx);
  const extData = b.content?.extData;
  const { bytes, hash } = sealBlock(header, body, extData);
  const block: StoredBlock = { header, hash, body, size: bytes.length, ...(extData ? { extData } : {}) };
  return { block, bytes, records };
}

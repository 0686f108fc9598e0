// The JSON shapes of coreth's answers (internal/ethapi RPCMarshalBlock, RPCTransaction,
// marshalReceipt, types.Log): maps with Go's alphabetical key order, structs in field order.
import type { TypedTransaction } from '@ethereumjs/tx';
import { Bloom } from '@ethereumjs/vm';
import { effectivePrice, feeCaps } from '../pooltx.js';
import type { TxRecord, EvmLog } from '../records.js';
import type { StoredBlock } from '../store.js';
import { type FilledArgs, txTypeOf, unsignedHash } from '../txargs.js';
import { toHex0x } from '../../../encoding/bytes.js';

export const qty = (n: bigint | number): string => `0x${n.toString(16)}`;

export interface TxPosition {
  block: StoredBlock;
  index: number;
}

export function formatTx(tx: TypedTransaction, from: Uint8Array, at: TxPosition | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {
    blockHash: at ? toHex0x(at.block.hash) : null,
    blockNumber: at ? qty(at.block.header.number) : null,
    from: toHex0x(from),
    gas: qty(tx.gasLimit),
  };
  const caps = feeCaps(tx);
  const baseFee = at?.block.header.baseFee;
  // A mined dynamic-fee tx shows what it paid; a pending one its fee cap (geth's newRPCTransaction).
  out.gasPrice = qty(tx.type === 2 && baseFee !== undefined ? effectivePrice(caps, baseFee) : caps.feeCap);
  if (tx.type === 2) {
    out.maxFeePerGas = qty(caps.feeCap);
    out.maxPriorityFeePerGas = qty(caps.tipCap);
  }
  out.hash = toHex0x(tx.hash());
  out.input = toHex0x(tx.data);
  out.nonce = qty(tx.nonce);
  out.to = tx.to ? toHex0x(tx.to.bytes) : null;
  out.transactionIndex = at ? qty(at.index) : null;
  out.value = qty(tx.value);
  out.type = qty(tx.type);
  if (tx.type !== 0) {
    const list = (tx as TypedTransaction & { accessList: Array<[Uint8Array, Uint8Array[]]> }).accessList;
    out.accessList = list.map(([address, keys]) => ({ address: toHex0x(address), storageKeys: keys.map(toHex0x) }));
    out.chainId = qty(tx.common.chainId());
  } else if (tx.supports(155)) {
    out.chainId = qty(tx.common.chainId());
  }
  out.v = qty(tx.v ?? 0n);
  out.r = qty(tx.r ?? 0n);
  out.s = qty(tx.s ?? 0n);
  if (tx.type !== 0) out.yParity = qty(tx.v ?? 0n);
  return out;
}

/**
 * types.Transaction.MarshalJSON of toTransaction's unsigned tx (eth_fillTransaction's `tx`): not
 * RPCTransaction's shape (no block fields, no from), the txJSON struct's field order, absent fee
 * fields null, V = R = S = 0, and a legacy tx without a chain ID (V = 0 is not EIP-155).
 */
export function formatUnsignedTx(args: FilledArgs): Record<string, unknown> {
  const type = txTypeOf(args);
  const out: Record<string, unknown> = { type: qty(type) };
  if (type !== 0) out.chainId = qty(args.chainId);
  out.nonce = qty(args.nonce);
  out.to = args.to ? toHex0x(args.to) : null;
  out.gas = qty(args.gas);
  out.gasPrice = type === 2 ? null : qty(args.gasPrice ?? 0n);
  out.maxPriorityFeePerGas = type === 2 ? qty(args.maxPriorityFeePerGas ?? 0n) : null;
  out.maxFeePerGas = type === 2 ? qty(args.maxFeePerGas ?? 0n) : null;
  out.value = qty(args.value);
  out.input = toHex0x(args.data ?? new Uint8Array());
  if (type !== 0) out.accessList = (args.accessList ?? []).map((e) => ({ address: toHex0x(e.address), storageKeys: e.storageKeys.map(toHex0x) }));
  out.v = '0x0';
  out.r = '0x0';
  out.s = '0x0';
  if (type !== 0) out.yParity = '0x0';
  out.hash = toHex0x(unsignedHash(args));
  return out;
}

export interface LogPosition {
  number: bigint;
  blockHash: Uint8Array;
  txHash: Uint8Array;
  txIndex: number;
  logIndex: number;
}

export function formatLog(log: EvmLog, at: LogPosition): Record<string, unknown> {
  return {
    address: toHex0x(log.address),
    topics: log.topics.map(toHex0x),
    data: toHex0x(log.data),
    blockNumber: qty(at.number),
    transactionHash: toHex0x(at.txHash),
    transactionIndex: qty(at.txIndex),
    blockHash: toHex0x(at.blockHash),
    logIndex: qty(at.logIndex),
    removed: false,
  };
}

export function logsBloom(logs: EvmLog[]): Uint8Array {
  const bloom = new Bloom();
  for (const log of logs) {
    bloom.add(log.address);
    for (const t of log.topics) bloom.add(t);
  }
  return bloom.bitvector;
}

/** The index of a tx's first log in its block. */
export function firstLogIndex(records: readonly TxRecord[], txIndex: number): number {
  let n = 0;
  for (let i = 0; i < txIndex; i++) n += records[i]!.logs.length;
  return n;
}

export function formatReceipt(tx: TypedTransaction, records: readonly TxRecord[], at: TxPosition): Record<string, unknown> {
  const r = records[at.index]!;
  const txHash = tx.hash();
  const first = firstLogIndex(records, at.index);
  return {
    blockHash: toHex0x(at.block.hash),
    blockNumber: qty(at.block.header.number),
    contractAddress: r.contractAddress ? toHex0x(r.contractAddress) : null,
    cumulativeGasUsed: qty(r.cumulativeGasUsed),
    effectiveGasPrice: qty(r.effectiveGasPrice),
    from: toHex0x(r.from),
    gasUsed: qty(r.gasUsed),
    logs: r.logs.map((log, i) => formatLog(log, { number: at.block.header.number, blockHash: at.block.hash, txHash, txIndex: at.index, logIndex: first + i })),
    logsBloom: toHex0x(logsBloom(r.logs)),
    status: qty(r.status),
    to: tx.to ? toHex0x(tx.to.bytes) : null,
    transactionHash: toHex0x(txHash),
    transactionIndex: qty(at.index),
    type: qty(tx.type),
  };
}

/** RPCMarshalHeader's fields, alphabetically as Go prints the map. */
export function formatHeader(block: StoredBlock, extras: Record<string, unknown> = {}): Record<string, unknown> {
  const h = block.header;
  const fields: Record<string, unknown> = {
    difficulty: qty(h.difficulty),
    extraData: toHex0x(h.extra),
    gasLimit: qty(h.gasLimit),
    gasUsed: qty(h.gasUsed),
    hash: toHex0x(block.hash),
    logsBloom: toHex0x(h.bloom),
    miner: toHex0x(h.coinbase),
    mixHash: toHex0x(h.mixDigest),
    nonce: toHex0x(h.nonce),
    number: qty(h.number),
    parentHash: toHex0x(h.parentHash),
    receiptsRoot: toHex0x(h.receiptHash),
    sha3Uncles: toHex0x(h.uncleHash),
    stateRoot: toHex0x(h.stateRoot),
    timestamp: qty(h.time),
    transactionsRoot: toHex0x(h.txHash),
    ...extras,
  };
  // coreth's extras; Subnet-EVM headers have none.
  if (h.extDataHash !== undefined) fields.extDataHash = toHex0x(h.extDataHash);
  if (h.baseFee !== undefined) fields.baseFeePerGas = qty(h.baseFee);
  if (h.blobGasUsed !== undefined) fields.blobGasUsed = qty(h.blobGasUsed);
  if (h.blockGasCost !== undefined) fields.blockGasCost = qty(h.blockGasCost);
  if (h.excessBlobGas !== undefined) fields.excessBlobGas = qty(h.excessBlobGas);
  if (h.extDataGasUsed !== undefined) fields.extDataGasUsed = qty(h.extDataGasUsed);
  if (h.minDelayExcess !== undefined) fields.minDelayExcess = qty(h.minDelayExcess);
  if (h.parentBeaconRoot !== undefined) fields.parentBeaconBlockRoot = toHex0x(h.parentBeaconRoot);
  if (h.timeMilliseconds !== undefined) fields.timestampMilliseconds = qty(h.timeMilliseconds);
  return sorted(fields);
}

export function formatBlock(block: StoredBlock, txs: unknown[]): Record<string, unknown> {
  return formatHeader(block, {
    ...(block.header.extDataHash ? { blockExtraData: toHex0x(block.extData ?? new Uint8Array()) } : {}),
    size: qty(block.size),
    totalDifficulty: qty(block.header.number),
    transactions: txs,
    uncles: [],
  });
}

function sorted(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}

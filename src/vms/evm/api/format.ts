// The JSON shapes of coreth's answers (internal/ethapi RPCMarshalBlock, RPCTransaction,
// marshalReceipt, types.Log): maps with Go's alphabetical key order, structs in field order.
import type { TypedTransaction } from '@ethereumjs/tx';
import { Bloom } from '@ethereumjs/vm';
import { effectivePrice, feeCaps } from '../pooltx.js';
import type { TxRecord, EvmLog } from '../records.js';
import type { StoredBlock } from '../store.js';
import { type FilledArgs, txTypeOf, unsignedHash } from '../txargs.js';

export const hex = (b: Uint8Array): string => `0x${Buffer.from(b).toString('hex')}`;
export const qty = (n: bigint | number): string => `0x${n.toString(16)}`;

export interface TxPosition {
  block: StoredBlock;
  index: number;
}

export function formatTx(tx: TypedTransaction, from: Uint8Array, at: TxPosition | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {
    blockHash: at ? hex(at.block.hash) : null,
    blockNumber: at ? qty(at.block.header.number) : null,
    from: hex(from),
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
  out.hash = hex(tx.hash());
  out.input = hex(tx.data);
  out.nonce = qty(tx.nonce);
  out.to = tx.to ? hex(tx.to.bytes) : null;
  out.transactionIndex = at ? qty(at.index) : null;
  out.value = qty(tx.value);
  out.type = qty(tx.type);
  if (tx.type !== 0) {
    const list = (tx as TypedTransaction & { accessList: Array<[Uint8Array, Uint8Array[]]> }).accessList;
    out.accessList = list.map(([address, keys]) => ({ address: hex(address), storageKeys: keys.map(hex) }));
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
  out.to = args.to ? hex(args.to) : null;
  out.gas = qty(args.gas);
  out.gasPrice = type === 2 ? null : qty(args.gasPrice ?? 0n);
  out.maxPriorityFeePerGas = type === 2 ? qty(args.maxPriorityFeePerGas ?? 0n) : null;
  out.maxFeePerGas = type === 2 ? qty(args.maxFeePerGas ?? 0n) : null;
  out.value = qty(args.value);
  out.input = hex(args.data ?? new Uint8Array());
  if (type !== 0) out.accessList = (args.accessList ?? []).map((e) => ({ address: hex(e.address), storageKeys: e.storageKeys.map(hex) }));
  out.v = '0x0';
  out.r = '0x0';
  out.s = '0x0';
  if (type !== 0) out.yParity = '0x0';
  out.hash = hex(unsignedHash(args));
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
    address: hex(log.address),
    topics: log.topics.map(hex),
    data: hex(log.data),
    blockNumber: qty(at.number),
    transactionHash: hex(at.txHash),
    transactionIndex: qty(at.txIndex),
    blockHash: hex(at.blockHash),
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
    blockHash: hex(at.block.hash),
    blockNumber: qty(at.block.header.number),
    contractAddress: r.contractAddress ? hex(r.contractAddress) : null,
    cumulativeGasUsed: qty(r.cumulativeGasUsed),
    effectiveGasPrice: qty(r.effectiveGasPrice),
    from: hex(r.from),
    gasUsed: qty(r.gasUsed),
    logs: r.logs.map((log, i) => formatLog(log, { number: at.block.header.number, blockHash: at.block.hash, txHash, txIndex: at.index, logIndex: first + i })),
    logsBloom: hex(logsBloom(r.logs)),
    status: qty(r.status),
    to: tx.to ? hex(tx.to.bytes) : null,
    transactionHash: hex(txHash),
    transactionIndex: qty(at.index),
    type: qty(tx.type),
  };
}

/** RPCMarshalHeader's fields, alphabetically as Go prints the map. */
export function formatHeader(block: StoredBlock, extras: Record<string, unknown> = {}): Record<string, unknown> {
  const h = block.header;
  const fields: Record<string, unknown> = {
    difficulty: qty(h.difficulty),
    extraData: hex(h.extra),
    gasLimit: qty(h.gasLimit),
    gasUsed: qty(h.gasUsed),
    hash: hex(block.hash),
    logsBloom: hex(h.bloom),
    miner: hex(h.coinbase),
    mixHash: hex(h.mixDigest),
    nonce: hex(h.nonce),
    number: qty(h.number),
    parentHash: hex(h.parentHash),
    receiptsRoot: hex(h.receiptHash),
    sha3Uncles: hex(h.uncleHash),
    stateRoot: hex(h.stateRoot),
    timestamp: qty(h.time),
    transactionsRoot: hex(h.txHash),
    ...extras,
  };
  // coreth's extras; Subnet-EVM headers have none.
  if (h.extDataHash !== undefined) fields.extDataHash = hex(h.extDataHash);
  if (h.baseFee !== undefined) fields.baseFeePerGas = qty(h.baseFee);
  if (h.blobGasUsed !== undefined) fields.blobGasUsed = qty(h.blobGasUsed);
  if (h.blockGasCost !== undefined) fields.blockGasCost = qty(h.blockGasCost);
  if (h.excessBlobGas !== undefined) fields.excessBlobGas = qty(h.excessBlobGas);
  if (h.extDataGasUsed !== undefined) fields.extDataGasUsed = qty(h.extDataGasUsed);
  if (h.minDelayExcess !== undefined) fields.minDelayExcess = qty(h.minDelayExcess);
  if (h.parentBeaconRoot !== undefined) fields.parentBeaconBlockRoot = hex(h.parentBeaconRoot);
  if (h.timeMilliseconds !== undefined) fields.timestampMilliseconds = qty(h.timeMilliseconds);
  return sorted(fields);
}

export function formatBlock(block: StoredBlock, txs: unknown[]): Record<string, unknown> {
  return formatHeader(block, {
    ...(block.header.extDataHash ? { blockExtraData: hex(block.extData ?? new Uint8Array()) } : {}),
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

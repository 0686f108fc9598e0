// The JSON shapes of coreth's answers (internal/ethapi RPCMarshalBlock, RPCTransaction,
// marshalReceipt, types.Log): maps with Go's alphabetical key order, structs in field order.
import type { Common } from '@ethereumjs/common';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Bloom } from '@ethereumjs/vm';
import { effectivePrice, feeCaps } from '../pooltx.js';
import type { TxRecord, EvmLog } from '../records.js';
import type { StoredBlock } from '../store.js';
import { type FilledArgs, txTypeOf, unsignedHash } from '../txargs.js';
import { txHash } from '../txcodec.js';
import { toHex0x } from '../../../encoding/bytes.js';
import { JsonBytesWriter } from '../../../encoding/jsonbytes.js';

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
  out.hash = toHex0x(txHash(tx));
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

/**
 * formatLog's JSON, written into `w`: eth_getLogs answers thousands of logs, and an object per log
 * for JSON.stringify, then the answer's string made bytes, cost three times this.
 */
export function writeLog(w: JsonBytesWriter, log: EvmLog, at: LogPosition): void {
  w.ascii('{"address":');
  w.hex(log.address);
  w.ascii(',"topics":[');
  for (let i = 0; i < log.topics.length; i++) {
    if (i > 0) w.ascii(',');
    w.hex(log.topics[i]!);
  }
  w.ascii('],"data":');
  w.hex(log.data);
  w.ascii(`,"blockNumber":"${qty(at.number)}","transactionHash":`);
  w.hex(at.txHash);
  w.ascii(`,"transactionIndex":"${qty(at.txIndex)}","blockHash":`);
  w.hex(at.blockHash);
  w.ascii(`,"logIndex":"${qty(at.logIndex)}","removed":false}`);
}

/** A log's JSON text, as a notification carries it and a log filter gathers it. */
export function logText(log: EvmLog, at: LogPosition): string {
  const w = new JsonBytesWriter(512);
  writeLog(w, log, at);
  return w.done().text;
}

/** types.Log's JSON (gen_log_json.go: its struct's field order), as an object for a receipt's `logs`. */
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

const blooms = new WeakMap<readonly EvmLog[], Uint8Array>();

/**
 * A receipt's bloom, hashed with the chain's keccak (hash-wasm: @noble/hashes's made a fifth of
 * eth_getTransactionReceipt's CPU), once per record the store keeps at hand: a client waiting for
 * its receipt asks for it again and again. A record's logs never change.
 */
export function logsBloom(logs: readonly EvmLog[], common: Common): Uint8Array {
  let bits = blooms.get(logs);
  if (bits === undefined) {
    const bloom = new Bloom(undefined, common);
    for (const log of logs) {
      bloom.add(log.address);
      for (const t of log.topics) bloom.add(t);
    }
    bits = bloom.bitvector;
    blooms.set(logs, bits);
  }
  return bits;
}

/** The index of a tx's first log in its block. */
export function firstLogIndex(records: readonly TxRecord[], txIndex: number): number {
  let n = 0;
  for (let i = 0; i < txIndex; i++) n += records[i]!.logs.length;
  return n;
}

/** `first`: the index of its first log in the block, when the caller counts them (a block's receipts). */
export function formatReceipt(
  tx: TypedTransaction,
  records: readonly TxRecord[],
  at: TxPosition,
  first = firstLogIndex(records, at.index),
): Record<string, unknown> {
  const r = records[at.index]!;
  const hash = txHash(tx);
  return {
    blockHash: toHex0x(at.block.hash),
    blockNumber: qty(at.block.header.number),
    contractAddress: r.contractAddress ? toHex0x(r.contractAddress) : null,
    cumulativeGasUsed: qty(r.cumulativeGasUsed),
    effectiveGasPrice: qty(r.effectiveGasPrice),
    from: toHex0x(r.from),
    gasUsed: qty(r.gasUsed),
    logs: r.logs.map((log, i) =>
      formatLog(log, { number: at.block.header.number, blockHash: at.block.hash, txHash: hash, txIndex: at.index, logIndex: first + i }),
    ),
    logsBloom: toHex0x(logsBloom(r.logs, tx.common)),
    status: qty(r.status),
    to: tx.to ? toHex0x(tx.to.bytes) : null,
    transactionHash: toHex0x(hash),
    transactionIndex: qty(at.index),
    type: qty(tx.type),
  };
}

/** What a block answer adds to its header's fields (RPCMarshalBlock), or totalDifficulty a header answer's. */
export interface BlockFields {
  blockExtraData?: string;
  size?: string;
  totalDifficulty?: string;
  transactions?: unknown[];
  uncles?: unknown[];
}

/**
 * RPCMarshalHeader's fields and `extra`'s, in the alphabetical order Go prints the map in. Written
 * in that order rather than sorted: sorting each answer's keys cost 4 % of eth_getBlockByNumber.
 * coreth's extras (extDataHash, extDataGasUsed, blockGasCost...) are set where the header has them;
 * Subnet-EVM headers have none of coreth's.
 */
export function formatHeader(block: StoredBlock, extra: BlockFields = {}): Record<string, unknown> {
  const h = block.header;
  const o: Record<string, unknown> = {};
  if (h.baseFee !== undefined) o.baseFeePerGas = qty(h.baseFee);
  if (h.blobGasUsed !== undefined) o.blobGasUsed = qty(h.blobGasUsed);
  if (extra.blockExtraData !== undefined) o.blockExtraData = extra.blockExtraData;
  if (h.blockGasCost !== undefined) o.blockGasCost = qty(h.blockGasCost);
  o.difficulty = qty(h.difficulty);
  if (h.excessBlobGas !== undefined) o.excessBlobGas = qty(h.excessBlobGas);
  if (h.extDataGasUsed !== undefined) o.extDataGasUsed = qty(h.extDataGasUsed);
  if (h.extDataHash !== undefined) o.extDataHash = toHex0x(h.extDataHash);
  o.extraData = toHex0x(h.extra);
  o.gasLimit = qty(h.gasLimit);
  o.gasUsed = qty(h.gasUsed);
  o.hash = toHex0x(block.hash);
  o.logsBloom = toHex0x(h.bloom);
  if (h.minDelayExcess !== undefined) o.minDelayExcess = qty(h.minDelayExcess);
  o.miner = toHex0x(h.coinbase);
  o.mixHash = toHex0x(h.mixDigest);
  o.nonce = toHex0x(h.nonce);
  o.number = qty(h.number);
  if (h.parentBeaconRoot !== undefined) o.parentBeaconBlockRoot = toHex0x(h.parentBeaconRoot);
  o.parentHash = toHex0x(h.parentHash);
  o.receiptsRoot = toHex0x(h.receiptHash);
  o.sha3Uncles = toHex0x(h.uncleHash);
  if (extra.size !== undefined) o.size = extra.size;
  o.stateRoot = toHex0x(h.stateRoot);
  o.timestamp = qty(h.time);
  if (h.timeMilliseconds !== undefined) o.timestampMilliseconds = qty(h.timeMilliseconds);
  if (extra.totalDifficulty !== undefined) o.totalDifficulty = extra.totalDifficulty;
  if (extra.transactions !== undefined) o.transactions = extra.transactions;
  o.transactionsRoot = toHex0x(h.txHash);
  if (extra.uncles !== undefined) o.uncles = extra.uncles;
  return o;
}

/**
 * types.Header's own JSON (newHeads), as coreth's and Subnet-EVM's HeaderSerializable marshal it at
 * avalanchego 1.14.2: gencodec's field order, an optional field the header lacks as null (RPC
 * methods answer RPCMarshalHeader's map instead: formatHeader). Only coreth has the ext-data fields.
 */
export function marshalHeader(block: StoredBlock): Record<string, unknown> {
  const h = block.header;
  const coreth = h.extDataHash !== undefined;
  const opt = <T>(v: T | undefined, f: (x: T) => string): string | null => (v === undefined ? null : f(v));
  const o: Record<string, unknown> = {
    parentHash: toHex0x(h.parentHash),
    sha3Uncles: toHex0x(h.uncleHash),
    miner: toHex0x(h.coinbase),
    stateRoot: toHex0x(h.stateRoot),
    transactionsRoot: toHex0x(h.txHash),
    receiptsRoot: toHex0x(h.receiptHash),
    logsBloom: toHex0x(h.bloom),
    difficulty: qty(h.difficulty),
    number: qty(h.number),
    gasLimit: qty(h.gasLimit),
    gasUsed: qty(h.gasUsed),
    timestamp: qty(h.time),
    extraData: toHex0x(h.extra),
    mixHash: toHex0x(h.mixDigest),
    nonce: toHex0x(h.nonce),
  };
  if (coreth) o.extDataHash = opt(h.extDataHash, toHex0x);
  o.baseFeePerGas = opt(h.baseFee, qty);
  if (coreth) o.extDataGasUsed = opt(h.extDataGasUsed, qty);
  o.blockGasCost = opt(h.blockGasCost, qty);
  o.blobGasUsed = opt(h.blobGasUsed, qty);
  o.excessBlobGas = opt(h.excessBlobGas, qty);
  o.parentBeaconBlockRoot = opt(h.parentBeaconRoot, toHex0x);
  o.timestampMilliseconds = opt(h.timeMilliseconds, qty);
  o.minDelayExcess = opt(h.minDelayExcess, qty);
  o.hash = toHex0x(block.hash);
  return o;
}

export function formatBlock(block: StoredBlock, txs: unknown[]): Record<string, unknown> {
  return formatHeader(block, {
    blockExtraData: block.header.extDataHash ? toHex0x(block.extData ?? new Uint8Array()) : undefined,
    size: qty(block.size),
    totalDifficulty: qty(block.header.number),
    transactions: txs,
    uncles: [],
  });
}

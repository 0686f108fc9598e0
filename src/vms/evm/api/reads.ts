// Reads of accepted history that several APIs share: a block's decoded txs (kept for recent
// blocks), a tx with its position and record, and the logs matching a filter over a range.
import { createTxFromBlockBodyData, type TypedTransaction } from '@ethereumjs/tx';
import type { EvmChain } from '../chain.js';
import type { EvmLog, TxRecord } from '../records.js';
import type { StoredBlock } from '../store.js';
import { formatLog } from './format.js';

const decoded = new WeakMap<StoredBlock, TypedTransaction[]>();

export function blockTxs(chain: EvmChain, block: StoredBlock): TypedTransaction[] {
  let txs = decoded.get(block);
  if (!txs) {
    // Not frozen: a replayed tx with warp predicates gets its intrinsic gas set (warp/receive.ts).
    txs = block.body.map((item) => createTxFromBlockBodyData(item, { common: chain.common, freeze: false }));
    decoded.set(block, txs);
  }
  return txs;
}

export interface FoundTx {
  tx: TypedTransaction;
  block: StoredBlock;
  index: number;
  records: TxRecord[];
}

export async function findTx(chain: EvmChain, hash: Uint8Array): Promise<FoundTx | undefined> {
  const at = await chain.store.lookup(hash);
  if (!at) return undefined;
  const block = await chain.store.blockAt(at.number);
  if (!block) return undefined;
  return { tx: blockTxs(chain, block)[at.index]!, block, index: at.index, records: await chain.store.txRecords(block.hash) };
}

export interface LogFilter {
  addresses: Uint8Array[];
  /** Per position: undefined matches anything, else one of the topics. */
  topics: Array<Uint8Array[] | undefined>;
}

const eq = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

export function matches(log: EvmLog, f: LogFilter): boolean {
  if (f.addresses.length > 0 && !f.addresses.some((a) => eq(a, log.address))) return false;
  if (f.topics.length > log.topics.length) return false;
  return f.topics.every((options, i) => options === undefined || options.length === 0 || options.some((t) => eq(t, log.topics[i]!)));
}

/** The matching logs of one block's records. */
export function recordLogs(number: bigint, blockHash: Uint8Array, records: TxRecord[], f: LogFilter, out: Record<string, unknown>[]): void {
  let logIndex = 0;
  records.forEach((r, txIndex) => {
    for (const log of r.logs) {
      if (matches(log, f)) out.push(formatLog(log, { number, blockHash, txHash: r.hash, txIndex, logIndex }));
      logIndex++;
    }
  });
}

/** The logs of one block that match. */
export async function blockLogs(chain: EvmChain, block: StoredBlock, f: LogFilter): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  if (block.body.length > 0) recordLogs(block.header.number, block.hash, await chain.store.txRecords(block.hash), f, out);
  return out;
}

/**
 * Heights in [from, to] that can hold a match: from the log indexes, the intersection of the
 * addresses' heights and of each constrained topic position's (a topic index is position-blind,
 * so this is a superset that `matches` narrows); undefined when the filter constrains nothing.
 */
async function candidates(chain: EvmChain, f: LogFilter, from: bigint, to: bigint): Promise<bigint[] | undefined> {
  const union = async (index: 'address' | 'topic', keys: Uint8Array[]) => {
    const all = new Set<bigint>();
    for (const k of keys) for (const h of await chain.store.heightsWith(index, k, from, to)) all.add(h);
    return all;
  };
  const sets: Set<bigint>[] = [];
  if (f.addresses.length > 0) sets.push(await union('address', f.addresses));
  for (const options of f.topics) if (options && options.length > 0) sets.push(await union('topic', options));
  if (sets.length === 0) return undefined;
  sets.sort((a, b) => a.size - b.size);
  const [smallest, ...rest] = sets;
  return [...smallest!].filter((h) => rest.every((s) => s.has(h))).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Heights read from the store per round trip. */
const CHUNK = 512;

export async function rangeLogs(chain: EvmChain, f: LogFilter, from: bigint, to: bigint): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let heights = await candidates(chain, f, from, to);
  if (!heights) {
    heights = [];
    for (let n = from; n <= to; n++) heights.push(n);
  }
  for (let i = 0; i < heights.length; i += CHUNK) {
    for (const { number, hash, records } of await chain.store.recordsAt(heights.slice(i, i + CHUNK))) recordLogs(number, hash, records, f, out);
  }
  return out;
}

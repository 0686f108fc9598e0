// Reads of accepted history that several APIs share: a block's decoded txs (kept for recent
// blocks), a tx with its position and record, and the logs matching a filter over a range.
import { createTxFromBlockBodyData, type TypedTransaction } from '@ethereumjs/tx';
import type { EvmChain } from '../chain.js';
import type { EvmLog, TxRecord } from '../records.js';
import type { StoredBlock } from '../store.js';
import { firstLogIndex, formatLog } from './format.js';

const decoded = new WeakMap<StoredBlock, TypedTransaction[]>();

export function blockTxs(chain: EvmChain, block: StoredBlock): TypedTransaction[] {
  let txs = decoded.get(block);
  if (!txs) {
    txs = block.body.map((item) => createTxFromBlockBodyData(item, { common: chain.common }));
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

/** The logs of one block that match. */
export async function blockLogs(chain: EvmChain, block: StoredBlock, f: LogFilter): Promise<Record<string, unknown>[]> {
  if (block.body.length === 0) return [];
  const records = await chain.store.txRecords(block.hash);
  const txs = blockTxs(chain, block);
  const out: Record<string, unknown>[] = [];
  records.forEach((r, txIndex) => {
    const first = firstLogIndex(records, txIndex);
    r.logs.forEach((log, i) => {
      if (matches(log, f)) out.push(formatLog(log, { block, txHash: txs[txIndex]!.hash(), txIndex, logIndex: first + i }));
    });
  });
  return out;
}

/** Heights in [from, to] that can hold a match, from the log indexes when the filter names an address or a topic. */
async function candidates(chain: EvmChain, f: LogFilter, from: bigint, to: bigint): Promise<bigint[] | undefined> {
  const union = async (index: 'address' | 'topic', keys: Uint8Array[]) => {
    const all = new Set<bigint>();
    for (const k of keys) for (const h of await chain.store.heightsWith(index, k, from, to)) all.add(h);
    return [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  };
  if (f.addresses.length > 0) return union('address', f.addresses);
  const position = f.topics.findIndex((t) => t !== undefined && t.length > 0);
  if (position >= 0) return union('topic', f.topics[position]!);
  return undefined;
}

export async function rangeLogs(chain: EvmChain, f: LogFilter, from: bigint, to: bigint): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  const heights = await candidates(chain, f, from, to);
  const visit = async (n: bigint) => {
    const block = await chain.store.blockAt(n);
    if (block) out.push(...(await blockLogs(chain, block, f)));
  };
  if (heights) for (const n of heights) await visit(n);
  else for (let n = from; n <= to; n++) await visit(n);
  return out;
}

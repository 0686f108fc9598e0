// The logs matching a filter, in a block or over a range (eth_getLogs and the filters), as JSON:
// read from the log indexes and the blocks' tx records.
import { equalsBytes } from '@ethereumjs/util';
import type { EvmChain } from '../chain.js';
import type { EvmLog, TxRecord } from '../records.js';
import type { StoredBlock } from '../store.js';
import { writeLog } from './format.js';
import { JsonArrayWriter, type JsonBytes } from '../../../encoding/jsonbytes.js';

export interface LogFilter {
  addresses: Uint8Array[];
  /** Per position: undefined matches anything, else one of the topics. */
  topics: Array<Uint8Array[] | undefined>;
}

/** Whether a log matches. Bytes compared in a loop (equalsBytes): Buffer.compare's call cost more than 20 or 32 bytes. */
export function matches(log: EvmLog, f: LogFilter): boolean {
  if (f.addresses.length > 0 && !f.addresses.some((a) => equalsBytes(a, log.address))) return false;
  if (f.topics.length > log.topics.length) return false;
  return f.topics.every((options, i) => options === undefined || options.length === 0 || options.some((t) => equalsBytes(t, log.topics[i]!)));
}

/** An array of logs being written. Its first piece, under 4 KiB, comes from Buffer's shared pool. */
const logArray = () => new JsonArrayWriter(2048);

/** The matching logs of one block's records. */
function recordLogs(number: bigint, blockHash: Uint8Array, records: readonly TxRecord[], f: LogFilter, out: JsonArrayWriter): void {
  let logIndex = 0;
  records.forEach((r, txIndex) => {
    for (const log of r.logs) {
      if (matches(log, f)) writeLog(out.item(), log, { number, blockHash, txHash: r.hash, txIndex, logIndex });
      logIndex++;
    }
  });
}

/** The logs of one block that match. */
export async function blockLogs(chain: EvmChain, block: StoredBlock, f: LogFilter): Promise<JsonBytes> {
  const out = logArray();
  if (block.body.length > 0) recordLogs(block.header.number, block.hash, await chain.store.txRecords(block.hash), f, out);
  return out.done();
}

/**
 * Heights in [from, to] that can hold a match: from the log indexes, the intersection of the
 * addresses' heights and of each constrained topic position's (a topic index is position-blind,
 * so this is a superset that `matches` narrows); undefined when the filter constrains nothing.
 */
async function candidates(chain: EvmChain, f: LogFilter, from: bigint, to: bigint): Promise<bigint[] | undefined> {
  const criteria: { index: 'address' | 'topic'; keys: Uint8Array[] }[] = [];
  if (f.addresses.length > 0) criteria.push({ index: 'address', keys: f.addresses });
  for (const options of f.topics) if (options && options.length > 0) criteria.push({ index: 'topic', keys: options });
  if (criteria.length === 0) return undefined;
  const union = async (c: (typeof criteria)[number], limit?: number) => {
    const all = new Set<bigint>();
    for (const k of c.keys) {
      const heights = await chain.store.heightsWith(c.index, k, from, to, limit === undefined ? undefined : limit + 1);
      for (const h of heights) all.add(h);
      if (limit !== undefined && all.size > limit) return undefined;
    }
    return all;
  };
  // A rare address or topic (say one log in 10,000 blocks) should not cost a scan of a common one:
  // each criterion is read up to a few thousand heights; the smallest that fits is checked against the
  // others by point reads. When none fits, every index is read whole and intersected.
  // Probed with a small limit first, so that a rare criterion is found without reading far into a
  // common one.
  let smallest: { set: Set<bigint>; at: number } | undefined;
  for (const probe of PROBES) {
    for (const [at, c] of criteria.entries()) {
      const set = await union(c, smallest ? Math.min(probe, smallest.set.size) : probe);
      if (set && (!smallest || set.size < smallest.set.size)) smallest = { set, at };
    }
    if (smallest) break;
  }
  let result: bigint[];
  if (smallest) {
    result = [...smallest.set];
    for (const [at, c] of criteria.entries()) {
      if (at === smallest.at || result.length === 0) continue;
      const having = await chain.store.heightsHaving(c.index, c.keys, result);
      result = result.filter((h) => having.has(h));
    }
  } else {
    const sets: Set<bigint>[] = [];
    for (const c of criteria) sets.push((await union(c))!);
    sets.sort((a, b) => a.size - b.size);
    const [first, ...rest] = sets;
    result = [...first!].filter((h) => rest.every((s) => s.has(h)));
  }
  return result.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** How many heights an index may yield before it no longer counts as selective, probe by probe. */
const PROBES = [64, 4096];

/** Heights read from the store per round trip. */
const CHUNK = 512;

/** The logs in [from, to] that match, as eth_getLogs answers them. */
export async function rangeLogs(chain: EvmChain, f: LogFilter, from: bigint, to: bigint): Promise<JsonBytes> {
  const out = logArray();
  // A fork's history up to its fork block is the upstream's: its logs are the upstream's answer.
  const history = chain.store.history;
  if (history && from <= history.base) {
    for (const l of await history.logs(f.addresses, f.topics, from, to)) writeLog(out.item(), l.log, l);
    if (to <= history.base) return out.done();
    from = history.base + 1n;
  }
  let heights = await candidates(chain, f, from, to);
  if (!heights) {
    heights = [];
    for (let n = from; n <= to; n++) heights.push(n);
  }
  for (let i = 0; i < heights.length; i += CHUNK) {
    for (const { number, hash, records } of await chain.store.recordsAt(heights.slice(i, i + CHUNK))) recordLogs(number, hash, records, f, out);
  }
  return out.done();
}

// An EVM chain's accepted history in its database: blocks by hash (coreth's block RLP), the
// canonical hash of each height, per block its tx records (senders and receipts), tx lookups, and
// two log indexes (address -> heights, topic -> heights) so eth_getLogs over a long range reads only
// the blocks that can match. Everything of one block is written in that block's batch.
import { RLP } from '@ethereumjs/rlp';
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToBigInt, bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { type Database, readAfter, type WriteBatch } from '../../storage/db.js';
import type { Changes } from '../../storage/undo.js';
import { type CorethHeader, decodeHeader, type HeaderLayout } from './header.js';
import { SEND_WARP_MESSAGE_TOPIC, WARP_ADDRESS_HEX } from './warp/precompile.js';
import { decodeRecords, encodeRecords, type EvmLog, type TxRecord } from './records.js';
import { toHex } from '../../encoding/bytes.js';

export interface StoredBlock {
  header: CorethHeader;
  hash: Uint8Array;
  /** Txs as the block body holds them (legacy: an RLP list, typed: type ‖ payload). */
  body: Array<Uint8Array | Uint8Array[]>;
  /** The block's RLP length. */
  size: number;
  /** coreth: the block's atomic txs (atomic.Codec of []*Tx), when it has any. */
  extData?: Uint8Array;
}

export interface TxLocation {
  number: bigint;
  index: number;
}

/** A log of a fork's upstream history and where it is. */
export interface UpstreamLog {
  log: EvmLog;
  number: bigint;
  blockHash: Uint8Array;
  txHash: Uint8Array;
  txIndex: number;
  logIndex: number;
}

/** What the store of a forked chain reads of its upstream's history (fork/history.ts). */
export interface UpstreamHistory {
  /** The fork block: the upstream's history is what is at or below it. */
  readonly base: bigint;
  at(number: bigint): Promise<{ block: StoredBlock; records: TxRecord[] } | undefined>;
  byHash(hash: Uint8Array): Promise<{ block: StoredBlock; records: TxRecord[] } | undefined>;
  lookup(txHash: Uint8Array): Promise<TxLocation | undefined>;
  logs(addresses: Uint8Array[], topics: Array<Uint8Array[] | undefined>, from: bigint, to: bigint): Promise<UpstreamLog[]>;
}

const u64 = (n: bigint): Uint8Array => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};

const SEND_WARP_MESSAGE = toHex(SEND_WARP_MESSAGE_TOPIC);

/** The warp message a SendWarpMessage log carries (its data is the ABI encoding of the unsigned bytes). */
function sentWarpMessage(log: { address: Uint8Array; topics: Uint8Array[]; data: Uint8Array }): { id: Uint8Array; unsigned: Uint8Array } | undefined {
  if (toHex(log.address) !== WARP_ADDRESS_HEX || log.topics.length !== 3 || toHex(log.topics[0]!) !== SEND_WARP_MESSAGE) return undefined;
  const data = Buffer.from(log.data.buffer, log.data.byteOffset, log.data.length);
  if (data.length < 64) return undefined;
  const length = Number(data.readBigUInt64BE(56));
  return { id: log.topics[2]!, unsigned: new Uint8Array(data.subarray(64, 64 + length)) };
}
/**
 * A block's txs, decoded (queries.ts blockTxs), by the block object the store keeps: a block this
 * process built gets the pool's txs at once, so the first read of it (a receipt) decodes nothing.
 */
export const decodedTxs = new WeakMap<StoredBlock, TypedTransaction[]>();

const HEAD = Buffer.from('head');
const BLOCK_CACHE = 2048;
/** Blocks whose decoded tx records are kept, at most. */
const RECORDS_CACHE = BLOCK_CACHE;
/**
 * What the kept records may weigh in all, a block, a tx record and a log counting one each (some
 * 300-600 bytes): 2,048 blocks of 4 transfers weigh 18,432; a block of 1,000 swaps with 4 logs
 * each, 5,001. An indexer reading back over a few hundred blocks found 256 blocks' records kept
 * too few: each of its reads decoded a block's records again.
 */
const RECORDS_WEIGHT = 65_536;

export class ChainStore {
  readonly blocks: Database;
  readonly heights: Database;
  readonly records: Database;
  readonly lookups: Database;
  readonly byAddress: Database;
  readonly byTopic: Database;
  readonly meta: Database;
  /** Warp messages sent by accepted txs: message ID -> unsigned message (what this node signs). */
  readonly warp: Database;
  private readonly cache = new Map<string, StoredBlock>();
  /**
   * The cached blocks' heights, by the same keys in the same order: what a revert scans. Read through
   * the blocks, the scan touched 2,048 objects spread over a large heap (0.6 ms of a 3 ms revert at
   * 100,000 accounts); here it reads one table.
   */
  private readonly cachedHeights = new Map<string, number>();
  /** Counts forgetAbove's calls: a block read from the store across one is not kept. */
  private forgotten = 0;
  private readonly recordsCache = new Map<string, { records: readonly TxRecord[]; weight: number }>();
  private recordsWeight = 0;
  /** A forked chain's history up to the fork block: what the store lacks there is the upstream's. */
  history: UpstreamHistory | undefined;

  constructor(
    db: Database,
    private readonly layout: HeaderLayout,
  ) {
    this.blocks = db.prefix('blocks');
    this.heights = db.prefix('heights');
    this.records = db.prefix('records');
    this.lookups = db.prefix('lookups');
    this.byAddress = db.prefix('logAddress');
    this.byTopic = db.prefix('logTopic');
    this.meta = db.prefix('meta');
    this.warp = db.prefix('warp');
  }

  async warpMessage(id: Uint8Array): Promise<Uint8Array | undefined> {
    return this.warp.get(id);
  }

  /** The head's hash (after a revert, `changes` may hold it). */
  async head(changes?: Changes): Promise<Uint8Array | undefined> {
    return readAfter(this.meta, HEAD, changes);
  }

  /** Makes a block the store does not hold (a fork's upstream block) the head. */
  putHead(batch: WriteBatch, hash: Uint8Array): void {
    batch.put(this.meta, HEAD, hash);
  }

  /** Adds an accepted block and its records to `batch`, and makes it the head. */
  put(batch: WriteBatch, block: StoredBlock, bytes: Uint8Array, records: TxRecord[], txHashes: Uint8Array[]): void {
    const { hash, header } = block;
    batch.put(this.blocks, hash, bytes);
    batch.put(this.heights, u64(header.number), hash);
    batch.put(this.records, hash, encodeRecords(records));
    txHashes.forEach((txHash, i) => {
      batch.put(this.lookups, txHash, RLP.encode([bigIntToUnpaddedBytes(header.number), bigIntToUnpaddedBytes(BigInt(i))]));
    });
    const addresses = new Set<string>();
    const topics = new Set<string>();
    for (const r of records)
      for (const log of r.logs) {
        addresses.add(toHex(log.address));
        for (const t of log.topics) topics.add(toHex(t));
        const sent = sentWarpMessage(log);
        if (sent) batch.put(this.warp, sent.id, sent.unsigned);
      }
    const height = u64(header.number);
    for (const a of addresses) batch.put(this.byAddress, Buffer.concat([Buffer.from(a, 'hex'), height]), new Uint8Array());
    for (const t of topics) batch.put(this.byTopic, Buffer.concat([Buffer.from(t, 'hex'), height]), new Uint8Array());
    batch.put(this.meta, HEAD, hash);
  }

  /**
   * Forgets the blocks kept at hand above `number` and every kept record: the store went back to a
   * snapshot whose head is `number` (blocks are only ever added above the head, so those at or
   * below it are the ones the snapshot has).
   */
  forgetAbove(number: bigint): void {
    this.forgotten++;
    const limit = Number(number);
    for (const [hash, height] of this.cachedHeights) {
      if (height <= limit) continue;
      this.cache.delete(hash);
      this.cachedHeights.delete(hash);
    }
    this.recordsCache.clear();
    this.recordsWeight = 0;
  }

  /** Called once the batch committed: keeps the block (and the records it was built with) at hand for reads. */
  remember(block: StoredBlock, records?: TxRecord[]): void {
    const key = toHex(block.hash);
    if (!this.cache.has(key) && this.cache.size >= BLOCK_CACHE) {
      const oldest = this.cache.keys().next().value!;
      this.cache.delete(oldest);
      this.cachedHeights.delete(oldest);
    }
    this.cache.set(key, block);
    this.cachedHeights.set(key, Number(block.header.number));
    if (records) this.keepRecords(key, Object.freeze(records));
  }

  private keepRecords(key: string, records: readonly TxRecord[]): void {
    let weight = 1;
    for (const r of records) weight += 1 + r.logs.length;
    // A block heavier than all that may be kept is read again each time.
    if (weight > RECORDS_WEIGHT || this.recordsCache.has(key)) return;
    while (this.recordsCache.size >= RECORDS_CACHE || this.recordsWeight + weight > RECORDS_WEIGHT) {
      const [oldest, kept] = this.recordsCache.entries().next().value!;
      this.recordsCache.delete(oldest);
      this.recordsWeight -= kept.weight;
    }
    this.recordsCache.set(key, { records, weight });
    this.recordsWeight += weight;
  }

  /** A block kept at hand, without a read; undefined when it is not. */
  keptBlock(hash: Uint8Array): StoredBlock | undefined {
    return this.cache.get(toHex(hash));
  }

  /** A block's txs' records kept at hand, without a read; undefined when they are not. */
  keptRecords(hash: Uint8Array): readonly TxRecord[] | undefined {
    return this.recordsCache.get(toHex(hash))?.records;
  }

  async hashAt(number: bigint): Promise<Uint8Array | undefined> {
    return (await this.heights.get(u64(number))) ?? (await this.upstreamAt(number))?.hash;
  }

  /** A forked chain's upstream block at `number` (at or below the fork block), kept at hand. */
  private async upstreamAt(number: bigint): Promise<StoredBlock | undefined> {
    const found = await this.history?.at(number);
    if (!found) return undefined;
    this.remember(found.block, found.records);
    return found.block;
  }

  async block(hash: Uint8Array): Promise<StoredBlock | undefined> {
    const cached = this.keptBlock(hash);
    if (cached) return cached;
    const forgotten = this.forgotten;
    const bytes = await this.blocks.get(hash);
    if (!bytes) {
      const found = await this.history?.byHash(hash);
      if (found) this.remember(found.block, found.records);
      return found?.block;
    }
    const fields = RLP.decode(bytes) as unknown as [Uint8Array[], Array<Uint8Array | Uint8Array[]>, unknown, unknown, Uint8Array?];
    const header = decodeHeader(fields[0], this.layout);
    const extData = fields[4];
    // Stored under its hash: no need to encode the header again to learn it.
    const block: StoredBlock = { header, hash, body: fields[1], size: bytes.length, ...(extData?.length ? { extData } : {}) };
    // A revert meanwhile may have taken the block away: read before it, it is not kept.
    if (forgotten === this.forgotten) this.remember(block);
    return block;
  }

  async blockAt(number: bigint): Promise<StoredBlock | undefined> {
    const hash = await this.heights.get(u64(number));
    return hash ? this.block(hash) : this.upstreamAt(number);
  }

  /** For each height, its hash and tx records, in a few round trips to the store. */
  async recordsAt(heights: bigint[]): Promise<Array<{ number: bigint; hash: Uint8Array; records: TxRecord[] }>> {
    const hashes = await this.heights.getMany(heights.map(u64));
    const present = heights.map((number, i) => ({ number, hash: hashes[i] })).filter((h): h is { number: bigint; hash: Uint8Array } => h.hash !== undefined);
    // Recent blocks' records are at hand, decoded (a test's eth_getLogs reads the blocks it just made).
    const kept = present.map((h) => this.recordsCache.get(toHex(h.hash))?.records as TxRecord[] | undefined);
    const raw = await this.records.getMany(present.filter((_, i) => kept[i] === undefined).map((h) => h.hash));
    let next = 0;
    const local = present.map((h, i) => {
      const bytes = kept[i] === undefined ? raw[next++] : undefined;
      return { ...h, records: kept[i] ?? (bytes ? decodeRecords(bytes) : []) };
    });
    if (!this.history) return local;
    const upstream = heights.filter((n, i) => hashes[i] === undefined && n <= this.history!.base);
    const fetched = await Promise.all(upstream.map((n) => this.history!.at(n)));
    const more = fetched.flatMap((f) => (f ? [{ number: f.block.header.number, hash: f.block.hash, records: f.records }] : []));
    return [...more, ...local].sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
  }

  /** A block's tx records (shared with other readers: not to be changed). */
  async txRecords(hash: Uint8Array): Promise<readonly TxRecord[]> {
    const key = toHex(hash);
    const cached = this.recordsCache.get(key);
    if (cached) return cached.records;
    const bytes = await this.records.get(hash);
    if (!bytes) {
      const found = this.history && (await this.history.byHash(hash));
      if (!found) return [];
      const records = Object.freeze(found.records);
      this.keepRecords(key, records);
      return records;
    }
    // A list reads a block's records once per tx it shows: each decode of a full block costs ~0.3 ms.
    const records = Object.freeze(decodeRecords(bytes));
    this.keepRecords(key, records);
    return records;
  }

  async lookup(txHash: Uint8Array): Promise<TxLocation | undefined> {
    const bytes = await this.lookups.get(txHash);
    if (!bytes) return this.history?.lookup(txHash);
    const [n, i] = RLP.decode(bytes) as Uint8Array[];
    return { number: bytesToBigInt(n!), index: Number(bytesToBigInt(i!)) };
  }

  /** Heights in [from, to] with a log of `key` (an address or a topic), ascending. */
  /** The heights in [from, to] whose logs name `key` (an address or a topic), at most `limit` of them. */
  async heightsWith(index: 'address' | 'topic', key: Uint8Array, from: bigint, to: bigint, limit?: number): Promise<bigint[]> {
    const db = index === 'address' ? this.byAddress : this.byTopic;
    const entries = await db.entries({
      gte: Buffer.concat([key, u64(from)]),
      lt: to >= (1n << 64n) - 1n ? Buffer.concat([key, Buffer.alloc(8, 0xff), Buffer.of(0)]) : Buffer.concat([key, u64(to + 1n)]),
      ...(limit === undefined ? {} : { limit }),
    });
    return entries.map(([k]) => Buffer.from(k).readBigUInt64BE(k.length - 8));
  }

  /** Which of `heights` have logs naming any of `keys`: point reads, for a few heights against a large index. */
  async heightsHaving(index: 'address' | 'topic', keys: Uint8Array[], heights: bigint[]): Promise<Set<bigint>> {
    const db = index === 'address' ? this.byAddress : this.byTopic;
    const found = new Set<bigint>();
    for (const key of keys) {
      const values = await db.getMany(heights.map((h) => Buffer.concat([key, u64(h)])));
      values.forEach((v, i) => {
        if (v !== undefined) found.add(heights[i]!);
      });
    }
    return found;
  }
}

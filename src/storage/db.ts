// The node's key-value store: LevelDB on disk (--db-type=leveldb) or in memory (memdb), behind the
// same abstract-level API so every layer above is indifferent to which one runs. Every layer gets
// its own prefixed sub-database (avalanchego's prefixdb), and one WriteBatch can span any of them,
// so a block, its shared-memory effects and its index entry still land in one atomic write.
import { hash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Level } from 'level';
import type { MemoryLevel } from 'memory-level';
import { type Changes, UndoLog } from './undo.js';

import type { BatchOp, Bytes } from './ops.js';

export type { BatchOp, Bytes } from './ops.js';

export interface Range {
  gte?: Bytes;
  gt?: Bytes;
  lt?: Bytes;
  lte?: Bytes;
  limit?: number;
  /** Newest key first. */
  reverse?: boolean;
}

export interface Database {
  readonly kind: 'leveldb' | 'memdb';
  /** The store's directory (leveldb), for messages and disk checks. */
  readonly path: string | undefined;
  /** What this database's keys start with in the store: empty for the root. */
  readonly keyPrefix: Bytes;
  get(key: Bytes): Promise<Bytes | undefined>;
  /** Many reads in one round trip to the store. */
  getMany(keys: Bytes[]): Promise<Array<Bytes | undefined>>;
  put(key: Bytes, value: Bytes): Promise<void>;
  del(key: Bytes): Promise<void>;
  /** Writes `ops` (this database's keys) atomically. */
  batch(ops: BatchOp[]): Promise<void>;
  /** Commits a batch that may span several databases of this store, atomically. */
  write(batch: WriteBatch): Promise<void>;
  /** Values of the keys in [gte, lt), in key order, at most `limit`. */
  values(range: Range): Promise<Bytes[]>;
  /** Entries of the keys in [gte, lt), in key order, at most `limit`; keys are this database's. */
  entries(range: Range): Promise<Array<[Bytes, Bytes]>>;
  /**
   * A sub-database whose keys live under sha256(name) within this one, as avalanchego's prefixdb
   * does: hashed prefixes all have one length, so no sub-database's range overlaps another's.
   */
  prefix(name: Bytes | string): Database;
  /** Every entry of the store, in key order, read at one instant (the root only). */
  everything(): Promise<Array<[Bytes, Bytes]>>;
  /** Makes `entries` the store's whole content in one atomic write (the root only). */
  replaceEverything(entries: Array<[Bytes, Bytes]>): Promise<void>;
  readonly status: string;
  /** The store's undo log (whole-node snapshots): every database of one store shares it. */
  readonly undo: UndoLog;
  /** Closes the store (only the root's close does anything). */
  close(): Promise<void>;
}

export class DatabaseError extends Error {}

/** Writes for several databases of one store, committed together by `Database.write`. */
export class WriteBatch {
  readonly ops: BatchOp[] = [];

  put(db: Database, key: Bytes, value: Bytes): this {
    this.ops.push({ type: 'put', key: join(db.keyPrefix, key), value });
    return this;
  }

  del(db: Database, key: Bytes): this {
    this.ops.push({ type: 'del', key: join(db.keyPrefix, key) });
    return this;
  }

  get size(): number {
    return this.ops.length;
  }
}

type AbstractDb = Level<Bytes, Bytes> | MemoryLevel<Bytes, Bytes>;

/** The smallest key above every key that starts with `prefix` (hashed prefixes never end in all 0xff bytes in practice). */
function increment(prefix: Bytes): Bytes {
  const out = Uint8Array.from(prefix);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]! < 0xff) {
      out[i]!++;
      return out.subarray(0, i + 1);
    }
  }
  return Uint8Array.of(...prefix, 0xff);
}

const join = (prefix: Bytes, key: Bytes): Bytes => (prefix.length === 0 ? key : Buffer.concat([prefix, key]));
const EMPTY = new Uint8Array(0);

class PrefixedDatabase implements Database {
  constructor(
    private readonly store: AbstractDb,
    readonly kind: 'leveldb' | 'memdb',
    readonly path: string | undefined,
    readonly keyPrefix: Bytes,
    readonly undo: UndoLog,
  ) {}

  get status(): string {
    return this.store.status;
  }
  private key(k: Bytes): Bytes {
    return join(this.keyPrefix, k);
  }
  /**
   * A synchronous read, answered as a promise: LevelDB answers a key in its caches in about 8 µs on
   * the calling thread, where an asynchronous get costs about 40 µs of CPU and latency in a round
   * trip through libuv's thread pool (most of a first read's time, node by node down a trie).
   */
  get(key: Bytes): Promise<Bytes | undefined> {
    try {
      return Promise.resolve(this.store.getSync(this.key(key)));
    } catch (err) {
      return Promise.reject(err);
    }
  }
  getMany(keys: Bytes[]) {
    return keys.length === 0 ? Promise.resolve([]) : (this.store as Level<Bytes, Bytes>).getMany(keys.map((k) => this.key(k)));
  }
  // Every write goes through the undo log, which records what it overwrites while a snapshot is held.
  put(key: Bytes, value: Bytes) {
    return this.undo.write([{ type: 'put', key: this.key(key), value }]);
  }
  del(key: Bytes) {
    return this.undo.write([{ type: 'del', key: this.key(key) }]);
  }
  async batch(ops: BatchOp[]): Promise<void> {
    await this.undo.write(this.keyPrefix.length === 0 ? ops : ops.map((op) => ({ ...op, key: this.key(op.key) })));
  }
  async write(batch: WriteBatch): Promise<void> {
    if (batch.size > 0) await this.undo.write(batch.ops);
  }
  /** `r` in the store's keys: bounds under this database's prefix, and the prefix's own range where a side is open. */
  private range(r: Range): Range {
    const out: Range = {};
    if (r.gt) out.gt = this.key(r.gt);
    else out.gte = this.key(r.gte ?? EMPTY);
    if (r.lte) out.lte = this.key(r.lte);
    else if (r.lt) out.lt = this.key(r.lt);
    else if (this.keyPrefix.length > 0) out.lt = increment(this.keyPrefix);
    if (r.limit !== undefined) out.limit = r.limit;
    if (r.reverse) out.reverse = true;
    return out;
  }
  values(range: Range) {
    return (this.store as Level<Bytes, Bytes>).values(this.range(range)).all();
  }
  async entries(range: Range): Promise<Array<[Bytes, Bytes]>> {
    const all = await (this.store as Level<Bytes, Bytes>).iterator(this.range(range)).all();
    const n = this.keyPrefix.length;
    return n === 0 ? all : all.map(([k, v]) => [k.subarray(n), v]);
  }
  prefix(name: Bytes | string): Database {
    // Node's SHA-256, as crypto/sha256.ts has it (a layer the store does not import).
    const hashed = hash('sha256', name, 'buffer');
    return new PrefixedDatabase(this.store, this.kind, this.path, join(this.keyPrefix, hashed), this.undo);
  }
  private root(what: string): void {
    if (this.keyPrefix.length !== 0) throw new DatabaseError(`${what} is for the root database only`);
  }
  everything(): Promise<Array<[Bytes, Bytes]>> {
    this.root('everything');
    // An iterator reads from an implicit snapshot: a block written meanwhile is in it whole or not at all.
    return (this.store as Level<Bytes, Bytes>).iterator().all();
  }
  async replaceEverything(entries: Array<[Bytes, Bytes]>): Promise<void> {
    this.root('replaceEverything');
    const keep = new Set(entries.map(([k]) => Buffer.from(k).toString('hex')));
    const ops: BatchOp[] = [];
    for await (const key of (this.store as Level<Bytes, Bytes>).keys()) {
      if (!keep.has(Buffer.from(key).toString('hex'))) ops.push({ type: 'del', key });
    }
    for (const [key, value] of entries) ops.push({ type: 'put', key, value });
    await this.undo.write(ops);
  }
  close(): Promise<void> {
    return this.keyPrefix.length === 0 ? this.store.close() : Promise.resolve();
  }
}

// require, not import(): the node's bundle runs from V8's code cache (scripts/launcher.mjs), where a
// dynamic import() has no loader to call.
const lazyRequire = createRequire(import.meta.url);

/**
 * memdb's store holds keys and values as latin1 strings, a char per byte: memory-level then orders
 * keys with V8's string comparison (in byte order, as latin1 chars are bytes) instead of its loop
 * over each byte, which walked the 32- and 64-byte prefixes every key shares at every tree level; and
 * a value is one string rather than a Buffer object.
 */
const BYTES_AS_LATIN1 = {
  name: 'bytes-as-latin1',
  format: 'utf8',
  encode: (b: Bytes): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1'),
  decode: (s: string): Bytes => Buffer.from(s, 'latin1'),
} as const;

/** What a revert's rollback (`changes`) wrote at `db`'s `key`: `{ value }`, undefined if it left the key alone. */
export function writtenAt(db: Database, key: Bytes, changes: Changes): { value: Bytes | undefined } | undefined {
  return changes.written(join(db.keyPrefix, key));
}

/**
 * `db`'s value at `key` after a revert's rollback (`changes`): what the rollback wrote there, known
 * without a read, or else the store's (which the rollback left as it was).
 */
export function readAfter(db: Database, key: Bytes, changes: Changes | undefined): Promise<Bytes | undefined> {
  const written = changes && writtenAt(db, key, changes);
  return written ? Promise.resolve(written.value) : db.get(key);
}

/**
 * LevelDB's open files: avalanchego's leveldb cap (DefaultHandleCap, 1,024), of which LevelDB keeps
 * 10 for its own files and the rest for its table cache. A read in a table the cache has closed
 * opens it again first (its file, footer, index and bloom filter): with 100 files (90 tables),
 * past about 180 MB of 2 MB tables nearly every read of a key missed, and took 80-250 µs instead
 * of 2-6 (a 428 MB store of 3M random keys, keys it does not hold; `bench:state` at 100,000
 * accounts and slots: a snapshot cycle 9.8-11.2 ms instead of 4.7, of it 0.9-1.6 ms a block
 * reading what the block overwrites, nearly all keys not there yet). LevelDB 1.20 maps the tables
 * it keeps open into memory (1,000 at most in a process, about 2 GB; past that it reads them with
 * pread), so the pages it has read count in VmRSS as clean file-backed memory (RssFile), which the
 * kernel takes back under pressure (`bench:index`, 1M containers: 375 MiB, of it 226 MiB of mapped
 * tables, against 187 MB with 100 files).
 */
const MAX_OPEN_FILES = 1024;

export async function openDatabase(kind: 'leveldb' | 'memdb', path: string): Promise<Database> {
  const options = { keyEncoding: 'view', valueEncoding: 'view' } as const;
  // Only the store in use is loaded: each costs start-up time.
  if (kind === 'memdb') {
    const { MemoryLevel } = lazyRequire('memory-level') as typeof import('memory-level');
    const db = new MemoryLevel<Bytes, Bytes>({ storeEncoding: 'utf8', keyEncoding: BYTES_AS_LATIN1, valueEncoding: BYTES_AS_LATIN1 });
    await db.open();
    return new PrefixedDatabase(db, 'memdb', undefined, EMPTY, undoLogOf(db, 'memdb'));
  }
  mkdirSync(path, { recursive: true, mode: 0o750 });
  const { Level } = lazyRequire('level') as typeof import('level');
  // The table cache keeps nearly avalanchego's 1,024 files open (see MAX_OPEN_FILES).
  const db = new Level<Bytes, Bytes>(path, { ...options, maxOpenFiles: MAX_OPEN_FILES });
  try {
    await db.open();
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code === 'LEVEL_LOCKED') {
      throw new DatabaseError(`database ${path} is in use by another process (another node on the same --data-dir or --db-dir?)`);
    }
    throw new DatabaseError(`couldn't open database ${path}: ${cause?.message ?? (err as Error).message}`);
  }
  return new PrefixedDatabase(db, 'leveldb', path, EMPTY, undoLogOf(db, 'leveldb'));
}

/**
 * One atomic write of `ops` to LevelDB, as a chained batch: abstract-level's array form copies each
 * op with two object spreads, a slow path of Node 20's V8 (about 2 µs a property), where the chained
 * form builds each op once. 80 ops took 420-510 µs as an array, 245-350 chained (2,000 writes each);
 * in the node a block's write and a revert's rollback took about 100 µs less. (memory-level's chained
 * batch gathers the ops again before its own write: there the array stays, 10-30 µs faster.)
 */
async function writeChained(db: Level<Bytes, Bytes>, ops: BatchOp[]): Promise<void> {
  if (ops.length === 0) return;
  const batch = db.batch();
  try {
    for (const op of ops) {
      if (op.type === 'put') batch.put(op.key, op.value);
      else batch.del(op.key);
    }
  } catch (err) {
    // An op refused before the write (a key the encoding rejects): the batch is let go unwritten.
    await batch.close();
    throw err;
  }
  await batch.write();
}

/**
 * Keys read together, at most, on the calling thread (getSync) rather than in one trip through
 * libuv's thread pool (getMany): what a write overwrites while a snapshot is held is read so. A
 * block's 80 keys (half of them absent: new trie nodes, new records) took 400-500 µs read one by one
 * on LevelDB against 650-1,000 µs in one getMany (1,000 reads of each); a larger write is read off
 * the event loop.
 */
const SYNC_READS = 256;

function readMany(db: AbstractDb, keys: Bytes[]): Promise<Array<Bytes | undefined>> {
  if (keys.length > SYNC_READS) return (db as Level<Bytes, Bytes>).getMany(keys);
  try {
    return Promise.resolve(keys.map((k) => db.getSync(k)));
  } catch (err) {
    return Promise.reject(err);
  }
}

const undoLogOf = (db: AbstractDb, kind: 'leveldb' | 'memdb') =>
  new UndoLog({
    getMany: (keys) => readMany(db, keys),
    batch: kind === 'leveldb' ? (ops) => writeChained(db as Level<Bytes, Bytes>, ops) : (ops) => (db as MemoryLevel<Bytes, Bytes>).batch(ops),
  });

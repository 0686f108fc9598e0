// The node's key-value store: LevelDB on disk (--db-type=leveldb) or in memory (memdb), behind the
// same abstract-level API so every layer above is indifferent to which one runs.
import { mkdirSync } from 'node:fs';
import type { Level } from 'level';
import type { MemoryLevel } from 'memory-level';

export type Bytes = Uint8Array;

export interface Database {
  readonly kind: 'leveldb' | 'memdb';
  readonly path: string | undefined;
  get(key: Bytes): Promise<Bytes | undefined>;
  /** Many reads in one round trip to the store. */
  getMany(keys: Bytes[]): Promise<Array<Bytes | undefined>>;
  put(key: Bytes, value: Bytes): Promise<void>;
  del(key: Bytes): Promise<void>;
  batch(ops: Array<{ type: 'put'; key: Bytes; value: Bytes } | { type: 'del'; key: Bytes }>): Promise<void>;
  /** Values of the keys in [gte, lt), in key order, at most `limit`. */
  values(range: Range): Promise<Bytes[]>;
  /** Entries of the keys in [gte, lt), in key order, at most `limit`. */
  entries(range: Range): Promise<Array<[Bytes, Bytes]>>;
  readonly status: string;
  close(): Promise<void>;
}

export class DatabaseError extends Error {}

export interface Range {
  gte: Bytes;
  lt: Bytes;
  limit?: number;
}

type AbstractDb = Level<Bytes, Bytes> | MemoryLevel<Bytes, Bytes>;

class LevelDatabase implements Database {
  constructor(readonly kind: 'leveldb' | 'memdb', readonly path: string | undefined, private readonly db: AbstractDb) {}
  get status(): string { return this.db.status; }
  get(key: Bytes) { return this.db.get(key); }
  getMany(keys: Bytes[]) { return keys.length === 0 ? Promise.resolve([]) : (this.db as Level<Bytes, Bytes>).getMany(keys); }
  put(key: Bytes, value: Bytes) { return this.db.put(key, value); }
  del(key: Bytes) { return this.db.del(key); }
  async batch(ops: Parameters<Database['batch']>[0]): Promise<void> { await (this.db as Level<Bytes, Bytes>).batch(ops); }
  values(range: Range) { return (this.db as Level<Bytes, Bytes>).values(range).all(); }
  entries(range: Range) { return (this.db as Level<Bytes, Bytes>).iterator(range).all(); }
  close() { return this.db.close(); }
}

export async function openDatabase(kind: 'leveldb' | 'memdb', path: string): Promise<Database> {
  const options = { keyEncoding: 'view', valueEncoding: 'view' } as const;
  // Only the store in use is loaded: each costs start-up time.
  if (kind === 'memdb') {
    const { MemoryLevel } = await import('memory-level');
    const db = new MemoryLevel<Bytes, Bytes>(options);
    await db.open();
    return new LevelDatabase('memdb', undefined, db);
  }
  mkdirSync(path, { recursive: true, mode: 0o750 });
  const { Level } = await import('level');
  // LevelDB maps each open table file into memory; its table cache closes (and unmaps) what it does
  // not keep. A cache of 100 tables (about 200 MB of 2 MB tables) bounds the resident set on a large
  // index, where the default of 1000 would let every table of a 400 MB database stay mapped.
  const db = new Level<Bytes, Bytes>(path, { ...options, maxOpenFiles: 100 });
  try {
    await db.open();
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code === 'LEVEL_LOCKED') {
      throw new DatabaseError(`database ${path} is in use by another process (another node on the same --data-dir or --db-dir?)`);
    }
    throw new DatabaseError(`couldn't open database ${path}: ${cause?.message ?? (err as Error).message}`);
  }
  return new LevelDatabase('leveldb', path, db);
}

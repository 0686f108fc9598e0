// Where an EVM chain's tries and code live: one content-addressed store (node hash -> node, code
// hash -> code) under the chain's database, shared by the block builder's state and by every read of
// a past state. Nothing is ever deleted (no pruning), so every accepted block's state stays readable.
// Writes wait in memory until the block that made them commits: they join its batch, so a block's
// state lands in the same atomic write as the block itself.
import type { BatchDBOp, DB } from '@ethereumjs/util';
import type { Database, WriteBatch } from '../../storage/db.js';
import { toHex } from '../../encoding/bytes.js';
import type { ForkState } from './fork/state.js';
import type { Preimages } from './preimages.js';
import { StagedWrites } from './staged.js';

/** Recently read nodes kept in memory (entries, not bytes): the hot top of the tries. */
const CACHE_ENTRIES = 50_000;
/** What warmFromFork reads of the fork cache at most (code included), and per read. */
const WARMED_BYTES = 32 * 1024 * 1024;
const WARM_CHUNK = 1024;

type Key = Uint8Array | string;
type Value = Uint8Array | string;

/**
 * With ValueEncoding.Bytes (as the tries are opened) values are bytes; hex strings are accepted all the same.
 * Kept here rather than fromHex: bytes pass through as they are, and a string gives Buffer's own bytes without the copy.
 */
const bytesOf = (v: Value): Uint8Array => (typeof v === 'string' ? Buffer.from(v, 'hex') : v);

/** The first read's value, else the second's (both under way already). */
async function firstOf(a: Promise<Uint8Array | undefined>, b: Promise<Uint8Array | undefined>): Promise<Uint8Array | undefined> {
  const [own, upstream] = await Promise.all([a, b]);
  return own ?? upstream;
}

export const keyHex = (key: Key): string => (typeof key === 'string' ? key : toHex(key));

export class NodeStore implements DB<string, Value> {
  /** Written since the last commit, waiting for the block's write. */
  private readonly staged: StagedWrites;
  private cache = new Map<string, Uint8Array>();
  /** A forked chain's upstream state: nodes and code the chain has not written are read there. */
  fork: ForkState | undefined;
  /** The preimages of the keys the tries write (preimages-enabled), written with the nodes. */
  preimages: Preimages | undefined;

  constructor(private readonly db: Database) {
    this.staged = new StagedWrites(db);
  }

  async get(key: Key): Promise<Value | undefined> {
    const hex = keyHex(key);
    const hit = this.staged.get(hex) ?? this.cache.get(hex);
    if (hit) return hit;
    const bytes = Buffer.from(hex, 'hex');
    // On a fork most nodes are the upstream's: both stores are asked at once, not one after the other.
    const value = this.fork ? await firstOf(this.db.get(bytes), this.fork.get(bytes)) : await this.db.get(bytes);
    if (value) this.remember(hex, value);
    return value;
  }

  async put(key: Key, value: Value): Promise<void> {
    this.staged.set(keyHex(key), bytesOf(value));
  }

  /** Nodes are shared between states: one no longer in a trie may be in an older root's. */
  async del(): Promise<void> {}

  async batch(ops: BatchDBOp<string, Value>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') this.staged.set(keyHex(op.key), bytesOf(op.value));
  }

  shallowCopy(): DB<string, Value> {
    return this;
  }

  async open(): Promise<void> {}

  /** Adds every write since the last commit (and the preimages noted) to `batch`; returns what to call once it committed. */
  flushInto(batch: WriteBatch): () => void {
    const preimagesSettled = this.preimages?.flushInto(batch);
    const settled = this.staged.flushInto(batch, (hex, value) => this.remember(hex, value));
    return () => {
      preimagesSettled?.();
      settled();
    };
  }

  /**
   * On a fork, reads the fork cache into the memory cache, in the background, up to half the cache's
   * entries and WARMED_BYTES: a run on a fork whose cache a run before filled finds the upstream's
   * nodes in memory instead of waiting on two stores for each (the chain's own, then the fork cache).
   * Both are content-addressed, so whatever is read when is right. Stops at the first failure (the
   * store closed meanwhile).
   */
  async warmFromFork(): Promise<void> {
    let after: Uint8Array | undefined;
    let [entries, bytes] = [0, 0];
    try {
      while (this.fork && entries < CACHE_ENTRIES / 2 && bytes < WARMED_BYTES) {
        const chunk = await this.fork.cachedEntries(after, WARM_CHUNK);
        for (const [key, value] of chunk) {
          const hex = toHex(key);
          if (!this.cache.has(hex)) this.remember(hex, value);
          entries++;
          bytes += value.length;
        }
        if (chunk.length < WARM_CHUNK) return;
        after = chunk.at(-1)![0];
      }
    } catch {
      // The fork cache closed or failed: the nodes are read one by one as before.
    }
  }

  /** A batch that failed: its writes wait for the next one. */
  unflushed(): void {
    this.preimages?.unflushed();
    this.staged.unflushed();
  }

  private remember(hex: string, value: Uint8Array): void {
    if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(hex, value);
  }
}

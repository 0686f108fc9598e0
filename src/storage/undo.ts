// The store's undo log, for whole-node snapshots (evm_snapshot): while a snapshot is held, every
// write first records what it overwrites, once per key and snapshot, so that going back to a
// snapshot is one atomic write of those values — its cost follows what changed since, not the
// store's size, and the store stays the only copy of the node's state (kill -9 loses nothing).
//
// Snapshots are layers: layer `id` holds the values keys had when snapshot `id` was taken, for the
// keys written from then until the next snapshot. Going back to `id` takes the layers from the
// newest down to `id` (an older layer's value wins: it is the earlier one).
import type { BatchOp, Bytes } from './ops.js';

/** What the undo log needs of the store: reads of several keys, and one atomic write. */
export interface UndoStore {
  getMany(keys: Bytes[]): Promise<Array<Bytes | undefined>>;
  batch(ops: BatchOp[]): Promise<void>;
}

interface Layer {
  id: bigint;
  /** Each written key (latin1) and what it held when the snapshot was taken; undefined: absent. */
  priors: Map<string, Bytes | undefined>;
  /** The root-level databases written (a key's first 32 bytes: a hashed prefix; a shorter key whole). */
  spaces: Set<string>;
  bytes: number;
}

/** Snapshots held at once; beyond it the oldest is dropped (each costs a layer, empty until written). */
export const MAX_LAYERS = 10_000;
/** What the layers may hold in all; past it the oldest snapshots are dropped, as Anvil never is (it keeps copies). */
export const MAX_UNDO_BYTES = 512 * 1024 * 1024;
/** A layer's own cost besides its keys and values (map entry, strings). */
const ENTRY_OVERHEAD = 64;

const keyOf = (k: Bytes) => Buffer.from(k.buffer, k.byteOffset, k.byteLength).toString('latin1');
const bytesOf = (k: string): Bytes => Buffer.from(k, 'latin1');
/** A hashed prefix's length: a root-level database's keys all start with one. */
const SPACE_CHARS = 32;
/** The root-level database a key (latin1) is in: its hashed prefix, or the key itself for the root's bare keys. */
export const spaceOf = (k: string) => (k.length >= SPACE_CHARS ? k.slice(0, SPACE_CHARS) : k);
/** `spaceOf` for a prefix or key in bytes. */
export const spaceOfBytes = (b: Bytes) => spaceOf(keyOf(b));

/** What going back to a snapshot writes, and which keys it touches. */
export interface Rollback {
  ops: BatchOp[];
  /** The root-level databases it writes (see `spaceOf`). */
  spaces: Set<string>;
  /** What it writes at each key (latin1): the value put, or undefined for a deletion. */
  values: Map<string, Bytes | undefined>;
}

/**
 * Which keys a rollback writes, as the parts that reload after it ask: a part whose in-memory state
 * mirrors keys the rollback left alone keeps it instead of reading the store again (an iterator on
 * LevelDB costs a few hundred µs, as much as the rest of a revert).
 */
export interface Changes {
  /** Whether it writes any key that starts with `prefix` (a database's keyPrefix, maybe with a key's first bytes). */
  touches(prefix: Bytes): boolean;
  /** Whether it puts a value (not only deletes keys) under `prefix`. */
  puts(prefix: Bytes): boolean;
  /** What it wrote at `key` (a store key: a database's keyPrefix and its key): `{ value }`, undefined for a key it left alone. */
  written(key: Bytes): { value: Bytes | undefined } | undefined;
}

/** The Changes of `rollback`. */
export function changesOf(rollback: Rollback): Changes {
  // Keys compared as latin1 strings, as the log holds them. A prefix is looked for among the keys of
  // its own root-level database only: a revert's parts ask a few prefixes each (the relayer five),
  // and most of a rollback's keys are one chain's (its trie nodes), which the others' need not pass.
  const { values } = rollback;
  let bySpace: Map<string, Array<[string, Bytes | undefined]>> | undefined;
  const keysIn = (space: string) => {
    if (!bySpace) {
      bySpace = new Map();
      for (const entry of values) {
        const s = spaceOf(entry[0]);
        const list = bySpace.get(s);
        if (list) list.push(entry);
        else bySpace.set(s, [entry]);
      }
    }
    return bySpace.get(space) ?? [];
  };
  const scan = (prefix: Bytes, putsOnly: boolean) => {
    const p = keyOf(prefix);
    // A prefix as long as a space names it; a shorter one (the root's bare keys) may span several.
    const keys = p.length >= SPACE_CHARS ? keysIn(spaceOf(p)) : values;
    for (const [k, v] of keys) if ((v !== undefined || !putsOnly) && k.startsWith(p)) return true;
    return false;
  };
  const written = (key: Bytes) => {
    const k = keyOf(key);
    return values.has(k) ? { value: values.get(k) } : undefined;
  };
  return { touches: (prefix) => scan(prefix, false), puts: (prefix) => scan(prefix, true), written };
}

export class UndoLog {
  private layers: Layer[] = [];
  private bytes = 0;
  /** Writes and marks in the order they were asked for: a write's priors are read before any later write lands. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Queued sections not finished: while any is, a write queues too (a mark may be waiting). */
  private queuedCount = 0;
  /** Writes that went straight to the store (no snapshot held, nothing queued) and have not landed. */
  private readonly unqueued = new Set<Promise<void>>();

  constructor(
    private readonly store: UndoStore,
    private readonly maxBytes = MAX_UNDO_BYTES,
    private readonly maxLayers = MAX_LAYERS,
  ) {}

  /** Whether writes are recorded (a snapshot is held). */
  get recording(): boolean {
    return this.layers.length > 0;
  }

  /** The oldest snapshot held (the bounds drop the oldest first). */
  oldest(): bigint | undefined {
    return this.layers[0]?.id;
  }

  /** Runs `fn` after the writes and marks asked for before it. */
  private queued<T>(fn: () => Promise<T>): Promise<T> {
    this.queuedCount++;
    const next = this.tail.then(fn, fn).finally(() => this.queuedCount--);
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Writes `ops` atomically, recording first what they overwrite when a snapshot is held. */
  write(ops: BatchOp[]): Promise<void> {
    // No snapshot held and nothing queued: the write goes straight to the store, at no cost but
    // being known until it lands (a snapshot asked meanwhile waits for it: see mark).
    if (!this.recording && this.queuedCount === 0) {
      const landing = this.store.batch(ops);
      this.unqueued.add(landing);
      const landed = () => this.unqueued.delete(landing);
      landing.then(landed, landed);
      return landing;
    }
    return this.queued(async () => {
      const top = this.layers.at(-1);
      if (top) await this.record(top, ops);
      await this.store.batch(ops);
    });
  }

  private async record(top: Layer, ops: BatchOp[]): Promise<void> {
    const fresh: string[] = [];
    const seen = new Set<string>();
    for (const op of ops) {
      const k = keyOf(op.key);
      if (!top.priors.has(k) && !seen.has(k)) {
        seen.add(k);
        fresh.push(k);
      }
    }
    if (fresh.length === 0) return;
    const values = await this.store.getMany(fresh.map(bytesOf));
    let added = 0;
    fresh.forEach((k, i) => {
      const v = values[i];
      top.priors.set(k, v === undefined ? undefined : Uint8Array.from(v));
      top.spaces.add(spaceOf(k));
      added += k.length + (v?.length ?? 0) + ENTRY_OVERHEAD;
    });
    top.bytes += added;
    this.bytes += added;
    this.trim();
  }

  /** Past the bounds, the oldest snapshots go (reverting to them answers false, as to an unknown id). */
  private trim(): void {
    while (this.layers.length > 0 && (this.bytes > this.maxBytes || this.layers.length > this.maxLayers)) {
      const gone = this.layers.shift()!;
      this.bytes -= gone.bytes;
    }
  }

  /** Takes snapshot `id` once the writes asked for so far have landed. */
  mark(id: bigint): Promise<void> {
    return this.queued(async () => {
      // Those that went straight to the store too: a write after the snapshot reads what it
      // overwrites, which must be what they wrote (else a revert would undo them, asked before it).
      if (this.unqueued.size > 0) await Promise.allSettled([...this.unqueued]);
      this.layers.push({ id, priors: new Map(), spaces: new Set(), bytes: 0 });
      this.trim();
    });
  }

  /**
   * Once the writes asked for so far have landed: what puts the store back as it was at snapshot
   * `id`, with that snapshot and every later one used up (undefined if it is not held). Nothing is
   * written: the caller writes it with `restore`, which records nothing (the older layers already
   * hold what they need).
   */
  take(id: bigint): Promise<Rollback | undefined> {
    return this.queued(async () => {
      const at = this.layers.findIndex((l) => l.id === id);
      if (at < 0) return undefined;
      const values = new Map<string, Bytes | undefined>();
      const spaces = new Set<string>();
      for (const layer of this.layers.slice(at).reverse()) {
        for (const [k, v] of layer.priors) values.set(k, v);
        for (const s of layer.spaces) spaces.add(s);
      }
      for (const gone of this.layers.splice(at)) this.bytes -= gone.bytes;
      const ops: BatchOp[] = [];
      for (const [k, v] of values) {
        const key = bytesOf(k);
        ops.push(v === undefined ? { type: 'del', key } : { type: 'put', key, value: v });
      }
      return { ops, spaces, values };
    });
  }

  /** Writes a rollback, after the writes asked for before it, without recording it. */
  restore(rollback: Rollback): Promise<void> {
    return this.queued(() => this.store.batch(rollback.ops));
  }

  /** Drops every snapshot (a reset, a load). */
  clear(): Promise<void> {
    return this.queued(async () => {
      this.layers = [];
      this.bytes = 0;
    });
  }
}

// Writes held in memory until the batch they join commits: a chain's trie nodes and the preimages of
// their keys wait for the block (or the state edit) whose write carries them, so that they land in
// the same atomic write as the block itself, and are read from memory meanwhile.
import type { Database, WriteBatch } from '../../storage/db.js';

export class StagedWrites {
  /** Written since the last flush, by hex key. */
  private pending = new Map<string, Uint8Array>();
  /** Handed to a batch that has not committed yet. */
  private readonly flushing = new Map<string, Uint8Array>();

  constructor(private readonly db: Database) {}

  /** The value staged under `hex`, if any. */
  get(hex: string): Uint8Array | undefined {
    return this.pending.get(hex) ?? this.flushing.get(hex);
  }

  set(hex: string, value: Uint8Array): void {
    this.pending.set(hex, value);
  }

  has(hex: string): boolean {
    return this.pending.has(hex);
  }

  /** Adds every staged write to `batch`; returns what to call once it committed (`settled` is told of each write). */
  flushInto(batch: WriteBatch, settled?: (hex: string, value: Uint8Array) => void): () => void {
    const flushing = this.pending;
    this.pending = new Map();
    for (const [hex, value] of flushing) {
      this.flushing.set(hex, value);
      batch.put(this.db, Buffer.from(hex, 'hex'), value);
    }
    return () => {
      for (const [hex, value] of flushing) {
        this.flushing.delete(hex);
        settled?.(hex, value);
      }
    };
  }

  /** A batch that failed: its writes wait for the next one. */
  unflushed(): void {
    for (const [hex, value] of this.flushing) if (!this.pending.has(hex)) this.pending.set(hex, value);
    this.flushing.clear();
  }
}

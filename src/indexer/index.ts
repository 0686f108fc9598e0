// One container index (avalanchego indexer/index.go): accepted containers in acceptance order, by
// index and by ID. Its writes are batch operations committed with the chain's own state, so the
// index and the chain can never disagree, even across a kill -9.
//
// Layout, in the index's own database (the Index API's database, prefixed by chain ID and kind):
//   0x00                 -> next index (u64)
//   0x01 ‖ u64 index     -> ID(32) ‖ u64 timestamp-ns ‖ container bytes
//   0x02 ‖ ID            -> u64 index
import type { Database, WriteBatch } from '../storage/db.js';
import { u64 } from '../encoding/bytes.js';

export type IndexKind = 'block' | 'vtx' | 'tx';
const KIND_BYTE: Record<IndexKind, number> = { block: 1, vtx: 2, tx: 3 };

/** The database of one index, within the Index API's database. */
export const containerIndexDatabase = (indexDb: Database, chainID: Uint8Array, kind: IndexKind): Database =>
  indexDb.prefix(Buffer.concat([chainID, Uint8Array.of(KIND_BYTE[kind])]));

export interface Container {
  id: Uint8Array;
  bytes: Uint8Array;
  timestampNs: bigint;
  index: bigint;
}

export class ContainerIndex {
  private next = 0n;

  constructor(
    private readonly db: Database,
    readonly kind: IndexKind,
  ) {}

  private key(...parts: Uint8Array[]): Uint8Array {
    return Buffer.concat(parts);
  }

  async open(): Promise<void> {
    const raw = await this.db.get(this.key(Uint8Array.of(0)));
    this.next = raw ? Buffer.from(raw).readBigUInt64BE(0) : 0n;
  }

  /** Number of containers accepted so far. */
  get size(): bigint {
    return this.next;
  }

  /**
   * Adds to `batch` the writes that index `id` next; false if it is indexed already (re-acceptance
   * is a no-op). `accepted` must be called once the batch is committed.
   */
  async accept(batch: WriteBatch, id: Uint8Array, bytes: Uint8Array, timestampNs: bigint): Promise<boolean> {
    if (await this.db.get(this.key(Uint8Array.of(2), id))) return false;
    const index = this.next;
    batch.put(this.db, this.key(Uint8Array.of(1), u64(index)), Buffer.concat([id, u64(timestampNs), bytes]));
    batch.put(this.db, this.key(Uint8Array.of(2), id), u64(index));
    batch.put(this.db, this.key(Uint8Array.of(0)), u64(index + 1n));
    return true;
  }

  accepted(count: bigint): void {
    this.next += count;
  }

  async byIndex(index: bigint): Promise<Container | undefined> {
    if (index >= this.next) return undefined;
    const raw = await this.db.get(this.key(Uint8Array.of(1), u64(index)));
    if (!raw) return undefined;
    const b = Buffer.from(raw);
    return { id: b.subarray(0, 32), timestampNs: b.readBigUInt64BE(32), bytes: b.subarray(40), index };
  }

  async indexOf(id: Uint8Array): Promise<bigint | undefined> {
    const raw = await this.db.get(this.key(Uint8Array.of(2), id));
    return raw ? Buffer.from(raw).readBigUInt64BE(0) : undefined;
  }

  /** Containers startIndex .. startIndex+count-1 in one range read. */
  async range(startIndex: bigint, count: number): Promise<Container[]> {
    const entries = await this.db.entries({
      gte: this.key(Uint8Array.of(1), u64(startIndex)),
      lt: this.key(Uint8Array.of(1), u64(startIndex + BigInt(count))),
      limit: count,
    });
    return entries.map(([k, v]) => {
      const b = Buffer.from(v);
      return { id: b.subarray(0, 32), timestampNs: b.readBigUInt64BE(32), bytes: b.subarray(40), index: Buffer.from(k).readBigUInt64BE(k.length - 8) };
    });
  }
}

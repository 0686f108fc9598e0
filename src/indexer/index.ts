// One container index (avalanchego indexer/index.go): accepted containers in acceptance order, by
// index and by ID. Its writes are batch operations committed with the chain's own state, so the
// index and the chain can never disagree, even across a kill -9.
//
// Layout, under 0x30 ‖ chainID ‖ kind (1 block, 2 vtx, 3 tx):
//   0x00                 -> next index (u64)
//   0x01 ‖ u64 index     -> ID(32) ‖ u64 timestamp-ns ‖ container bytes
//   0x02 ‖ ID            -> u64 index
import type { Database } from '../storage/db.js';
import type { BatchOp } from '../chains/x/state.js';
import { u64 } from '../encoding/bytes.js';

export type IndexKind = 'block' | 'vtx' | 'tx';
const KIND_BYTE: Record<IndexKind, number> = { block: 1, vtx: 2, tx: 3 };


export interface Container {
  id: Uint8Array;
  bytes: Uint8Array;
  timestampNs: bigint;
  index: bigint;
}

export class ContainerIndex {
  private next = 0n;
  private readonly prefix: Buffer;

  constructor(private readonly db: Database, chainID: Uint8Array, readonly kind: IndexKind) {
    this.prefix = Buffer.concat([Uint8Array.of(0x30), chainID, Uint8Array.of(KIND_BYTE[kind])]);
  }

  private key(...parts: Uint8Array[]): Uint8Array {
    return Buffer.concat([this.prefix, ...parts]);
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
   * Writes that index `id` next, or none if it is indexed already (re-acceptance is a no-op).
   * `accepted` must be called once they are committed.
   */
  async acceptOps(id: Uint8Array, bytes: Uint8Array, timestampNs: bigint): Promise<BatchOp[]> {
    if (await this.db.get(this.key(Uint8Array.of(2), id))) return [];
    const index = this.next;
    return [
      { type: 'put', key: this.key(Uint8Array.of(1), u64(index)), value: Buffer.concat([id, u64(timestampNs), bytes]) },
      { type: 'put', key: this.key(Uint8Array.of(2), id), value: u64(index) },
      { type: 'put', key: this.key(Uint8Array.of(0)), value: u64(index + 1n) },
    ];
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
    const entries = await this.db.entries({ gte: this.key(Uint8Array.of(1), u64(startIndex)), lt: this.key(Uint8Array.of(1), u64(startIndex + BigInt(count))), limit: count });
    return entries.map(([k, v]) => {
      const b = Buffer.from(v);
      return { id: b.subarray(0, 32), timestampNs: b.readBigUInt64BE(32), bytes: b.subarray(40), index: Buffer.from(k).readBigUInt64BE(k.length - 8) };
    });
  }
}

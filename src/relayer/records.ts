// What the relayer keeps in the store (under the node's 'relayer' prefix): each message it found,
// with where it stands, and each followed chain's cursor. A record changes only in a write that
// also moves a cursor or that precedes the step it announces (a delivery tx is recorded, with its
// signed bytes, before it is sent), so a kill -9 at any point leaves a record the restart can finish
// without sending the message twice. Indexes by state let the relayer hold in memory only a window
// of the queued messages and the sent ones, however many messages a chain's users send.
import { fromHex0x, u64 } from '../encoding/bytes.js';
import { type Database, WriteBatch, writtenAt } from '../storage/db.js';
import type { Changes } from '../storage/undo.js';

/** Where a message stands. `sent`: its delivery tx is in the destination's pool. */
export type MessageState = 'queued' | 'sent' | 'delivered' | 'failed' | 'dropped' | 'skipped' | 'unroutable';

export interface MessageRecord {
  /** ICM's message ID (0x hex). */
  id: string;
  /** The order the relayer found messages in. */
  seq: number;
  /** The source and destination blockchain IDs (CB58). */
  source: string;
  destination: string;
  /** The warp message (0x hex) and its ID (CB58, as warp_getMessage takes it). */
  unsigned: string;
  warpID: string;
  nonce: string;
  sourceHeight: string;
  sourceTx: string;
  state: MessageState;
  /** Why it was skipped, failed or is waiting (a paused relayer, a delay, no funds). */
  reason?: string;
  /** Not before the destination's height reaches this (a delay). */
  dueHeight?: string;
  /** The delivery tx: its hash and, while sent, its signed bytes (resent as they are after a restart). */
  txHash?: string;
  txBytes?: string;
  /** Delivery attempts that failed (icm-relayer gives up after five). */
  attempts: number;
  /** Once delivered: by this relayer or by another sender, at which destination height, and what the execution did. */
  deliveredBy?: 'relayer' | 'other';
  deliveredHeight?: string;
  execution?: 'executed' | 'failed' | 'none';
}

/** Key spaces: records by ID, every record by order, and the queued, sent and unroutable ones by order. */
const RECORD = 0x6d;
const ORDER = 0x6f;
const QUEUED = 0x71;
const SENT = 0x73;
const UNROUTABLE = 0x75;
const CURSOR = 0x63;
const enc = new TextEncoder();
const dec = new TextDecoder();
const seqBytes = (seq: number) => u64(BigInt(seq));
const recordKeyOf = (id: Uint8Array) => Buffer.concat([Uint8Array.of(RECORD), id]);
const recordKey = (id: string) => recordKeyOf(fromHex0x(id));
const indexKey = (space: number, seq: number) => Buffer.concat([Uint8Array.of(space), seqBytes(seq)]);
const unroutableKey = (destination: string, seq: number) =>
  Buffer.concat([Uint8Array.of(UNROUTABLE), enc.encode(destination), Uint8Array.of(0), seqBytes(seq)]);
const cursorKey = (chain: string) => Buffer.concat([Uint8Array.of(CURSOR), enc.encode(chain)]);
const parse = (v: Uint8Array) => JSON.parse(dec.decode(v)) as MessageRecord;

export class RelayerStore {
  constructor(readonly db: Database) {}

  /** Whether a rollback's `changes` write a record or an index, not only cursors (read from the store at each use). */
  recordsChanged(changes: Changes): boolean {
    return [RECORD, ORDER, QUEUED, SENT, UNROUTABLE].some((space) => changes.touches(Buffer.concat([this.db.keyPrefix, Uint8Array.of(space)])));
  }

  async message(id: string): Promise<MessageRecord | undefined> {
    const v = await this.db.get(recordKey(id));
    return v && parse(v);
  }

  private async byIds(ids: Uint8Array[]): Promise<MessageRecord[]> {
    const values = await this.db.getMany(ids.map(recordKeyOf));
    return values.flatMap((v) => (v ? [parse(v)] : []));
  }

  /** The queued records after `afterSeq` (from the first when undefined), in order, at most `limit`. */
  async queued(afterSeq: number | undefined, limit: number): Promise<MessageRecord[]> {
    const from = afterSeq === undefined ? { gte: Uint8Array.of(QUEUED) } : { gt: indexKey(QUEUED, afterSeq) };
    return this.byIds(await this.db.values({ ...from, lt: Uint8Array.of(QUEUED + 1), limit }));
  }

  /** Every record whose delivery tx was sent and not yet seen mined (a few per chain). */
  async sent(): Promise<MessageRecord[]> {
    return this.byIds(await this.db.values({ gte: Uint8Array.of(SENT), lt: Uint8Array.of(SENT + 1) }));
  }

  /** The unroutable records bound for `destination` (CB58), in order. */
  async unroutable(destination: string): Promise<MessageRecord[]> {
    const prefix = Buffer.concat([Uint8Array.of(UNROUTABLE), enc.encode(destination), Uint8Array.of(0)]);
    return this.byIds(await this.db.values({ gte: prefix, lt: Buffer.concat([prefix.subarray(0, -1), Uint8Array.of(1)]) }));
  }

  /** The newest records first, those `keep` accepts, at most `limit`, reading pages of the order index. */
  async newest(keep: (r: MessageRecord) => boolean, limit: number): Promise<MessageRecord[]> {
    const out: MessageRecord[] = [];
    let before: Uint8Array = Uint8Array.of(ORDER + 1);
    for (;;) {
      const page = await this.db.entries({ gte: Uint8Array.of(ORDER), lt: before, reverse: true, limit: 256 });
      for (const r of await this.byIds(page.map(([, id]) => id))) {
        if (keep(r)) out.push(r);
        if (out.length >= limit) return out;
      }
      if (page.length < 256) return out;
      before = page[page.length - 1]![0];
    }
  }

  /** The order the next message found gets. */
  async nextSeq(): Promise<number> {
    const [last] = await this.db.entries({ gte: Uint8Array.of(ORDER), lt: Uint8Array.of(ORDER + 1), reverse: true, limit: 1 });
    return last ? Number(Buffer.from(last[0].subarray(1)).readBigUInt64BE()) + 1 : 0;
  }

  /** Cursors as last written or read: the relayer asks them at every block. */
  private readonly cursors = new Map<string, bigint | undefined>();

  /** The last height of `chain` (CB58) the relayer read; undefined for one it never followed. */
  async cursor(chain: string): Promise<bigint | undefined> {
    if (this.cursors.has(chain)) return this.cursors.get(chain);
    const v = await this.db.get(cursorKey(chain));
    const height = v && BigInt(dec.decode(v));
    this.cursors.set(chain, height);
    return height;
  }

  /** The store went back to a snapshot: the cursors it wrote are as it wrote them. */
  rewindCursors(changes: Changes): void {
    for (const chain of this.cursors.keys()) {
      const written = writtenAt(this.db, cursorKey(chain), changes);
      if (written) this.cursors.set(chain, written.value && BigInt(dec.decode(written.value)));
    }
  }

  batch(): RelayerBatch {
    return new RelayerBatch(this.db, (chain, height) => this.cursors.set(chain, height));
  }
}

/** Records and cursors written together. */
export class RelayerBatch {
  private readonly batch = new WriteBatch();
  private readonly moved = new Map<string, bigint>();
  constructor(
    private readonly db: Database,
    /** Told each cursor the batch moved, once it is written. */
    private readonly written: (chain: string, height: bigint) => void,
  ) {}

  /** A record as it stands, with its place in the indexes of its state (and out of the others). */
  put(r: MessageRecord): this {
    const id = fromHex0x(r.id);
    this.batch.put(this.db, recordKey(r.id), enc.encode(JSON.stringify(r)));
    this.batch.put(this.db, indexKey(ORDER, r.seq), id);
    const index = (key: Uint8Array, on: boolean) => (on ? this.batch.put(this.db, key, id) : this.batch.del(this.db, key));
    index(indexKey(QUEUED, r.seq), r.state === 'queued');
    index(indexKey(SENT, r.seq), r.state === 'sent');
    index(unroutableKey(r.destination, r.seq), r.state === 'unroutable');
    return this;
  }

  cursor(chain: string, height: bigint): this {
    this.batch.put(this.db, cursorKey(chain), enc.encode(height.toString()));
    this.moved.set(chain, height);
    return this;
  }

  async write(): Promise<void> {
    await this.db.write(this.batch);
    for (const [chain, height] of this.moved) this.written(chain, height);
  }
}

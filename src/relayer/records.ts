// What the relayer keeps in the store (under the node's 'relayer' prefix): each message it found,
// with where it stands, and each followed chain's cursor. A record changes only in a write that
// also moves a cursor or that precedes the step it announces (a delivery tx is recorded, with its
// signed bytes, before it is sent), so a kill -9 at any point leaves a record the restart can finish
// without sending the message twice.
import { type Database, WriteBatch } from '../storage/db.js';

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

const MESSAGE = 0x6d;
const CURSOR = 0x63;
const enc = new TextEncoder();
const dec = new TextDecoder();
const messageKey = (id: string) => Buffer.concat([Uint8Array.of(MESSAGE), Buffer.from(id.slice(2), 'hex')]);
const cursorKey = (chain: string) => Buffer.concat([Uint8Array.of(CURSOR), enc.encode(chain)]);

export class RelayerStore {
  constructor(readonly db: Database) {}

  async message(id: string): Promise<MessageRecord | undefined> {
    const v = await this.db.get(messageKey(id));
    return v && (JSON.parse(dec.decode(v)) as MessageRecord);
  }

  /** Every record, in the order they were found. */
  async messages(): Promise<MessageRecord[]> {
    const values = await this.db.values({ gte: Uint8Array.of(MESSAGE), lt: Uint8Array.of(MESSAGE + 1) });
    return values.map((v) => JSON.parse(dec.decode(v)) as MessageRecord).sort((a, b) => a.seq - b.seq);
  }

  /** The last height of `chain` (CB58) the relayer read; undefined for one it never followed. */
  async cursor(chain: string): Promise<bigint | undefined> {
    const v = await this.db.get(cursorKey(chain));
    return v && BigInt(dec.decode(v));
  }

  batch(): RelayerBatch {
    return new RelayerBatch(this.db);
  }
}

/** Records and cursors written together. */
export class RelayerBatch {
  private readonly batch = new WriteBatch();
  constructor(private readonly db: Database) {}

  put(r: MessageRecord): this {
    this.batch.put(this.db, messageKey(r.id), enc.encode(JSON.stringify(r)));
    return this;
  }

  cursor(chain: string, height: bigint): this {
    this.batch.put(this.db, cursorKey(chain), enc.encode(height.toString()));
    return this;
  }

  write(): Promise<void> {
    return this.db.write(this.batch);
  }
}

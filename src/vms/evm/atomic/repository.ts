// Accepted atomic txs in the chain's database (coreth's AtomicRepository): tx ID -> the height of
// the block that accepted it ‖ the tx's signed bytes. Written in the accepting block's batch, so a
// restart finds exactly the txs of the blocks it has.
import type { Database, WriteBatch } from '../../../storage/db.js';
import { type AtomicTx, parseAtomicTx } from './codec.js';
import { asBuffer } from '../../../encoding/bytes.js';

export class AtomicRepository {
  constructor(private readonly db: Database) {}

  /** Adds the txs a block at `height` accepted to the block's batch. */
  put(batch: WriteBatch, height: bigint, txs: readonly AtomicTx[]): void {
    for (const tx of txs) {
      const value = Buffer.alloc(8 + tx.bytes.length);
      value.writeBigUInt64BE(height);
      value.set(tx.bytes, 8);
      batch.put(this.db, tx.id, value);
    }
  }

  /** GetByTxID */
  async get(id: Uint8Array): Promise<{ tx: AtomicTx; height: bigint } | undefined> {
    const raw = await this.db.get(id);
    if (!raw) return undefined;
    const b = asBuffer(raw);
    return { height: b.readBigUInt64BE(0), tx: parseAtomicTx(b.subarray(8)) };
  }
}

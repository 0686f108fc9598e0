// The AVM mempool (avalanchego vms/avm/txs/mempool): FIFO, no two txs spending one input, a size
// cap per tx and in total, and the 64-entry cache of why txs were dropped.
import { encodeCB58 } from '../../encoding/cb58.js';
import { txInputIDs } from './codec/index.js';
import type { SignedTx } from './types.js';
import { toHex } from '../../encoding/bytes.js';

export const MAX_TX_SIZE = 64 * 1024;
const MAX_MEMPOOL_BYTES = 64 * 1024 * 1024;
const DROPPED_CACHE_SIZE = 64;
const MAX_QUEUED_TXS = 4096;

export class MempoolError extends Error {}

export class Mempool {
  private readonly txs = new Map<string, SignedTx>();
  private readonly spenders = new Map<string, string>();
  private bytes = 0;
  private readonly dropped = new Map<string, string>();

  has(id: Uint8Array): boolean {
    return this.txs.has(toHex(id));
  }

  get size(): number {
    return this.txs.size;
  }

  add(tx: SignedTx): void {
    const id = encodeCB58(tx.id);
    if (tx.bytes.length > MAX_TX_SIZE) throw this.drop(tx, tooLarge(id, tx));
    // Never cached: the tx may fit once the mempool drains.
    if (this.bytes + tx.bytes.length > MAX_MEMPOOL_BYTES) throw new MempoolError(full(id, tx, MAX_MEMPOOL_BYTES - this.bytes));
    const inputs = inputKeys(tx);
    if (inputs.some((k) => this.spenders.has(k))) throw this.drop(tx, `tx conflicts with other tx: ${id}`);
    const txHex = toHex(tx.id);
    this.txs.set(txHex, tx);
    for (const k of inputs) this.spenders.set(k, txHex);
    this.bytes += tx.bytes.length;
    this.dropped.delete(txHex);
  }

  /** The oldest txs that fit in `maxBytes`, stopping at the first that does not (as the builder does). */
  peekForBlock(maxBytes: number): SignedTx[] {
    const out: SignedTx[] = [];
    let remaining = maxBytes;
    for (const tx of this.txs.values()) {
      if (tx.bytes.length > remaining) break;
      out.push(tx);
      remaining -= tx.bytes.length;
    }
    return out;
  }

  remove(txs: SignedTx[]): void {
    for (const tx of txs) {
      const txHex = toHex(tx.id);
      if (!this.txs.delete(txHex)) continue;
      this.bytes -= tx.bytes.length;
      for (const k of inputKeys(tx)) if (this.spenders.get(k) === txHex) this.spenders.delete(k);
    }
  }

  /** Why `id` was dropped, if it is among the 64 most recently used drop reasons (an LRU, as avalanchego's). */
  dropReason(id: Uint8Array): string | undefined {
    const key = toHex(id);
    const reason = this.dropped.get(key);
    if (reason !== undefined) {
      this.dropped.delete(key);
      this.dropped.set(key, reason);
    }
    return reason;
  }

  markDropped(id: Uint8Array, reason: string): void {
    const txHex = toHex(id);
    if (this.txs.has(txHex)) return;
    this.dropped.delete(txHex);
    this.dropped.set(txHex, reason);
    if (this.dropped.size > DROPPED_CACHE_SIZE) this.dropped.delete(this.dropped.keys().next().value!);
  }

  private drop(tx: SignedTx, reason: string): MempoolError {
    this.markDropped(tx.id, reason);
    return new MempoolError(reason);
  }
}

const tooLarge = (id: string, tx: SignedTx) => `tx too large: ${id} size (${tx.bytes.length}) > max size (${MAX_TX_SIZE})`;
const full = (id: string, tx: SignedTx, available: number) => `mempool is full: ${id} size (${tx.bytes.length}) > available space (${available})`;

/**
 * What wallet.issueTx may hold behind its head. avalanchego keeps that queue unbounded; here it gets
 * a mempool's limits with the mempool's error texts (each tx at most 64 KiB, 64 MiB in all), plus a
 * count, since thousands of tiny txs would otherwise cost far more memory than their bytes.
 */
export class QueueLimits {
  private bytes = 0;
  private count = 0;

  constructor(
    private readonly maxBytes = MAX_MEMPOOL_BYTES,
    private readonly maxCount = MAX_QUEUED_TXS,
  ) {}

  admit(tx: SignedTx): void {
    const id = encodeCB58(tx.id);
    if (tx.bytes.length > MAX_TX_SIZE) throw new MempoolError(tooLarge(id, tx));
    if (this.bytes + tx.bytes.length > this.maxBytes) throw new MempoolError(full(id, tx, this.maxBytes - this.bytes));
    if (this.count >= this.maxCount) throw new MempoolError(`mempool is full: ${id} count (${this.count}) >= max count (${this.maxCount})`);
    this.bytes += tx.bytes.length;
    this.count++;
  }

  release(tx: SignedTx): void {
    this.bytes -= tx.bytes.length;
    this.count--;
  }
}

function inputKeys(tx: SignedTx): string[] {
  const { spent, imported } = txInputIDs(tx);
  return [...spent, ...imported].map(toHex);
}

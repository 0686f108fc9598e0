// coreth's atomic mempool (atomic/txpool/{mempool,txs}.go): pending txs ordered by their effective
// gas price (burned · 10^9 / gas), the ones the builder is trying ("current"), a small cache of
// discarded ones (for getAtomicTxStatus' Dropped), and who spends which UTXO (or export nonce), so
// that a conflicting tx gets in only by paying a strictly higher price, evicting the others.
import { encodeCB58 } from '../../../encoding/cb58.js';
import { type AtomicTx, inputUTXOs } from './codec.js';
import { AtomicError, atomicErrors } from './errors.js';
import { toHex } from '../../../encoding/bytes.js';

/** defaultMempoolSize */
export const MEMPOOL_SIZE = 4096;
/** discardedTxsCacheSize */
const DISCARDED_CACHE = 50;

interface Entry {
  tx: AtomicTx;
  price: bigint;
  /** Arrival order, for equal prices. */
  seq: number;
}

/** txpool.ErrAlreadyKnown: avax.issueTx answers it as a success. */
export class AlreadyKnownError extends AtomicError {}

export class AtomicMempool {
  private readonly pending = new Map<string, Entry>();
  private readonly current = new Map<string, Entry>();
  private readonly discarded = new Map<string, AtomicTx>();
  private readonly spenders = new Map<string, Entry>();
  private seq = 0;

  constructor(private readonly maxSize = MEMPOOL_SIZE) {}

  get size(): number {
    return this.pending.size + this.current.size;
  }

  hasPending(): boolean {
    return this.pending.size > 0;
  }

  /** GetTx: the tx and whether it was discarded. */
  get(id: Uint8Array): { tx: AtomicTx; dropped: boolean } | undefined {
    const k = toHex(id);
    const live = this.pending.get(k) ?? this.current.get(k);
    if (live) return { tx: live.tx, dropped: false };
    const tx = this.discarded.get(k);
    return tx && { tx, dropped: true };
  }

  /** The already-known check that comes before verification. */
  checkKnown(tx: AtomicTx): void {
    const k = toHex(tx.id);
    const id = encodeCB58(tx.id);
    if (this.current.has(k)) throw new AlreadyKnownError(`already known: tx ${id} is being built into a block`);
    if (this.pending.has(k)) throw new AlreadyKnownError(`already known: tx ${id} is pending`);
  }

  /**
   * addTx after verification: conflicts must pay more than the best of them (and are evicted); a
   * full pool evicts its cheapest pending tx for a dearer one.
   */
  add(tx: AtomicTx, price: bigint): void {
    this.checkKnown(tx);
    const conflicts = new Map<string, Entry>();
    let best: Entry | undefined;
    for (const input of inputUTXOs(tx.unsigned)) {
      const other = this.spenders.get(toHex(input));
      if (!other) continue;
      conflicts.set(toHex(other.tx.id), other);
      if (!best || other.price > best.price) best = other;
    }
    if (best) {
      if (price <= best.price) {
        throw new AtomicError(atomicErrors.conflict(encodeCB58(tx.id), price, encodeCB58(best.tx.id), best.price, conflicts.size));
      }
      for (const c of conflicts.values()) this.remove(c.tx, true);
    }
    if (this.size >= this.maxSize) {
      const cheapest = this.cheapestPending();
      if (!cheapest) throw new AtomicError(atomicErrors.mempoolFull());
      if (price <= cheapest.price) throw new AtomicError(atomicErrors.insufficientFee(cheapest.price, price));
      this.remove(cheapest.tx, true);
    }
    this.discarded.delete(toHex(tx.id));
    const entry = { tx, price, seq: this.seq++ };
    this.pending.set(toHex(tx.id), entry);
    for (const input of inputUTXOs(tx.unsigned)) this.spenders.set(toHex(input), entry);
  }

  private cheapestPending(): Entry | undefined {
    let min: Entry | undefined;
    for (const e of this.pending.values()) if (!min || e.price < min.price || (e.price === min.price && e.seq > min.seq)) min = e;
    return min;
  }

  /** The builder takes the pending txs, best price first: they become current until it settles them. */
  takePending(): AtomicTx[] {
    const entries = [...this.pending.values()].sort((a, b) => (a.price === b.price ? a.seq - b.seq : a.price > b.price ? -1 : 1));
    for (const e of entries) {
      this.pending.delete(toHex(e.tx.id));
      this.current.set(toHex(e.tx.id), e);
    }
    return entries.map((e) => e.tx);
  }

  /** CancelCurrentTx: back to pending, for a later block. */
  cancel(tx: AtomicTx): void {
    const e = this.current.get(toHex(tx.id));
    if (!e) return;
    this.current.delete(toHex(tx.id));
    this.pending.set(toHex(tx.id), e);
  }

  /** DiscardCurrentTx: failed verification while building; kept only as Dropped. */
  discard(tx: AtomicTx): void {
    if (!this.current.has(toHex(tx.id))) return;
    this.remove(tx, true);
  }

  /** RemoveTx: accepted in a block; no status left here. */
  accepted(tx: AtomicTx): void {
    this.remove(tx, false);
  }

  private remove(tx: AtomicTx, discard: boolean): void {
    const k = toHex(tx.id);
    this.pending.delete(k);
    this.current.delete(k);
    for (const input of inputUTXOs(tx.unsigned)) {
      const spender = this.spenders.get(toHex(input));
      if (spender && toHex(spender.tx.id) === k) this.spenders.delete(toHex(input));
    }
    if (!discard) {
      this.discarded.delete(k);
      return;
    }
    this.discarded.delete(k);
    this.discarded.set(k, tx);
    if (this.discarded.size > DISCARDED_CACHE) this.discarded.delete(this.discarded.keys().next().value!);
  }
}

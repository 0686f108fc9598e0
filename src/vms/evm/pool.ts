import { type Admission, bumped, CORETH_POOL, type NewPoolTx, type PoolConfig, type PoolTx, numSlots, poolErrors } from './pooltx.js';
import { PricedList } from './priced.js';

/** One sender's txs: pending from its nonce on without a gap, the rest queued. */
class SenderTxs {
  readonly pending = new Map<bigint, PoolTx>();
  readonly queue = new Map<bigint, PoolTx>();
  constructor(
    readonly from: string,
    /** The account's nonce at the head, as the pool last saw it. */
    public nonce: bigint,
  ) {}

  /** geth's pending nonce: the nonce after the pending txs. */
  get next(): bigint {
    return this.nonce + BigInt(this.pending.size);
  }

  get size(): number {
    return this.pending.size + this.queue.size;
  }

  /** The pending txs in nonce order. */
  pendingTxs(): PoolTx[] {
    const out: PoolTx[] = [];
    for (let n = this.nonce; n < this.next; n++) out.push(this.pending.get(n)!);
    return out;
  }

  /** The queued txs in nonce order. */
  queuedTxs(): PoolTx[] {
    return [...this.queue.values()].sort((a, b) => (a.nonce < b.nonce ? -1 : 1));
  }
}

export class TxPool {
  private readonly senderTxs = new Map<string, SenderTxs>();
  private readonly byHash = new Map<string, PoolTx>();
  /**
   * Heartbeats (ns) of the senders with queued txs: when their queue began or they last had a tx
   * promoted. Kept oldest first (a beat is re-inserted when it moves), so that the lifetime and the
   * global queue cap find the longest-idle senders without sorting.
   */
  private readonly beats = new Map<string, bigint>();
  private readonly priced = new PricedList<PoolTx>(
    (p) => this.byHash.get(p.hashHex) === p,
    () => this.byHash.values(),
  );
  private seq = 0;
  private pendingCount = 0;
  private queuedCount = 0;
  private slotCount = 0;

  /** @param now the chain's clock in ns, for heartbeats. */
  constructor(
    private readonly now: () => bigint,
    readonly config: PoolConfig = CORETH_POOL,
  ) {}

  get size(): number {
    return this.byHash.size;
  }

  /** txpool_status's counts. */
  stats(): { pending: number; queued: number } {
    return { pending: this.pendingCount, queued: this.queuedCount };
  }

  has(hashHex: string): boolean {
    return this.byHash.has(hashHex);
  }

  get(hashHex: string): PoolTx | undefined {
    return this.byHash.get(hashHex);
  }

  all(): PoolTx[] {
    return [...this.byHash.values()];
  }

  senders(): string[] {
    return [...this.senderTxs.keys()];
  }

  /** The tx a new one with the same sender and nonce would replace. */
  sameNonce(fromHex: string, nonce: bigint): PoolTx | undefined {
    const s = this.senderTxs.get(fromHex);
    return s?.pending.get(nonce) ?? s?.queue.get(nonce);
  }

  /** A sender's txs from `nonce` on without a gap: what can run next. */
  executable(fromHex: string, nonce: bigint): PoolTx[] {
    const s = this.senderTxs.get(fromHex);
    const out: PoolTx[] = [];
    if (!s) return out;
    for (let n = nonce, p = s.pending.get(n) ?? s.queue.get(n); p; n++, p = s.pending.get(n) ?? s.queue.get(n)) out.push(p);
    return out;
  }

  /** txpool_content's split: each sender's pending and queued txs in nonce order. */
  content(): Map<string, { pending: PoolTx[]; queued: PoolTx[] }> {
    const out = new Map<string, { pending: PoolTx[]; queued: PoolTx[] }>();
    for (const [from, s] of this.senderTxs) out.set(from, { pending: s.pendingTxs(), queued: s.queuedTxs() });
    return out;
  }

  /**
   * What `add` would refuse `p` with, checked without changing the pool (the chain asks before it
   * journals the tx). `add` checks again: the pool may have changed meanwhile.
   */
  refusal(p: NewPoolTx, baseFee: () => bigint): string | undefined {
    if (this.byHash.has(p.hashHex)) return poolErrors.alreadyKnown();
    if (this.overflows(numSlots(p.bytes.length))) {
      this.priced.setBaseFee(baseFee());
      if (this.priced.underpriced(p)) return poolErrors.underpriced();
    }
    const old = this.sameNonce(p.fromHex, p.nonce);
    if (old && !bumped(old, p, this.config.priceBump)) return poolErrors.replacementUnderpriced();
    return undefined;
  }

  /**
   * legacypool's add and the promotion and caps its reorg runs after it: `stateNonce` is the sender's
   * nonce at the head, `baseFee` the next block's (which orders the cheapest when the pool is full).
   */
  add(p: NewPoolTx, stateNonce: bigint, baseFee: () => bigint): Admission {
    const removed: PoolTx[] = [];
    const promoted: PoolTx[] = [];
    const s = this.sender(p.fromHex, stateNonce, removed, promoted);
    const result = this.insert(s, p, baseFee, removed, promoted);
    if (s.size === 0) this.senderTxs.delete(s.from);
    return result;
  }

  private insert(s: SenderTxs, p: NewPoolTx, baseFee: () => bigint, removed: PoolTx[], promoted: PoolTx[]): Admission {
    const refused = (error: string): Admission => ({ error, removed, promoted });
    if (this.byHash.has(p.hashHex)) return refused(poolErrors.alreadyKnown());
    const slots = numSlots(p.bytes.length);
    if (this.overflows(slots)) {
      const error = this.makeRoom(s, p, slots, baseFee, removed);
      if (error) return refused(error);
      // Evicting the sender's own last tx dropped its (now empty) entry.
      if (!this.senderTxs.has(s.from)) this.senderTxs.set(s.from, s);
    }
    // As in geth, the price bump is checked after the room is made.
    const old = s.pending.get(p.nonce) ?? s.queue.get(p.nonce);
    if (old && !bumped(old, p, this.config.priceBump)) return refused(poolErrors.replacementUnderpriced());
    const entry: PoolTx = { ...p, slots, seq: this.seq++ };
    if (old) this.unlist(old, true);
    this.byHash.set(entry.hashHex, entry);
    this.slotCount += slots;
    this.priced.put(entry);
    if (old && s.pending.get(p.nonce) === old) {
      // A pending tx replaced: announced as new, and the sender was active.
      s.pending.set(p.nonce, entry);
      if (s.queue.size > 0) this.beat(s.from);
      promoted.push(entry);
    } else {
      if (!old) this.queuedCount++;
      s.queue.set(p.nonce, entry);
      if (!this.beats.has(s.from)) this.beat(s.from);
      promoted.push(...this.promote(s));
      this.capQueue(s, removed);
    }
    this.truncatePending(removed);
    this.truncateQueue(removed);
    return { entry, ...(old ? { replaced: old } : {}), removed, promoted };
  }

  /** Whether `slots` more would pass the pool's capacity (global slots + global queue). */
  private overflows(slots: number): boolean {
    return this.slotCount + slots > this.config.globalSlots + this.config.globalQueue;
  }

  /**
   * A full pool: refuses a tx no better than the cheapest, else evicts the cheapest txs to make room,
   * unless a gapped tx would evict a pending one.
   */
  private makeRoom(s: SenderTxs, p: NewPoolTx, slots: number, baseFee: () => bigint, removed: PoolTx[]): string | undefined {
    this.priced.setBaseFee(baseFee());
    if (this.priced.underpriced(p)) return poolErrors.underpriced();
    const drop = this.priced.discard(this.slotCount - (this.config.globalSlots + this.config.globalQueue) + slots);
    if (!drop) return poolErrors.full();
    if (this.isGapped(s, p.nonce) && drop.some((d) => this.isPending(d))) {
      this.priced.putBack(drop);
      return poolErrors.futureReplacePending();
    }
    // The heaps gave them up already: they are not stale entries there.
    for (const d of drop) removed.push(...this.removeTx(d, false));
    return undefined;
  }

  /** Whether a tx with `nonce` could not run after the sender's pending txs and the queued ones that fill the gap. */
  private isGapped(s: SenderTxs, nonce: bigint): boolean {
    const next = s.next;
    if (nonce <= next) return false;
    if (nonce - next > BigInt(s.queue.size)) return true;
    for (let n = next; n < nonce; n++) if (!s.queue.has(n)) return true;
    return false;
  }

  private isPending(p: PoolTx): boolean {
    return this.senderTxs.get(p.fromHex)?.pending.get(p.nonce) === p;
  }

  /** The sender's txs, moved forward to `stateNonce` (txs below it are gone) and promoted. */
  private sender(from: string, stateNonce: bigint, removed: PoolTx[], promoted: PoolTx[]): SenderTxs {
    let s = this.senderTxs.get(from);
    if (!s) {
      s = new SenderTxs(from, stateNonce);
      this.senderTxs.set(from, s);
      return s;
    }
    // Forward only: the nonce was read before an await, and a block may have moved it on since.
    this.forward(s, stateNonce, removed);
    promoted.push(...this.promote(s));
    return s;
  }

  /** Moves queued txs that can now run to pending (geth's Ready and promoteTx): the sender was active. */
  private promote(s: SenderTxs): PoolTx[] {
    const moved: PoolTx[] = [];
    for (let n = s.next, p = s.queue.get(n); p; n++, p = s.queue.get(n)) {
      s.queue.delete(n);
      s.pending.set(n, p);
      moved.push(p);
    }
    if (moved.length === 0) return moved;
    this.queuedCount -= moved.length;
    this.pendingCount += moved.length;
    if (s.queue.size > 0) this.beat(s.from);
    else this.beats.delete(s.from);
    return moved;
  }

  /** Drops the sender's highest-nonce queued txs past the per-sender queue cap (list.Cap). */
  private capQueue(s: SenderTxs, removed: PoolTx[]): void {
    if (s.queue.size <= this.config.accountQueue) return;
    for (const p of s.queuedTxs().slice(this.config.accountQueue)) removed.push(...this.removeTx(p));
  }

  /**
   * truncatePending: past the global slots, pending txs go from the senders with more than their
   * account slots, the largest first, evening them out, down to the account slots at most.
   */
  private truncatePending(removed: PoolTx[]): void {
    const { globalSlots, accountSlots } = this.config;
    if (this.pendingCount <= globalSlots) return;
    const spammers = [...this.senderTxs.values()].filter((s) => s.pending.size > accountSlots).sort((a, b) => b.pending.size - a.pending.size);
    const dropLast = (s: SenderTxs) => removed.push(...this.removeTx(s.pending.get(s.next - 1n)!));
    const offenders: SenderTxs[] = [];
    for (const offender of spammers) {
      if (this.pendingCount <= globalSlots) break;
      offenders.push(offender);
      if (offenders.length < 2) continue;
      const threshold = offender.pending.size;
      while (this.pendingCount > globalSlots && offenders[offenders.length - 2]!.pending.size > threshold) {
        for (const s of offenders.slice(0, -1)) dropLast(s);
      }
    }
    while (offenders.length > 0 && this.pendingCount > globalSlots && offenders[offenders.length - 1]!.pending.size > accountSlots) {
      for (const s of offenders) dropLast(s);
    }
  }

  /** truncateQueue: past the global queue, the longest-idle senders' queued txs go, highest nonces first. */
  private truncateQueue(removed: PoolTx[]): void {
    let drop = this.queuedCount - this.config.globalQueue;
    if (drop <= 0) return;
    for (const from of [...this.beats.keys()]) {
      if (drop <= 0) return;
      const txs = this.senderTxs.get(from)!.queuedTxs();
      const keep = txs.length <= drop ? 0 : txs.length - drop;
      for (const p of txs.slice(keep).reverse()) removed.push(...this.removeTx(p));
      drop -= txs.length - keep;
    }
  }

  /** The queued txs of senders idle for longer than the lifetime (geth's eviction tick). */
  expire(): PoolTx[] {
    const cutoff = this.now() - this.config.lifetimeNs;
    const idle: string[] = [];
    for (const [from, beat] of this.beats) {
      if (beat >= cutoff) break;
      idle.push(from);
    }
    const removed: PoolTx[] = [];
    for (const from of idle) for (const p of [...this.senderTxs.get(from)!.queue.values()]) removed.push(...this.removeTx(p));
    return removed;
  }

  /**
   * The block builder's view of a sender at the head: txs below its nonce go, queued txs that can now
   * run are promoted, the queue is capped. A nonce that went back (anvil_setNonce) sends every pending
   * tx back to the queue, as geth does with a gap in front.
   */
  reset(fromHex: string, stateNonce: bigint): PoolTx[] {
    const s = this.senderTxs.get(fromHex);
    if (!s) return [];
    const removed: PoolTx[] = [];
    if (stateNonce < s.nonce) this.rewind(s, stateNonce);
    else this.forward(s, stateNonce, removed);
    this.promote(s);
    this.capQueue(s, removed);
    if (s.size === 0) this.senderTxs.delete(fromHex);
    return removed;
  }

  /** After the builder's resets: the global caps. */
  truncate(): PoolTx[] {
    const removed: PoolTx[] = [];
    this.truncatePending(removed);
    this.truncateQueue(removed);
    return removed;
  }

  /** `p` is in a block: its sender's txs up to its nonce leave (a same-nonce replacement among them). */
  included(p: PoolTx): PoolTx[] {
    const s = this.senderTxs.get(p.fromHex);
    if (!s) return [];
    const removed: PoolTx[] = [];
    this.forward(s, p.nonce + 1n, removed);
    this.promote(s);
    if (s.size === 0) this.senderTxs.delete(p.fromHex);
    return removed;
  }

  /** Takes `p` out (eviction, anvil_dropTransaction, a tx a block could not run); a pending tx's successors wait in the queue. */
  remove(p: PoolTx): PoolTx[] {
    return this.removeTx(p);
  }

  /** geth's removeTx. `stale`: its heap entries stay behind (false when the heaps gave it up). */
  private removeTx(p: PoolTx, stale = true): PoolTx[] {
    if (this.byHash.get(p.hashHex) !== p) return [];
    this.unlist(p, stale);
    const s = this.senderTxs.get(p.fromHex)!;
    if (s.pending.get(p.nonce) === p) {
      const end = s.next;
      s.pending.delete(p.nonce);
      this.pendingCount--;
      for (let n = p.nonce + 1n; n < end; n++) {
        s.queue.set(n, s.pending.get(n)!);
        s.pending.delete(n);
        this.pendingCount--;
        this.queuedCount++;
      }
      if (s.queue.size > 0 && !this.beats.has(s.from)) this.beat(s.from);
    } else if (s.queue.get(p.nonce) === p) {
      s.queue.delete(p.nonce);
      this.queuedCount--;
      if (s.queue.size === 0) this.beats.delete(s.from);
    }
    if (s.size === 0) this.senderTxs.delete(s.from);
    return [p];
  }

  /** Takes `p` out of the lookup and the capacity (not out of its sender's lists). */
  private unlist(p: PoolTx, stale: boolean): void {
    this.byHash.delete(p.hashHex);
    this.slotCount -= p.slots;
    if (stale) this.priced.removed(1);
  }

  /** Drops the sender's txs below `nonce` (included, or their nonce used elsewhere); the nonce only moves forward here. */
  private forward(s: SenderTxs, nonce: bigint, removed: PoolTx[]): void {
    if (nonce <= s.nonce) return;
    const oldNext = s.next;
    const end = oldNext < nonce ? oldNext : nonce;
    const gone: PoolTx[] = [];
    for (let n = s.nonce; n < end; n++) {
      gone.push(s.pending.get(n)!);
      s.pending.delete(n);
    }
    this.pendingCount -= gone.length;
    if (nonce > oldNext) {
      for (const [n, p] of s.queue) {
        if (n >= nonce) continue;
        gone.push(p);
        s.queue.delete(n);
        this.queuedCount--;
      }
      if (s.queue.size === 0) this.beats.delete(s.from);
    }
    s.nonce = nonce;
    for (const p of gone) {
      this.byHash.delete(p.hashHex);
      this.slotCount -= p.slots;
    }
    this.priced.removed(gone.length);
    removed.push(...gone);
  }

  /** The account's nonce went back: a gap in front of every pending tx, which waits in the queue. */
  private rewind(s: SenderTxs, nonce: bigint): void {
    for (const [n, p] of s.pending) s.queue.set(n, p);
    this.pendingCount -= s.pending.size;
    this.queuedCount += s.pending.size;
    s.pending.clear();
    s.nonce = nonce;
    if (s.queue.size > 0 && !this.beats.has(s.from)) this.beat(s.from);
  }

  /** The sender was active now: its heartbeat moves to the end (the newest). */
  private beat(from: string): void {
    this.beats.delete(from);
    this.beats.set(from, this.now());
  }
}

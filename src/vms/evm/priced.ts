// geth's pricedList (core/txpool/legacypool/list.go), which picks the txs a full pool evicts: two
// heaps over every pool tx, cheapest on top. The urgent heap orders by the tip a tx would pay over
// the pool's base fee estimate, the floating heap by fee cap alone; new txs go to the urgent heap,
// and eviction first moves urgent txs to the floating heap until it holds a fifth of them, then
// evicts from the floating heap. Entries of txs that left the pool stay until they surface (or a
// rebuild, once they are a quarter of the heaps), so removal costs nothing on the pool's hot path.

/** A tx's prices, as the heaps compare them. */
interface Prices {
  feeCap: bigint;
  tipCap: bigint;
}

/** The tip paid per gas over `baseFee` (geth's EffectiveGasTip): min(tip cap, fee cap - base fee), negative under the base fee. */
export function effectiveTip(c: Prices, baseFee: bigint): bigint {
  const room = c.feeCap - baseFee;
  return room < c.tipCap ? room : c.tipCap;
}

/** What the heaps read of a pool tx. */
export interface Priced extends Prices {
  nonce: bigint;
  slots: number;
}

/** A binary min-heap under `less`. */
class Heap<T> {
  items: T[] = [];
  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(x: T): void {
    this.items.push(x);
    this.up(this.items.length - 1);
  }

  pop(): T | undefined {
    const top = this.items[0];
    const last = this.items.pop();
    if (this.items.length > 0 && last !== undefined) {
      this.items[0] = last;
      this.down(0);
    }
    return top;
  }

  /** Takes `items` as the heap's content and orders them (container/heap's Init). */
  init(items: T[]): void {
    this.items = items;
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  private up(i: number): void {
    const h = this.items;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.items;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) return;
      const r = l + 1;
      const child = r < h.length && this.less(h[r]!, h[l]!) ? r : l;
      if (!this.less(h[child]!, h[i]!)) return;
      [h[i], h[child]] = [h[child]!, h[i]!];
      i = child;
    }
  }
}

const sign = (d: bigint): number => (d < 0n ? -1 : d > 0n ? 1 : 0);

/** priceHeap.cmp: the effective tip at `baseFee` (when given), then the fee cap, then the tip cap. */
function cmp(a: Prices, b: Prices, baseFee: bigint | undefined): number {
  if (baseFee !== undefined) {
    const c = sign(effectiveTip(a, baseFee) - effectiveTip(b, baseFee));
    if (c !== 0) return c;
  }
  return sign(a.feeCap - b.feeCap) || sign(a.tipCap - b.tipCap);
}

/** priceHeap.Less: cheaper first; between equals, the higher nonce (the one a sender needs last). */
const cheaper =
  (baseFee: () => bigint | undefined) =>
  (a: Priced, b: Priced): boolean => {
    const c = cmp(a, b, baseFee());
    return c < 0 || (c === 0 && a.nonce > b.nonce);
  };

/** The urgent heap's share of the two (urgentRatio : floatingRatio = 4 : 1). */
const URGENT_RATIO = 4;
const FLOATING_RATIO = 1;

export class PricedList<T extends Priced> {
  private baseFee: bigint | undefined;
  private readonly urgent = new Heap<T>(cheaper(() => this.baseFee));
  private readonly floating = new Heap<T>(cheaper(() => undefined));
  /** Entries of txs no longer in the pool. */
  private stales = 0;

  /**
   * @param live whether a tx is still in the pool (an entry of one that is not is stale).
   * @param all every tx in the pool, for a rebuild.
   */
  constructor(
    private readonly live: (tx: T) => boolean,
    private readonly all: () => Iterable<T>,
  ) {}

  put(tx: T): void {
    this.urgent.push(tx);
  }

  /** Txs left the pool: their entries go stale, and once they are a quarter of the heaps, the heaps are rebuilt. */
  removed(count: number): void {
    this.stales += count;
    if (this.stales <= (this.urgent.size + this.floating.size) / 4) return;
    this.reheap();
  }

  /** The pool's base fee estimate moved: the urgent heap is reordered (SetBaseFee). */
  setBaseFee(baseFee: bigint): void {
    if (baseFee === this.baseFee) return;
    this.baseFee = baseFee;
    this.reheap();
  }

  /** Whether `tx` is no better than the cheapest tx of every non-empty heap (nothing is underpriced in an empty pool). */
  underpriced(tx: Prices): boolean {
    const u = this.underpricedFor(this.urgent, this.baseFee, tx);
    const f = this.underpricedFor(this.floating, undefined, tx);
    return (u || this.urgent.size === 0) && (f || this.floating.size === 0) && (this.urgent.size > 0 || this.floating.size > 0);
  }

  private underpricedFor(h: Heap<T>, baseFee: bigint | undefined, tx: Prices): boolean {
    this.dropStaleTop(h);
    const top = h.peek();
    return top !== undefined && cmp(top, tx, baseFee) >= 0;
  }

  private dropStaleTop(h: Heap<T>): void {
    for (let top = h.peek(); top !== undefined && !this.live(top); top = h.peek()) {
      h.pop();
      this.stales--;
    }
  }

  /**
   * The cheapest txs that free `slots` slots, taken out of the heaps; undefined (and nothing taken)
   * if the whole pool would not free them.
   */
  discard(slots: number): T[] | undefined {
    const drop: T[] = [];
    while (slots > 0) {
      if (this.urgent.size * FLOATING_RATIO > this.floating.size * URGENT_RATIO) {
        const tx = this.urgent.pop()!;
        if (!this.live(tx)) {
          this.stales--;
          continue;
        }
        this.floating.push(tx);
        continue;
      }
      const tx = this.floating.pop();
      if (tx === undefined) break;
      if (!this.live(tx)) {
        this.stales--;
        continue;
      }
      drop.push(tx);
      slots -= tx.slots;
    }
    if (slots > 0) {
      for (const tx of drop) this.urgent.push(tx);
      return undefined;
    }
    return drop;
  }

  /** Txs `discard` took that stay in the pool after all. */
  putBack(txs: T[]): void {
    for (const tx of txs) this.urgent.push(tx);
  }

  /** Rebuilds both heaps from the pool: everything into the urgent heap, then its cheapest fifth to the floating heap. */
  private reheap(): void {
    this.stales = 0;
    this.urgent.init([...this.all()]);
    const floatingCount = Math.floor((this.urgent.size * FLOATING_RATIO) / (URGENT_RATIO + FLOATING_RATIO));
    const floating: T[] = [];
    for (let i = 0; i < floatingCount; i++) floating.push(this.urgent.pop()!);
    this.floating.init(floating);
  }
}

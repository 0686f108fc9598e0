// When an EVM chain's block rounds run: one at a time, each covering every request made before it
// began; sent txs gather for a moment, reads start the waiting round at once, and a round that could
// not build asks for another later.
/** After a failed commit (a store error) or while capacity refills, the builder tries again this much later. */
const RETRY_MS = 1000;

/**
 * How long after a block round the next one for sent txs waits, gathering the sends that arrive
 * meanwhile. A read starts the waiting round at once (`settled`), and a send that follows a read
 * does not wait at all (`buildSoon`), so only sends with no read between them see the wait. 50 ms
 * rather than 20: a client sending one tx after another then shares a block with some 30 of its
 * sends instead of 12, and pays for fewer blocks (about 10 % more sequential sends per second in A/B
 * runs); coreth's minimum delay between blocks is 2 s.
 */
const SEND_SPACING_MS = 50;

/** What the rounds ask of their chain. */
export interface RoundsHost {
  /** Whether the chain was closed: no round starts then. */
  readonly closed: boolean;
  /** While the node goes back to a snapshot: what rounds wait for. */
  readonly held: Promise<void> | undefined;
  /** Whether anything waits for a block. */
  readonly hasWork: boolean;
  /** One round: a failure is handled there, never thrown. */
  round(): Promise<void>;
  /** Drops the queued txs past their lifetime; undefined if there were none. */
  expireQueued(): Promise<void> | undefined;
}

export class Rounds {
  private requested = 0;
  private completed = 0;
  private waiters: Array<{ round: number; resolve: () => void }> = [];
  private loop: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private retryAt = 0;
  /** When the last block round ended (performance.now()). */
  private lastRoundEnd = -Infinity;
  /** The timer of a round that sent txs wait for (SEND_SPACING_MS after the last round). */
  private soon: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Whether a read came after the last send: see `buildSoon`. */
  private readSinceSend = false;

  constructor(private readonly chain: RoundsHost) {}

  /** The round under way, if any. */
  get building(): Promise<void> | undefined {
    return this.running;
  }

  /** Resolves once a build round that started after this call has finished. */
  buildNow(): Promise<void> {
    const round = ++this.requested;
    const done = new Promise<void>((resolve) => this.waiters.push({ round, resolve }));
    this.loop ??= this.runRounds();
    return done;
  }

  /**
   * A round for sent txs: at once if the last ended SEND_SPACING_MS ago, else when it has (or when
   * a read comes first, see `settled`), so that sends arriving back to back share a block instead of
   * paying for one each. A send that follows a read (any client's: a flag of the chain, not of a
   * client) is built at once: a client that reads between its sends (a test waiting for each
   * receipt) would end the wait with its next read anyway, and the block is built while it is busy
   * with the send's answer instead of after it asks again (in `bench:suite` a receipt then took
   * 0.6 ms instead of 3.4). With many clients, a read costs at most one more small block.
   */
  buildSoon(): void {
    const afterRead = this.readSinceSend;
    this.readSinceSend = false;
    if (this.soon) return;
    const wait = afterRead ? 0 : this.lastRoundEnd + SEND_SPACING_MS - performance.now();
    if (wait <= 0) {
      void this.buildNow();
      return;
    }
    this.soon = setTimeout(() => this.buildWaiting(), wait);
  }

  /** Starts the round sent txs wait for, now. */
  private buildWaiting(): void {
    clearTimeout(this.soon);
    this.soon = undefined;
    void this.buildNow();
  }

  /**
   * Undefined when no block round is requested or running; else resolves once every round requested
   * so far has finished (built its block, or found nothing it could build). What reads wait for.
   */
  settled(): Promise<void> | undefined {
    this.readSinceSend = true;
    // A read sees no queued tx past its lifetime (geth drops them on a timer; the clock may have jumped).
    const expiring = this.chain.expireQueued();
    // A read does not wait for more sends to gather.
    if (this.soon) this.buildWaiting();
    if (this.completed >= this.requested) return expiring;
    const round = this.requested;
    const built = new Promise<void>((resolve) => this.waiters.push({ round, resolve }));
    return expiring ? Promise.all([expiring, built]).then(() => undefined) : built;
  }

  /** Another round in `delayMs` (sooner replaces later): after a failure, or for capacity or fees to come back. */
  scheduleRetry(delayMs = RETRY_MS): void {
    if (this.chain.closed) return;
    const at = Date.now() + delayMs;
    if (this.retry && this.retryAt <= at) return;
    if (this.retry) clearTimeout(this.retry);
    this.retryAt = at;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.chain.hasWork) void this.buildNow();
    }, delayMs);
    this.retry.unref();
  }

  private async runRounds(): Promise<void> {
    // Yield first, so that sends arriving together share a block.
    await new Promise((r) => setImmediate(r));
    try {
      while (this.completed < this.requested && !this.chain.closed) {
        while (this.chain.held) await this.chain.held;
        if (this.chain.closed) break;
        const covers = this.requested;
        this.running = this.chain.round();
        await this.running;
        this.running = undefined;
        this.completed = covers;
        this.lastRoundEnd = performance.now();
        const done = this.waiters.filter((w) => w.round <= covers);
        this.waiters = this.waiters.filter((w) => w.round > covers);
        for (const w of done) w.resolve();
      }
    } finally {
      this.loop = undefined;
    }
  }

  /** No more timers: the chain is closing. */
  stopTimers(): void {
    clearTimeout(this.soon);
    if (this.retry) clearTimeout(this.retry);
  }

  /** The round under way ends; whoever waits for a round is let go. */
  async finish(): Promise<void> {
    await this.loop;
    for (const w of this.waiters.splice(0)) w.resolve();
  }
}

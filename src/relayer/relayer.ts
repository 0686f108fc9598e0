// The ICM relayer inside the node (icm-relayer's behaviour, docs/research/icm.md §4): it follows
// every EVM chain with the messenger, finds each message the messenger sends (its warp log) and
// delivers those bound for a chain of this node (work.ts). Messages to a chain the node does not run
// stay unroutable (pending, as with a real relayer) until such a chain is created. Worker runs and
// controls go one at a time through one queue, so records change in one order; a hold (a revert)
// waits for what is under way and keeps both out until it is released.
import type { Logger } from '../logging/logger.js';
import type { EvmChain } from '../vms/evm/index.js';
import { LiveRecords } from './live.js';
import type { MessageRecord, RelayerStore } from './records.js';
import { RelayerWork, type Shortfall } from './work.js';

export interface RelayerOptions {
  store: RelayerStore;
  log: Logger;
  /** The relayer's signing key and its address (given, not derived: deriving loads the curve at start-up). */
  key: Uint8Array;
  address: Uint8Array;
  /** Default: the relayer's own address. */
  rewardAddress?: Uint8Array;
  /** Blocks of the destination each new message waits before its delivery (0: at once). */
  delayBlocks?: number;
}

export class IcmRelayer {
  readonly address: Uint8Array;
  readonly rewardAddress: Uint8Array;
  delayBlocks: number;
  private readonly chains = new Map<string, EvmChain>();
  private readonly unfollows: Array<() => void> = [];
  /** The sent messages and a window of the queued ones (the rest wait in the store). */
  private readonly live: LiveRecords;
  private readonly work: RelayerWork;
  private paused = false;
  private readonly pausedChains = new Set<string>();
  private readonly unfunded = new Map<string, Shortfall>();
  /** Worker runs and controls, one after another. */
  private tail: Promise<unknown> = Promise.resolve();
  private scheduled = false;
  private holds = 0;
  private released: Promise<void> = Promise.resolve();
  private release: () => void = () => {};
  private closed = false;
  private loaded = false;
  /** After a restart or a revert, the txs recorded as sent are sent again. */
  private resendPending = true;

  constructor(private readonly o: RelayerOptions) {
    this.address = o.address;
    this.rewardAddress = o.rewardAddress ?? this.address;
    this.delayBlocks = o.delayBlocks ?? 0;
    this.live = new LiveRecords(o.store);
    this.work = new RelayerWork({
      store: o.store,
      live: this.live,
      chains: this.chains,
      key: o.key,
      address: this.address,
      rewardAddress: this.rewardAddress,
      delayBlocks: () => this.delayBlocks,
      paused: (chain) => this.paused || (chain !== undefined && this.pausedChains.has(chain)),
      stopping: () => this.holds > 0 || this.closed,
      unfunded: this.unfunded,
    });
  }

  /** Runs `fn` after every run and control queued before it. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => {});
    return run;
  }

  /** Reads the records held in memory, once (again after a revert, or when waiting messages were queued). */
  private async load(): Promise<void> {
    if (this.loaded) return;
    await this.live.load();
    this.loaded = true;
  }

  /** Runs the worker after what is queued (once, however often it is woken meanwhile). */
  wake(): void {
    if (this.closed || this.holds > 0 || this.scheduled) return;
    this.scheduled = true;
    void this.serial(async () => {
      this.scheduled = false;
      if (this.closed || this.holds > 0) return;
      await this.load();
      // First what the chains accepted (new messages, deliveries mined), then what is due: a
      // restart finds the deliveries mined before it, and resends only the txs still unseen.
      for (const [id, chain] of this.chains) await this.work.catchUp(id, chain);
      if (this.resendPending) {
        this.resendPending = false;
        await this.work.resend();
      }
      await this.work.checkSent();
      if (!this.paused) await this.work.deliverDue();
      // Queued messages read in from the store may be due now: another run takes them.
      if ((await this.live.refill()) > 0) this.wake();
    }).catch((err) => {
      this.loaded = false;
      this.o.log.error('the ICM relayer failed; it retries with the next block', { error: (err as Error).message });
    });
  }

  /** Runs a control between worker runs, after any hold; the worker runs after it (`wake`: unless it only reads). */
  async exclusive<T>(fn: () => Promise<T>, wake = true): Promise<T> {
    while (this.holds > 0) await this.released;
    try {
      return await this.serial(async () => {
        await this.load();
        try {
          return await fn();
        } catch (err) {
          // What it changed in memory may not be in the store: read the store again.
          this.loaded = false;
          throw err;
        }
      });
    } finally {
      if (wake) this.wake();
    }
  }

  /** Resolves once what is queued has run (tests and controls wait for it). */
  async idle(): Promise<void> {
    await this.serial(async () => {});
  }

  /** Starts following `chain` (CB58 `id`): from its cursor, or from its head on first sight. */
  follow(id: string, chain: EvmChain): Promise<void> {
    return this.exclusive(async () => {
      if (this.chains.has(id)) return;
      if ((await this.o.store.cursor(id)) === undefined) await this.o.store.batch().cursor(id, chain.head.header.number).write();
      this.chains.set(id, chain);
      this.unfollows.push(chain.followBlocks(() => this.wake()));
      // A chain created at run time may be the destination messages waited for: they queue now.
      const waiting = await this.o.store.unroutable(id);
      if (waiting.length === 0) return;
      const batch = this.o.store.batch();
      for (const r of waiting) batch.put(this.work.requeue(r));
      await batch.write();
    });
  }

  /** The relayer's balance on a followed chain (wei); 0 on another. */
  async balanceOn(id: string): Promise<bigint> {
    const chain = this.chains.get(id);
    return (chain && (await chain.account(this.address))?.balance) ?? 0n;
  }

  /** The chains followed, by ID. */
  followed(): Array<{ id: string; chain: EvmChain }> {
    return [...this.chains].map(([id, chain]) => ({ id, chain }));
  }

  // --- controls --------------------------------------------------------------------------

  pause(chain?: string): void {
    if (chain === undefined) this.paused = true;
    else this.pausedChains.add(chain);
  }

  resume(chain?: string): void {
    if (chain === undefined) {
      this.paused = false;
      this.pausedChains.clear();
    } else this.pausedChains.delete(chain);
    this.wake();
  }

  get state(): { paused: boolean; pausedChains: string[]; delayBlocks: number } {
    return { paused: this.paused, pausedChains: [...this.pausedChains], delayBlocks: this.delayBlocks };
  }

  /** Sends refused for want of funds, by chain, with what they needed (the health check's errors). */
  get fundsShort(): ReadonlyMap<string, Shortfall> {
    return this.unfunded;
  }

  /** The chain was funded: its refusal is forgotten and the worker tries again. */
  funded(chain: string): void {
    if (this.unfunded.delete(chain)) this.wake();
  }

  /** A record by ID, whatever its state (call inside `exclusive` to change it). */
  async record(id: string): Promise<MessageRecord | undefined> {
    return this.live.get(id) ?? (await this.o.store.message(id));
  }

  /** The newest records `keep` accepts, at most `limit`, newest first. */
  records(keep: (r: MessageRecord) => boolean, limit: number): Promise<MessageRecord[]> {
    return this.exclusive(async () => {
      const current = (r: MessageRecord) => this.live.get(r.id) ?? r;
      return (await this.o.store.newest((r) => keep(current(r)), limit)).map(current);
    }, false);
  }

  /** Writes a record a control changed (inside `exclusive`). */
  async save(r: MessageRecord): Promise<void> {
    this.live.note(r);
    await this.o.store.batch().put(r).write();
  }

  /** Delivers one message now (emulator.icmDeliver, inside `exclusive`): past a pause, a delay or a drop. */
  async deliver(r: MessageRecord): Promise<void> {
    const chain = this.chains.get(r.destination);
    if (!chain) throw new Error(`the relayer does not follow ${r.destination}`);
    Object.assign(r, { state: 'queued' });
    delete r.dueHeight;
    this.live.note(r);
    await this.work.deliverAll([r], chain);
  }

  /** The chain a message goes to, if the relayer follows it. */
  destinationOf(r: MessageRecord): EvmChain | undefined {
    return this.chains.get(r.destination);
  }

  // --- snapshots ------------------------------------------------------------------------

  /** Stops the worker and the controls (what is under way finishes) and resolves to what starts them again. */
  async hold(): Promise<() => void> {
    if (this.holds++ === 0) this.released = new Promise((r) => (this.release = r));
    await this.idle();
    return () => {
      if (--this.holds === 0) this.release();
      this.wake();
    };
  }

  /**
   * The store went back: the records in memory are read again (unless `recordsChanged` is false: the
   * store went back to the records it had, as a revert over blocks with no ICM message does), and
   * txs recorded as sent are resent.
   */
  forget(recordsChanged = true): void {
    if (recordsChanged) this.loaded = false;
    this.resendPending = true;
    this.unfunded.clear();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const unfollow of this.unfollows) unfollow();
    await this.idle();
  }
}

// The records the relayer holds in memory: every message whose delivery tx is in a pool (a few per
// chain, MAX_IN_FLIGHT each) and a window of the queued ones, the oldest first, at most WINDOW. The
// rest wait in the store's indexes (records.ts), read in when the window has room: a chain's users
// can send any number of messages, the relayer's memory stays bounded.
import type { MessageRecord, RelayerStore } from './records.js';

/** Queued messages held in memory at most. */
const WINDOW = 4096;

export class LiveRecords {
  private readonly records = new Map<string, MessageRecord>();
  private readonly queuedIds = new Set<string>();
  /** Delivery txs in a destination's pool: tx hash → message ID. */
  readonly sentTxs = new Map<string, string>();
  /** The queued records in memory are all those of the store with seq up to here; when `spilled`, the store has more after it. */
  private horizon = -1;
  private spilled = false;
  /** The order the next message found gets. */
  nextSeq = 0;

  constructor(
    private readonly store: RelayerStore,
    private readonly window = WINDOW,
  ) {}

  /** Reads the sent records and the first window of the queued ones from the store. */
  async load(): Promise<void> {
    this.records.clear();
    this.queuedIds.clear();
    this.sentTxs.clear();
    this.horizon = -1;
    // Nothing of the store's queued records is read yet: the refill below reads the first window.
    this.spilled = true;
    this.nextSeq = await this.store.nextSeq();
    for (const r of await this.store.sent()) this.note(r);
    await this.refill();
  }

  get(id: string): MessageRecord | undefined {
    return this.records.get(id);
  }

  /** The queued records in memory, in the order they were found. */
  queued(): MessageRecord[] {
    return [...this.queuedIds].map((id) => this.records.get(id)!).sort((a, b) => a.seq - b.seq);
  }

  /** Records in memory whose delivery tx is in `destination`'s pool. */
  sentTo(destination: string): number {
    let n = 0;
    for (const id of this.sentTxs.values()) if (this.records.get(id)?.destination === destination) n++;
    return n;
  }

  /** Every sent record in memory. */
  sent(): MessageRecord[] {
    return [...this.sentTxs.values()].map((id) => this.records.get(id)!);
  }

  /** Takes `r`'s state as it now is: held while sent or queued (within the window), let go otherwise. */
  note(r: MessageRecord): void {
    for (const [hash, id] of this.sentTxs) if (id === r.id && (r.state !== 'sent' || hash !== r.txHash)) this.sentTxs.delete(hash);
    this.queuedIds.delete(r.id);
    if (r.state === 'sent' && r.txHash) {
      this.records.set(r.id, r);
      this.sentTxs.set(r.txHash, r.id);
    } else if (r.state === 'queued' && (r.seq <= this.horizon || (!this.spilled && this.queuedIds.size < this.window))) {
      this.records.set(r.id, r);
      this.queuedIds.add(r.id);
      this.horizon = Math.max(this.horizon, r.seq);
    } else {
      if (r.state === 'queued') this.spilled = true;
      this.records.delete(r.id);
    }
  }

  /** Reads queued records from the store into a window that is half empty; how many it read. */
  async refill(): Promise<number> {
    if (!this.spilled || this.queuedIds.size > this.window / 2) return 0;
    const want = this.window - this.queuedIds.size;
    const more = await this.store.queued(this.horizon < 0 ? undefined : this.horizon, want);
    this.spilled = false;
    for (const r of more) if (!this.records.has(r.id)) this.note(r);
    this.spilled = more.length === want;
    if (more.length > 0) this.horizon = Math.max(this.horizon, more[more.length - 1]!.seq);
    return more.length;
  }
}

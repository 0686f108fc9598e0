// The ICM relayer inside the node (icm-relayer's behaviour, docs/research/icm.md §4): it follows
// every EVM chain with the messenger, finds each message the messenger sends (its warp log), and
// delivers those bound for a chain of this node: signed by the validators the destination checks
// against, sent as receiveCrossChainMessage(0, reward address) from the relayer's account. It skips
// what icm-relayer skips (a message already received, a relayer not in allowedRelayerAddresses, a
// requiredGasLimit over the destination's block gas limit) and gives up after five failed attempts.
// Messages to a chain the node does not run stay unroutable (pending, as with a real relayer) until
// such a chain is created. One worker does everything in turn, so records change in one order.
import { encodeCB58 } from '../encoding/cb58.js';
import { fromHex0x, toHex0x } from '../encoding/bytes.js';
import type { Logger } from '../logging/logger.js';
import {
  deliveryTx,
  type EvmChain,
  evmAddressOf,
  executionOf,
  icmSends,
  messageReceived,
  QuorumError,
  type StoredBlock,
  type TeleporterMessage,
  teleporterMessageOf,
  type TxRecord,
} from '../vms/evm/index.js';
import type { MessageRecord, RelayerBatch, RelayerStore } from './records.js';

/** icm-relayer's maxRetryCount. */
const MAX_ATTEMPTS = 5;
/** Deliveries to one chain recorded in one write and sent together, at most. */
const DELIVERIES_PER_WRITE = 64;
/** Blocks read in one write at most. */
const BLOCKS_PER_WRITE = 64;
/** States that end a message's story (a control may still reopen some). */
const FINAL = new Set(['delivered', 'failed', 'dropped', 'skipped']);

export interface RelayerOptions {
  store: RelayerStore;
  log: Logger;
  /** The relayer's signing key, and the address its deliveries name for the fee rewards. */
  key: Uint8Array;
  /** Default: the relayer's own address. */
  rewardAddress?: Uint8Array;
  /** Blocks of the destination each new message waits before its delivery (0: at once). */
  delayBlocks?: number;
}

interface Followed {
  chain: EvmChain;
  unfollow: () => void;
}

export class IcmRelayer {
  readonly address: Uint8Array;
  readonly rewardAddress: Uint8Array;
  private readonly chains = new Map<string, Followed>();
  /** Messages not yet in a final state, by ID. */
  private readonly open = new Map<string, MessageRecord>();
  /** Delivery txs in a destination's pool: tx hash → message ID. */
  private readonly sentTxs = new Map<string, string>();
  private seq = 0;
  private paused = false;
  private readonly pausedChains = new Set<string>();
  delayBlocks: number;
  /** The last send that found the relayer's account short of funds, by chain: the health check's text. */
  private readonly unfunded = new Map<string, string>();
  private running: Promise<void> | undefined;
  private again = false;
  private held = false;
  private closed = false;
  private loaded: Promise<void> | undefined;

  constructor(private readonly o: RelayerOptions) {
    this.address = evmAddressOf(o.key);
    this.rewardAddress = o.rewardAddress ?? this.address;
    this.delayBlocks = o.delayBlocks ?? 0;
  }

  /** Starts following `chain` (CB58 `id`): from its cursor, or from its head on first sight. */
  async follow(id: string, chain: EvmChain): Promise<void> {
    await this.load();
    if (this.chains.has(id)) return;
    if ((await this.o.store.cursor(id)) === undefined) await this.o.store.batch().cursor(id, chain.head.header.number).write();
    this.chains.set(id, { chain, unfollow: chain.followBlocks(() => this.wake()) });
    // A chain created at run time may be the destination some messages waited for.
    for (const r of this.open.values()) if (r.state === 'unroutable' && r.destination === id) r.state = 'queued';
    this.wake();
  }

  /** The chains followed, by ID. */
  followed(): Array<{ id: string; chain: EvmChain }> {
    return [...this.chains].map(([id, f]) => ({ id, chain: f.chain }));
  }

  /** Loads the open records (once; again after a revert). */
  private load(): Promise<void> {
    this.loaded ??= (async () => {
      this.open.clear();
      this.sentTxs.clear();
      const all = await this.o.store.messages();
      this.seq = all.length === 0 ? 0 : all[all.length - 1]!.seq + 1;
      for (const r of all) {
        if (FINAL.has(r.state)) continue;
        this.open.set(r.id, r);
        if (r.state === 'sent' && r.txHash) this.sentTxs.set(r.txHash, r.id);
      }
    })();
    return this.loaded;
  }

  /** Runs the worker: now, or again after the run under way. */
  wake(): void {
    if (this.closed || this.held) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.again = false;
    this.running = this.work()
      .catch((err) => this.o.log.error('the ICM relayer failed; it retries with the next block', { error: (err as Error).message }))
      .finally(() => {
        this.running = undefined;
        if (this.again) this.wake();
      });
  }

  /** Resolves once the worker is idle (what the controls and tests wait for). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Runs `fn` between worker runs (controls change records only then). */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    await this.load();
    while (this.running) await this.running;
    const held = this.held;
    this.held = true;
    try {
      return await fn();
    } finally {
      this.held = held;
      this.wake();
    }
  }

  private async work(): Promise<void> {
    await this.load();
    // First what the chains accepted (new messages, deliveries mined), then what is due: a
    // restart finds the deliveries mined before it, and resends only the txs still unseen.
    for (const [id, f] of this.chains) await this.catchUp(id, f.chain);
    if (this.resendPending) await this.resend();
    if (!this.paused) await this.deliverDue();
  }

  /** After a restart (or a revert), txs recorded as sent are sent again, byte for byte. */
  private resendPending = true;

  private async resend(): Promise<void> {
    this.resendPending = false;
    for (const r of [...this.open.values()]) {
      if (r.state !== 'sent' || !r.txBytes) continue;
      const dest = this.chains.get(r.destination);
      if (!dest) continue;
      try {
        await dest.chain.sendRawTransaction(fromHex0x(r.txBytes));
      } catch (err) {
        const text = (err as Error).message;
        if (/already known/.test(text)) continue;
        // Its nonce went to another tx: delivered by someone else, or to be sent again.
        await this.afterFailedDelivery(r, dest.chain, text);
      }
    }
  }

  private async catchUp(id: string, chain: EvmChain): Promise<void> {
    let n = ((await this.o.store.cursor(id)) ?? chain.head.header.number) + 1n;
    while (n <= chain.head.header.number && !this.closed) {
      const batch = this.o.store.batch();
      const last = chain.head.header.number;
      for (let taken = 0; n <= last && taken < BLOCKS_PER_WRITE; n++, taken++) {
        const block = await chain.store.blockAt(n);
        if (!block) throw new Error(`block ${n} of ${id} is missing from the chain's store`);
        await this.read(id, chain, block, await chain.store.txRecords(block.hash), batch);
      }
      await batch.cursor(id, n - 1n).write();
    }
  }

  /** One accepted block: the messages it sends, and the deliveries of this relayer it carries. */
  private async read(id: string, chain: EvmChain, block: StoredBlock, records: readonly TxRecord[], batch: RelayerBatch): Promise<void> {
    for (const s of icmSends(records)) {
      const key = toHex0x(s.id);
      const known = this.open.get(key) ?? (await this.o.store.message(key));
      // retrySendCrossChainMessage sends the same message again: one a relayer gave up on is tried again.
      if (known && known.state !== 'failed') continue;
      const destination = encodeCB58(s.message.destinationBlockchainID);
      const r: MessageRecord = {
        id: key,
        seq: known?.seq ?? this.seq++,
        source: id,
        destination,
        unsigned: toHex0x(s.unsigned),
        warpID: encodeCB58(s.warpID),
        nonce: s.message.nonce.toString(),
        sourceHeight: block.header.number.toString(),
        sourceTx: toHex0x(records[s.txIndex]!.hash),
        state: this.chains.has(destination) ? 'queued' : 'unroutable',
        attempts: 0,
      };
      if (this.delayBlocks > 0 && this.chains.has(destination)) {
        r.dueHeight = (this.chains.get(destination)!.chain.head.header.number + BigInt(this.delayBlocks)).toString();
      }
      this.open.set(key, r);
      batch.put(r);
    }
    for (const rec of records) {
      const messageID = this.sentTxs.get(toHex0x(rec.hash));
      const r = messageID && this.open.get(messageID);
      if (!r || r.destination !== id) continue;
      this.sentTxs.delete(toHex0x(rec.hash));
      if (rec.status === 1) {
        this.finish(r, {
          state: 'delivered',
          deliveredBy: 'relayer',
          deliveredHeight: block.header.number.toString(),
          execution: executionOf(rec, fromHex0x(r.id)),
        });
      } else {
        // Reverted: delivered meanwhile by another sender, or to be tried again.
        const done = await messageReceived(chain, fromHex0x(r.id));
        if (done) this.finish(r, { state: 'delivered', deliveredBy: 'other' });
        else this.retryLater(r, 'the delivery tx reverted');
      }
      batch.put(r);
    }
  }

  private finish(r: MessageRecord, to: Partial<MessageRecord>): void {
    Object.assign(r, to);
    delete r.txBytes;
    delete r.reason;
    if (FINAL.has(r.state)) this.open.delete(r.id);
  }

  private retryLater(r: MessageRecord, reason: string): void {
    r.attempts++;
    r.state = r.attempts >= MAX_ATTEMPTS ? 'failed' : 'queued';
    r.reason = reason;
    delete r.txBytes;
    if (r.state === 'failed') this.open.delete(r.id);
  }

  /**
   * Delivers every queued message that is due, in the order they were found: per destination, up
   * to DELIVERIES_PER_WRITE at a time, recorded as sent in one write and then sent together (so
   * they share the destination's blocks).
   */
  private async deliverDue(): Promise<void> {
    const due = [...this.open.values()].filter((r) => r.state === 'queued' && !this.pausedChains.has(r.destination)).sort((a, b) => a.seq - b.seq);
    const byDestination = new Map<string, MessageRecord[]>();
    for (const r of due) {
      const dest = this.chains.get(r.destination);
      if (!dest || (r.dueHeight !== undefined && dest.chain.head.header.number < BigInt(r.dueHeight))) continue;
      byDestination.set(r.destination, [...(byDestination.get(r.destination) ?? []), r]);
    }
    for (const [id, records] of byDestination) {
      const chain = this.chains.get(id)!.chain;
      for (let i = 0; i < records.length; i += DELIVERIES_PER_WRITE) {
        if (this.held || this.closed || this.paused) return;
        await this.deliverAll(records.slice(i, i + DELIVERIES_PER_WRITE), chain);
      }
    }
  }

  /** One delivery now (emulator.icmDeliver): past a pause, a delay or a drop. */
  deliver(r: MessageRecord, chain: EvmChain): Promise<void> {
    return this.deliverAll([r], chain);
  }

  /** Deliveries to one chain: the checks icm-relayer makes, then the txs, recorded as sent before any is sent. */
  private async deliverAll(records: MessageRecord[], chain: EvmChain): Promise<void> {
    const batch = this.o.store.batch();
    const sending: Array<{ r: MessageRecord; bytes: Uint8Array }> = [];
    let nonce: bigint | undefined;
    for (const r of records) {
      const tx = await this.prepare(r, chain, nonce);
      if (tx) {
        nonce = tx.nonce + 1n;
        sending.push({ r, bytes: tx.bytes });
      }
      batch.put(r);
    }
    // Durable before the txs leave: a restart resends these bytes, never a second tx.
    await batch.write();
    for (const { r, bytes } of sending) {
      this.sentTxs.set(r.txHash!, r.id);
      try {
        await chain.sendRawTransaction(bytes);
        this.unfunded.delete(r.destination);
      } catch (err) {
        this.sentTxs.delete(r.txHash!);
        await this.afterFailedDelivery(r, chain, (err as Error).message);
      }
    }
  }

  /** Decides one delivery and, if it goes, signs its tx (at `nonce`, else the relayer's pool nonce) and marks it sent; `r` changes either way. */
  private async prepare(r: MessageRecord, chain: EvmChain, nonce: bigint | undefined) {
    const message = decodeMessage(r);
    const skip = (reason: string) => {
      this.finish(r, { state: 'skipped' });
      r.reason = reason;
    };
    if (!message) return skip('the warp message does not carry a TeleporterMessage');
    if (await messageReceived(chain, fromHex0x(r.id))) return this.finish(r, { state: 'delivered', deliveredBy: 'other' });
    if (message.allowedRelayers.length > 0 && !message.allowedRelayers.some((a) => Buffer.compare(a, this.address) === 0)) {
      return skip(`the relayer ${toHex0x(this.address)} is not in the message's allowedRelayerAddresses`);
    }
    if (message.requiredGasLimit > chain.head.header.gasLimit) {
      return skip(`requiredGasLimit ${message.requiredGasLimit} exceeds the destination's block gas limit ${chain.head.header.gasLimit}`);
    }
    let signed: Uint8Array | undefined;
    try {
      signed = chain.signForDelivery(fromHex0x(r.unsigned));
    } catch (err) {
      if (!(err instanceof QuorumError)) throw err;
      return this.retryLater(r, err.message);
    }
    if (!signed) return skip('the destination does not receive warp messages (its warp precompile is off)');
    const tx = await deliveryTx(chain, signed, message, this.o.key, this.rewardAddress, nonce);
    r.state = 'sent';
    r.txHash = toHex0x(tx.hash);
    r.txBytes = toHex0x(tx.bytes);
    delete r.reason;
    return tx;
  }

  /** A delivery tx the pool refused: out of funds waits (the health check says so); anything else counts as an attempt. */
  private async afterFailedDelivery(r: MessageRecord, chain: EvmChain, text: string): Promise<void> {
    if (await messageReceived(chain, fromHex0x(r.id))) this.finish(r, { state: 'delivered', deliveredBy: 'other' });
    else if (/insufficient funds/.test(text)) {
      r.state = 'queued';
      r.reason = text;
      delete r.txBytes;
      this.unfunded.set(r.destination, text);
    } else this.retryLater(r, text);
    await this.o.store.batch().put(r).write();
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

  /** The last refused send for want of funds, by chain (the health check's errors). */
  get fundsShort(): ReadonlyMap<string, string> {
    return this.unfunded;
  }

  /** A record by ID, open or final. */
  async record(id: string): Promise<MessageRecord | undefined> {
    await this.load();
    return this.open.get(id) ?? (await this.o.store.message(id));
  }

  async records(): Promise<MessageRecord[]> {
    await this.load();
    const stored = await this.o.store.messages();
    return stored.map((r) => this.open.get(r.id) ?? r);
  }

  /** Writes a record a control changed. */
  async save(r: MessageRecord): Promise<void> {
    if (FINAL.has(r.state)) this.open.delete(r.id);
    else this.open.set(r.id, r);
    await this.o.store.batch().put(r).write();
  }

  /** The chain a message goes to, if the relayer follows it. */
  destinationOf(r: MessageRecord): EvmChain | undefined {
    return this.chains.get(r.destination)?.chain;
  }

  // --- snapshots ------------------------------------------------------------------------

  /** Stops the worker (the run under way finishes) and resolves to what starts it again. */
  async hold(): Promise<() => void> {
    this.held = true;
    await this.idle();
    return () => {
      this.held = false;
      this.wake();
    };
  }

  /** The store went back: the open records are read again, and txs recorded as sent are resent. */
  forget(): void {
    this.loaded = undefined;
    this.resendPending = true;
    this.unfunded.clear();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const f of this.chains.values()) f.unfollow();
    await this.idle();
  }
}

/** The TeleporterMessage a record's warp message carries. */
const decodeMessage = (r: MessageRecord): TeleporterMessage | undefined => teleporterMessageOf(fromHex0x(r.unsigned));

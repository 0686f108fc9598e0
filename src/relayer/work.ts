// What one run of the relayer does, as icm-relayer does it (docs/research/icm.md §4): reads the
// blocks each chain accepted since its cursor (the messages the messenger sent, the outcomes of
// its own deliveries), resends after a restart the txs recorded as sent, requeues those that left a
// pool unmined, then delivers what is due: it skips what icm-relayer skips (a message already
// received, a relayer not in allowedRelayerAddresses, a requiredGasLimit over the destination's
// block gas limit), has the message signed by the validators the destination checks against, and
// sends receiveCrossChainMessage(0, reward address), recorded as sent before it leaves. It gives up
// after five failed attempts.
import { encodeCB58 } from '../encoding/cb58.js';
import { fromHex0x, toHex0x } from '../encoding/bytes.js';
import {
  deliveryTx,
  type EvmChain,
  executionOf,
  icmSends,
  messageReceived,
  QuorumError,
  type StoredBlock,
  type TeleporterMessage,
  teleporterMessageOf,
  type TxRecord,
} from '../vms/evm/index.js';
import type { LiveRecords } from './live.js';
import type { MessageRecord, RelayerBatch, RelayerStore } from './records.js';

/** icm-relayer's maxRetryCount. */
const MAX_ATTEMPTS = 5;
/** Delivery txs of the relayer waiting in one chain's pool, at most (icm-relayer's per-signer limit; geth's pool guarantees an account 16). */
const MAX_IN_FLIGHT = 16;
/** Blocks read in one write at most. */
const BLOCKS_PER_WRITE = 64;

/** A refused send for want of funds: its text and what the tx needed. */
export interface Shortfall {
  text: string;
  need: bigint;
}

export interface WorkDeps {
  store: RelayerStore;
  live: LiveRecords;
  /** The followed chains, by CB58 ID. */
  chains: ReadonlyMap<string, EvmChain>;
  key: Uint8Array;
  address: Uint8Array;
  rewardAddress: Uint8Array;
  delayBlocks(): number;
  /** Whether deliveries to `chain` (or all, without one) are paused. */
  paused(chain?: string): boolean;
  /** Whether the run should stop (a hold, a close). */
  stopping(): boolean;
  /** Sends refused for funds, by chain. */
  unfunded: Map<string, Shortfall>;
}

export class RelayerWork {
  constructor(private readonly d: WorkDeps) {}

  /** Reads what `chain` accepted since its cursor, BLOCKS_PER_WRITE blocks a write (with the cursor). */
  async catchUp(id: string, chain: EvmChain): Promise<void> {
    let n = ((await this.d.store.cursor(id)) ?? chain.head.header.number) + 1n;
    while (n <= chain.head.header.number && !this.d.stopping()) {
      const batch = this.d.store.batch();
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
      const known = this.d.live.get(key) ?? (await this.d.store.message(key));
      // retrySendCrossChainMessage sends the same message again: one a relayer gave up on is tried again.
      if (known && known.state !== 'failed') continue;
      const destination = encodeCB58(s.message.destinationBlockchainID);
      const dest = this.d.chains.get(destination);
      const r: MessageRecord = {
        id: key,
        seq: known?.seq ?? this.d.live.nextSeq++,
        source: id,
        destination,
        unsigned: toHex0x(s.unsigned),
        warpID: encodeCB58(s.warpID),
        nonce: s.message.nonce.toString(),
        sourceHeight: block.header.number.toString(),
        sourceTx: toHex0x(records[s.txIndex]!.hash),
        state: dest ? 'queued' : 'unroutable',
        attempts: 0,
      };
      if (dest && this.d.delayBlocks() > 0) r.dueHeight = (dest.head.header.number + BigInt(this.d.delayBlocks())).toString();
      this.d.live.note(r);
      batch.put(r);
    }
    // This block's txs that are the relayer's deliveries (none to look for when none is in a pool).
    for (const rec of this.d.live.sentTxs.size > 0 ? records : []) {
      const messageID = this.d.live.sentTxs.get(toHex0x(rec.hash));
      const r = messageID && this.d.live.get(messageID);
      if (!r || r.destination !== id) continue;
      if (rec.status === 1) {
        const execution = executionOf(rec, fromHex0x(r.id));
        this.finish(r, { state: 'delivered', deliveredBy: 'relayer', deliveredHeight: block.header.number.toString(), execution });
      } else await this.notDelivered(r, chain, 'the delivery tx reverted');
      batch.put(r);
    }
  }

  /** A delivery tx that did not deliver: delivered meanwhile by another sender, or tried again. */
  private async notDelivered(r: MessageRecord, chain: EvmChain, reason: string): Promise<void> {
    if (await messageReceived(chain, fromHex0x(r.id))) this.finish(r, { state: 'delivered', deliveredBy: 'other' });
    else this.retryLater(r, reason);
  }

  private finish(r: MessageRecord, to: Partial<MessageRecord>): void {
    Object.assign(r, to);
    delete r.txBytes;
    delete r.reason;
    this.d.live.note(r);
  }

  private skip(r: MessageRecord, reason: string): void {
    this.finish(r, { state: 'skipped' });
    r.reason = reason;
  }

  private retryLater(r: MessageRecord, reason: string): void {
    r.attempts++;
    r.state = r.attempts >= MAX_ATTEMPTS ? 'failed' : 'queued';
    r.reason = reason;
    delete r.txBytes;
    this.d.live.note(r);
  }

  /** After a restart or a revert, the txs recorded as sent are sent again, byte for byte. */
  async resend(): Promise<void> {
    for (const r of this.d.live.sent()) {
      const chain = this.d.chains.get(r.destination);
      if (!chain || !r.txBytes) continue;
      try {
        await chain.sendRawTransaction(fromHex0x(r.txBytes));
      } catch (err) {
        if (/already known/.test((err as Error).message)) continue;
        // Its nonce went to another tx: delivered by someone else, or to be sent again.
        await this.refused(r, chain, (err as Error).message);
      }
    }
  }

  /** A delivery tx neither in its pool nor mined (dropped, replaced, evicted) counts as a failed attempt. */
  async checkSent(): Promise<void> {
    const batch = this.d.store.batch();
    let changed = false;
    for (const r of this.d.live.sent()) {
      const chain = this.d.chains.get(r.destination);
      if (!chain || !r.txHash || chain.pool.has(r.txHash) || (await chain.store.lookup(fromHex0x(r.txHash)))) continue;
      await this.notDelivered(r, chain, 'the delivery tx left the pool unmined');
      batch.put(r);
      changed = true;
    }
    if (changed) await batch.write();
  }

  /**
   * Delivers the queued messages that are due, in the order they were found: per destination, as
   * many as its pool has room for, recorded as sent in one write and then sent together (so they
   * share the destination's blocks).
   */
  async deliverDue(): Promise<void> {
    const byDestination = new Map<string, MessageRecord[]>();
    for (const r of this.d.live.queued()) {
      const chain = this.d.chains.get(r.destination);
      if (!chain || this.d.paused(r.destination)) continue;
      if (r.dueHeight !== undefined && chain.head.header.number < BigInt(r.dueHeight)) continue;
      const records = byDestination.get(r.destination);
      if (records) records.push(r);
      else byDestination.set(r.destination, [r]);
    }
    for (const [id, records] of byDestination) {
      // Messages skipped or found delivered take no room: the next ones go in the same run.
      for (let next = 0; next < records.length; ) {
        if (this.d.stopping() || this.d.paused()) return;
        const room = MAX_IN_FLIGHT - this.d.live.sentTo(id);
        if (room <= 0) break;
        const taken = records.slice(next, next + room);
        next += taken.length;
        if (!(await this.deliverAll(taken, this.d.chains.get(id)!))) break;
      }
    }
  }

  /**
   * Deliveries to one chain: the checks, then the txs, all recorded as sent before any is sent.
   * After a refused send the rest are not sent (their nonces would follow a gap) but queued again,
   * and this answers false.
   */
  async deliverAll(records: MessageRecord[], chain: EvmChain): Promise<boolean> {
    const batch = this.d.store.batch();
    const sending: Array<{ r: MessageRecord; bytes: Uint8Array; need: bigint }> = [];
    let nonce: bigint | undefined;
    for (const r of records) {
      const tx = await this.prepare(r, chain, nonce);
      if (tx) {
        nonce = tx.nonce + 1n;
        sending.push({ r, bytes: tx.bytes, need: tx.cost });
      }
      batch.put(r);
    }
    // Durable before the txs leave: a restart resends these bytes, never a second tx.
    await batch.write();
    for (const [i, { r, bytes, need }] of sending.entries()) {
      try {
        await chain.sendRawTransaction(bytes);
      } catch (err) {
        await this.refused(r, chain, (err as Error).message, need);
        await this.unsend(sending.slice(i + 1).map((s) => s.r));
        return false;
      }
    }
    if (sending.length > 0) this.d.unfunded.delete(sending[0]!.r.destination);
    return true;
  }

  /** Records prepared as sent whose txs did not leave: queued again, no attempt counted. */
  private async unsend(records: MessageRecord[]): Promise<void> {
    if (records.length === 0) return;
    const batch = this.d.store.batch();
    for (const r of records) batch.put(this.requeue(r));
    await batch.write();
  }

  /** `r` queued again, without its delivery tx (and with `reason`, if given), as the window now holds it. */
  requeue(r: MessageRecord, reason?: string): MessageRecord {
    Object.assign(r, { state: 'queued' }, reason === undefined ? {} : { reason });
    delete r.txBytes;
    delete r.txHash;
    this.d.live.note(r);
    return r;
  }

  /** Decides one delivery and, if it goes, signs its tx (at `nonce`, else the relayer's pool nonce) and marks it sent. */
  private async prepare(r: MessageRecord, chain: EvmChain, nonce: bigint | undefined) {
    const unsigned = fromHex0x(r.unsigned);
    const message: TeleporterMessage | undefined = teleporterMessageOf(unsigned);
    if (!message) return this.skip(r, 'the warp message does not carry a TeleporterMessage');
    if (await messageReceived(chain, fromHex0x(r.id))) return this.finish(r, { state: 'delivered', deliveredBy: 'other' });
    if (message.allowedRelayers.length > 0 && !message.allowedRelayers.some((a) => Buffer.compare(a, this.d.address) === 0)) {
      return this.skip(r, `the relayer ${toHex0x(this.d.address)} is not in the message's allowedRelayerAddresses`);
    }
    // icm-relayer compares with its configured block-gas-limit (12M by default); here, the chain's own
    // (evm_setBlockGasLimit's once set, which the pool holds txs to).
    if (message.requiredGasLimit > chain.gasLimit) {
      return this.skip(r, `requiredGasLimit ${message.requiredGasLimit} exceeds the destination's block gas limit ${chain.gasLimit}`);
    }
    if (!chain.warpActive) return this.skip(r, 'the destination does not receive warp messages (its warp precompile is off)');
    let signed: Uint8Array | undefined;
    try {
      signed = chain.signForDelivery(unsigned);
    } catch (err) {
      if (!(err instanceof QuorumError)) throw err;
      return this.retryLater(r, err.message);
    }
    if (!signed) return this.skip(r, `the destination does not know the source chain ${r.source}`);
    const tx = await deliveryTx(chain, signed, message, { key: this.d.key, address: this.d.address }, this.d.rewardAddress, nonce);
    // A tx over the block gas limit could never be included: as icm-relayer's limit check, a skip.
    if (tx.gasLimit > chain.gasLimit) {
      return this.skip(r, `the delivery needs ${tx.gasLimit} gas, over the destination's block gas limit ${chain.gasLimit}`);
    }
    Object.assign(r, { state: 'sent', txHash: toHex0x(tx.hash), txBytes: toHex0x(tx.bytes) });
    delete r.reason;
    this.d.live.note(r);
    return tx;
  }

  /**
   * A delivery tx the pool refused: out of funds waits (the health check says so, when what the tx
   * needed is known); anything else counts as an attempt.
   */
  private async refused(r: MessageRecord, chain: EvmChain, text: string, need?: bigint): Promise<void> {
    if (/insufficient funds/.test(text)) {
      this.requeue(r, text);
      if (need !== undefined) this.d.unfunded.set(r.destination, { text, need });
    } else await this.notDelivered(r, chain, text);
    await this.d.store.batch().put(r).write();
  }
}

// The X-Chain VM: the genesis, the issue pipeline (parse, drop cache, verification against the last
// accepted state, mempool), block building (instantly on each tx, or on an interval), and accepting
// blocks into state and shared memory in one batch, with what proposervm and the node's acceptors
// write for the block (the chain's Acceptance).
import { EventEmitter } from 'node:events';
import { WriteBatch, type Database } from '../../storage/db.js';
import type { Acceptance } from '../../chains/acceptance.js';
import { type Clock, systemClock, unixMillis, unixSeconds } from '../../chains/clock.js';
import type { SharedMemory } from '../../chains/sharedmemory.js';
import {
  buildBlock,
  buildTx,
  CodecError,
  marshalUTXO,
  outputAddresses,
  parseGenesis,
  parseTx,
  parseUTXO,
  txInputIDs,
  txOutputs,
  utxoInputID,
} from './codec/index.js';
import { blockAddresses } from '../components/avax/owners.js';
import { xGenesisBlock } from './genesis.js';
import { Mempool, MempoolError, QueueLimits } from './mempool.js';
import { XState, type LastAccepted } from './state.js';
import type { SignedTx, StandardBlock, UTXO } from './types.js';
import { requiredReads, verifySemantics, verifySyntax, VerifyError, type ChainParams, type SemanticState } from './verify/index.js';
import { toHex } from '../../encoding/bytes.js';

/** 128 KiB of txs per block, as avalanchego's builder allows. */
const TARGET_BLOCK_SIZE = 128 * 1024;
/** After a block fails to commit (a store error), the builder tries again this much later. */
const BUILD_RETRY_MS = 1000;

export class IssueError extends Error {}

export interface XChainOptions {
  networkID: number;
  chainID: Uint8Array;
  subnetID: Uint8Array;
  /** The AVM genesis (its assets); the first asset pays the fees. */
  genesis: Uint8Array;
  txFee: bigint;
  createAssetTxFee: bigint;
  /** The subnet of another chain the node knows of (import and export peers). */
  subnetOf(chainID: Uint8Array): Uint8Array | undefined;
  /** Block building: 0 builds as soon as a tx arrives; otherwise every `blockIntervalMs`. */
  blockIntervalMs: number;
  clock?: Clock;
  /** What each accepted block goes through before its batch commits (proposervm, the index). */
  acceptance?: Acceptance;
  /** Whether block production is stalled (an emulator fault): txs wait in the mempool. */
  stalled?: () => boolean;
}

/** Runs one step of the issue pipeline, turning its expected refusals into IssueErrors with their text. */
function issueStep<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof CodecError || err instanceof MempoolError) throw new IssueError(err.message);
    throw err;
  }
}

export interface XChainEvents {
  /** A built block could not be accepted (its commit failed); its txs stay pending and are retried. */
  buildFailed: [err: Error];
}

/** What the chain's health check reports of consensus: pending work and how long it has waited. */
export interface Processing {
  /** Txs waiting for a block. */
  txs: number;
  /** How long the oldest pending work has been due without a block being accepted, in ms. */
  longestMs: number;
  /** The last failure to accept a built block, until a block is accepted again. */
  lastError: Error | undefined;
}

export class XChain extends EventEmitter<XChainEvents> {
  readonly state: XState;
  readonly mempool = new Mempool();
  readonly avaxAssetID: Uint8Array;
  /** The genesis CreateAssetTxs, and among them the fee asset's. */
  readonly genesisTxs: SignedTx[];
  readonly genesisTx: SignedTx;
  readonly genesisBlock: StandardBlock;
  readonly params: ChainParams;
  /** True when this process created the genesis (the real node then serves nil slices as null). */
  freshGenesis = false;
  private readonly waiters = new Map<string, Array<(err?: Error) => void>>();
  /** Txs admitted by wallet.issueTx, still to be verified when a block is built. */
  private readonly unverified = new Set<string>();
  /** wallet.issueTx's pending txs, oldest first; `counted` while held against the queue's limits. */
  private readonly walletQueue = new Map<string, { tx: SignedTx; counted: boolean }>();
  /** Bounds the queued txs behind the head (the head itself sits in the mempool, or was dropped). */
  private readonly walletQueueLimits = new QueueLimits();
  private lock: Promise<unknown> = Promise.resolve();
  private building: Promise<void> | undefined;
  /** Set by every buildAll call: the running builder loops again instead of missing it. */
  private buildRequested = false;
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly clock: Clock;
  /** When the mempool last went from empty to pending, or last saw a block accepted while pending. */
  private pendingSince: number | undefined;
  private lastBuildError: Error | undefined;

  private constructor(
    db: Database,
    private readonly shared: SharedMemory,
    readonly opts: XChainOptions,
  ) {
    super();
    this.state = new XState(db);
    this.clock = opts.clock ?? systemClock;
    const assets = parseGenesis(opts.genesis);
    if (assets.length === 0) throw new Error('the AVM genesis has no asset');
    this.genesisTxs = assets.map((a) => buildTx(a.tx, []));
    // The fee asset: the one aliased AVAX, as the primary network's X-Chain has it, else the first.
    this.genesisTx = this.genesisTxs[assets.findIndex((a) => a.alias === 'AVAX')] ?? this.genesisTxs[0]!;
    this.avaxAssetID = this.genesisTx.id;
    this.genesisBlock = xGenesisBlock(opts.chainID);
    this.params = {
      networkID: opts.networkID,
      chainID: opts.chainID,
      subnetID: opts.subnetID,
      avaxAssetID: this.avaxAssetID,
      txFee: opts.txFee,
      createAssetTxFee: opts.createAssetTxFee,
      subnetOf: opts.subnetOf,
    };
  }

  private now(): bigint {
    return unixSeconds(this.clock);
  }

  private clockMs(): number {
    return unixMillis(this.clock);
  }

  static async open(db: Database, shared: SharedMemory, opts: XChainOptions): Promise<XChain> {
    const vm = new XChain(db, shared, opts);
    if (!(await vm.state.load())) {
      vm.freshGenesis = true;
      const created = vm.genesisTxs.flatMap((tx) => txOutputs(tx).utxos);
      await vm.state.commit({ block: vm.genesisBlock, created, spent: [] }, new WriteBatch(), vm.genesisTxs);
    }
    if (opts.blockIntervalMs > 0) {
      vm.timer = setInterval(() => void vm.buildAll(), opts.blockIntervalMs);
      vm.timer.unref();
    }
    return vm;
  }

  lastAccepted(): LastAccepted {
    return this.state.lastAccepted();
  }

  /** Serializes verification+mempool admission against block acceptance. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => undefined);
    return run;
  }

  /**
   * avm.issueTx: returns the tx ID once the tx is in the mempool, or, when blocks are built on
   * arrival, once its block is accepted (so that getTx right after issueTx finds it).
   */
  async issueTx(bytes: Uint8Array): Promise<Uint8Array> {
    const tx = issueStep(() => parseTx(bytes));
    // Stalled, issueTx answers on admission (as with a block interval): the block never comes.
    const instant = this.opts.blockIntervalMs === 0 && !this.opts.stalled?.();
    // The wait is returned boxed: an async function would otherwise adopt it and hold the lock.
    const admitted = await this.exclusive(async () => {
      if (this.mempool.has(tx.id)) return { accepted: instant ? this.waitFor(tx) : undefined };
      const dropped = this.mempool.dropReason(tx.id);
      if (dropped !== undefined) throw new IssueError(dropped);
      try {
        await this.verify(tx);
      } catch (err) {
        if (!(err instanceof VerifyError)) throw err;
        this.mempool.markDropped(tx.id, err.message);
        throw new IssueError(err.message);
      }
      issueStep(() => this.mempool.add(tx));
      this.noteAdded();
      return { accepted: instant ? this.waitFor(tx) : undefined };
    });
    if (admitted.accepted) {
      void this.buildAll();
      await admitted.accepted;
    }
    return tx.id;
  }

  /**
   * wallet.issueTx (avalanchego's WalletService): no verification; a FIFO of pending txs of which only
   * the head sits in the mempool, the next one entering when the head is accepted. A head that is
   * dropped is never accepted, so the queue then stalls for good, as on the real node.
   */
  async issueTxUnverified(bytes: Uint8Array): Promise<Uint8Array> {
    const tx = issueStep(() => parseTx(bytes));
    const key = toHex(tx.id);
    await this.exclusive(async () => {
      if (this.walletQueue.has(key)) return;
      const head = this.walletQueue.size === 0;
      if (head) {
        if (!this.mempool.has(tx.id)) {
          issueStep(() => this.mempool.add(tx));
          this.unverified.add(key);
          this.noteAdded();
        }
      } else {
        // avalanchego's queue is unbounded; here it is held to the mempool's own limits.
        issueStep(() => this.walletQueueLimits.admit(tx));
      }
      this.walletQueue.set(key, { tx, counted: !head });
    });
    if (this.opts.blockIntervalMs === 0) void this.buildAll();
    return tx.id;
  }

  /** WalletService.decided: an accepted queued tx lets the next queued txs into the mempool. */
  private advanceWalletQueue(accepted: SignedTx): void {
    // The accepted tx may be any queued one (issued again through avm.issueTx), not only the head.
    if (!this.dequeueWallet(toHex(accepted.id))) return;
    for (const [key, entry] of this.walletQueue) {
      const next = entry.tx;
      // The oldest becomes the head: it sits in the mempool, no longer against the queue's limits.
      if (entry.counted) {
        this.walletQueueLimits.release(next);
        entry.counted = false;
      }
      try {
        if (!this.mempool.has(next.id)) {
          this.mempool.add(next);
          this.unverified.add(key);
          this.noteAdded();
        }
        return;
      } catch (err) {
        if (!(err instanceof MempoolError)) throw err;
        this.walletQueue.delete(key);
      }
    }
  }

  /** Removes a queued wallet tx, releasing what it held against the limits; false if it was not queued. */
  private dequeueWallet(key: string): boolean {
    const entry = this.walletQueue.get(key);
    if (!entry) return false;
    if (entry.counted) this.walletQueueLimits.release(entry.tx);
    return this.walletQueue.delete(key);
  }

  private waitFor(tx: SignedTx): Promise<void> {
    return new Promise((resolve, reject) => {
      const list = this.waiters.get(toHex(tx.id)) ?? [];
      list.push((err) => (err ? reject(err) : resolve()));
      this.waiters.set(toHex(tx.id), list);
    });
  }

  private settle(tx: SignedTx, err?: Error): void {
    const list = this.waiters.get(toHex(tx.id));
    this.waiters.delete(toHex(tx.id));
    for (const done of list ?? []) done(err);
  }

  /** Syntactic, then semantic verification against a prefetched view of the last accepted state. */
  private async verify(tx: SignedTx): Promise<void> {
    verifySyntax(tx, this.params);
    verifySemantics(tx, this.params, await this.snapshot(tx), this.now());
  }

  private async snapshot(tx: SignedTx): Promise<SemanticState> {
    const reads = requiredReads(tx);
    const utxos = new Map<string, UTXO>();
    const txs = new Map<string, SignedTx>();
    const atomic = new Map<string, UTXO>();
    await Promise.all([
      ...reads.utxos.map(async (id) => {
        const u = await this.state.getUTXO(id);
        if (u) utxos.set(toHex(id), u);
      }),
      ...reads.txs.map(async (id) => {
        const t = await this.state.getTx(id);
        if (t) txs.set(toHex(id), t);
      }),
      ...reads.atomic.map(async ({ chain, id }) => {
        const raw = await this.shared.get(this.params.chainID, chain, id);
        if (raw) atomic.set(toHex(chain) + toHex(id), parseUTXO(raw));
      }),
    ]);
    return {
      utxo: (id) => utxos.get(toHex(id)),
      tx: (id) => txs.get(toHex(id)),
      atomicUTXO: (chain, id) => atomic.get(toHex(chain) + toHex(id)),
    };
  }

  /** A tx entered the mempool: if it was empty, pending work starts waiting now. */
  private noteAdded(): void {
    if (this.mempool.size === 1 || this.pendingSince === undefined) this.pendingSince = this.clockMs();
  }

  /** Consensus as the health check sees it: a tx waiting for a block is a block being processed. */
  processing(): Processing {
    const since = this.mempool.size > 0 ? this.pendingSince : undefined;
    // With an interval, a tx waits for the next tick by design: only the time beyond it counts.
    const longestMs = since === undefined ? 0 : Math.max(0, this.clockMs() - since - this.opts.blockIntervalMs);
    return { txs: this.mempool.size, longestMs, lastError: this.lastBuildError };
  }

  /**
   * Builds and accepts blocks until the mempool is empty. A call while the builder runs makes it
   * look again before it stops, so no tx admitted meanwhile is left behind.
   */
  buildAll(): Promise<void> {
    this.buildRequested = true;
    this.building ??= this.runBuilder();
    return this.building;
  }

  private async runBuilder(): Promise<void> {
    // Yield first: `building` must hold this promise before the loop can end and clear it.
    await undefined;
    try {
      while (this.buildRequested && !this.closed) {
        this.buildRequested = false;
        while (this.mempool.size > 0 && !this.closed && !this.opts.stalled?.()) await this.exclusive(() => this.buildOne());
      }
      this.lastBuildError = undefined;
    } catch (err) {
      // The block's commit failed (a store error): nothing was written, its txs stay pending, and the
      // chain reports the failure until a later attempt succeeds.
      this.lastBuildError = err as Error;
      this.emit('buildFailed', err as Error);
      this.scheduleRetry();
    } finally {
      this.building = undefined;
    }
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.buildAll();
    }, BUILD_RETRY_MS);
    this.retryTimer.unref();
  }

  private async buildOne(): Promise<void> {
    const candidates = this.mempool.peekForBlock(TARGET_BLOCK_SIZE);
    const txs: SignedTx[] = [];
    for (const tx of candidates) {
      // Txs verified on admission stay valid: nothing that lands before them can spend their inputs
      // (the mempool refuses conflicts). Only wallet.issueTx txs are checked here, as the real builder does.
      if (!this.unverified.has(toHex(tx.id))) {
        txs.push(tx);
        continue;
      }
      try {
        await this.verify(tx);
        txs.push(tx);
      } catch (err) {
        if (!(err instanceof VerifyError)) throw err;
        this.unverified.delete(toHex(tx.id));
        this.mempool.remove([tx]);
        this.mempool.markDropped(tx.id, err.message);
        this.settle(tx, new IssueError(err.message));
      }
    }
    if (txs.length === 0) return;
    const parent = this.state.lastAccepted();
    const now = this.now();
    const block = buildBlock({ parentID: parent.id, height: parent.height + 1n, time: now > parent.time ? now : parent.time, txs });
    await this.accept(block);
  }

  private async accept(block: StandardBlock): Promise<void> {
    const created: UTXO[] = [];
    const spent: Uint8Array[] = [];
    const batch = new WriteBatch();
    const chainID = this.params.chainID;
    for (const [i, tx] of block.txs.entries()) {
      const inputs = txInputIDs(tx);
      spent.push(...inputs.spent);
      const outs = txOutputs(tx);
      created.push(...outs.utxos);
      if (tx.unsigned.type === 4 && outs.exported.length > 0) {
        const elements = outs.exported.map((u) => ({ utxoID: utxoInputID(u.utxoID), utxoBytes: marshalUTXO(u), traits: outputAddresses(u.output) }));
        // Ordered by block height, then position: later exports come first in the index.
        this.shared.put(batch, tx.unsigned.destinationChain, chainID, elements, (block.height << 20n) + (BigInt(i) << 8n));
      }
      if (tx.unsigned.type === 3) await this.shared.remove(batch, chainID, tx.unsigned.sourceChain, inputs.imported);
    }
    const announce = await this.opts.acceptance?.prepare(
      { id: block.id, parentID: block.parentID, height: block.height, timestamp: block.time, bytes: block.bytes, addresses: blockAddresses(block, block.txs) },
      batch,
    );
    await this.state.commit({ block, created, spent }, batch);
    // Only now do the txs leave the mempool: a failed commit leaves them pending for the next try.
    this.mempool.remove(block.txs);
    for (const tx of block.txs) this.unverified.delete(toHex(tx.id));
    this.lastBuildError = undefined;
    this.pendingSince = this.mempool.size > 0 ? this.clockMs() : undefined;
    announce?.();
    for (const tx of block.txs) {
      this.settle(tx);
      this.advanceWalletQueue(tx);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.building;
    for (const key of [...this.waiters.keys()]) {
      for (const done of this.waiters.get(key) ?? []) done(new IssueError('node is shutting down'));
    }
    this.waiters.clear();
  }
}

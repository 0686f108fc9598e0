// An EVM chain's block builder: the next block's time and fees, the pool's reset at the head's
// state, the txs picked by tip and run in order, an extension's content after them, and the block
// committed with its state, its records and the journal's cleanup in one batch.
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex, createAddressFromString, equalsBytes } from '@ethereumjs/util';
import { type RunTxResult, runTx, type VM } from '@ethereumjs/vm';
import { type Database, WriteBatch } from '../../storage/db.js';
import type { TxAdmission } from './admission.js';
import { ForkFailure } from './fork/state.js';
import type { BlockRules } from './blockrules.js';
import type { InternalRecording } from './recording.js';
import type { AcceptedEvmBlock, BlockExtension, EvmChainOptions, ExtensionContent } from './chaintypes.js';
import { type BlockFacts, sealBuilt } from './commit.js';
import type { DevControls } from './devcontrols.js';
import type { StateEdits } from './edits.js';
import { ConsoleSink } from './console/sink.js';
import { countedState, creditBaseFee, execBlock, paced, runAsBuilt, watchConsole } from './execution.js';
import { MAX_BLOCK_TIME } from './fees.js';
import type { EvmFlavor, NextFees } from './flavor.js';
import type { NodeStore } from './nodes.js';
import type { TxPool } from './pool.js';
import { effectiveTip, type PoolTx } from './pooltx.js';
import type { ChainRules } from './precompiles/rules.js';
import { type ChainStore, decodedTxs, type StoredBlock } from './store.js';
import { Pacer } from './trace/index.js';
import type { InternalTx } from './trace/internal.js';
import { WARP_ADDRESS_HEX } from './warp/precompile.js';
import { predicateResultsBytes } from './warp/predicate.js';
import { invalidBits, setRunningPredicates } from './warp/receive.js';

/** What the builder reads of its chain (the chain's public reads, live). */
export interface BuilderChain {
  readonly common: Common;
  readonly head: StoredBlock;
  readonly headRules: ChainRules;
  readonly pool: TxPool;
  readonly extension: BlockExtension | undefined;
  /** Where contracts' console.log lines are printed (--dev), if anywhere. */
  readonly consoleLog: EvmChainOptions['consoleLog'];
  stateRootOf(block: StoredBlock): Uint8Array;
}

/** The chain's parts the builder works with, and what it tells the chain. */
export interface BuilderParts {
  readonly opts: EvmChainOptions;
  readonly db: Database;
  readonly store: ChainStore;
  readonly nodes: NodeStore;
  /** The builder's VM, whose state is the head's (with its dev edits) between rounds. */
  readonly vm: VM;
  readonly rules: BlockRules;
  readonly dev: DevControls;
  readonly edits: StateEdits;
  readonly admission: TxAdmission;
  readonly recording: InternalRecording;
  /** Whether the chain builds blocks yet (not before start). */
  started(): boolean;
  /** The block is written: it is the head, and its state sets `rules` for the next. */
  adopt(block: StoredBlock, rules: ChainRules): void;
  /** Tells the chain's subscribers of an accepted block. */
  emitBlock(accepted: AcceptedEvmBlock): void;
  /** Another round in `delayMs`, or a while later. */
  scheduleRetry(delayMs?: number): void;
  buildNow(): Promise<void>;
}

/** The block under construction: what it is built on, and when. */
interface Plan {
  parent: StoredBlock;
  rules: ChainRules;
  number: bigint;
  time: bigint;
  timeMs: bigint;
  fees: NextFees;
  /** Whether evm_setBlockGasLimit's limit, not ACP-176's capacity, bounds the block's room. */
  roomByLimit: boolean;
  /** hardhat_setPrevRandao's value, for this block only. */
  prevRandao?: Uint8Array;
}

/**
 * The fees of a block with evm_setBlockGasLimit's `limit` (undefined: the rules'): its header's limit,
 * and the room its txs have, and whether that limit (not ACP-176's capacity) is what bounds the room.
 * A C-Chain block's room stays within ACP-176's capacity, and its limit within the most that capacity
 * reaches (the control refuses more, but a chain config's gas target can lower that most later); a
 * Subnet-EVM block's room is its limit.
 */
function withGasLimit(fees: NextFees, limit: bigint | undefined, flavor: EvmFlavor): { fees: NextFees; roomByLimit: boolean } {
  if (limit === undefined) return { fees, roomByLimit: false };
  if (flavor.layout !== 'coreth') return { fees: { ...fees, gasLimit: limit, room: limit }, roomByLimit: true };
  const gasLimit = limit < fees.gasLimit ? limit : fees.gasLimit;
  return { fees: { ...fees, gasLimit, room: gasLimit < fees.room ? gasLimit : fees.room }, roomByLimit: gasLimit < fees.room };
}

/** What a block's execution gathered. */
class BlockRun {
  readonly included: PoolTx[] = [];
  readonly results: RunTxResult[] = [];
  readonly dropped: PoolTx[] = [];
  readonly predicateResults = new Map<string, Map<string, Uint8Array>>();
  readonly internal: InternalTx[][] = [];
  /** The included txs that sent something to console.sol's address (--dev), printed once the block is written. */
  readonly console: Array<{ hash: Uint8Array; sink: ConsoleSink }> = [];
  gasUsed = 0n;
  content: ExtensionContent | undefined;
}

export class BlockBuilder {
  /** When the oldest runnable tx arrived and is still waiting, for the health check. */
  private since: number | undefined;
  /**
   * --dev: when the next block built for txs is made, at the earliest (in ms): a tx or atomic tx
   * found the capacity short, and this is when it will have refilled enough.
   */
  private capacityAt: bigint | undefined;

  constructor(
    private readonly chain: BuilderChain,
    private readonly parts: BuilderParts,
  ) {}

  /** Whether anything waits for a block: a pool tx or the extension's. */
  get hasWork(): boolean {
    return this.chain.pool.size > 0 || (this.chain.extension?.hasPending() ?? false) || this.parts.dev.blocksToMine > 0;
  }

  /** Whether a block is owed now (what the health check times): queued txs wait for their gaps, not for a block. */
  private get hasRunnable(): boolean {
    return this.chain.pool.stats().pending > 0 || (this.chain.extension?.hasPending() ?? false) || this.parts.dev.blocksToMine > 0;
  }

  /** When the oldest runnable tx arrived and is still waiting, for the health check. */
  get waitingSince(): number | undefined {
    return this.since;
  }

  /** Something runnable arrived: a block is owed from now, unless one already was. */
  owed(): void {
    this.since ??= Date.now();
  }

  /**
   * Nothing is owed (the chain reloaded): nor the time a tx of the undone timeline needed for its
   * capacity (a tx the pool takes back asks again at the next round).
   */
  clearWaiting(): void {
    this.since = undefined;
    this.capacityAt = undefined;
  }

  /**
   * The next block's time and fees. Without --dev, the clock's time (nextBlockMillis); if ACP-176's
   * capacity is below coreth's build floor then, the block waits (`waitMs`). With --dev the block is
   * built now, time-travelling: its time is the latest of the clock's, the time a tx left over by
   * the last block needs (capacityAt), and the time the capacity is back to the floor, so the header
   * carries the fee state coreth computes for that time. evm_setNextBlockTimestamp's time is kept as
   * given: the floor (the builder's rule, not a validity rule) is then waived, and the txs that do not
   * fit wait for the next block.
   */
  private blockTime(parent: StoredBlock, rules: ChainRules): { timeMs: bigint; fees: NextFees } {
    const { flavor } = this.parts.opts;
    let timeMs = this.parts.dev.nextBlockMillis();
    let fees = flavor.nextFees(parent.header, timeMs, rules);
    if (!this.parts.opts.dev) return { timeMs, fees };
    if (this.parts.dev.nextTimestamp !== undefined) return { timeMs, fees: { ...fees, waitMs: 0 } };
    const cap = MAX_BLOCK_TIME * 1000n;
    if (this.capacityAt !== undefined && this.capacityAt > timeMs && this.capacityAt <= cap) {
      timeMs = this.capacityAt;
      fees = flavor.nextFees(parent.header, timeMs, rules);
    }
    // refillMs rounds up at the per-second rate: one step is enough, a few more cover rounding.
    for (let i = 0; i < 4 && fees.waitMs > 0 && timeMs + BigInt(fees.waitMs) <= cap; i++) {
      timeMs += BigInt(fees.waitMs);
      fees = flavor.nextFees(parent.header, timeMs, rules);
    }
    return { timeMs, fees };
  }

  /**
   * A tx needing `needed` gas in all found the block's capacity `short` of it: without --dev, another
   * round once it has refilled; with --dev, another round at once, whose block is made late enough
   * for it (blockTime). A tx no block can hold at this gas limit waits as without --dev.
   */
  private awaitCapacity(fees: NextFees, timeMs: bigint, needed: bigint, short: bigint): void {
    const ms = fees.refillMs(short);
    if (!this.parts.opts.dev || needed > fees.gasLimit) {
      this.parts.scheduleRetry(ms);
      return;
    }
    const at = timeMs + BigInt(ms);
    if (this.capacityAt === undefined || at > this.capacityAt) this.capacityAt = at;
    void this.parts.buildNow();
  }

  /** Builds, executes and commits one block from the runnable txs; nothing if none can run (or production is stalled). */
  async build(): Promise<void> {
    if (!this.due()) return;
    const plan = this.plan();
    if (!plan) return;
    const sm = countedState(this.parts.vm);
    const run = await this.execute(plan, sm);
    // From here the builder's state holds the block's effects: a block not written leaves them behind.
    try {
      // Those still in the pool could not run here: they leave it (a pending one's successors wait in the queue).
      for (const p of run.dropped) this.chain.pool.remove(p);
      await this.parts.admission.forgetAll(run.dropped);
    } catch (err) {
      await this.backToHead(sm);
      throw err;
    }
    if (run.included.length === 0 && !run.content && this.parts.dev.blocksToMine === 0) {
      if (!this.hasRunnable) this.since = undefined;
      // No block: what the round applied all the same (a state upgrade whose time came) waits for the next one.
      if (!equalsBytes(await sm.getStateRoot(), this.chain.stateRootOf(this.chain.head))) await this.backToHead(sm);
      return;
    }
    const superseded = await this.commit(plan, run, sm);
    for (const { hash, sink } of run.console) this.chain.consoleLog?.(sink.lines(), { tx: bytesToHex(hash) });
    // After the block's write: a failure here is the journal's, and a restart drops a stale entry anyway (nonce too low).
    await this.parts.admission.forgetAll(superseded);
  }

  /** The builder's state back at the head's (with its edits), after a block it holds was not written. */
  private backToHead(sm: ReturnType<typeof countedState>): Promise<void> {
    return sm.tryResetTo(this.chain.stateRootOf(this.chain.head));
  }

  /** Whether a round builds now: started, not stalled, mining, with something waiting. */
  private due(): boolean {
    if (!this.parts.started() || this.parts.opts.stalled?.()) return false;
    // With automine off, only a requested block (evm_mine, the interval) is built.
    if (!this.parts.dev.automine && this.parts.dev.blocksToMine === 0) return false;
    if (!this.hasWork) {
      this.since = undefined;
      return false;
    }
    return true;
  }

  /** The next block's place, time and fees; undefined (and a later round) while its fees wait for capacity. */
  private plan(): Plan | undefined {
    const parent = this.chain.head;
    const rules = this.chain.headRules;
    const { timeMs, fees: computed } = this.blockTime(parent, rules);
    // anvil_setNextBlockBaseFeePerGas: this block's base fee only; the header's fee state is the rules' own.
    const nextBaseFee = this.parts.dev.nextBaseFee;
    const { fees, roomByLimit } = withGasLimit(
      nextBaseFee === undefined ? computed : { ...computed, baseFee: nextBaseFee },
      this.parts.dev.blockGasLimit,
      this.parts.opts.flavor,
    );
    if (fees.waitMs > 0) {
      this.parts.scheduleRetry(fees.waitMs);
      return undefined;
    }
    const prevRandao = this.parts.dev.nextPrevRandao;
    return { parent, rules, number: parent.header.number + 1n, time: timeMs / 1000n, timeMs, fees, roomByLimit, ...(prevRandao ? { prevRandao } : {}) };
  }

  /** Runs the block on the builder's state: upgrades, the pool's txs, the extension's; all or nothing. */
  private async execute(plan: Plan, sm: ReturnType<typeof countedState>): Promise<BlockRun> {
    const { fees } = plan;
    const exec = execBlock(this.chain.common, {
      number: plan.number,
      time: plan.time,
      gasLimit: fees.gasLimit,
      baseFee: fees.baseFee,
      difficulty: 1n,
      coinbase: this.parts.dev.coinbase(plan.rules.coinbase),
      ...(plan.prevRandao ? { prevRandao: plan.prevRandao } : {}),
    });
    const run = new BlockRun();
    const base = sm.depth;
    sm.checkpoint();
    try {
      await this.parts.rules.applyUpgrades(sm, plan.parent.header.time, plan.time, plan.number);
      const queues = await this.resetPool(sm, run.dropped);
      await this.runQueues(plan, exec, queues, sm, run);
      // coreth's atomic txs come after the EVM txs, in what capacity they left.
      run.content = await this.chain.extension?.assemble({ sm, baseFee: fees.baseFee, room: fees.room - run.gasUsed }, (gas) =>
        gas === undefined ? this.parts.scheduleRetry() : this.awaitCapacity(fees, plan.timeMs, fees.room - run.gasUsed + gas, gas),
      );
      await sm.commit();
    } catch (err) {
      run.content?.abandoned();
      // What the pool's reset took out has left the pool: it leaves the journal too, as after a
      // block (the journal holds what the pool holds: a revert relies on it, admission.ts reload).
      await this.parts.admission.forgetAll(run.dropped).catch(() => undefined);
      // Reverted while its checkpoint is open; after a failure in the flush that closes it (sm.commit),
      // the builder's state goes back to the head's. (The nodes such a flush made are named by their
      // hashes and reachable from no root the chain keeps.) The error thrown is the block's.
      await sm.undoFailedWrite(base, this.chain.stateRootOf(this.chain.head));
      throw err;
    }
    return run;
  }

  /**
   * The pool's reorg at this state (geth's reset): stale txs go, queued ones that can run are
   * promoted, the caps apply, idle senders' queued txs expire. Each sender's runnable txs in nonce order.
   */
  private async resetPool(sm: MerkleStateManager, dropped: PoolTx[]): Promise<PoolTx[][]> {
    const pool = this.chain.pool;
    dropped.push(...pool.expire());
    const senders: Array<{ from: string; nonce: bigint }> = [];
    for (const from of pool.senders()) {
      const nonce = (await sm.getAccount(createAddressFromString(from)))?.nonce ?? 0n;
      dropped.push(...pool.reset(from, nonce));
      senders.push({ from, nonce });
    }
    dropped.push(...pool.truncate());
    const queues: PoolTx[][] = [];
    for (const { from, nonce } of senders) {
      const ready = pool.executable(from, nonce);
      if (ready.length > 0) queues.push(ready);
    }
    return queues;
  }

  /**
   * Runs the senders' queues: across senders the best tip first (geth's TransactionsByPriceAndNonce),
   * ties by arrival; a sender whose next tx cannot go in leaves the block.
   */
  private async runQueues(
    plan: Plan,
    exec: ReturnType<typeof execBlock>,
    queues: PoolTx[][],
    sm: ReturnType<typeof countedState>,
    run: BlockRun,
  ): Promise<void> {
    const { fees } = plan;
    const pacer = new Pacer();
    const tip = (p: PoolTx) => effectiveTip(p, fees.baseFee);
    while (queues.length > 0) {
      let best = 0;
      for (let i = 1; i < queues.length; i++) {
        const a = queues[i]![0]!;
        const b = queues[best]![0]!;
        if (tip(a) > tip(b) || (tip(a) === tip(b) && a.seq < b.seq)) best = i;
      }
      const p = queues[best]![0]!;
      // A fee cap below the base fee waits for the fee to fall; so do the sender's later txs.
      if (p.feeCap < fees.baseFee) {
        this.parts.scheduleRetry();
        queues.splice(best, 1);
        continue;
      }
      // Over a limit evm_setBlockGasLimit lowered since it came: geth's pool drops it at its reset (its successors wait).
      const limit = this.parts.dev.blockGasLimit;
      if (limit !== undefined && p.tx.gasLimit > limit) {
        run.dropped.push(p);
        queues.splice(best, 1);
        continue;
      }
      if (p.tx.gasLimit > fees.room - run.gasUsed) {
        // The block is full: the rest go in the next one (under ACP-176, once capacity is back; at
        // once when evm_setBlockGasLimit's limit filled it, the capacity being there).
        if (plan.roomByLimit) void this.parts.buildNow();
        else this.awaitCapacity(fees, plan.timeMs, p.tx.gasLimit, p.tx.gasLimit - (fees.room - run.gasUsed));
        queues.splice(best, 1);
        continue;
      }
      if (!(await this.runOne(plan, p, exec, sm, pacer, run))) {
        run.dropped.push(p);
        queues.splice(best, 1);
        continue;
      }
      queues[best]!.shift();
      if (queues[best]!.length === 0) queues.splice(best, 1);
    }
  }

  /** Runs one tx in the block; false if it cannot run at this state (it is dropped). */
  private async runOne(
    plan: Plan,
    p: PoolTx,
    exec: ReturnType<typeof execBlock>,
    sm: ReturnType<typeof countedState>,
    pacer: Pacer,
    run: BlockRun,
  ): Promise<boolean> {
    const { vm, rules, recording } = this.parts;
    const depth = sm.depth;
    // The tx allow list again, at this block's state: a sender removed since admission is dropped.
    if (rules.hasTxAllowList && !(await rules.txAllowed(sm, plan.time, createAddressFromString(p.fromHex)))) return false;
    // Warp predicates are verified before the tx runs; the failures go in the header.
    const predicates = rules.verifiedPredicates(p.tx);
    if (predicates) setRunningPredicates(vm.evm, predicates);
    let result: RunTxResult;
    const sink = this.chain.consoleLog ? new ConsoleSink() : undefined;
    const unwatch = sink && watchConsole(vm, sink);
    try {
      recording.txStarts();
      // Sliced, never aborted: a long tx does not hold the node's other requests while its block is built.
      const runIt = () =>
        paced(vm, pacer, () =>
          runTx(vm, { tx: p.tx, block: exec, blockGasUsed: run.gasUsed, skipHardForkValidation: true, skipBlockGasLimitValidation: true }),
        );
      // An impersonated account may hold code (a multisig, a token's owner contract): its tx runs,
      // as Anvil turns EIP-3607 off to impersonate. A signed tx's sender still must have none.
      result = await runAsBuilt(vm, p.tx, runIt);
    } catch (err) {
      // No longer valid against this state (its funds went elsewhere): geth drops it. What it
      // changed goes, whatever checkpoints the throw left open. A fork's upstream that failed to
      // answer says nothing of the tx: the build fails and is tried again, the tx kept.
      await sm.unwindTo(depth);
      if (err instanceof ForkFailure) throw err;
      return false;
    } finally {
      setRunningPredicates(vm.evm, undefined);
      unwatch?.();
    }
    if (sink?.any) run.console.push({ hash: p.hash, sink });
    if (predicates) run.predicateResults.set(bytesToHex(p.hash).slice(2), new Map([[WARP_ADDRESS_HEX, invalidBits(predicates.invalid)]]));
    await creditBaseFee(vm, result.totalGasSpent, plan.fees.baseFee, this.parts.dev.coinbase(plan.rules.coinbase));
    run.gasUsed += result.totalGasSpent;
    run.included.push(p);
    run.results.push(result);
    if (recording.recording) run.internal.push(recording.txInternal());
    return true;
  }

  /** Commits the executed block; on a failure nothing was written and the builder's state is the head's again. */
  private async commit(plan: Plan, run: BlockRun, sm: ReturnType<typeof countedState>): Promise<PoolTx[]> {
    try {
      const facts: BlockFacts = {
        number: plan.number,
        time: plan.time,
        timeMs: plan.timeMs,
        fees: plan.fees,
        coinbase: this.parts.dev.coinbase(plan.rules.coinbase),
        stateRoot: await sm.getStateRoot(),
        gasUsed: run.gasUsed,
        predicateResults: predicateResultsBytes(run.predicateResults),
        content: run.content,
        ...(plan.prevRandao ? { prevRandao: plan.prevRandao } : {}),
      };
      const internal = this.parts.recording.recording ? run.internal : undefined;
      const { superseded } = await this.write(plan.parent, facts, run.included, run.results, internal);
      if (this.capacityAt !== undefined && this.capacityAt <= plan.timeMs) this.capacityAt = undefined;
      this.parts.dev.blockBuilt();
      return superseded;
    } catch (err) {
      // Nothing was written: the builder's state goes back to the head's (with its edits), the txs stay pending.
      run.content?.abandoned();
      this.parts.nodes.unflushed();
      await this.backToHead(sm);
      throw err;
    }
  }

  /** Writes the block in one batch, makes it the head and announces it: its records, and the txs it superseded. */
  private async write(
    parent: StoredBlock,
    b: BlockFacts,
    included: PoolTx[],
    results: RunTxResult[],
    internal: InternalTx[][] | undefined,
  ): Promise<{ records: ReturnType<typeof sealBuilt>['records']; superseded: PoolTx[] }> {
    const { opts, nodes, store, admission, edits, rules, db } = this.parts;
    const { block, bytes, records } = sealBuilt(opts.flavor, parent, b, included, results);
    const batch = new WriteBatch();
    const settled = nodes.flushInto(batch);
    store.put(
      batch,
      block,
      bytes,
      records,
      included.map((p) => p.hash),
    );
    admission.unjournal(batch, included);
    // The block's state root includes the edits made on its parent; replaying it (a trace) starts there.
    edits.carryInto(batch, block);
    await b.content?.write(batch, block);
    const announce = await opts.acceptance?.prepare({ id: block.hash, parentID: parent.hash, height: b.number, timestamp: b.time, bytes }, batch);
    const nextRules = await rules.after(this.parts.vm.stateManager as MerkleStateManager, b.time);
    await db.write(batch);
    settled();
    this.parts.adopt(block, nextRules);
    store.remember(block, records);
    decodedTxs.set(
      block,
      included.map((p) => p.tx),
    );
    // A same-nonce replacement that arrived while the block was built leaves with the included tx.
    const inBlock = new Set(included);
    const superseded = included.flatMap((p) => this.chain.pool.included(p)).filter((p) => !inBlock.has(p));
    b.content?.accepted();
    this.since = this.hasRunnable ? Date.now() : undefined;
    announce?.();
    this.parts.emitBlock({ block, txs: included.map((p) => p.tx), records, ...(internal ? { internal } : {}) });
    return { records, superseded };
  }
}

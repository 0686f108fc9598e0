// One EVM chain: its accepted history (store), its state (tries in the chain's database), its tx
// pool, and the builder that makes a block as soon as txs can run. The C-Chain and every
// Subnet-EVM chain are instances with their own genesis, rules and database. Reads of any past
// state run on reader VMs (readers.ts), never on the builder's state.
//
// The chain holds the head, the reads and the lifecycle (open, start, hold and reload, close); its
// parts do the rest: chaininit.ts (the first blocks, at open), admission.ts (the pool and its
// journal), builder.ts with rounds.ts and commit.ts (the blocks), devcontrols.ts and edits.ts
// (--dev), recording.ts (internal txs, for followers that ask).
import { EventEmitter } from 'node:events';
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import { type Account, Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { Changes } from '../../chains/states.js';
import type { Database } from '../../storage/db.js';
import { type Admitted, TxAdmission } from './admission.js';
import { BlockRules } from './blockrules.js';
import { BlockBuilder } from './builder.js';
import { InternalRecording } from './recording.js';
import type { AcceptedEvmBlock, BlockExtension, EvmChainOptions } from './chaintypes.js';
import { initialBlocks } from './chaininit.js';
import { DevControls } from './devcontrols.js';
import { StateEdits } from './edits.js';
import { countedState, execVM, stateAt } from './execution.js';
import type { EvmFlavor, NextFees } from './flavor.js';
import { NodeStore } from './nodes.js';
import { Preimages } from './preimages.js';
import type { TxPool } from './pool.js';
import type { ChainRules } from './precompiles/rules.js';
import { chainCommon } from './rules.js';
import { Readers, READERS } from './readers.js';
import { Rounds } from './rounds.js';
import { recordRewritten } from './fork/open.js';
import { TrieMemo } from './state.js';
import { ChainStore, type StoredBlock } from './store.js';
import type { RunningPredicates, TxPredicates } from './warp/receive.js';

interface Events {
  block: [AcceptedEvmBlock];
  pendingTx: [Uint8Array];
  buildFailed: [Error];
}

export class EvmChain extends EventEmitter<Events> {
  readonly store: ChainStore;
  readonly nodes: NodeStore;
  /** The dev controls (--dev): what evm_*, anvil_* and hardhat_* set. */
  readonly dev: DevControls;
  private readonly rules: BlockRules;
  private readonly edits: StateEdits;
  private readonly admission: TxAdmission;
  private readonly rounds: Rounds;
  private readonly recording = new InternalRecording();
  private blocks!: BlockBuilder;
  private builder!: VM;
  private readers!: Readers;
  private current!: StoredBlock;
  private genesisBlock!: StoredBlock;
  private currentRules!: ChainRules;
  /** Whether the chain builds blocks yet: not before start(). */
  private started = false;
  private closed = false;
  private buildError: Error | undefined;
  private ext: BlockExtension | undefined;

  private constructor(
    private readonly db: Database,
    readonly common: Common,
    readonly chainId: bigint,
    private readonly opts: EvmChainOptions,
  ) {
    super();
    this.store = new ChainStore(db, opts.flavor.layout);
    this.nodes = new NodeStore(db.prefix('nodes'));
    this.store.history = opts.fork?.history;
    this.nodes.fork = opts.fork?.state;
    this.nodes.preimages = opts.preimages ? new Preimages(db.prefix('preimages')) : undefined;
    this.rules = new BlockRules(opts, () => this.head.header.time);
    const forkBase = opts.fork?.editedRoot ? { hash: opts.fork.hash, root: opts.fork.editedRoot } : undefined;
    this.edits = new StateEdits(db, db.prefix('dev-state'), this.nodes, this.rules, forkBase);
    this.dev = new DevControls(opts.clock, this, opts.upgradesFrom);
    this.admission = new TxAdmission(db, opts.clock, this.rules, this, {
      ...(opts.unprotected ? { unprotected: opts.unprotected } : {}),
      poolBaseFee: () => this.poolBaseFee(),
      runnable: () => this.blocks.owed(),
    });
    const chain = this;
    this.rounds = new Rounds({
      get closed() {
        return chain.closed;
      },
      get held() {
        return chain.held;
      },
      get hasWork() {
        return chain.blocks.hasWork;
      },
      round: () => this.round(),
      expireQueued: () => this.admission.expireQueued(),
    });
  }

  static async open(db: Database, opts: EvmChainOptions): Promise<EvmChain> {
    const chainId = opts.fork?.chainId ?? BigInt(opts.genesis.config.chainId ?? 0);
    const chain = new EvmChain(db, chainCommon(chainId), chainId, opts);
    // Before init's pool reload: a limit evm_setBlockGasLimit raised admits the txs it admitted before.
    if (opts.devSettings) chain.dev.apply(opts.devSettings);
    try {
      await chain.init();
    } catch (err) {
      chain.dev.close();
      throw err;
    }
    // A fork's block time goes on from its head's, as Anvil's starts at the fork block's timestamp
    // (its TimeManager, at start and at anvil_reset): the next block is not months after its parent,
    // and time-bound contracts (oracles' staleness, deadlines) read the fork's time, not today's.
    // A restart goes on from the last local block; settings carried over (a load) keep theirs, no
    // earlier than the head's. After a revert that rebuilt the node, every chain's clock is set as an
    // in-place revert sets it.
    if (opts.fork && !opts.devSettings) chain.dev.startClockAt(chain.head.header.time);
    else if (opts.devSettings?.clockFromHead) chain.dev.reverted();
    else if (opts.devSettings) chain.dev.notBehindHead();
    return chain;
  }

  get flavor(): EvmFlavor {
    return this.opts.flavor;
  }

  /** With --dev (unless --disable-console-log): whether runs take what they send to console.sol's address, printed or not. */
  get takesConsole(): boolean {
    return this.opts.consoleLog !== undefined;
  }

  /** With --dev: where what runs send to console.sol's address is printed (undefined: nowhere, or anvil_setLoggingEnabled(false)). */
  get consoleLog(): EvmChainOptions['consoleLog'] {
    return this.dev.loggingEnabled ? this.opts.consoleLog : undefined;
  }

  /** A fork's fork block (the upstream's last): the chain's own blocks begin after it. */
  get forkedAt(): bigint | undefined {
    return this.opts.fork?.number;
  }

  /** The last accepted block. */
  get head(): StoredBlock {
    return this.current;
  }

  /** The chain's first block (a fork's: the upstream's). */
  get genesis(): StoredBlock {
    return this.genesisBlock;
  }

  /** What the head's state sets for the next block: its fee config and coinbase. */
  get headRules(): ChainRules {
    return this.currentRules;
  }

  /** Whether the warp precompile is on at the head: ICM's messenger works only then. */
  get warpActive(): boolean {
    return this.rules.warpActive;
  }

  /** A warp message signed by the validators this chain checks delivered ones against (a relayer's signing); undefined where warp is off. */
  signForDelivery(unsigned: Uint8Array): Uint8Array | undefined {
    return this.rules.signForDelivery(unsigned);
  }

  /** The tx pool: replaced, not emptied, when the chain reloads (a revert). */
  get pool(): TxPool {
    return this.admission.pool;
  }

  /** Why the last round failed, until a round succeeds (for the health check). */
  get lastBuildError(): Error | undefined {
    return this.buildError;
  }

  /** What the VM adds to the chain's blocks besides EVM txs (coreth's atomic txs), if anything. */
  get extension(): BlockExtension | undefined {
    return this.ext;
  }

  /** coreth's atomic txs: set by the VM once the chain is open, before it starts. */
  setExtension(extension: BlockExtension): void {
    this.ext = extension;
  }

  /**
   * The unsigned warp message with this ID that the node will sign: one the chain config lists
   * (warp-off-chain-messages), else one an accepted tx sent (warp/backend.go GetMessage).
   */
  async warpMessage(id: Uint8Array): Promise<Uint8Array | undefined> {
    return this.opts.offChainWarpMessages?.get(Buffer.from(id).toString('hex')) ?? (await this.store.warpMessage(id));
  }

  /** When the oldest runnable tx arrived and is still waiting, for the health check. */
  get waitingSince(): number | undefined {
    return this.blocks.waitingSince;
  }

  /**
   * A tx's warp predicates, when the warp precompile is on at the head: parsed once (a malformed one
   * is refused as subnet-evm's intrinsic gas refuses it), with their intrinsic gas set on the tx.
   */
  readWarpPredicates(tx: TypedTransaction): TxPredicates | undefined {
    return this.rules.readWarpPredicates(tx);
  }

  /** What a re-executed tx (a trace) sees of its warp predicates: verified as when its block was built. */
  predicatesForReplay(tx: TypedTransaction): RunningPredicates | undefined {
    return this.rules.predicatesForReplay(tx);
  }

  /** Whether calls on blocks `a` and `b` run with the same rules: the VM's are the chain's, its stateful precompiles' go by time. */
  sameCallRules(a: StoredBlock, b: StoredBlock): boolean {
    return this.rules.samePrecompiles(a.header.time, b.header.time);
  }

  /** What the state after `block` sets for its child: the fee config and the coinbase. */
  rulesAt(block: StoredBlock): Promise<ChainRules> {
    const time = block.header.time;
    // Rules that read no state need no reader: at a revert's reload one would first move to the
    // head's state (about a tenth of a millisecond of the revert).
    if (!this.rules.afterReadsState(time)) return this.rules.after(undefined, time);
    return this.withState(this.stateRootOf(block), (vm) => this.rules.after(vm.stateManager as MerkleStateManager, time));
  }

  /** A VM with this chain's rules and precompiles over a state (the builder's, a reader's, a trace's). */
  newVM(sm: MerkleStateManager): Promise<VM> {
    return execVM(this.common, sm, (n) => this.store.hashAt(n), {
      custom: this.opts.flavor.customPrecompiles,
      stateful: this.opts.precompiles,
      ...(this.opts.warp ? { warp: this.opts.warp } : {}),
    });
  }

  private async init(): Promise<void> {
    const multiCoin = this.opts.flavor.multiCoin;
    const { head, genesis } = await initialBlocks({
      db: this.db,
      store: this.store,
      nodes: this.nodes,
      common: this.common,
      opts: this.opts,
      edits: this.edits,
    });
    this.current = head;
    this.genesisBlock = genesis;
    await this.edits.load(this.head);
    const root = this.stateRootOf(this.head);
    const memo = new TrieMemo(20_000);
    this.builder = await this.newVM(stateAt(this.nodes, this.common, root, multiCoin, { cacheEntries: 50_000, memo, preimages: this.nodes.preimages }));
    // A reader's caches are emptied at each new head: small, so emptying them is cheap.
    const reader = () => this.newVM(stateAt(this.nodes, this.common, root, multiCoin, { cacheEntries: 2_000, memo, reader: true }));
    this.readers = new Readers(await reader(), root, reader, this.db.kind === 'leveldb' || this.nodes.fork ? READERS : 1);
    this.currentRules = await this.rulesAt(this.head);
    this.blocks = this.newBuilder();
    await this.admission.reload();
    // In the background: a fork's reads find what earlier runs fetched in memory (nodes.ts).
    if (this.nodes.fork) void this.nodes.warmFromFork();
  }

  /** The builder, over the builder VM: it reads the chain's head, rules and pool, and tells it of its blocks. */
  private newBuilder(): BlockBuilder {
    return new BlockBuilder(this, {
      opts: this.opts,
      db: this.db,
      store: this.store,
      nodes: this.nodes,
      vm: this.builder,
      rules: this.rules,
      dev: this.dev,
      edits: this.edits,
      admission: this.admission,
      recording: this.recording,
      started: () => this.started,
      adopt: (block, rules) => {
        this.current = block;
        this.edits.committed();
        this.currentRules = rules;
      },
      emitBlock: (accepted) => this.emit('block', accepted),
      scheduleRetry: (delayMs) => this.rounds.scheduleRetry(delayMs),
      buildNow: () => this.buildNow(),
    });
  }

  /**
   * Block production begins (avalanchego's SetState(NormalOp)): called once the chain manager has
   * registered the chain with everything that follows its blocks (the indexer, the Data API), so
   * that the block the replayed journal makes at start-up reaches them too.
   */
  start(): void {
    this.started = true;
    if (this.blocks.hasWork) void this.buildNow();
  }

  /** Runs `fn` on a reader VM at state `root`, alone on it; what it writes is undone after. */
  withState<T>(root: Uint8Array, fn: (vm: VM) => Promise<T>): Promise<T> {
    return this.readers.run(root, fn);
  }

  async account(address: Uint8Array, root: Uint8Array = this.stateRootOf(this.head)): Promise<Account | undefined> {
    return this.withState(root, (vm) => vm.stateManager.getAccount(new Address(address)));
  }

  /** The code at `address` in the state at `root` (none: empty). */
  async code(address: Uint8Array, root: Uint8Array = this.stateRootOf(this.head)): Promise<Uint8Array> {
    return this.withState(root, (vm) => vm.stateManager.getCode(new Address(address)));
  }

  /**
   * Follows the blocks this chain accepts, each with its txs as they ran and their records; with
   * `internalTxs`, also each tx's internal transactions, recorded by the builder from now on (a
   * block built before has none: a follower that needs them runs its txs again). Returns what stops it.
   */
  followBlocks(listener: (accepted: AcceptedEvmBlock) => void, opts: { internalTxs?: boolean } = {}): () => void {
    if (opts.internalTxs) this.recording.record(this.builder);
    this.on('block', listener);
    return () => this.off('block', listener);
  }

  /**
   * eth_sendRawTransaction: admits the tx and answers, as coreth answers once its pool holds a tx.
   * The tx is durable by then (in the journal: kill -9 loses no tx whose hash went back). With
   * automine the block round starts at once; reads wait for it (`settled`), so a client that reads
   * after a send finds the tx mined, while sends that follow one another share blocks.
   */
  sendRawTransaction(bytes: Uint8Array, sender?: Address): Promise<Uint8Array> {
    return this.submit(() => this.admission.send(bytes, sender));
  }

  /** eth_sendTransaction's tx, signed here with the key of `from`: admitted as it is (Admission.sendSigned). */
  sendSigned(tx: TypedTransaction, from: Address): Promise<Uint8Array> {
    return this.submit(() => this.admission.sendSigned(tx, from));
  }

  private async submit(admit: () => Promise<Admitted>): Promise<Uint8Array> {
    while (this.held) await this.held;
    if (this.closed) throw new Error('the chain was closed (the node was reverted, loaded or reset)');
    this.admitting++;
    try {
      const { hash, promoted } = await admit();
      // As geth's pool announces txs: once they are pending (a queued tx when its gap is filled).
      for (const p of promoted) this.emit('pendingTx', p.hash);
      // Automine off (evm_setAutomine false, interval mining): the tx waits for the next mined block.
      if (this.dev.automine) this.rounds.buildSoon();
      return hash;
    } finally {
      this.admitting--;
    }
  }

  /**
   * Undefined when no block round is requested or running; else resolves once every round requested
   * so far has finished (built its block, or found nothing it could build). What reads wait for.
   */
  settled(): Promise<void> | undefined {
    return this.rounds.settled();
  }

  /** The gas limit a tx is held to now: evm_setBlockGasLimit's, else the head's (geth's pool checks the head's). */
  get gasLimit(): bigint {
    return this.dev.blockGasLimit ?? this.head.header.gasLimit;
  }

  /** The gas limit the chain's rules give the next block (ACP-176's capacity, Subnet-EVM's fee config), whatever evm_setBlockGasLimit set. */
  rulesGasLimit(): bigint {
    return this.rulesFees().gasLimit;
  }

  /** The base fee the pool orders its cheapest txs by: the next block's, as coreth's pool estimates it. */
  private poolBaseFee(): bigint {
    return this.dev.nextBaseFee ?? this.rulesFees().baseFee;
  }

  /** The next block's fees as the chain's rules set them, at the time it would be made now. */
  private rulesFees(): NextFees {
    return this.opts.flavor.nextFees(this.head.header, this.dev.nextBlockMillis(), this.headRules);
  }

  /**
   * The state root reads of `block` use: for the head, its state with the dev edits made since (what
   * Anvil's and Hardhat's `latest` and `pending` see), else the header's.
   */
  stateRootOf(block: StoredBlock): Uint8Array {
    return this.edits.rootOf(block, this.head);
  }

  /**
   * anvil_setBalance, setNonce, setCode, setStorageAt: the edit changes the head's state without a
   * block, as in Anvil and Hardhat (the block number stays; the next block's state root includes
   * it). It is applied in the build loop, so never during a block's execution, and written durably
   * before this resolves: the edit's trie nodes and the edited root, for this head, in one batch.
   */
  editState(edit: (sm: MerkleStateManager) => Promise<void>): Promise<void> {
    const done = this.edits.request(edit);
    void this.buildNow();
    return done;
  }

  /** The state `block` was built on: its parent's, with the dev edits made on the parent since. */
  builtOn(block: StoredBlock, parent: StoredBlock): Promise<Uint8Array> {
    return this.edits.builtOn(block, parent);
  }

  /** anvil_dropTransaction: takes a pending tx out of the pool (and its journal); false if it is not there. */
  dropTransaction(hash: Uint8Array): Promise<boolean> {
    return this.admission.drop(hash);
  }

  /** anvil_dropAllTransactions */
  dropAllTransactions(): Promise<void> {
    return this.admission.dropAll();
  }

  /** Block production resumed after a stall: build what waits. */
  resumeBuilding(): void {
    if (this.blocks.hasWork) void this.buildNow();
  }

  /** The extension has something new to build: it waits from now (for the health check) until a round takes it. */
  extensionPending(): Promise<void> {
    this.blocks.owed();
    return this.buildNow();
  }

  /** Resolves once a build round that started after this call has finished. */
  buildNow(): Promise<void> {
    return this.rounds.buildNow();
  }

  /** One round: the waiting state edits, then a block; a failure is reported and retried, not thrown. */
  private async round(): Promise<void> {
    try {
      // A failed block or edit whose state could not go back to the head's: it goes back first.
      const sm = countedState(this.builder);
      if (sm.stale) await sm.resetTo(this.stateRootOf(this.head));
      const rules = await this.edits.applyWaiting(this.builder, this.head);
      // An edit of a precompile's storage (the fee manager's config, the reward address) governs the next block.
      if (rules) this.currentRules = rules;
      await this.blocks.build();
      this.buildError = undefined;
    } catch (err) {
      this.buildError = err as Error;
      this.emit('buildFailed', err as Error);
      this.rounds.scheduleRetry();
    }
  }

  // --- Going back to a snapshot (evm_revert) ---------------------------------------------------

  /** While the node goes back to a snapshot: what rounds and sends wait for. */
  private held: Promise<void> | undefined;
  /** Sends being admitted. */
  private admitting = 0;
  /** Lets the latest hold go (what `close` calls). */
  private unhold: (() => void) | undefined;

  /**
   * Stops the chain writing (the round and the sends under way finish; later ones wait) and
   * resolves to what lets it go on: the node is going back to a snapshot under it.
   */
  async hold(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const before = this.held;
    this.held = before ? Promise.all([before, held]).then(() => undefined) : held;
    const mine = this.held;
    const unhold = () => {
      if (this.held === mine) this.held = undefined;
      if (this.unhold === unhold) this.unhold = undefined;
      release();
    };
    // Closing a held chain (the node is rebuilt instead) lets what waits on it end.
    this.unhold = unhold;
    while (this.rounds.building) await this.rounds.building;
    while (this.admitting > 0) await new Promise((r) => setImmediate(r));
    await this.readers.drain();
    return unhold;
  }

  /** Whether a rollback (`changes`) changed what the chain forks: it is then opened again, not reloaded. */
  forkRewritten(changes: Changes): boolean {
    return recordRewritten(this.db, changes);
  }

  /**
   * After the store went back to a snapshot (while held): the head, its state, its rules and the
   * pool (from the journal) as the store now has them, as a restart would read them (`changes`:
   * the keys the rollback wrote).
   */
  async reload(changes: Changes): Promise<void> {
    const headHash = await this.store.head(changes);
    // Blocks kept at hand up to the restored head are still the chain's: only those above it went.
    const head = headHash && (await this.store.block(headHash));
    if (!head) throw new Error('the head block is missing from the database');
    this.store.forgetAbove(head.header.number);
    // So are the recorded runs of those blocks that the Data API's follower had not taken yet.
    this.current = head;
    // The state edits first: the head's state root is theirs when they changed it.
    await this.edits.load(head);
    await countedState(this.builder).resetTo(this.stateRootOf(head));
    // The readers move to the head's state at their next read.
    this.readers.forgetRoots();
    this.currentRules = await this.rulesAt(head);
    this.blocks.clearWaiting();
    this.buildError = undefined;
    await this.admission.reload(changes);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unhold?.();
    this.rounds.stopTimers();
    this.dev.close();
    this.admission.close();
    await this.rounds.finish();
    this.edits.close();
  }
}

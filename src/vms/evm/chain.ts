// One EVM chain: its accepted history (store), its state (tries in the chain's database), its tx
// pool, and the builder that makes a block as soon as txs can run. The C-Chain and every
// Subnet-EVM chain are instances with their own genesis, rules and database. Reads of any past
// state run on a reader VM, one at a time, never on the builder's state.
import { EventEmitter } from 'node:events';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { Account, Address, bytesToHex, createAddressFromString, toChecksumAddress } from '@ethereumjs/util';
import { Bloom, encodeReceipt, runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { Acceptance } from '../../chains/acceptance.js';
import { type Clock, unixMillis } from '../../chains/clock.js';
import { type Database, WriteBatch } from '../../storage/db.js';
import { keccak256 } from '../../crypto/keccak.js';
import { headerMillis, MAX_BLOCK_TIME } from './fees.js';
import type { EvmFlavor, NextFees } from './flavor.js';
import { countedState, creditBaseFee, execBlock, execVM, paced, stateAt } from './execution.js';
import { Pacer } from './trace/index.js';
import { type GenesisJson, type GenesisRules, genesisHeader, genesisQuantity, writeGenesisAlloc } from './genesis.js';
import { activatePrecompile, deactivatePrecompile, type PrecompileConfig } from './precompiles/config.js';
import type { StateUpgrade } from './upgrades.js';
import type { WarpContext } from './precompiles/warp.js';
import {
  invalidBits,
  PredicateError,
  type RunningPredicates,
  readPredicates,
  setRunningPredicates,
  type TxPredicates,
  verifyPredicates,
  type WarpReceiveContext,
  withPredicateGas,
} from './warp/receive.js';
import { WARP_ADDRESS_HEX } from './warp/precompile.js';
import { predicateResultsBytes } from './warp/predicate.js';
import { activeAt, txAllowed } from './precompiles/index.js';
import { type BaseRules, type ChainRules, rulesAfter } from './precompiles/rules.js';
import { type BodyTx, type CorethHeader, EMPTY_UNCLES, encodeBlock, headerHash, sealBlock } from './header.js';
import { NodeStore } from './nodes.js';
import { TrieMemo } from './state.js';
import { effectivePrice, effectiveTip, feeCaps, type NewPoolTx, PoolError, poolErrors, type PoolTx, TX_MAX_SIZE, TxPool } from './pool.js';
import type { EvmLog, TxRecord } from './records.js';
import { chainCommon } from './rules.js';
import { ChainStore, decodedTxs, type StoredBlock } from './store.js';
import { type InternalTx, InternalTxRecorder } from './trace/internal.js';
import { recoverSender } from './sender.js';
import { listRoot } from './trieroot.js';

export interface EvmChainOptions {
  clock: Clock;
  acceptance?: Acceptance;
  /** Whether block production is stalled (an emulator fault): txs are admitted, no block is built. */
  stalled?: () => boolean;
  /**
   * --dev: blocks are not paced by ACP-176's capacity. A block short of it is built at once, at a
   * time just late enough for the capacity to have refilled (see EvmChain.blockTime).
   */
  dev?: boolean;
  /** The parsed genesis file. */
  genesis: GenesisJson;
  /** coreth's rules or Subnet-EVM's. */
  flavor: EvmFlavor;
  /** The upgrades active at the genesis time (the genesis header's optional fields follow them). */
  genesisRules: GenesisRules;
  /**
   * Stateful precompiles and when they activate: at genesis, or in the first block whose time
   * passes theirs (ApplyPrecompileActivations).
   */
  precompiles: PrecompileConfig[];
  /** What the fee config and coinbase are without Subnet-EVM's managers. */
  baseRules: BaseRules;
  /** upgrade.json's state upgrades. */
  stateUpgrades?: StateUpgrade[];
  /** The chain's network and blockchain IDs, for the warp precompile's messages. */
  warp?: WarpContext;
  /** How warp messages delivered to this chain are verified. */
  warpReceive?: WarpReceiveContext;
}

/** The block being built, as an extension sees it once the block's EVM txs have run. */
export interface ExtensionBlock {
  /** The block's state, after its EVM txs. */
  sm: MerkleStateManager;
  baseFee: bigint;
  /** The ACP-176 capacity the EVM txs left (coreth's RemainingAtomicGasCapacity). */
  room: bigint;
}

/** What an extension adds to a block, already applied to the block's state. */
export interface ExtensionContent {
  /** The block's extData (coreth's atomic txs). */
  extData: Uint8Array;
  /** Its gas (extDataGasUsed), consumed after the EVM txs' in the block's fee state. */
  gasUsed: bigint;
  /** Adds the block's own writes (shared memory, its tx index) to the block's batch. */
  write(batch: WriteBatch, block: StoredBlock): Promise<void>;
  /** The batch committed. */
  accepted(): void;
  /** The block was not committed: what it carried waits for the next one. */
  abandoned(): void;
}

/**
 * What a VM adds to its EVM chain's blocks besides EVM txs: coreth's atomic txs. It runs after the
 * EVM txs (coreth's OnFinalizeAndAssemble), and a block with only its content is a block.
 */
export interface BlockExtension {
  /** Whether it has something waiting for a block. */
  hasPending(): boolean;
  /**
   * Picks, verifies and applies what fits in the block; nothing if none does. `retry` asks for
   * another round once `gas` more capacity is back, or (without gas) a while later.
   */
  assemble(block: ExtensionBlock, retry: (gas?: bigint) => void): Promise<ExtensionContent | undefined>;
}

/** An accepted block with what subscribers need: its txs and their records. */
export interface AcceptedEvmBlock {
  block: StoredBlock;
  txs: TypedTransaction[];
  records: TxRecord[];
}

interface Events {
  block: [AcceptedEvmBlock];
  pendingTx: [Uint8Array];
  buildFailed: [Error];
}

/** After a failed commit (a store error) or while capacity refills, the builder tries again this much later. */
const RETRY_MS = 1000;
/** RPCTxFeeCap: 100 AVAX. */
const TX_FEE_CAP = 100n * 10n ** 18n;
/** legacypool's evictionInterval: how often idle senders' queued txs are looked for (reads and sends look too). */
const EVICTION_INTERVAL_MS = 60_000;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/**
 * Tickets taken in arrival order, each section running once those before it have: admissions check
 * and journal concurrently, and reach the pool in the order they arrived, whatever order their
 * journal writes finish in. (A sender's batch in nonce order then never looks gapped to the pool's
 * queue cap.)
 */
class Turns {
  private tail: Promise<void> = Promise.resolve();
  take(): { ready: Promise<void>; release: () => void } {
    const ready = this.tail;
    let done!: () => void;
    this.tail = new Promise<void>((resolve) => {
      done = resolve;
    });
    // A turn that ends early still lets the next one go only after the turns before it.
    return { ready, release: () => void ready.then(done) };
  }
}

/** Serializes async sections (the reader VM runs one read at a time). */
class Lock {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.tail.then(fn, fn);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

/**
 * Makes `tx` run as sent by `from`, whatever its signature says: an impersonated account's tx (whose
 * signature is Anvil's placeholder, r = s = 1) or a replayed tx whose sender a record already holds.
 */
export function withSender<T extends TypedTransaction>(tx: T, from: Address): T {
  // Configurable: a cached decoded tx (api/reads.ts) is given its recorded sender again on every replay.
  Object.defineProperty(tx, 'getSenderAddress', { value: () => from, configurable: true });
  return tx;
}

export function decodeTx(bytes: Uint8Array, common: Common): TypedTransaction {
  if (bytes.length > 0 && bytes[0]! <= 0x7f) {
    if (bytes.length <= 1) throw new PoolError('typed transaction too short');
    if (bytes[0]! > 2) throw new PoolError(poolErrors.typeNotSupported());
  }
  try {
    // Not frozen: a tx with warp predicates gets its intrinsic gas (warp/receive.ts withPredicateGas).
    return createTxFromRLP(bytes, { common, freeze: false });
  } catch (err) {
    if (/maxFeePerGas cannot be less than maxPriorityFeePerGas/.test((err as Error).message)) throw new PoolError(poolErrors.tipAboveFeeCap());
    throw new PoolError(`rlp: ${(err as Error).message.replace(/ \(tx type.*$/s, '')}`);
  }
}

/** Parsed warp predicates by tx (each pool tx is decoded once). */
const txPredicates = new WeakMap<TypedTransaction, TxPredicates>();

/** A pool tx as a block body holds it: a legacy tx as its list, a typed tx as its bytes. */
export const bodyTx = (p: { tx: TypedTransaction; bytes: Uint8Array }): BodyTx => (p.tx.type === 0 ? (p.tx.raw() as Uint8Array[]) : p.bytes);

/** A block as the builder ran it (EvmChain.takeBuilt). */
export interface BuiltBlock {
  /** Its height: a revert forgets the blocks above the head it restores. */
  number: bigint;
  txs: readonly TypedTransaction[];
  internal: InternalTx[][];
  /** The records the block's store entry holds (the follower need not decode them again). */
  records: readonly TxRecord[];
}

/** What the dev controls set on a chain (see EvmChain.devSettings). */
export interface DevSettings {
  timeOffset: bigint;
  automine: boolean;
  intervalSeconds: number;
  devCoinbase: Uint8Array | undefined;
  impersonated: string[];
  autoImpersonate: boolean;
}

/** Blocks whose recorded internal transactions wait for the Data API's follower, at most. */
const KEPT_INTERNAL_BLOCKS = 1024;

/**
 * How long after a block round the next one for sent txs waits, gathering the sends that arrive
 * meanwhile. A read starts the waiting round at once (`settled`), so only a client that sends without
 * reading sees the wait. 50 ms rather than 20: a client sending one tx after another then shares a
 * block with some 30 of its sends instead of 12, and pays for fewer blocks (about 10 % more
 * sequential sends per second in A/B runs); coreth's minimum delay between blocks is 2 s.
 */
const SEND_SPACING_MS = 50;

/** The dev-state key of the head's edited root: the head's hash, then the root. */
const EDITED_ROOT_KEY = new Uint8Array([0]);

export class EvmChain extends EventEmitter<Events> {
  readonly store: ChainStore;
  readonly nodes: NodeStore;
  /** Replaced, not emptied, when the chain reloads (a revert): a round under way keeps the one it read. */
  pool: TxPool;
  private readonly journal: Database;
  /** The senders of journaled txs from impersonated accounts, by tx hash: their signatures name nobody. */
  private readonly senders: Database;
  /** The head's state root with dev state edits (anvil_setBalance, …) applied, and the head it is for. */
  private readonly devState: Database;
  private readonly readLock = new Lock();
  private readonly admissions = new Turns();
  private builder!: VM;
  private reader!: VM;
  private readerRoot = '';
  head!: StoredBlock;
  genesis!: StoredBlock;
  private requested = 0;
  private completed = 0;
  private waiters: Array<{ round: number; resolve: () => void }> = [];
  private loop: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private retryAt = 0;
  private closed = false;
  lastBuildError: Error | undefined;
  /** When the oldest runnable tx arrived and is still waiting, for the health check. */
  waitingSince: number | undefined;
  /** What the head's state sets for the next block: its fee config and coinbase. */
  headRules!: ChainRules;
  /** coreth's atomic txs, set by the VM once the chain is open. */
  extension: BlockExtension | undefined;

  private constructor(
    private readonly db: Database,
    readonly common: Common,
    readonly chainId: bigint,
    private readonly opts: EvmChainOptions,
  ) {
    super();
    this.store = new ChainStore(db, opts.flavor.layout);
    this.nodes = new NodeStore(db.prefix('nodes'));
    this.journal = db.prefix('pool');
    this.senders = db.prefix('pool-senders');
    this.devState = db.prefix('dev-state');
    // Heartbeats on the node's clock, so that emulator.advanceClock ages queued txs as it ages blocks.
    this.pool = new TxPool(() => opts.clock.nowNs());
    this.evictTimer = setInterval(() => void this.expireQueued(), EVICTION_INTERVAL_MS);
    this.evictTimer.unref();
  }

  static async open(db: Database, opts: EvmChainOptions): Promise<EvmChain> {
    const chainId = BigInt(opts.genesis.config.chainId ?? 0);
    const chain = new EvmChain(db, chainCommon(chainId), chainId, opts);
    await chain.init();
    return chain;
  }

  get flavor(): EvmFlavor {
    return this.opts.flavor;
  }

  /**
   * What changes between the parent's time and this block's, before its txs (Subnet-EVM's
   * ApplyUpgrades): precompiles disabled or enabled, in address order, then state upgrades.
   */
  private async applyUpgrades(sm: MerkleStateManager, parentTime: bigint, time: bigint, number: bigint): Promise<void> {
    const crosses = (t: number | undefined) => t !== undefined && BigInt(t) > parentTime && BigInt(t) <= time;
    const periods = [...this.opts.precompiles].sort((a, b) => Buffer.compare(Buffer.from(a.address), Buffer.from(b.address)));
    for (const p of periods) {
      if (crosses(p.until)) await deactivatePrecompile(sm, p);
      if (!activeAt(p, parentTime) && activeAt(p, time)) await activatePrecompile(sm, p, number);
    }
    for (const u of this.opts.stateUpgrades ?? []) {
      if (!crosses(u.timestamp)) continue;
      for (const a of u.accounts) {
        const addr = new Address(a.address);
        const account = (await sm.getAccount(addr)) ?? new Account();
        account.balance += a.balanceChange;
        // A contract's nonce is at least 1 (EIP-158).
        if (a.code && account.nonce === 0n) account.nonce = 1n;
        await sm.putAccount(addr, account);
        if (a.code) await sm.putCode(addr, a.code);
        for (const [slot, value] of a.storage) await sm.putStorage(addr, slot, value);
      }
    }
  }

  /**
   * A tx's warp predicates, when the warp precompile is on at the head: parsed once (a malformed one
   * is refused as subnet-evm's intrinsic gas refuses it), with their intrinsic gas set on the tx.
   */
  readWarpPredicates(tx: TypedTransaction): TxPredicates | undefined {
    if (!this.opts.warpReceive) return undefined;
    const known = txPredicates.get(tx);
    if (known) return known;
    const warp = this.opts.precompiles.find((c) => c.key === 'warpConfig' && activeAt(c, this.head.header.time));
    if (!warp) return undefined;
    let p: TxPredicates | undefined;
    try {
      p = readPredicates(tx);
    } catch (err) {
      if (err instanceof PredicateError) throw new PoolError(err.message);
      throw err;
    }
    if (!p) return undefined;
    withPredicateGas(tx, p);
    txPredicates.set(tx, p);
    return p;
  }

  /** What a re-executed tx (a trace) sees of its warp predicates: verified as when its block was built. */
  predicatesForReplay(tx: TypedTransaction): RunningPredicates | undefined {
    const p = this.readWarpPredicates(tx);
    return p && this.opts.warpReceive ? { ...p, invalid: verifyPredicates(p, this.opts.warpReceive) } : undefined;
  }

  private rulesAfter(sm: MerkleStateManager, time: bigint): Promise<ChainRules> {
    return rulesAfter(sm, this.opts.precompiles, time, this.opts.baseRules);
  }

  /** What the state after `block` sets for its child: the fee config and the coinbase. */
  rulesAt(block: StoredBlock): Promise<ChainRules> {
    return this.withState(this.stateRootOf(block), (vm) => this.rulesAfter(vm.stateManager as MerkleStateManager, block.header.time));
  }

  /** Whether any period of the tx allow list is configured: only then do admission and building read roles. */
  private get hasTxAllowList(): boolean {
    return this.opts.precompiles.some((c) => c.key === 'txAllowListConfig');
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
    const headHash = await this.store.head();
    if (!headHash) {
      // A fresh chain: the genesis state and block, in one batch.
      const sm = stateAt(this.nodes, this.common, undefined, multiCoin);
      const genesisTime = genesisQuantity(this.opts.genesis.timestamp, 'timestamp');
      for (const p of this.opts.precompiles) if (activeAt(p, genesisTime)) await activatePrecompile(sm, p, 0n);
      await writeGenesisAlloc(sm, this.opts.genesis);
      const header = genesisHeader(this.opts.genesis, this.opts.flavor.layout, await sm.getStateRoot(), this.opts.genesisRules);
      const bytes = encodeBlock(header, []);
      this.genesis = { header, hash: headerHash(header), body: [], size: bytes.length };
      const batch = new WriteBatch();
      const settled = this.nodes.flushInto(batch);
      this.store.put(batch, this.genesis, bytes, [], []);
      await this.db.write(batch);
      settled();
      this.head = this.genesis;
    } else {
      const head = await this.store.block(headHash);
      const genesis = await this.store.blockAt(0n);
      if (!head || !genesis) throw new Error(`the head block ${hex(headHash)} or the genesis block is missing from the database`);
      this.head = head;
      this.genesis = genesis;
    }
    await this.loadEditedRoot();
    const root = this.stateRootOf(this.head);
    this.builder = await this.newVM(stateAt(this.nodes, this.common, root, multiCoin, 50_000));
    // The reader's caches are emptied at each new head: small, so emptying them is cheap.
    this.reader = await this.newVM(stateAt(this.nodes, this.common, root, multiCoin, 2_000, new TrieMemo(20_000)));
    this.readerRoot = hex(root);
    this.headRules = await this.rulesAt(this.head);
    await this.reloadJournal();
  }

  /** Txs admitted before a restart that no block included: back into the pool, in nonce order. */
  private async reloadJournal(): Promise<void> {
    const entries = await this.journal.values({ gte: new Uint8Array(), lt: new Uint8Array(33).fill(0xff) });
    const txs = entries
      .map((bytes) => ({ bytes, tx: decodeTx(bytes, this.common) }))
      .sort((a, b) => (a.tx.nonce < b.tx.nonce ? -1 : a.tx.nonce > b.tx.nonce ? 1 : 0));
    for (const { bytes, tx } of txs) {
      const sender = await this.senders.get(tx.hash());
      if (sender) withSender(tx, new Address(sender));
      try {
        await this.admit(bytes, tx, sender !== undefined);
      } catch {
        await this.forget(tx.hash(), sender !== undefined);
      }
    }
  }

  /** Whether the chain builds blocks yet: not before start(). */
  private started = false;

  /**
   * Block production begins (avalanchego's SetState(NormalOp)): called once the chain manager has
   * registered the chain with everything that follows its blocks (the indexer, the Data API), so
   * that the block the replayed journal makes at start-up reaches them too.
   */
  start(): void {
    this.started = true;
    if (this.hasWork) void this.buildNow();
  }

  /** Runs `fn` on the reader VM at state `root`, alone. */
  withState<T>(root: Uint8Array, fn: (vm: VM) => Promise<T>): Promise<T> {
    return this.readLock.run(async () => {
      const sm = countedState(this.reader);
      if (this.readerRoot !== hex(root)) {
        await sm.setStateRoot(root);
        this.readerRoot = hex(root);
      }
      const depth = sm.depth;
      sm.checkpoint();
      try {
        return await fn(this.reader);
      } finally {
        await sm.unwindTo(depth);
      }
    });
  }

  async account(address: Uint8Array, root: Uint8Array = this.stateRootOf(this.head)): Promise<Account | undefined> {
    return this.withState(root, (vm) => vm.stateManager.getAccount(new Address(address)));
  }

  // --- Internal transactions, recorded while blocks are built (for the Data API) ------------------

  private internalRecorder: InternalTxRecorder | undefined;
  /** Per block built since recording began (by block hash): its txs, and each tx's internal transactions. */
  private readonly builtByBlock = new Map<string, BuiltBlock>();

  /** From now on, the builder records each tx's internal transactions (what the Data API lists). */
  recordInternalTxs(): void {
    if (this.internalRecorder) return;
    this.internalRecorder = new InternalTxRecorder();
    this.internalRecorder.attach(this.builder.evm);
  }

  /**
   * A block this process built since recording began, once: its txs as they ran (not to be run
   * again: a warp tx's carries its predicate gas) and their internal transactions; undefined for others.
   */
  takeBuilt(blockHash: Uint8Array): BuiltBlock | undefined {
    const key = hex(blockHash);
    const found = this.builtByBlock.get(key);
    this.builtByBlock.delete(key);
    return found;
  }

  // --- Admission -----------------------------------------------------------------------------

  /**
   * eth_sendRawTransaction: admits the tx and answers, as coreth answers once its pool holds a tx.
   * The tx is durable by then (in the journal: kill -9 loses no tx whose hash went back). With
   * automine the block round starts at once; reads wait for it (`settled`), so a client that reads
   * after a send finds the tx mined, while sends that follow one another share blocks.
   */
  async sendRawTransaction(bytes: Uint8Array, sender?: Address): Promise<Uint8Array> {
    while (this.held) await this.held;
    if (this.closed) throw new Error('the chain was closed (the node was reverted, loaded or reset)');
    this.admitting++;
    try {
      return await this.send(bytes, sender);
    } finally {
      this.admitting--;
    }
  }

  private async send(bytes: Uint8Array, sender?: Address): Promise<Uint8Array> {
    const tx = decodeTx(bytes, this.common);
    if (sender) withSender(tx, sender);
    const fee = feeCaps(tx).feeCap * tx.gasLimit;
    if (fee > TX_FEE_CAP) throw new PoolError(poolErrors.feeCap((Number(fee / 10n ** 14n) / 10_000).toFixed(2)));
    if (tx.type === 0 && !tx.supports(155)) throw new PoolError(poolErrors.unprotected());
    const { hash, promoted } = await this.admit(bytes, tx, sender !== undefined, true);
    // As geth's pool announces txs: once they are pending (a queued tx when its gap is filled).
    for (const p of promoted) this.emit('pendingTx', p.hash);
    // Automine off (evm_setAutomine false, interval mining): the tx waits for the next mined block.
    if (this.automine) this.buildSoon();
    return hash;
  }

  /** When the last block round ended (performance.now()). */
  private lastRoundEnd = -Infinity;
  /** The timer of a round that sent txs wait for (SEND_SPACING_MS after the last round). */
  private soon: NodeJS.Timeout | undefined;

  /**
   * A round for sent txs: at once if the last ended SEND_SPACING_MS ago, else when it has (or when
   * a read comes first, see `settled`), so that sends arriving back to back share a block instead of
   * paying for one each.
   */
  private buildSoon(): void {
    if (this.soon) return;
    const wait = this.lastRoundEnd + SEND_SPACING_MS - performance.now();
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
    // A read sees no queued tx past its lifetime (geth drops them on a timer; the clock may have jumped).
    const expiring = this.expireQueued();
    // A read does not wait for more sends to gather.
    if (this.soon) this.buildWaiting();
    if (this.completed >= this.requested) return expiring;
    const round = this.requested;
    const built = new Promise<void>((resolve) => this.waiters.push({ round, resolve }));
    return expiring ? Promise.all([expiring, built]).then(() => undefined) : built;
  }

  /** Takes a tx out of the journal (and its sender, if impersonated). */
  private async forget(hash: Uint8Array, impersonated: boolean | undefined): Promise<void> {
    await this.journal.del(hash);
    if (impersonated) await this.senders.del(hash);
  }

  /** Takes txs that left the pool out of the journal, so that a restart does not bring them back. */
  private async forgetAll(txs: readonly PoolTx[]): Promise<void> {
    for (const p of txs) await this.forget(p.hash, p.impersonated);
  }

  private evictTimer: NodeJS.Timeout;

  /** Drops the queued txs of senders idle past the pool's lifetime; undefined if there were none. */
  private expireQueued(): Promise<void> | undefined {
    const gone = this.pool.expire();
    return gone.length > 0 ? this.forgetAll(gone) : undefined;
  }

  /** The base fee the pool orders its cheapest txs by: the next block's, as coreth's pool estimates it. */
  private poolBaseFee(): bigint {
    return this.nextBaseFee ?? this.opts.flavor.nextFees(this.head.header, this.nextBlockMillis(), this.headRules).baseFee;
  }

  /** Checks a tx against the pool and the head's state and adds it; with `journal`, durably first. */
  private async admit(bytes: Uint8Array, tx: TypedTransaction, impersonated = false, journal = false): Promise<{ hash: Uint8Array; promoted: PoolTx[] }> {
    // Taken before the first await: the arrival order.
    const turn = this.admissions.take();
    try {
      await this.expireQueued();
      // The state the checks read (the head's, with its dev edits).
      let checked = this.stateRootOf(this.head);
      const validated = await this.validate(bytes, tx, impersonated);
      const { entry } = validated;
      let { stateNonce } = validated;
      const poolBaseFee = () => this.poolBaseFee();
      // Asked before the journal write, so that a refused tx costs none.
      const early = this.pool.refusal(entry, poolBaseFee);
      if (early) throw new PoolError(early);
      if (journal) {
        // In the journal before the pool: a block round can only take (and unjournal) a journaled tx.
        if (impersonated) await this.senders.put(entry.hash, entry.from);
        await this.journal.put(entry.hash, bytes);
      }
      await turn.ready;
      // legacypool adds under its lock, against the state of its last reset. A block built since
      // the checks (during the journal write, the turns before this one) took its txs out of the
      // pool and moved their senders' nonces on (a dev edit may have too): unless the pool holds
      // this tx (already known, which add answers), the state checks run again on the new state,
      // so that a tx whose nonce a block has just used (this very tx, sent twice at once) is
      // refused as nonce too low instead of added against the nonce read before the block.
      while (checked !== this.stateRootOf(this.head) && !this.pool.has(entry.hashHex)) {
        checked = this.stateRootOf(this.head);
        try {
          stateNonce = await this.checkState(tx, entry.tx.getSenderAddress(), entry.feeCap);
        } catch (err) {
          if (journal && !this.pool.has(entry.hashHex)) await this.forget(entry.hash, impersonated);
          throw err;
        }
      }
      // The pool may have changed while the journal was written: add checks again.
      const added = this.pool.add(entry, stateNonce, poolBaseFee);
      turn.release();
      await this.forgetAll(added.replaced ? [...added.removed, added.replaced] : added.removed);
      if (added.error !== undefined) {
        // Unless a concurrent send of the same tx took the place, its journal entry goes.
        if (journal && !this.pool.has(entry.hashHex)) await this.forget(entry.hash, impersonated);
        throw new PoolError(added.error);
      }
      if (added.promoted.length > 0) this.waitingSince ??= Date.now();
      return { hash: entry.hash, promoted: added.promoted };
    } finally {
      turn.release();
    }
  }

  /** geth's checks of a tx against the head's rules and state, in geth's order: the tx as the pool takes it. */
  private async validate(bytes: Uint8Array, tx: TypedTransaction, impersonated: boolean): Promise<{ entry: NewPoolTx; stateNonce: bigint }> {
    // The hash of the bytes as sent: they are the tx's encoding (decoded strictly, they re-encode to
    // themselves), and hashing them saves encoding the tx again.
    const hash = keccak256(bytes);
    const hashHex = bytesToHex(hash);
    if (this.pool.has(hashHex)) throw new PoolError(poolErrors.alreadyKnown());
    if (tx.type > 2) throw new PoolError(poolErrors.typeNotSupported());
    if (bytes.length > TX_MAX_SIZE) throw new PoolError(poolErrors.oversized(bytes.length));
    if (tx.gasLimit > this.head.header.gasLimit) throw new PoolError(poolErrors.gasLimit(tx.gasLimit, this.head.header.gasLimit));
    const { feeCap, tipCap } = feeCaps(tx);
    if (tipCap > feeCap) throw new PoolError(poolErrors.tipAboveFeeCap());
    this.readWarpPredicates(tx);
    let from: Address;
    try {
      // Recovered from the bytes as sent (sender.ts). An impersonated tx's sender is set on it
      // (withSender): its placeholder signature recovers nothing.
      from = impersonated ? tx.getSenderAddress() : recoverSender(tx, bytes);
    } catch {
      throw new PoolError(poolErrors.invalidSender());
    }
    // Recovered once: a tx decoded unfrozen (for its warp predicates) does not cache its sender, and
    // runTx would recover it again.
    withSender(tx, from);
    const fromText = from.toString();
    // Only error texts name the sender, checksummed: computed when one is raised (a keccak each).
    const checksum = () => toChecksumAddress(fromText);
    const intrinsic = tx.getIntrinsicGas();
    if (tx.gasLimit < intrinsic) throw new PoolError(poolErrors.intrinsicGas(checksum(), tx.gasLimit, intrinsic));
    const minFeeCap = this.opts.flavor.minFeeCap(this.headRules);
    if (feeCap < minFeeCap) throw new PoolError(poolErrors.feeCapTooLow(checksum(), feeCap, minFeeCap));
    const stateNonce = await this.checkState(tx, from, feeCap);
    // Subnet-EVM's tx allow list comes after the nonce and balance checks, under the head's rules.
    if (
      this.hasTxAllowList &&
      !(await this.withState(this.stateRootOf(this.head), (vm) =>
        txAllowed(vm.stateManager as MerkleStateManager, this.opts.precompiles, this.head.header.time, from),
      ))
    ) {
      throw new PoolError(poolErrors.notAllowListed(checksum()));
    }
    const entry: NewPoolTx = {
      tx,
      bytes,
      hash,
      hashHex,
      from: from.bytes,
      fromHex: fromText,
      nonce: tx.nonce,
      feeCap,
      tipCap,
      ...(impersonated ? { impersonated } : {}),
    };
    return { entry, stateNonce };
  }

  /** geth's checks of a tx against the head's state, nonce then balance: the sender's nonce there. */
  private async checkState(tx: TypedTransaction, from: Address, feeCap: bigint): Promise<bigint> {
    const account = (await this.account(from.bytes)) ?? new Account();
    if (tx.nonce < account.nonce) throw new PoolError(poolErrors.nonceTooLow(account.nonce, tx.nonce));
    const cost = tx.gasLimit * feeCap + tx.value;
    if (account.balance < cost) throw new PoolError(poolErrors.insufficientFunds(account.balance, cost));
    return account.nonce;
  }

  // --- Block building ------------------------------------------------------------------------

  // --- Dev controls (--dev: evm_mine, evm_increaseTime, evm_setNextBlockTimestamp) ----------------

  /** Blocks to build even without txs (evm_mine, anvil_mine). */
  private blocksToMine = 0;
  /** Seconds this chain's block time runs ahead of the node's clock (evm_increaseTime). */
  timeOffset = 0n;
  /** The next block's timestamp, once (evm_setNextBlockTimestamp). */
  nextTimestamp: bigint | undefined;

  /** The node's clock, in whole seconds: what evm_increaseTime's offset is added to. */
  clockSeconds(): bigint {
    return BigInt(unixMillis(this.opts.clock)) / 1000n;
  }

  /**
   * When the next block is made, in ms: evm_setNextBlockTimestamp's time, or the clock plus this
   * chain's offset; never before the head, never past what a header can carry (the dev controls
   * refuse times past it, but the clock goes on moving).
   */
  nextBlockMillis(): bigint {
    const nowMs = this.nextTimestamp !== undefined ? this.nextTimestamp * 1000n : BigInt(unixMillis(this.opts.clock)) + this.timeOffset * 1000n;
    const parentMs = headerMillis(this.head.header);
    const cap = MAX_BLOCK_TIME * 1000n;
    if (nowMs <= parentMs) return parentMs;
    return nowMs > cap && parentMs <= cap ? cap : nowMs;
  }

  /** Whether a tx is mined as it arrives (evm_setAutomine); off, blocks come from evm_mine or the interval. */
  automine = true;
  private intervalTimer: NodeJS.Timeout | undefined;
  /** Interval mining's period in seconds (anvil_setIntervalMining), 0 when off. */
  intervalSeconds = 0;

  /** anvil_setIntervalMining: a block every `seconds` (empty if no tx waits), automine off; 0 stops it. */
  setIntervalMining(seconds: number): void {
    if (this.intervalTimer) clearInterval(this.intervalTimer);
    this.intervalTimer = undefined;
    this.intervalSeconds = seconds;
    if (seconds === 0) return;
    this.automine = false;
    this.intervalTimer = setInterval(() => void this.mine(1), seconds * 1000);
    this.intervalTimer.unref();
  }

  /** evm_setAutomine: on, what waits is mined at once. */
  setAutomine(on: boolean): void {
    this.automine = on;
    if (on) this.resumeBuilding();
  }

  /** anvil_setCoinbase: the coinbase of the blocks built from now on, instead of the rules'. */
  devCoinbase: Uint8Array | undefined;
  /** anvil_setNextBlockBaseFeePerGas: the next block's base fee, once. */
  nextBaseFee: bigint | undefined;

  /** Accounts eth_sendTransaction sends for without a key (anvil_impersonateAccount), as 0x-hex lowercase. */
  readonly impersonated = new Set<string>();
  /** anvil_autoImpersonateAccount: every account is impersonated. */
  autoImpersonate = false;

  isImpersonated(addressHex: string): boolean {
    return this.autoImpersonate || this.impersonated.has(addressHex.toLowerCase());
  }

  /** The dev controls' settings, which a rebuilt node (evm_revert, anvil_loadState) gives its new chain. */
  devSettings(): DevSettings {
    return {
      timeOffset: this.timeOffset,
      automine: this.automine,
      intervalSeconds: this.intervalSeconds,
      devCoinbase: this.devCoinbase,
      impersonated: [...this.impersonated],
      autoImpersonate: this.autoImpersonate,
    };
  }

  applyDevSettings(s: DevSettings): void {
    this.timeOffset = s.timeOffset;
    this.devCoinbase = s.devCoinbase;
    for (const a of s.impersonated) this.impersonated.add(a);
    this.autoImpersonate = s.autoImpersonate;
    this.automine = s.automine;
    if (s.intervalSeconds > 0) this.setIntervalMining(s.intervalSeconds);
  }

  /** anvil_dropTransaction: takes a pending tx out of the pool (and its journal); false if it is not there. */
  async dropTransaction(hash: Uint8Array): Promise<boolean> {
    const p = this.pool.get(bytesToHex(hash));
    if (!p) return false;
    await this.forgetAll(this.pool.remove(p));
    return true;
  }

  /** anvil_dropAllTransactions */
  async dropAllTransactions(): Promise<void> {
    for (const p of this.pool.all()) await this.dropTransaction(p.hash);
  }

  /** State edits (anvil_setBalance, …) waiting for the next round to apply them, with their callers. */
  private devEdits: Array<{ edit: (sm: MerkleStateManager) => Promise<void>; done: (err?: Error) => void }> = [];
  /** The head's state with the dev edits made since it was built; undefined when there are none. */
  private editedRoot: Uint8Array | undefined;

  /**
   * The state root reads of `block` use: for the head, its state with the dev edits made since (what
   * Anvil's and Hardhat's `latest` and `pending` see), else the header's.
   */
  stateRootOf(block: StoredBlock): Uint8Array {
    const head = block === this.head || Buffer.compare(block.hash, this.head.hash) === 0;
    return this.editedRoot && head ? this.editedRoot : block.header.stateRoot;
  }

  /**
   * anvil_setBalance, setNonce, setCode, setStorageAt: the edit changes the head's state without a
   * block, as in Anvil and Hardhat (the block number stays; the next block's state root includes
   * it). It is applied in the build loop, so never during a block's execution, and written durably
   * before this resolves: the edit's trie nodes and the edited root, for this head, in one batch.
   */
  editState(edit: (sm: MerkleStateManager) => Promise<void>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.devEdits.push({ edit, done: (err) => (err ? reject(err) : resolve()) });
      void this.buildNow();
    });
  }

  /** The state `block` was built on: its parent's, with the dev edits made on the parent since. */
  async builtOn(block: StoredBlock, parent: StoredBlock): Promise<Uint8Array> {
    return (await this.devState.get(block.hash)) ?? parent.header.stateRoot;
  }

  /** The edited root kept for the current head, if any (an edit made before a restart or a revert). */
  private async loadEditedRoot(): Promise<void> {
    const kept = await this.devState.get(EDITED_ROOT_KEY);
    this.editedRoot = kept && Buffer.from(kept.subarray(0, 32)).equals(Buffer.from(this.head.hash)) ? kept.slice(32) : undefined;
  }

  /** Applies the waiting edits and tells their callers how it went; a failure is theirs, not the round's. */
  private async applyEdits(): Promise<void> {
    const edits = this.devEdits.splice(0);
    if (edits.length === 0) return;
    try {
      await this.writeEdits(edits.map((e) => e.edit));
    } catch (err) {
      for (const e of edits) e.done(err as Error);
      return;
    }
    for (const e of edits) e.done();
  }

  /** Applies edits on the builder's state (at the head's edited root) and writes them in one batch. */
  private async writeEdits(edits: Array<(sm: MerkleStateManager) => Promise<void>>): Promise<void> {
    const sm = countedState(this.builder);
    const base = sm.depth;
    sm.checkpoint();
    let root: Uint8Array;
    try {
      for (const edit of edits) await edit(sm);
      await sm.commit();
      root = await sm.getStateRoot();
    } catch (err) {
      await sm.unwindTo(base);
      throw err;
    }
    const batch = new WriteBatch();
    const settled = this.nodes.flushInto(batch);
    batch.put(this.devState, EDITED_ROOT_KEY, Buffer.concat([this.head.hash, root]));
    const rules = await this.rulesAfter(this.builder.stateManager as MerkleStateManager, this.head.header.time);
    try {
      await this.db.write(batch);
    } catch (err) {
      this.nodes.unflushed();
      await sm.setStateRoot(this.stateRootOf(this.head));
      throw err;
    }
    settled();
    this.editedRoot = root;
    // An edit of a precompile's storage (the fee manager's config, the reward address) governs the next block.
    this.headRules = rules;
  }

  /** Builds `count` blocks, empty when no tx waits, `interval` seconds apart after the first. */
  async mine(count: number, interval = 0n): Promise<void> {
    for (let i = 0; i < count; i++) {
      if (i > 0 && interval > 0n) this.nextTimestamp = this.head.header.time + interval;
      this.blocksToMine++;
      const before = this.head.header.number;
      await this.buildNow();
      // A round that could not build (a stall, a failed write) leaves the request for the next one.
      if (this.head.header.number === before) break;
    }
  }

  /** Block production resumed after a stall: build what waits. */
  resumeBuilding(): void {
    if (this.hasWork) void this.buildNow();
  }

  /** Whether anything waits for a block: a pool tx or the extension's. */
  private get hasWork(): boolean {
    return this.pool.size > 0 || (this.extension?.hasPending() ?? false) || this.blocksToMine > 0;
  }

  /** Whether a block is owed now (what the health check times): queued txs wait for their gaps, not for a block. */
  private get hasRunnable(): boolean {
    return this.pool.stats().pending > 0 || (this.extension?.hasPending() ?? false) || this.blocksToMine > 0;
  }

  /** The extension has something new to build: it waits from now (for the health check) until a round takes it. */
  extensionPending(): Promise<void> {
    this.waitingSince ??= Date.now();
    return this.buildNow();
  }

  /** Resolves once a build round that started after this call has finished. */
  buildNow(): Promise<void> {
    const round = ++this.requested;
    const done = new Promise<void>((resolve) => this.waiters.push({ round, resolve }));
    this.loop ??= this.runRounds();
    return done;
  }

  private async runRounds(): Promise<void> {
    // Yield first, so that sends arriving together share a block.
    await new Promise((r) => setImmediate(r));
    try {
      while (this.completed < this.requested && !this.closed) {
        while (this.held) await this.held;
        if (this.closed) break;
        const covers = this.requested;
        this.building = this.round();
        await this.building;
        this.building = undefined;
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

  /** One round: the waiting state edits, then a block; a failure is reported and retried, not thrown. */
  private async round(): Promise<void> {
    try {
      await this.applyEdits();
      await this.buildBlock();
      this.lastBuildError = undefined;
    } catch (err) {
      this.lastBuildError = err as Error;
      this.emit('buildFailed', err as Error);
      this.scheduleRetry();
    }
  }

  // --- Going back to a snapshot (evm_revert) ---------------------------------------------------

  /** While the node goes back to a snapshot: what rounds and sends wait for. */
  private held: Promise<void> | undefined;
  /** The round under way, if any. */
  private building: Promise<void> | undefined;
  /** Sends being admitted. */
  private admitting = 0;

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
    while (this.building) await this.building;
    while (this.admitting > 0) await new Promise((r) => setImmediate(r));
    await this.readLock.run(async () => {});
    return unhold;
  }

  /** Lets the latest hold go (what `close` calls). */
  private unhold: (() => void) | undefined;

  /**
   * After the store went back to a snapshot (while held): the head, its state, its rules and the
   * pool (from the journal) as the store now has them, as a restart would read them.
   */
  async reload(): Promise<void> {
    const headHash = await this.store.head();
    // Blocks kept at hand up to the restored head are still the chain's: only those above it went.
    const head = headHash && (await this.store.block(headHash));
    if (!head) throw new Error('the head block is missing from the database');
    this.store.forgetAbove(head.header.number);
    // So are the recorded runs of those blocks that the Data API's follower had not taken yet: they
    // would only take memory (up to KEPT_INTERNAL_BLOCKS of them) until pushed out by new blocks.
    for (const [key, built] of this.builtByBlock) if (built.number > head.header.number) this.builtByBlock.delete(key);
    this.head = head;
    await this.loadEditedRoot();
    await countedState(this.builder).setStateRoot(this.stateRootOf(head));
    // The reader moves to the head's state at its next read.
    await this.readLock.run(async () => {
      this.readerRoot = '';
    });
    this.headRules = await this.rulesAt(head);
    this.pool = new TxPool(() => this.opts.clock.nowNs());
    this.waitingSince = undefined;
    this.lastBuildError = undefined;
    await this.reloadJournal();
  }

  /**
   * --dev: when the next block built for txs is made, at the earliest (in ms): a tx or atomic tx
   * found the capacity short, and this is when it will have refilled enough.
   */
  private capacityAt: bigint | undefined;

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
    let timeMs = this.nextBlockMillis();
    let fees = this.opts.flavor.nextFees(parent.header, timeMs, rules);
    if (!this.opts.dev) return { timeMs, fees };
    if (this.nextTimestamp !== undefined) return { timeMs, fees: { ...fees, waitMs: 0 } };
    const cap = MAX_BLOCK_TIME * 1000n;
    if (this.capacityAt !== undefined && this.capacityAt > timeMs && this.capacityAt <= cap) {
      timeMs = this.capacityAt;
      fees = this.opts.flavor.nextFees(parent.header, timeMs, rules);
    }
    // refillMs rounds up at the per-second rate: one step is enough, a few more cover rounding.
    for (let i = 0; i < 4 && fees.waitMs > 0 && timeMs + BigInt(fees.waitMs) <= cap; i++) {
      timeMs += BigInt(fees.waitMs);
      fees = this.opts.flavor.nextFees(parent.header, timeMs, rules);
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
    if (!this.opts.dev || needed > fees.gasLimit) {
      this.scheduleRetry(ms);
      return;
    }
    const at = timeMs + BigInt(ms);
    if (this.capacityAt === undefined || at > this.capacityAt) this.capacityAt = at;
    void this.buildNow();
  }

  /** Another round in `delayMs` (sooner replaces later): after a failure, or for capacity or fees to come back. */
  private scheduleRetry(delayMs = RETRY_MS): void {
    if (this.closed) return;
    const at = Date.now() + delayMs;
    if (this.retry && this.retryAt <= at) return;
    if (this.retry) clearTimeout(this.retry);
    this.retryAt = at;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.hasWork) void this.buildNow();
    }, delayMs);
    this.retry.unref();
  }

  /** Builds, executes and commits one block from the runnable txs; nothing if none can run (or production is stalled). */
  private async buildBlock(): Promise<void> {
    if (!this.started || this.opts.stalled?.()) return;
    // With automine off, only a requested block (evm_mine, the interval) is built.
    if (!this.automine && this.blocksToMine === 0) return;
    if (!this.hasWork) {
      this.waitingSince = undefined;
      return;
    }
    const parent = this.head;
    const rules = this.headRules;
    const { timeMs, fees: computed } = this.blockTime(parent, rules);
    // anvil_setNextBlockBaseFeePerGas: this block's base fee only; the header's fee state is the rules' own.
    const fees = this.nextBaseFee === undefined ? computed : { ...computed, baseFee: this.nextBaseFee };
    if (fees.waitMs > 0) {
      this.scheduleRetry(fees.waitMs);
      return;
    }
    const number = parent.header.number + 1n;
    const time = timeMs / 1000n;
    const exec = execBlock(this.common, {
      number,
      time,
      gasLimit: fees.gasLimit,
      baseFee: fees.baseFee,
      difficulty: 1n,
      coinbase: this.devCoinbase ?? rules.coinbase,
    });
    const vm = this.builder;
    const sm = countedState(vm);
    const included: PoolTx[] = [];
    const results: RunTxResult[] = [];
    const dropped: PoolTx[] = [];
    const predicateResults = new Map<string, Map<string, Uint8Array>>();
    const internal: InternalTx[][] = [];
    let gasUsed = 0n;
    let content: ExtensionContent | undefined;
    const base = sm.depth;
    const pacer = new Pacer();
    sm.checkpoint();
    try {
      await this.applyUpgrades(sm, parent.header.time, time, number);
      // Each sender's runnable txs in nonce order; across senders the best tip first (geth's
      // TransactionsByPriceAndNonce), ties by arrival.
      // The pool's reorg at this state (geth's reset): stale txs go, queued ones that can run are
      // promoted, the caps apply, idle senders' queued txs expire.
      dropped.push(...this.pool.expire());
      const senders: Array<{ from: string; nonce: bigint }> = [];
      for (const from of this.pool.senders()) {
        const nonce = (await sm.getAccount(createAddressFromString(from)))?.nonce ?? 0n;
        dropped.push(...this.pool.reset(from, nonce));
        senders.push({ from, nonce });
      }
      dropped.push(...this.pool.truncate());
      const queues: PoolTx[][] = [];
      for (const { from, nonce } of senders) {
        const run = this.pool.executable(from, nonce);
        if (run.length > 0) queues.push(run);
      }
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
          this.scheduleRetry();
          queues.splice(best, 1);
          continue;
        }
        if (p.tx.gasLimit > fees.room - gasUsed) {
          // The block is full: the rest go in the next one (under ACP-176, once capacity is back).
          this.awaitCapacity(fees, timeMs, p.tx.gasLimit, p.tx.gasLimit - (fees.room - gasUsed));
          queues.splice(best, 1);
          continue;
        }
        let result: RunTxResult;
        const depth = sm.depth;
        // The tx allow list again, at this block's state: a sender removed since admission is dropped.
        if (this.hasTxAllowList && !(await txAllowed(sm, this.opts.precompiles, time, createAddressFromString(p.fromHex)))) {
          dropped.push(p);
          queues.splice(best, 1);
          continue;
        }
        // Warp predicates are verified before the tx runs; the failures go in the header.
        const predicates = txPredicates.get(p.tx);
        const invalid = predicates && this.opts.warpReceive ? verifyPredicates(predicates, this.opts.warpReceive) : undefined;
        if (predicates && invalid) setRunningPredicates(vm.evm, { ...predicates, invalid });
        try {
          this.internalRecorder?.start();
          // Sliced, never aborted: a long tx does not hold the node's other requests while its block is built.
          result = await paced(vm, pacer, () =>
            runTx(vm, { tx: p.tx, block: exec, blockGasUsed: gasUsed, skipHardForkValidation: true, skipBlockGasLimitValidation: true }),
          );
        } catch {
          // No longer valid against this state (its funds went elsewhere): geth drops it. What it
          // changed goes, whatever checkpoints the throw left open.
          await sm.unwindTo(depth);
          dropped.push(p);
          queues.splice(best, 1);
          continue;
        } finally {
          setRunningPredicates(vm.evm, undefined);
        }
        if (invalid) predicateResults.set(bytesToHex(p.hash).slice(2), new Map([[WARP_ADDRESS_HEX, invalidBits(invalid)]]));
        await creditBaseFee(vm, result.totalGasSpent, fees.baseFee, this.devCoinbase ?? rules.coinbase);
        gasUsed += result.totalGasSpent;
        included.push(p);
        results.push(result);
        if (this.internalRecorder) internal.push(this.internalRecorder.take());
        queues[best]!.shift();
        if (queues[best]!.length === 0) queues.splice(best, 1);
      }
      // coreth's atomic txs come after the EVM txs, in what capacity they left.
      content = await this.extension?.assemble({ sm, baseFee: fees.baseFee, room: fees.room - gasUsed }, (gas) =>
        gas === undefined ? this.scheduleRetry() : this.awaitCapacity(fees, timeMs, fees.room - gasUsed + gas, gas),
      );
      await sm.commit();
    } catch (err) {
      content?.abandoned();
      await sm.unwindTo(base);
      throw err;
    }
    // Those still in the pool could not run here: they leave it (a pending one's successors wait in the queue).
    for (const p of dropped) this.pool.remove(p);
    await this.forgetAll(dropped);
    if (included.length === 0 && !content && this.blocksToMine === 0) {
      if (!this.hasRunnable) this.waitingSince = undefined;
      return;
    }
    let superseded: PoolTx[];
    try {
      const stateRoot = await sm.getStateRoot();
      const committed = await this.commitBlock(
        parent,
        {
          number,
          time,
          timeMs,
          fees,
          coinbase: this.devCoinbase ?? rules.coinbase,
          stateRoot,
          gasUsed,
          predicateResults: predicateResultsBytes(predicateResults),
          content,
        },
        included,
        results,
      );
      const { records } = committed;
      superseded = committed.superseded;
      if (this.internalRecorder) {
        this.builtByBlock.set(hex(this.head.hash), { number, txs: included.map((p) => p.tx), internal, records });
        // A follower that fell this far behind decodes and runs the older blocks' txs again instead.
        if (this.builtByBlock.size > KEPT_INTERNAL_BLOCKS) this.builtByBlock.delete(this.builtByBlock.keys().next().value!);
      }
      if (this.blocksToMine > 0) this.blocksToMine--;
      if (this.capacityAt !== undefined && this.capacityAt <= timeMs) this.capacityAt = undefined;
      // As Anvil's exact timestamp: later blocks go on from it (the offset follows), rather than
      // wait, at the head's time, for the clock to catch up (with ACP-176's capacity refilled by time).
      if (this.nextTimestamp !== undefined) this.timeOffset = this.nextTimestamp - this.clockSeconds();
      this.nextTimestamp = undefined;
      this.nextBaseFee = undefined;
    } catch (err) {
      // Nothing was written: the builder's state goes back to the head's (with its edits), the txs stay pending.
      content?.abandoned();
      this.nodes.unflushed();
      await sm.setStateRoot(this.stateRootOf(this.head));
      throw err;
    }
    // After the block's write: a failure here is the journal's, and a restart drops a stale entry anyway (nonce too low).
    await this.forgetAll(superseded);
  }

  private async commitBlock(
    parent: StoredBlock,
    b: {
      number: bigint;
      time: bigint;
      timeMs: bigint;
      fees: NextFees;
      coinbase: Uint8Array;
      stateRoot: Uint8Array;
      gasUsed: bigint;
      predicateResults: Uint8Array;
      content: ExtensionContent | undefined;
    },
    included: PoolTx[],
    results: RunTxResult[],
  ): Promise<{ records: TxRecord[]; superseded: PoolTx[] }> {
    const records: TxRecord[] = [];
    const receipts: Uint8Array[] = [];
    const bloom = new Bloom();
    for (let i = 0; i < included.length; i++) {
      const p = included[i]!;
      const r = results[i]!;
      const logs: EvmLog[] = (r.execResult.logs ?? []).map(([address, topics, data]) => ({ address, topics, data }));
      const record: TxRecord = {
        hash: p.hash,
        from: p.from,
        status: r.execResult.exceptionError ? 0 : 1,
        cumulativeGasUsed: r.receipt.cumulativeBlockGasUsed,
        gasUsed: r.totalGasSpent,
        effectiveGasPrice: effectivePrice(p, b.fees.baseFee),
        ...(r.createdAddress ? { contractAddress: r.createdAddress.bytes } : {}),
        logs,
      };
      records.push(record);
      bloom.or(r.bloom);
      receipts.push(encodeReceipt(r.receipt, p.tx.type));
    }
    const header: CorethHeader = {
      parentHash: parent.hash,
      uncleHash: EMPTY_UNCLES,
      coinbase: b.coinbase,
      stateRoot: b.stateRoot,
      // A pool tx's bytes are its encoding (decoded strictly, they re-encode to themselves).
      txHash: listRoot(included.map((p) => p.bytes)),
      receiptHash: listRoot(receipts),
      bloom: bloom.bitvector,
      difficulty: 1n,
      number: b.number,
      gasLimit: b.fees.gasLimit,
      gasUsed: b.gasUsed,
      time: b.time,
      extra: b.fees.extra(b.gasUsed, b.predicateResults, b.content?.gasUsed),
      mixDigest: new Uint8Array(32),
      nonce: new Uint8Array(8),
      ...this.opts.flavor.headerExtras,
      // coreth's ExtDataHash: keccak256(rlp(extData)) (the flavor's empty hash without atomic txs).
      ...(b.content ? { extDataHash: keccak_256(RLP.encode(b.content.extData)), extDataGasUsed: b.content.gasUsed } : {}),
      baseFee: b.fees.baseFee,
      blockGasCost: b.fees.blockGasCost,
      blobGasUsed: 0n,
      excessBlobGas: 0n,
      parentBeaconRoot: new Uint8Array(32),
      timeMilliseconds: b.timeMs,
      minDelayExcess: parent.header.minDelayExcess ?? 0n,
    };
    const body = included.map(bodyTx);
    const extData = b.content?.extData;
    const { bytes, hash } = sealBlock(header, body, extData);
    const block: StoredBlock = { header, hash, body, size: bytes.length, ...(extData ? { extData } : {}) };
    const batch = new WriteBatch();
    const settled = this.nodes.flushInto(batch);
    this.store.put(
      batch,
      block,
      bytes,
      records,
      included.map((p) => p.hash),
    );
    for (const p of included) {
      batch.del(this.journal, p.hash);
      if (p.impersonated) batch.del(this.senders, p.hash);
    }
    // The block's state root includes the edits made on its parent; replaying it (a trace) starts there.
    if (this.editedRoot) {
      batch.del(this.devState, EDITED_ROOT_KEY);
      batch.put(this.devState, block.hash, this.editedRoot);
    }
    await b.content?.write(batch, block);
    const announce = await this.opts.acceptance?.prepare({ id: block.hash, parentID: parent.hash, height: b.number, timestamp: b.time, bytes }, batch);
    const nextRules = await this.rulesAfter(this.builder.stateManager as MerkleStateManager, b.time);
    await this.db.write(batch);
    settled();
    this.head = block;
    this.editedRoot = undefined;
    this.headRules = nextRules;
    this.store.remember(block, records);
    decodedTxs.set(
      block,
      included.map((p) => p.tx),
    );
    // A same-nonce replacement that arrived while the block was built leaves with the included tx.
    const inBlock = new Set(included);
    const superseded = included.flatMap((p) => this.pool.included(p)).filter((p) => !inBlock.has(p));
    b.content?.accepted();
    this.waitingSince = this.hasRunnable ? Date.now() : undefined;
    announce?.();
    this.emit('block', { block, txs: included.map((p) => p.tx), records });
    return { records, superseded };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unhold?.();
    clearTimeout(this.soon);
    if (this.retry) clearTimeout(this.retry);
    if (this.intervalTimer) clearInterval(this.intervalTimer);
    clearInterval(this.evictTimer);
    await this.loop;
    for (const w of this.waiters.splice(0)) w.resolve();
    // Edits that came after the last round (a revert or a load rebuilds the node under them) are not applied.
    for (const e of this.devEdits.splice(0)) e.done(new Error('the state edit was not applied: the chain was closed (the node was reverted, loaded or reset)'));
  }
}

// Running txs on @ethereumjs/vm with coreth's rules: a VM per state (the builder's, the readers'),
// the execution context of a block (coinbase = blackhole, PREVRANDAO = 1 in built blocks, the
// ACP-176 base fee), BLOCKHASH answered with coreth's hashes, the deprecated native-asset contracts
// that revert, and the fee credit coreth makes (the whole fee to the coinbase, nothing burned).
import { createBlock, type Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { type CustomPrecompile, EVMError, type ExecResult, type Message } from '@ethereumjs/evm';
import { type GasWatch, type WatchSlot, watchedOpcodes } from './gaswatch.js';
import { asCustomOpcode, type CustomOpcodes, ownEntries } from './opcodes.js';
import { keepJumpAnalyses } from './jumpdests.js';
import { gethError as frameError, type Pacer } from './trace/index.js';
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { CacheType, CODEHASH_PREFIX, MerkleStateManager } from '@ethereumjs/statemanager';
import {
  Account,
  Address,
  bigIntToBytes,
  bigIntToUnpaddedBytes,
  concatBytes,
  equalsBytes,
  generateAddress,
  KECCAK256_NULL,
  setLengthLeft,
  unpadBytes,
  ValueEncoding,
} from '@ethereumjs/util';
import { RLP } from '@ethereumjs/rlp';
import { keccak256 } from '../../crypto/keccak.js';
import type { TypedTransaction } from '@ethereumjs/tx';
import { impersonatedSignature } from './txcodec.js';
import { createVM, type VM } from '@ethereumjs/vm';
import type { NodeStore } from './nodes.js';
import type { PrecompileConfig } from './precompiles/config.js';
import { kzgPrecompile } from './kzg.js';
import { installPrecompiles } from './precompiles/index.js';
import type { WarpContext } from './precompiles/warp.js';
import type { ScratchStore } from './overlay.js';
import { AccountEntry, copyOf, ObjectCaches } from './accountcache.js';
import { layered, trieClass, type TrieMemo } from './state.js';
import { type Preimages, preimageLayer } from './preimages.js';
import type { ForkState } from './fork/state.js';
import { forkLayer, ownStorageTrie } from './fork/tries.js';
import { toHex } from '../../encoding/bytes.js';
import type { BlockOverrides } from './callargs.js';
import type { CallReads } from './callreads.js';
import type { ConsoleSink } from './console/sink.js';

/** coreth's deprecated native-asset contracts (nativeasset.DeprecatedContract): revert, no data, no gas. */
const DEPRECATED = ['0100000000000000000000000000000000000000', '0100000000000000000000000000000000000001', '0100000000000000000000000000000000000002'];

const deprecated = (): ExecResult => ({ executionGasUsed: 0n, returnValue: new Uint8Array(), exceptionError: new EVMError(EVMError.errorMessages.REVERT) });

/** coreth's own precompiles (flavor.ts gives them to the C-Chain only). */
export const CORETH_PRECOMPILES: CustomPrecompile[] = DEPRECATED.map((a) => ({ address: new Address(Buffer.from(a, 'hex')), function: deprecated }));

/** What runs at precompile addresses besides Ethereum's: coreth's deprecated contracts, Subnet-EVM's stateful ones. */
export interface ChainPrecompiles {
  custom: CustomPrecompile[];
  stateful: PrecompileConfig[];
  /** The chain's identity for warp messages. */
  warp?: WarpContext;
}

export interface ExecContext {
  number: bigint;
  /** Unix seconds. */
  time: bigint;
  gasLimit: bigint;
  baseFee: bigint;
  /** 1 in blocks the node builds (coreth's PREVRANDAO), 0 at genesis. */
  difficulty: bigint;
  /** The blackhole, or Subnet-EVM's reward address or fee recipient. */
  coinbase: Uint8Array;
  /** BLOBBASEFEE's answer when an eth_call overrides it; else the one of no excess blob gas (1). */
  blobBaseFee?: bigint;
  /** PREVRANDAO's answer in a block a dev control gave one (the header's mix digest); else the difficulty's. */
  prevRandao?: Uint8Array;
}

export type BlockHashes = (number: bigint) => Promise<Uint8Array | undefined>;

/**
 * A state manager over the chain's nodes, at `root`. The long-lived ones (the builder's, the
 * reader's) get caches: a write then stays in the cache until the state root is asked for, instead of
 * rehashing trie nodes at every account write a tx makes. Trie reads may go through `memo`, which
 * the builder and the readers share: a root names its content forever, and the builder reads at the
 * head (and, after each evm_revert, at the snapshot's root again) what calls read there before.
 * A reader (`reader`) is a ReaderStateManager. With `preimages` (the builder's, the genesis's), the
 * keys its tries write are kept there.
 */
export function stateAt(
  nodes: NodeStore | ScratchStore,
  common: Common,
  root: Uint8Array | undefined,
  multiCoin: boolean,
  { cacheEntries = 0, memo, reader = false, preimages }: { cacheEntries?: number; memo?: TrieMemo; reader?: boolean; preimages?: Preimages } = {},
): CountedStateManager {
  const opts = { useKeyHashing: true, db: nodes, valueEncoding: ValueEncoding.Bytes, common, ...(root ? { root } : {}) } as const;
  const fork = nodes.fork;
  const Trie = trieClass(multiCoin, memo, layered(fork && forkLayer(fork), preimages && preimageLayer(preimages)));
  const trie = new Trie(opts);
  // The reader's caches hold only what one call wrote, reverted when it ends (its memo keeps the
  // reads): ordered maps, since an LRU cache emptied of its last entry clears arrays of its full size.
  const cache = (size: number) => ({ type: reader ? CacheType.ORDERED_MAP : CacheType.LRU, size });
  const caches =
    cacheEntries > 0 ? new ObjectCaches({ account: cache(cacheEntries), storage: cache(cacheEntries), code: cache(Math.ceil(cacheEntries / 20)) }) : undefined;
  const sm = reader ? new ReaderStateManager({ trie, common, caches }) : new CountedStateManager({ trie, common, caches });
  sm.fork = fork;
  return sm;
}

/**
 * A state manager that knows how many checkpoints are open. @ethereumjs's runTx can throw with a
 * frame's checkpoint still open (an exception out of a precompile); the caller's next commit would
 * then close the wrong layer, and a block's state root would be computed inside a checkpoint whose
 * trie nodes never reach the store. Whoever opens a checkpoint unwinds to its own depth instead.
 */
export class CountedStateManager extends MerkleStateManager {
  depth = 0;
  /** A forked chain's upstream state, read where the chain's own lacks a node or code. */
  fork: ForkState | undefined;

  // Not async: callers open a checkpoint without awaiting it, as the base class's takes effect at once.
  override checkpoint(): Promise<void> {
    const opened = super.checkpoint();
    this.depth++;
    return opened;
  }

  // The depth follows the base class's count, failure or not: a flush at depth 0 that fails (a fork's
  // upstream gone while a deletion fetches a sibling node) does so after the checkpoint was closed,
  // and an unwind must not revert a checkpoint that is no longer there.
  override async commit(): Promise<void> {
    try {
      await super.commit();
    } finally {
      this.depth = this._checkpointCount;
    }
  }

  override async revert(): Promise<void> {
    try {
      await super.revert();
    } finally {
      this.depth = this._checkpointCount;
    }
  }

  /** Whether the state must be set back to a root (`resetTo`) before it is used again. */
  stale = false;

  /**
   * Back to `root`, dropping what the caches, their journals and the kept storage tries hold: after
   * a write that failed midway (a flush that threw left part of its writes in the tries, the rest in
   * the caches). The caches go first: setStateRoot would flush them, and could fail on the same
   * write again. Checkpoints left open go too. The state is `stale` until this succeeds.
   */
  async resetTo(root: Uint8Array): Promise<void> {
    this.stale = true;
    if (this._caches instanceof ObjectCaches) this._caches.forgetAll();
    else this.clearCaches();
    this._trie.flushCheckpoints();
    this._checkpointCount = 0;
    this.depth = 0;
    this.originalStorageCache.clear();
    await this.setStateRoot(root);
    this.stale = false;
  }

  /**
   * `resetTo` that never throws: after a failed write, the write's error is the one to report. A
   * state that could not go back stays `stale`, and the chain's next round resets it first.
   */
  tryResetTo(root: Uint8Array): Promise<void> {
    return this.resetTo(root).catch(() => undefined);
  }

  /**
   * A storage write goes to the storage cache only, from which reads of the slot are then answered.
   * @ethereumjs 10.1.3's putStorage means to do the same (`cache.put(...) ?? writeTrie(...)`), but
   * the cache's put returns nothing, so every SSTORE also rewrote the storage trie, hashing its path
   * inside the tx's checkpoints (a tenth of an ERC-20 transfer's estimate, 0.15 ms of a block of one
   * transfer). The base class writes the cache to the tries when its last checkpoint closes: the
   * builder's at the block's end; a reader's calls end in a revert, which leaves nothing to write.
   * Until then an account's storage root is the block's first (what the CREATE collision check of
   * EIP-7610 reads), as in geth's state, whose account roots are updated with the block's root.
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const storage = this._caches?.storage;
    if (!storage) return super.putStorage(address, key, value);
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    if (value.length > 32) throw new Error('Storage value cannot be longer than 32 bytes');
    if (!(await this.getAccount(address))) throw new Error('putStorage() called on non-existing account');
    storage.put(address, key, RLP.encode(unpadBytes(value)));
  }

  /**
   * A storage write to its trie (the flush at depth 0, clearStorage), whose failure is thrown. The base
   * class runs the write in a callback it never catches: a trie put or delete that threw (on a fork,
   * the upstream failing while a deletion fetched a sibling node) left its promise pending for good,
   * and the block round with it. The trie is already kept by account (`_getStorageTrie`); the base
   * class also kept it under the unhashed address, an entry nothing reads.
   */
  protected override _modifyContractStorage(
    address: Address,
    account: Account,
    modifyTrie: (trie: MerklePatriciaTrie, done: () => void) => void,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const trie = this._getStorageTrie(address, account);
      const done = () => {
        account.storageRoot = trie.root();
        this.putAccount(address, account).then(resolve, reject);
      };
      try {
        const modified: unknown = modifyTrie(trie, done);
        if (modified instanceof Promise) modified.catch(reject);
      } catch (err) {
        reject(err);
      }
    });
  }

  /**
   * A deleted account's storage trie goes with it. The base class keeps storage tries by address
   * until a revert or a setStateRoot (asking for the root clears nothing), and reads an account's
   * storage from the one it keeps, not from the account's storage root: an account made again at
   * that address in a later block (a Subnet-EVM precompile disabled, then enabled again) would find
   * its old slots, and its new writes would go on top of them.
   */
  override async deleteAccount(address: Address): Promise<void> {
    await super.deleteAccount(address);
    delete this._storageTries[toHex(keccak256(address.bytes))];
  }

  // An account the cache holds as an object is copied, not decoded from RLP (accountcache.ts).
  override async getAccount(address: Address): Promise<Account | undefined> {
    const entry = this._caches?.account?.get(address);
    if (entry instanceof AccountEntry) return entry.copy();
    return super.getAccount(address);
  }

  /** On a fork, code the chain has not stored is fetched first: the base class reads missing code as none. */
  override async getCode(address: Address): Promise<Uint8Array> {
    if (this.fork && this._caches?.code?.get(address) === undefined) {
      const account = await this.getAccount(address);
      if (account && !equalsBytes(account.codeHash, KECCAK256_NULL)) {
        const key = concatBytes(CODEHASH_PREFIX, account.codeHash);
        // The store under the trie's checkpoint layers (a miss in those would be remembered there).
        const store = (this._trie.database() as unknown as { db: { get(k: Uint8Array): Promise<unknown> } }).db;
        await this.fork.ensureCode(
          address.bytes,
          account.codeHash,
          key,
          this.fork.blockOf(this._trie.root()),
          async () => (await store.get(key)) !== undefined,
        );
      }
    }
    return super.getCode(address);
  }

  /** On a fork, a storage trie learns whose it is, to fetch what it lacks. */
  protected override _getStorageTrie(addressOrHash: Address | { bytes: Uint8Array } | Uint8Array, rootAccount?: Account): MerklePatriciaTrie {
    const trie = super._getStorageTrie(addressOrHash as Address | Uint8Array, rootAccount);
    if (this.fork) {
      const hashed = addressOrHash instanceof Uint8Array ? addressOrHash : this.fork.noteAddress(addressOrHash.bytes);
      ownStorageTrie(trie, hashed, this.fork.blockOf(this._trie.root()));
    }
    return trie;
  }

  /** Reverts every checkpoint opened above `depth`. */
  async unwindTo(depth: number): Promise<void> {
    while (this.depth > depth) await this.revert();
  }

  /**
   * After a write under a checkpoint opened at `base` failed: while that checkpoint is open, its
   * revert undoes the write (the caches stay warm). Once it was closed (the flush that closes it at
   * depth 0 failed, or a read after it did), part of the write is in the tries and the rest in the
   * caches: the state goes back to `root` (`tryResetTo`). Never throws.
   */
  async undoFailedWrite(base: number, root: Uint8Array): Promise<void> {
    if (this.depth > base) {
      try {
        await this.unwindTo(base);
        return;
      } catch {
        // Reverting failed too: going back to the root drops what is left.
      }
    }
    await this.tryResetTo(root);
  }
}

/** Whether `address` is in Subnet-EVM's range of stateful precompiles (0x0200…0000 to 0x0200…00ff). */
const isStatefulPrecompile = (address: Uint8Array): boolean => address[0] === 0x02 && address.subarray(1, 19).every((b) => b === 0);

/** Decoded accounts a reader keeps across its calls at one root, at most. */
const KEPT_ACCOUNTS = 10_000;

/** Storage tries a reader keeps across its calls, at most. */
const KEPT_STORAGE_TRIES = 1024;

/**
 * The reader's state manager (eth_call, eth_estimateGas, traces): each call ends in a revert, which
 * empties the base class's storage tries, and a new trie object costs more than most of the storage
 * reads a call then makes through it (@ethereumjs's trie constructor builds a debug logger, hashes
 * the empty root and spreads its options twice: 120-170 µs in the first call after a block). A trie
 * object is kept by account and handed to the next call that reads the account's storage, moved to
 * the account's storage root then: a trie is a view of the store at its root, and reads another
 * root's content once moved there (as setStateRoot moves the account trie), so a contract whose
 * storage a block changed keeps its trie. A fork's storage trie also names the upstream block its
 * root is at, so there tries are kept by account and root and never moved. One that holds a
 * checkpoint is not reused.
 */
export class ReaderStateManager extends CountedStateManager {
  /** What the call under way reads, while one is recorded (answers.ts). */
  reads: CallReads | undefined;
  private readonly keptTries = new Map<string, MerklePatriciaTrie>();
  /** Accounts as read from the account trie at `accountsRoot`, decoded (by unprefixed address hex). */
  private readonly accounts = new Map<string, Account | undefined>();
  private accountsRoot: Uint8Array | undefined;

  /**
   * An account the call has not written is read from the account trie at the reader's root, which
   * the calls at that root read again and again: it is decoded once and kept by address, then
   * handed to the cache as the base class would.
   */
  override async getAccount(address: Address): Promise<Account | undefined> {
    this.reads?.accounts.add(toHex(address.bytes));
    const cache = this._caches?.account;
    if (!cache || cache.get(address) !== undefined) return super.getAccount(address);
    const root = this._trie.root();
    if (root !== this.accountsRoot) {
      if (this.accountsRoot === undefined || !equalsBytes(root, this.accountsRoot)) this.accounts.clear();
      this.accountsRoot = root;
    }
    const key = toHex(address.bytes);
    if (this.accounts.has(key)) {
      const kept = this.accounts.get(key);
      cache.put(address, kept);
      return kept && copyOf(kept);
    }
    const account = await super.getAccount(address);
    if (this.accounts.size >= KEPT_ACCOUNTS) this.accounts.clear();
    this.accounts.set(key, account && copyOf(account));
    return account;
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    this.reads?.slots.add(toHex(address.bytes) + toHex(key));
    return super.getStorage(address, key);
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const code = await super.getCode(address);
    if (this.reads) {
      this.reads.accounts.add(toHex(address.bytes));
      this.reads.noteCode(code);
    }
    return code;
  }

  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    // The fee manager writes the block's number: what a call reads after its own write there is not the state's.
    if (this.reads && isStatefulPrecompile(address.bytes)) this.reads.stateOnly = false;
    return super.putStorage(address, key, value);
  }

  protected override _getStorageTrie(addressOrHash: Address | { bytes: Uint8Array } | Uint8Array, rootAccount?: Account): MerklePatriciaTrie {
    if (rootAccount === undefined) return super._getStorageTrie(addressOrHash);
    const hashed = addressOrHash instanceof Uint8Array ? addressOrHash : keccak256(addressOrHash.bytes);
    const addressHex = toHex(hashed);
    const open = this._storageTries[addressHex];
    if (open !== undefined) return open;
    const key = this.fork ? addressHex + toHex(rootAccount.storageRoot) : addressHex;
    const kept = this.keptTries.get(key);
    if (kept !== undefined && !kept.hasCheckpoints() && (!this.fork || equalsBytes(kept.root(), rootAccount.storageRoot))) {
      kept.root(rootAccount.storageRoot);
      this._storageTries[addressHex] = kept;
      return kept;
    }
    const trie = super._getStorageTrie(hashed, rootAccount);
    this.keptTries.delete(key);
    if (this.keptTries.size >= KEPT_STORAGE_TRIES) this.keptTries.delete(this.keptTries.keys().next().value!);
    this.keptTries.set(key, trie);
    return trie;
  }
}

/** The state manager of a VM made by execVM over stateAt. */
export const countedState = (vm: VM): CountedStateManager => vm.stateManager as CountedStateManager;

/** crypto.CreateAddress: a create's address from its sender and nonce (the nonce as RLP's minimal bytes). */
export function createdAddress(from: Uint8Array, nonce: bigint): Uint8Array {
  return generateAddress(from, bigIntToUnpaddedBytes(nonce));
}

/** Where a VM's pacing points find the pacer of the run under way; without one they only run. */
interface PaceSlot extends WatchSlot {
  pacer?: Pacer;
  /**
   * GetHashFn's reference header number, when a run's context overrides the block number: BLOCKHASH
   * of this number or later is zero (coreth hashes only ancestors of the real header).
   */
  hashesBelow?: bigint;
  /** With --dev: what the run under way sends to console.sol's address (see watchConsole). */
  console?: ConsoleSink;
}

const paceSlots = new WeakMap<VM, PaceSlot>();

/** `vm`'s slot, which only a VM made by execVM has. */
function slotOf(vm: VM, who: string): PaceSlot {
  const slot = paceSlots.get(vm);
  if (!slot) throw new Error(`${who}: the VM was not made by execVM`);
  return slot;
}

/** Runs `fn` with the slot's `key` set to `value`, then puts back what it held (runs nest). */
async function withSlot<K extends 'pacer' | 'hashesBelow', T>(vm: VM, key: K, value: PaceSlot[K], fn: () => Promise<T>, who: string): Promise<T> {
  const slot = slotOf(vm, who);
  const outer = slot[key];
  slot[key] = value;
  try {
    return await fn();
  } finally {
    slot[key] = outer;
  }
}

/**
 * Runs `fn` (a runTx on `vm`) with `pacer` answering the VM's pacing points: the run is sliced and,
 * past the pacer's deadline, aborted with its error. An aborted run leaves checkpoints open in the
 * state manager and entries in the EVM's transient storage: the caller discards the VM, or unwinds
 * it (chain.ts withState) and clears them (calls.ts).
 */
export function paced<T>(vm: VM, pacer: Pacer, fn: () => Promise<T>): Promise<T> {
  return withSlot(vm, 'pacer', pacer, fn, 'paced');
}

/**
 * Runs `fn` on `vm` with BLOCKHASH answering zero from block `ref` on (coreth's GetHashFn, whose
 * reference is the real header while the context's number is overridden); undefined: no limit.
 */
export function withHashReference<T>(vm: VM, ref: bigint | undefined, fn: () => Promise<T>): Promise<T> {
  return withSlot(vm, 'hashesBelow', ref, fn, 'withHashReference');
}

/** Has `sink` take what runs on `vm` send to console.sol's address, until the answered function is called. */
export function watchConsole(vm: VM, sink: ConsoleSink): () => void {
  return holdSlot(vm, 'console', sink, 'watchConsole');
}

/** Has `watch` note, until the answered function is called, what runs on `vm` do that depends on their gas limit. */
export function watchGas(vm: VM, watch: GasWatch): () => void {
  return holdSlot(vm, 'watch', watch, 'watchGas');
}

/** Sets the slot's `key` to `value` until the answered function is called (watchers, which do not nest). */
function holdSlot<K extends 'watch' | 'console'>(vm: VM, key: K, value: NonNullable<PaceSlot[K]>, who: string): () => void {
  const slot = slotOf(vm, who);
  slot[key] = value;
  return () => {
    slot[key] = undefined;
  };
}

const JUMP = 0x56;
const JUMPI = 0x57;

/**
 * JUMP and JUMPI as ethereumjs runs them, each then a pacing point: a run can only go on for long
 * by looping (a jump) or by calling (a message, see pacedMessages). As custom opcodes they are
 * async, so the interpreter awaits what the pacer answers: one microtask per jump when no pacer is
 * set, within the noise of a run. The first JUMP run also has interpreters keep their code analyses
 * (jumpdests.ts).
 */
function pacedJumps(common: Common, slot: PaceSlot): CustomOpcodes {
  return ownEntries(common, [JUMP, JUMPI]).map((entry) =>
    asCustomOpcode(entry, {
      logic: (runState, c) => {
        keepJumpAnalyses(runState.interpreter);
        const ran = entry.opHandler(runState, c);
        // ethereumjs's JUMP and JUMPI are synchronous; were one not, its work would come first.
        return ran instanceof Promise ? ran.then(() => slot.pacer?.tick()) : slot.pacer?.tick();
      },
    }),
  );
}

/** Each message a pacing point too (a two-argument listener, which ethereumjs awaits; a throw aborts). */
function pacedMessages(vm: VM, slot: PaceSlot): void {
  vm.evm.events?.on('beforeMessage', (message: Message, resolve?: (result?: unknown) => void) => {
    slot.console?.take(message.to, message.data);
    const pause = slot.pacer?.tick();
    if (pause) void pause.then(() => resolve?.());
    else resolve?.();
  });
}

/**
 * A VM over `stateManager` with the chain's rules. It runs on its own copy of the chain's Common
 * (the same rules and params): ethereumjs's EVM adds a `hardforkChanged` listener to the Common it
 * is given and never removes it, so a VM made on the chain's own Common (a trace's, the Data API's
 * follower's, every few requests) would be kept alive by it, with its state, for as long as the chain.
 */
export async function execVM(chainCommon: Common, stateManager: MerkleStateManager, hashes: BlockHashes, precompiles: ChainPrecompiles): Promise<VM> {
  const common = chainCommon.copy();
  const slot: PaceSlot = {};
  const blockchain = {
    async getBlock(n: number) {
      const beyond = slot.hashesBelow !== undefined && BigInt(n) >= slot.hashesBelow;
      const hash = (beyond ? undefined : await hashes(BigInt(n))) ?? new Uint8Array(32);
      return { hash: () => hash };
    },
    async putBlock() {},
    shallowCopy() {
      return blockchain;
    },
  };
  const vm = await createVM({
    common,
    stateManager,
    // biome-ignore lint/suspicious/noExplicitAny: BLOCKHASH needs only getBlock(n).hash()
    blockchain: blockchain as any,
    evmOpts: {
      customPrecompiles: [kzgPrecompile(chainCommon), ...precompiles.custom],
      customOpcodes: [...pacedJumps(chainCommon, slot), ...watchedOpcodes(chainCommon, slot)],
    },
  });
  pacedMessages(vm, slot);
  paceSlots.set(vm, slot);
  installPrecompiles(vm.evm, precompiles.stateful, precompiles.warp);
  return vm;
}

/** The ethereumjs block a tx executes in: what the opcodes see of the coreth block. */
export function execBlock(common: Common, c: ExecContext): Block {
  // PREVRANDAO reads the mix hash, which holds the difficulty (coreth's 0x44 answers the difficulty).
  const mixHash = c.prevRandao ?? setLengthLeft(bigIntToBytes(c.difficulty), 32);
  const block = createBlock(
    {
      header: {
        number: c.number,
        timestamp: c.time,
        gasLimit: c.gasLimit,
        baseFeePerGas: c.baseFee,
        coinbase: new Address(c.coinbase),
        mixHash,
        difficulty: 0n,
        excessBlobGas: 0n,
        blobGasUsed: 0n,
        parentBeaconBlockRoot: new Uint8Array(32),
      },
    },
    { common, skipConsensusFormatValidation: true, freeze: c.blobBaseFee === undefined },
  );
  const blobBaseFee = c.blobBaseFee;
  if (blobBaseFee !== undefined) block.header.getBlobGasPrice = () => blobBaseFee;
  return block;
}

/** A stored header's fields a message's context takes, BlockOverrides.Apply's in place of its own. */
export interface ContextHeader {
  number: bigint;
  time: bigint;
  gasLimit: bigint;
  difficulty: bigint;
  coinbase: Uint8Array;
  /** Zero, unless hardhat_setPrevRandao gave the block its PREVRANDAO. */
  mixDigest?: Uint8Array;
}

/**
 * The context eth_call and debug_traceCall run a message in on `h`: ethapi.BlockOverrides.Apply's
 * fields in place of the header's, at `baseFee` (the caller's: NoBaseFee's zero, or the override's).
 */
export function overriddenContext(common: Common, h: ContextHeader, baseFee: bigint, o: BlockOverrides | undefined): Block {
  return execBlock(common, {
    number: o?.number ?? h.number,
    time: o?.time ?? h.time,
    gasLimit: o?.gasLimit ?? h.gasLimit,
    baseFee,
    difficulty: o?.difficulty ?? h.difficulty,
    coinbase: o?.coinbase ?? h.coinbase,
    blobBaseFee: o?.blobBaseFee,
    // A block built after hardhat_setPrevRandao answers PREVRANDAO from its mix digest, unless the call overrides the difficulty.
    ...(o?.difficulty === undefined && h.mixDigest?.some((b) => b !== 0) ? { prevRandao: h.mixDigest } : {}),
  });
}

/** runTx credits the coinbase with the tip only (EIP-1559 burns the rest): coreth and Subnet-EVM pay it the base fee too. */
export async function creditBaseFee(vm: VM, gasUsed: bigint, baseFee: bigint, coinbase: Uint8Array): Promise<void> {
  const amount = gasUsed * baseFee;
  if (amount === 0n) return;
  const address = new Address(coinbase);
  // With a zero tip runTx leaves the coinbase untouched, so it may not exist yet.
  const account = (await vm.stateManager.getAccount(address)) ?? new Account();
  account.balance += amount;
  await vm.stateManager.putAccount(address, account);
}

/** geth's text for an EVM error, as receipts, calls and traces give it (core/vm/errors.go; the tracers' table). */
export function gethError(err: EVMError | undefined): string | undefined {
  return err && frameError(err).text;
}

/**
 * Runs `fn` (a runTx of a call on `vm`) without EIP-3607's check that the sender has no code, as
 * geth skips it for calls (SkipAccountChecks): simulating a call from a contract or a multisig is
 * common, and ethereumjs always refuses it. The sender's code hash is hidden from runTx's check
 * and put back as the call's first message starts, before any code runs (a callback to the sender
 * finds its code), and again once the run ends; a run that throws is undone with the hide. The
 * state after holds the sender's code as before. Also for an impersonated account's tx in a block
 * (--dev, as Anvil).
 */
export async function skippingSenderCheck<T>(vm: VM, from: Address, fn: () => Promise<T>): Promise<T> {
  const sm = vm.stateManager;
  const account = await sm.getAccount(from);
  if (!account || equalsBytes(account.codeHash, KECCAK256_NULL)) return fn();
  const codeHash = account.codeHash;
  // In a checkpoint of its own: a run that throws out of a frame (runTx then reverts its own layers,
  // the restore's with them) is undone whole, the hidden code hash with it, whatever the caller's
  // checkpoints (a block keeps the state it unwinds to: the sender must not lose its code there).
  const base = sm instanceof CountedStateManager ? sm.depth : undefined;
  await sm.checkpoint();
  account.codeHash = KECCAK256_NULL;
  await sm.putAccount(from, account);
  const restore = async () => {
    const now = await sm.getAccount(from);
    if (!now || !equalsBytes(now.codeHash, KECCAK256_NULL)) return;
    now.codeHash = codeHash;
    await sm.putAccount(from, now);
  };
  const events = vm.evm.events!;
  const onFirstMessage = (_m: Message, resolve?: (result?: unknown) => void) => {
    events.off('beforeMessage', onFirstMessage);
    restore().then(
      () => resolve?.(),
      () => resolve?.(),
    );
  };
  // ethereumjs awaits every beforeMessage listener before the message runs.
  events.on('beforeMessage', onFirstMessage);
  try {
    const result = await fn();
    await restore();
    await sm.commit();
    return result;
  } catch (err) {
    if (sm instanceof CountedStateManager) await sm.unwindTo(base!);
    else await sm.revert();
    throw err;
  } finally {
    events.off('beforeMessage', onFirstMessage);
  }
}

/**
 * Runs `run` (a runTx of `tx` in a block, built or replayed) as the builder ran it: an impersonated
 * account's tx (its placeholder signature) without EIP-3607's sender check, any other with it.
 */
export function runAsBuilt<T>(vm: VM, tx: TypedTransaction, run: () => Promise<T>): Promise<T> {
  return impersonatedSignature(tx) ? skippingSenderCheck(vm, tx.getSenderAddress(), run) : run();
}

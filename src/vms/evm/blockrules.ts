// What an EVM chain's configuration says of its blocks and txs, apart from any one state: the
// precompile and state upgrades a block crosses, the rules its state sets for the next block, a
// tx's warp predicates and the tx allow list.
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Account, Address } from '@ethereumjs/util';
import type { EvmChainOptions } from './chaintypes.js';
import { activatePrecompile, deactivatePrecompile } from './precompiles/config.js';
import { activeAt, txAllowed } from './precompiles/index.js';
import { type ChainRules, rulesAfter, rulesReadState } from './precompiles/rules.js';
import { PoolError } from './pooltx.js';
import {
  PredicateError,
  type RunningPredicates,
  readPredicates,
  signForReceiver,
  type TxPredicates,
  verifyPredicates,
  withPredicateGas,
} from './warp/receive.js';

/** Parsed warp predicates by tx (each pool tx is decoded once). */
const txPredicates = new WeakMap<TypedTransaction, TxPredicates>();

type RulesOptions = Pick<EvmChainOptions, 'precompiles' | 'stateUpgrades' | 'baseRules' | 'warpReceive'>;

export class BlockRules {
  /** `headTime`: the head's time, which decides whether the warp precompile is on for a new tx. */
  constructor(
    private readonly opts: RulesOptions,
    private readonly headTime: () => bigint,
  ) {}

  /**
   * What changes between the parent's time and this block's, before its txs (Subnet-EVM's
   * ApplyUpgrades): precompiles disabled or enabled, in address order, then state upgrades.
   */
  async applyUpgrades(sm: MerkleStateManager, parentTime: bigint, time: bigint, number: bigint): Promise<void> {
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
   * What the state `sm` (after a block at `time`) sets for the next block: the fee config and the
   * coinbase; `sm` may be left out where they read no state (afterReadsState).
   */
  after(sm: MerkleStateManager | undefined, time: bigint): Promise<ChainRules> {
    return rulesAfter(sm, this.opts.precompiles, time, this.opts.baseRules);
  }

  /** Whether `after` reads the state at `time` (a FeeManager or RewardManager is on). */
  afterReadsState(time: bigint): boolean {
    return rulesReadState(this.opts.precompiles, time);
  }

  /** Whether any period of the tx allow list is configured: only then do admission and building read roles. */
  get hasTxAllowList(): boolean {
    return this.opts.precompiles.some((c) => c.key === 'txAllowListConfig');
  }

  /** Whether the tx allow list lets `from` send at `time` in the state `sm`. */
  txAllowed(sm: MerkleStateManager, time: bigint, from: Address): Promise<boolean> {
    return txAllowed(sm, this.opts.precompiles, time, from);
  }

  /**
   * A tx's warp predicates, when the warp precompile is on at the head: parsed once (a malformed one
   * is refused as subnet-evm's intrinsic gas refuses it), with their intrinsic gas set on the tx.
   */
  readWarpPredicates(tx: TypedTransaction): TxPredicates | undefined {
    if (!this.opts.warpReceive) return undefined;
    const known = txPredicates.get(tx);
    if (known) return known;
    if (!this.warpActive) return undefined;
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

  /** Whether blocks of times `a` and `b` have the same stateful precompiles on (each is on from a time, until another). */
  samePrecompiles(a: bigint, b: bigint): boolean {
    return this.opts.precompiles.every((c) => activeAt(c, a) === activeAt(c, b));
  }

  /** Whether the warp precompile is on at the head (for the next block). */
  get warpActive(): boolean {
    return this.opts.precompiles.some((c) => c.key === 'warpConfig' && activeAt(c, this.headTime()));
  }

  /** A warp message signed for delivery to this chain (see signForReceiver); undefined where the chain receives none. */
  signForDelivery(unsigned: Uint8Array): Uint8Array | undefined {
    return this.opts.warpReceive && this.warpActive ? signForReceiver(unsigned, this.opts.warpReceive) : undefined;
  }

  /** What a re-executed tx (a trace) sees of its warp predicates: verified as when its block was built. */
  predicatesForReplay(tx: TypedTransaction): RunningPredicates | undefined {
    const p = this.readWarpPredicates(tx);
    return p && this.opts.warpReceive ? { ...p, invalid: verifyPredicates(p, this.opts.warpReceive) } : undefined;
  }

  /** A pool tx's predicates as its block runs it (already read at admission), verified now; undefined without any. */
  verifiedPredicates(tx: TypedTransaction): RunningPredicates | undefined {
    const predicates = txPredicates.get(tx);
    const invalid = predicates && this.opts.warpReceive ? verifyPredicates(predicates, this.opts.warpReceive) : undefined;
    return predicates && invalid ? { ...predicates, invalid } : undefined;
  }
}

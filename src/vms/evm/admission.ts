// How a tx gets into an EVM chain's pool: geth's checks against the head's rules and state, the
// journal that makes an admitted tx durable (kill -9 loses no tx whose hash went back), and the
// pool's interplay with both (arrival order, txs that leave the pool leave the journal).
import type { Common } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Account, Address, bytesToHex, toChecksumAddress } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { Clock } from '../../chains/clock.js';
import type { Changes } from '../../chains/states.js';
import { keccak256 } from '../../crypto/keccak.js';
import { type Database, WriteBatch } from '../../storage/db.js';
import type { BlockRules } from './blockrules.js';
import type { UnprotectedTxs } from './chainfile.js';
import { toHex } from '../../encoding/bytes.js';
import type { EvmFlavor } from './flavor.js';
import { TxPool } from './pool.js';
import { feeCaps, MAX_INITCODE_SIZE, type NewPoolTx, PoolError, poolErrors, type PoolTx, TX_MAX_SIZE } from './pooltx.js';
import type { ChainRules } from './precompiles/rules.js';
import { RecoveredSenders } from './sender.js';
import type { StoredBlock } from './store.js';
import { decodeTx, withSender } from './txcodec.js';
import { goFixed, goFloatAbove, goQuoFloat64 } from '../../encoding/gofloat.js';

/** RPCTxFeeCap: 100 AVAX, in ether as checkTxFee reads it, and in wei. */
const TX_FEE_CAP = 100n;
const ETHER = 10n ** 18n;
const TX_FEE_CAP_WEI = TX_FEE_CAP * ETHER;
/** legacypool's evictionInterval: how often idle senders' queued txs are looked for (reads and sends look too). */
const EVICTION_INTERVAL_MS = 60_000;

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

/**
 * The sends of one tx under way past their journal write: the journal entry is theirs until the
 * last of them ends, whatever else asks to forget it meanwhile (one of them may yet add the tx).
 */
interface Admitting {
  count: number;
  /** Someone asked for the entry to go: it goes when the last send ends, unless the pool then holds the tx. */
  orphaned: boolean;
  impersonated: boolean;
}

/** What admission reads of its chain: the head, its rules and its state. */
export interface AdmissionChain {
  readonly common: Common;
  readonly flavor: EvmFlavor;
  readonly head: StoredBlock;
  readonly headRules: ChainRules;
  /** The gas limit a tx is held to: the head's, or evm_setBlockGasLimit's. */
  readonly gasLimit: bigint;
  stateRootOf(block: StoredBlock): Uint8Array;
  account(address: Uint8Array): Promise<Account | undefined>;
  withState<T>(root: Uint8Array, fn: (vm: VM) => Promise<T>): Promise<T>;
}

/** What admission tells its chain, or asks of it. */
export interface AdmissionHooks {
  /** The base fee the pool orders its cheapest txs by: the next block's, as coreth's pool estimates it. */
  poolBaseFee(): bigint;
  /** The chain config's unprotected txs taken over RPC. */
  unprotected?: UnprotectedTxs;
  /** A tx became runnable: a block is owed from now (for the health check), unless one already was. */
  runnable(): void;
}

/**
 * geth's checkTxFee with RPCTxFeeCap: a tx whose fee cap × gas is over 100 AVAX is refused. It
 * compares the fee in ether as a float64: a fee a few wei past the cap rounds to it.
 */
export function checkTxFee(feeCap: bigint, gas: bigint): void {
  const fee = feeCap * gas;
  if (fee <= TX_FEE_CAP_WEI) return;
  const ether = goQuoFloat64(fee, ETHER);
  if (goFloatAbove(ether, TX_FEE_CAP)) throw new PoolError(poolErrors.feeCap(goFixed(ether, 2)));
}

/**
 * How a tx's sender is known: recovered from its signature, set on an impersonated tx (Anvil's
 * placeholder signature), or set on a tx the node signed with the sender's key.
 */
type SenderKind = 'recovered' | 'impersonated' | 'signed';

/** An admitted tx's hash, and the txs that became pending with it (itself among them if it did): what geth announces. */
export interface Admitted {
  hash: Uint8Array;
  promoted: PoolTx[];
}

export class TxAdmission {
  private readonly journal: Database;
  /** The senders of journaled txs from impersonated accounts, by tx hash: their signatures name nobody. */
  private readonly senders: Database;
  private readonly turns = new Turns();
  private readonly recovered = new RecoveredSenders();
  /** By tx hash: sends of the tx that wrote (or are writing) its journal entry and have not ended. */
  private readonly admitting = new Map<string, Admitting>();
  private readonly evictTimer: NodeJS.Timeout;
  /** Replaced, not emptied, when the chain reloads (a revert). */
  private current: TxPool;

  constructor(
    db: Database,
    private readonly clock: Clock,
    private readonly rules: BlockRules,
    private readonly chain: AdmissionChain,
    private readonly hooks: AdmissionHooks,
  ) {
    this.journal = db.prefix('pool');
    this.senders = db.prefix('pool-senders');
    // Heartbeats on the node's clock, so that emulator.advanceClock ages queued txs as it ages blocks.
    this.current = new TxPool(() => clock.nowNs());
    this.evictTimer = setInterval(() => void this.expireQueued(), EVICTION_INTERVAL_MS);
    this.evictTimer.unref();
  }

  get pool(): TxPool {
    return this.current;
  }

  /** A raw tx sent (eth_sendRawTransaction), durably admitted: its hash and the txs it made pending. */
  async send(bytes: Uint8Array, sender?: Address): Promise<Admitted> {
    const tx = decodeTx(bytes, this.chain.common);
    if (sender) withSender(tx, sender);
    return this.submit(bytes, tx, sender !== undefined ? 'impersonated' : 'recovered');
  }

  /**
   * A tx the node signed with `from`'s key (eth_sendTransaction), durably admitted. coreth's pool
   * takes such a tx as the object it signed, its sender cached by the signing (types.Sender's cache):
   * its bytes are not decoded again nor its sender recovered, some 200 µs of each send here.
   */
  async sendSigned(tx: TypedTransaction, from: Address): Promise<Admitted> {
    withSender(tx, from);
    return this.submit(tx.serialize(), tx, 'signed');
  }

  /** The checks of SubmitTransaction (the fee cap, replay protection), then the pool's. */
  private submit(bytes: Uint8Array, tx: TypedTransaction, sender: SenderKind): Promise<Admitted> {
    checkTxFee(feeCaps(tx).feeCap, tx.gasLimit);
    if (tx.type === 0 && !tx.supports(155) && !this.unprotectedAllowed(tx)) throw new PoolError(poolErrors.unprotected());
    return this.admit(bytes, tx, sender, true);
  }

  /**
   * coreth's UnprotectedAllowed: the chain config allows them all or this one by hash, or the tx is
   * Nick's method (nonce 0, r = s: a keyless deployment, the same address on every chain).
   */
  private unprotectedAllowed(tx: TypedTransaction): boolean {
    const allowed = this.hooks.unprotected;
    if (allowed?.all || allowed?.hashes.has(toHex(tx.hash()))) return true;
    return tx.nonce === 0n && tx.r !== undefined && tx.r === tx.s;
  }

  /**
   * Txs admitted before a restart (or a revert) that no block included: into a new pool, in nonce
   * order. After a revert (`changes`), an empty pool whose journal the rollback put nothing back in
   * stays empty without a read: the journal holds what the pool holds (a tx joins both, and leaves
   * both), so it was empty and the rollback only deleted from it.
   */
  async reload(changes?: Changes): Promise<void> {
    const empty = this.current.size === 0;
    this.current = new TxPool(() => this.clock.nowNs());
    if (empty && changes && !changes.puts(this.journal.keyPrefix)) return;
    const entries = await this.journal.values({ gte: new Uint8Array(), lt: new Uint8Array(33).fill(0xff) });
    const txs = entries
      .map((bytes) => ({ bytes, tx: decodeTx(bytes, this.chain.common) }))
      .sort((a, b) => (a.tx.nonce < b.tx.nonce ? -1 : a.tx.nonce > b.tx.nonce ? 1 : 0));
    for (const { bytes, tx } of txs) {
      const sender = await this.senders.get(tx.hash());
      if (sender) withSender(tx, new Address(sender));
      try {
        await this.admit(bytes, tx, sender !== undefined ? 'impersonated' : 'recovered');
      } catch {
        await this.forget(tx.hash(), sender !== undefined);
      }
    }
  }

  /**
   * Takes a tx out of the journal (and its sender, if impersonated), unless the pool holds it (sent
   * anew: the journal holds what the pool holds) or a send of the same tx is under way: the send that
   * ends last then decides, so that a send answered with the hash never finds its entry deleted by
   * one that failed or a drop made while it waited for its turn.
   */
  private async forget(hash: Uint8Array, impersonated: boolean | undefined): Promise<void> {
    const hashHex = bytesToHex(hash);
    if (this.current.has(hashHex)) return;
    const busy = this.admitting.get(hashHex);
    if (busy) {
      busy.orphaned = true;
      busy.impersonated ||= impersonated === true;
      return;
    }
    // An impersonated tx's entry and sender go in one write: a send of the same tx between two
    // writes would find its sender deleted under it.
    if (impersonated) await this.journal.write(new WriteBatch().del(this.journal, hash).del(this.senders, hash));
    else await this.journal.del(hash);
  }

  /** Takes txs that left the pool out of the journal, so that a restart does not bring them back. */
  async forgetAll(txs: readonly PoolTx[]): Promise<void> {
    for (const p of txs) await this.forget(p.hash, p.impersonated);
  }

  /** The txs a block includes leave the journal in the block's batch. */
  unjournal(batch: WriteBatch, included: readonly PoolTx[]): void {
    for (const p of included) {
      batch.del(this.journal, p.hash);
      if (p.impersonated) batch.del(this.senders, p.hash);
    }
  }

  /** Drops the queued txs of senders idle past the pool's lifetime; undefined if there were none. */
  expireQueued(): Promise<void> | undefined {
    const gone = this.current.expire();
    return gone.length > 0 ? this.forgetAll(gone) : undefined;
  }

  /** anvil_dropTransaction: takes a pending tx out of the pool (and its journal); false if it is not there. */
  async drop(hash: Uint8Array): Promise<boolean> {
    const p = this.current.get(bytesToHex(hash));
    if (!p) return false;
    await this.forgetAll(this.current.remove(p));
    return true;
  }

  /** anvil_dropAllTransactions */
  async dropAll(): Promise<void> {
    for (const p of this.current.all()) await this.drop(p.hash);
  }

  close(): void {
    clearInterval(this.evictTimer);
  }

  /** Checks a tx against the pool and the head's state and adds it; with `journal`, durably first. */
  private async admit(bytes: Uint8Array, tx: TypedTransaction, sender: SenderKind, journal = false): Promise<Admitted> {
    const impersonated = sender === 'impersonated';
    // Taken before the first await: the arrival order.
    const turn = this.turns.take();
    let entered: NewPoolTx | undefined;
    try {
      await this.expireQueued();
      // The state the checks read (the head's, with its dev edits).
      let checked = this.chain.stateRootOf(this.chain.head);
      const validated = await this.validate(bytes, tx, sender);
      const { entry } = validated;
      let { stateNonce } = validated;
      const poolBaseFee = () => this.hooks.poolBaseFee();
      // Asked before the journal write, so that a refused tx costs none.
      const early = this.current.refusal(entry, poolBaseFee);
      if (early) throw new PoolError(early);
      if (journal) {
        entered = entry;
        this.enter(entry.hashHex);
        // In the journal before the pool: a block round can only take (and unjournal) a journaled tx.
        // An impersonated tx's sender with it, in one write: never one without the other.
        if (impersonated) await this.journal.write(new WriteBatch().put(this.senders, entry.hash, entry.from).put(this.journal, entry.hash, bytes));
        else await this.journal.put(entry.hash, bytes);
      }
      await turn.ready;
      // legacypool adds under its lock, against the state of its last reset. A block built since
      // the checks (during the journal write, the turns before this one) took its txs out of the
      // pool and moved their senders' nonces on (a dev edit may have too): unless the pool holds
      // this tx (already known, which add answers), the state checks run again on the new state,
      // so that a tx whose nonce a block has just used (this very tx, sent twice at once) is
      // refused as nonce too low instead of added against the nonce read before the block.
      while (checked !== this.chain.stateRootOf(this.chain.head) && !this.current.has(entry.hashHex)) {
        checked = this.chain.stateRootOf(this.chain.head);
        try {
          stateNonce = await this.checkState(tx, entry.tx.getSenderAddress(), entry.feeCap);
        } catch (err) {
          if (journal) await this.forget(entry.hash, impersonated);
          throw err;
        }
      }
      // The pool may have changed while the journal was written: add checks again.
      const added = this.current.add(entry, stateNonce, poolBaseFee);
      turn.release();
      await this.forgetAll(added.replaced ? [...added.removed, added.replaced] : added.removed);
      if (added.error !== undefined) {
        // Unless a concurrent send of the same tx took the place, its journal entry goes.
        if (journal) await this.forget(entry.hash, impersonated);
        throw new PoolError(added.error);
      }
      if (added.promoted.length > 0) this.hooks.runnable();
      return { hash: entry.hash, promoted: added.promoted };
    } finally {
      turn.release();
      if (entered) await this.leave(entered);
    }
  }

  private enter(hashHex: string): void {
    const busy = this.admitting.get(hashHex);
    if (busy) busy.count++;
    else this.admitting.set(hashHex, { count: 1, orphaned: false, impersonated: false });
  }

  /** The end of a send that wrote its journal entry: the last one forgets an orphaned entry (unless the pool holds the tx). */
  private async leave(entry: NewPoolTx): Promise<void> {
    const busy = this.admitting.get(entry.hashHex)!;
    if (--busy.count > 0) return;
    this.admitting.delete(entry.hashHex);
    if (busy.orphaned) await this.forget(entry.hash, busy.impersonated);
  }

  /** geth's checks of a tx against the head's rules and state, in geth's order: the tx as the pool takes it. */
  private async validate(bytes: Uint8Array, tx: TypedTransaction, sender: SenderKind): Promise<{ entry: NewPoolTx; stateNonce: bigint }> {
    const impersonated = sender === 'impersonated';
    // The hash of the bytes as sent: they are the tx's encoding (decoded strictly, they re-encode to
    // themselves), and hashing them saves encoding the tx again.
    const hash = keccak256(bytes);
    const hashHex = bytesToHex(hash);
    if (this.current.has(hashHex)) throw new PoolError(poolErrors.alreadyKnown());
    if (tx.type > 2) throw new PoolError(poolErrors.typeNotSupported());
    if (bytes.length > TX_MAX_SIZE) throw new PoolError(poolErrors.oversized(bytes.length));
    if (tx.to === undefined && tx.data.length > MAX_INITCODE_SIZE) throw new PoolError(poolErrors.initcode(tx.data.length));
    const gasLimit = this.chain.gasLimit;
    if (tx.gasLimit > gasLimit) throw new PoolError(poolErrors.gasLimit(tx.gasLimit, gasLimit));
    const { feeCap, tipCap } = feeCaps(tx);
    if (tipCap > feeCap) throw new PoolError(poolErrors.tipAboveFeeCap());
    this.rules.readWarpPredicates(tx);
    let from: Address;
    try {
      // Recovered from the bytes as sent (sender.ts). An impersonated tx's sender is set on it
      // (withSender): its placeholder signature recovers nothing; so is the signer of a tx signed here.
      from = sender === 'recovered' ? this.recovered.of(hashHex, tx, bytes) : tx.getSenderAddress();
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
    const minFeeCap = this.chain.flavor.minFeeCap(this.chain.headRules);
    if (feeCap < minFeeCap) throw new PoolError(poolErrors.feeCapTooLow(checksum(), feeCap, minFeeCap));
    const stateNonce = await this.checkState(tx, from, feeCap);
    // Subnet-EVM's tx allow list comes after the nonce and balance checks, under the head's rules.
    if (await this.refusedByAllowList(from)) throw new PoolError(poolErrors.notAllowListed(checksum()));
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

  /** Whether the head's tx allow list (if one is configured) refuses `from`. */
  private async refusedByAllowList(from: Address): Promise<boolean> {
    if (!this.rules.hasTxAllowList) return false;
    return !(await this.chain.withState(this.chain.stateRootOf(this.chain.head), (vm) =>
      this.rules.txAllowed(vm.stateManager as MerkleStateManager, this.chain.head.header.time, from),
    ));
  }

  /** geth's checks of a tx against the head's state, nonce then balance: the sender's nonce there. */
  private async checkState(tx: TypedTransaction, from: Address, feeCap: bigint): Promise<bigint> {
    const account = (await this.chain.account(from.bytes)) ?? new Account();
    if (tx.nonce < account.nonce) throw new PoolError(poolErrors.nonceTooLow(account.nonce, tx.nonce));
    const cost = tx.gasLimit * feeCap + tx.value;
    if (account.balance < cost) throw new PoolError(poolErrors.insufficientFunds(account.balance, cost));
    return account.nonce;
  }
}

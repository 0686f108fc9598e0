// The P-Chain VM: its genesis, the issue pipeline (parse, drop cache, verification on a draft of the
// ledger advanced to the next block time), and blocks built at once for each tx and accepted into
// state, shared memory, proposervm and the index in one batch. Chains created by CreateChainTxs are
// handed to the node once their block is committed.
import { sha256 } from '../../crypto/sha256.js';
import { type Clock, systemClock, unixSeconds } from '../../chains/clock.js';
import type { Acceptance } from '../../chains/acceptance.js';
import type { SharedMemory } from '../../chains/sharedmemory.js';
import { type Database, WriteBatch } from '../../storage/db.js';
import { blockAddresses } from '../components/avax/owners.js';
import { verifyPoP } from '../components/warp/bls.js';
import {
  buildGenesisBlock,
  buildOptionBlock,
  buildProposalBlock,
  buildStandardBlock,
  buildTx,
  CodecError,
  marshalUTXO,
  parseGenesis,
  parseTx,
  UnsupportedTxError,
} from './codec/index.js';
import { nextStakerToReward, rewardStaker } from './rewards.js';
import { type CreatedChain, executeTx, type TxEnv, type TxResult, VerifyError } from './execute/index.js';
import { potentialReward, validatorRecord } from './execute/staking.js';
import { advanceFeeState, FeeError, gasPrice, toGas, txComplexity, VALIDATOR_FEE_CONFIG, validatorFeePrice } from './fees.js';
import type { Ledger } from './ledger.js';
import { ownersOfOutput, PState } from './state.js';
import type { Block, ProposalBlock, SignedTx, UTXO } from './types.js';
import { utxoInputID } from './utxos.js';
import { verifyWarpMessage } from './warpverify.js';
import { toHex } from '../../encoding/bytes.js';

export class IssueError extends Error {}
/** Bytes that are no tx (txs.Parse's error): the service reports it as a parse error, not an issue error. */
export class TxParseError extends IssueError {}

/** deactivateLowBalanceL1Validators, after a standard block's txs: those that could not pay for the next second. */
function deactivateLowBalance(draft: Ledger): void {
  const nextSecond = draft.c.accruedFees + validatorFeePrice(draft.c.l1Excess);
  for (const v of draft.l1Validators.values()) {
    if (v.endAccumulatedFee !== 0n && v.endAccumulatedFee < nextSecond) draft.l1Validators.set(v.validationID, { ...v, endAccumulatedFee: 0n });
  }
}

export interface PChainOptions {
  networkID: number;
  chainID: Uint8Array;
  genesis: Uint8Array;
  subnetOf(chainID: Uint8Array): Uint8Array | undefined;
  clock?: Clock;
  acceptance?: Acceptance;
  /** Called after a block creating a chain is committed (avalanchego's CreateChain on accept). */
  onChainCreated?: (chain: CreatedChain) => Promise<void>;
  /** The node's own node ID (hex): the validator it always sees up. */
  nodeID?: string;
  /** When the node started (unix s): other validators count as up only before it. */
  startedAt?: bigint;
  /** Whether block production is stalled (an emulator fault): verified txs wait, as in a mempool. */
  stalled?: () => boolean;
}

const DROPPED_CACHE = 1024;

/** The addresses a block deals with, published with it on the accepted stream: its txs' owners, and its exports' by destination. */
function addressesOf(block: Block) {
  const txs = [...('txs' in block ? block.txs : []), ...('decisionTxs' in block ? block.decisionTxs : []), ...('tx' in block ? [block.tx] : [])];
  return blockAddresses(block, txs);
}

export class PChain {
  readonly state: PState;
  readonly avaxAssetID: Uint8Array;
  readonly genesisBlockID: Uint8Array;
  /** The genesis' start time: the chain time until the first block. */
  readonly genesisTimestamp: bigint;
  private readonly clock: Clock;
  private lock: Promise<unknown> = Promise.resolve();
  private readonly dropped = new Map<string, string>();
  private closed = false;

  private constructor(
    db: Database,
    private readonly shared: SharedMemory,
    readonly opts: PChainOptions,
  ) {
    this.state = new PState(db);
    this.clock = opts.clock ?? systemClock;
    const g = parseGenesis(opts.genesis);
    this.avaxAssetID = g.utxos[0]?.utxo.assetID ?? new Uint8Array(32);
    this.genesisBlockID = buildGenesisBlock(sha256(opts.genesis)).id;
    this.genesisTimestamp = g.timestamp;
  }

  static async open(db: Database, shared: SharedMemory, opts: PChainOptions): Promise<PChain> {
    const vm = new PChain(db, shared, opts);
    const last = await vm.state.load();
    if (!last) await vm.initGenesis();
    else {
      // A proposal block is accepted together with one of its options; a crash between the two
      // writes leaves the proposal last, and its option is decided again now.
      const block = await vm.state.getBlock(last.id);
      if (block?.type === 29) await vm.acceptOption(block);
    }
    vm.scheduleRewards();
    return vm;
  }

  private rewardTimer: NodeJS.Timeout | undefined;

  /**
   * When the first active L1 validator's balance runs out at today's fee price (the L1 part of
   * GetNextStakerChangeTime): the chain builds a block then, to deactivate it.
   */
  private nextEviction(): bigint | undefined {
    const c = this.state.ledger.c;
    const price = validatorFeePrice(c.l1Excess);
    let first: bigint | undefined;
    for (const v of this.state.ledger.l1Validators.values()) {
      if (v.endAccumulatedFee === 0n) continue;
      const left = v.endAccumulatedFee > c.accruedFees ? v.endAccumulatedFee - c.accruedFees : 0n;
      const at = c.timestamp + left / price;
      if (first === undefined || at < first) first = at;
    }
    return first;
  }

  /** The next time the chain changes by itself: a staker's period ends, or an L1 validator runs dry. */
  private nextChange(): bigint | undefined {
    const staker = nextStakerToReward(this.state.ledger)?.end;
    const eviction = this.nextEviction();
    if (staker === undefined) return eviction;
    return eviction === undefined || staker <= eviction ? staker : eviction;
  }

  /** Wakes the chain at its next change, to build that block even if no tx arrives. */
  private scheduleRewards(): void {
    if (this.rewardTimer) clearTimeout(this.rewardTimer);
    this.rewardTimer = undefined;
    const next = this.nextChange();
    if (next === undefined || this.closed) return;
    const ms = Number(next - this.now()) * 1000;
    this.rewardTimer = setTimeout(() => void this.advance().catch(() => undefined), Math.min(Math.max(ms, 0), 0x7fffffff));
    this.rewardTimer.unref();
  }

  /** Builds whatever the clock makes due (the rewards of stakers whose period ended). */
  advance(): Promise<void> {
    return this.exclusive(() => this.rewardDue());
  }

  /**
   * The blocks the clock makes due, in time order: one proposal block and its option for each staker
   * whose period ended, and an empty standard block at each L1 validator's eviction time.
   */
  private async rewardDue(): Promise<void> {
    if (this.opts.stalled?.()) return;
    for (;;) {
      const staker = nextStakerToReward(this.state.ledger);
      const eviction = this.nextEviction();
      const now = this.nextBlockTime();
      if (eviction !== undefined && eviction <= now && (!staker || eviction < staker.end)) {
        await this.evictionBlock(eviction > this.state.ledger.c.timestamp ? eviction : this.state.ledger.c.timestamp);
        continue;
      }
      if (!staker || staker.end > now) break;
      const parent = this.state.lastAccepted();
      const rewardTx = buildTx({ type: 20, txID: new Uint8Array(Buffer.from(staker.txID, 'hex')) }, []);
      const proposal = buildProposalBlock({ time: staker.end, parentID: parent.id, height: parent.height + 1n, decisionTxs: [], tx: rewardTx });
      await this.commitBlock(proposal, { created: [], spent: [], txs: [], ledger: this.state.ledger.draft() });
      await this.acceptOption(proposal);
    }
    this.scheduleRewards();
  }

  /** A standard block without txs at `time`: advancing the chain time deactivates the L1 validators that ran dry. */
  private async evictionBlock(time: bigint): Promise<void> {
    const draft = this.state.ledger.draft();
    this.advanceTime(draft, time);
    deactivateLowBalance(draft);
    const parent = this.state.lastAccepted();
    const block = buildStandardBlock({ time, parentID: parent.id, height: parent.height + 1n, txs: [] });
    await this.commitBlock(block, { created: [], spent: [], txs: [], ledger: draft });
  }

  /** The option of an accepted proposal block: commit or abort as the node's uptime view decides. */
  private async acceptOption(proposal: ProposalBlock): Promise<void> {
    const u = proposal.tx.unsigned;
    if (u.type !== 20) throw new Error('a proposal block here carries a RewardValidatorTx');
    const draft = this.state.ledger.draft();
    this.advanceTime(draft, proposal.time);
    const staker = draft.stakers.get(Buffer.from(u.txID).toString('hex'));
    const stakerTx = await this.state.getTx(u.txID);
    if (!staker || !stakerTx) throw new Error(`the staker ${Buffer.from(u.txID).toString('hex')} to reward is not in state`);
    const outcome = rewardStaker(draft, staker, stakerTx, proposal.tx, this.opts.nodeID ?? '', this.opts.startedAt ?? 0n);
    const option = buildOptionBlock(outcome.commit ? 31 : 30, { time: proposal.time, parentID: proposal.id, height: proposal.height + 1n });
    await this.commitBlock(option, { created: outcome.created, spent: [], txs: [proposal.tx], ledger: draft }, true);
  }

  /** Writes one block with its effects, through proposervm and the node's acceptors, in one batch. */
  private async commitBlock(block: Block, effects: { created: UTXO[]; spent: Uint8Array[]; txs: SignedTx[]; ledger: Ledger }, option = false): Promise<void> {
    const batch = new WriteBatch();
    const time = block.type === 2 ? 0n : block.time;
    const announce = await this.opts.acceptance?.prepare(
      { option, id: block.id, parentID: block.parentID, height: block.height, timestamp: time, bytes: block.bytes, addresses: addressesOf(block) },
      batch,
    );
    await this.state.commit({ block, ...effects }, batch);
    announce?.();
  }

  /** state.syncGenesis: the allocations' UTXOs, the validators with their rewards, the chains. */
  private async initGenesis(): Promise<void> {
    const g = parseGenesis(this.opts.genesis);
    const draft = this.state.ledger.draft();
    let supply = g.initialSupply;
    for (const tx of g.validators) {
      const u = tx.unsigned;
      if (u.type !== 25) continue;
      const reward = potentialReward(u.end - u.start, u.weight, supply);
      supply += reward;
      draft.stakers.set(toHex(tx.id), validatorRecord(tx.id, u, u.start, reward));
    }
    for (const tx of g.chains) {
      const u = tx.unsigned;
      if (u.type === 15)
        draft.chains.set(toHex(tx.id), { subnetID: toHex(u.subnetID), name: Buffer.from(u.chainName).toString('latin1'), vmID: toHex(u.vmID) });
    }
    draft.c = { timestamp: g.timestamp, supply, feeCapacity: 0n, feeExcess: 0n, l1Excess: 0n, accruedFees: 0n };
    const block = buildGenesisBlock(sha256(this.opts.genesis));
    await this.state.commit({ block, created: g.utxos.map((u) => u.utxo), spent: [], txs: [...g.validators, ...g.chains], ledger: draft });
  }

  private now(): bigint {
    return unixSeconds(this.clock);
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => undefined);
    return run;
  }

  dropReason(txID: Uint8Array): string | undefined {
    return this.dropped.get(toHex(txID));
  }

  private markDropped(txID: Uint8Array, reason: string): void {
    if (this.dropped.size >= DROPPED_CACHE) this.dropped.delete(this.dropped.keys().next().value!);
    this.dropped.set(toHex(txID), reason);
  }

  /** platform.issueTx: verifies the tx, builds its block and accepts it; returns its ID. */
  async issueTx(bytes: Uint8Array): Promise<Uint8Array> {
    let tx: SignedTx;
    try {
      tx = parseTx(bytes);
    } catch (err) {
      if (err instanceof UnsupportedTxError) throw new IssueError('failed verification: failed to calculate tx complexity: unsupported transaction type');
      if (err instanceof CodecError) throw new TxParseError(`couldn't parse tx: ${err.message}`);
      throw err;
    }
    return this.exclusive(async () => {
      if (this.closed) throw new IssueError('node is shutting down');
      const reason = this.dropped.get(toHex(tx.id));
      if (reason !== undefined) throw new IssueError(reason);
      // Stakers whose period ended are rewarded first: a tx block never jumps over a staker's end.
      await this.rewardDue();
      if (this.opts.stalled?.()) return this.hold(tx);
      let built: Built;
      try {
        built = await this.build([tx]);
      } catch (err) {
        if (!(err instanceof VerifyError)) throw err;
        this.markDropped(tx.id, err.message);
        throw new IssueError(`failed verification: ${err.message}`);
      }
      await this.accept(built);
      return tx.id;
    });
  }

  /** Verified txs waiting while block production is stalled, in arrival order (the mempool's part). */
  private readonly waiting = new Map<string, SignedTx>();

  /** Whether `txID` waits for a block (platform.getTxStatus answers Processing). */
  isWaiting(txID: Uint8Array): boolean {
    return this.waiting.has(toHex(txID));
  }

  /** Stalled: the tx is verified against the last accepted state and waits; its ID comes back. */
  private async hold(tx: SignedTx): Promise<Uint8Array> {
    // Issued again while it waits: avalanchego's issueTxFromRPC ignores the mempool's ErrDuplicateTx.
    if (this.waiting.has(toHex(tx.id))) return tx.id;
    try {
      await this.build([tx]);
    } catch (err) {
      if (!(err instanceof VerifyError)) throw err;
      this.markDropped(tx.id, err.message);
      throw new IssueError(`failed verification: ${err.message}`);
    }
    this.waiting.set(toHex(tx.id), tx);
    return tx.id;
  }

  /** The stall cleared: what the clock made due, then each waiting tx in its own block (or dropped, if it no longer verifies). */
  resume(): Promise<void> {
    return this.exclusive(async () => {
      await this.rewardDue();
      for (const [key, tx] of [...this.waiting]) {
        if (this.closed || this.opts.stalled?.()) return;
        this.waiting.delete(key);
        try {
          await this.accept(await this.build([tx]));
        } catch (err) {
          if (!(err instanceof VerifyError)) throw err;
          this.markDropped(tx.id, err.message);
        }
      }
    });
  }

  /** The next block's time: the clock, never before the parent's. */
  nextBlockTime(): bigint {
    const now = this.now();
    const parent = this.state.ledger.c.timestamp;
    return now > parent ? now : parent;
  }

  /** Chain time advanced on `draft` to `time`: fee refill, L1 validator fees, expiries. */
  advanceTime(draft: Ledger, time: bigint): void {
    const c = draft.c;
    const seconds = time - c.timestamp;
    if (seconds <= 0n) return;
    const fee = advanceFeeState({ capacity: c.feeCapacity, excess: c.feeExcess }, seconds);
    const active = BigInt([...draft.l1Validators.values()].filter((v) => v.endAccumulatedFee !== 0n).length);
    let { l1Excess } = c;
    let accrued = c.accruedFees;
    // validators/fee.State.AdvanceTime: the price follows the excess second by second while it
    // moves; at rest (no excess, at or under target) each second costs the minimum price.
    let left = seconds;
    while (left > 0n && (l1Excess > 0n || active > VALIDATOR_FEE_CONFIG.target)) {
      accrued += validatorFeePrice(l1Excess);
      if (active > VALIDATOR_FEE_CONFIG.target) l1Excess += active - VALIDATOR_FEE_CONFIG.target;
      else l1Excess = l1Excess > VALIDATOR_FEE_CONFIG.target - active ? l1Excess - (VALIDATOR_FEE_CONFIG.target - active) : 0n;
      left--;
    }
    accrued += left * validatorFeePrice(l1Excess);
    for (const v of draft.l1Validators.values()) {
      if (v.endAccumulatedFee !== 0n && v.endAccumulatedFee <= accrued) draft.l1Validators.set(v.validationID, { ...v, endAccumulatedFee: 0n });
    }
    for (const [k, expiry] of draft.expiries) if (expiry <= time) draft.expiries.delete(k);
    for (const s of draft.stakers.values()) if (s.kind === 'subnetValidator' && s.end <= time) draft.stakers.delete(s.txID);
    draft.c = { ...c, timestamp: time, feeCapacity: fee.capacity, feeExcess: fee.excess, l1Excess, accruedFees: accrued };
  }

  /** Reads what `txs` spend from state and shared memory, for synchronous execution. */
  private async prefetch(txs: SignedTx[]): Promise<{ utxos: Map<string, UTXO>; atomic: Map<string, Uint8Array> }> {
    const utxos = new Map<string, UTXO>();
    const atomic = new Map<string, Uint8Array>();
    for (const tx of txs) {
      const u = tx.unsigned;
      if (!('base' in u)) continue;
      for (const i of u.base.inputs) {
        const id = utxoInputID(i.utxoID);
        const utxo = await this.state.getUTXO(id);
        if (utxo) utxos.set(toHex(id), utxo);
      }
      if (u.type === 17) {
        for (const i of u.importedInputs) {
          const id = utxoInputID(i.utxoID);
          const raw = await this.shared.get(this.opts.chainID, u.sourceChain, id);
          if (raw) atomic.set(toHex(u.sourceChain) + toHex(id), raw);
        }
      }
    }
    return { utxos, atomic };
  }

  /** Executes `txs` on a draft at the next block time; throws VerifyError with the node's text. */
  private async build(txs: SignedTx[]): Promise<Built> {
    const { utxos, atomic } = await this.prefetch(txs);
    const draft = this.state.ledger.draft();
    const time = this.nextBlockTime();
    this.advanceTime(draft, time);
    const results: TxResult[] = [];
    const spentInBlock = new Set<string>();
    for (const tx of txs) {
      if (tx.unsigned.type === 36 || tx.unsigned.type === 37) {
        const why = verifyWarpMessage(tx.unsigned.message, draft, this.opts);
        if (why) throw new VerifyError(`failed verifying warp messages: ${why}`);
      }
      let gas: bigint;
      try {
        gas = toGas(txComplexity(tx.unsigned));
      } catch (err) {
        if (err instanceof FeeError || err instanceof CodecError) throw new VerifyError(`failed to calculate tx complexity: ${err.message}`);
        throw err;
      }
      const c = draft.c;
      if (gas > c.feeCapacity) throw new VerifyError(`tx exceeds current gas capacity: ${gas} > ${c.feeCapacity}`);
      const env: TxEnv = {
        networkID: this.opts.networkID,
        chainID: this.opts.chainID,
        avaxAssetID: this.avaxAssetID,
        chainTime: time,
        now: this.now(),
        fee: gas * gasPrice({ capacity: c.feeCapacity, excess: c.feeExcess }),
        ledger: draft,
        utxo: (id) => (spentInBlock.has(toHex(id)) ? undefined : utxos.get(toHex(id))),
        atomicUTXO: (chain, id) => atomic.get(toHex(chain) + toHex(id)),
        subnetOf: (chainID) => {
          const rec = draft.chains.get(toHex(chainID));
          return rec ? new Uint8Array(Buffer.from(rec.subnetID, 'hex')) : this.opts.subnetOf(chainID);
        },
        verifyPoP,
        verifyWarp: () => {},
      };
      let result: TxResult;
      try {
        result = executeTx(tx, env);
      } catch (err) {
        if (err instanceof VerifyError) throw new VerifyError(`failed execution: ${err.message}`);
        throw err;
      }
      draft.c = { ...draft.c, feeCapacity: draft.c.feeCapacity - gas, feeExcess: draft.c.feeExcess + gas };
      for (const id of result.consumed) spentInBlock.add(toHex(id));
      for (const u of result.produced) utxos.set(toHex(utxoInputID(u.utxoID)), u);
      results.push(result);
    }
    deactivateLowBalance(draft);
    const parent = this.state.lastAccepted();
    const block = buildStandardBlock({ time, parentID: parent.id, height: parent.height + 1n, txs });
    return { block, txs, results, ledger: draft };
  }

  private async accept(b: Built): Promise<void> {
    const batch = new WriteBatch();
    const created: UTXO[] = [];
    const spent: Uint8Array[] = [];
    for (const [i, r] of b.results.entries()) {
      spent.push(...r.consumed);
      created.push(...r.produced);
      if (r.exported) {
        const elements = r.exported.utxos.map((u) => ({
          utxoID: utxoInputID(u.utxoID),
          utxoBytes: marshalUTXO(u),
          traits: ownersOfOutput(u.output).addresses,
        }));
        this.shared.put(batch, r.exported.destination, this.opts.chainID, elements, (b.block.height << 20n) + (BigInt(i) << 8n));
      }
      if (r.imported) await this.shared.remove(batch, this.opts.chainID, r.imported.source, r.imported.utxoIDs);
    }
    // UTXOs created and spent within the block never reach the store.
    const createdIDs = new Set(created.map((u) => toHex(utxoInputID(u.utxoID))));
    const spentHere = new Set(spent.map(toHex).filter((h) => createdIDs.has(h)));
    const announce = await this.opts.acceptance?.prepare(
      { id: b.block.id, parentID: b.block.parentID, height: b.block.height, timestamp: b.block.time, bytes: b.block.bytes, addresses: addressesOf(b.block) },
      batch,
    );
    await this.state.commit(
      {
        block: b.block,
        created: created.filter((u) => !spentHere.has(toHex(utxoInputID(u.utxoID)))),
        spent: spent.filter((id) => !spentHere.has(toHex(id))),
        txs: b.txs,
        ledger: b.ledger,
      },
      batch,
    );
    announce?.();
    this.scheduleRewards();
    // The chain is served before issueTx returns: a client can use it as soon as it has the tx ID.
    for (const r of b.results) if (r.createdChain) await this.opts.onChainCreated?.(r.createdChain);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.rewardTimer) clearTimeout(this.rewardTimer);
    await this.lock;
  }
}

interface Built {
  block: ReturnType<typeof buildStandardBlock>;
  txs: SignedTx[];
  results: TxResult[];
  ledger: Ledger;
}

// The end of a primary-network staker's period (txs/executor/proposal_tx_executor.go
// RewardValidatorTx): its stake comes back as UTXOs of its own tx, and on commit its reward too
// (a validator's also with the delegatee share its delegators accrued for it; a delegator's split by
// its validator's delegation shares). The node commits when it saw the validator up at least 80% of
// the period; otherwise it aborts and the potential reward leaves the supply again.
import { marshalUTXO } from './codec/index.js';
import { type Hex, type Ledger, ownersOf, type StakerRecord } from './ledger.js';
import type { SignedTx, TransferableOutput, UTXO } from './types.js';
import { toHex } from '../../encoding/bytes.js';

const PERCENT = 1_000_000n;
const UPTIME_REQUIREMENT = 0.8;

/** The staker the current-staker iterator yields first: by end time, delegators before validators, then tx ID. */
export function nextStakerToReward(ledger: Ledger): StakerRecord | undefined {
  let best: StakerRecord | undefined;
  const rank = (s: StakerRecord) => (s.kind === 'primaryDelegator' ? 0 : 1);
  for (const s of ledger.stakers.values()) {
    if (s.kind === 'subnetValidator') continue;
    if (!best || s.end < best.end || (s.end === best.end && (rank(s) < rank(best) || (rank(s) === rank(best) && s.txID < best.txID)))) best = s;
  }
  return best;
}

/** reward.Split: the validator's share (delegatee) and the delegator's remainder. */
export function splitReward(total: bigint, shares: number): [bigint, bigint] {
  const remainderShares = PERCENT - (BigInt(shares) < PERCENT ? BigInt(shares) : PERCENT);
  // Go's uint64 arithmetic: when the product overflows, divide first (losing the sub-1e6 precision).
  const remainder = remainderShares * total > 0xffffffffffffffffn ? remainderShares * (total / PERCENT) : (remainderShares * total) / PERCENT;
  return [total - remainder, remainder];
}

/** The node's view of a validator's uptime over its period: itself always up; others up only before the node started tracking. */
export function uptimeOf(validator: StakerRecord, self: Hex, startedAt: bigint): number {
  if (validator.nodeID === self) return 1;
  const period = validator.end - validator.start;
  if (period <= 0n) return 1;
  const up = startedAt > validator.start ? (startedAt < validator.end ? startedAt : validator.end) - validator.start : 0n;
  return Number(up) / Number(period);
}

export interface RewardOutcome {
  commit: boolean;
  created: UTXO[];
}

/**
 * Applies the end of `staker`'s period to `ledger` (already advanced to its end time), given its
 * staker tx. Returns whether the proposal commits and the UTXOs the chosen option creates.
 */
export function rewardStaker(ledger: Ledger, staker: StakerRecord, stakerTx: SignedTx, rewardTx: SignedTx, self: Hex, startedAt: bigint): RewardOutcome {
  const u = stakerTx.unsigned;
  if (u.type !== 25 && u.type !== 26) throw new Error(`staker ${staker.txID} is not a permissionless staker tx`);
  const validator = staker.kind === 'primaryValidator' ? staker : ledger.primaryValidator(staker.nodeID);
  const commit = validator !== undefined && uptimeOf(validator, self, startedAt) >= UPTIME_REQUIREMENT;
  const stake = u.stakeOuts;
  const outs = u.base.outputs.length;
  const asset = stake[0]!.assetID;
  const utxo = (index: number, out: TransferableOutput['out']): UTXO => ({ utxoID: { txID: stakerTx.id, outputIndex: index }, assetID: asset, output: out });
  const created: UTXO[] = stake.map((o, i) => ({ utxoID: { txID: stakerTx.id, outputIndex: outs + i }, assetID: o.assetID, output: o.out }));
  const rewards: UTXO[] = [];
  const pay = (index: number, amount: bigint, owner: StakerRecord['rewardOwner']) => {
    const r = utxo(index, { type: 7, amount, owners: ownersOf(owner!) });
    created.push(r);
    rewards.push(r);
  };
  if (staker.kind === 'primaryValidator') {
    const delegatee = staker.delegateeReward ?? 0n;
    if (commit) {
      let offset = 0;
      if (staker.potentialReward > 0n) {
        pay(outs + stake.length, staker.potentialReward, staker.rewardOwner);
        offset = 1;
      }
      if (delegatee > 0n) pay(outs + stake.length + offset, delegatee, staker.delegationRewardOwner);
    } else if (delegatee > 0n) {
      pay(outs + stake.length, delegatee, staker.delegationRewardOwner);
    }
  } else if (commit && validator) {
    const [delegatee, delegator] = splitReward(staker.potentialReward, validator.delegationShares ?? 0);
    if (delegator > 0n) pay(outs + stake.length, delegator, staker.rewardOwner);
    if (delegatee > 0n) ledger.stakers.set(validator.txID, { ...validator, delegateeReward: (validator.delegateeReward ?? 0n) + delegatee });
  }
  ledger.stakers.delete(staker.txID);
  if (!commit) {
    ledger.c = { ...ledger.c, supply: ledger.c.supply - staker.potentialReward };
    ledger.aborted.set(toHex(rewardTx.id), true);
  }
  if (rewards.length > 0)
    ledger.rewardUTXOs.set(
      staker.txID,
      rewards.map((r) => toHex(marshalUTXO(r))),
    );
  return { commit, created };
}

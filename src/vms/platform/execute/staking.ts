// Primary-network staking: AddPermissionlessValidatorTx and AddPermissionlessDelegatorTx
// (staker_tx_verification.go), with the local network's staking limits and reward formula.
import { encodeCB58 } from '../../../encoding/cb58.js';
import { compareBytes, toHex } from '../../../encoding/bytes.js';
import { verifyOwners } from '../../components/secp256k1fx/fx.js';
import { ownerRecord, type StakerRecord } from '../ledger.js';
import type { SignedTx, TxOf } from '../types.js';
import { fail, outputsSorted, verifyBaseTx, verifyMemo, verifySpend, verifyTransferableOutput, wrapped } from './base.js';
import type { TxEnv, TxResult } from './env.js';
import { transfer, wrappedFlow } from './subnets.js';

const DAY = 24n * 3600n;

/** genesis.LocalParams' staking config. */
export const STAKING = {
  minValidatorStake: 2_000_000_000_000n,
  maxValidatorStake: 3_000_000_000_000_000n,
  minDelegatorStake: 25_000_000_000n,
  minDelegationFee: 20_000,
  minStakeDuration: DAY,
  maxStakeDuration: 365n * DAY,
  maxValidatorWeightFactor: 5n,
};

const REWARD = {
  maxSubMinConsumptionRate: 20_000n,
  minConsumptionRate: 100_000n,
  mintingPeriod: 365n * DAY * 1_000_000_000n,
  supplyCap: 720_000_000_000_000_000n,
};

/** reward.Calculator.Calculate: durations in ns, as Go's time.Duration, truncating at each division. */
export function potentialReward(durationSeconds: bigint, stake: bigint, supply: bigint): bigint {
  const d = durationSeconds * 1_000_000_000n;
  const remaining = REWARD.supplyCap - supply;
  const rate = REWARD.maxSubMinConsumptionRate * d + REWARD.minConsumptionRate * REWARD.mintingPeriod;
  let reward = remaining * rate * stake * d;
  reward /= REWARD.mintingPeriod * 1_000_000n;
  reward /= supply;
  reward /= REWARD.mintingPeriod;
  return reward > remaining ? remaining : reward;
}

function verifyStakeOuts(u: TxOf<25> | TxOf<26>, env: TxEnv): bigint {
  let total = 0n;
  for (const o of u.stakeOuts) {
    wrapped('failed to verify output', () => verifyTransferableOutput(o));
    const first = u.stakeOuts[0]!.assetID;
    if (compareBytes(o.assetID, first) !== 0) fail(`multiple staked assets: "${encodeCB58(first)}" and "${encodeCB58(o.assetID)}"`);
    total += o.out.type === 22 ? o.out.out.amount : o.out.amount;
  }
  if (!outputsSorted(u.stakeOuts)) fail('outputs not sorted');
  void env;
  return total;
}

function checkDuration(end: bigint, env: TxEnv): void {
  const duration = end - env.chainTime;
  if (end <= env.chainTime || duration < STAKING.minStakeDuration) fail('staking period is too short');
  if (duration > STAKING.maxStakeDuration) fail('staking period is too long');
}

/** The current-staker record of a primary validator's tx, staking from `start`. */
export function validatorRecord(txID: Uint8Array, u: TxOf<25>, start: bigint, potentialReward: bigint): StakerRecord {
  return {
    txID: toHex(txID),
    kind: 'primaryValidator',
    nodeID: toHex(u.nodeID),
    subnetID: toHex(u.subnetID),
    start,
    end: u.end,
    weight: u.weight,
    potentialReward,
    publicKey: u.signer.type === 28 ? toHex(u.signer.publicKey) : undefined,
    pop: u.signer.type === 28 ? toHex(u.signer.proofOfPossession) : undefined,
    delegationShares: u.delegationShares,
    rewardOwner: ownerRecord(u.validatorRewardsOwner.owners),
    delegationRewardOwner: ownerRecord(u.delegatorRewardsOwner.owners),
  };
}

export function addPermissionlessValidator(tx: SignedTx, u: TxOf<25>, env: TxEnv): TxResult {
  if (u.nodeID.every((b) => b === 0)) fail('validator nodeID cannot be empty');
  if (u.stakeOuts.length === 0) fail('no stake');
  if (u.delegationShares > 1_000_000) fail('a staker can only require at most 1000000 shares from delegators');
  wrapped('failed to verify BaseTx', () => verifyBaseTx(u.base, env));
  wrapped('failed to verify validator, signer, or rewards owners', () => {
    if (u.weight === 0n) fail('weight of this validator is too low');
    if (u.signer.type === 28 && !env.verifyPoP(u.signer.publicKey, u.signer.proofOfPossession)) fail('invalid proof of possession');
    verifyOwners(u.validatorRewardsOwner.owners);
    verifyOwners(u.delegatorRewardsOwner.owners);
  });
  const primary = u.subnetID.every((b) => b === 0);
  if ((u.signer.type === 28) !== primary) fail(`invalid signer: hasKey=${u.signer.type === 28} != isPrimaryNetwork=${primary}`);
  const staked = verifyStakeOuts(u, env);
  if (staked !== u.weight) fail(`validator weight mismatch: weight ${u.weight} != stake ${staked}`);
  verifyMemo(u.base);
  if (!primary) fail('not found');
  if (u.weight < STAKING.minValidatorStake) fail('weight of this validator is too low');
  if (u.weight > STAKING.maxValidatorStake) fail('weight of this validator is too large');
  if (u.delegationShares < STAKING.minDelegationFee) fail('staker charges an insufficient delegation fee');
  checkDuration(u.end, env);
  if (compareBytes(u.stakeOuts[0]!.assetID, env.avaxAssetID) !== 0)
    fail(`incorrect staked assetID: ${encodeCB58(env.avaxAssetID)} != ${encodeCB58(u.stakeOuts[0]!.assetID)}`);
  if (env.ledger.primaryValidator(toHex(u.nodeID))) fail(`duplicate validator: NodeID-${encodeCB58(u.nodeID)} on ${encodeCB58(u.subnetID)}`);
  wrappedFlow(() => verifySpend(tx, u.base.inputs, [...u.base.outputs, ...u.stakeOuts], tx.credentials, env));
  const c = env.ledger.c;
  const reward = potentialReward(u.end - env.chainTime, u.weight, c.supply);
  env.ledger.c = { ...c, supply: c.supply + reward };
  env.ledger.stakers.set(toHex(tx.id), validatorRecord(tx.id, u, env.chainTime, reward));
  return transfer(tx, u.base);
}

export function addPermissionlessDelegator(tx: SignedTx, u: TxOf<26>, env: TxEnv): TxResult {
  if (u.stakeOuts.length === 0) fail('no stake');
  wrapped('failed to verify BaseTx', () => verifyBaseTx(u.base, env));
  wrapped('failed to verify validator or rewards owner', () => {
    if (u.weight === 0n) fail('weight of this validator is too low');
    verifyOwners(u.delegationRewardsOwner.owners);
  });
  const staked = verifyStakeOuts(u, env);
  if (staked !== u.weight) fail(`delegator weight is not equal to total stake weight, delegator weight ${u.weight} total stake weight ${staked}`);
  verifyMemo(u.base);
  const primary = u.subnetID.every((b) => b === 0);
  if (!primary) fail('not found');
  if (u.weight < STAKING.minDelegatorStake) fail('weight of this validator is too low');
  checkDuration(u.end, env);
  if (compareBytes(u.stakeOuts[0]!.assetID, env.avaxAssetID) !== 0)
    fail(`incorrect staked assetID: ${encodeCB58(env.avaxAssetID)} != ${encodeCB58(u.stakeOuts[0]!.assetID)}`);
  const validator =
    env.ledger.primaryValidator(toHex(u.nodeID)) ??
    fail(`failed to fetch the validator for NodeID-${encodeCB58(u.nodeID)} on ${encodeCB58(u.subnetID)}: not found`);
  if (u.end > validator.end) fail('proposed staking period is not inside dependent staking period');
  let delegated = validator.weight + u.weight;
  for (const s of env.ledger.stakers.values()) if (s.kind === 'primaryDelegator' && s.nodeID === validator.nodeID) delegated += s.weight;
  const cap = validator.weight * STAKING.maxValidatorWeightFactor;
  if (delegated > (cap < STAKING.maxValidatorStake ? cap : STAKING.maxValidatorStake)) fail('validator would be over delegated');
  wrappedFlow(() => verifySpend(tx, u.base.inputs, [...u.base.outputs, ...u.stakeOuts], tx.credentials, env));
  const c = env.ledger.c;
  const reward = potentialReward(u.end - env.chainTime, u.weight, c.supply);
  env.ledger.c = { ...c, supply: c.supply + reward };
  env.ledger.stakers.set(toHex(tx.id), {
    txID: toHex(tx.id),
    kind: 'primaryDelegator',
    nodeID: validator.nodeID,
    subnetID: toHex(u.subnetID),
    start: env.chainTime,
    end: u.end,
    weight: u.weight,
    potentialReward: reward,
    rewardOwner: ownerRecord(u.delegationRewardsOwner.owners),
  });
  return transfer(tx, u.base);
}

// The subnet txs: CreateSubnetTx, CreateChainTx, AddSubnetValidatorTx, RemoveSubnetValidatorTx,
// TransferSubnetOwnershipTx, each checked in standard_tx_executor.go's order with its texts.
import { encodeCB58 } from '../../../encoding/cb58.js';
import { compareBytes, toHex } from '../../../encoding/bytes.js';
import { verifyOwners, verifySigIndices } from '../../components/secp256k1fx/fx.js';
import { ownerRecord } from '../ledger.js';
import type { FxValue, SignedTx, TxOf } from '../types.js';
import { produce, utxoInputID } from '../utxos.js';
import { verifyPoASubnetAuthorization, verifySubnetAuthorization } from './auth.js';
import { fail, verifyBaseTx, verifyMemo, verifySpend } from './base.js';
import type { TxEnv, TxResult } from './env.js';

const isZero = (b: Uint8Array) => b.every((x) => x === 0);
const DAY = 24n * 3600n;
const YEAR = 365n * DAY;

/** Consume the inputs, produce the outputs: what every tx does on success. */
export const transfer = (tx: SignedTx, base: { inputs: TxOf<34>['base']['inputs']; outputs: TxOf<34>['base']['outputs'] }): TxResult => ({
  consumed: base.inputs.map((i) => utxoInputID(i.utxoID)),
  produced: produce(tx.id, base.outputs),
});

/** An auth value's own Verify() (secp256k1fx.Input: sorted indices). */
export function verifyAuth(auth: FxValue): void {
  if (auth.type === 10) verifySigIndices(auth.sigIndices);
}

export function createSubnet(tx: SignedTx, u: TxOf<16>, env: TxEnv): TxResult {
  verifyBaseTx(u.base, env);
  verifyOwners(u.owner.owners);
  verifyMemo(u.base);
  verifySpend(tx, u.base.inputs, u.base.outputs, tx.credentials, env);
  env.ledger.subnets.set(toHex(tx.id), { owner: ownerRecord(u.owner.owners) });
  return transfer(tx, u.base);
}

export function createChain(tx: SignedTx, u: TxOf<15>, env: TxEnv): TxResult {
  if (isZero(u.subnetID)) fail("new blockchain can't be validated by primary network");
  if (u.chainName.length > 128) fail('name too long');
  if (isZero(u.vmID)) fail('invalid VM ID');
  for (let i = 1; i < u.fxIDs.length; i++) if (compareBytes(u.fxIDs[i - 1]!, u.fxIDs[i]!) >= 0) fail('feature extensions IDs must be sorted and unique');
  if (u.genesis.length > 1024 * 1024) fail('genesis too long');
  for (const c of u.chainName) {
    const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (c > 0x7f || (!letter && !(c >= 0x30 && c <= 0x39) && c !== 0x20)) fail('illegal name character');
  }
  verifyBaseTx(u.base, env);
  verifyAuth(u.auth);
  verifyMemo(u.base);
  const creds = verifyPoASubnetAuthorization(tx, u.subnetID, u.auth, env);
  verifySpend(tx, u.base.inputs, u.base.outputs, creds, env);
  env.ledger.chains.set(toHex(tx.id), { subnetID: toHex(u.subnetID), name: Buffer.from(u.chainName).toString('latin1'), vmID: toHex(u.vmID) });
  return {
    ...transfer(tx, u.base),
    createdChain: { chainID: tx.id, subnetID: u.subnetID, name: Buffer.from(u.chainName).toString('latin1'), vmID: u.vmID, genesis: u.genesis },
  };
}

export function addSubnetValidator(tx: SignedTx, u: TxOf<13>, env: TxEnv): TxResult {
  if (isZero(u.subnetID)) fail("can't add primary network validator with AddSubnetValidatorTx");
  verifyBaseTx(u.base, env);
  if (u.weight === 0n) fail('weight of this validator is too low');
  verifyAuth(u.auth);
  verifyMemo(u.base);
  const duration = u.end - env.chainTime;
  if (u.end <= env.chainTime || duration < DAY) fail('staking period is too short');
  if (duration > YEAR) fail('staking period is too long');
  const nodeID = toHex(u.nodeID);
  const subnetID = toHex(u.subnetID);
  if (env.ledger.validatorOn(subnetID, nodeID))
    fail(`attempted to issue duplicate validator for NodeID-${encodeCB58(u.nodeID)} on subnet ${encodeCB58(u.subnetID)}`);
  const primary = env.ledger.primaryValidator(nodeID) ?? fail(`NodeID-${encodeCB58(u.nodeID)} isn't a current or pending validator of the primary network`);
  if (u.end > primary.end) fail('proposed staking period is not inside dependent staking period');
  const creds = verifyPoASubnetAuthorization(tx, u.subnetID, u.auth, env);
  wrappedFlow(() => verifySpend(tx, u.base.inputs, u.base.outputs, creds, env));
  env.ledger.stakers.set(toHex(tx.id), {
    txID: toHex(tx.id),
    kind: 'subnetValidator',
    nodeID,
    subnetID,
    start: env.chainTime,
    end: u.end,
    weight: u.weight,
    potentialReward: 0n,
  });
  return transfer(tx, u.base);
}

export function removeSubnetValidator(tx: SignedTx, u: TxOf<23>, env: TxEnv): TxResult {
  if (isZero(u.subnetID)) fail("can't remove primary network validator with RemoveSubnetValidatorTx");
  verifyBaseTx(u.base, env);
  verifyAuth(u.auth);
  verifyMemo(u.base);
  const staker =
    env.ledger.validatorOn(toHex(u.subnetID), toHex(u.nodeID)) ??
    fail(`NodeID-${encodeCB58(u.nodeID)} isn't a current or pending validator of ${encodeCB58(u.subnetID)}: not found`);
  if (staker.kind !== 'subnetValidator') fail('attempting to remove permissionless validator');
  const creds = verifySubnetAuthorization(tx, u.subnetID, u.auth, env);
  wrappedFlow(() => verifySpend(tx, u.base.inputs, u.base.outputs, creds, env));
  env.ledger.stakers.delete(staker.txID);
  return transfer(tx, u.base);
}

export function transferSubnetOwnership(tx: SignedTx, u: TxOf<33>, env: TxEnv): TxResult {
  if (isZero(u.subnetID)) fail('cannot transfer ownership of a permissionless subnet');
  verifyBaseTx(u.base, env);
  verifyAuth(u.auth);
  verifyOwners(u.owner.owners);
  verifyMemo(u.base);
  const creds = verifySubnetAuthorization(tx, u.subnetID, u.auth, env);
  wrappedFlow(() => verifySpend(tx, u.base.inputs, u.base.outputs, creds, env));
  const subnet = env.ledger.subnets.get(toHex(u.subnetID))!;
  env.ledger.subnets.set(toHex(u.subnetID), { ...subnet, owner: ownerRecord(u.owner.owners) });
  return transfer(tx, u.base);
}

/** Staker txs report flow failures as "flow check failed: …". */
export function wrappedFlow<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof Error && err.name === 'VerifyError') fail(`flow check failed: ${err.message}`);
    throw err;
  }
}

// The L1 txs (ACP-77): ConvertSubnetToL1Tx, RegisterL1ValidatorTx, SetL1ValidatorWeightTx,
// IncreaseL1ValidatorBalanceTx and DisableL1ValidatorTx, in standard_tx_executor.go's order.
import { sha256 } from '../../../crypto/sha256.js';
import { fromHex, toHex, u32, u64 } from '../../../encoding/bytes.js';
import { encodeCB58 } from '../../../encoding/cb58.js';
import { compareBytes } from '../../../encoding/bytes.js';
import { verifyOwners } from '../../components/secp256k1fx/fx.js';
import { CodecError } from '../../../encoding/packer.js';
import type { L1ValidatorRecord, PChainOwner } from '../ledger.js';
import type { SignedTx, TxOf, UTXO } from '../types.js';
import { parseAddressedCall, parseSignedMessage } from '../../components/warp/message.js';
import { messageTypeName, parsePlatformMessage, type PlatformMessage } from '../warp.js';
import { verifyPermission } from './auth.js';
import { verifyPoASubnetAuthorization } from './auth.js';
import { fail, verifyBaseTx, verifyMemo, verifySpend, wrapped } from './base.js';
import type { TxEnv, TxResult } from './env.js';
import { transfer, verifyAuth } from './subnets.js';

const withLen = (b: Uint8Array) => Buffer.concat([u32(b.length), b]);
const MAX_ACTIVE = 20_000;
/** RegisterL1ValidatorTxExpiryWindow: a day. */
const EXPIRY_WINDOW = 86_400n;

const pOwner = (o: { threshold: number; addresses: Uint8Array[] }): PChainOwner => ({ threshold: o.threshold, addresses: o.addresses.map(toHex) });
const ownersOfP = (o: PChainOwner) => ({ locktime: 0n, threshold: o.threshold, addresses: o.addresses.map(fromHex) });

const activeCount = (env: TxEnv) => [...env.ledger.l1Validators.values()].filter((v) => v.endAccumulatedFee !== 0n).length;

function nodeIDOf(b: Uint8Array): Uint8Array {
  if (b.length !== 20) fail(`invalid hash length: expected 20 bytes but got ${b.length}`);
  return b;
}

/** state.PutL1Validator's checks for a new validator. */
function putNewL1Validator(env: TxEnv, v: L1ValidatorRecord): void {
  for (const s of env.ledger.stakers.values()) {
    if (s.kind === 'subnetValidator' && s.subnetID === v.subnetID && s.nodeID === v.nodeID) fail('L1 validator contains conflicting subnetID + nodeID pair');
  }
  if (env.ledger.l1ValidatorOn(v.subnetID, v.nodeID)) fail('L1 validator contains duplicate subnetID + nodeID pair');
  env.ledger.l1Validators.set(v.validationID, v);
}

/** message.SubnetToL1ConversionID: the conversion data marshalled by the message codec (no type ID). */
export function conversionID(u: TxOf<35>): Uint8Array {
  const vdrs = u.validators.map((v) => Buffer.concat([withLen(v.nodeID), v.publicKey, u64(v.weight)]));
  return sha256(Buffer.concat([Uint8Array.of(0, 0), u.subnetID, u.chainID, withLen(u.address), u32(u.validators.length), ...vdrs]));
}

export function convertSubnetToL1(tx: SignedTx, u: TxOf<35>, env: TxEnv): TxResult {
  if (u.subnetID.every((b) => b === 0)) fail('cannot convert a permissionless subnet');
  if (u.address.length > 4096) fail('address is too long');
  if (u.validators.length === 0) fail('conversion must include at least one validator');
  for (let i = 1; i < u.validators.length; i++) {
    if (compareBytes(u.validators[i - 1]!.nodeID, u.validators[i]!.nodeID) >= 0) fail('conversion validators must be sorted and unique');
  }
  verifyBaseTx(u.base, env);
  for (const v of u.validators) {
    if (v.weight === 0n) fail('validator weight must be non-zero');
    nodeIDOf(v.nodeID);
    if (v.nodeID.every((b) => b === 0)) fail('validator nodeID cannot be empty');
    if (!env.verifyPoP(v.publicKey, v.proofOfPossession)) fail('invalid proof of possession');
    verifyOwners({ locktime: 0n, ...v.remainingBalanceOwner });
    verifyOwners({ locktime: 0n, ...v.deactivationOwner });
  }
  verifyAuth(u.auth);
  verifyMemo(u.base);
  const creds = verifyPoASubnetAuthorization(tx, u.subnetID, u.auth, env);
  const fees = env.ledger.c.accruedFees;
  let balances = 0n;
  u.validators.forEach((v, i) => {
    let end = 0n;
    if (v.balance !== 0n) {
      if (activeCount(env) >= MAX_ACTIVE) fail('already at the max number of active validators');
      end = v.balance + fees;
    }
    balances += v.balance;
    putNewL1Validator(env, {
      validationID: toHex(sha256(Buffer.concat([u.subnetID, u32(i)]))),
      subnetID: toHex(u.subnetID),
      nodeID: toHex(v.nodeID),
      publicKey: toHex(v.publicKey),
      remainingBalanceOwner: pOwner(v.remainingBalanceOwner),
      deactivationOwner: pOwner(v.deactivationOwner),
      startTime: env.chainTime,
      weight: v.weight,
      minNonce: 0n,
      endAccumulatedFee: end,
    });
  });
  verifySpend(tx, u.base.inputs, u.base.outputs, creds, env, balances);
  const subnet = env.ledger.subnets.get(toHex(u.subnetID))!;
  env.ledger.subnets.set(toHex(u.subnetID), {
    ...subnet,
    conversion: { conversionID: toHex(conversionID(u)), chainID: toHex(u.chainID), address: toHex(u.address) },
  });
  return transfer(tx, u.base);
}

/** The platform message an L1 validator tx carries, parsed through its warp and AddressedCall layers. */
function carried<T extends PlatformMessage['type']>(
  message: Uint8Array,
  type: T,
): { msg: Extract<PlatformMessage, { type: T }>; source: Uint8Array; address: Uint8Array } {
  const warp = parseSignedMessage(message);
  const call = parseAddressedCall(warp.payload);
  const msg = parsePlatformMessage(call.payload);
  if (msg.type !== type) throw new CodecError(`wrong payload type: ${messageTypeName(msg.type)}`);
  return { msg: msg as Extract<PlatformMessage, { type: T }>, source: warp.sourceChainID, address: call.sourceAddress };
}

function parsed<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof CodecError) fail(err.message);
    throw err;
  }
}

function verifyL1Conversion(env: TxEnv, subnetID: string, source: Uint8Array, address: Uint8Array): void {
  const conv = env.ledger.subnets.get(subnetID)?.conversion ?? fail(`could not load subnet conversion for ${encodeCB58(fromHex(subnetID))} with: not found`);
  if (conv.chainID !== toHex(source)) fail(`wrong warp message source chain ID expected ${encodeCB58(fromHex(conv.chainID))} but had ${encodeCB58(source)}`);
  if (conv.address !== toHex(address)) fail(`wrong warp message source address expected 0x${conv.address} but got 0x${toHex(address)}`);
}

export function registerL1Validator(tx: SignedTx, u: TxOf<36>, env: TxEnv): TxResult {
  verifyBaseTx(u.base, env);
  verifyMemo(u.base);
  verifySpend(tx, u.base.inputs, u.base.outputs, tx.credentials, env, u.balance);
  const { msg, source, address } = parsed(() => carried(u.message, 1));
  if (msg.subnetID.every((b) => b === 0)) fail('invalid subnet ID');
  if (msg.weight === 0n) fail('invalid weight');
  wrapped('invalid node ID', () => nodeIDOf(msg.nodeID));
  if (msg.nodeID.every((b) => b === 0)) fail('invalid node ID: empty nodeID is disallowed');
  wrapped('invalid owner', () => {
    verifyOwners({ locktime: 0n, ...msg.remainingBalanceOwner });
    verifyOwners({ locktime: 0n, ...msg.disableOwner });
  });
  verifyL1Conversion(env, toHex(msg.subnetID), source, address);
  const now = env.chainTime;
  if (msg.expiry <= now) fail(`warp message expired at ${msg.expiry} and it is currently ${now}`);
  if (msg.expiry - now > EXPIRY_WINDOW)
    fail(`warp message not yet allowed because time is ${msg.expiry - now} seconds in the future but the limit is ${EXPIRY_WINDOW}`);
  const payload = parseAddressedCall(parseSignedMessage(u.message).payload).payload;
  const validationID = sha256(payload);
  const expiryKey = `${msg.expiry.toString(16).padStart(16, '0')}${toHex(validationID)}`;
  if (env.ledger.expiries.has(expiryKey)) fail(`warp message already issued for validationID ${encodeCB58(validationID)}`);
  if (!env.verifyPoP(msg.publicKey, u.proofOfPossession)) fail('invalid proof of possession');
  let end = 0n;
  if (u.balance !== 0n) {
    if (activeCount(env) >= MAX_ACTIVE) fail('already at the max number of active validators');
    end = u.balance + env.ledger.c.accruedFees;
  }
  putNewL1Validator(env, {
    validationID: toHex(validationID),
    subnetID: toHex(msg.subnetID),
    nodeID: toHex(msg.nodeID),
    publicKey: toHex(msg.publicKey),
    remainingBalanceOwner: pOwner(msg.remainingBalanceOwner),
    deactivationOwner: pOwner(msg.disableOwner),
    startTime: now,
    weight: msg.weight,
    minNonce: 0n,
    endAccumulatedFee: end,
  });
  env.ledger.expiries.set(expiryKey, msg.expiry);
  return transfer(tx, u.base);
}

/** The remaining balance of an active validator, refunded as one UTXO at index len(Outs). */
function refund(tx: SignedTx, u: { base: TxOf<34>['base'] }, v: L1ValidatorRecord, env: TxEnv): UTXO[] {
  if (v.endAccumulatedFee === 0n) return [];
  const accrued = env.ledger.c.accruedFees;
  if (v.endAccumulatedFee <= accrued) fail('state corruption: validator should have already been disabled');
  return [
    {
      utxoID: { txID: tx.id, outputIndex: u.base.outputs.length },
      assetID: env.avaxAssetID,
      output: { type: 7, amount: v.endAccumulatedFee - accrued, owners: ownersOfP(v.remainingBalanceOwner) },
    },
  ];
}

export function setL1ValidatorWeight(tx: SignedTx, u: TxOf<37>, env: TxEnv): TxResult {
  verifyBaseTx(u.base, env);
  verifyMemo(u.base);
  verifySpend(tx, u.base.inputs, u.base.outputs, tx.credentials, env);
  const { msg, source, address } = parsed(() => carried(u.message, 3));
  if (msg.nonce === 0xffffffffffffffffn && msg.weight !== 0n) fail('maxUint64 nonce is reserved for removal');
  const v = env.ledger.l1Validators.get(toHex(msg.validationID)) ?? fail('could not load L1 validator: not found');
  if (msg.nonce < v.minNonce) fail(`warp message contains stale nonce ${msg.nonce} must be at least ${v.minNonce}`);
  verifyL1Conversion(env, v.subnetID, source, address);
  const result = transfer(tx, u.base);
  if (msg.weight === 0n) {
    let total = 0n;
    for (const o of env.ledger.l1Validators.values()) if (o.subnetID === v.subnetID) total += o.weight;
    if (total === v.weight) fail('attempting to remove the last L1 validator from a converted subnet');
    result.produced.push(...refund(tx, u, v, env));
    env.ledger.l1Validators.delete(v.validationID);
    return result;
  }
  env.ledger.l1Validators.set(v.validationID, { ...v, minNonce: msg.nonce + 1n, weight: msg.weight });
  return result;
}

export function increaseL1ValidatorBalance(tx: SignedTx, u: TxOf<38>, env: TxEnv): TxResult {
  if (u.balance === 0n) fail('balance must be greater than 0');
  verifyBaseTx(u.base, env);
  verifyMemo(u.base);
  verifySpend(tx, u.base.inputs, u.base.outputs, tx.credentials, env, u.balance);
  const v = env.ledger.l1Validators.get(toHex(u.validationID)) ?? fail('not found');
  let end = v.endAccumulatedFee;
  if (end === 0n) {
    if (activeCount(env) >= MAX_ACTIVE) fail('already at the max number of active validators');
    end = env.ledger.c.accruedFees;
  }
  env.ledger.l1Validators.set(v.validationID, { ...v, endAccumulatedFee: end + u.balance });
  return transfer(tx, u.base);
}

export function disableL1Validator(tx: SignedTx, u: TxOf<39>, env: TxEnv): TxResult {
  verifyBaseTx(u.base, env);
  verifyAuth(u.auth);
  verifyMemo(u.base);
  const v = env.ledger.l1Validators.get(toHex(u.validationID)) ?? fail('could not load L1 validator: not found');
  if (tx.credentials.length === 0) fail('should have the same number of credentials as inputs');
  const cred = tx.credentials[tx.credentials.length - 1]!;
  wrapped('unauthorized modification', () => verifyPermission(tx, u.auth, cred, ownersOfP(v.deactivationOwner), env));
  verifySpend(tx, u.base.inputs, u.base.outputs, tx.credentials.slice(0, -1), env);
  const result = transfer(tx, u.base);
  if (v.endAccumulatedFee === 0n) return result;
  result.produced.push(...refund(tx, u, v, env));
  env.ledger.l1Validators.set(v.validationID, { ...v, endAccumulatedFee: 0n });
  return result;
}

// Checks shared by every tx: BaseTx.SyntacticVerify, the post-Durango empty memo, and the flow
// check (utxo.VerifySpend) with its credentials.
import { sha256 } from '../../../crypto/sha256.js';
import { encodeCB58 } from '../../../encoding/cb58.js';
import { compareBytes, equalBytes, toHex } from '../../../encoding/bytes.js';
import { fail, VerifyError, wrapped } from '../../components/verify/errors.js';
import { verifyTransfer } from '../../components/secp256k1fx/fx.js';
import { verifyAssetID, verifyTransferInput, verifyTransferOutput } from '../../components/secp256k1fx/fx.js';
import { encodeTransferableOutput, marshalOwners } from '../codec/tx.js';
import type { BaseTxFields, FxValue, SignedTx, TransferableInput, TransferableOutput, UTXO } from '../types.js';
import { utxoInputID } from '../utxos.js';
import type { TxEnv } from './env.js';

export { fail, VerifyError, wrapped };

/** TransferableOutput.Verify (a LockOut needs a locktime and holds a TransferOutput). */
export function verifyTransferableOutput(o: TransferableOutput): void {
  verifyAssetID(o.assetID);
  if (o.out.type === 22) {
    if (o.out.locktime === 0n) fail('invalid locktime');
    return verifyTransferOutput(o.out.out);
  }
  verifyTransferOutput(o.out);
}

export function verifyTransferableInput(i: TransferableInput): void {
  verifyAssetID(i.assetID);
  if (i.input.type === 21) {
    if (i.input.locktime === 0n) fail('invalid locktime');
    return verifyTransferInput(i.input.in);
  }
  verifyTransferInput(i.input);
}

/** avax.IsSortedTransferableOutputs: by codec bytes. */
export function outputsSorted(outs: readonly TransferableOutput[]): boolean {
  const keys = outs.map(encodeTransferableOutput);
  return keys.every((k, i) => i === 0 || compareBytes(keys[i - 1]!, k) <= 0);
}

/** utils.IsSortedAndUnique over TransferableInputs: by tx ID, then output index. */
export function inputsSortedUnique(ins: readonly TransferableInput[]): boolean {
  for (let i = 1; i < ins.length; i++) {
    const c = compareBytes(ins[i - 1]!.utxoID.txID, ins[i]!.utxoID.txID);
    if (c > 0 || (c === 0 && ins[i - 1]!.utxoID.outputIndex >= ins[i]!.utxoID.outputIndex)) return false;
  }
  return true;
}

/** txs.BaseTx.SyntacticVerify. */
export function verifyBaseTx(b: BaseTxFields, env: TxEnv): void {
  if (b.networkID !== env.networkID) fail('metadata failed verification: tx has wrong network ID');
  if (!equalBytes(b.blockchainID, env.chainID)) fail('metadata failed verification: tx has wrong chain ID');
  if (b.memo.length > 256) fail(`metadata failed verification: memo exceeds maximum length: ${b.memo.length} > 256`);
  for (const o of b.outputs) wrapped('output failed verification', () => verifyTransferableOutput(o));
  for (const i of b.inputs) wrapped('input failed verification', () => verifyTransferableInput(i));
  if (!outputsSorted(b.outputs)) fail('outputs not sorted');
  if (!inputsSortedUnique(b.inputs)) fail('inputs not sorted and unique');
}

/** avax.VerifyMemoFieldLength after Durango: no memo at all. */
export function verifyMemo(b: BaseTxFields): void {
  if (b.memo.length > 0) fail(`memo exceeds maximum length: ${b.memo.length} > 0`);
}

const utxoIDString = (i: TransferableInput) => `${encodeCB58(i.utxoID.txID)}:${i.utxoID.outputIndex}`;

/** The UTXOs `ins` spend, read from state (utxo.VerifySpend's first step). */
export function consumedUTXOs(ins: readonly TransferableInput[], env: TxEnv): UTXO[] {
  return ins.map((i) => env.utxo(utxoInputID(i.utxoID)) ?? fail(`failed to read consumed UTXO ${utxoIDString(i)} due to: not found`));
}

/** The owners' codec bytes (a concrete struct: version, no type ID), hex: what locked funds are keyed by. */
const ownerKey = (o: UTXO['output']) => toHex(marshalOwners((o.type === 22 ? o.out : o).owners));

/**
 * utxo.VerifySpendUTXOs: credentials match inputs, each input spends its UTXO with a valid
 * signature, locked funds stay locked to their owner and locktime, and unlocked consumption
 * covers unlocked production (`unlockedProduced` holds the fee and any balances the tx funds).
 */
export function verifySpendUTXOs(
  tx: SignedTx,
  utxos: readonly UTXO[],
  ins: readonly TransferableInput[],
  outs: readonly TransferableOutput[],
  creds: readonly FxValue[],
  unlockedProduced: Map<string, bigint>,
  env: TxEnv,
): void {
  if (ins.length !== creds.length) fail(`wrong number of credentials: ${ins.length} inputs != ${creds.length} credentials`);
  const sig = { hash: sha256(tx.unsignedBytes), now: env.now };
  const unlockedConsumed = new Map<string, bigint>();
  const lockedConsumed = new Map<string, bigint>();
  const lockedProduced = new Map<string, { asset: string; locktime: bigint; owner: string; amount: bigint }>();
  const bump = (m: Map<string, bigint>, k: string, v: bigint) => m.set(k, (m.get(k) ?? 0n) + v);
  ins.forEach((input, index) => {
    const utxo = utxos[index]!;
    if (!equalBytes(utxo.assetID, input.assetID))
      fail(`input asset ID does not match UTXO asset ID: ${encodeCB58(input.assetID)} != ${encodeCB58(utxo.assetID)}`);
    let out = utxo.output;
    let locktime = 0n;
    if (out.type === 22) {
      locktime = out.locktime;
      out = out.out;
    }
    let inner = input.input;
    if (inner.type === 21) {
      if (inner.locktime !== locktime) fail(`input locktime does not match UTXO locktime: ${inner.locktime} != ${locktime}`);
      inner = inner.in;
    } else if (env.now < locktime) {
      fail('locked funds not marked as locked');
    }
    wrapped('failed to verify transfer', () => verifyTransfer(inner, creds[index]!, out, sig));
    const asset = toHex(utxo.assetID);
    if (env.now >= locktime) bump(unlockedConsumed, asset, inner.amount);
    else bump(lockedConsumed, `${asset}/${locktime}/${ownerKey(out)}`, inner.amount);
  });
  for (const o of outs) {
    const asset = toHex(o.assetID);
    if (o.out.type !== 22) {
      bump(unlockedProduced, asset, o.out.amount);
      continue;
    }
    const k = `${asset}/${o.out.locktime}/${ownerKey(o.out)}`;
    const prev = lockedProduced.get(k);
    lockedProduced.set(k, { asset, locktime: o.out.locktime, owner: ownerKey(o.out), amount: (prev?.amount ?? 0n) + o.out.out.amount });
  }
  for (const [k, p] of lockedProduced) {
    const consumed = lockedConsumed.get(k) ?? 0n;
    if (p.amount <= consumed) continue;
    const increase = p.amount - consumed;
    const unlocked = unlockedConsumed.get(p.asset) ?? 0n;
    if (increase > unlocked) {
      const ownerID = encodeCB58(sha256(Buffer.from(p.owner, 'hex')));
      fail(`insufficient locked funds: ${ownerID} needs ${increase - unlocked} more ${encodeCB58(Buffer.from(p.asset, 'hex'))} for locktime ${p.locktime}`);
    }
    unlockedConsumed.set(p.asset, unlocked - increase);
  }
  for (const [asset, produced] of unlockedProduced) {
    const consumed = unlockedConsumed.get(asset) ?? 0n;
    if (produced > consumed) fail(`insufficient unlocked funds: needs ${produced - consumed} more ${encodeCB58(Buffer.from(asset, 'hex'))}`);
  }
}

/** utxo.VerifySpend: reads the consumed UTXOs, then VerifySpendUTXOs; the fee (and `extra`) are unlocked production. */
export function verifySpend(
  tx: SignedTx,
  ins: readonly TransferableInput[],
  outs: readonly TransferableOutput[],
  creds: readonly FxValue[],
  env: TxEnv,
  extra = 0n,
): UTXO[] {
  const utxos = consumedUTXOs(ins, env);
  verifySpendUTXOs(tx, utxos, ins, outs, creds, new Map([[toHex(env.avaxAssetID), env.fee + extra]]), env);
  return utxos;
}

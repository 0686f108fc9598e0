// The three feature extensions' semantic checks (secp256k1fx, nftfx, propertyfx): VerifyTransfer,
// VerifyOperation and the shared VerifyCredentials. Which fx runs is the caller's choice (by
// credential type for transfers, by operation type for operations), so each fx re-checks the
// concrete types it was handed, in its own order and with its own texts (secp says "utxos",
// nft and property say "UTXOs").
import type { CredentialBody, FxValue, OperationBody, Output, OutputOwners, TransferInput } from '../types.js';
import { compareBytes } from '../codec/index.js';
import { encodeCB58 } from '../../../encoding/cb58.js';
import { fail } from './errors.js';
import { recoverAddress } from './secp.js';
import { ownersEqual, verifyFxValue, verifyOperationBody, verifyOutput, verifySigIndices, verifyTransferInput } from './values.js';

/** What every signature check needs: the signed hash and the VM clock (unix seconds). */
export interface SigContext {
  hash: Uint8Array;
  now: bigint;
}

/**
 * secp256k1fx.Fx.VerifyCredentials. Counts are checked before any signature, and each signature
 * is recovered before the next index is looked at, so the first bad entry decides the error.
 */
export function verifyCredentials(sigIndices: readonly number[], sigs: readonly Uint8Array[], owners: OutputOwners, ctx: SigContext): void {
  const n = sigIndices.length;
  if (owners.locktime > ctx.now) fail('output is time locked');
  if (owners.threshold < n) fail('input has more signers than expected');
  if (owners.threshold > n) fail('input has less signers than expected');
  if (n !== sigs.length) fail('input expected a different number of signers than provided in the credential');
  for (let i = 0; i < n; i++) {
    const expected = owners.addresses[sigIndices[i]!];
    if (expected === undefined) fail('input referenced a nonexistent address in the output');
    const got = recoverAddress(ctx.hash, sigs[i]!);
    if (compareBytes(expected, got) !== 0) {
      fail(`wrong signature: expected signature from ${encodeCB58(expected)} but got from ${encodeCB58(got)}`);
    }
  }
}

function isCredential(value: FxValue, type: 9 | 14 | 19): value is CredentialBody {
  return value.type === type;
}

/** Fx.VerifyTransfer for fx index `fx`. Only secp can spend; the others refuse outright. */
export function verifyTransfer(fx: number, input: TransferInput, cred: FxValue, utxo: Output, ctx: SigContext): void {
  if (fx !== 0) fail('cant transfer with this fx');
  if (!isCredential(cred, 9)) fail('wrong credential type');
  if (utxo.type !== 7) fail('wrong utxo type');
  // VerifySpend: verify.All(utxo, in, cred), then the amounts, then the signatures.
  verifyOutput(utxo);
  verifyTransferInput(input);
  if (utxo.amount !== input.amount) {
    fail(`utxo amount and input amount are not equal: ${utxo.amount} != ${input.amount}`);
  }
  verifyCredentials(input.sigIndices, cred.signatures, utxo.owners, ctx);
}

/** Fx.VerifyOperation for fx index `fx` (chosen by the operation's type). */
export function verifyOperation(fx: number, op: OperationBody, cred: FxValue, utxos: readonly Output[], ctx: SigContext): void {
  if (fx === 0) return secpOperation(op, cred, utxos, ctx);
  if (utxos.length !== 1) fail('wrong number of UTXOs for the operation');
  if (!isCredential(cred, fx === 1 ? 14 : 19)) fail('wrong credential type');
  const utxo = utxos[0]!;
  if (fx === 1) return nftOperation(op, cred, utxo, ctx);
  return propertyOperation(op, cred, utxo, ctx);
}

function secpOperation(op: OperationBody, cred: FxValue, utxos: readonly Output[], ctx: SigContext): void {
  if (op.type !== 8) fail('wrong operation type');
  if (!isCredential(cred, 9)) fail('wrong credential type');
  if (utxos.length !== 1) fail('wrong number of utxos for the operation');
  const utxo = utxos[0]!;
  if (utxo.type !== 6) fail('wrong utxo type');
  verifyOperationBody(op);
  verifyFxValue(cred);
  verifyOutput(utxo);
  if (!ownersEqual(utxo.owners, op.mintOutput)) fail('wrong mint output created from the operation');
  verifyCredentials(op.mintInput, cred.signatures, utxo.owners, ctx);
}

function nftOperation(op: OperationBody, cred: CredentialBody, utxo: Output, ctx: SigContext): void {
  if (op.type === 12) {
    if (utxo.type !== 10) fail('wrong utxo type');
    verifyOperationBody(op);
    verifyOutput(utxo);
    if (utxo.groupID !== op.groupID) fail('wrong unique ID provided');
    return verifyCredentials(op.mintInput, cred.signatures, utxo.owners, ctx);
  }
  if (op.type === 13) {
    if (utxo.type !== 11) fail('wrong utxo type');
    verifyOperationBody(op);
    verifyOutput(utxo);
    if (utxo.groupID !== op.output.groupID) fail('wrong unique ID provided');
    if (compareBytes(utxo.payload, op.output.payload) !== 0) fail('wrong bytes provided');
    return verifyCredentials(op.input, cred.signatures, utxo.owners, ctx);
  }
  fail('wrong operation type');
}

function propertyOperation(op: OperationBody, cred: CredentialBody, utxo: Output, ctx: SigContext): void {
  if (op.type === 17) {
    if (utxo.type !== 15) fail('wrong utxo type');
    verifyOperationBody(op);
    verifyOutput(utxo);
    if (!ownersEqual(utxo.owners, op.mintOutput)) fail('wrong mint output provided');
    return verifyCredentials(op.mintInput, cred.signatures, utxo.owners, ctx);
  }
  if (op.type === 18) {
    if (utxo.type !== 16) fail('wrong utxo type');
    verifySigIndices(op.input);
    verifyOutput(utxo);
    return verifyCredentials(op.input, cred.signatures, utxo.owners, ctx);
  }
  fail('wrong operation type');
}

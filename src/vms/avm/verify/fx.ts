// The three feature extensions' semantic checks (secp256k1fx, nftfx, propertyfx): VerifyTransfer,
// VerifyOperation and the shared VerifyCredentials. Which fx runs is the caller's choice (by
// credential type for transfers, by operation type for operations), so each fx re-checks the
// concrete types it was handed, in its own order and with its own texts (secp says "utxos",
// nft and property say "UTXOs").
import type { CredentialBody, FxValue, OperationBody, Output, TransferInput } from '../types.js';
import { compareBytes } from '../../../encoding/bytes.js';
import { fail } from '../../components/verify/errors.js';
import { type SigContext, verifyCredentials, verifyTransfer as secpTransfer } from '../../components/secp256k1fx/fx.js';
import { ownersEqual, verifyFxValue, verifyOperationBody, verifyOutput, verifySigIndices } from './values.js';

export { verifyCredentials, type SigContext } from '../../components/secp256k1fx/fx.js';

function isCredential(value: FxValue, type: 9 | 14 | 19): value is CredentialBody {
  return value.type === type;
}

/** Fx.VerifyTransfer for fx index `fx`. Only secp can spend; the others refuse outright. */
export function verifyTransfer(fx: number, input: TransferInput, cred: FxValue, utxo: Output, ctx: SigContext): void {
  if (fx !== 0) fail('cant transfer with this fx');
  secpTransfer(input, cred, utxo, ctx);
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

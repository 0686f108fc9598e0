// secp256k1fx (avalanchego vms/secp256k1fx) as every VM uses it: the Verify() of owners, inputs and
// transfer outputs, VerifyCredentials, and VerifyTransfer. The types are structural so the X- and
// P-Chain models (which number the fx types differently) both fit.
import { encodeCB58 } from '../../../encoding/cb58.js';
import { fail } from '../verify/errors.js';
import { recoverAddress } from './secp.js';

export interface OutputOwners {
  locktime: bigint;
  threshold: number;
  addresses: Uint8Array[];
}

export interface TransferInput {
  amount: bigint;
  sigIndices: number[];
}

/** What every signature check needs: the signed hash and the VM clock (unix seconds). */
export interface SigContext {
  hash: Uint8Array;
  now: bigint;
}

const compare = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b);

/** avax.Asset.Verify. */
export function verifyAssetID(assetID: Uint8Array): void {
  if (assetID.every((b) => b === 0)) fail('empty asset ID is not valid');
}

/** OutputOwners.Verify. */
export function verifyOwners(o: OutputOwners): void {
  if (o.threshold > o.addresses.length) fail('output is unspendable');
  if (o.threshold === 0 && o.addresses.length > 0) fail('output representation should be optimized');
  for (let i = 1; i < o.addresses.length; i++) {
    if (compare(o.addresses[i - 1]!, o.addresses[i]!) >= 0) fail('addresses not sorted and unique');
  }
}

/** Input.Verify: signature indices strictly increasing. */
export function verifySigIndices(indices: readonly number[]): void {
  for (let i = 1; i < indices.length; i++) {
    if (indices[i - 1]! >= indices[i]!) fail('address indices not sorted and unique');
  }
}

/** TransferInput.Verify. */
export function verifyTransferInput(input: TransferInput): void {
  if (input.amount === 0n) fail('input has no value');
  verifySigIndices(input.sigIndices);
}

/** TransferOutput.Verify. */
export function verifyTransferOutput(out: { amount: bigint; owners: OutputOwners }): void {
  if (out.amount === 0n) fail('output has no value');
  verifyOwners(out.owners);
}

/** OutputOwners.Equals: locktime, threshold and the ordered address list. */
export function ownersEqual(a: OutputOwners, b: OutputOwners): boolean {
  return (
    a.locktime === b.locktime &&
    a.threshold === b.threshold &&
    a.addresses.length === b.addresses.length &&
    a.addresses.every((addr, i) => compare(addr, b.addresses[i]!) === 0)
  );
}

/**
 * Fx.VerifyCredentials. Counts are checked before any signature, and each signature is recovered
 * before the next index is looked at, so the first bad entry decides the error.
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
    if (compare(expected, got) !== 0) fail(`wrong signature: expected signature from ${encodeCB58(expected)} but got from ${encodeCB58(got)}`);
  }
}

/**
 * Fx.VerifyTransfer: a secp credential (`credType`, the codec's ID for it) spending a TransferOutput
 * (`outType`) with a TransferInput: verify.All(utxo, in, cred), the amounts, then the signatures.
 */
export function verifyTransfer(
  input: TransferInput,
  cred: { type: number; signatures?: Uint8Array[] },
  utxo: { type: number; amount?: bigint; owners?: OutputOwners },
  ctx: SigContext,
  ids: { credType: number; outType: number } = { credType: 9, outType: 7 },
): void {
  if (cred.type !== ids.credType) fail('wrong credential type');
  if (utxo.type !== ids.outType) fail('wrong utxo type');
  const out = utxo as { amount: bigint; owners: OutputOwners };
  verifyTransferOutput(out);
  verifyTransferInput(input);
  if (out.amount !== input.amount) fail(`utxo amount and input amount are not equal: ${out.amount} != ${input.amount}`);
  verifyCredentials(input.sigIndices, cred.signatures!, out.owners, ctx);
}

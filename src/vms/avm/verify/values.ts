// The `Verify()` methods of the fx types and of avax's transferables: context-free checks that
// the syntactic verifier runs on every value and the fxs run again (verify.All) on UTXOs,
// inputs and operations. Each returns on its first failure, in avalanchego's field order.
import type { FxValue, OperationBody, Output, OutputOwners } from '../types.js';
import { fail } from '../../components/verify/errors.js';
import { verifyOwners, verifySigIndices, verifyTransferInput } from '../../components/secp256k1fx/fx.js';

const MAX_PAYLOAD = 1024; // nftfx.MaxPayloadSize (units.KiB)

export { ownersEqual, verifyAssetID, verifyOwners, verifySigIndices, verifyTransferInput } from '../../components/secp256k1fx/fx.js';

/** nftfx.TransferOutput.Verify, also what a TransferOperation's output runs. */
function verifyNftTransfer(payload: Uint8Array, owners: OutputOwners): void {
  if (payload.length > MAX_PAYLOAD) fail('payload too large');
  verifyOwners(owners);
}

/** Verify() of every verify.State: the mint outputs and owned outputs only check their owners. */
export function verifyOutput(out: Output): void {
  switch (out.type) {
    case 7:
      if (out.amount === 0n) fail('output has no value');
      return verifyOwners(out.owners);
    case 11:
      return verifyNftTransfer(out.payload, out.owners);
    case 6:
    case 10:
    case 15:
    case 16:
      return verifyOwners(out.owners);
  }
}

/** Verify() of the fx operations. nft MintOperation checks its payload before anything else. */
export function verifyOperationBody(op: OperationBody): void {
  switch (op.type) {
    case 8:
      verifySigIndices(op.mintInput);
      verifyOwners(op.mintOutput);
      if (op.transferOutput.amount === 0n) fail('output has no value');
      return verifyOwners(op.transferOutput.owners);
    case 12:
      if (op.payload.length > MAX_PAYLOAD) fail('payload too large');
      for (const owners of op.outputs) verifyOwners(owners);
      return verifySigIndices(op.mintInput);
    case 13:
      verifySigIndices(op.input);
      return verifyNftTransfer(op.output.payload, op.output.owners);
    case 17:
      verifySigIndices(op.mintInput);
      verifyOwners(op.mintOutput);
      return verifyOwners(op.ownedOutput);
    case 18:
      return verifySigIndices(op.input);
  }
}

/**
 * Verify() of whatever sits in a credential slot. Real credentials only have a nil check; any
 * other fx type there (the codec accepts every verify.Verifiable) runs its own Verify.
 */
export function verifyFxValue(value: FxValue): void {
  switch (value.type) {
    case 9:
    case 14:
    case 19:
      return;
    case 5:
      return verifyTransferInput(value);
    case 6:
    case 7:
    case 10:
    case 11:
    case 15:
    case 16:
      return verifyOutput(value);
    default:
      return verifyOperationBody(value);
  }
}

// secp256k1fx's values as the codecs that register its five non-mint types number them alike
// (5 TransferInput, 7 TransferOutput, 9 Credential, 10 Input, 11 OutputOwners): the P-Chain's and
// coreth's atomic codec. (The X-Chain registers the mint types too, and its credential IDs vary by fx.)
import type { OutputOwners } from './fx.js';

/** secp256k1fx.TransferInput: an amount, and the UTXO's addresses that sign by index. */
export interface TransferInput {
  type: 5;
  amount: bigint;
  sigIndices: number[];
}

/** secp256k1fx.TransferOutput. */
export interface TransferOutput {
  type: 7;
  amount: bigint;
  owners: OutputOwners;
}

/** secp256k1fx.Credential: 65-byte [r ‖ s ‖ v] signatures. */
export interface Credential {
  type: 9;
  signatures: Uint8Array[];
}

/** secp256k1fx.Input: the signature indices of an authorization (a subnet's, say). */
export interface Input {
  type: 10;
  sigIndices: number[];
}

/** secp256k1fx.OutputOwners in an interface slot (fx.Owner). */
export interface OwnersValue {
  type: 11;
  owners: OutputOwners;
}

export type SecpValue = TransferInput | TransferOutput | Credential | Input | OwnersValue;

// X-Chain (AVM) transaction verification: the syntactic and semantic checks of avalanchego's
// avm txs/executor, with its exact error texts. The VM calls verifySyntax, prefetches
// requiredReads(tx), then calls verifySemantics against the last accepted state.
import type { SignedTx, UTXO } from '../types.js';

export { VerifyError } from './errors.js';
export { verifySyntax, expectedCredentials } from './syntactic.js';
export { verifySemantics, requiredReads } from './semantic.js';
export { recoverAddress, signHash, addressOfPrivateKey, addressOfPublicKey, txHash } from './secp.js';

export interface ChainParams {
  networkID: number;
  /** This X-Chain's ID (32 bytes). */
  chainID: Uint8Array;
  avaxAssetID: Uint8Array;
  txFee: bigint;
  createAssetTxFee: bigint;
  /** This chain's subnet (the primary network's, for the X-Chain). */
  subnetID: Uint8Array;
  /** The subnet of a chain the node knows of (ValidatorState.GetSubnetID); undefined if none. */
  subnetOf(chainID: Uint8Array): Uint8Array | undefined;
}

/**
 * Synchronous reads of the last accepted state; undefined means "not found". The VM prefetches
 * every key of requiredReads(tx) before calling verifySemantics.
 */
export interface SemanticState {
  utxo(id: Uint8Array): UTXO | undefined;
  tx(id: Uint8Array): SignedTx | undefined;
  atomicUTXO(sourceChain: Uint8Array, id: Uint8Array): UTXO | undefined;
}

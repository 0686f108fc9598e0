// What verification is given: the chain's parameters and a synchronous view of the last accepted state.
import type { SignedTx, UTXO } from '../types.js';

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

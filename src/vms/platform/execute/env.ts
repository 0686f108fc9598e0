// What executing a P-Chain tx sees and what it yields. Execution is synchronous over prefetched
// reads: the caller gathers the UTXOs and atomic UTXOs a tx names, then runs it on a ledger draft.
import type { Ledger } from '../ledger.js';
import type { UTXO } from '../types.js';

export interface TxEnv {
  networkID: number;
  /** The P-Chain's ID (32 zero bytes). */
  chainID: Uint8Array;
  avaxAssetID: Uint8Array;
  /** The block's timestamp: chain time after advancing (unix s). */
  chainTime: bigint;
  /** The VM clock (unix s): what locktimes are checked against. */
  now: bigint;
  /** This tx's fee at the block's gas price. */
  fee: bigint;
  ledger: Ledger;
  utxo(id: Uint8Array): UTXO | undefined;
  /** A UTXO exported to the P-Chain by `chain`, in the exporter's codec. */
  atomicUTXO(chain: Uint8Array, id: Uint8Array): Uint8Array | undefined;
  subnetOf(chainID: Uint8Array): Uint8Array | undefined;
  /** The current BLS key check of a proof of possession. */
  verifyPoP(publicKey: Uint8Array, pop: Uint8Array): boolean;
  /** Warp verification of an L1 validator tx's message, at the block's P-Chain height (throws VerifyError). */
  verifyWarp(message: Uint8Array): void;
}

export interface CreatedChain {
  chainID: Uint8Array;
  subnetID: Uint8Array;
  name: string;
  vmID: Uint8Array;
  genesis: Uint8Array;
}

export interface TxResult {
  /** Input IDs of the UTXOs the tx consumes. */
  consumed: Uint8Array[];
  produced: UTXO[];
  /** Exported UTXOs, for the destination chain's inbound shared memory. */
  exported?: { destination: Uint8Array; utxos: UTXO[] };
  /** Imported UTXO IDs, removed from the source chain's outbound shared memory. */
  imported?: { source: Uint8Array; utxoIDs: Uint8Array[] };
  createdChain?: CreatedChain;
}

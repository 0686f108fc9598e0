// UTXO identities and the UTXOs a tx produces (avax.UTXOID, avax.Produce).
import { sha256 } from '@noble/hashes/sha2.js';
import { u64 } from '../../encoding/bytes.js';
import type { TransferableOutput, UTXO, UTXOID } from './types.js';

/** avax.UTXOID.InputID: txID.Prefix(outputIndex) = sha256(u64 index ‖ txID). */
export const utxoIDBytes = (u: UTXOID): Uint8Array => sha256(Buffer.concat([u64(BigInt(u.outputIndex)), u.txID]));

/** The UTXOs of `outs`, numbered from `first`. */
export const produce = (txID: Uint8Array, outs: readonly TransferableOutput[], first = 0): UTXO[] =>
  outs.map((o, i) => ({ utxoID: { txID, outputIndex: first + i }, assetID: o.assetID, output: o.out }));

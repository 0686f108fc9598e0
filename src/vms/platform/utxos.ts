// UTXO identities and the UTXOs a tx produces (avax.UTXOID, avax.Produce).
import type { TransferableOutput, UTXO } from './types.js';

/** avax.UTXOID.InputID: txID.Prefix(outputIndex) = sha256(u64 index ‖ txID). */
export { utxoInputID } from '../components/avax/codec.js';

/** The UTXOs of `outs`, numbered from `first`. */
export const produce = (txID: Uint8Array, outs: readonly TransferableOutput[], first = 0): UTXO[] =>
  outs.map((o, i) => ({ utxoID: { txID, outputIndex: first + i }, assetID: o.assetID, output: o.out }));

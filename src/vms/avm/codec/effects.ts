// What a tx does to the UTXO set (vms/avm/txs/executor), and the byte keys avalanchego sorts by.
import type { Operation, OperationBody, Output, SignedTx, UTXO } from '../types.js';
import { writeFxValue } from './fx.js';
import { versioned } from '../../../encoding/packer.js';
import { writeOperation } from './tx.js';
import { utxoInputID } from '../../components/avax/codec.js';

/** bytes.Compare */
export { compareBytes } from '../../../encoding/bytes.js';

/** UTXOID.InputID = txID.Prefix(outputIndex): sha256(u64 outputIndex ‖ txID). */
export { utxoInputID };

/** codec.Marshal(&out) of an output as an interface value: how outputs are ordered. */
export function outputSortKey(out: Output): Uint8Array {
  const w = versioned();
  writeFxValue(w, out);
  return w.finish();
}

/** codec.Marshal(op) of a *txs.Operation: how operations are ordered. */
export function operationSortKey(op: Operation): Uint8Array {
  const w = versioned();
  writeOperation(w, op);
  return w.finish();
}

/** The owners' addresses (avax.Addressable); every output type embeds OutputOwners. */
export function outputAddresses(out: Output): Uint8Array[] {
  return out.owners.addresses;
}

/** FxOperation.Outs(): the outputs an operation creates, in order. */
export function operationOutputs(op: OperationBody): Output[] {
  switch (op.type) {
    case 8:
      return [
        { type: 6, owners: op.mintOutput },
        { type: 7, amount: op.transferOutput.amount, owners: op.transferOutput.owners },
      ];
    case 12:
      return op.outputs.map((owners) => ({ type: 11, groupID: op.groupID, payload: op.payload, owners }));
    case 13:
      return [{ type: 11, ...op.output }];
    case 17:
      return [
        { type: 15, owners: op.mintOutput },
        { type: 16, owners: op.ownedOutput },
      ];
    case 18:
      return [];
  }
}

/**
 * The UTXOs a tx creates. Base outputs take indices 0..n-1; CreateAssetTx initial-state outputs
 * (asset = the tx itself), OperationTx op outputs (asset = the op's) and ExportTx exported outputs
 * continue the numbering. Exported ones go to shared memory, so they are returned apart.
 */
export function txOutputs(tx: SignedTx): { utxos: UTXO[]; exported: UTXO[] } {
  const u = tx.unsigned;
  const utxos: UTXO[] = [];
  const exported: UTXO[] = [];
  let index = 0;
  const add = (list: UTXO[], assetID: Uint8Array, output: Output) => {
    list.push({ utxoID: { txID: tx.id, outputIndex: index++ }, assetID, output });
  };
  for (const o of u.base.outputs) add(utxos, o.assetID, o.out);
  switch (u.type) {
    case 1:
      for (const state of u.initialStates) for (const out of state.outputs) add(utxos, tx.id, out);
      break;
    case 2:
      for (const op of u.operations) for (const out of operationOutputs(op.op)) add(utxos, op.assetID, out);
      break;
    case 4:
      for (const o of u.exportedOutputs) add(exported, o.assetID, o.out);
      break;
  }
  return { utxos, exported };
}

/** UTXO IDs a tx consumes: from X state (base inputs, then op inputs) and from shared memory. */
export function txInputIDs(tx: SignedTx): { spent: Uint8Array[]; imported: Uint8Array[] } {
  const u = tx.unsigned;
  const spent = u.base.inputs.map((i) => utxoInputID(i.utxoID));
  if (u.type === 2) for (const op of u.operations) for (const id of op.utxoIDs) spent.push(utxoInputID(id));
  const imported = u.type === 3 ? u.importedInputs.map((i) => utxoInputID(i.utxoID)) : [];
  return { spent, imported };
}

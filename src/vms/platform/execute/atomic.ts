// ImportTx and ExportTx: AVAX between the P-Chain and the X- or C-Chain through shared memory.
import { encodeCB58 } from '../../../encoding/cb58.js';
import { compareBytes, toHex } from '../../../encoding/bytes.js';
import { marshalUTXO, parseUTXO } from '../codec/index.js';
import type { SignedTx, TxOf, UTXO } from '../types.js';
import { produce, utxoInputID } from '../utxos.js';
import {
  fail,
  inputsSortedUnique,
  outputsSorted,
  verifyBaseTx,
  verifyMemo,
  verifySpend,
  verifySpendUTXOs,
  verifyTransferableInput,
  verifyTransferableOutput,
  wrapped,
} from './base.js';
import type { TxEnv, TxResult } from './env.js';
import { transfer } from './subnets.js';

/** verify.SameSubnet: the peer chain is another chain of the P-Chain's own (primary) subnet. */
function sameSubnet(peer: Uint8Array, env: TxEnv): void {
  if (compareBytes(peer, env.chainID) === 0) fail('same chainID');
  const id = encodeCB58(peer);
  const subnet = env.subnetOf(peer) ?? fail(`failed to get subnet of "${id}": problem retrieving blockchain "${id}": not found`);
  if (!subnet.every((b) => b === 0)) fail(`mismatched subnetIDs; expected "${encodeCB58(new Uint8Array(32))}" got "${encodeCB58(subnet)}"`);
}

export function importTx(tx: SignedTx, u: TxOf<17>, env: TxEnv): TxResult {
  if (u.importedInputs.length === 0) fail('tx has no imported inputs');
  verifyBaseTx(u.base, env);
  for (const i of u.importedInputs) wrapped('input failed verification', () => verifyTransferableInput(i));
  if (!inputsSortedUnique(u.importedInputs)) fail('inputs not sorted and unique');
  verifyMemo(u.base);
  const utxoIDs = u.importedInputs.map((i) => utxoInputID(i.utxoID));
  sameSubnet(u.sourceChain, env);
  const raws = utxoIDs.map((id) => env.atomicUTXO(u.sourceChain, id));
  if (raws.some((r) => r === undefined)) fail('failed to get shared memory: not found');
  const utxos: UTXO[] = u.base.inputs.map(
    (i) => env.utxo(utxoInputID(i.utxoID)) ?? fail(`failed to get UTXO ${encodeCB58(i.utxoID.txID)}:${i.utxoID.outputIndex}: not found`),
  );
  for (const raw of raws) utxos.push(wrapped('failed to unmarshal UTXO', () => parseUTXO(raw!)));
  const ins = [...u.base.inputs, ...u.importedInputs];
  verifySpendUTXOs(tx, utxos, ins, u.base.outputs, tx.credentials, new Map([[toHex(env.avaxAssetID), env.fee]]), env);
  return { ...transfer(tx, u.base), imported: { source: u.sourceChain, utxoIDs } };
}

export function exportTx(tx: SignedTx, u: TxOf<18>, env: TxEnv): TxResult {
  if (u.exportedOutputs.length === 0) fail('no export outputs');
  verifyBaseTx(u.base, env);
  for (const o of u.exportedOutputs) {
    wrapped('output failed verification', () => verifyTransferableOutput(o));
    if (o.out.type === 22) fail('wrong locktime reported');
  }
  if (!outputsSorted(u.exportedOutputs)) fail('outputs not sorted');
  verifyMemo(u.base);
  sameSubnet(u.destinationChain, env);
  wrapped('failed verifySpend', () => verifySpend(tx, u.base.inputs, [...u.base.outputs, ...u.exportedOutputs], tx.credentials, env));
  return { ...transfer(tx, u.base), exported: { destination: u.destinationChain, utxos: produce(tx.id, u.exportedOutputs, u.base.outputs.length) } };
}

export { marshalUTXO };

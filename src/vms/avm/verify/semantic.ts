// avm txs/executor/semantic_verifier.go: checks against the last accepted state. Only the BaseTx
// part wraps its errors ("failed to verify transfer: ", "failed to get fx: ", "failed to verify
// fx usage: "); operation, import and export errors reach the caller bare. The emulator is always
// bootstrapped, so the checks the node skips while bootstrapping always run here.
import type { BaseTxFields, FxValue, SignedTx, TransferableInput, UTXO, UTXOID } from '../types.js';
import { fxIndexOfType } from '../types.js';
import { compareBytes, utxoInputID } from '../codec/index.js';
import { concatBytes } from '../../../encoding/bytes.js';
import { encodeCB58 } from '../../../encoding/cb58.js';
import { fail, NOT_FOUND, wrapped } from '../../components/verify/errors.js';
import { verifyOperation, verifyTransfer, type SigContext } from './fx.js';
import { txHash } from '../../components/secp256k1fx/secp.js';
import type { ChainParams, SemanticState } from './params.js';

/** A mainnet OperationTx whose operations the node never checks (semantic_verifier.go). */
const UNCHECKED_MAINNET_OPERATION_TX = 'MkvpJS13eCnEYeYi9B5zuWrU9goG9RBj7nr83U7BjrFV22a12';

interface Run {
  tx: SignedTx;
  p: ChainParams;
  state: SemanticState;
  sig: SigContext;
}

export function verifySemantics(tx: SignedTx, p: ChainParams, state: SemanticState, nowUnixSeconds: bigint): void {
  const run: Run = { tx, p, state, sig: { hash: txHash(tx.unsignedBytes), now: nowUnixSeconds } };
  const u = tx.unsigned;
  verifyBase(run, u.base);
  const offset = u.base.inputs.length;
  switch (u.type) {
    case 2: {
      if (encodeCB58(tx.id) === UNCHECKED_MAINNET_OPERATION_TX) return;
      u.operations.forEach((op, k) => {
        const utxos = op.utxoIDs.map((id) => {
          const utxo = state.utxo(utxoInputID(id)) ?? fail(NOT_FOUND);
          if (compareBytes(utxo.assetID, op.assetID) !== 0) fail("asset IDs in the input don't match the utxo");
          return utxo.output;
        });
        const fx = getFx(op.op.type);
        verifyFxUsage(run, fx, op.assetID);
        verifyOperation(fx, op.op, credential(run, offset + k), utxos, run.sig);
      });
      return;
    }
    case 3: {
      sameSubnet(p, u.sourceChain);
      // SharedMemory.Get fetches every imported UTXO first: one missing fails the whole batch.
      const utxos = u.importedInputs.map((input) => state.atomicUTXO(u.sourceChain, utxoInputID(input.utxoID)) ?? fail(NOT_FOUND));
      for (const [j, input] of u.importedInputs.entries()) verifyTransferOfUTXO(run, input, credential(run, offset + j), utxos[j]!);
      return;
    }
    case 4:
      sameSubnet(p, u.destinationChain);
      for (const out of u.exportedOutputs) verifyFxUsage(run, getFx(out.out.type), out.assetID);
      return;
    default:
      return; // BaseTx and CreateAssetTx need only the base checks; initial states are not re-checked
  }
}

function verifyBase(run: Run, base: BaseTxFields): void {
  base.inputs.forEach((input, i) => {
    wrapped('failed to verify transfer', () => {
      const id = utxoInputID(input.utxoID);
      const utxo = run.state.utxo(id) ?? fail(`failed to get utxo ${encodeCB58(id)}: ${NOT_FOUND}`);
      verifyTransferOfUTXO(run, input, credential(run, i), utxo);
    });
  });
  for (const out of base.outputs) {
    const fx = wrapped('failed to get fx', () => getFx(out.out.type));
    wrapped('failed to verify fx usage', () => verifyFxUsage(run, fx, out.assetID));
  }
}

/** Asset match, then the fx picked by the *credential's* type, then that fx's VerifyTransfer. */
function verifyTransferOfUTXO(run: Run, input: TransferableInput, cred: FxValue, utxo: UTXO): void {
  if (compareBytes(utxo.assetID, input.assetID) !== 0) fail("asset IDs in the input don't match the utxo");
  const fx = getFx(cred.type);
  verifyFxUsage(run, fx, input.assetID);
  verifyTransfer(fx, input.input, cred, utxo.output, run.sig);
}

/** The asset must be an accepted CreateAssetTx with an initial state for this fx. */
function verifyFxUsage(run: Run, fx: number, assetID: Uint8Array): void {
  const assetTx = run.state.tx(assetID) ?? fail(NOT_FOUND);
  const u = assetTx.unsigned;
  if (u.type !== 1) fail('not an asset');
  if (!u.initialStates.some((s) => s.fxIndex === fx)) fail('incompatible feature extension');
}

function getFx(type: number): number {
  return fxIndexOfType(type) ?? fail('unknown feature extension');
}

/** verify.SameSubnet: import/export peers are the other chains of this chain's subnet. */
function sameSubnet(p: ChainParams, peer: Uint8Array): void {
  if (compareBytes(peer, p.chainID) === 0) fail('same chainID');
  const subnet = p.subnetOf(peer);
  if (subnet === undefined) {
    const id = encodeCB58(peer);
    fail(`failed to get subnet of "${id}": problem retrieving blockchain "${id}": ${NOT_FOUND}`);
  }
  if (compareBytes(subnet, p.subnetID) !== 0) fail(`mismatched subnet IDs; expected "${encodeCB58(p.subnetID)}" got "${encodeCB58(subnet)}"`);
}

/** Credential alignment (§2.3); the count was checked syntactically. */
function credential(run: Run, index: number): FxValue {
  const cred = run.tx.credentials[index];
  if (cred === undefined) throw new Error('verifySemantics needs a tx that passed verifySyntax (credential count)');
  return cred;
}

/** Every state key verifySemantics may read, so the VM can prefetch them (deduplicated). */
export function requiredReads(tx: SignedTx): { utxos: Uint8Array[]; txs: Uint8Array[]; atomic: Array<{ chain: Uint8Array; id: Uint8Array }> } {
  const utxos = new Keyed<Uint8Array>();
  const txs = new Keyed<Uint8Array>();
  const atomic = new Keyed<{ chain: Uint8Array; id: Uint8Array }>();
  const u = tx.unsigned;
  const addUTXO = (id: UTXOID): void => {
    const key = utxoInputID(id);
    utxos.add(key, key);
  };
  for (const input of u.base.inputs) {
    addUTXO(input.utxoID);
    txs.add(input.assetID, input.assetID);
  }
  for (const out of u.base.outputs) txs.add(out.assetID, out.assetID);
  if (u.type === 2) {
    for (const op of u.operations) {
      op.utxoIDs.forEach(addUTXO);
      txs.add(op.assetID, op.assetID);
    }
  } else if (u.type === 3) {
    for (const input of u.importedInputs) {
      const id = utxoInputID(input.utxoID);
      atomic.add(concatBytes(u.sourceChain, id), { chain: u.sourceChain, id });
      txs.add(input.assetID, input.assetID);
    }
  } else if (u.type === 4) {
    for (const out of u.exportedOutputs) txs.add(out.assetID, out.assetID);
  }
  return { utxos: utxos.values(), txs: txs.values(), atomic: atomic.values() };
}

class Keyed<T> {
  private readonly map = new Map<string, T>();
  add(key: Uint8Array, value: T): void {
    const k = Buffer.from(key).toString('hex');
    if (!this.map.has(k)) this.map.set(k, value);
  }
  values(): T[] {
    return [...this.map.values()];
  }
}

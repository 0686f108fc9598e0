// Verification of coreth's atomic txs (AP5+ and Banff rules, all active on the local network), in
// coreth's order with its texts: the txs' own Verify (import_tx.go, export_tx.go), the semantic
// verifier (atomic/vm/tx_semantic_verifier.go: flow check, credentials, shared memory, signatures)
// and the state transfer that credits an import or debits an export (EVMStateTransfer).
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address } from '@ethereumjs/util';
import { P_CHAIN_ID } from '../../../chains/ids.js';
import { compareBytes, equalBytes } from '../../../encoding/bytes.js';
import { encodeCB58 } from '../../../encoding/cb58.js';
import {
  type AtomicTx,
  type AtomicUTXO,
  CodecError,
  type EVMInput,
  type EVMOutput,
  outputBytes,
  parseUTXO,
  type TransferableInput,
  type TransferableOutput,
  type TransferInput,
  type TransferOutput,
  type UnsignedExportTx,
  type UnsignedImportTx,
  utxoInputID,
} from './codec.js';
import { asAtomic, atomicErrors, fail, wrapped } from './errors.js';
import { dynamicFee, gasUsed, X2C_RATE } from './fees.js';
import { keccak256 } from '../../../crypto/keccak.js';
import * as secp from '../../components/secp256k1fx/fx.js';
import { recoverPublicKeyFromHash, txHash } from '../../components/secp256k1fx/secp.js';

/** What verification knows of the chain (coreth's snow.Context). */
export interface AtomicParams {
  networkID: number;
  /** The C-Chain's ID. */
  chainID: Uint8Array;
  subnetID: Uint8Array;
  avaxAssetID: Uint8Array;
  /** The subnet of a chain the node knows (ValidatorState.GetSubnetID). */
  subnetOf(chainID: Uint8Array): Uint8Array | undefined;
  /** The fx's clock (unix seconds), for time-locked UTXOs. */
  now(): bigint;
}

/** Reads the UTXOs an import spends from shared memory (the C-Chain's inbound store from `source`). */
export type ReadAtomicUTXO = (source: Uint8Array, utxoID: Uint8Array) => Promise<Uint8Array | undefined>;

const isEmpty = (a: Uint8Array): boolean => a.every((b) => b === 0);

/** utils.IsSortedAndUnique: each element strictly after the one before. */
function sortedUnique<T>(items: readonly T[], compare: (a: T, b: T) => number): boolean {
  for (let i = 1; i < items.length; i++) if (compare(items[i - 1]!, items[i]!) >= 0) return false;
  return true;
}

const compareEVM = (a: EVMOutput | EVMInput, b: EVMOutput | EVMInput): number => compareBytes(a.address, b.address) || compareBytes(a.assetID, b.assetID);
const compareInputs = (a: TransferableInput, b: TransferableInput): number =>
  compareBytes(a.utxoID.txID, b.utxoID.txID) || a.utxoID.outputIndex - b.utxoID.outputIndex;
const compareOutputs = (a: TransferableOutput, b: TransferableOutput): number =>
  compareBytes(a.assetID, b.assetID) || compareBytes(outputBytes(a.out), outputBytes(b.out));

/** verify.SameSubnet, whose every failure coreth reports as a wrong chain ID. */
function verifyPeer(peer: Uint8Array, p: AtomicParams): void {
  const subnet = equalBytes(peer, p.chainID) ? undefined : p.subnetOf(peer);
  if (!subnet || !equalBytes(subnet, p.subnetID)) fail(atomicErrors.wrongChainID());
}

/** secp256k1fx.TransferOutput.Verify */
const verifyTransferOutput = (o: TransferOutput): void => asAtomic(() => secp.verifyTransferOutput(o));

/** secp256k1fx.TransferInput.Verify */
const verifyTransferInput = (i: TransferInput): void => asAtomic(() => secp.verifyTransferInput(i));

/** The EVM account that signed `hash`: keccak256(uncompressed key)[12:]. */
const signerAccount = (hash: Uint8Array, sig: Uint8Array): Uint8Array =>
  keccak256(asAtomic(() => recoverPublicKeyFromHash(hash, sig, false)).subarray(1)).subarray(12);

/** UnsignedImportTx.Verify */
function verifyImport(u: UnsignedImportTx, p: AtomicParams): void {
  if (u.importedInputs.length === 0) fail(atomicErrors.noImportInputs());
  if (u.networkID !== p.networkID) fail(atomicErrors.wrongNetworkID());
  if (!equalBytes(u.blockchainID, p.chainID)) fail(atomicErrors.wrongChainID());
  if (u.outs.length === 0) fail(atomicErrors.noEVMOutputs());
  verifyPeer(u.sourceChain, p);
  for (const o of u.outs) {
    if (o.amount === 0n) fail(atomicErrors.evmOutput(atomicErrors.noValueOutput()));
    if (isEmpty(o.assetID)) fail(atomicErrors.evmOutput(atomicErrors.emptyAssetID()));
    if (!equalBytes(o.assetID, p.avaxAssetID)) fail(atomicErrors.importNonAVAXOutput());
  }
  for (const i of u.importedInputs) {
    wrapped(atomicErrors.atomicInput, () => {
      if (isEmpty(i.assetID)) fail(atomicErrors.emptyAssetID());
      verifyTransferInput(i.input);
    });
    if (!equalBytes(i.assetID, p.avaxAssetID)) fail(atomicErrors.importNonAVAXInput());
  }
  if (!sortedUnique(u.importedInputs, compareInputs)) fail(atomicErrors.inputsNotSortedUnique());
  if (!sortedUnique(u.outs, compareEVM)) fail(atomicErrors.outputsNotSortedUnique());
}

/** UnsignedExportTx.Verify */
function verifyExport(u: UnsignedExportTx, p: AtomicParams): void {
  if (u.exportedOutputs.length === 0) fail(atomicErrors.noExportOutputs());
  if (u.networkID !== p.networkID) fail(atomicErrors.wrongNetworkID());
  if (!equalBytes(u.blockchainID, p.chainID)) fail(atomicErrors.wrongChainID());
  verifyPeer(u.destinationChain, p);
  for (const i of u.ins) {
    if (i.amount === 0n) fail(atomicErrors.noValueInput());
    if (isEmpty(i.assetID)) fail(atomicErrors.emptyAssetID());
    if (!equalBytes(i.assetID, p.avaxAssetID)) fail(atomicErrors.exportNonAVAXInput());
  }
  for (const o of u.exportedOutputs) {
    if (isEmpty(o.assetID)) fail(atomicErrors.emptyAssetID());
    verifyTransferOutput(o.out);
    const avax = equalBytes(o.assetID, p.avaxAssetID);
    if (!avax && encodeCB58(u.destinationChain) === P_CHAIN_ID) fail(atomicErrors.wrongChainID());
    if (!avax) fail(atomicErrors.exportNonAVAXOutput());
  }
  // avax.IsSortedTransferableOutputs allows equal neighbours; the inputs must be unique.
  for (let i = 1; i < u.exportedOutputs.length; i++) {
    if (compareOutputs(u.exportedOutputs[i - 1]!, u.exportedOutputs[i]!) > 0) fail(atomicErrors.outputsNotSorted());
  }
  if (!sortedUnique(u.ins, compareEVM)) fail(atomicErrors.inputsNotSortedUnique());
}

/** The tx's own Verify: its shape, before anything is read. */
export function verifySyntax(tx: AtomicTx, p: AtomicParams): void {
  if (tx.unsigned.type === 0) verifyImport(tx.unsigned, p);
  else verifyExport(tx.unsigned, p);
}

/**
 * avax.FlowChecker over one asset's amounts: the fee and the outputs produced against the inputs
 * consumed. Sums overflow as Go's math.Add does; the error is the checker's first.
 */
function flowCheck(tx: AtomicTx, p: AtomicParams, baseFee: bigint, wrap: (why: string) => string): void {
  const fee = dynamicFee(gasUsed(tx), baseFee);
  const produced = new Map<string, bigint>();
  const consumed = new Map<string, bigint>();
  let error: string | undefined;
  const add = (m: Map<string, bigint>, asset: Uint8Array, amount: bigint) => {
    const k = Buffer.from(asset).toString('hex');
    const sum = (m.get(k) ?? 0n) + amount;
    if (sum > (1n << 64n) - 1n) error ??= atomicErrors.overflow();
    else m.set(k, sum);
  };
  add(produced, p.avaxAssetID, fee);
  const u = tx.unsigned;
  if (u.type === 0) {
    for (const o of u.outs) add(produced, o.assetID, o.amount);
    for (const i of u.importedInputs) add(consumed, i.assetID, i.input.amount);
  } else {
    for (const o of u.exportedOutputs) add(produced, o.assetID, o.out.amount);
    for (const i of u.ins) add(consumed, i.assetID, i.amount);
  }
  if (error === undefined) for (const [asset, amount] of produced) if (amount > (consumed.get(asset) ?? 0n)) error = atomicErrors.insufficientFunds();
  if (error !== undefined) fail(wrap(error));
}

async function semanticImport(tx: AtomicTx, u: UnsignedImportTx, p: AtomicParams, baseFee: bigint, read: ReadAtomicUTXO): Promise<void> {
  flowCheck(tx, p, baseFee, atomicErrors.importFlow);
  if (tx.credentials.length !== u.importedInputs.length) fail(atomicErrors.importCredentials(u.importedInputs.length, tx.credentials.length));
  // SharedMemory.Get of every UTXO: one missing one fails the lot.
  const raw: Uint8Array[] = [];
  for (const i of u.importedInputs) {
    const bytes = await read(u.sourceChain, utxoInputID(i.utxoID));
    if (!bytes) fail(atomicErrors.fetchUTXOs(encodeCB58(u.sourceChain), atomicErrors.notFound()));
    raw.push(bytes);
  }
  const hash = txHash(tx.unsignedBytes);
  u.importedInputs.forEach((input, i) => {
    let utxo: AtomicUTXO;
    try {
      utxo = parseUTXO(raw[i]!);
    } catch (err) {
      if (err instanceof CodecError) fail(atomicErrors.unmarshalUTXO(err.message));
      throw err;
    }
    if (!equalBytes(utxo.assetID, input.assetID)) fail(atomicErrors.assetMismatch());
    wrapped(atomicErrors.transfer, () => asAtomic(() => secp.verifyTransfer(input.input, tx.credentials[i]!, utxo.output, { hash, now: p.now() })));
  });
}

function semanticExport(tx: AtomicTx, u: UnsignedExportTx, p: AtomicParams, baseFee: bigint): void {
  flowCheck(tx, p, baseFee, atomicErrors.exportFlow);
  if (u.ins.length !== tx.credentials.length) fail(atomicErrors.exportCredentials(u.ins.length, tx.credentials.length));
  const hash = txHash(tx.unsignedBytes);
  u.ins.forEach((input, i) => {
    const cred = tx.credentials[i]!;
    if (cred.type !== 9) fail(atomicErrors.notCredential());
    if (cred.signatures.length !== 1) fail(atomicErrors.signatureCount(cred.signatures.length));
    if (!equalBytes(input.address, signerAccount(hash, cred.signatures[0]!))) fail(atomicErrors.signatureMismatch());
  });
}

/** SemanticVerify at `baseFee` (the block's, or the next block's estimate for the mempool). */
export async function verifySemantics(tx: AtomicTx, p: AtomicParams, baseFee: bigint, read: ReadAtomicUTXO): Promise<void> {
  verifySyntax(tx, p);
  if (tx.unsigned.type === 0) await semanticImport(tx, tx.unsigned, p, baseFee, read);
  else semanticExport(tx, tx.unsigned, p, baseFee);
}

/**
 * EVMStateTransfer on `sm`: an import credits amount·10^9 wei to each output; an export debits
 * each input (refusing a short balance, then a wrong nonce) and moves each sender's nonce past it.
 */
export async function transferState(tx: AtomicTx, sm: MerkleStateManager): Promise<void> {
  const u = tx.unsigned;
  const accountOf = async (a: Uint8Array) => (await sm.getAccount(new Address(a))) ?? new Account();
  if (u.type === 0) {
    for (const o of u.outs) {
      const account = await accountOf(o.address);
      account.balance += o.amount * X2C_RATE;
      await sm.putAccount(new Address(o.address), account);
    }
    return;
  }
  const nonces = new Map<string, { address: Uint8Array; nonce: bigint }>();
  for (const i of u.ins) {
    const account = await accountOf(i.address);
    const amount = i.amount * X2C_RATE;
    if (account.balance < amount) fail(atomicErrors.insufficientFunds());
    account.balance -= amount;
    await sm.putAccount(new Address(i.address), account);
    if (account.nonce !== i.nonce) fail(atomicErrors.invalidNonce());
    nonces.set(Buffer.from(i.address).toString('hex'), { address: i.address, nonce: i.nonce });
  }
  for (const { address, nonce } of nonces.values()) {
    const account = await accountOf(address);
    account.nonce = nonce + 1n;
    await sm.putAccount(new Address(address), account);
  }
}

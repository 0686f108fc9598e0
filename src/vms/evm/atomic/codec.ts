// coreth's atomic codec (graft/coreth/plugin/evm/atomic/codec.go): the linear codec v0 with
//   0 UnsignedImportTx, 1 UnsignedExportTx, 2-4 skipped, 5 secp256k1fx.TransferInput, 6 skipped,
//   7 TransferOutput, 8 skipped, 9 Credential, 10 Input, 11 OutputOwners.
// A Tx is its UnsignedAtomicTx interface (u32 type ‖ body) and its credentials ([]verify.Verifiable,
// each u32 type ‖ body); a block's extData is a []*Tx. UTXOs exported from the C-Chain use the
// same layout as every other chain's (avax.UTXO with a type-7 output), so X and P read them as is.
import { CodecError, type Reader, unmarshal, versioned, type Writer } from '../../../encoding/packer.js';
import { avaxCodec, readList, readSignedTx, readSlotTypeID, type Slot, utxoInputID } from '../../components/avax/codec.js';
import type * as components from '../../components/avax/types.js';
import { readSecpBody, writeSecpBody } from '../../components/secp256k1fx/codec.js';
import type { Credential, SecpValue, TransferInput, TransferOutput } from '../../components/secp256k1fx/types.js';
import type { OutputOwners } from '../../components/secp256k1fx/fx.js';

export { CodecError, type OutputOwners };

export type { Credential, TransferInput, TransferOutput };

/**
 * What a credential slot (verify.Verifiable) parses: every registered fx type has Verify(), so an
 * input, an output, an Input (10) or OutputOwners (11) parse there and fail verification later.
 */
export type Verifiable = SecpValue;

export type TransferableInput = components.TransferableInput<TransferInput>;
export type TransferableOutput = components.TransferableOutput<TransferOutput>;

/** An import's credit: amount (nAVAX) to an EVM address. */
export interface EVMOutput {
  address: Uint8Array;
  amount: bigint;
  assetID: Uint8Array;
}

/** An export's debit: amount (nAVAX) from an EVM address at its nonce. */
export interface EVMInput {
  address: Uint8Array;
  amount: bigint;
  assetID: Uint8Array;
  nonce: bigint;
}

export interface UnsignedImportTx {
  type: 0;
  networkID: number;
  blockchainID: Uint8Array;
  sourceChain: Uint8Array;
  importedInputs: TransferableInput[];
  outs: EVMOutput[];
}

export interface UnsignedExportTx {
  type: 1;
  networkID: number;
  blockchainID: Uint8Array;
  destinationChain: Uint8Array;
  ins: EVMInput[];
  exportedOutputs: TransferableOutput[];
}

export type UnsignedAtomicTx = UnsignedImportTx | UnsignedExportTx;

/** A Tx: its bytes are u16 0 ‖ u32 type ‖ body ‖ creds; its unsigned bytes (what the signatures sign and gas counts) stop before the creds. */
export type AtomicTx = components.SignedTx<UnsignedAtomicTx, Verifiable>;
export type AtomicUTXO = components.UTXO<TransferOutput>;

/** Go type names by type ID, for the codec's interface errors (skipped IDs are unknown). */
const TYPE_NAMES: Record<number, string> = {
  0: '*atomic.UnsignedImportTx',
  1: '*atomic.UnsignedExportTx',
  5: '*secp256k1fx.TransferInput',
  7: '*secp256k1fx.TransferOutput',
  9: '*secp256k1fx.Credential',
  10: '*secp256k1fx.Input',
  11: '*secp256k1fx.OutputOwners',
};

const SLOTS = {
  unsignedTx: { name: 'atomic.UnsignedAtomicTx', accepts: new Set([0, 1]) },
  transferableIn: { name: 'avax.TransferableIn', accepts: new Set([5]) },
  transferableOut: { name: 'avax.TransferableOut', accepts: new Set([7]) },
  verifiable: { name: 'verify.Verifiable', accepts: new Set([5, 7, 9, 10, 11]) },
  // Only TransferOutput embeds verify.IsState among the registered types.
  state: { name: 'verify.State', accepts: new Set([7]) },
} as const satisfies Record<string, Slot>;

const readTypeID = (r: Reader, slot: Slot): number => readSlotTypeID(r, slot, (id) => TYPE_NAMES[id]);

/** The body of a registered fx type (no type ID). */
const readFx = (r: Reader, type: number): Verifiable => readSecpBody(r, type as SecpValue['type']);

function writeFx(w: Writer, v: Verifiable): void {
  w.u32(v.type);
  writeSecpBody(w, v);
}

const avax = avaxCodec<TransferOutput, TransferInput>({
  readOutput: (r) => readFx(r, readTypeID(r, SLOTS.transferableOut)) as TransferOutput,
  readInput: (r) => readFx(r, readTypeID(r, SLOTS.transferableIn)) as TransferInput,
  readUTXOOutput: (r) => readFx(r, readTypeID(r, SLOTS.state)) as TransferOutput,
  writeValue: writeFx,
});
const { readTransferableInput, readTransferableOutput } = avax;

function readUnsigned(r: Reader): UnsignedAtomicTx {
  const type = readTypeID(r, SLOTS.unsignedTx);
  const networkID = r.u32();
  const blockchainID = r.fixed(32);
  const peer = r.fixed(32);
  if (type === 0) {
    const importedInputs = readList(r, readTransferableInput);
    const outs = readList(r, (r) => ({ address: r.fixed(20), amount: r.u64(), assetID: r.fixed(32) }));
    return { type: 0, networkID, blockchainID, sourceChain: peer, importedInputs, outs };
  }
  const ins = readList(r, (r) => ({ address: r.fixed(20), amount: r.u64(), assetID: r.fixed(32), nonce: r.u64() }));
  const exportedOutputs = readList(r, readTransferableOutput);
  return { type: 1, networkID, blockchainID, destinationChain: peer, ins, exportedOutputs };
}

/** One Tx from `r` (after the codec version); its bytes are re-prefixed with version 0, as Sign does. */
const readTx = (r: Reader): AtomicTx => readSignedTx(r, readUnsigned, (r) => readFx(r, readTypeID(r, SLOTS.verifiable)));

/** atomic.Codec.Unmarshal into a Tx. */
export function parseAtomicTx(bytes: Uint8Array): AtomicTx {
  return unmarshal(bytes, readTx);
}

/** atomic.Codec.Marshal([]*Tx): the extData of a block carrying `txs`. */
export function marshalBatch(txs: readonly AtomicTx[]): Uint8Array {
  const w = versioned().u32(txs.length);
  for (const tx of txs) w.fixed(tx.bytes.subarray(2));
  return w.finish();
}

/** atomic.Codec.Marshal(avax.UTXO). */
export const marshalUTXO: (u: AtomicUTXO) => Uint8Array = avax.marshalUTXO;

/** atomic.Codec.Unmarshal into an avax.UTXO (as another chain's export wrote it). */
export const parseUTXO: (bytes: Uint8Array) => AtomicUTXO = avax.parseUTXO;

/** An output's codec bytes (version ‖ type ‖ body): what avax.SortTransferableOutputs compares after the asset. */
export function outputBytes(o: TransferOutput): Uint8Array {
  const w = versioned();
  writeFx(w, o);
  return w.finish();
}

const u64be = (n: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n);
  return b;
};

/** UTXOID.InputID: sha256(u64 outputIndex ‖ txID). */
export { utxoInputID };

/**
 * InputUTXOs: what a tx consumes, for conflicts. An import's are its UTXO IDs; an export's are
 * u64 nonce ‖ u32 20 ‖ address (a Packer's PackLong and PackBytes into 32 bytes), one per input.
 */
export function inputUTXOs(utx: UnsignedAtomicTx): Uint8Array[] {
  if (utx.type === 0) return utx.importedInputs.map((i) => utxoInputID(i.utxoID));
  return utx.ins.map((i) => {
    const b = new Uint8Array(32);
    b.set(u64be(i.nonce));
    new DataView(b.buffer).setUint32(8, 20);
    b.set(i.address, 12);
    return b;
  });
}

/** The UTXOs an export puts into shared memory for its destination: output i at index i. */
export function exportedUTXOs(tx: AtomicTx): AtomicUTXO[] {
  if (tx.unsigned.type !== 1) return [];
  return tx.unsigned.exportedOutputs.map((o, i) => ({ utxoID: { txID: tx.id, outputIndex: i }, assetID: o.assetID, output: o.out }));
}

// Signed txs, unsigned txs and UTXOs in the linear codec (vms/avm/txs, vms/components/avax).
// Embedded structs and pointer fields are written inline; a u32 type ID appears only where the Go
// field is an interface (tx.Unsigned, outputs, inputs, initial-state outputs, operations,
// credentials, UTXO outputs).
import type { FxValue, InitialState, Operation, Output, SignedTx, TransferInput, UnsignedTx, UTXO } from '../types.js';
import { readFxBody, readOperationBody, readOutput, readTypeID, SLOTS, writeFxValue } from './fx.js';
import { type Reader, unmarshal, type Writer } from '../../../encoding/packer.js';
import { avaxCodec, buildSignedTx, marshalUnsigned, readList, readSignedTx, readUTXOID, writeList, writeUTXOID } from '../../components/avax/codec.js';

const avax = avaxCodec<Output, TransferInput>({
  readOutput: (r) => readOutput(r, SLOTS.transferableOut),
  readInput: (r) => readFxBody(r, readTypeID(r, SLOTS.transferableIn)) as TransferInput,
  readUTXOOutput: (r) => readOutput(r, SLOTS.state),
  writeValue: writeFxValue,
});
const { readBaseTx: readBase, writeBaseTx: writeBase } = avax;

const readInitialState = (r: Reader): InitialState => ({
  fxIndex: r.u32(),
  outputs: readList(r, (r) => readOutput(r, SLOTS.state)),
});

const readOperation = (r: Reader): Operation => ({
  assetID: r.fixed(32),
  utxoIDs: readList(r, readUTXOID),
  op: readOperationBody(r),
});

export function writeOperation(w: Writer, op: Operation): void {
  w.fixed(op.assetID, 32);
  writeList(w, op.utxoIDs, writeUTXOID);
  writeFxValue(w, op.op);
}

/** A CreateAssetTx's fields after its type ID (as the genesis format also lays them out). */
export function readCreateAssetTx(r: Reader): Extract<UnsignedTx, { type: 1 }> {
  return { type: 1, base: readBase(r), name: r.string(), symbol: r.string(), denomination: r.u8(), initialStates: readList(r, readInitialState) };
}

/** tx.Unsigned: u32 type ID ‖ fields. */
function readUnsigned(r: Reader): UnsignedTx {
  const type = readTypeID(r, SLOTS.unsignedTx);
  if (type === 1) return readCreateAssetTx(r);
  const base = readBase(r);
  switch (type) {
    case 0:
      return { type: 0, base };
    case 2:
      return { type: 2, base, operations: readList(r, readOperation) };
    case 3:
      return { type: 3, base, ...avax.readImport(r) };
    default:
      return { type: 4, base, ...avax.readExport(r) };
  }
}

function writeUnsigned(w: Writer, tx: UnsignedTx): void {
  w.u32(tx.type);
  writeBase(w, tx.base);
  switch (tx.type) {
    case 0:
      return;
    case 1:
      w.string(tx.name).string(tx.symbol).u8(tx.denomination);
      writeList(w, tx.initialStates, (w, s) => {
        w.u32(s.fxIndex);
        writeList(w, s.outputs, writeFxValue);
      });
      return;
    case 2:
      writeList(w, tx.operations, writeOperation);
      return;
    case 3:
      avax.writeImport(w, tx);
      return;
    case 4:
      avax.writeExport(w, tx);
      return;
  }
}

/** Credentials: []*FxCredential, each a verify.Verifiable interface value. */
const readCredential = (r: Reader): FxValue => readFxBody(r, readTypeID(r, SLOTS.verifiable));

/** A txs.Tx read at the reader's position (after a codec version, or inside a block). */
export const readTx = (r: Reader): SignedTx => readSignedTx(r, readUnsigned, readCredential);

/** txs.Parser.ParseTx: the whole signed tx in codec version 0, with avalanchego's errors. */
export function parseTx(bytes: Uint8Array): SignedTx {
  return unmarshal(bytes, readTx);
}

/** codec.Marshal(&tx.Unsigned): what a tx's signatures sign (its sha256). */
export const marshalUnsignedTx = (unsigned: UnsignedTx): Uint8Array => marshalUnsigned(unsigned, writeUnsigned);

export const buildTx = (unsigned: UnsignedTx, credentials: FxValue[]): SignedTx => buildSignedTx(unsigned, credentials, writeUnsigned, writeFxValue);

/** avax.UTXO as stored and served by getUTXOs: u16 0 ‖ txID ‖ u32 index ‖ assetID ‖ output. */
export const marshalUTXO: (utxo: UTXO) => Uint8Array = avax.marshalUTXO;

export const parseUTXO: (bytes: Uint8Array) => UTXO = avax.parseUTXO;

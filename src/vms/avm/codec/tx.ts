// Signed txs, unsigned txs and UTXOs in the linear codec (vms/avm/txs, vms/components/avax).
// Embedded structs and pointer fields are written inline; a u32 type ID appears only where the Go
// field is an interface (tx.Unsigned, outputs, inputs, initial-state outputs, operations,
// credentials, UTXO outputs).
import { sha256 } from '@noble/hashes/sha2.js';
import type {
  BaseTxFields,
  FxValue,
  InitialState,
  Operation,
  SignedTx,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  UnsignedTx,
  UTXO,
  UTXOID,
} from '../types.js';
import { readFxBody, readOperationBody, readOutput, readTypeID, SLOTS, writeFxValue } from './fx.js';
import { type Reader, unmarshal, versioned, type Writer } from '../../../encoding/packer.js';

function readList<T>(r: Reader, item: (r: Reader) => T): T[] {
  const n = r.sliceLength();
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(item(r));
  return out;
}

function writeList<T>(w: Writer, items: readonly T[], item: (w: Writer, t: T) => void): void {
  w.u32(items.length);
  for (const t of items) item(w, t);
}

const readUTXOID = (r: Reader): UTXOID => ({ txID: r.fixed(32), outputIndex: r.u32() });
const writeUTXOID = (w: Writer, u: UTXOID) => {
  w.fixed(u.txID, 32).u32(u.outputIndex);
};

const readTransferableOutput = (r: Reader): TransferableOutput => ({
  assetID: r.fixed(32),
  out: readOutput(r, SLOTS.transferableOut),
});

const readTransferableInput = (r: Reader): TransferableInput => ({
  utxoID: readUTXOID(r),
  assetID: r.fixed(32),
  input: readFxBody(r, readTypeID(r, SLOTS.transferableIn)) as TransferInput,
});

const writeTransferableOutput = (w: Writer, o: TransferableOutput) => {
  w.fixed(o.assetID, 32);
  writeFxValue(w, o.out);
};
const writeTransferableInput = (w: Writer, i: TransferableInput) => {
  writeUTXOID(w, i.utxoID);
  w.fixed(i.assetID, 32);
  writeFxValue(w, i.input);
};

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

function readBase(r: Reader): BaseTxFields {
  return {
    networkID: r.u32(),
    blockchainID: r.fixed(32),
    outputs: readList(r, readTransferableOutput),
    inputs: readList(r, readTransferableInput),
    memo: r.byteSlice(),
  };
}

function writeBase(w: Writer, b: BaseTxFields): void {
  w.u32(b.networkID).fixed(b.blockchainID, 32);
  writeList(w, b.outputs, writeTransferableOutput);
  writeList(w, b.inputs, writeTransferableInput);
  w.byteSlice(b.memo);
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
      return { type: 3, base, sourceChain: r.fixed(32), importedInputs: readList(r, readTransferableInput) };
    default:
      return { type: 4, base, destinationChain: r.fixed(32), exportedOutputs: readList(r, readTransferableOutput) };
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
      w.fixed(tx.sourceChain, 32);
      writeList(w, tx.importedInputs, writeTransferableInput);
      return;
    case 4:
      w.fixed(tx.destinationChain, 32);
      writeList(w, tx.exportedOutputs, writeTransferableOutput);
      return;
  }
}

/** Credentials: []*FxCredential, each a verify.Verifiable interface value. */
const readCredentials = (r: Reader): FxValue[] => readList(r, (r) => readFxBody(r, readTypeID(r, SLOTS.verifiable)));

/**
 * A txs.Tx read at the reader's position (after a codec version, or inside a block). Its bytes
 * are re-prefixed with version 0, as tx.Initialize re-marshals a block's txs, so that a tx has
 * the same bytes and ID in a block as when it was issued.
 */
export function readTx(r: Reader): SignedTx {
  const start = r.offset;
  const unsigned = readUnsigned(r);
  const unsignedEnd = r.offset;
  const credentials = readCredentials(r);
  const bytes = new Uint8Array(2 + r.offset - start);
  bytes.set(r.bytes.subarray(start, r.offset), 2);
  return { unsigned, credentials, bytes, unsignedBytes: bytes.subarray(0, 2 + unsignedEnd - start), id: sha256(bytes) };
}

/** txs.Parser.ParseTx: the whole signed tx in codec version 0, with avalanchego's errors. */
export function parseTx(bytes: Uint8Array): SignedTx {
  return unmarshal(bytes, readTx);
}

/** codec.Marshal(&tx.Unsigned): what a tx's signatures sign (its sha256). */
export function marshalUnsignedTx(unsigned: UnsignedTx): Uint8Array {
  const w = versioned();
  writeUnsigned(w, unsigned);
  return w.finish();
}

export function buildTx(unsigned: UnsignedTx, credentials: FxValue[]): SignedTx {
  const w = versioned();
  writeUnsigned(w, unsigned);
  const unsignedLength = w.length;
  writeList(w, credentials, writeFxValue);
  const bytes = w.finish();
  return { unsigned, credentials, bytes, unsignedBytes: bytes.subarray(0, unsignedLength), id: sha256(bytes) };
}

/** avax.UTXO as stored and served by getUTXOs: u16 0 ‖ txID ‖ u32 index ‖ assetID ‖ output. */
export function marshalUTXO(utxo: UTXO): Uint8Array {
  const w = versioned();
  writeUTXOID(w, utxo.utxoID);
  w.fixed(utxo.assetID, 32);
  writeFxValue(w, utxo.output);
  return w.finish();
}

export function parseUTXO(bytes: Uint8Array): UTXO {
  return unmarshal(bytes, (r) => ({ utxoID: readUTXOID(r), assetID: r.fixed(32), output: readOutput(r, SLOTS.state) }));
}

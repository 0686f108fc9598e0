// The avax component's codec pieces (linear codec v0) that every VM with UTXOs reads and writes
// the same way: slices, interface type IDs checked against their slot, UTXO IDs, transferable
// inputs and outputs, the BaseTx fields, UTXOs and signed txs. A VM supplies its fx values' codec.
import { sha256 } from '../../../crypto/sha256.js';
import { CodecError, type Reader, unmarshal, versioned, Writer } from '../../../encoding/packer.js';
import type { BaseTxFields, SignedTx, TransferableInput, TransferableOutput, UTXO, UTXOID } from './types.js';

/** A Go slice: u32 length, then the items. */
export function readList<T>(r: Reader, item: (r: Reader) => T): T[] {
  const n = r.sliceLength();
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(item(r));
  return out;
}

export function writeList<T>(w: Writer, items: readonly T[], item: (w: Writer, t: T) => void): void {
  w.u32(items.length);
  for (const t of items) item(w, t);
}

/** An interface-typed field: Go's interface name and the registered types that implement it. */
export interface Slot {
  name: string;
  accepts: ReadonlySet<number>;
}

/**
 * linearcodec UnpackPrefix: the type ID of an interface value, checked against its slot. `name`
 * gives the Go type a codec registered under an ID (undefined where it registered none).
 */
export function readSlotTypeID(r: Reader, slot: Slot, name: (id: number) => string | undefined): number {
  const id = r.typeID();
  const goName = name(id);
  if (goName === undefined) throw new CodecError(`couldn't unmarshal interface: unknown type ID ${id}`);
  if (!slot.accepts.has(id)) throw new CodecError(`couldn't unmarshal interface: ${goName} does not implement interface ${slot.name}`);
  return id;
}

export const readUTXOID = (r: Reader): UTXOID => ({ txID: r.fixed(32), outputIndex: r.u32() });
export const writeUTXOID = (w: Writer, u: UTXOID): void => {
  w.fixed(u.txID, 32).u32(u.outputIndex);
};

/** avax.UTXOID.InputID: txID.Prefix(outputIndex) = sha256(u64 index ‖ txID). */
export const utxoInputID = (u: UTXOID): Uint8Array => sha256(new Writer().u64(BigInt(u.outputIndex)).fixed(u.txID, 32).finish());

/** How a VM's fx values stand in the avax structures: each read checks its slot, each write is u32 type ‖ body. */
export interface FxCodec<O, I> {
  /** An avax.TransferableOut. */
  readOutput(r: Reader): O;
  /** An avax.TransferableIn. */
  readInput(r: Reader): I;
  /** A UTXO's output. */
  readUTXOOutput(r: Reader): O;
  writeValue(w: Writer, v: O | I): void;
}

/** The avax structures over a VM's fx values. */
export function avaxCodec<O, I>(fx: FxCodec<O, I>) {
  const readTransferableOutput = (r: Reader): TransferableOutput<O> => ({ assetID: r.fixed(32), out: fx.readOutput(r) });
  const writeTransferableOutput = (w: Writer, o: TransferableOutput<O>): void => {
    w.fixed(o.assetID, 32);
    fx.writeValue(w, o.out);
  };
  const readTransferableInput = (r: Reader): TransferableInput<I> => ({ utxoID: readUTXOID(r), assetID: r.fixed(32), input: fx.readInput(r) });
  const writeTransferableInput = (w: Writer, i: TransferableInput<I>): void => {
    writeUTXOID(w, i.utxoID);
    w.fixed(i.assetID, 32);
    fx.writeValue(w, i.input);
  };
  const readUTXO = (r: Reader): UTXO<O> => ({ utxoID: readUTXOID(r), assetID: r.fixed(32), output: fx.readUTXOOutput(r) });
  return {
    readTransferableOutput,
    writeTransferableOutput,
    readTransferableInput,
    writeTransferableInput,
    readBaseTx: (r: Reader): BaseTxFields<O, I> => ({
      networkID: r.u32(),
      blockchainID: r.fixed(32),
      outputs: readList(r, readTransferableOutput),
      inputs: readList(r, readTransferableInput),
      memo: r.byteSlice(),
    }),
    writeBaseTx: (w: Writer, b: BaseTxFields<O, I>): void => {
      w.u32(b.networkID).fixed(b.blockchainID, 32);
      writeList(w, b.outputs, writeTransferableOutput);
      writeList(w, b.inputs, writeTransferableInput);
      w.byteSlice(b.memo);
    },
    /** An ImportTx's fields after its BaseTx (the same on the X- and P-Chain). */
    readImport: (r: Reader) => ({ sourceChain: r.fixed(32), importedInputs: readList(r, readTransferableInput) }),
    writeImport: (w: Writer, tx: { sourceChain: Uint8Array; importedInputs: TransferableInput<I>[] }): void => {
      w.fixed(tx.sourceChain, 32);
      writeList(w, tx.importedInputs, writeTransferableInput);
    },
    /** An ExportTx's fields after its BaseTx. */
    readExport: (r: Reader) => ({ destinationChain: r.fixed(32), exportedOutputs: readList(r, readTransferableOutput) }),
    writeExport: (w: Writer, tx: { destinationChain: Uint8Array; exportedOutputs: TransferableOutput<O>[] }): void => {
      w.fixed(tx.destinationChain, 32);
      writeList(w, tx.exportedOutputs, writeTransferableOutput);
    },
    readUTXO,
    /** avax.UTXO as stored and served by getUTXOs: u16 0 ‖ txID ‖ u32 index ‖ assetID ‖ output. */
    marshalUTXO: (u: UTXO<O>): Uint8Array => {
      const w = versioned();
      writeUTXOID(w, u.utxoID);
      w.fixed(u.assetID, 32);
      fx.writeValue(w, u.output);
      return w.finish();
    },
    parseUTXO: (bytes: Uint8Array): UTXO<O> => unmarshal(bytes, readUTXO),
  };
}

/**
 * A txs.Tx read at the reader's position (after a codec version, or inside a block): the unsigned
 * tx, then its credentials. Its bytes are re-prefixed with version 0, as tx.Initialize re-marshals
 * a block's txs, so that a tx has the same bytes and ID in a block as when it was issued.
 */
export function readSignedTx<U, C>(r: Reader, readUnsigned: (r: Reader) => U, readCredential: (r: Reader) => C): SignedTx<U, C> {
  const start = r.offset;
  const unsigned = readUnsigned(r);
  const unsignedEnd = r.offset;
  const credentials = readList(r, readCredential);
  const bytes = new Uint8Array(2 + r.offset - start);
  bytes.set(r.bytes.subarray(start, r.offset), 2);
  return { unsigned, credentials, bytes, unsignedBytes: bytes.subarray(0, 2 + unsignedEnd - start), id: sha256(bytes) };
}

/** codec.Marshal(&tx.Unsigned) (u32 type ‖ fields, after the version): what a tx's signatures sign (its sha256). */
export function marshalUnsigned<U>(unsigned: U, writeUnsigned: (w: Writer, u: U) => void): Uint8Array {
  const w = versioned();
  writeUnsigned(w, unsigned);
  return w.finish();
}

/** A signed tx from its parts: the unsigned tx's bytes, then the credentials. */
export function buildSignedTx<U, C>(
  unsigned: U,
  credentials: C[],
  writeUnsigned: (w: Writer, u: U) => void,
  writeCredential: (w: Writer, c: C) => void,
): SignedTx<U, C> {
  const w = versioned();
  writeUnsigned(w, unsigned);
  const unsignedLength = w.length;
  writeList(w, credentials, writeCredential);
  const bytes = w.finish();
  return { unsigned, credentials, bytes, unsignedBytes: bytes.subarray(0, unsignedLength), id: sha256(bytes) };
}

// coreth's atomic codec (graft/coreth/plugin/evm/atomic/codec.go): the linear codec v0 with
//   0 UnsignedImportTx, 1 UnsignedExportTx, 2-4 skipped, 5 secp256k1fx.TransferInput, 6 skipped,
//   7 TransferOutput, 8 skipped, 9 Credential, 10 Input, 11 OutputOwners.
// A Tx is its UnsignedAtomicTx interface (u32 type ‖ body) and its credentials ([]verify.Verifiable,
// each u32 type ‖ body); a block's extData is a []*Tx. UTXOs exported from the C-Chain use the
// same layout as every other chain's (avax.UTXO with a type-7 output), so X and P read them as is.
import { sha256 } from '@noble/hashes/sha2.js';
import { CodecError, type Reader, unmarshal, versioned, type Writer } from '../../../encoding/packer.js';

export { CodecError };

export interface OutputOwners {
  locktime: bigint;
  threshold: number;
  addresses: Uint8Array[];
}

/** secp256k1fx.TransferOutput (7): the only output an atomic tx or UTXO holds. */
export interface TransferOutput {
  type: 7;
  amount: bigint;
  owners: OutputOwners;
}

/** secp256k1fx.TransferInput (5). */
export interface TransferInput {
  type: 5;
  amount: bigint;
  sigIndices: number[];
}

/** secp256k1fx.Credential (9): 65-byte [r ‖ s ‖ v] signatures. */
export interface Credential {
  type: 9;
  signatures: Uint8Array[];
}

/**
 * What a credential slot (verify.Verifiable) parses: every registered fx type has Verify(), so an
 * input, an output, an Input (10) or OutputOwners (11) parse there and fail verification later.
 */
export type Verifiable = TransferInput | TransferOutput | Credential | { type: 10; sigIndices: number[] } | { type: 11; owners: OutputOwners };

export interface TransferableInput {
  txID: Uint8Array;
  outputIndex: number;
  assetID: Uint8Array;
  input: TransferInput;
}

export interface TransferableOutput {
  assetID: Uint8Array;
  output: TransferOutput;
}

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

export interface AtomicTx {
  unsigned: UnsignedAtomicTx;
  credentials: Verifiable[];
  /** u16 0 ‖ u32 type ‖ body ‖ creds: what the ID hashes and getAtomicTx serves. */
  bytes: Uint8Array;
  /** u16 0 ‖ u32 type ‖ body: what the signatures sign (its sha256) and what gas counts. */
  unsignedBytes: Uint8Array;
  /** sha256(bytes) */
  id: Uint8Array;
}

export interface AtomicUTXO {
  txID: Uint8Array;
  outputIndex: number;
  assetID: Uint8Array;
  output: TransferOutput;
}

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

interface Slot {
  name: string;
  accepts: ReadonlySet<number>;
}

const SLOTS = {
  unsignedTx: { name: 'atomic.UnsignedAtomicTx', accepts: new Set([0, 1]) },
  transferableIn: { name: 'avax.TransferableIn', accepts: new Set([5]) },
  transferableOut: { name: 'avax.TransferableOut', accepts: new Set([7]) },
  verifiable: { name: 'verify.Verifiable', accepts: new Set([5, 7, 9, 10, 11]) },
  // Only TransferOutput embeds verify.IsState among the registered types.
  state: { name: 'verify.State', accepts: new Set([7]) },
} as const satisfies Record<string, Slot>;

function readTypeID(r: Reader, slot: Slot): number {
  const id = r.typeID();
  const name = TYPE_NAMES[id];
  if (name === undefined) throw new CodecError(`couldn't unmarshal interface: unknown type ID ${id}`);
  if (!slot.accepts.has(id)) throw new CodecError(`couldn't unmarshal interface: ${name} does not implement interface ${slot.name}`);
  return id;
}

function readList<T>(r: Reader, item: (r: Reader) => T): T[] {
  const n = r.sliceLength();
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(item(r));
  return out;
}

const readOwners = (r: Reader): OutputOwners => ({ locktime: r.u64(), threshold: r.u32(), addresses: readList(r, (r) => r.fixed(20)) });
const readSigIndices = (r: Reader): number[] => readList(r, (r) => r.u32());

/** The body of a registered fx type (no type ID). */
function readFx(r: Reader, type: number): Verifiable {
  switch (type) {
    case 5:
      return { type: 5, amount: r.u64(), sigIndices: readSigIndices(r) };
    case 7:
      return { type: 7, amount: r.u64(), owners: readOwners(r) };
    case 9:
      return { type: 9, signatures: readList(r, (r) => r.fixed(65)) };
    case 10:
      return { type: 10, sigIndices: readSigIndices(r) };
    default:
      return { type: 11, owners: readOwners(r) };
  }
}

function writeOwners(w: Writer, o: OutputOwners): void {
  w.u64(o.locktime).u32(o.threshold).u32(o.addresses.length);
  for (const a of o.addresses) w.fixed(a, 20);
}

function writeFx(w: Writer, v: Verifiable): void {
  w.u32(v.type);
  switch (v.type) {
    case 5:
    case 10:
      if (v.type === 5) w.u64(v.amount);
      w.u32(v.sigIndices.length);
      for (const i of v.sigIndices) w.u32(i);
      return;
    case 7:
      w.u64(v.amount);
      writeOwners(w, v.owners);
      return;
    case 9:
      w.u32(v.signatures.length);
      for (const s of v.signatures) w.fixed(s, 65);
      return;
    case 11:
      writeOwners(w, v.owners);
      return;
  }
}

const readTransferableInput = (r: Reader): TransferableInput => ({
  txID: r.fixed(32),
  outputIndex: r.u32(),
  assetID: r.fixed(32),
  input: readFx(r, readTypeID(r, SLOTS.transferableIn)) as TransferInput,
});

const readTransferableOutput = (r: Reader): TransferableOutput => ({
  assetID: r.fixed(32),
  output: readFx(r, readTypeID(r, SLOTS.transferableOut)) as TransferOutput,
});

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
function readTx(r: Reader): AtomicTx {
  const start = r.offset;
  const unsigned = readUnsigned(r);
  const mid = r.offset;
  const credentials = readList(r, (r) => readFx(r, readTypeID(r, SLOTS.verifiable)));
  const prefixed = (from: number, to: number) => {
    const out = new Uint8Array(2 + to - from);
    out.set(r.bytes.subarray(from, to), 2);
    return out;
  };
  const bytes = prefixed(start, r.offset);
  return { unsigned, credentials, bytes, unsignedBytes: prefixed(start, mid), id: sha256(bytes) };
}

/** atomic.Codec.Unmarshal into a Tx. */
export function parseAtomicTx(bytes: Uint8Array): AtomicTx {
  return unmarshal(bytes, readTx);
}

/** ExtractAtomicTxsBatch: a block's extData, which must hold at least one tx. */
export function parseBatch(extData: Uint8Array): AtomicTx[] {
  const txs = unmarshal(extData, (r) => readList(r, readTx));
  if (txs.length === 0) throw new CodecError('cannot build a block with non-empty extra data and zero atomic transactions');
  return txs;
}

/** atomic.Codec.Marshal([]*Tx): the extData of a block carrying `txs`. */
export function marshalBatch(txs: readonly AtomicTx[]): Uint8Array {
  const w = versioned().u32(txs.length);
  for (const tx of txs) w.fixed(tx.bytes.subarray(2));
  return w.finish();
}

/** Builds a signed tx from its parts (the bytes as Tx.Sign marshals them). */
export function buildAtomicTx(unsigned: UnsignedAtomicTx, credentials: Verifiable[]): AtomicTx {
  const w = versioned();
  w.u32(unsigned.type).u32(unsigned.networkID).fixed(unsigned.blockchainID, 32);
  if (unsigned.type === 0) {
    w.fixed(unsigned.sourceChain, 32).u32(unsigned.importedInputs.length);
    for (const i of unsigned.importedInputs) {
      w.fixed(i.txID, 32).u32(i.outputIndex).fixed(i.assetID, 32);
      writeFx(w, i.input);
    }
    w.u32(unsigned.outs.length);
    for (const o of unsigned.outs) w.fixed(o.address, 20).u64(o.amount).fixed(o.assetID, 32);
  } else {
    w.fixed(unsigned.destinationChain, 32).u32(unsigned.ins.length);
    for (const i of unsigned.ins) w.fixed(i.address, 20).u64(i.amount).fixed(i.assetID, 32).u64(i.nonce);
    w.u32(unsigned.exportedOutputs.length);
    for (const o of unsigned.exportedOutputs) {
      w.fixed(o.assetID, 32);
      writeFx(w, o.output);
    }
  }
  const unsignedBytes = w.finish();
  w.u32(credentials.length);
  for (const c of credentials) writeFx(w, c);
  const bytes = w.finish();
  return { unsigned, credentials, bytes, unsignedBytes, id: sha256(bytes) };
}

/** atomic.Codec.Marshal(avax.UTXO). */
export function marshalUTXO(u: AtomicUTXO): Uint8Array {
  const w = versioned().fixed(u.txID, 32).u32(u.outputIndex).fixed(u.assetID, 32);
  writeFx(w, u.output);
  return w.finish();
}

/** atomic.Codec.Unmarshal into an avax.UTXO (as another chain's export wrote it). */
export function parseUTXO(bytes: Uint8Array): AtomicUTXO {
  return unmarshal(bytes, (r) => ({
    txID: r.fixed(32),
    outputIndex: r.u32(),
    assetID: r.fixed(32),
    output: readFx(r, readTypeID(r, SLOTS.state)) as TransferOutput,
  }));
}

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
export function utxoInputID(txID: Uint8Array, outputIndex: number): Uint8Array {
  const b = new Uint8Array(40);
  b.set(u64be(BigInt(outputIndex)));
  b.set(txID, 8);
  return sha256(b);
}

/**
 * InputUTXOs: what a tx consumes, for conflicts. An import's are its UTXO IDs; an export's are
 * u64 nonce ‖ u32 20 ‖ address (a Packer's PackLong and PackBytes into 32 bytes), one per input.
 */
export function inputUTXOs(utx: UnsignedAtomicTx): Uint8Array[] {
  if (utx.type === 0) return utx.importedInputs.map((i) => utxoInputID(i.txID, i.outputIndex));
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
  return tx.unsigned.exportedOutputs.map((o, i) => ({ txID: tx.id, outputIndex: i, assetID: o.assetID, output: o.output }));
}

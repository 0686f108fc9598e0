// Signed and unsigned P-Chain txs and UTXOs in the linear codec (vms/platformvm/txs). Embedded
// structs are written inline; a u32 type ID appears only where the Go field is an interface.
import { sha256 } from '@noble/hashes/sha2.js';
import { CodecError, type Reader, unmarshal, versioned, Writer } from '../../../encoding/packer.js';
import type {
  BaseTxFields,
  ConvertValidator,
  FxValue,
  Input,
  Output,
  Owners,
  OwnersValue,
  Signer,
  SignedTx,
  TransferableInput,
  TransferableOutput,
  TransferInput,
  TransferOutput,
  UnsignedTx,
  UTXO,
} from '../types.js';
import { readTypeID, SLOTS, typeName } from './slots.js';

function list<T>(r: Reader, item: (r: Reader) => T): T[] {
  const n = r.sliceLength();
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(item(r));
  return out;
}

function writeList<T>(w: Writer, items: readonly T[], item: (w: Writer, t: T) => void): void {
  w.u32(items.length);
  for (const t of items) item(w, t);
}

const readOwners = (r: Reader): Owners => ({ locktime: r.u64(), threshold: r.u32(), addresses: list(r, (r) => r.fixed(20)) });
const writeOwners = (w: Writer, o: Owners) => {
  w.u64(o.locktime).u32(o.threshold);
  writeList(w, o.addresses, (w, a) => w.fixed(a, 20));
};
const readIndices = (r: Reader) => list(r, (r) => r.u32());
const writeIndices = (w: Writer, ix: readonly number[]) => writeList(w, ix, (w, i) => w.u32(i));

const readTransferOutput = (r: Reader): TransferOutput => ({ type: 7, amount: r.u64(), owners: readOwners(r) });
const readTransferInput = (r: Reader): TransferInput => ({ type: 5, amount: r.u64(), sigIndices: readIndices(r) });

/** The body of any fx value by its (already read) type ID. */
function readFxBody(r: Reader, type: number): FxValue {
  switch (type) {
    case 5:
      return readTransferInput(r);
    case 7:
      return readTransferOutput(r);
    case 9:
      return { type: 9, signatures: list(r, (r) => r.fixed(65)) };
    case 10:
      return { type: 10, sigIndices: readIndices(r) };
    case 11:
      return { type: 11, owners: readOwners(r) };
    case 21: {
      const locktime = r.u64();
      if (readTypeID(r, SLOTS.transferableIn) !== 5)
        throw new CodecError("couldn't unmarshal interface: *stakeable.LockIn does not implement interface secp256k1fx.TransferInput");
      return { type: 21, locktime, in: readTransferInput(r) };
    }
    case 22: {
      const locktime = r.u64();
      if (readTypeID(r, SLOTS.transferableOut) !== 7)
        throw new CodecError("couldn't unmarshal interface: *stakeable.LockOut does not implement interface secp256k1fx.TransferOutput");
      return { type: 22, locktime, out: readTransferOutput(r) };
    }
    default:
      throw new CodecError(`couldn't unmarshal interface: ${typeName(type)} is not an fx type`);
  }
}

export function writeFxValue(w: Writer, v: FxValue): void {
  w.u32(v.type);
  switch (v.type) {
    case 5:
      w.u64(v.amount);
      writeIndices(w, v.sigIndices);
      return;
    case 7:
      w.u64(v.amount);
      writeOwners(w, v.owners);
      return;
    case 9:
      writeList(w, v.signatures, (w, s) => w.fixed(s, 65));
      return;
    case 10:
      writeIndices(w, v.sigIndices);
      return;
    case 11:
      writeOwners(w, v.owners);
      return;
    case 21:
      w.u64(v.locktime);
      writeFxValue(w, v.in);
      return;
    case 22:
      w.u64(v.locktime);
      writeFxValue(w, v.out);
      return;
  }
}

const readVerifiable = (r: Reader): FxValue => readFxBody(r, readTypeID(r, SLOTS.verifiable));
const readOwnerValue = (r: Reader): OwnersValue => readFxBody(r, readTypeID(r, SLOTS.owner)) as OwnersValue;
const readOutput = (r: Reader): Output => readFxBody(r, readTypeID(r, SLOTS.transferableOut)) as Output;
const readInput = (r: Reader): Input => readFxBody(r, readTypeID(r, SLOTS.transferableIn)) as Input;

const readTransferableOutput = (r: Reader): TransferableOutput => ({ assetID: r.fixed(32), out: readOutput(r) });
const writeTransferableOutput = (w: Writer, o: TransferableOutput) => {
  w.fixed(o.assetID, 32);
  writeFxValue(w, o.out);
};
const readTransferableInput = (r: Reader): TransferableInput => ({
  utxoID: { txID: r.fixed(32), outputIndex: r.u32() },
  assetID: r.fixed(32),
  input: readInput(r),
});
const writeTransferableInput = (w: Writer, i: TransferableInput) => {
  w.fixed(i.utxoID.txID, 32).u32(i.utxoID.outputIndex).fixed(i.assetID, 32);
  writeFxValue(w, i.input);
};

function readBase(r: Reader): BaseTxFields {
  return {
    networkID: r.u32(),
    blockchainID: r.fixed(32),
    outputs: list(r, readTransferableOutput),
    inputs: list(r, readTransferableInput),
    memo: r.byteSlice(),
  };
}

function writeBase(w: Writer, b: BaseTxFields): void {
  w.u32(b.networkID).fixed(b.blockchainID, 32);
  writeList(w, b.outputs, writeTransferableOutput);
  writeList(w, b.inputs, writeTransferableInput);
  w.byteSlice(b.memo);
}

const readStaker = (r: Reader) => ({ nodeID: r.fixed(20), start: r.u64(), end: r.u64(), weight: r.u64() });
const writeStaker = (w: Writer, s: { nodeID: Uint8Array; start: bigint; end: bigint; weight: bigint }) => {
  w.fixed(s.nodeID, 20).u64(s.start).u64(s.end).u64(s.weight);
};

function readSigner(r: Reader): Signer {
  const type = readTypeID(r, SLOTS.signer);
  return type === 27 ? { type: 27 } : { type: 28, publicKey: r.fixed(48), proofOfPossession: r.fixed(96) };
}

function writeSigner(w: Writer, s: Signer): void {
  w.u32(s.type);
  if (s.type === 28) w.fixed(s.publicKey, 48).fixed(s.proofOfPossession, 96);
}

const readPChainOwner = (r: Reader) => ({ threshold: r.u32(), addresses: list(r, (r) => r.fixed(20)) });
const writePChainOwner = (w: Writer, o: { threshold: number; addresses: Uint8Array[] }) => {
  w.u32(o.threshold);
  writeList(w, o.addresses, (w, a) => w.fixed(a, 20));
};

function readConvertValidator(r: Reader): ConvertValidator {
  return {
    nodeID: r.byteSlice(),
    weight: r.u64(),
    balance: r.u64(),
    publicKey: r.fixed(48),
    proofOfPossession: r.fixed(96),
    remainingBalanceOwner: readPChainOwner(r),
    deactivationOwner: readPChainOwner(r),
  };
}

function writeConvertValidator(w: Writer, v: ConvertValidator): void {
  w.byteSlice(v.nodeID).u64(v.weight).u64(v.balance).fixed(v.publicKey, 48).fixed(v.proofOfPossession, 96);
  writePChainOwner(w, v.remainingBalanceOwner);
  writePChainOwner(w, v.deactivationOwner);
}

/** Types of txs.UnsignedTx this emulator executes; the legacy ones parse in Go but are refused by it. */
function readUnsignedBody(r: Reader, type: number): UnsignedTx {
  if (type === 20) return { type: 20, txID: r.fixed(32) };
  const base = readBase(r);
  switch (type) {
    case 34:
      return { type: 34, base };
    case 13: {
      const s = readStaker(r);
      return { type: 13, base, ...s, subnetID: r.fixed(32), auth: readVerifiable(r) };
    }
    case 15:
      return {
        type: 15,
        base,
        subnetID: r.fixed(32),
        chainName: r.string(),
        vmID: r.fixed(32),
        fxIDs: list(r, (r) => r.fixed(32)),
        genesis: r.byteSlice(),
        auth: readVerifiable(r),
      };
    case 16:
      return { type: 16, base, owner: readOwnerValue(r) };
    case 17:
      return { type: 17, base, sourceChain: r.fixed(32), importedInputs: list(r, readTransferableInput) };
    case 18:
      return { type: 18, base, destinationChain: r.fixed(32), exportedOutputs: list(r, readTransferableOutput) };
    case 23:
      return { type: 23, base, nodeID: r.fixed(20), subnetID: r.fixed(32), auth: readVerifiable(r) };
    case 25: {
      const s = readStaker(r);
      return {
        type: 25,
        base,
        ...s,
        subnetID: r.fixed(32),
        signer: readSigner(r),
        stakeOuts: list(r, readTransferableOutput),
        validatorRewardsOwner: readOwnerValue(r),
        delegatorRewardsOwner: readOwnerValue(r),
        delegationShares: r.u32(),
      };
    }
    case 26: {
      const s = readStaker(r);
      return { type: 26, base, ...s, subnetID: r.fixed(32), stakeOuts: list(r, readTransferableOutput), delegationRewardsOwner: readOwnerValue(r) };
    }
    case 33:
      return { type: 33, base, subnetID: r.fixed(32), auth: readVerifiable(r), owner: readOwnerValue(r) };
    case 35:
      return {
        type: 35,
        base,
        subnetID: r.fixed(32),
        chainID: r.fixed(32),
        address: r.byteSlice(),
        validators: list(r, readConvertValidator),
        auth: readVerifiable(r),
      };
    case 36:
      return { type: 36, base, balance: r.u64(), proofOfPossession: r.fixed(96), message: r.byteSlice() };
    case 37:
      return { type: 37, base, message: r.byteSlice() };
    case 38:
      return { type: 38, base, validationID: r.fixed(32), balance: r.u64() };
    case 39:
      return { type: 39, base, validationID: r.fixed(32), auth: readVerifiable(r) };
    default:
      // AddValidatorTx, AddDelegatorTx, AdvanceTimeTx, TransformSubnetTx: refused since Durango/Etna.
      throw new UnsupportedTxError(typeName(type));
  }
}

/** A legacy tx type: it parses on the real node and then fails its execution as unsupported. */
export class UnsupportedTxError extends CodecError {}

function writeUnsignedBody(w: Writer, tx: UnsignedTx): void {
  if (tx.type === 20) {
    w.fixed(tx.txID, 32);
    return;
  }
  writeBase(w, tx.base);
  switch (tx.type) {
    case 34:
      return;
    case 13:
      writeStaker(w, tx);
      w.fixed(tx.subnetID, 32);
      writeFxValue(w, tx.auth);
      return;
    case 15:
      w.fixed(tx.subnetID, 32).string(tx.chainName).fixed(tx.vmID, 32);
      writeList(w, tx.fxIDs, (w, id) => w.fixed(id, 32));
      w.byteSlice(tx.genesis);
      writeFxValue(w, tx.auth);
      return;
    case 16:
      writeFxValue(w, tx.owner);
      return;
    case 17:
      w.fixed(tx.sourceChain, 32);
      writeList(w, tx.importedInputs, writeTransferableInput);
      return;
    case 18:
      w.fixed(tx.destinationChain, 32);
      writeList(w, tx.exportedOutputs, writeTransferableOutput);
      return;
    case 23:
      w.fixed(tx.nodeID, 20).fixed(tx.subnetID, 32);
      writeFxValue(w, tx.auth);
      return;
    case 25:
      writeStaker(w, tx);
      w.fixed(tx.subnetID, 32);
      writeSigner(w, tx.signer);
      writeList(w, tx.stakeOuts, writeTransferableOutput);
      writeFxValue(w, tx.validatorRewardsOwner);
      writeFxValue(w, tx.delegatorRewardsOwner);
      w.u32(tx.delegationShares);
      return;
    case 26:
      writeStaker(w, tx);
      w.fixed(tx.subnetID, 32);
      writeList(w, tx.stakeOuts, writeTransferableOutput);
      writeFxValue(w, tx.delegationRewardsOwner);
      return;
    case 33:
      w.fixed(tx.subnetID, 32);
      writeFxValue(w, tx.auth);
      writeFxValue(w, tx.owner);
      return;
    case 35:
      w.fixed(tx.subnetID, 32).fixed(tx.chainID, 32).byteSlice(tx.address);
      writeList(w, tx.validators, writeConvertValidator);
      writeFxValue(w, tx.auth);
      return;
    case 36:
      w.u64(tx.balance).fixed(tx.proofOfPossession, 96).byteSlice(tx.message);
      return;
    case 37:
      w.byteSlice(tx.message);
      return;
    case 38:
      w.fixed(tx.validationID, 32).u64(tx.balance);
      return;
    case 39:
      w.fixed(tx.validationID, 32);
      writeFxValue(w, tx.auth);
      return;
  }
}

/** A tx inside a block or the genesis: u32 type ‖ body ‖ credentials, without a codec version. */
export function readTx(r: Reader): SignedTx {
  const start = r.offset;
  const unsigned = readUnsignedBody(r, readTypeID(r, SLOTS.unsignedTx));
  const unsignedEnd = r.offset;
  const credentials = list(r, readVerifiable);
  return withIDs(unsigned, credentials, r.bytes.subarray(start, unsignedEnd), r.bytes.subarray(start, r.offset));
}

function withIDs(unsigned: UnsignedTx, credentials: FxValue[], body: Uint8Array, all: Uint8Array): SignedTx {
  const bytes = Buffer.concat([Uint8Array.of(0, 0), all]);
  const unsignedBytes = Buffer.concat([Uint8Array.of(0, 0), body]);
  return { unsigned, credentials, bytes: new Uint8Array(bytes), unsignedBytes: new Uint8Array(unsignedBytes), id: sha256(bytes) };
}

/** txs.Parse: a signed tx's bytes (codec version 0). */
export function parseTx(bytes: Uint8Array): SignedTx {
  return unmarshal(bytes, readTx);
}

export function marshalUnsignedTx(tx: UnsignedTx): Uint8Array {
  const w = versioned().u32(tx.type);
  writeUnsignedBody(w, tx);
  return w.finish();
}

/** A signed tx from its parts (credentials in input order, the subnet auth's last). */
export function buildTx(unsigned: UnsignedTx, credentials: FxValue[]): SignedTx {
  const unsignedBytes = marshalUnsignedTx(unsigned);
  const w = new Writer().fixed(unsignedBytes);
  writeList(w, credentials, writeFxValue);
  const bytes = w.finish();
  return { unsigned, credentials, bytes, unsignedBytes, id: sha256(bytes) };
}

export function marshalUTXO(u: UTXO): Uint8Array {
  const w = versioned().fixed(u.utxoID.txID, 32).u32(u.utxoID.outputIndex).fixed(u.assetID, 32);
  writeFxValue(w, u.output);
  return w.finish();
}

export const readUTXO = (r: Reader): UTXO => ({
  utxoID: { txID: r.fixed(32), outputIndex: r.u32() },
  assetID: r.fixed(32),
  output: readOutput(r),
});

export function parseUTXO(bytes: Uint8Array): UTXO {
  return unmarshal(bytes, readUTXO);
}

/** codec.Marshal of a TransferableOutput (version included): what outputs are sorted by. */
export function encodeTransferableOutput(o: TransferableOutput): Uint8Array {
  const w = versioned();
  writeTransferableOutput(w, o);
  return w.finish();
}

/** codec.Marshal of a secp256k1fx.OutputOwners struct (no type ID). */
export function marshalOwners(o: Owners): Uint8Array {
  const w = versioned();
  writeOwners(w, o);
  return w.finish();
}

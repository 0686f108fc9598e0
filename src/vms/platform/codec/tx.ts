// Signed and unsigned P-Chain txs and UTXOs in the linear codec (vms/platformvm/txs). Embedded
// structs are written inline; a u32 type ID appears only where the Go field is an interface.
import { CodecError, type Reader, unmarshal, versioned, type Writer } from '../../../encoding/packer.js';
import type {
  ConvertValidator,
  FxValue,
  Input,
  Output,
  Owners,
  OwnersValue,
  Signer,
  SignedTx,
  TransferableOutput,
  TransferInput,
  TransferOutput,
  UnsignedTx,
  UTXO,
} from '../types.js';
import { readTypeID, SLOTS, typeName } from './slots.js';
import { avaxCodec, buildSignedTx, readList, readSignedTx, writeList } from '../../components/avax/codec.js';
import { readSecpBody, writeOwners, writeSecpBody } from '../../components/secp256k1fx/codec.js';

/** The body of any fx value by its (already read) type ID. */
function readFxBody(r: Reader, type: number): FxValue {
  switch (type) {
    case 5:
    case 7:
    case 9:
    case 10:
    case 11:
      return readSecpBody(r, type);
    case 21: {
      const locktime = r.u64();
      if (readTypeID(r, SLOTS.transferableIn) !== 5)
        throw new CodecError("couldn't unmarshal interface: *stakeable.LockIn does not implement interface secp256k1fx.TransferInput");
      return { type: 21, locktime, in: readSecpBody(r, 5) as TransferInput };
    }
    case 22: {
      const locktime = r.u64();
      if (readTypeID(r, SLOTS.transferableOut) !== 7)
        throw new CodecError("couldn't unmarshal interface: *stakeable.LockOut does not implement interface secp256k1fx.TransferOutput");
      return { type: 22, locktime, out: readSecpBody(r, 7) as TransferOutput };
    }
    default:
      throw new CodecError(`couldn't unmarshal interface: ${typeName(type)} is not an fx type`);
  }
}

export function writeFxValue(w: Writer, v: FxValue): void {
  w.u32(v.type);
  if (v.type === 21) {
    w.u64(v.locktime);
    writeFxValue(w, v.in);
  } else if (v.type === 22) {
    w.u64(v.locktime);
    writeFxValue(w, v.out);
  } else writeSecpBody(w, v);
}

const readVerifiable = (r: Reader): FxValue => readFxBody(r, readTypeID(r, SLOTS.verifiable));
const readOwnerValue = (r: Reader): OwnersValue => readFxBody(r, readTypeID(r, SLOTS.owner)) as OwnersValue;
const readOutput = (r: Reader): Output => readFxBody(r, readTypeID(r, SLOTS.transferableOut)) as Output;

const avax = avaxCodec<Output, Input>({
  readOutput,
  readInput: (r) => readFxBody(r, readTypeID(r, SLOTS.transferableIn)) as Input,
  readUTXOOutput: readOutput,
  writeValue: writeFxValue,
});
const { readBaseTx: readBase, readTransferableOutput, writeBaseTx: writeBase, writeTransferableOutput } = avax;

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

const readPChainOwner = (r: Reader) => ({ threshold: r.u32(), addresses: readList(r, (r) => r.fixed(20)) });
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
        fxIDs: readList(r, (r) => r.fixed(32)),
        genesis: r.byteSlice(),
        auth: readVerifiable(r),
      };
    case 16:
      return { type: 16, base, owner: readOwnerValue(r) };
    case 17:
      return { type: 17, base, ...avax.readImport(r) };
    case 18:
      return { type: 18, base, ...avax.readExport(r) };
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
        stakeOuts: readList(r, readTransferableOutput),
        validatorRewardsOwner: readOwnerValue(r),
        delegatorRewardsOwner: readOwnerValue(r),
        delegationShares: r.u32(),
      };
    }
    case 26: {
      const s = readStaker(r);
      return { type: 26, base, ...s, subnetID: r.fixed(32), stakeOuts: readList(r, readTransferableOutput), delegationRewardsOwner: readOwnerValue(r) };
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
        validators: readList(r, readConvertValidator),
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
      avax.writeImport(w, tx);
      return;
    case 18:
      avax.writeExport(w, tx);
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
export const readTx = (r: Reader): SignedTx => readSignedTx(r, (r) => readUnsignedBody(r, readTypeID(r, SLOTS.unsignedTx)), readVerifiable);

/** txs.Parse: a signed tx's bytes (codec version 0). */
export function parseTx(bytes: Uint8Array): SignedTx {
  return unmarshal(bytes, readTx);
}

function writeUnsigned(w: Writer, tx: UnsignedTx): void {
  w.u32(tx.type);
  writeUnsignedBody(w, tx);
}

/** A signed tx from its parts (credentials in input order, the subnet auth's last). */
export const buildTx = (unsigned: UnsignedTx, credentials: FxValue[]): SignedTx => buildSignedTx(unsigned, credentials, writeUnsigned, writeFxValue);

export const marshalUTXO: (u: UTXO) => Uint8Array = avax.marshalUTXO;
export const readUTXO: (r: Reader) => UTXO = avax.readUTXO;
export const parseUTXO: (bytes: Uint8Array) => UTXO = avax.parseUTXO;

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

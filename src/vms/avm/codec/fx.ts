// The fx types (secp256k1fx 5..9, nftfx 10..14, propertyfx 15..19): their bodies, and the
// interface slots that decide at parse time which type IDs may appear where. A registered type in
// the wrong slot is a parse error naming Go's types, e.g.
// `couldn't unmarshal interface: *secp256k1fx.MintOutput does not implement interface avax.TransferableOut`.
import type { FxValue, OperationBody, Output } from '../types.js';
import type { Reader, Writer } from '../../../encoding/packer.js';
import { readList, readSlotTypeID, writeList, type Slot } from '../../components/avax/codec.js';
import { readOwners, readSigIndices, readSignatures, writeOwners, writeSigIndices, writeSignatures } from '../../components/secp256k1fx/codec.js';

/** Go type names by codec type ID, in registration order (tx types, the three fxs, the block). */
const TYPE_NAMES = [
  '*txs.BaseTx',
  '*txs.CreateAssetTx',
  '*txs.OperationTx',
  '*txs.ImportTx',
  '*txs.ExportTx',
  '*secp256k1fx.TransferInput',
  '*secp256k1fx.MintOutput',
  '*secp256k1fx.TransferOutput',
  '*secp256k1fx.MintOperation',
  '*secp256k1fx.Credential',
  '*nftfx.MintOutput',
  '*nftfx.TransferOutput',
  '*nftfx.MintOperation',
  '*nftfx.TransferOperation',
  '*nftfx.Credential',
  '*propertyfx.MintOutput',
  '*propertyfx.OwnedOutput',
  '*propertyfx.MintOperation',
  '*propertyfx.BurnOperation',
  '*propertyfx.Credential',
  '*block.StandardBlock',
] as const;

export const STANDARD_BLOCK_TYPE = 20;

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export const SLOTS = {
  unsignedTx: { name: 'txs.UnsignedTx', accepts: new Set(range(0, 4)) },
  // Only secp256k1fx.TransferOutput has Amount(); only TransferInput has Amount() and Cost().
  transferableOut: { name: 'avax.TransferableOut', accepts: new Set([7]) },
  transferableIn: { name: 'avax.TransferableIn', accepts: new Set([5]) },
  // Types embedding verify.IsState: the six outputs.
  state: { name: 'verify.State', accepts: new Set([6, 7, 10, 11, 15, 16]) },
  fxOperation: { name: 'fxs.FxOperation', accepts: new Set([8, 12, 13, 17, 18]) },
  // Every fx type has Verify() error; the tx types and the block do not.
  verifiable: { name: 'verify.Verifiable', accepts: new Set(range(5, 19)) },
  block: { name: 'block.Block', accepts: new Set([STANDARD_BLOCK_TYPE]) },
} as const satisfies Record<string, Slot>;

/** linearcodec UnpackPrefix: the type ID of an interface value, checked against its slot. */
export const readTypeID = (r: Reader, slot: Slot): number => readSlotTypeID(r, slot, (id) => TYPE_NAMES[id]);

/** The body (no type ID) of any fx value, in Go field order. */
export function readFxBody(r: Reader, type: number): FxValue {
  switch (type) {
    case 5:
      return { type: 5, amount: r.u64(), sigIndices: readSigIndices(r) };
    case 6:
    case 15:
    case 16:
      return { type: type as 6 | 15 | 16, owners: readOwners(r) };
    case 7:
      return { type: 7, amount: r.u64(), owners: readOwners(r) };
    case 10:
      return { type: 10, groupID: r.u32(), owners: readOwners(r) };
    case 11:
      return { type: 11, groupID: r.u32(), payload: r.byteSlice(), owners: readOwners(r) };
    case 8:
      return {
        type: 8,
        mintInput: readSigIndices(r),
        mintOutput: readOwners(r),
        transferOutput: { amount: r.u64(), owners: readOwners(r) },
      };
    case 12:
      return { type: 12, mintInput: readSigIndices(r), groupID: r.u32(), payload: r.byteSlice(), outputs: readList(r, readOwners) };
    case 13:
      return {
        type: 13,
        input: readSigIndices(r),
        output: { groupID: r.u32(), payload: r.byteSlice(), owners: readOwners(r) },
      };
    case 17:
      return { type: 17, mintInput: readSigIndices(r), mintOutput: readOwners(r), ownedOutput: readOwners(r) };
    case 18:
      return { type: 18, input: readSigIndices(r) };
    case 9:
    case 14:
    case 19:
      return { type: type as 9 | 14 | 19, signatures: readSignatures(r) };
    default:
      throw new Error(`not an fx type: ${type}`); // readTypeID's slots never let one through
  }
}

export function writeFxBody(w: Writer, v: FxValue): void {
  switch (v.type) {
    case 5:
      w.u64(v.amount);
      writeSigIndices(w, v.sigIndices);
      return;
    case 6:
    case 15:
    case 16:
      writeOwners(w, v.owners);
      return;
    case 7:
      w.u64(v.amount);
      writeOwners(w, v.owners);
      return;
    case 10:
      w.u32(v.groupID);
      writeOwners(w, v.owners);
      return;
    case 11:
      w.u32(v.groupID).byteSlice(v.payload);
      writeOwners(w, v.owners);
      return;
    case 8:
      writeSigIndices(w, v.mintInput);
      writeOwners(w, v.mintOutput);
      w.u64(v.transferOutput.amount);
      writeOwners(w, v.transferOutput.owners);
      return;
    case 12:
      writeSigIndices(w, v.mintInput);
      w.u32(v.groupID).byteSlice(v.payload);
      writeList(w, v.outputs, writeOwners);
      return;
    case 13:
      writeSigIndices(w, v.input);
      w.u32(v.output.groupID).byteSlice(v.output.payload);
      writeOwners(w, v.output.owners);
      return;
    case 17:
      writeSigIndices(w, v.mintInput);
      writeOwners(w, v.mintOutput);
      writeOwners(w, v.ownedOutput);
      return;
    case 18:
      writeSigIndices(w, v.input);
      return;
    case 9:
    case 14:
    case 19:
      writeSignatures(w, v.signatures);
      return;
  }
}

/** An interface value: u32 type ID ‖ body. */
export function writeFxValue(w: Writer, v: FxValue): void {
  w.u32(v.type);
  writeFxBody(w, v);
}

export function readOutput(r: Reader, slot: Slot): Output {
  return readFxBody(r, readTypeID(r, slot)) as Output;
}

export function readOperationBody(r: Reader): OperationBody {
  return readFxBody(r, readTypeID(r, SLOTS.fxOperation)) as OperationBody;
}

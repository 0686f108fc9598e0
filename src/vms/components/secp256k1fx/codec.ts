// secp256k1fx's structures in the linear codec, the same in every VM's codec whatever type IDs it
// gives them: OutputOwners, an Input's signature indices, and a Credential's signatures.
import { readList, writeList } from '../avax/codec.js';
import type { Reader, Writer } from '../../../encoding/packer.js';
import type { OutputOwners } from './fx.js';
import type { SecpValue } from './types.js';

export const readOwners = (r: Reader): OutputOwners => ({ locktime: r.u64(), threshold: r.u32(), addresses: readList(r, (r) => r.fixed(20)) });
export const writeOwners = (w: Writer, o: OutputOwners): void => {
  w.u64(o.locktime).u32(o.threshold);
  writeList(w, o.addresses, (w, a) => w.fixed(a, 20));
};

/** secp256k1fx.Input: the signature indices. */
export const readSigIndices = (r: Reader): number[] => readList(r, (r) => r.u32());
export const writeSigIndices = (w: Writer, indices: readonly number[]): void => writeList(w, indices, (w, i) => w.u32(i));

/** secp256k1fx.Credential: 65-byte [r ‖ s ‖ v] signatures. */
export const readSignatures = (r: Reader): Uint8Array[] => readList(r, (r) => r.fixed(65));
export const writeSignatures = (w: Writer, sigs: readonly Uint8Array[]): void => writeList(w, sigs, (w, s) => w.fixed(s, 65));

/** The body (no type ID) of a secp256k1fx value by its (already read) type ID. */
export function readSecpBody(r: Reader, type: SecpValue['type']): SecpValue {
  switch (type) {
    case 5:
      return { type: 5, amount: r.u64(), sigIndices: readSigIndices(r) };
    case 7:
      return { type: 7, amount: r.u64(), owners: readOwners(r) };
    case 9:
      return { type: 9, signatures: readSignatures(r) };
    case 10:
      return { type: 10, sigIndices: readSigIndices(r) };
    case 11:
      return { type: 11, owners: readOwners(r) };
  }
}

/** A secp256k1fx value's body, without its type ID. */
export function writeSecpBody(w: Writer, v: SecpValue): void {
  switch (v.type) {
    case 5:
      w.u64(v.amount);
      writeSigIndices(w, v.sigIndices);
      return;
    case 7:
      w.u64(v.amount);
      writeOwners(w, v.owners);
      return;
    case 9:
      writeSignatures(w, v.signatures);
      return;
    case 10:
      writeSigIndices(w, v.sigIndices);
      return;
    case 11:
      writeOwners(w, v.owners);
      return;
  }
}

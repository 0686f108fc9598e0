// Avalanche warp messages (avalanchego vms/platformvm/warp and warp/payload), for the P-Chain and
// every EVM chain alike: the unsigned message (network ID, source chain, payload) and its ID (the
// sha256 of its bytes); the signed message (the unsigned one, then a BitSetSignature: type 0, the
// signers' bitset, a 96-byte BLS aggregate); the payloads a chain sends (AddressedCall, Hash). The
// linear codec: big-endian integers, byte slices with a u32 length, interfaces with a u32 type ID,
// one u16 codec version in front, and its error texts. test/warp.test.ts holds these bytes to
// avalanchejs's warp types.
import { sha256 } from '../../../crypto/sha256.js';
import { u16, u32 } from '../../../encoding/bytes.js';
import { CodecError, unmarshal } from '../../../encoding/packer.js';

const CODEC_VERSION = 0;
/** bls.SignatureLen. */
const SIGNATURE_LEN = 96;
/** The BitSetSignature's type ID, the one signature type. */
const BIT_SET_SIGNATURE = 0;
const HASH = 0;
const ADDRESSED_CALL = 1;

const withLength = (b: Uint8Array) => Buffer.concat([u32(b.length), b]);
const unknownType = (type: number) => new CodecError(`couldn't unmarshal interface: unknown type ID ${type}`);

export interface UnsignedMessage {
  networkID: number;
  sourceChainID: Uint8Array;
  payload: Uint8Array;
  /** The message's bytes (with the codec version). */
  bytes: Uint8Array;
}

export interface SignedMessage {
  networkID: number;
  sourceChainID: Uint8Array;
  payload: Uint8Array;
  /** The unsigned message's bytes (with the codec version) and ID. */
  unsigned: Uint8Array;
  id: Uint8Array;
  /** The BitSetSignature: the signers' bitset (big-endian bytes) and the aggregate signature. */
  signers: Uint8Array;
  signature: Uint8Array;
}

export function unsignedMessage(networkID: number, sourceChainID: Uint8Array, payload: Uint8Array): Uint8Array {
  return new Uint8Array(Buffer.concat([u16(CODEC_VERSION), u32(networkID), sourceChainID, withLength(payload)]));
}

/** warp.ParseUnsignedMessage. */
export function parseUnsignedMessage(bytes: Uint8Array): UnsignedMessage {
  return unmarshal(bytes, (r) => ({ networkID: r.u32(), sourceChainID: r.fixed(32), payload: r.byteSlice(), bytes }));
}

export const messageID = (unsigned: Uint8Array): Uint8Array => sha256(unsigned);

/** The signed message: the unsigned one's bytes, then a BitSetSignature. */
export function signedMessage(unsigned: Uint8Array, signers: Uint8Array, signature: Uint8Array): Uint8Array {
  return new Uint8Array(Buffer.concat([unsigned, u32(BIT_SET_SIGNATURE), withLength(signers), signature]));
}

/** warp.ParseMessage: the codec's errors; the bitset is only read (see numSigners and verifySignature). */
export function parseSignedMessage(bytes: Uint8Array): SignedMessage {
  return unmarshal(bytes, (r) => {
    const networkID = r.u32();
    const sourceChainID = r.fixed(32);
    const payload = r.byteSlice();
    const unsignedEnd = r.offset;
    const type = r.typeID();
    if (type !== BIT_SET_SIGNATURE) throw unknownType(type);
    const signers = r.byteSlice();
    const signature = r.fixed(SIGNATURE_LEN);
    const unsigned = bytes.slice(0, unsignedEnd);
    return { networkID, sourceChainID, payload, unsigned, id: messageID(unsigned), signers, signature };
  });
}

export type Payload = { type: 'hash'; hash: Uint8Array } | { type: 'addressedCall'; sourceAddress: Uint8Array; payload: Uint8Array };

/** payload.AddressedCall: the sender's address (20 bytes from an EVM, empty from the P-Chain) and what it sent. */
export function addressedCall(sourceAddress: Uint8Array, payload: Uint8Array): Uint8Array {
  return new Uint8Array(Buffer.concat([u16(CODEC_VERSION), u32(ADDRESSED_CALL), withLength(sourceAddress), withLength(payload)]));
}

/** payload.Hash: a 32-byte hash (an accepted block's, for warp_getBlockSignature). */
export function hashPayload(hash: Uint8Array): Uint8Array {
  return new Uint8Array(Buffer.concat([u16(CODEC_VERSION), u32(HASH), hash]));
}

/** payload.Parse: a Hash or an AddressedCall. */
export function parsePayload(bytes: Uint8Array): Payload {
  return unmarshal(bytes, (r): Payload => {
    const type = r.typeID();
    if (type === HASH) return { type: 'hash', hash: r.fixed(32) };
    if (type === ADDRESSED_CALL) return { type: 'addressedCall', sourceAddress: r.byteSlice(), payload: r.byteSlice() };
    throw unknownType(type);
  });
}

/** payload.ParseAddressedCall: a Hash payload is the wrong type. */
export function parseAddressedCall(bytes: Uint8Array): { sourceAddress: Uint8Array; payload: Uint8Array } {
  const p = parsePayload(bytes);
  if (p.type !== 'addressedCall') throw new CodecError('wrong payload type: *payload.Hash');
  return { sourceAddress: p.sourceAddress, payload: p.payload };
}

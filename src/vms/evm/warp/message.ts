// Avalanche warp messages (avalanchego vms/platformvm/warp and warp/payload): the unsigned message
// (codec version, network ID, source chain, payload), its ID (sha256 of its bytes), the payloads a
// chain sends (AddressedCall, Hash), and a signed message (the unsigned one, then a BitSetSignature:
// type 0, the signers' bitset, a 96-byte BLS aggregate). avalanchego's linear codec: big-endian
// integers, byte slices with a u32 length, interfaces with a u32 type ID, one u16 codec version in
// front. test/warp.test.ts holds these bytes to avalanchejs's warp types.
import { sha256 } from '@noble/hashes/sha2.js';

const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const withLength = (b: Uint8Array) => Buffer.concat([u32(b.length), b]);
const CODEC_VERSION = 0;

/** payload.AddressedCall: the sender's address (20 bytes in Subnet-EVM) and what it sent. */
export function addressedCall(sourceAddress: Uint8Array, payload: Uint8Array): Uint8Array {
  return new Uint8Array(Buffer.concat([u16(CODEC_VERSION), u32(1), withLength(sourceAddress), withLength(payload)]));
}

/** payload.Hash: a 32-byte hash (an accepted block's, for warp_getBlockSignature). */
export function hashPayload(hash: Uint8Array): Uint8Array {
  return new Uint8Array(Buffer.concat([u16(CODEC_VERSION), u32(0), hash]));
}

export function unsignedMessage(networkID: number, sourceChainID: Uint8Array, payload: Uint8Array): Uint8Array {
  return new Uint8Array(Buffer.concat([u16(CODEC_VERSION), u32(networkID), sourceChainID, withLength(payload)]));
}

export const messageID = (unsigned: Uint8Array): Uint8Array => sha256(unsigned);

export interface UnsignedMessage {
  networkID: number;
  sourceChainID: Uint8Array;
  payload: Uint8Array;
}

export class WarpFormatError extends Error {}

export function parseUnsignedMessage(bytes: Uint8Array): UnsignedMessage {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (b.length < 42) throw new WarpFormatError('insufficient length for an unsigned warp message');
  if (b.readUInt16BE(0) !== CODEC_VERSION) throw new WarpFormatError(`unknown codec version: ${b.readUInt16BE(0)}`);
  const length = b.readUInt32BE(38);
  if (b.length !== 42 + length) throw new WarpFormatError('unsigned warp message has the wrong length');
  return { networkID: b.readUInt32BE(2), sourceChainID: new Uint8Array(b.subarray(6, 38)), payload: new Uint8Array(b.subarray(42)) };
}

/** The signed message: the unsigned fields, then a BitSetSignature. */
export function signedMessage(unsigned: Uint8Array, signers: Uint8Array, signature: Uint8Array): Uint8Array {
  return new Uint8Array(Buffer.concat([unsigned, u32(0), withLength(signers), signature]));
}

/** A set.Bits of validator indexes as big-endian bytes of minimal length. */
export function bitset(indexes: number[]): Uint8Array {
  let n = 0n;
  for (const i of indexes) n |= 1n << BigInt(i);
  if (n === 0n) return new Uint8Array();
  const hex = n.toString(16);
  return new Uint8Array(Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex'));
}

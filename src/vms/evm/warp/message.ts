// Avalanche warp messages (avalanchego vms/platformvm/warp and warp/payload): the unsigned message
// (codec version, network ID, source chain, payload), its ID (sha256 of its bytes), the payloads a
// chain sends (AddressedCall, Hash), and a signed message (the unsigned one, then a BitSetSignature:
// type 0, the signers' bitset, a 96-byte BLS aggregate). avalanchego's linear codec: big-endian
// integers, byte slices with a u32 length, interfaces with a u32 type ID, one u16 codec version in
// front. test/warp.test.ts holds these bytes to avalanchejs's warp types.
import { sha256 } from '@noble/hashes/sha2.js';
import { knownKeccak } from '../../../crypto/keccak.js';
import { u16, u32 } from '../../../encoding/bytes.js';

/** The warp precompile's address (unprefixed hex), on coreth and Subnet-EVM alike. */
export const WARP_ADDRESS_HEX = '0200000000000000000000000000000000000005';
/** SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message). */
export const SEND_WARP_MESSAGE_TOPIC = knownKeccak(
  'SendWarpMessage(address,bytes32,bytes)',
  '56600c567728a800c0aa927500f831cb451df66a7af570eb4df4dfbf4674887d',
);

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

export class WarpFormatError extends Error {}

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

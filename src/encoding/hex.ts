import { checksum } from './cb58.js';

// avalanchego utils/formatting: "hex"/"hexc" carry a 4-byte sha256 checksum, "hexnc" does not.
export type ByteEncoding = 'hex' | 'hexc' | 'hexnc';

export class HexError extends Error {}

export function encodeHex(bytes: Uint8Array, encoding: ByteEncoding = 'hexnc'): string {
  if (encoding === 'hexnc') return `0x${Buffer.from(bytes).toString('hex')}`;
  return `0x${Buffer.from(bytes).toString('hex')}${Buffer.from(checksum(bytes)).toString('hex')}`;
}

export function decodeHex(text: string, encoding: ByteEncoding = 'hexnc'): Uint8Array {
  if (text.length === 0) return new Uint8Array();
  if (!text.startsWith('0x')) throw new HexError('missing 0x prefix to hex encoding');
  const body = text.slice(2);
  if (body.length % 2 !== 0) throw new HexError('encoding/hex: odd length hex string');
  const bad = body.search(/[^0-9a-fA-F]/);
  if (bad >= 0) throw new HexError(`encoding/hex: invalid byte: U+${body.charCodeAt(bad).toString(16).toUpperCase().padStart(4, '0')} '${body[bad]}'`);
  const bytes = new Uint8Array(Buffer.from(body, 'hex'));
  if (encoding === 'hexnc') return bytes;
  if (bytes.length < 4) throw new HexError('input string is smaller than the checksum size');
  const raw = bytes.subarray(0, bytes.length - 4);
  if (!Buffer.from(bytes.subarray(bytes.length - 4)).equals(checksum(raw))) throw new HexError('invalid input checksum');
  return raw;
}

import { base58 } from '@scure/base';
import { hash } from 'node:crypto';

// avalanchego's cb58 (utils/cb58) over mr-tron/base58: error texts are part of the API surface
// (admin.getChainAliases returns them verbatim), so they are reproduced exactly.
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const CHECKSUM_LEN = 4;

export class CB58Error extends Error {}

/** The last 4 bytes of sha256: computed on every ID and hex reply, so with Node's native hash. */
export function checksum(bytes: Uint8Array): Uint8Array {
  return hash('sha256', bytes, 'buffer').subarray(32 - CHECKSUM_LEN);
}

export function encodeCB58(bytes: Uint8Array): string {
  const out = new Uint8Array(bytes.length + CHECKSUM_LEN);
  out.set(bytes);
  out.set(checksum(bytes), bytes.length);
  return base58.encode(out);
}

function base58Error(detail: string): CB58Error {
  return new CB58Error(`base58 decoding error: ${detail}`);
}

export function decodeCB58(text: string): Uint8Array {
  if (text.length === 0) throw base58Error('zero length string');
  for (const ch of Buffer.from(text, 'utf8')) {
    if (ch > 127) throw base58Error('High-bit set on invalid digit');
    if (!ALPHABET.includes(String.fromCharCode(ch))) {
      throw base58Error(`Invalid base58 digit (${goQuoteRune(ch)})`);
    }
  }
  const decoded = base58.decode(text);
  if (decoded.length < CHECKSUM_LEN) throw new CB58Error('input string is smaller than the checksum size');
  const raw = decoded.subarray(0, decoded.length - CHECKSUM_LEN);
  const sum = decoded.subarray(decoded.length - CHECKSUM_LEN);
  if (!Buffer.from(sum).equals(checksum(raw))) throw new CB58Error('invalid input checksum');
  return raw;
}

/** ids.FromString: a cb58 string that must hold exactly 32 bytes. */
export function idFromString(text: string): Uint8Array {
  const bytes = decodeCB58(text);
  if (bytes.length !== 32) throw new CB58Error(`invalid hash length: expected 32 bytes but got ${bytes.length}`);
  return bytes;
}

/** Go's %q for a byte-valued rune (ASCII only reaches here). */
function goQuoteRune(code: number): string {
  const ch = String.fromCharCode(code);
  const escapes: Record<string, string> = {
    "'": "\\'",
    '\\': '\\\\',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\x07': '\\a',
    '\b': '\\b',
    '\f': '\\f',
    '\v': '\\v',
  };
  if (escapes[ch]) return `'${escapes[ch]}'`;
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  return `'${ch}'`;
}

export const EMPTY_ID = encodeCB58(new Uint8Array(32));

// API argument fields every avalanchego VM service reads the same way: formatting.Encoding (case
// blind, hex by default) and ids.ID (cb58, the empty ID when absent).
import { idFromString } from '../../../encoding/cb58.js';
import { goQuote } from '../../../encoding/goquote.js';
import { decodeHex, encodeHex } from '../../../encoding/hex.js';
import { textual } from '../../../rpc/schema.js';

export type Encoding = 'hex' | 'hexc' | 'hexnc' | 'json';
const ENCODINGS: Encoding[] = ['hex', 'hexc', 'hexnc', 'json'];

export const encoding = textual<Encoding>(
  (s) => {
    const e = s.toLowerCase() as Encoding;
    if (!ENCODINGS.includes(e)) throw new Error(`invalid encoding ${goQuote(s)}`);
    return e;
  },
  () => 'hex',
);

export const id = textual<Uint8Array>(idFromString, () => new Uint8Array(32));

/** formatting.Encode: bytes as hex text (JSON cannot carry bytes). */
export function encodeBytes(bytes: Uint8Array, enc: Encoding): string {
  if (enc === 'json') throw new Error(UNSUPPORTED);
  return encodeHex(bytes, enc);
}

/** formatting.Decode: the bytes of hex text (JSON cannot carry bytes). */
export function decodeBytes(text: string, enc: Encoding): Uint8Array {
  if (enc === 'json') throw new Error(UNSUPPORTED);
  return decodeHex(text, enc);
}

const UNSUPPORTED = 'unsupported encoding in method';

// A Go string as encoding/json writes it: what any Go string field of an avalanchego struct reads as.
const HEX = '0123456789abcdef';

/**
 * A Go string (raw bytes) as encoding/json writes it with HTML escaping: invalid UTF-8 bytes each
 * become \ufffd (utf8.DecodeRune's one-byte RuneError), control characters \n \r \t \b \f or
 * \u00XX, and < > & U+2028 U+2029 are escaped.
 */
export function goJsonString(bytes: Uint8Array): string {
  let out = '"';
  let i = 0;
  while (i < bytes.length) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      if (c === 0x22) out += '\\"';
      else if (c === 0x5c) out += '\\\\';
      else if (c === 0x0a) out += '\\n';
      else if (c === 0x0d) out += '\\r';
      else if (c === 0x09) out += '\\t';
      else if (c === 0x08) out += '\\b';
      else if (c === 0x0c) out += '\\f';
      else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26) out += `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
      else out += String.fromCharCode(c);
      continue;
    }
    const [rune, size] = decodeRune(bytes, i);
    i += size;
    if (rune < 0) out += '\\ufffd';
    else if (rune === 0x2028 || rune === 0x2029) out += `\\u${rune.toString(16)}`;
    else out += String.fromCodePoint(rune);
  }
  return `${out}"`;
}

/** utf8.DecodeRune for a lead byte >= 0x80: [rune, size], or [-1, 1] when invalid. */
function decodeRune(b: Uint8Array, i: number): [number, number] {
  const c0 = b[i]!;
  if (c0 < 0xc2 || c0 > 0xf4) return [-1, 1];
  const size = c0 < 0xe0 ? 2 : c0 < 0xf0 ? 3 : 4;
  // The second byte's range excludes overlongs (E0, F0), surrogates (ED) and > U+10FFFF (F4).
  const lo = c0 === 0xe0 ? 0xa0 : c0 === 0xf0 ? 0x90 : 0x80;
  const hi = c0 === 0xed ? 0x9f : c0 === 0xf4 ? 0x8f : 0xbf;
  if (i + size > b.length) return [-1, 1];
  const c1 = b[i + 1]!;
  if (c1 < lo || c1 > hi) return [-1, 1];
  let rune = size === 2 ? c0 & 0x1f : size === 3 ? c0 & 0x0f : c0 & 0x07;
  rune = (rune << 6) | (c1 & 0x3f);
  for (let k = 2; k < size; k++) {
    const ck = b[i + k]!;
    if (ck < 0x80 || ck > 0xbf) return [-1, 1];
    rune = (rune << 6) | (ck & 0x3f);
  }
  return [rune, size];
}

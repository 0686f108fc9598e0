// The Go-faithful JSON reader: encoding/json's scanner over the body's bytes, with its error texts,
// and the compaction Go applies to a json.RawMessage.
import { GoJsonError, type JsonObject, type JsonValue, type ParsedJson, RawNumber } from './gojsonvalue.js';

export const MAX_DEPTH = 10000;
/** V8 makes substrings this short as copies; longer ones point into their parent string. */
const SHORT_VALUE = 13;
/** After this many bytes of a string read one at a time, the rest of its plain run is skipped at once. */
const LONG_RUN = 64;
/** A run of bytes (as Latin-1 characters) that a JSON string holds as they are: no quote, backslash or control character. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what end the run
const PLAIN_RUN = /[^"\\\x00-\x1f]*/y;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** Go's quoteChar: how a byte is shown inside "invalid character ..." messages. */
export function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  const special: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 92: '\\\\' };
  if (special[c]) return `'${special[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // Go converts the byte to a rune, so 0x80..0xff show as Latin-1 characters when printable.
  if (c >= 0x80 && (c <= 0xa0 || c === 0xad)) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

const syntaxError = (c: number, context: string) => new GoJsonError(`invalid character ${quoteChar(c)} ${context}`);
const unexpectedEOF = () => new GoJsonError('unexpected EOF');

interface Frame {
  kind: 'object' | 'array';
  value: JsonObject | JsonValue[];
  key: string;
}

export function parseSlow(b: Uint8Array): ParsedJson {
  return new SlowParser(b).parse();
}

/** The Go-faithful reader: encoding/json's scanner, with its error texts, over the body's bytes. */
class SlowParser {
  private i = 0;
  private readonly n: number;
  private readonly stack: Frame[] = [];
  /** Where each top-level member's value lies in the body (what raw() hands back, compacted). */
  private readonly memberSpans = new Map<string, [number, number]>();
  private memberStart = -1;
  /** One view of the whole body: values are decoded from it by offsets, not through a Buffer each. */
  private readonly view: Buffer;
  /**
   * Short ASCII values (most numbers and keys) are cut from the body read once as Latin-1: a
   * substring that short is a copy in V8, where decoding each through Buffer crossed into C++ (a
   * body of a million numbers took a second). Longer ones are decoded apart, as a substring of
   * that length would keep the whole body alive for as long as the value lives.
   */
  private latin1: string | undefined;

  constructor(private readonly b: Uint8Array) {
    this.n = b.length;
    this.view = Buffer.from(b.buffer, b.byteOffset, b.length);
  }

  parse(): ParsedJson {
    this.skip();
    if (this.i === this.n) throw new GoJsonError('EOF');
    for (;;) {
      const value = this.readValue();
      if (value === undefined) continue; // a container opened: its first member or element comes next
      const done = this.complete(value);
      if (done) return done;
    }
  }

  private skip(): void {
    const { b, n } = this;
    while (this.i < n && isSpace(b[this.i]!)) this.i++;
  }

  private latin(): string {
    this.latin1 ??= this.view.toString('latin1');
    return this.latin1;
  }

  private ascii(start: number, end: number): string {
    return end - start < SHORT_VALUE ? this.latin().slice(start, end) : this.view.toString('latin1', start, end);
  }

  /** The value that starts here, or undefined when a container opened (and was pushed). */
  private readValue(): JsonValue | undefined {
    const { b, n, stack } = this;
    this.skip();
    if (this.i >= n) throw unexpectedEOF();
    if (stack.length === 1 && stack[0]!.kind === 'object') this.memberStart = this.i;
    const c = b[this.i]!;
    if (c === 0x7b || c === 0x5b) return this.open(c);
    if (c === 0x22) return this.readString();
    if (c === 0x2d || isDigit(c)) return this.readNumber();
    if (c === 0x74) return this.readLiteral('true', true);
    if (c === 0x66) return this.readLiteral('false', false);
    if (c === 0x6e) return this.readLiteral('null', null);
    throw syntaxError(c, 'looking for beginning of value');
  }

  /** An object or array: empty, it is a value; else it is pushed, its first key read. */
  private open(c: number): JsonValue | undefined {
    const { b, n, stack } = this;
    // Go's scanner allows 10000 open containers; the next one is a syntax error.
    if (stack.length >= MAX_DEPTH) throw syntaxError(c, 'exceeded max depth');
    this.i++;
    this.skip();
    if (this.i >= n) throw unexpectedEOF();
    if (c === 0x7b) {
      const obj: JsonObject = Object.create(null) as JsonObject;
      if (b[this.i] === 0x7d) {
        this.i++;
        return obj;
      }
      stack.push({ kind: 'object', value: obj, key: this.readKey() });
      return undefined;
    }
    if (b[this.i] === 0x5d) {
      this.i++;
      return [];
    }
    stack.push({ kind: 'array', value: [], key: '' });
    return undefined;
  }

  /** Hands a complete value to its container, closing containers as they end; the result at the top. */
  private complete(value: JsonValue): ParsedJson | undefined {
    const { b, n, stack } = this;
    for (;;) {
      const top = stack[stack.length - 1];
      if (!top) return this.result(value);
      if (top.kind === 'object') {
        (top.value as JsonObject)[top.key] = value;
        if (stack.length === 1) this.memberSpans.set(top.key, [this.memberStart, this.i]);
      } else {
        (top.value as JsonValue[]).push(value);
      }
      this.skip();
      if (this.i >= n) throw unexpectedEOF();
      const d = b[this.i]!;
      if (d === 0x2c) {
        this.i++;
        if (top.kind === 'object') top.key = this.readKey();
        return undefined;
      }
      if ((top.kind === 'object' && d === 0x7d) || (top.kind === 'array' && d === 0x5d)) {
        this.i++;
        stack.pop();
        value = top.value;
        continue;
      }
      throw syntaxError(d, top.kind === 'object' ? 'after object key:value pair' : 'after array element');
    }
  }

  private result(value: JsonValue): ParsedJson {
    this.latin1 = undefined; // raw() keeps this parser, not a second copy of the body
    const { b, memberSpans } = this;
    return {
      value,
      raw: (key) => {
        const span = memberSpans.get(key)!;
        return compactRaw(b, span[0], span[1]);
      },
    };
  }

  private readString(): string {
    const { b, n } = this;
    const start = this.i + 1; // past the opening quote
    // A local index: this loop runs once per byte of every string.
    let k = start;
    let escaped = false;
    let high = 0; // every byte OR-ed: below 0x80, the string is ASCII
    let checked = start; // where the plain run was last skipped
    for (;;) {
      if (k - checked >= LONG_RUN) {
        // A long string (hex data, perhaps megabytes): its run of plain bytes is skipped by a
        // regular expression over the Latin-1 text, which costs a fraction of this loop per byte.
        PLAIN_RUN.lastIndex = k;
        PLAIN_RUN.test(this.latin());
        k = checked = PLAIN_RUN.lastIndex;
        high |= 0x80; // not known to be ASCII: decoded as UTF-8, which is right for any bytes
      }
      if (k >= n) throw unexpectedEOF();
      const c = b[k]!;
      high |= c;
      if (c === 0x22) break;
      if (c < 0x20) throw syntaxError(c, 'in string literal');
      if (c === 0x5c) {
        escaped = true;
        k = this.escape(k + 1);
      }
      k++;
    }
    const raw = high < 0x80 ? this.ascii(start, k) : this.view.toString('utf8', start, k);
    this.i = k + 1; // past the closing quote
    return escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  /** Checks the escape whose code is at `k`; the index of its last byte. */
  private escape(k: number): number {
    const { b, n } = this;
    if (k >= n) throw unexpectedEOF();
    const e = b[k]!;
    if (e === 0x75) {
      for (let h = 0; h < 4; h++) {
        k++;
        if (k >= n) throw unexpectedEOF();
        if (!isHex(b[k]!)) throw syntaxError(b[k]!, 'in \\u hexadecimal character escape');
      }
    } else if (!'"\\/bfnrt'.includes(String.fromCharCode(e))) {
      throw syntaxError(e, 'in string escape code');
    }
    return k;
  }

  private readNumber(): RawNumber {
    const { b, n } = this;
    const start = this.i;
    if (b[this.i] === 0x2d) {
      this.i++;
      if (this.i >= n) throw unexpectedEOF();
      if (!isDigit(b[this.i]!)) throw syntaxError(b[this.i]!, 'in numeric literal');
    }
    if (b[this.i] === 0x30) this.i++;
    else this.digits();
    if (!this.atEnd() && b[this.i] === 0x2e) {
      this.i++;
      if (this.i >= n) throw unexpectedEOF();
      if (!isDigit(b[this.i]!)) throw syntaxError(b[this.i]!, 'after decimal point in numeric literal');
      this.digits();
    }
    if (!this.atEnd() && (b[this.i] === 0x65 || b[this.i] === 0x45)) {
      this.i++;
      if (this.i < n && (b[this.i] === 0x2b || b[this.i] === 0x2d)) this.i++;
      if (this.i >= n) throw unexpectedEOF();
      if (!isDigit(b[this.i]!)) throw syntaxError(b[this.i]!, 'in exponent of numeric literal');
      this.digits();
    }
    this.atEnd();
    return new RawNumber(this.ascii(start, this.i));
  }

  private digits(): void {
    const { b, n } = this;
    while (this.i < n && isDigit(b[this.i]!)) this.i++;
  }

  /** Whether a number ends the input, which is only right at the top level. */
  private atEnd(): boolean {
    if (this.i >= this.n && this.stack.length > 0) throw unexpectedEOF();
    return this.i >= this.n;
  }

  private readLiteral(word: string, value: JsonValue): JsonValue {
    const { b, n } = this;
    for (let k = 1; k < word.length; k++) {
      this.i++;
      if (this.i >= n) throw unexpectedEOF();
      if (b[this.i] !== word.charCodeAt(k)) throw syntaxError(b[this.i]!, `in literal ${word} (expecting '${word[k]}')`);
    }
    this.i++;
    return value;
  }

  private readKey(): string {
    const { b, n } = this;
    this.skip();
    if (this.i >= n) throw unexpectedEOF();
    if (b[this.i] !== 0x22) throw syntaxError(b[this.i]!, 'looking for beginning of object key string');
    const key = this.readString();
    this.skip();
    if (this.i >= n) throw unexpectedEOF();
    if (b[this.i] !== 0x3a) throw syntaxError(b[this.i]!, 'after object key');
    this.i++;
    return key;
  }
}

/**
 * json.Compact with HTML escaping, as Go's encoder writes a json.RawMessage, of a span that holds
 * valid JSON. It works on the bytes, then decodes them once: whitespace, quotes and backslashes are
 * ASCII, never part of a multi-byte UTF-8 sequence. (A body's params may be megabytes; building the
 * text a character at a time cost seconds, most of it in the garbage collector.)
 */
export function compactRaw(b: Uint8Array, start: number, end: number): string {
  const view = Buffer.from(b.buffer, b.byteOffset, b.length);
  const bytes = hasLayout(view, start, end) ? withoutLayout(view, start, end) : view.subarray(start, end);
  const text = bytes.toString('utf8');
  // A megabyte span is searched for the bytes of <, >, & and U+2028/9 (E2 80 A8/A9) before the text is.
  if (bytes.length > 4096 && !HTML_UNSAFE_BYTES.some((c) => bytes.includes(c))) return text;
  return escapeHtml(text);
}

/** Whether the span has whitespace outside its strings (what json.Compact drops). */
function hasLayout(b: Buffer, start: number, end: number): boolean {
  for (let k = start; k < end; k++) {
    const c = b[k]!;
    if (c === 0x22) k = stringEnd(b, k + 1, end) - 1;
    else if (isSpace(c)) return true;
  }
  return false;
}

/** The span's bytes without the whitespace outside its strings. */
function withoutLayout(b: Buffer, start: number, end: number): Buffer {
  const out = Buffer.allocUnsafe(end - start);
  let w = 0;
  for (let k = start; k < end; ) {
    const c = b[k]!;
    if (c === 0x22) {
      const stop = stringEnd(b, k + 1, end);
      if (stop - k > LONG_RUN) w += b.copy(out, w, k, stop);
      else while (k < stop) out[w++] = b[k++]!; // short: cheaper than a call into C++
      k = stop;
    } else {
      if (!isSpace(c)) out[w++] = c;
      k++;
    }
  }
  return out.subarray(0, w);
}

/**
 * Past the closing quote of the string whose contents start at `from`. Short strings are walked a
 * byte at a time; past that, each quote is found by Buffer's native search and is the closing one
 * if an even number of backslashes precede it (a string holds no backslash outside its escapes).
 */
function stringEnd(b: Buffer, from: number, end: number): number {
  const near = Math.min(end, from + LONG_RUN);
  let k = from;
  for (; k < near; k++) {
    const c = b[k]!;
    if (c === 0x22) return k + 1;
    if (c === 0x5c) k++;
  }
  for (let q = b.indexOf(0x22, k); q >= 0 && q < end; q = b.indexOf(0x22, q + 1)) {
    let backslashes = 0;
    while (b[q - 1 - backslashes] === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
  }
  return end;
}

/** The bytes of <, > and & and the lead byte of U+2028/9. */

const HTML_UNSAFE_BYTES = [0x3c, 0x3e, 0x26, 0xe2];

const HTML_UNSAFE_G = /[<>&\u2028\u2029]/g;
const HTML_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/**
 * Go's encoder escapes <, >, & and U+2028/9 inside strings; in valid JSON they only occur there.
 * Five indexOf searches (memchr, and none at all for U+2028/9 in a one-byte string) look through a
 * text some 25 times as fast as the character class did: the regular expression was 8 % of the CPU
 * of eth_getBlockByNumber with its txs.
 */
export function escapeHtml(json: string): string {
  const safe = json.indexOf('<') < 0 && json.indexOf('>') < 0 && json.indexOf('&') < 0 && json.indexOf('\u2028') < 0 && json.indexOf('\u2029') < 0;
  return safe ? json : json.replace(HTML_UNSAFE_G, (ch) => HTML_ESCAPES[ch]!);
}

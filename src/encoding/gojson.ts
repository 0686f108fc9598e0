// A JSON reader with Go encoding/json's Decoder semantics, because avalanchego's JSON-RPC answers
// a malformed body with Go's own error text (code -32700). It reads only the first JSON value
// (trailing bytes are ignored, as json.Decoder does), reports Go's syntax-error messages, and keeps
// numbers as their raw text so uint64 values survive beyond 2^53.

export class RawNumber {
  constructor(readonly raw: string) {}
  toJSON(): number {
    return Number(this.raw);
  }
}

/** Numbers are RawNumber (exact text) from the Go-faithful reader, or plain numbers from the fast path, which only takes integers a double holds exactly. */
export type JsonValue = null | boolean | string | number | RawNumber | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export class GoJsonError extends Error {}

export interface ParsedJson {
  value: JsonValue;
  /** A top-level member's JSON as Go re-encodes a json.RawMessage: compacted, HTML-escaped. */
  raw(key: string): string;
}

const MAX_DEPTH = 10000;
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

/**
 * Reads the first JSON value of `b` as Go's json.Decoder does. Most bodies take a fast path through
 * the native JSON.parse: when they are valid, hold no escapes (strings then decode identically) and
 * no numbers that a double would not keep exactly. Everything else goes through the Go-faithful
 * reader below, which also produces Go's error messages.
 */
export function parseGoJson(b: Uint8Array): ParsedJson {
  return parseFast(b) ?? parseSlow(b);
}

/**
 * Is there a backslash (an escape, which the native parser may decode otherwise than Go), or outside
 * of strings a number a double might not keep as written, or nesting deeper than Go allows (which
 * only the Go-faithful reader reports as Go does)? A backslash in the text is the byte 0x5c of the
 * body: UTF-8 never encodes anything else with it, nor does decoding replace anything with it.
 */
function needsSlowPath(text: string): boolean {
  let inString = false;
  let digits = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) return true;
    if (c === 0x22) {
      inString = !inString;
      digits = 0;
      continue;
    }
    if (inString) continue;
    if (c >= 0x30 && c <= 0x39) {
      if (++digits > 15) return true;
    } else {
      digits = 0;
      if (c === 0x2d || c === 0x2e || c === 0x65 || c === 0x45) return true; // - . e E
      if (c === 0x5b || c === 0x7b) {
        if (++depth > MAX_DEPTH) return true;
      } // [ {
      else if (c === 0x5d || c === 0x7d) depth--; // ] }
    }
  }
  return false;
}

function parseFast(b: Uint8Array): ParsedJson | undefined {
  if (b.length > 65536) return undefined;
  const text = Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8');
  if (needsSlowPath(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const value = parsed as JsonValue;
  return { value, raw: (key) => goMarshal((value as JsonObject)[key]) };
}

function parseSlow(b: Uint8Array): ParsedJson {
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
 * How encoding/json folds an object key to match a field name (field names here are ASCII): by
 * Unicode simple folding, under which the long s (U+017F) is an s and the Kelvin sign (U+212A) a k.
 * toLowerCase already turns the Kelvin sign into k; the long s it leaves alone.
 */
export function foldKey(key: string): string {
  const lower = key.toLowerCase();
  return lower.includes('\u017f') ? lower.replaceAll('\u017f', 's') : lower;
}

/** The JSON kind Go names in "cannot unmarshal <kind> into ..." messages. */
export function goKind(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || v instanceof RawNumber) return 'number';
  if (Array.isArray(v)) return 'array';
  return 'object';
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

const HTML_UNSAFE = /[<>&\u2028\u2029]/;
const HTML_UNSAFE_G = /[<>&\u2028\u2029]/g;
const HTML_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** Go's encoder escapes <, >, & and U+2028/9 inside strings; in valid JSON they only occur there. */
export function escapeHtml(json: string): string {
  return HTML_UNSAFE.test(json) ? json.replace(HTML_UNSAFE_G, (ch) => HTML_ESCAPES[ch]!) : json;
}

/** JSON text that is already encoded (e.g. a cached report), embedded as is: only as a whole result. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** json.Marshal of a value (objects keep their insertion order, which callers build in Go field order). */
export function goMarshal(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  try {
    return escapeHtml(JSON.stringify(value));
  } catch (err) {
    // V8's JSON.stringify recurses and runs out of stack some 4,000 levels down; Go's encoder does
    // not, and clients may echo such values (ids, params) back. Parsed JSON is a tree of plain values.
    if (err instanceof RangeError) return escapeHtml(stringifyDeep(value as JsonValue));
    throw err;
  }
}

/** A piece of punctuation waiting on stringifyDeep's stack. */
class Punct {
  constructor(readonly text: string) {}
}

/** JSON.stringify of a parsed JSON value without recursion: a stack of what is left to write. */
function stringifyDeep(root: JsonValue): string {
  let out = '';
  const todo: Array<JsonValue | Punct> = [root];
  while (todo.length > 0) {
    const v = todo.pop()!;
    if (v instanceof Punct) out += v.text;
    else if (v instanceof RawNumber) out += v.raw;
    else if (Array.isArray(v)) {
      // Pushed in reverse, so that '[' comes off first.
      todo.push(new Punct(']'));
      for (let k = v.length - 1; k >= 0; k--) {
        todo.push(v[k]!);
        if (k > 0) todo.push(new Punct(','));
      }
      todo.push(new Punct('['));
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      todo.push(new Punct('}'));
      for (let k = keys.length - 1; k >= 0; k--) {
        todo.push(v[keys[k]!]!, new Punct(`${k > 0 ? ',' : ''}${JSON.stringify(keys[k])}:`));
      }
      todo.push(new Punct('{'));
    } else out += JSON.stringify(v);
  }
  return out;
}

/** The text of a JSON number from either reader. */
export function numberText(v: JsonValue): string | undefined {
  if (typeof v === 'number') return String(v);
  if (v instanceof RawNumber) return v.raw;
  return undefined;
}

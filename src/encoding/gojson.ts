// A JSON reader with Go encoding/json's Decoder semantics, because avalanchego's JSON-RPC answers
// a malformed body with Go's own error text (code -32700). It reads only the first JSON value
// (trailing bytes are ignored, as json.Decoder does), reports Go's syntax-error messages, and keeps
// numbers as their raw text so uint64 values survive beyond 2^53.

import { escapeHtml, MAX_DEPTH, parseSlow } from './gojsonscan.js';
import { type JsonObject, type JsonValue, type ParsedJson, RawNumber } from './gojsonvalue.js';
import { JsonBytes } from './jsonbytes.js';

export { compactRaw, escapeHtml, quoteChar } from './gojsonscan.js';
export { GoJsonError, type JsonObject, type JsonValue, type ParsedJson, RawNumber } from './gojsonvalue.js';

/**
 * Reads the first JSON value of `b` as Go's json.Decoder does. Most bodies take a fast path through
 * the native JSON.parse: when they are valid, hold no escapes (strings then decode identically) and
 * no numbers that a double would not keep exactly. Everything else goes through the Go-faithful
 * reader (gojsonscan.ts), which also produces Go's error messages.
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

/**
 * How encoding/json folds an object key to match a field name (field names here are ASCII): by
 * Unicode simple folding, under which the long s (U+017F) is an s and the Kelvin sign (U+212A) a k.
 * toLowerCase already turns the Kelvin sign into k; the long s it leaves alone.
 */
export function foldKey(key: string): string {
  const lower = key.toLowerCase();
  return lower.includes('\u017f') ? lower.replaceAll('\u017f', 's') : lower;
}

/** A struct field's JSON value as encoding/json finds it: under its name, else under a key equal to it but for case (the last such key). */
export function goKey(obj: JsonObject, name: string): JsonValue | undefined {
  if (Object.hasOwn(obj, name)) return obj[name];
  const folded = foldKey(name);
  let found: JsonValue | undefined;
  for (const [k, value] of Object.entries(obj)) if (foldKey(k) === folded) found = value;
  return found;
}

/** Whether a decoded JSON value is an object (not null, an array or a number kept as its text). */
export function isJsonObject(v: JsonValue | undefined): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof RawNumber);
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

/** JSON text that is already encoded (e.g. a cached report), embedded as is: only as a whole result. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** json.Marshal of a value (objects keep their insertion order, which callers build in Go field order). */
export function goMarshal(value: unknown): string {
  if (value instanceof RawJson || value instanceof JsonBytes) return value.text;
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

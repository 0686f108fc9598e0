// How coreth reads a trace request, for its error texts: `timeout` through Go's time.ParseDuration,
// tracerConfig through encoding/json into the tracer's config struct (case-insensitive keys, first
// type error wins), and a tracer name it does not know through the JS tracer's goja evaluator
// (eth/tracers/tracers.go: an unregistered name is compiled as JavaScript, `(` + name + `)`).
import { TracerError } from './types.js';

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** time.ParseDuration, in milliseconds; throws its error texts. */
export function parseDuration(text: string): number {
  const invalid = () => new TracerError(`time: invalid duration ${goQuote(text)}`, 'config');
  let s = text;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let ns = 0;
  while (s !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    if (number[1] === '' && !number[2]) throw invalid();
    s = s.slice(number[0].length);
    const unit = /^[^.0-9]*/.exec(s)![0];
    if (unit === '') throw new TracerError(`time: missing unit in duration ${goQuote(text)}`, 'config');
    if (UNIT_NS[unit] === undefined) throw new TracerError(`time: unknown unit ${goQuote(unit)} in duration ${goQuote(text)}`, 'config');
    s = s.slice(unit.length);
    ns += Number(`${number[1] || '0'}.${number[2] || '0'}`) * UNIT_NS[unit];
  }
  if (ns > 2 ** 63) throw invalid();
  return (negative ? -ns : ns) / 1e6;
}

/** time's quote: ASCII as is (with " and \ escaped), anything else as \x bytes. */
function goQuote(s: string): string {
  let out = '"';
  for (const c of s) {
    if (c < ' ' || c > '~') for (const b of Buffer.from(c)) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += c === '"' || c === '\\' ? `\\${c}` : c;
  }
  return `${out}"`;
}

const jsonKind = (v: unknown) =>
  Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v;

/** json.Unmarshal of tracerConfig into a struct of bool fields (callTracerConfig, prestateTracerConfig). */
export function boolConfig<K extends string>(struct: string, cfg: unknown, fields: readonly K[]): Partial<Record<K, boolean>> {
  const out: Partial<Record<K, boolean>> = {};
  if (cfg === undefined || cfg === null) return out;
  if (typeof cfg !== 'object' || Array.isArray(cfg)) {
    throw new TracerError(`json: cannot unmarshal ${jsonKind(cfg)} into Go value of type native.${struct}`, 'config');
  }
  let first: TracerError | undefined;
  for (const [key, value] of Object.entries(cfg)) {
    const field = fields.find((f) => f.toLowerCase() === key.toLowerCase());
    if (field === undefined || value === null) continue;
    if (typeof value === 'boolean') out[field] = value;
    else first ??= new TracerError(`json: cannot unmarshal ${jsonKind(value)} into Go struct field ${struct}.${field} of type bool`, 'config');
  }
  if (first) throw first;
  return out;
}

// Names goja resolves to an object (ECMAScript globals, the helpers geth's JS tracer defines): the
// tracer is then that object, which has no result() method.
const JS_OBJECTS = new Set(
  (
    'Object Function Array String Number BigInt Boolean Symbol Error TypeError RangeError SyntaxError ReferenceError EvalError URIError ' +
    'AggregateError Math JSON Reflect Proxy Promise Map Set WeakMap WeakSet WeakRef Date RegExp ArrayBuffer SharedArrayBuffer DataView ' +
    'Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array Float32Array Float64Array BigInt64Array ' +
    'BigUint64Array globalThis parseInt parseFloat isNaN isFinite escape unescape encodeURI encodeURIComponent decodeURI ' +
    'decodeURIComponent eval NaN Infinity toHex toWord toAddress toContract toContract2 isPrecompiled slice'
  ).split(' '),
);
const JS_KEYWORDS = new Set(
  (
    'break case catch class const continue debugger default delete do else export extends false finally for function if import in ' +
    'instanceof new null return super switch this throw true try typeof var void while with yield let static enum await async of undefined'
  ).split(' '),
);
const UNSUPPORTED = new Set([
  'flatCallTracer',
  'muxTracer',
  '4byteTracerLegacy',
  'bigramTracer',
  'callTracerLegacy',
  'evmdisTracer',
  'noopTracerLegacy',
  'opcountTracer',
  'prestateTracerLegacy',
  'trigramTracer',
  'unigramTracer',
]);

/** What coreth answers for a tracer name it has no native tracer for. */
export function unknownTracer(name: string): TracerError {
  if (UNSUPPORTED.has(name)) return new TracerError(`tracer ${name} is not supported by the emulator`, 'unsupported');
  if (JS_OBJECTS.has(name)) return new TracerError('trace object must expose a function result()', 'unknown');
  // goja: an undeclared identifier fails at its first load (pc 0), column 2 after the "(".
  if (/^[A-Za-z_$][\w$]*$/.test(name) && !JS_KEYWORDS.has(name)) return new TracerError(`ReferenceError: ${name} is not defined at <eval>:1:2(0)`, 'unknown');
  return new TracerError('JavaScript tracers are not supported by the emulator', 'unsupported');
}

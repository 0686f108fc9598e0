// How coreth reads a trace request, for its error texts: the config object through encoding/json
// into tracers.TraceConfig (or TraceCallConfig), `timeout` through Go's time.ParseDuration,
// tracerConfig through encoding/json into the tracer's config struct (case-insensitive keys, first
// type error wins), and a tracer name it does not know through the JS tracer's goja evaluator
// (eth/tracers/tracers.go: an unregistered name is compiled as JavaScript, `(` + name + `)`).
import { goKind, isJsonObject, type JsonObject, type JsonValue, RawNumber } from '../../../encoding/gojson.js';
import type { TraceConfig } from './types.js';
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

// --- The config object: json.Unmarshal into tracers.TraceConfig -------------------------------------

/** A field's Go type, as encoding/json decodes into it. */
type GoType =
  | 'bool'
  | 'int'
  | 'uint64'
  | 'string'
  | 'json.RawMessage'
  | 'params.ChainConfig'
  | 'ethapi.StateOverride'
  | 'ethapi.BlockOverrides'
  | 'hexutil.Uint'
  | 'common.Hash';

interface GoField {
  /** The name encoding/json matches keys against: the tag's, else the Go field's. */
  name: string;
  /** The field's path in UnmarshalTypeError (Go 1.24 names the embedded structs on the way). */
  path: string;
  type: GoType;
}

const field = (name: string, path: string, type: GoType): GoField => ({ name, path, type });

/** tracers.TraceConfig: logger.Config embedded by pointer, then its own fields. */
const TRACE_CONFIG: GoField[] = [
  field('EnableMemory', 'Config.EnableMemory', 'bool'),
  field('DisableStack', 'Config.DisableStack', 'bool'),
  field('DisableStorage', 'Config.DisableStorage', 'bool'),
  field('EnableReturnData', 'Config.EnableReturnData', 'bool'),
  field('Debug', 'Config.Debug', 'bool'),
  field('Limit', 'Config.Limit', 'int'),
  field('overrides', 'Config.overrides', 'params.ChainConfig'),
  field('Tracer', 'Tracer', 'string'),
  field('Timeout', 'Timeout', 'string'),
  field('Reexec', 'Reexec', 'uint64'),
  field('TracerConfig', 'TracerConfig', 'json.RawMessage'),
];

/** tracers.TraceCallConfig: TraceConfig embedded, then the call's overrides and tx index. */
const TRACE_CALL_CONFIG: GoField[] = [
  ...TRACE_CONFIG.map((f) => ({ ...f, path: `TraceConfig.${f.path}` })),
  field('StateOverrides', 'StateOverrides', 'ethapi.StateOverride'),
  field('BlockOverrides', 'BlockOverrides', 'ethapi.BlockOverrides'),
  field('TxIndex', 'TxIndex', 'hexutil.Uint'),
];

/** tracers.StdTraceConfig (the standardTrace*ToFile methods'): logger.Config embedded by value, Reexec, TxHash. */
const STD_TRACE_CONFIG: GoField[] = [
  ...TRACE_CONFIG.filter((f) => f.path.startsWith('Config.')),
  field('Reexec', 'Reexec', 'uint64'),
  field('TxHash', 'TxHash', 'common.Hash'),
];

const FIELDS = { TraceConfig: TRACE_CONFIG, TraceCallConfig: TRACE_CALL_CONFIG, StdTraceConfig: STD_TRACE_CONFIG };

/** debug_traceCall's options: a TraceConfig with what TraceCallConfig adds, still as JSON where coreth decodes further. */
export interface TraceCallConfig extends TraceConfig {
  stateOverrides?: JsonValue;
  /** What the caller's decoder made of the object (decodeTraceConfig's `blockOverrides`), else the object. */
  blockOverrides?: unknown;
  txIndex?: bigint;
}

/**
 * Decodes TraceCallConfig.BlockOverrides' object in its place among the keys. Its fields are all
 * hexutil's, whose errors stop encoding/json at once: it throws a TracerError with the text.
 */
export type NestedDecoder = (v: JsonObject) => unknown;

/** Go's key matching: an exact name first, else one equal under Unicode case folding. */
const fold = (s: string) => s.toUpperCase().toLowerCase();

function findField(fields: GoField[], key: string): GoField | undefined {
  return fields.find((f) => f.name === key) ?? fields.find((f) => fold(f.name) === fold(key));
}

/**
 * json.Unmarshal of a debug_trace* config (the method's last argument) into coreth's struct:
 * unknown keys are ignored, null leaves a field unset, a value of the wrong type is coreth's
 * UnmarshalTypeError (the first one, decoding going on past it), and a custom unmarshaler's error
 * (hexutil's) stops decoding at once. Throws the error's text.
 */
export function decodeTraceConfig(v: JsonValue, struct: keyof typeof FIELDS, blockOverrides?: NestedDecoder): TraceCallConfig {
  if (!isJsonObject(v)) {
    throw new TracerError(`json: cannot unmarshal ${goKind(v)} into Go value of type tracers.${struct}`, 'config');
  }
  const fields = FIELDS[struct];
  const out: Record<string, unknown> = {};
  let first: TracerError | undefined;
  for (const [key, value] of Object.entries(v)) {
    const f = findField(fields, key);
    if (!f || value === null) continue;
    try {
      const decoded = f.type === 'ethapi.BlockOverrides' && blockOverrides ? blockOverrides(objectOf(value)) : decodeField(f, value);
      if (decoded !== undefined) out[f.name] = decoded;
    } catch (err) {
      if (!(err instanceof TypeMismatch)) throw err;
      const e = new TracerError(`json: cannot unmarshal ${err.value} into Go struct field ${struct}.${f.path} of type ${f.type}`, 'config');
      if (err.stops) throw e;
      first ??= e;
    }
  }
  if (first) throw first;
  return {
    enableMemory: out.EnableMemory as boolean | undefined,
    disableStack: out.DisableStack as boolean | undefined,
    disableStorage: out.DisableStorage as boolean | undefined,
    enableReturnData: out.EnableReturnData as boolean | undefined,
    limit: out.Limit as number | undefined,
    tracer: out.Tracer as string | undefined,
    timeout: out.Timeout as string | undefined,
    tracerConfig: out.TracerConfig,
    stateOverrides: out.StateOverrides as JsonValue | undefined,
    blockOverrides: out.BlockOverrides,
    txIndex: out.TxIndex as bigint | undefined,
  };
}

/** A value of the wrong type: its description in UnmarshalTypeError, and whether decoding stops there. */
class TypeMismatch extends Error {
  constructor(
    readonly value: string,
    readonly stops = false,
  ) {
    super(value);
  }
}

/** The kind encoding/json names for a value that does not fit (numbers by their text where it tried to parse one). */
const mismatch = (v: JsonValue) => new TypeMismatch(goKind(v));

const INT64 = [-(1n << 63n), (1n << 63n) - 1n] as const;
const UINT64 = [0n, (1n << 64n) - 1n] as const;

/** strconv.ParseInt/ParseUint of a JSON number's text, as encoding/json decodes one into an integer. */
function integer(v: RawNumber | number, [min, max]: readonly [bigint, bigint]): bigint {
  const text = v instanceof RawNumber ? v.raw : String(v);
  const n = /^-?\d+$/.test(text) ? BigInt(text) : undefined;
  if (n === undefined || n < min || n > max) throw new TypeMismatch(`number ${text}`);
  return n;
}

function decodeField(f: GoField, v: JsonValue): unknown {
  const isNumber = typeof v === 'number' || v instanceof RawNumber;
  switch (f.type) {
    case 'bool':
      if (typeof v !== 'boolean') throw mismatch(v);
      return v;
    case 'string':
      if (typeof v !== 'string') throw mismatch(v);
      return v;
    case 'int':
      if (!isNumber) throw mismatch(v);
      return Number(integer(v, INT64));
    case 'uint64':
      if (!isNumber) throw mismatch(v);
      return integer(v, UINT64);
    case 'json.RawMessage':
      return v; // kept as JSON: the tracer named decodes it
    case 'params.ChainConfig':
      return chainConfig(v);
    case 'ethapi.StateOverride':
    case 'ethapi.BlockOverrides':
      return objectOf(v);
    case 'hexutil.Uint':
      return hexUint(v);
    case 'common.Hash':
      return commonHash(v);
  }
}

/** A struct or map field's JSON object (anything else is a type error). */
function objectOf(v: JsonValue): JsonObject {
  if (!isJsonObject(v)) throw mismatch(v);
  return v;
}

/**
 * params.ChainConfig's UnmarshalJSON (libevm, coreth's extras decoded from the same root): a
 * value that is not an object fails in its first json.Unmarshal, wrapped in its text. The
 * config only names fork overrides for a trace (logger.Config.Overrides), which coreth's
 * debug_trace* methods other than the file tracers never read, so its fields are not checked.
 */
function chainConfig(v: JsonValue): JsonValue {
  if (isJsonObject(v)) return v;
  throw new TracerError(
    `decoding JSON into *params.ChainConfig: json: cannot unmarshal ${goKind(v)} into Go value of type params.chainConfigWithoutMethods`,
    'config',
  );
}

/**
 * common.Hash's UnmarshalJSON (hexutil.UnmarshalFixedJSON): hexutil's syntax errors as type errors
 * that stop decoding, its length error as a plain error (no json: prefix).
 */
function commonHash(v: JsonValue): string {
  if (typeof v !== 'string') throw new TypeMismatch('non-string', true);
  let digits = v;
  if (digits !== '') {
    if (!/^0[xX]/.test(digits)) throw new TypeMismatch('hex string without 0x prefix', true);
    digits = digits.slice(2);
    if (digits.length % 2 !== 0) throw new TypeMismatch('hex string of odd length', true);
  }
  if (digits.length !== 64) throw new TracerError(`hex string has length ${digits.length}, want 64 for common.Hash`, 'config');
  if (!/^[0-9a-fA-F]*$/.test(digits)) throw new TypeMismatch('invalid hex string', true);
  return `0x${digits.toLowerCase()}`;
}

/** hexutil.Uint's UnmarshalJSON: a 0x string (empty: zero), its decError texts inside UnmarshalTypeError. */
function hexUint(v: JsonValue): bigint {
  if (typeof v !== 'string') throw new TypeMismatch('non-string', true);
  if (v === '') return 0n;
  const bad = (text: string) => new TypeMismatch(text, true);
  if (!/^0[xX]/.test(v)) throw bad('hex string without 0x prefix');
  const digits = v.slice(2);
  if (digits === '') throw bad('hex string "0x"');
  if (digits.length > 1 && digits[0] === '0') throw bad('hex number with leading zero digits');
  if (digits.length > 16) throw bad('hex number > 64 bits');
  if (!/^[0-9a-fA-F]+$/.test(digits)) throw bad('invalid hex string');
  return BigInt(`0x${digits}`);
}

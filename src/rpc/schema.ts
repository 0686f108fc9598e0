// One declarative parameter schema per method. Decoding follows Go's encoding/json into a zero-valued
// args struct (what avalanchego's services receive): absent or null fields keep their zero value,
// keys match case-insensitively, unknown keys are ignored, and any mismatch is a ParamsError that
// the dialect turns into its own error (gorilla: one generic message; geth: -32602).
import { goKey, goKind, isJsonObject, numberText, type JsonValue } from '../encoding/gojson.js';
import { goQuote } from '../encoding/goquote.js';
import { decodeCB58 } from '../encoding/cb58.js';

export class ParamsError extends Error {}

export interface Field<T> {
  /** Decode a present, non-null JSON value. */
  decode(value: JsonValue): T;
  /**
   * A Go type with its own UnmarshalJSON is handed a JSON null too (encoding/json calls it for a
   * value that is not a pointer): what it makes of it. Without this, null is the zero value.
   */
  decodeNull?(): T;
  /** The Go zero value, used when the key is absent or null. */
  zero(): T;
}

const fail = (value: JsonValue, type: string): never => {
  throw new ParamsError(`json: cannot unmarshal ${goKind(value)} into Go value of type ${type}`);
};

/** A Go string, or a type defined as one (rpc.ID), named in the error for another kind of value. */
export function textOf(type: string): Field<string> {
  return { decode: (v) => (typeof v === 'string' ? v : fail(v, type)), zero: () => '' };
}

export const string: Field<string> = textOf('string');

/** Any JSON value as sent (absent: undefined), decoded later by the method itself. */
export const raw: Field<JsonValue | undefined> = { decode: (v) => v, zero: () => undefined };

export const bool: Field<boolean> = {
  decode: (v) => (typeof v === 'boolean' ? v : fail(v, 'bool')),
  zero: () => false,
};

/** avalanchego's json.Uint64/Uint32: a decimal string or a JSON number, no sign, no exponent. */
function unsigned(bits: 64 | 32 | 16 | 8): Field<bigint> {
  const max = (1n << BigInt(bits)) - 1n;
  return {
    decode(v) {
      const text = typeof v === 'string' ? v : (numberText(v) ?? fail(v, `json.Uint${bits}`));
      if (!/^\d+$/.test(text)) throw new ParamsError(`strconv.ParseUint: parsing ${goQuote(text)}: invalid syntax`);
      const n = BigInt(text);
      if (n > max) throw new ParamsError(`strconv.ParseUint: parsing ${goQuote(text)}: value out of range`);
      return n;
    },
    zero: () => 0n,
  };
}
export const uint64 = unsigned(64);
export const uint32 = unsigned(32);
export const uint16 = unsigned(16);

/** An ids.NodeID ("NodeID-" and the CB58 of 20 bytes), as its UnmarshalJSON takes it. */
export const nodeID: Field<Uint8Array> = {
  decode(v) {
    if (typeof v !== 'string' || !v.startsWith('NodeID-')) throw new ParamsError('ids.NodeID: missing "NodeID-" prefix');
    try {
      const b = decodeCB58(v.slice(7));
      if (b.length !== 20) throw new Error(`expected 20 bytes but got ${b.length}`);
      return b;
    } catch (err) {
      throw new ParamsError((err as Error).message);
    }
  },
  zero: () => new Uint8Array(20),
};

/** A Go float64 (JSON numbers only). */
export const float: Field<number> = {
  decode(v) {
    const text = numberText(v);
    if (text === undefined) return fail(v, 'float64');
    return Number(text);
  },
  zero: () => 0,
};

/** A plain Go int (JSON numbers only). */
export const int: Field<number> = {
  decode(v) {
    const text = numberText(v);
    if (text === undefined || !/^-?\d+$/.test(text)) return fail(v, 'int');
    return Number(text);
  },
  zero: () => 0,
};

/** A Go slice of `item`; `goType` names it in the error for a value that is no array (e.g. "[]float64"). */
export function arrayOf<T>(item: Field<T>, goType = 'array'): Field<T[]> {
  return {
    decode: (v) => (Array.isArray(v) ? v.map((x) => (x === null ? item.zero() : item.decode(x))) : fail(v, goType)),
    zero: () => [],
  };
}

/** A Go pointer field: undefined when absent or null. */
export function optional<T>(inner: Field<T>): Field<T | undefined> {
  return { decode: (v) => inner.decode(v), zero: () => undefined };
}

/** A string-typed value with its own UnmarshalJSON (levels, encodings, IDs): rejects like Go does. */
export function textual<T>(parse: (text: string) => T, zero: () => T): Field<T> {
  return {
    decode(v) {
      if (typeof v !== 'string') return fail(v, 'string');
      try {
        return parse(v);
      } catch (err) {
        throw new ParamsError((err as Error).message);
      }
    },
    zero,
  };
}

export type Shape = Record<string, Field<unknown>>;
export type Decoded<S extends Shape> = { [K in keyof S]: S[K] extends Field<infer T> ? T : never };

export interface StructField<S extends Shape> extends Field<Decoded<S>> {
  readonly shape: S;
}

export function struct<S extends Shape>(shape: S): StructField<S> {
  const zero = () => {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(shape)) out[key] = field.zero();
    return out as Decoded<S>;
  };
  return {
    shape,
    zero,
    decode(v) {
      if (!isJsonObject(v)) return fail(v, 'struct');
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(shape)) {
        const raw = goKey(v, key);
        out[key] = raw === undefined || raw === null ? field.zero() : field.decode(raw);
      }
      return out as Decoded<S>;
    },
  };
}

/** Methods without arguments still reject params that cannot decode into an empty struct. */
export const none = struct({});

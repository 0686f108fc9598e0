// go-ethereum's hexutil types as encoding/json decodes them (hexutil.Big, Uint64, Uint, Bytes and the
// fixed-size common.Address and common.Hash), each check in hexutil's order. hexutil's own errors
// (decError) reach the caller as encoding/json's type errors (wrapTypeError): "json: cannot unmarshal
// hex string of odd length into Go value of type common.Address", and inside a struct "into Go
// struct field TransactionArgs.gas of type hexutil.Uint64". A fixed type's wrong length is a plain
// error, never wrapped.
import { goKey, type JsonObject, type JsonValue } from '../../../encoding/gojson.js';
import { type Field, ParamsError } from '../../../rpc/schema.js';

/** encoding/json's UnmarshalTypeError: a value of the wrong kind or text for a Go type. */
export class GoTypeError extends ParamsError {
  constructor(
    readonly value: string,
    readonly type: string,
    readonly where?: string,
  ) {
    super(`json: cannot unmarshal ${value} into Go ${where ? `struct field ${where}` : 'value'} of type ${type}`);
  }
}

/** hexutil's decError texts. */
const SYNTAX = 'invalid hex string';
const MISSING_PREFIX = 'hex string without 0x prefix';
const ODD_LENGTH = 'hex string of odd length';
const EMPTY_NUMBER = 'hex string "0x"';
const LEADING_ZERO = 'hex number with leading zero digits';

const HEX = /^[0-9a-fA-F]*$/;
const hasPrefix = (text: string) => text.length >= 2 && text[0] === '0' && (text[1] === 'x' || text[1] === 'X');

/** hexutil's isString: anything but a JSON string is errNonString. */
function stringOf(v: JsonValue, type: string): string {
  if (typeof v !== 'string') throw new GoTypeError('non-string', type);
  return v;
}

/** checkNumberText and the type's UnmarshalText: the digits of a quantity of at most `bits`. */
function quantityOf(bits: number, type: string): Field<bigint> {
  return {
    decode(v) {
      const text = stringOf(v, type);
      // Empty strings are allowed: zero.
      if (text === '') return 0n;
      if (!hasPrefix(text)) throw new GoTypeError(MISSING_PREFIX, type);
      const digits = text.slice(2);
      if (digits === '') throw new GoTypeError(EMPTY_NUMBER, type);
      if (digits.length > 1 && digits[0] === '0') throw new GoTypeError(LEADING_ZERO, type);
      if (digits.length > bits / 4) throw new GoTypeError(`hex number > ${bits} bits`, type);
      if (!HEX.test(digits)) throw new GoTypeError(SYNTAX, type);
      return BigInt(`0x${digits}`);
    },
    decodeNull() {
      return this.decode(null);
    },
    zero: () => 0n,
  };
}

export const big = quantityOf(256, '*hexutil.Big');
export const uint64 = quantityOf(64, 'hexutil.Uint64');
export const uint = quantityOf(64, 'hexutil.Uint');

/** checkText with the prefix required: the digits, even in number (an empty string has none). */
function evenDigits(text: string, type: string): string {
  if (text === '') return '';
  if (!hasPrefix(text)) throw new GoTypeError(MISSING_PREFIX, type);
  const digits = text.slice(2);
  if (digits.length % 2 !== 0) throw new GoTypeError(ODD_LENGTH, type);
  return digits;
}

/** UnmarshalFixedJSON: `length` bytes; a wrong length is its own, unwrapped, error. */
function fixedBytes(length: number, type: string): Field<Uint8Array> {
  return {
    decode(v) {
      const digits = evenDigits(stringOf(v, type), type);
      if (digits.length !== length * 2) throw new ParamsError(`hex string has length ${digits.length}, want ${length * 2} for ${type}`);
      if (!HEX.test(digits)) throw new GoTypeError(SYNTAX, type);
      return new Uint8Array(Buffer.from(digits, 'hex'));
    },
    decodeNull() {
      return this.decode(null);
    },
    zero: () => new Uint8Array(length),
  };
}

/** hexutil.Decode: its errors bare; an invalid digit is reported before an odd length (hex.DecodeString). */
export function decodeHex(text: string): Uint8Array {
  if (text === '') throw new ParamsError('empty hex string');
  if (!hasPrefix(text)) throw new ParamsError(MISSING_PREFIX);
  const digits = text.slice(2);
  if (!HEX.test(digits)) throw new ParamsError(SYNTAX);
  if (digits.length % 2 !== 0) throw new ParamsError(ODD_LENGTH);
  return new Uint8Array(Buffer.from(digits, 'hex'));
}

/**
 * hexutil.DecodeUint64 (what rpc.BlockNumber runs on its text): its errors bare, strconv.ParseUint's
 * met digit by digit (a bad digit, or a 17th one, whichever comes first).
 */
export function decodeUint64Text(text: string): bigint {
  if (text === '') throw new ParamsError('empty hex string');
  if (!hasPrefix(text)) throw new ParamsError(MISSING_PREFIX);
  const digits = text.slice(2);
  if (digits === '') throw new ParamsError(EMPTY_NUMBER);
  if (digits.length > 1 && digits[0] === '0') throw new ParamsError(LEADING_ZERO);
  for (let i = 0; i < digits.length; i++) {
    if (!HEX.test(digits[i]!)) throw new ParamsError(SYNTAX);
    if (i >= 16) throw new ParamsError('hex number > 64 bits');
  }
  return BigInt(text);
}

/**
 * UnmarshalFixedText, which a fixed type's UnmarshalText runs (a map key, a hash in a string
 * BlockNumberOrHash): hexutil's errors bare, the type by its short name ("Hash").
 */
export function fixedText(text: string, length: number, typname: string): Uint8Array {
  let digits = '';
  if (text !== '') {
    if (!hasPrefix(text)) throw new ParamsError(MISSING_PREFIX);
    digits = text.slice(2);
    if (digits.length % 2 !== 0) throw new ParamsError(ODD_LENGTH);
  }
  if (digits.length !== length * 2) throw new ParamsError(`hex string has length ${digits.length}, want ${length * 2} for ${typname}`);
  if (!HEX.test(digits)) throw new ParamsError(SYNTAX);
  return new Uint8Array(Buffer.from(digits, 'hex'));
}

export const address = fixedBytes(20, 'common.Address');
export const hash = fixedBytes(32, 'common.Hash');

export const bytes: Field<Uint8Array> = {
  decode(v) {
    const digits = evenDigits(stringOf(v, 'hexutil.Bytes'), 'hexutil.Bytes');
    if (!HEX.test(digits)) throw new GoTypeError(SYNTAX, 'hexutil.Bytes');
    return new Uint8Array(Buffer.from(digits, 'hex'));
  },
  decodeNull() {
    return this.decode(null);
  },
  zero: () => new Uint8Array(),
};

/**
 * A struct field's value (absent or null: undefined, as a nil pointer), its type errors naming the
 * field as encoding/json does: the struct's Go name and the field's JSON key.
 */
export function structField<T>(o: JsonObject, struct: string, key: string, field: Field<T>): T | undefined {
  const v = goKey(o, key);
  return v === undefined || v === null ? undefined : decodeIn(struct, key, field, v);
}

/** `v` decoded as `field` inside `struct`'s field `key` (a map's value too: its type errors name the field). */
export function decodeIn<T>(struct: string, key: string, field: Field<T>, v: JsonValue): T {
  try {
    return field.decode(v);
  } catch (err) {
    if (err instanceof GoTypeError) throw new GoTypeError(err.value, err.type, `${struct}.${key}`);
    throw err;
  }
}

// go-ethereum's rlp decoding, walked over bytes only to name its first error as geth does: the
// rlp.Stream a struct is decoded from (sizes held against the input and the enclosing list, as
// Kind() holds them; canonical sizes and integers; Go's uint64 list counts), the decoders of the
// kinds of field geth's tx structs have, rlp.Split's reading of a slice, and rlp.DecodeBytes.
// Nothing is decoded into values: gethrlp.ts says which Go types the bytes must fit.

/** One of rlp.Stream's errors: compared by identity, as Go compares them. */
class StreamError {
  constructor(readonly text: string) {}
}

const EOL = new StreamError('rlp: end of list');
const EOF = new StreamError('EOF');
const EXPECTED_STRING = new StreamError('rlp: expected String or Byte');
const EXPECTED_LIST = new StreamError('rlp: expected List');
const CANON_INT = new StreamError('rlp: non-canonical integer format');
const CANON_SIZE = new StreamError('rlp: non-canonical size information');
const ELEM_TOO_LARGE = new StreamError('rlp: element is larger than containing list');
const VALUE_TOO_LARGE = new StreamError('rlp: value size exceeds available input length');
const MORE_THAN_ONE_VALUE = new StreamError('rlp: input contains more than one value');
const NOT_IN_LIST = new StreamError('rlp: call of ListEnd outside of any list');
const NOT_AT_EOL = new StreamError('rlp: call of ListEnd not positioned at EOL');
const UINT_OVERFLOW = new StreamError('rlp: uint overflow');
const UINT256_LARGE = new StreamError('rlp: value too large for uint256');
const UNEXPECTED_EOF = new StreamError('unexpected EOF');

/** rlp's decodeError: what failed, for which Go type, and where (innermost first). */
class DecodeError {
  readonly ctx: string[] = [];
  constructor(
    readonly msg: string,
    readonly typ: string,
  ) {}

  get text(): string {
    const where = this.ctx.length > 0 ? `, decoding into ${[...this.ctx].reverse().join('')}` : '';
    return `rlp: ${this.msg} for ${this.typ}${where}`;
  }
}

/** rlp's wrapStreamError: the stream errors a decoder reports for its type. */
function wrap(err: unknown, typ: string): unknown {
  if (err === CANON_INT) return new DecodeError('non-canonical integer (leading zero bytes)', typ);
  if (err === CANON_SIZE) return new DecodeError('non-canonical size information', typ);
  if (err === EXPECTED_LIST) return new DecodeError('expected input list', typ);
  if (err === EXPECTED_STRING) return new DecodeError('expected input string or byte', typ);
  if (err === UINT_OVERFLOW) return new DecodeError('input string too long', typ);
  if (err === NOT_AT_EOL) return new DecodeError('input list has too many elements', typ);
  return err;
}

const BYTE = 0;
export const STRING = 1;
export const LIST = 2;
const KIND_NAMES = ['Byte', 'String', 'List'];

/** Go's uint64: a list's count wraps around when a header took the room its list needed. */
const U64 = (1n << 64n) - 1n;

/**
 * rlp.Stream over a byte slice with its length as the input limit (what rlp.DecodeBytes reads
 * with). Sizes are bigints: a header may declare up to 2^64 - 1 bytes, and a list's count may
 * wrap as Go's uint64 does; both are compared as Go compares them.
 */
class Stream {
  private pos = 0;
  private remaining: bigint;
  /** What is left of each open list. */
  private readonly stack: bigint[] = [];
  /** The value ahead, once its header is read (kind -1: not read yet). */
  kind = -1;
  size = 0n;
  private kindErr: unknown = undefined;
  private byteval = 0;

  constructor(private readonly b: Uint8Array) {
    this.remaining = BigInt(b.length);
  }

  get unread(): number {
    return this.b.length - this.pos;
  }

  private willRead(n: bigint): void {
    this.kind = -1;
    const top = this.stack.length - 1;
    if (top >= 0) {
      if (n > this.stack[top]!) throw ELEM_TOO_LARGE;
      this.stack[top]! -= n;
    }
    if (n > this.remaining) throw VALUE_TOO_LARGE;
    this.remaining -= n;
  }

  private readByte(): number {
    this.willRead(1n);
    return this.b[this.pos++]!;
  }

  /** `n` bytes (within the input: willRead checked it against what remains). */
  private readFull(n: bigint): Uint8Array {
    this.willRead(n);
    this.pos += Number(n);
    return this.b.subarray(this.pos - Number(n), this.pos);
  }

  /** A big-endian size or integer of `n` bytes; a leading zero byte is not canonical. */
  private readUint(n: number): bigint {
    if (n === 0) {
      this.kind = -1;
      return 0n;
    }
    if (n === 1) return BigInt(this.readByte());
    const bytes = this.readFull(BigInt(n));
    if (bytes[0] === 0) throw CANON_SIZE;
    return bytes.reduce((v, x) => (v << 8n) | BigInt(x), 0n);
  }

  private readKind(): [number, bigint] {
    let b: number;
    try {
      b = this.readByte();
    } catch (err) {
      // At the top level, running out of input is the end of the stream.
      throw this.stack.length === 0 && err === VALUE_TOO_LARGE ? EOF : err;
    }
    this.byteval = 0;
    if (b < 0x80) {
      this.byteval = b;
      return [BYTE, 0n];
    }
    if (b < 0xb8) return [STRING, BigInt(b - 0x80)];
    if (b < 0xc0) return [STRING, this.longSize(b - 0xb7)];
    if (b < 0xf8) return [LIST, BigInt(b - 0xc0)];
    return [LIST, this.longSize(b - 0xf7)];
  }

  private longSize(n: number): bigint {
    const size = this.readUint(n);
    if (size < 56n) throw CANON_SIZE;
    return size;
  }

  /** Reads the header of the value ahead (once), and checks its size against the input and the list it is in. */
  kindOf(): void {
    if (this.kind >= 0) {
      if (this.kindErr !== undefined) throw this.kindErr;
      return;
    }
    const top = this.stack.length - 1;
    // What the list had left before its header was read: the value's size is checked against that.
    const limit = top >= 0 ? this.stack[top]! : 0n;
    if (top >= 0 && limit === 0n) throw EOL;
    try {
      [this.kind, this.size] = this.readKind();
      this.kindErr = undefined;
    } catch (err) {
      this.kind = BYTE;
      this.kindErr = err;
      throw err;
    }
    if (top >= 0 && this.size > limit) this.kindErr = ELEM_TOO_LARGE;
    else if (this.size > this.remaining) this.kindErr = VALUE_TOO_LARGE;
    if (this.kindErr !== undefined) throw this.kindErr;
  }

  /** Skips an empty value (a nil pointer's). */
  rearm(): void {
    this.kind = -1;
  }

  list(): bigint {
    this.kindOf();
    if (this.kind !== LIST) throw EXPECTED_LIST;
    const size = this.size;
    const top = this.stack.length - 1;
    if (top >= 0) this.stack[top] = (this.stack[top]! - size) & U64;
    this.stack.push(size);
    this.kind = -1;
    this.size = 0n;
    return size;
  }

  listEnd(): void {
    const top = this.stack.length - 1;
    if (top < 0) throw NOT_IN_LIST;
    if (this.stack[top]! > 0n) throw NOT_AT_EOL;
    this.stack.pop();
    this.kind = -1;
    this.size = 0n;
  }

  bytes(): Uint8Array {
    this.kindOf();
    if (this.kind === BYTE) {
      this.kind = -1;
      return Uint8Array.of(this.byteval);
    }
    if (this.kind === LIST) throw EXPECTED_STRING;
    const b = this.readFull(this.size);
    if (b.length === 1 && b[0]! < 128) throw CANON_SIZE;
    return b;
  }

  uint(bits: number): void {
    this.kindOf();
    if (this.kind === BYTE) {
      if (this.byteval === 0) throw CANON_INT;
      this.kind = -1;
      return;
    }
    if (this.kind === LIST) throw EXPECTED_STRING;
    const size = this.size;
    if (size > BigInt(bits / 8)) throw UINT_OVERFLOW;
    let v: bigint;
    try {
      v = this.readUint(Number(size));
    } catch (err) {
      throw err === CANON_SIZE ? CANON_INT : err;
    }
    if (size > 0n && v < 128n) throw CANON_SIZE;
  }

  /** A uint256's bytes (ReadUint256): at most 32 of them, canonical. */
  uint256(): void {
    this.kindOf();
    if (this.kind === LIST) throw EXPECTED_STRING;
    let first: number | undefined;
    if (this.kind === BYTE) {
      first = this.byteval;
      this.kind = -1;
    } else if (this.size === 0n) {
      this.kind = -1;
    } else if (this.size <= 32n) {
      const b = this.readFull(this.size);
      if (b.length === 1 && b[0]! < 128) throw CANON_SIZE;
      first = b[0];
    } else {
      throw UINT256_LARGE;
    }
    if (first === 0) throw CANON_INT;
  }

  /** A fixed-size byte array's bytes (decodeByteArray). */
  byteArray(n: number, typ: string): void {
    this.kindOf();
    if (this.kind === LIST) throw wrap(EXPECTED_STRING, typ);
    const size = this.kind === BYTE ? 1n : this.size;
    if (size > BigInt(n)) throw new DecodeError('input string too long', typ);
    if (size < BigInt(n)) throw new DecodeError('input string too short', typ);
    if (this.kind === BYTE) {
      this.kind = -1;
      return;
    }
    const b = this.readFull(size);
    if (size === 1n && b[0]! < 128) throw wrap(CANON_SIZE, typ);
  }
}

export type Decoder = (s: Stream) => void;

export const uint64: Decoder = (s) => {
  try {
    s.uint(64);
  } catch (err) {
    throw wrap(err, 'uint64');
  }
};

export const bigInt: Decoder = (s) => {
  let b: Uint8Array;
  try {
    b = s.bytes();
  } catch (err) {
    throw wrap(err, '*big.Int');
  }
  if (b.length > 0 && b[0] === 0) throw wrap(CANON_INT, '*big.Int');
};

export const uint256: Decoder = (s) => {
  try {
    s.uint256();
  } catch (err) {
    throw wrap(err, '*uint256.Int');
  }
};

export const byteSlice: Decoder = (s) => {
  try {
    s.bytes();
  } catch (err) {
    throw wrap(err, '[]uint8');
  }
};

export const byteArray =
  (n: number, typ: string): Decoder =>
  (s) =>
    s.byteArray(n, typ);

/** A pointer tagged `rlp:"nil"`: an empty string is nil, anything else the element. */
export const nilPointer =
  (elem: Decoder, typ: string, nilKind: number): Decoder =>
  (s) => {
    try {
      s.kindOf();
    } catch (err) {
      throw wrap(err, typ);
    }
    if (s.kind !== BYTE && s.size === 0n) {
      if (s.kind !== nilKind) throw new DecodeError(`wrong kind of empty value (got ${KIND_NAMES[s.kind]}, want ${KIND_NAMES[nilKind]})`, typ);
      s.rearm();
      return;
    }
    elem(s);
  };

export const struct =
  (typ: string, fields: ReadonlyArray<readonly [string, Decoder]>): Decoder =>
  (s) => {
    try {
      s.list();
    } catch (err) {
      throw wrap(err, typ);
    }
    for (const [name, decode] of fields) {
      try {
        decode(s);
      } catch (err) {
        if (err === EOL) throw new DecodeError('too few elements', typ);
        if (err instanceof DecodeError) err.ctx.push(`.${name}`);
        throw err;
      }
    }
    try {
      s.listEnd();
    } catch (err) {
      throw wrap(err, typ);
    }
  };

export const listOf =
  (elem: Decoder, typ: string): Decoder =>
  (s) => {
    let size: bigint;
    try {
      size = s.list();
    } catch (err) {
      throw wrap(err, typ);
    }
    for (let i = 0; size > 0n; i++) {
      try {
        elem(s);
      } catch (err) {
        if (err === EOL) break;
        if (err instanceof DecodeError) err.ctx.push(`[${i}]`);
        throw err;
      }
    }
    s.listEnd();
  };

/** rlp's readKind over a slice (Split): the value's kind, header size and content size. */
function splitKind(b: Uint8Array): [number, number, bigint] {
  if (b.length === 0) throw UNEXPECTED_EOF;
  const c = b[0]!;
  let kind: number;
  let tag: number;
  let size: bigint;
  if (c < 0x80) [kind, tag, size] = [BYTE, 0, 1n];
  else if (c < 0xb8) {
    [kind, tag, size] = [STRING, 1, BigInt(c - 0x80)];
    if (size === 1n && b.length > 1 && b[1]! < 128) throw CANON_SIZE;
  } else if (c < 0xc0) [kind, tag, size] = [STRING, c - 0xb6, splitSize(b, c - 0xb7)];
  else if (c < 0xf8) [kind, tag, size] = [LIST, 1, BigInt(c - 0xc0)];
  else [kind, tag, size] = [LIST, c - 0xf6, splitSize(b, c - 0xf7)];
  if (size > BigInt(b.length - tag)) throw VALUE_TOO_LARGE;
  return [kind, tag, size];
}

/** rlp's readSize: a long header's `n`-byte size, canonical. */
function splitSize(b: Uint8Array, n: number): bigint {
  if (n > b.length - 1) throw UNEXPECTED_EOF;
  const bytes = b.subarray(1, 1 + n);
  const size = bytes.reduce((v, x) => (v << 8n) | BigInt(x), 0n);
  if (size < 56n || bytes[0] === 0) throw CANON_SIZE;
  return size;
}

/** rlp.SplitList, then rlp.Split of the list's content: the kind of its first element, or the error's text. */
export function firstElementKind(b: Uint8Array): number | string {
  try {
    const [kind, tag, size] = splitKind(b);
    if (kind !== LIST) throw EXPECTED_LIST;
    return splitKind(b.subarray(tag, tag + Number(size)))[0];
  } catch (err) {
    if (err instanceof StreamError) return err.text;
    throw err;
  }
}

/** rlp.DecodeBytes into the Go type `typ`: its error's text, or undefined. */
export function decodeBytes(b: Uint8Array, [typ, decode]: readonly [string, Decoder]): string | undefined {
  const s = new Stream(b);
  try {
    decode(s);
  } catch (err) {
    if (err instanceof DecodeError) {
      if (err.ctx.length > 0) err.ctx.push(`(${typ})`);
      return err.text;
    }
    if (err instanceof StreamError) return err.text;
    throw err;
  }
  return s.unread > 0 ? MORE_THAN_ONE_VALUE.text : undefined;
}

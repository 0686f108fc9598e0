// avalanchego's wrappers.Packer as the linear codec (codec/reflectcodec) drives it: big-endian
// integers, and the error texts the codec returns for each kind of field, because avm.issueTx
// replies with those texts verbatim. Which wrapper a failure gets depends on the Go field kind:
// integers and strings are wrapped ("couldn't unmarshal uint32: ..."), slice counts too, but
// fixed byte arrays (IDs, addresses, signatures) and the bytes of a []byte are not.

export class CodecError extends Error {
  override name = 'CodecError';
}

/** wrappers.ErrInsufficientLength */
export const INSUFFICIENT_LENGTH = 'packer has insufficient length for input';
/** The codec's slice limit (math.MaxInt32 elements). */
const MAX_SLICE_LEN = 0x7fffffff;

export class Reader {
  offset = 0;
  readonly bytes: Uint8Array;
  private readonly view: DataView;

  constructor(bytes: Uint8Array) {
    // A plain Uint8Array view, even over a Buffer: its slice() copies (Buffer's does not), so
    // parsed values never alias the caller's memory.
    this.bytes = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  private need(n: number, what?: string): void {
    if (this.remaining < n) {
      throw new CodecError(what ? `couldn't unmarshal ${what}: ${INSUFFICIENT_LENGTH}` : INSUFFICIENT_LENGTH);
    }
  }

  u8(): number {
    this.need(1, 'uint8');
    return this.bytes[this.offset++]!;
  }

  u16(): number {
    this.need(2, 'uint16');
    const v = this.view.getUint16(this.offset);
    this.offset += 2;
    return v;
  }

  u32(): number {
    this.need(4, 'uint32');
    const v = this.view.getUint32(this.offset);
    this.offset += 4;
    return v;
  }

  u64(): bigint {
    this.need(8, 'uint64');
    const v = this.view.getBigUint64(this.offset);
    this.offset += 8;
    return v;
  }

  /** A fixed-size byte array ([32]byte IDs, [20]byte addresses, [65]byte signatures), copied out. */
  fixed(n: number): Uint8Array {
    this.need(n);
    const v = this.bytes.slice(this.offset, this.offset + n);
    this.offset += n;
    return v;
  }

  /** The u32 element count of a slice. Elements are read one by one afterwards, so a count larger
   *  than the data fails on the first missing element, as in Go. */
  sliceLength(): number {
    this.need(4, 'slice');
    const n = this.view.getUint32(this.offset);
    this.offset += 4;
    if (n > MAX_SLICE_LEN) {
      throw new CodecError(`max slice length exceeded; array length, ${n}, exceeds maximum length, ${MAX_SLICE_LEN}`);
    }
    return n;
  }

  /** A []byte: slice count, then the bytes (whose shortfall is reported unwrapped). */
  byteSlice(): Uint8Array {
    return this.fixed(this.sliceLength());
  }

  /** A Go string: u16 length and bytes; either shortfall is a string error. */
  string(): Uint8Array {
    if (this.remaining < 2) throw new CodecError(`couldn't unmarshal string: ${INSUFFICIENT_LENGTH}`);
    const n = this.view.getUint16(this.offset);
    if (this.remaining < 2 + n) throw new CodecError(`couldn't unmarshal string: ${INSUFFICIENT_LENGTH}`);
    this.offset += 2;
    return this.fixed(n);
  }

  /** The u32 type ID that prefixes an interface value. */
  typeID(): number {
    this.need(4, 'interface');
    const v = this.view.getUint32(this.offset);
    this.offset += 4;
    return v;
  }
}

function checkUint(value: number, max: number, what: string): void {
  if (!Number.isInteger(value) || value < 0 || value > max) throw new RangeError(`${what} out of range: ${value}`);
}

/** Growable big-endian writer. Values are range-checked: a bad model value is a bug, not data. */
export class Writer {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  private len = 0;

  get length(): number {
    return this.len;
  }

  /** Claims n bytes and returns their offset. It may replace `buf` and `view`, so callers take
   *  the offset first and touch those after. */
  private reserve(n: number): number {
    const at = this.len;
    if (at + n > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, at + n));
      next.set(this.buf.subarray(0, at));
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    this.len += n;
    return at;
  }

  u8(v: number): this {
    checkUint(v, 0xff, 'uint8');
    const at = this.reserve(1);
    this.buf[at] = v;
    return this;
  }

  u16(v: number): this {
    checkUint(v, 0xffff, 'uint16');
    const at = this.reserve(2);
    this.view.setUint16(at, v);
    return this;
  }

  u32(v: number): this {
    checkUint(v, 0xffffffff, 'uint32');
    const at = this.reserve(4);
    this.view.setUint32(at, v);
    return this;
  }

  u64(v: bigint): this {
    if (v < 0n || v > 0xffffffffffffffffn) throw new RangeError(`uint64 out of range: ${v}`);
    const at = this.reserve(8);
    this.view.setBigUint64(at, v);
    return this;
  }

  /** Bytes with no length prefix; `size` (when given) is the fixed array length they must have. */
  fixed(bytes: Uint8Array, size?: number): this {
    if (size !== undefined && bytes.length !== size) throw new RangeError(`expected ${size} bytes, got ${bytes.length}`);
    const at = this.reserve(bytes.length);
    this.buf.set(bytes, at);
    return this;
  }

  /** A []byte: u32 length, then the bytes. */
  byteSlice(bytes: Uint8Array): this {
    return this.u32(bytes.length).fixed(bytes);
  }

  /** A Go string: u16 length, then the bytes (PackStr refuses longer ones). */
  string(bytes: Uint8Array): this {
    if (bytes.length > 0xffff) throw new CodecError('input does not match expected format');
    return this.u16(bytes.length).fixed(bytes);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

/** codec.defaultMaxSize: the X-Chain codec refuses larger inputs before reading a byte. */
export const MAX_SIZE = 256 * 1024;

/**
 * codec.Manager.Unmarshal: size limit, codec version (only 0 is registered), the value, then no
 * trailing bytes. `read` starts after the version.
 */
export function unmarshal<T>(bytes: Uint8Array, read: (r: Reader) => T): T {
  if (bytes.length > MAX_SIZE) throw new CodecError(`byte array exceeds maximum length: ${bytes.length} > ${MAX_SIZE}`);
  if (bytes.length < 2) throw new CodecError("couldn't unpack codec version");
  const r = new Reader(bytes);
  if (r.u16() !== 0) throw new CodecError('unknown codec version');
  const value = read(r);
  if (r.offset !== bytes.length) throw new CodecError(`trailing buffer space: read ${r.offset} provided ${bytes.length}`);
  return value;
}

/** A writer that has already written codec version 0, as codec.Manager.Marshal does. */
export function versioned(): Writer {
  return new Writer().u16(0);
}

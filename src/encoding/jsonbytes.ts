// JSON written straight into Buffers, for answers made of thousands of hex strings (eth_getLogs):
// a string per value, joined, flattened and encoded again, cost three times what the bytes did.

/** Each byte's two lower-case hex digits, as ASCII codes: the first in the low byte. */
const PAIRS = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  const digits = i.toString(16).padStart(2, '0');
  PAIRS[i] = digits.charCodeAt(0) | (digits.charCodeAt(1) << 8);
}

/** The size of the pieces a writer fills: a large answer is written as a list of them, never copied whole. */
const PIECE = 64 * 1024;
/** What JsonBytes.small counts as small. */
const SMALL = 8 * 1024;

/**
 * JSON text already encoded, in pieces: ASCII only, with nothing Go's encoder escapes (hex strings,
 * numbers, booleans). A method's whole result only, as RawJson: the geth dialect writes its pieces
 * as they are.
 */
export class JsonBytes {
  constructor(readonly pieces: readonly Buffer[]) {}

  /**
   * One piece of a few KiB: sent as text in its envelope, as any answer, since Node writes a text
   * body with its headers at once and each piece through its own write call.
   */
  get small(): boolean {
    return this.pieces.length === 1 && this.pieces[0]!.length <= SMALL;
  }

  get text(): string {
    const [first] = this.pieces;
    return this.pieces.length === 1 ? first!.toString('latin1') : Buffer.concat(this.pieces).toString('latin1');
  }

  /** A JSON array of items that are each such text. */
  static array(items: readonly string[]): JsonBytes {
    const array = new JsonArrayWriter();
    for (const item of items) array.item().ascii(item);
    return array.done();
  }
}

/** Appends JSON text to Buffers taken as needed. Everything written must be ASCII. */
export class JsonBytesWriter {
  private readonly full: Buffer[] = [];
  private out: Buffer;
  private at = 0;

  /** `size`: the first piece's (a small answer takes no more); the next are PIECE bytes, or the item's size when larger. */
  constructor(size = 1024) {
    this.out = Buffer.allocUnsafe(size);
  }

  /** Makes room for `n` more bytes in one piece: the current one, or a new one. */
  private room(n: number): void {
    if (this.at + n <= this.out.length) return;
    if (this.at > 0) this.full.push(this.out.subarray(0, this.at));
    this.out = Buffer.allocUnsafe(Math.max(n, PIECE));
    this.at = 0;
  }

  /** ASCII text as it is (punctuation, keys, numbers). */
  ascii(text: string): void {
    const n = text.length;
    this.room(n);
    // A key or a number is a few dozen characters: copied here, they cost a third of Buffer.write's call.
    if (n > 64) {
      this.at += this.out.write(text, this.at, 'latin1');
      return;
    }
    const out = this.out;
    let at = this.at;
    for (let i = 0; i < n; i++) out[at++] = text.charCodeAt(i);
    this.at = at;
  }

  /** `b` as a JSON string of "0x" and its lower-case hex (hexutil.Bytes, common.Hash, common.Address). */
  hex(b: Uint8Array): void {
    this.room(b.length * 2 + 4);
    const out = this.out;
    let at = this.at;
    out[at++] = 0x22; // "
    out[at++] = 0x30; // 0
    out[at++] = 0x78; // x
    for (let i = 0; i < b.length; i++) {
      const pair = PAIRS[b[i]!]!;
      out[at++] = pair & 0xff;
      out[at++] = pair >> 8;
    }
    out[at++] = 0x22;
    this.at = at;
  }

  /** The text written. The writer is not to be used after. */
  done(): JsonBytes {
    return new JsonBytes([...this.full, this.out.subarray(0, this.at)]);
  }
}

/** A JSON array written item by item. */
export class JsonArrayWriter {
  private readonly w: JsonBytesWriter;
  private count = 0;

  /** `size`: the first piece's, as JsonBytesWriter's. */
  constructor(size?: number) {
    this.w = new JsonBytesWriter(size);
    this.w.ascii('[');
  }

  /** The writer, its comma written: the next item goes there. */
  item(): JsonBytesWriter {
    if (this.count++ > 0) this.w.ascii(',');
    return this.w;
  }

  /** The array written. Not to be used after. */
  done(): JsonBytes {
    this.w.ascii(']');
    return this.w.done();
  }
}

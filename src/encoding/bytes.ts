// Big-endian integers as the linear codec and the key layouts write them.
export const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
export const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
export const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};
export const i64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(n);
  return b;
};

/** bytes.Compare: the order IDs, addresses and codec bytes sort in. */
export const compareBytes = (a: Uint8Array, b: Uint8Array): number => Buffer.compare(a, b);

/** bytes.Equal: the same length and the same bytes. */
export const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(a, b) === 0;

/** `parts` one after another, in a fresh Uint8Array. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// Hex text of bytes, for keys, IDs and JSON: lower-case digits. The one place for it (issue 28);
// avalanchego's hex/hexc/hexnc formatting, with its checksum and Go's errors, is encodeHex/decodeHex in hex.ts.

/** A Buffer over the same memory as `b`, without copying it: writes through either show in both. */
export const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

// Buffer's own hex encoder, the one `toString('hex')` runs, called on the Uint8Array itself: making
// a Buffer over it first costs twice the encoding of a 32-byte key, and keys are made on every state
// read. Node has it on Buffer.prototype but does not document it, so it is used only if it answers a
// probe right, and the documented way stays as the fallback. Its end is the view's byte length (past
// it, Node throws a RangeError).
type HexSlice = (this: Uint8Array, start: number, end: number) => string;
const hexSlice = (Buffer.prototype as unknown as { hexSlice?: HexSlice }).hexSlice;
const nativeHex = typeof hexSlice === 'function' && hexSlice.call(new Uint8Array([0xab, 0x01]), 0, 2) === 'ab01';

/** Lower-case hex of `b`, without a prefix, read in place (no copy): map keys and IDs as the ledgers keep them. */
export const toHex: (b: Uint8Array) => string = nativeHex
  ? (b) => (hexSlice as HexSlice).call(b, 0, b.byteLength)
  : (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** Lower-case hex of `b` after "0x", read in place: hexutil.Bytes, common.Hash and common.Address as geth prints them. */
export const toHex0x = (b: Uint8Array): string => `0x${toHex(b)}`;

/** toHex0x as a JSON string (quoted): formatting.HexNC, as avalanchego's JSON writes byte slices and signatures. */
export const quotedHex0x = (b: Uint8Array): string => `"${toHex0x(b)}"`;

/** `h` without one leading lower-case "0x" (as `h.replace(/^0x/, '')`). */
export const strip0x = (h: string): string => (h.startsWith('0x') ? h.slice(2) : h);

/**
 * Bare hex digits (no prefix) to a fresh Uint8Array, tolerant as Buffer is: it stops at the first pair
 * that is not hex and drops an odd last digit, never throws. For text the program wrote itself
 * (toHex keys); text from outside wants parseHex.
 */
export const fromHex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));

/** fromHex after strip0x: the same tolerant parse, with or without a lower-case "0x". */
export const fromHex0x = (h: string): Uint8Array => new Uint8Array(Buffer.from(strip0x(h), 'hex'));

/** Bare hex digits (no prefix) to a fresh Uint8Array, strictly: undefined unless `h` is whole pairs of hex digits (either case). "" is empty bytes. */
export const parseHex = (h: string): Uint8Array | undefined => (/^(?:[0-9a-fA-F]{2})*$/.test(h) ? new Uint8Array(Buffer.from(h, 'hex')) : undefined);

/** parseHex after one optional "0x" or "0X" (icm-services' SanitizeHexString): strict, undefined on anything else. */
export const parseHex0x = (h: string): Uint8Array | undefined => parseHex(h.replace(/^0x/i, ''));

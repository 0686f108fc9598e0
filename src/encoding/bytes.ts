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

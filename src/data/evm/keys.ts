// The EVM follower's key spaces, per chain (data/evm/<chain ID>): big-endian heights and indexes,
// so a range scan walks them in chain order.
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

export const CURSOR = Buffer.from('cursor');
/** a ‖ address ‖ height ‖ tx index: the address took part in that tx (sender, recipient, transfer or internal tx party, created contract). */
export const PARTY = 0x61;
/** d ‖ contract address: how it was deployed. */
export const DEPLOYED = 0x64;
/** f ‖ height ‖ tx index: a failed tx. */
export const FAILED = 0x66;
/** i ‖ height ‖ tx index: the tx's internal transactions (JSON). */
export const INTERNAL = 0x69;

export const partyKey = (address: Uint8Array, height: bigint, index: number) => Buffer.concat([Uint8Array.of(PARTY), address, u64(height), u32(index)]);
export const partyRange = (address: Uint8Array, from: bigint, to: bigint) => ({
  gte: Buffer.concat([Uint8Array.of(PARTY), address, u64(from)]),
  lt: Buffer.concat([Uint8Array.of(PARTY), address, u64(to)]),
});
export const deployedKey = (address: Uint8Array) => Buffer.concat([Uint8Array.of(DEPLOYED), address]);
export const failedKey = (height: bigint, index: number) => Buffer.concat([Uint8Array.of(FAILED), u64(height), u32(index)]);
export const failedRange = (below: { height: bigint; index: number } | undefined) => ({
  gte: Uint8Array.of(FAILED),
  lt: below ? failedKey(below.height, below.index) : Uint8Array.of(FAILED + 1),
});
export const internalKey = (height: bigint, index: number) => Buffer.concat([Uint8Array.of(INTERNAL), u64(height), u32(index)]);

/** The (height, index) at the end of a key. */
export function position(key: Uint8Array): { height: bigint; index: number } {
  const b = Buffer.from(key);
  return { height: b.readBigUInt64BE(b.length - 12), index: b.readUInt32BE(b.length - 4) };
}

// Warp messages delivered to a tx (avalanchego vms/evm/predicate): a relayer puts the signed message
// in the tx's access list, under the warp precompile's address, as 32-byte "storage keys": the bytes,
// a 0xff delimiter, zero padding. The n-th such entry is predicate n for getVerifiedWarpMessage(n).
// Each costs intrinsic gas by its size and signers instead of the access list's usual gas, and is
// verified before the tx runs; the failures are recorded in the block's extraData.
import { u32 } from '../../../encoding/bytes.js';

/** A predicate's bytes that are not a message. */
export class WarpFormatError extends Error {}

const DELIMITER = 0xff;

/** Predicate.Bytes: the message back, or the error subnet-evm gives for a bad encoding. */
export function predicateBytes(chunks: Uint8Array[]): Uint8Array {
  const padded = new Uint8Array(chunks.length * 32);
  chunks.forEach((c, i) => {
    padded.set(c, i * 32);
  });
  let end = padded.length;
  while (end > 0 && padded[end - 1] === 0) end--;
  if (end === 0) throw new WarpFormatError(`no delimiter found: length (${chunks.length})`);
  const expected = Math.ceil(end / 32);
  if (expected !== chunks.length) throw new WarpFormatError(`predicate included excess padding: got length (${chunks.length}), expected length (${expected})`);
  if (padded[end - 1] !== DELIMITER) throw new WarpFormatError('wrong delimiter');
  return padded.slice(0, end - 1);
}

/** Predicate.New: a signed message as access-list keys (the bytes, the delimiter, zero padding to 32-byte words). */
export function predicateChunksOf(message: Uint8Array): Uint8Array[] {
  const padded = new Uint8Array(Math.floor(message.length / 32 + 1) * 32);
  padded.set(message);
  padded[message.length] = DELIMITER;
  return Array.from({ length: padded.length / 32 }, (_, i) => padded.slice(i * 32, i * 32 + 32));
}

/** The warp predicates of an access list, in order (each entry for the address is one). */
export function warpPredicates(accessList: Array<[Uint8Array, Uint8Array[]]>, warpAddress: string): Uint8Array[][] {
  return accessList.filter(([address]) => Buffer.from(address).toString('hex') === warpAddress).map(([, keys]) => keys);
}

/** The predicate results of a block without warp predicates: an empty map (codec version u16, length u32). */
export const EMPTY_PREDICATE_RESULTS = new Uint8Array(6);

/**
 * BlockResults.Bytes: codec version 0, then map[txHash]map[address]bitset, each map a u32 count and
 * its entries in the order of their keys' bytes; the bitset as u32-length bytes. A tx with
 * predicates has an entry even when all are valid (an empty bitset).
 */
export function predicateResultsBytes(results: Map<string, Map<string, Uint8Array>>): Uint8Array {
  const parts: Buffer[] = [Buffer.from([0, 0]), u32(results.size)];
  for (const txHash of [...results.keys()].sort()) {
    const byAddress = results.get(txHash)!;
    parts.push(Buffer.from(txHash, 'hex'), u32(byAddress.size));
    for (const address of [...byAddress.keys()].sort()) {
      const bits = byAddress.get(address)!;
      parts.push(Buffer.from(address, 'hex'), u32(bits.length), Buffer.from(bits));
    }
  }
  return new Uint8Array(Buffer.concat(parts));
}

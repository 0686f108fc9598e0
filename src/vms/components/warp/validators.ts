// The canonical validator set a warp signature's bitset indexes (avalanchego snow/validators/warp.go
// FlattenValidatorSet, behind vms/platformvm/warp GetCanonicalValidatorSet): validators that share a
// BLS public key are one entry with their weights summed, validators without a key sign nothing,
// the entries are ordered by their uncompressed public key bytes, and the total weight counts every
// validator, with a key or without.
import { uncompressed } from './bls.js';

/** One entry of the canonical set: a public key, the summed weight of its validators, the validators. */
export interface CanonicalValidator<V> {
  /** The compressed public key. */
  publicKey: Uint8Array;
  weight: bigint;
  /** The validators that hold the key, in the order they were given. */
  members: V[];
}

export interface CanonicalSet<V> {
  validators: CanonicalValidator<V>[];
  totalWeight: bigint;
}

/** FlattenValidatorSet of `validators`, each with its compressed BLS public key (if any) by `keyOf`. */
export function canonicalSet<V extends { weight: bigint }>(validators: V[], keyOf: (v: V) => Uint8Array | undefined): CanonicalSet<V> {
  const byKey = new Map<string, CanonicalValidator<V> & { sortKey: Buffer }>();
  let totalWeight = 0n;
  for (const v of validators) {
    totalWeight += v.weight;
    const publicKey = keyOf(v);
    if (!publicKey) continue;
    const sortKey = Buffer.from(uncompressed(publicKey));
    const k = sortKey.toString('hex');
    const entry = byKey.get(k);
    if (entry) {
      entry.weight += v.weight;
      entry.members.push(v);
    } else byKey.set(k, { publicKey, weight: v.weight, members: [v], sortKey });
  }
  const sorted = [...byKey.values()].sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));
  return { validators: sorted.map(({ publicKey, weight, members }) => ({ publicKey, weight, members })), totalWeight };
}

// BLS as the P-Chain checks it (utils/crypto/bls, vms/platformvm/signer, vms/platformvm/warp):
// proofs of possession over the compressed public key, and aggregate signatures of warp messages
// checked against a validator set in canonical order (by uncompressed public key, equal keys
// merged), with the 67% quorum of the P-Chain's warp verifier.
import { bls12_381 } from '@noble/curves/bls12-381.js';

const bls = bls12_381.longSignatures;
const POP_DST = 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const SIG_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';

/** signer.ProofOfPossession.Verify: a valid key, and a signature of its compressed bytes under the PoP DST. */
export function verifyPoP(publicKey: Uint8Array, pop: Uint8Array): boolean {
  try {
    const key = bls12_381.G1.Point.fromBytes(publicKey);
    key.assertValidity();
    if (key.is0()) return false;
    return bls.verify(bls12_381.G2.Point.fromBytes(pop), bls.hash(publicKey, POP_DST), key);
  } catch {
    return false;
  }
}

export const uncompressed = (publicKey: Uint8Array): Uint8Array => bls12_381.G1.Point.fromBytes(publicKey).toBytes(false);

export interface WeightedKey {
  publicKey: Uint8Array;
  weight: bigint;
}

/** warp.FlattenValidatorSet: keyed validators merged by key, sorted by uncompressed key; the total counts every validator. */
export function canonicalSet(validators: Array<{ publicKey?: Uint8Array; weight: bigint }>): { set: WeightedKey[]; total: bigint } {
  const byKey = new Map<string, WeightedKey & { sortKey: Buffer }>();
  let total = 0n;
  for (const v of validators) {
    total += v.weight;
    if (!v.publicKey) continue;
    const sortKey = Buffer.from(uncompressed(v.publicKey));
    const k = sortKey.toString('hex');
    const prev = byKey.get(k);
    byKey.set(k, { publicKey: v.publicKey, weight: (prev?.weight ?? 0n) + v.weight, sortKey });
  }
  const set = [...byKey.values()].sort((a, b) => Buffer.compare(a.sortKey, b.sortKey)).map(({ publicKey, weight }) => ({ publicKey, weight }));
  return { set, total };
}

/** BitSetSignature.Verify with quorum 67/100: why it fails, or undefined. */
export function verifyBitSetSignature(
  unsigned: Uint8Array,
  signers: Uint8Array,
  signature: Uint8Array,
  validators: Array<{ publicKey?: Uint8Array; weight: bigint }>,
): string | undefined {
  const { set, total } = canonicalSet(validators);
  if (signers.length > 0 && signers[0] === 0) return 'bitset is invalid';
  const bits = signers.length === 0 ? 0n : BigInt(`0x${Buffer.from(signers).toString('hex')}`);
  const highest = bits === 0n ? -1 : bits.toString(2).length - 1;
  if (highest >= set.length) return `unknown validator: NumIndices (${highest + 1}) >= NumFilteredValidators (${set.length})`;
  const signing = set.filter((_, i) => (bits >> BigInt(i)) & 1n);
  const weight = signing.reduce((s, v) => s + v.weight, 0n);
  if (weight * 100n < total * 67n) return `signature weight is insufficient: 67*${total} > 100*${weight}`;
  if (signing.length === 0) return 'no public keys';
  try {
    const key = bls.aggregatePublicKeys(signing.map((v) => bls12_381.G1.Point.fromBytes(v.publicKey)));
    if (!bls.verify(bls12_381.G2.Point.fromBytes(signature), bls.hash(unsigned, SIG_DST), key)) return 'signature is invalid';
  } catch (err) {
    return `failed to parse signature: ${(err as Error).message}`;
  }
  return undefined;
}

/** Signs a warp message's unsigned bytes with one secret key (what a validator returns over ACP-118). */
export function signMessage(unsigned: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return bls.sign(bls.hash(unsigned, SIG_DST), secretKey).toBytes(true);
}

export function aggregateSignatures(signatures: Uint8Array[]): Uint8Array {
  return bls.aggregateSignatures(signatures.map((s) => bls12_381.G2.Point.fromBytes(s))).toBytes(true);
}

export const publicKeyOf = (secretKey: Uint8Array): Uint8Array => bls.getPublicKey(secretKey).toBytes(true);

/** A proof of possession of `secretKey`: its compressed public key signed under the PoP DST. */
export const proofOfPossession = (secretKey: Uint8Array): Uint8Array => bls.sign(bls.hash(publicKeyOf(secretKey), POP_DST), secretKey).toBytes(true);

// BLS12-381 as avalanchego's utils/crypto/bls uses it (min-pk: 48-byte G1 public keys, 96-byte G2
// signatures): signatures of warp messages under the proof-of-possession scheme's signature DST,
// their aggregation, and proofs of possession (a key's compressed bytes signed under the PoP DST).
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { toHex } from '../../../encoding/bytes.js';

const bls = bls12_381.longSignatures;
const POP_DST = 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const SIG_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';

// Deriving a public key is a scalar multiplication and decompressing one a square root: both are
// remembered, for the few keys a node knows (the local stakers', its L1 validators').
const publicKeys = new Map<string, Uint8Array>();
const uncompressedKeys = new Map<string, Uint8Array>();

/** The compressed public key of a secret key. */
export function publicKeyOf(secretKey: Uint8Array): Uint8Array {
  const k = toHex(secretKey);
  let pk = publicKeys.get(k);
  if (!pk) {
    pk = bls.getPublicKey(secretKey).toBytes(true);
    publicKeys.set(k, pk);
  }
  return pk;
}

/** bls.PublicKeyToUncompressedBytes of a compressed key: what the canonical validator order sorts by. */
export function uncompressed(publicKey: Uint8Array): Uint8Array {
  const k = toHex(publicKey);
  let u = uncompressedKeys.get(k);
  if (!u) {
    u = bls12_381.G1.Point.fromBytes(publicKey).toBytes(false);
    uncompressedKeys.set(k, u);
  }
  return u;
}

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

/** A proof of possession of `secretKey`: its compressed public key signed under the PoP DST. */
export const proofOfPossession = (secretKey: Uint8Array): Uint8Array => bls.sign(bls.hash(publicKeyOf(secretKey), POP_DST), secretKey).toBytes(true);

/** A validator's signature of a warp message's unsigned bytes (what it returns over ACP-118). */
export function sign(unsigned: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return bls.sign(bls.hash(unsigned, SIG_DST), secretKey).toBytes(true);
}

/** bls.AggregateSignatures, compressed. */
export function aggregateSignatures(signatures: Uint8Array[]): Uint8Array {
  return bls.aggregateSignatures(signatures.map((s) => bls12_381.G2.Point.fromBytes(s))).toBytes(true);
}

/** bls.SignatureFromBytes: throws on bytes that are not a signature. */
export const parseSignature = (signature: Uint8Array) => bls12_381.G2.Point.fromBytes(signature);

/** Whether `signature` is the aggregate of the holders of `publicKeys` over `unsigned`; throws on bytes that are not a key or a signature. */
export function verifyAggregate(unsigned: Uint8Array, signature: Uint8Array, publicKeys: Uint8Array[]): boolean {
  const key = bls.aggregatePublicKeys(publicKeys.map((k) => bls12_381.G1.Point.fromBytes(k)));
  return bls.verify(parseSignature(signature), bls.hash(unsigned, SIG_DST), key);
}

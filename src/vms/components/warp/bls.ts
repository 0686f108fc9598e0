// BLS12-381 as avalanchego's utils/crypto/bls uses it (min-pk: 48-byte G1 public keys, 96-byte G2
// signatures): signatures of warp messages under the proof-of-possession scheme's signature DST,
// their aggregation, and proofs of possession (a key's compressed bytes signed under the PoP DST).
// Signatures go through supranational's blst, as avalanchego's do (@chainsafe/blst's prebuilt
// binding, whose fixed DST is this signature DST): some 60 times faster than @noble/curves, which a
// warp message's delivery spent about 100 ms in (signing by every validator, then verifying the
// predicate). It loads with the first signature; @noble/curves answers where it cannot load (and
// with EMULATOR_BLS=noble), and for proofs of possession, which use another DST. Both give the same bytes.
import { createRequire } from 'node:module';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { toHex } from '../../../encoding/bytes.js';

type Blst = typeof import('@chainsafe/blst');
let blstModule: Blst | null | undefined;
/** The native binding, loaded once; undefined where it cannot load. */
function blst(): Blst | undefined {
  if (blstModule === undefined) {
    try {
      blstModule = process.env.EMULATOR_BLS === 'noble' ? null : (createRequire(import.meta.url)('@chainsafe/blst') as Blst);
    } catch {
      blstModule = null;
    }
  }
  return blstModule ?? undefined;
}

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
    const b = blst();
    pk = b ? b.SecretKey.fromBytes(secretKey).toPublicKey().toBytes(true) : bls.getPublicKey(secretKey).toBytes(true);
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
  const b = blst();
  if (b) return b.SecretKey.fromBytes(secretKey).sign(unsigned).toBytes(true);
  return bls.sign(bls.hash(unsigned, SIG_DST), secretKey).toBytes(true);
}

/** bls.AggregateSignatures, compressed. */
export function aggregateSignatures(signatures: Uint8Array[]): Uint8Array {
  const b = blst();
  if (b) return b.aggregateSignatures(signatures.map((s) => b.Signature.fromBytes(s, true, false))).toBytes(true);
  return bls.aggregateSignatures(signatures.map((s) => bls12_381.G2.Point.fromBytes(s))).toBytes(true);
}

/** bls.SignatureFromBytes: throws on bytes that are not a signature (blst's cases in avalanchego's words). */
export function parseSignature(signature: Uint8Array): void {
  const b = blst();
  if (!b) {
    bls12_381.G2.Point.fromBytes(signature);
    return;
  }
  let sig: ReturnType<Blst['Signature']['fromBytes']>;
  try {
    sig = b.Signature.fromBytes(signature);
  } catch {
    throw new Error("couldn't decompress signature");
  }
  try {
    // avalanchego: SigValidate(false), the point at infinity allowed (as @noble/curves allows it).
    sig.sigValidate(false);
  } catch {
    throw new Error('invalid signature');
  }
}

/** Whether `signature` is the aggregate of the holders of `publicKeys` over `unsigned`; throws on bytes that are not a key or a signature. */
export function verifyAggregate(unsigned: Uint8Array, signature: Uint8Array, publicKeys: Uint8Array[]): boolean {
  const b = blst();
  if (b)
    return b.fastAggregateVerify(
      unsigned,
      publicKeys.map((k) => b.PublicKey.fromBytes(k, true)),
      // As parseSignature: the point at infinity is a signature (that verifies nothing), not an error.
      b.Signature.fromBytes(signature, true, false),
    );
  const key = bls.aggregatePublicKeys(publicKeys.map((k) => bls12_381.G1.Point.fromBytes(k)));
  return bls.verify(bls12_381.G2.Point.fromBytes(signature), bls.hash(unsigned, SIG_DST), key);
}

// The warp signatures of src/vms/components/warp/bls.ts go through blst (@chainsafe/blst); they must
// be the bytes @noble/curves makes under avalanchego's signature DST, and each must verify what the
// other signs (the node falls back to @noble/curves where the binding cannot load).
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { describe, expect, it } from 'vitest';
import { aggregateSignatures, parseSignature, publicKeyOf, sign, verifyAggregate } from '../src/vms/components/warp/bls.js';

const DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const noble = bls12_381.longSignatures;
const keys = [1, 2, 3].map((i) => new Uint8Array(32).fill(i));
const message = new TextEncoder().encode('an unsigned warp message');

describe('BLS through blst', () => {
  it('signs, derives keys and aggregates exactly as @noble/curves does', () => {
    for (const k of keys) {
      expect(Buffer.from(sign(message, k)).toString('hex')).toBe(Buffer.from(noble.sign(noble.hash(message, DST), k).toBytes(true)).toString('hex'));
      expect(Buffer.from(publicKeyOf(k)).toString('hex')).toBe(Buffer.from(noble.getPublicKey(k).toBytes(true)).toString('hex'));
    }
    const byNoble = noble.aggregateSignatures(keys.map((k) => noble.sign(noble.hash(message, DST), k))).toBytes(true);
    expect(Buffer.from(aggregateSignatures(keys.map((k) => sign(message, k)))).toString('hex')).toBe(Buffer.from(byNoble).toString('hex'));
  });

  it("verifies @noble/curves' aggregate, refuses another message or a missing signer, and names bad bytes as avalanchego does", () => {
    const byNoble = noble.aggregateSignatures(keys.map((k) => noble.sign(noble.hash(message, DST), k))).toBytes(true);
    const publicKeys = keys.map(publicKeyOf);
    expect(verifyAggregate(message, byNoble, publicKeys)).toBe(true);
    expect(verifyAggregate(new TextEncoder().encode('another'), byNoble, publicKeys)).toBe(false);
    expect(verifyAggregate(message, byNoble, publicKeys.slice(1))).toBe(false);
    expect(() => parseSignature(new Uint8Array(96))).toThrow("couldn't decompress signature");
    expect(() => parseSignature(byNoble)).not.toThrow();
    // The point at infinity parses (avalanchego's SigValidate(false)) and verifies nothing, as with @noble/curves: no throw.
    const infinity = new Uint8Array(96);
    infinity[0] = 0xc0;
    expect(() => parseSignature(infinity)).not.toThrow();
    expect(verifyAggregate(message, infinity, publicKeys)).toBe(false);
  });
});

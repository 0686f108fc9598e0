// Key recovery runs on libsecp256k1 (the native addon) where it loads and on @noble/curves where it
// does not; avalanchego's answers must not depend on which. A differential test over random and
// edge-case signatures, and the node's recovery under each backend.
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { describe, expect, it } from 'vitest';
import { recoverPublicKey, signRecoverable } from '../src/crypto/secp256k1.js';

const N = secp256k1.Point.CURVE().n;
const P = secp256k1.Point.CURVE().p;
const be32 = (v: bigint) => Buffer.from(v.toString(16).padStart(64, '0'), 'hex');
const nobleRecover = (hash: Uint8Array, compact: Uint8Array, recid: number): string | undefined => {
  try {
    return Buffer.from(secp256k1.Signature.fromBytes(compact, 'compact').addRecoveryBit(recid).recoverPublicKey(hash).toBytes(true)).toString('hex');
  } catch {
    return undefined;
  }
};
const ours = (hash: Uint8Array, compact: Uint8Array, recid: number) => {
  const k = recoverPublicKey(hash, compact, recid);
  return k && Buffer.from(k).toString('hex');
};

describe('secp256k1 recovery', () => {
  it('uses the native libsecp256k1 addon on this platform', () => {
    const require = createRequire(import.meta.url);
    // A recovery loads the addon (the require cache is the process's: the node's own load is there).
    const key = secp256k1.utils.randomSecretKey();
    const hash = sha256(randomBytes(16));
    const sig = secp256k1.sign(hash, key, { prehash: false, format: 'recovered' });
    recoverPublicKey(hash, sig.subarray(1), sig[0]!);
    expect(Object.keys(require.cache)).toContain(require.resolve('secp256k1/bindings'));
  });

  it('agrees with @noble/curves on 300 real signatures, every recovery id, and flipped ids', () => {
    for (let i = 0; i < 300; i++) {
      const key = secp256k1.utils.randomSecretKey();
      const hash = sha256(randomBytes(16));
      const sig = secp256k1.sign(hash, key, { prehash: false, format: 'recovered' });
      const compact = sig.subarray(1);
      const expected = Buffer.from(secp256k1.getPublicKey(key, true)).toString('hex');
      expect(ours(hash, compact, sig[0]!)).toBe(expected);
      for (const recid of [0, 1, 2, 3]) expect(ours(hash, compact, recid)).toBe(nobleRecover(hash, compact, recid));
    }
  });

  it("signs as @noble/curves does with RFC 6979's nonce: the same r, s and recovery id for 300 keys", () => {
    for (let i = 0; i < 300; i++) {
      const key = secp256k1.utils.randomSecretKey();
      const hash = sha256(randomBytes(16));
      const { signature, recid } = signRecoverable(hash, key);
      const expected = secp256k1.sign(hash, key, { prehash: false, extraEntropy: false, format: 'recovered' });
      expect(Buffer.from([recid, ...signature]).toString('hex')).toBe(Buffer.from(expected).toString('hex'));
    }
    expect(() => signRecoverable(sha256(Buffer.from('k')), new Uint8Array(32))).toThrow();
  });

  it('agrees on the edges: zero, N and above for r and s, r + N past the field for ids 2 and 3, random bytes', () => {
    const hash = sha256(Buffer.from('edges'));
    const rs: bigint[] = [
      0n,
      1n,
      2n,
      N - 1n,
      N,
      N + 1n,
      P - N - 1n,
      P - N,
      (1n << 256n) - 1n,
      0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n,
    ];
    let cases = 0;
    for (const r of rs) {
      for (const s of [1n, N - 1n, N, 0n, N >> 1n, (N >> 1n) + 1n]) {
        for (const recid of [0, 1, 2, 3]) {
          const compact = Buffer.concat([be32(r), be32(s)]);
          expect(ours(hash, compact, recid), `r=${r} s=${s} id=${recid}`).toBe(nobleRecover(hash, compact, recid));
          cases++;
        }
      }
    }
    for (let i = 0; i < 200; i++) {
      const compact = randomBytes(64);
      const recid = i % 4;
      expect(ours(hash, compact, recid)).toBe(nobleRecover(hash, compact, recid));
    }
    expect(cases).toBe(rs.length * 6 * 4);
  });
});

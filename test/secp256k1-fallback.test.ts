// Where the native addon cannot load, recovery falls back to @noble/curves with the same answers:
// EMULATOR_SECP256K1=noble forces that path (this file runs in its own process).
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

process.env.EMULATOR_SECP256K1 = 'noble';
const { recoverAddress, signHash, addressOfPrivateKey } = await import('../src/vms/avm/verify/index.js');

describe('secp256k1 recovery without the native addon', () => {
  it("recovers with @noble/curves and keeps avalanchego's failure texts", () => {
    const key = new Uint8Array(32).fill(7);
    const hash = new Uint8Array(32).fill(9);
    const sig = signHash(hash, key);
    expect(Buffer.from(recoverAddress(hash, sig))).toEqual(Buffer.from(addressOfPrivateKey(key)));
    const zeroR = new Uint8Array(sig);
    zeroR.fill(0, 0, 32);
    expect(() => recoverAddress(hash, zeroR)).toThrow('invalid signature');
    expect(() => recoverAddress(hash, sig.subarray(0, 64))).toThrow('invalid signature length');
    // The addon was never loaded: @noble/curves did every recovery.
    const addon = createRequire(import.meta.url).resolve('secp256k1/bindings');
    expect(Object.keys(createRequire(import.meta.url).cache)).not.toContain(addon);
  });
});

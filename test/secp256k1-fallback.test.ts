// Where the native addon cannot load, recovery falls back to @noble/curves with the same answers:
// EMULATOR_SECP256K1=noble forces that path (this file runs in its own process).
import { describe, expect, it } from 'vitest';

process.env.EMULATOR_SECP256K1 = 'noble';
const { recoveryBackend } = await import('../src/crypto/secp256k1.js');
const { recoverAddress, signHash, addressOfPrivateKey } = await import('../src/vms/avm/verify/index.js');

describe('secp256k1 recovery without the native addon', () => {
  it("recovers with @noble/curves and keeps avalanchego's failure texts", () => {
    expect(recoveryBackend()).toBe('@noble/curves');
    const key = new Uint8Array(32).fill(7);
    const hash = new Uint8Array(32).fill(9);
    const sig = signHash(hash, key);
    expect(Buffer.from(recoverAddress(hash, sig))).toEqual(Buffer.from(addressOfPrivateKey(key)));
    const zeroR = new Uint8Array(sig);
    zeroR.fill(0, 0, 32);
    expect(() => recoverAddress(hash, zeroR)).toThrow('invalid signature');
    expect(() => recoverAddress(hash, sig.subarray(0, 64))).toThrow('invalid signature length');
  });
});

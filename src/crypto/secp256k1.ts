// Public-key recovery, the step that bounds how fast signed txs are admitted, and signing (each
// eth_sendTransaction, the node's own txs): libsecp256k1 through the `secp256k1` package's prebuilt
// native addon (about 26 times @noble/curves here for a recovery, 15 for a signature), and
// @noble/curves where the addon cannot load (another platform, a missing prebuild). Both are
// loaded on first use, so neither costs the node's start-up.
import { createRequire } from 'node:module';

type Curve = typeof import('@noble/curves/secp256k1.js')['secp256k1'];
interface Native {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed?: boolean): Uint8Array;
  ecdsaSign(msg32: Uint8Array, seckey: Uint8Array): { signature: Uint8Array; recid: number };
}

const require = createRequire(import.meta.url);
let curve: Curve | undefined;
let native: Native | null | undefined;

/** @noble/curves' secp256k1 (signing, key derivation, and recovery without the addon). */
export const noble = (): Curve => (curve ??= (require('@noble/curves/secp256k1.js') as { secp256k1: Curve }).secp256k1);

function loadNative(): Native | null {
  if (native !== undefined) return native;
  native = null;
  if (process.env.EMULATOR_SECP256K1 === 'noble') return native;
  try {
    // The addon alone (not the package's index, which would fall back to the elliptic package).
    native = require('secp256k1/bindings') as Native;
  } catch {
    // No prebuild for this platform: @noble/curves recovers instead.
  }
  return native;
}

/**
 * The compressed public key that signed `hash` with the 64-byte compact signature r ‖ s and
 * recovery id 0..3, or undefined if none did. r and s must lie in [1, N-1], and for ids 2 and 3
 * r + N must be a field element, in both implementations (as decred's recovery requires).
 */
export function recoverPublicKey(hash: Uint8Array, compact: Uint8Array, recid: number, compressed = true): Uint8Array | undefined {
  const lib = loadNative();
  try {
    if (lib) return lib.ecdsaRecover(compact, recid, hash, compressed);
    return noble().Signature.fromBytes(compact, 'compact').addRecoveryBit(recid).recoverPublicKey(hash).toBytes(compressed);
  } catch {
    return undefined;
  }
}

/**
 * The recoverable signature of `hash` by `privateKey`: r ‖ s (64 bytes, S low) and the recovery
 * id 0 or 1. The nonce is RFC 6979's with no added entropy in both implementations, so for a hash
 * below the group order (every keccak or SHA-256 digest but with odds of 2^-128) the bytes are the
 * same whichever signs, and the same as geth's, Anvil's and avalanchego's signers make
 * (libsecp256k1's secp256k1_ecdsa_sign_recoverable, alloy's k256, decred): a tx the node signs has
 * the same hash on every run. Above it libsecp256k1 seeds the nonce with the hash as it is and
 * @noble/curves with its remainder. Throws for a key that is zero or not below the group order.
 */
export function signRecoverable(hash: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number } {
  const lib = loadNative();
  if (lib) return lib.ecdsaSign(hash, privateKey);
  const recovered = noble().sign(hash, privateKey, { prehash: false, lowS: true, extraEntropy: false, format: 'recovered' });
  return { signature: recovered.subarray(1), recid: recovered[0]! };
}

// secp256k1 as avalanchego's utils/crypto/secp256k1 uses it: 65-byte [r ‖ s ‖ v] recoverable
// signatures over a 32-byte hash, low-S only, addresses = ripemd160(sha256(compressed pubkey)).
// The failure texts and their order are API: they reach issueTx callers unchanged.
import { sha256 } from '../../../crypto/sha256.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { noble, recoverPublicKey, signRecoverable } from '../../../crypto/secp256k1.js';
import { fail } from '../verify/errors.js';

/** The group order: a constant of the curve, so it needs no module load. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N >> 1n;
const SIG_LEN = 65;

function toBigInt(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

/** hashing.PubkeyBytesToAddress. */
export function addressOfPublicKey(compressed: Uint8Array): Uint8Array {
  return ripemd160(sha256(compressed));
}

export function addressOfPrivateKey(privateKey: Uint8Array): Uint8Array {
  return addressOfPublicKey(noble().getPublicKey(privateKey, true));
}

/**
 * RecoverPublicKeyFromHash: the key (compressed, or the 65-byte uncompressed form) that made `sig`
 * over `hash`. Check order matters because each failure has its own text: length, then high S
 * (decred reduces S mod N before the half-order test, so an S ≥ N that reduces low is "invalid"
 * later, not "mutated"), then recovery (decred's compact recovery code is v + 27 as a byte; 27..34
 * are the only valid codes, and 4..7 mean "compressed", which avalanchego rejects after a
 * successful recovery).
 */
export function recoverPublicKeyFromHash(hash: Uint8Array, sig: Uint8Array, compressed = true): Uint8Array {
  if (sig.length !== SIG_LEN) fail('invalid signature length');
  const s = toBigInt(sig.subarray(32, 64));
  if (s % N > HALF_N) fail('signature was mutated from its original format');
  const code = (sig[64]! + 27) & 0xff; // Go byte arithmetic wraps
  if (code < 27 || code > 34) fail('invalid signature');
  const v = code - 27;
  // Recovery rejects r, s outside [1, N-1] as decred does; recovery ids 2 and 3 use x = r + N,
  // which must still be a field element, again as decred does.
  const pubkey = recoverPublicKey(hash, sig.subarray(0, 64), v & 3, compressed) ?? fail('invalid signature');
  if (v & 4) fail("wasn't expecting a compressed key");
  return pubkey;
}

/** RecoverPublicKeyFromHash, then the address. */
export function recoverAddress(hash: Uint8Array, sig: Uint8Array): Uint8Array {
  return addressOfPublicKey(recoverPublicKeyFromHash(hash, sig));
}

/**
 * PrivateKey.SignHash: RFC 6979 nonce, low S, recovery id in the last byte. Both signers normalise S
 * and flip the recovery bit exactly as decred's SignCompact does, so the bytes match the node's.
 */
export function signHash(hash: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const { signature, recid } = signRecoverable(hash, privateKey);
  const out = new Uint8Array(SIG_LEN);
  out.set(signature, 0);
  out[64] = recid;
  return out;
}

/** The hash every credential of a tx signs: sha256 of its unsigned bytes. */
export function txHash(unsignedBytes: Uint8Array): Uint8Array {
  return sha256(unsignedBytes);
}

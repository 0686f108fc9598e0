// Public-key recovery as avalanchego's utils/crypto/secp256k1 does it for atomic txs: 65-byte
// [r ‖ s ‖ v] signatures over sha256 of the unsigned bytes, low S only, each failure with its own
// text, in its order. The key then names an X/P-style address (ripemd160(sha256(compressed))) for
// an imported UTXO's owners, or an Ethereum address (keccak of the uncompressed key) for an export's
// EVMInput. (The X-Chain has the same rules in its own verify/secp.ts: VMs do not import each other.)
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { recoverPublicKey } from '../../../crypto/secp256k1.js';
import { atomicErrors, fail } from './errors.js';

/** The group order. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N >> 1n;

const toBigInt = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);

export interface RecoveredKey {
  /** ripemd160(sha256(compressed key)): the owner an X/P output names. */
  address: Uint8Array;
  /** keccak256(uncompressed key)[12:]: the EVM account. */
  ethAddress: Uint8Array;
}

/** RecoverPublicKeyFromHash: length, then high S, then the recovery code, then recovery itself. */
export function recoverKey(hash: Uint8Array, sig: Uint8Array): RecoveredKey {
  if (sig.length !== 65) fail(atomicErrors.signatureLength());
  if (toBigInt(sig.subarray(32, 64)) % N > HALF_N) fail(atomicErrors.mutatedSignature());
  // decred's compact code is v + 27 as a byte (Go wraps); 27..34 are valid, 31..34 mean compressed.
  const code = (sig[64]! + 27) & 0xff;
  if (code < 27 || code > 34) fail(atomicErrors.invalidSignature());
  const v = code - 27;
  const uncompressed = recoverPublicKey(hash, sig.subarray(0, 64), v & 3, false) ?? fail(atomicErrors.invalidSignature());
  if (v & 4) fail(atomicErrors.compressedKey());
  const compressed = new Uint8Array(33);
  compressed[0] = (uncompressed[64]! & 1) === 1 ? 3 : 2;
  compressed.set(uncompressed.subarray(1, 33), 1);
  return { address: ripemd160(sha256(compressed)), ethAddress: keccak_256(uncompressed.subarray(1)).subarray(12) };
}

/** The hash every credential of a tx signs. */
export const signedHash = (unsignedBytes: Uint8Array): Uint8Array => sha256(unsignedBytes);

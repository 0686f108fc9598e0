// The sender of a signed tx, recovered at admission. @ethereumjs's getSenderPublicKey rebuilds the
// signed message from the decoded fields (each bigint back to bytes, the list encoded again) and
// hashes it with @noble/hashes: for a typed tx that is about as much as decoding the tx. The message
// is in the bytes as sent already: a typed tx is type ‖ rlp([fields…, yParity, r, s]) and signs
// type ‖ rlp([fields…]), whose items are the same bytes (a strictly decoded list holds canonical
// items only). So the hash covers the type, a new list header and the payload up to yParity.
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address, bigIntToBytes, setLengthLeft } from '@ethereumjs/util';
import { keccak256, keccak256Parts } from '../../crypto/keccak.js';
import { recoverPublicKey } from '../../crypto/secp256k1.js';
import { MapLru } from './accountcache.js';

/** The length of an RLP item holding the unsigned integer `x` (0 is the empty string, 0x80). */
const itemLength = (x: bigint): number => (x < 0x80n ? 1 : 1 + Math.ceil(x.toString(16).length / 2));

/** The RLP header of a list whose payload is `length` bytes. */
function listHeader(length: number): Uint8Array {
  if (length <= 55) return Uint8Array.of(0xc0 + length);
  const n = bigIntToBytes(BigInt(length));
  return Uint8Array.of(0xf7 + n.length, ...n);
}

/**
 * The hash the sender of a typed tx (EIP-2930, EIP-1559) signed, taken from `bytes`, the tx's strict
 * encoding (type ‖ rlp list), with its signature values v (the y parity), r and s.
 */
export function typedSigningHash(bytes: Uint8Array, v: bigint, r: bigint, s: bigint): Uint8Array {
  const first = bytes[1]!;
  const lengthOfLength = first > 0xf7 ? first - 0xf7 : 0;
  let payload = first - 0xc0;
  if (lengthOfLength > 0) {
    payload = 0;
    for (let i = 0; i < lengthOfLength; i++) payload = payload * 256 + bytes[2 + i]!;
  }
  const start = 2 + lengthOfLength;
  const unsigned = payload - itemLength(v) - itemLength(r) - itemLength(s);
  return keccak256Parts(bytes.subarray(0, 1), listHeader(unsigned), bytes.subarray(start, start + unsigned));
}

/**
 * The address that signed `tx`, decoded from `bytes`; throws if the signature recovers no key. Legacy
 * txs sign a list that is not in their bytes (EIP-155 puts the chain ID where v is): @ethereumjs
 * builds theirs.
 */
export function recoverSender(tx: TypedTransaction, bytes: Uint8Array): Address {
  const { v, r, s } = tx;
  if (tx.type === 0 || v === undefined || r === undefined || s === undefined) return new Address(keccak256(tx.getSenderPublicKey()).subarray(12));
  if (v > 1n) throw new Error('Invalid signature v value');
  const compact = new Uint8Array(64);
  compact.set(setLengthLeft(bigIntToBytes(r), 32), 0);
  compact.set(setLengthLeft(bigIntToBytes(s), 32), 32);
  const key = recoverPublicKey(typedSigningHash(bytes, v, r, s), compact, Number(v), false);
  if (!key) throw new Error('Invalid signature');
  return new Address(keccak256(key.subarray(1)).subarray(12));
}

/** Senders kept by RecoveredSenders: 20 bytes and a 66-character key each, about 1 MiB at most. */
const KEPT_SENDERS = 4_096;

/**
 * The senders of the latest txs recovered, by tx hash (the hash of the signed bytes, which fix the
 * sender). A contract test suite that reverts to its fixture before each test sends the same
 * signed txs again (the nonce is the fixture's and signatures are deterministic, RFC 6979), and a
 * recovery is the dearest of admission's checks (some 75 µs of libsecp256k1 here).
 */
export class RecoveredSenders {
  // Most recently sent last (a hit moves it): a fixture's txs, sent in every test, stay while one-off txs go.
  private readonly senders = new MapLru<Address>(KEPT_SENDERS);

  /** The sender of the tx whose hash is `hashHex`, recovered from `bytes` unless kept. */
  of(hashHex: string, tx: TypedTransaction, bytes: Uint8Array): Address {
    const kept = this.senders.get(hashHex);
    if (kept) return kept;
    const sender = recoverSender(tx, bytes);
    this.senders.set(hashHex, sender);
    return sender;
  }
}

// A tx as the chain takes it in: decoded from its bytes (with geth's pool errors), given its sender,
// and as a block body holds it.
import type { Common } from '@ethereumjs/common';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { BodyTx } from './header.js';
import { gethTxDecodeError } from './gethrlp.js';
import { PoolError, poolErrors } from './pooltx.js';

/**
 * Makes `tx` run as sent by `from`, whatever its signature says: an impersonated account's tx (whose
 * signature is Anvil's placeholder, r = s = 1) or a replayed tx whose sender a record already holds.
 */
export function withSender<T extends TypedTransaction>(tx: T, from: Address): T {
  // Configurable: a cached decoded tx (queries.ts) is given its recorded sender again on every replay.
  Object.defineProperty(tx, 'getSenderAddress', { value: () => from, configurable: true });
  return tx;
}

/**
 * Whether `tx` carries the placeholder signature of an impersonated account's tx (r = s = 1, as
 * Anvil's): no key signs one, and its sender may hold code (see skippingSenderCheck).
 */
export const impersonatedSignature = (tx: TypedTransaction): boolean => tx.r === 1n && tx.s === 1n;

const hashes = new WeakMap<TypedTransaction, Uint8Array>();

/**
 * A tx's hash, computed once per tx object. ethereumjs keeps the hash only of frozen txs, and the
 * chain's txs are not frozen (a tx with warp predicates gets its intrinsic gas set on it), so each
 * hash() re-encoded and re-hashed the tx: a third of eth_getBlockByNumber's CPU. Nothing the hash
 * covers changes once a tx is decoded.
 */
export function txHash(tx: TypedTransaction): Uint8Array {
  let hash = hashes.get(tx);
  if (hash === undefined) {
    hash = tx.hash();
    hashes.set(tx, hash);
  }
  return hash;
}

/** ethereumjs's refusals of a signature, which geth's pool answers with `invalid sender`. */
const SIGNATURE_REFUSALS = /^(Invalid Signature|The y-parity|Legacy txs need|Incompatible EIP155|Common chain ID|[rsv] cannot (equal or )?exceed)/;

/**
 * A raw tx as geth's pool takes it in: bytes geth cannot decode are refused with its rlp error (as
 * eth_sendRawTransaction answers it), and a blob tx or an unknown type as not supported.
 */
export function decodeTx(bytes: Uint8Array, common: Common): TypedTransaction {
  const refusal = gethTxDecodeError(bytes);
  if (refusal !== undefined) throw new PoolError(refusal);
  // A blob tx geth decodes: coreth's pools take none (any other type geth refused above).
  if (bytes[0] === 3) throw new PoolError(poolErrors.typeNotSupported());
  try {
    // Not frozen: a tx with warp predicates gets its intrinsic gas (warp/receive.ts withPredicateGas).
    // Initcode of any size: the pool refuses it with geth's text (admission.ts), not the decoder.
    return createTxFromRLP(bytes, { common, freeze: false, allowUnlimitedInitCodeSize: true });
  } catch (err) {
    const message = (err as Error).message;
    if (/maxFeePerGas cannot be less than maxPriorityFeePerGas/.test(message)) throw new PoolError(poolErrors.tipAboveFeeCap());
    // geth decodes what ethereumjs refuses here. A signature it cannot recover (a v or y-parity out
    // of range, an s above n/2 or over 256 bits, another chain's v) its pool refuses as below.
    if (SIGNATURE_REFUSALS.test(message)) throw new PoolError(poolErrors.invalidSender());
    // A fee, value or nonce past what a tx can carry: geth's pool has its own words for some of
    // these; the decoder's are given (docs/c-chain.md).
    throw new PoolError(message.replace(/ \(tx type.*$/s, ''));
  }
}

/** A pool tx as a block body holds it: a legacy tx as its list, a typed tx as its bytes. */
export const bodyTx = (p: { tx: TypedTransaction; bytes: Uint8Array }): BodyTx => (p.tx.type === 0 ? (p.tx.raw() as Uint8Array[]) : p.bytes);

// A warp message's BitSetSignature (avalanchego vms/platformvm/warp/signature.go), as the P-Chain
// and the EVM chains check and build it: the signers' bitset over the canonical validator set
// (set.Bits as big-endian bytes of minimal length), the quorum (quorumNum/100 of the set's total
// weight) and the aggregate BLS signature; and the aggregation a signature aggregator does with the
// keys this process holds.
import { CodecError } from '../../../encoding/packer.js';
import { aggregateSignatures, parseSignature, sign, verifyAggregate } from './bls.js';
import { signedMessage } from './message.js';
import type { CanonicalSet, CanonicalValidator } from './validators.js';

/** warp.WarpQuorumDenominator. */
const QUORUM_DENOMINATOR = 100n;

/** set.Bits.Bytes of validator indexes. */
export function bitset(indexes: number[]): Uint8Array {
  let n = 0n;
  for (const i of indexes) n |= 1n << BigInt(i);
  if (n === 0n) return new Uint8Array();
  const hex = n.toString(16);
  return new Uint8Array(Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex'));
}

/** set.BitsFromBytes, refusing a bitset with zero padding in front (ErrInvalidBitSet). */
function signerBits(signers: Uint8Array): bigint {
  if (signers.length > 0 && signers[0] === 0) throw new CodecError('bitset is invalid');
  return signers.length === 0 ? 0n : BigInt(`0x${Buffer.from(signers).toString('hex')}`);
}

/** BitSetSignature.NumSigners: the number of signers, or the bitset's error. */
export function numSigners(signers: Uint8Array): number {
  let n = 0;
  for (let bits = signerBits(signers); bits > 0n; bits >>= 1n) if (bits & 1n) n++;
  return n;
}

/** VerifyWeight's error, or undefined when `weight` is at least quorumNum/100 of `total`. */
export function insufficientWeight(weight: bigint, total: bigint, quorumNum: bigint): string | undefined {
  if (total * quorumNum > weight * QUORUM_DENOMINATOR) return `signature weight is insufficient: ${quorumNum}*${total} > ${QUORUM_DENOMINATOR}*${weight}`;
  return undefined;
}

/**
 * BitSetSignature.Verify, after the network check: why the signature fails against `set` (in
 * avalanchego's order: bitset, unknown signers, weight, signature bytes, keys, the BLS check), or
 * undefined when it holds.
 */
export function verifySignature<V>(
  m: { unsigned: Uint8Array; signers: Uint8Array; signature: Uint8Array },
  set: CanonicalSet<V>,
  quorumNum: bigint,
): string | undefined {
  let bits: bigint;
  try {
    bits = signerBits(m.signers);
  } catch (err) {
    return (err as Error).message;
  }
  const bitLen = bits === 0n ? 0 : bits.toString(2).length;
  if (bitLen > set.validators.length) return `unknown validator: NumIndices (${bitLen - 1}) >= NumFilteredValidators (${set.validators.length})`;
  const signing = set.validators.filter((_, i) => (bits >> BigInt(i)) & 1n);
  const weight = signing.reduce((sum, v) => sum + v.weight, 0n);
  const short = insufficientWeight(weight, set.totalWeight, quorumNum);
  if (short) return short;
  try {
    parseSignature(m.signature);
  } catch (err) {
    return `failed to parse signature: ${(err as Error).message}`;
  }
  if (signing.length === 0) return 'no public keys';
  return verifyAggregate(
    m.unsigned,
    m.signature,
    signing.map((v) => v.publicKey),
  )
    ? undefined
    : 'signature is invalid';
}

/** Why an aggregation failed: no keyed validators, or too little weight signed (with VerifyWeight's text). */
export class AggregationError extends Error {
  constructor(
    readonly reason: 'no validators' | 'insufficient weight',
    readonly weight: bigint,
    readonly totalWeight: bigint,
    message: string,
  ) {
    super(message);
  }
}

/**
 * acp118's SignatureAggregator over `set`, as the warp API runs it: validators whose secret key
 * `secretKeyOf` gives sign `unsigned` one after the other (in the set's order, where the real
 * aggregator takes replies as they come) until their weight reaches total × quorumNum / 100, or
 * all have signed; short of it is no error. With no signer it answers no bytes at all: the
 * message it was handed, which was never serialized (its Bytes() are nil, printed "0x").
 */
export function aggregateAvailable<V>(
  unsigned: Uint8Array,
  set: CanonicalSet<V>,
  secretKeyOf: (v: CanonicalValidator<V>) => Uint8Array | undefined,
  quorumNum: bigint,
): Uint8Array {
  const threshold = (set.totalWeight * quorumNum) / QUORUM_DENOMINATOR;
  const signing: Signer[] = [];
  let weight = 0n;
  for (const [i, v] of set.validators.entries()) {
    const secretKey = secretKeyOf(v);
    if (!secretKey) continue;
    signing.push({ i, secretKey });
    weight += v.weight;
    if (weight >= threshold) break;
  }
  return signing.length === 0 ? new Uint8Array() : signedBy(unsigned, signing);
}

/** A set's entry at index `i` of the canonical order, with the key it signs with. */
interface Signer {
  i: number;
  secretKey: Uint8Array;
}

/** `unsigned` with the BitSetSignature of `signing`: their indexes and their aggregated signatures. */
function signedBy(unsigned: Uint8Array, signing: Signer[]): Uint8Array {
  return signedMessage(unsigned, bitset(signing.map((s) => s.i)), aggregateSignatures(signing.map((s) => sign(unsigned, s.secretKey))));
}

/**
 * A signature aggregator over `set`: each entry whose secret key `secretKeyOf` gives signs
 * `unsigned`; the signed message (its BitSetSignature over the set) when they hold quorumNum/100 of
 * its total weight, else an AggregationError.
 */
export function aggregate<V>(
  unsigned: Uint8Array,
  set: CanonicalSet<V>,
  secretKeyOf: (v: CanonicalValidator<V>) => Uint8Array | undefined,
  quorumNum: bigint,
): Uint8Array {
  if (set.validators.length === 0) throw new AggregationError('no validators', 0n, set.totalWeight, 'no validators');
  const signing = set.validators.flatMap((v, i) => {
    const secretKey = secretKeyOf(v);
    return secretKey ? [{ i, weight: v.weight, secretKey }] : [];
  });
  const weight = signing.reduce((sum, s) => sum + s.weight, 0n);
  if (signing.length === 0 || insufficientWeight(weight, set.totalWeight, quorumNum)) {
    const text = `signature weight is insufficient: ${quorumNum}*${set.totalWeight} > ${QUORUM_DENOMINATOR}*${weight}`;
    throw new AggregationError('insufficient weight', weight, set.totalWeight, text);
  }
  return signedBy(unsigned, signing);
}

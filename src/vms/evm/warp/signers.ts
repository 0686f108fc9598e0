// The BLS keys that sign warp messages (avalanchego utils/crypto/bls, snow/validators/warp.go): the
// local network's five stakers, whose signer keys avalanchego publishes (staking/local/signer<N>.key,
// the ASCII of "AvalancheLocalNetworkValidator0<N>"), sign the primary network's messages; the node
// (staker 1) signs its L1s'. Signatures are min-pk BLS12-381 over the unsigned message bytes, with
// the proof-of-possession scheme's DST. A validator set is ordered by uncompressed public key, and
// a quorum needs signers holding quorum/100 of its weight.
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { bitset, signedMessage } from './message.js';

const SIG_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const bls = bls12_381.longSignatures;

export interface WarpValidator {
  nodeID: string;
  weight: bigint;
  secretKey: Uint8Array;
  /** An offline validator keeps its weight but signs nothing (for quorum tests). */
  offline?: boolean;
  /** The key of a validator whose secret this process does not hold (it is then offline). */
  publicKey?: Uint8Array;
}

/** avalanchego's local stakers 1-5 with their published signer keys; equal stake each. */
export const LOCAL_STAKERS: WarpValidator[] = [
  'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg',
  'NodeID-MFrZFVCXPv5iCn6M9K6XduxGTYp891xXZ',
  'NodeID-NFBbbJ4qCmNaCzeW7sxErhvWqvEQMnYcN',
  'NodeID-GWPcbFJZFfZreETSoWjPimr846mXEKCtu',
  'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5',
].map((nodeID, i) => ({ nodeID, weight: 2_000_000_000_000n, secretKey: new Uint8Array(Buffer.from(`AvalancheLocalNetworkValidator0${i + 1}`)) }));

export const publicKey = (v: WarpValidator): Uint8Array => v.publicKey ?? bls.getPublicKey(v.secretKey).toBytes(true);

export function signWarp(unsigned: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return bls.sign(bls.hash(unsigned, SIG_DST), secretKey).toBytes(true);
}

export function verifyWarpSignature(unsigned: Uint8Array, signature: Uint8Array, publicKeys: Uint8Array[]): boolean {
  const key = bls.aggregatePublicKeys(publicKeys.map((k) => bls12_381.G1.Point.fromBytes(k)));
  return bls.verify(bls12_381.G2.Point.fromBytes(signature), bls.hash(unsigned, SIG_DST), key);
}

/** FlattenValidatorSet's order: by uncompressed public key. */
export function canonicalOrder(validators: WarpValidator[]): WarpValidator[] {
  const uncompressed = (v: WarpValidator) =>
    Buffer.from(v.publicKey ? bls12_381.G1.Point.fromBytes(v.publicKey).toBytes(false) : bls.getPublicKey(v.secretKey).toBytes(false));
  return [...validators].sort((a, b) => Buffer.compare(uncompressed(a), uncompressed(b)));
}

export class QuorumError extends Error {}

/**
 * Every online validator of the set signs (they all run in this process); the aggregate must carry
 * quorum/100 of the set's whole weight.
 */
export function aggregate(unsigned: Uint8Array, validators: WarpValidator[], quorumNum: bigint): Uint8Array {
  if (validators.length === 0) throw new QuorumError('cannot aggregate signatures from subnet with no validators');
  const ordered = canonicalOrder(validators);
  const total = ordered.reduce((sum, v) => sum + v.weight, 0n);
  const signing = ordered.map((v, i) => [v, i] as const).filter(([v]) => !v.offline);
  const weight = signing.reduce((sum, [v]) => sum + v.weight, 0n);
  if (signing.length === 0 || weight * 100n < total * quorumNum) {
    throw new QuorumError(`failed to aggregate signatures: signature weight is insufficient: ${quorumNum}*${total} > 100*${weight}`);
  }
  const signatures = signing.map(([v]) => bls12_381.G2.Point.fromBytes(signWarp(unsigned, v.secretKey)));
  const signature = bls.aggregateSignatures(signatures).toBytes(true);
  return signedMessage(unsigned, bitset(signing.map(([, i]) => i)), signature);
}

// Who signs an EVM chain's warp messages and whom it checks received ones against: a subnet's
// validators as the chain sees them (the P-Chain's set when it knows the subnet, else the local
// stakers for the primary network and the chain configs' validators for an L1), each with the BLS
// key this process holds for it, if any. The canonical set, the signatures and the quorum are
// src/vms/components/warp's, shared with the P-Chain.
import { publicKeyOf } from '../../components/warp/bls.js';
import { AggregationError, aggregateAvailable, aggregate as aggregateSet } from '../../components/warp/signature.js';
import { LOCAL_SIGNERS } from '../../components/warp/signers.js';
import { type CanonicalSet, type CanonicalValidator, canonicalSet } from '../../components/warp/validators.js';

export interface WarpValidator {
  nodeID: string;
  weight: bigint;
  /** The validator's BLS secret key, when this process holds it. */
  secretKey?: Uint8Array;
  /** Its key when this process does not hold the secret; neither key: weight that signs nothing (an inactive L1 validator's). */
  publicKey?: Uint8Array;
  /** An offline validator keeps its weight but signs nothing (for quorum tests). */
  offline?: boolean;
}

/** A validator whose secret key this process holds. */
export type HeldValidator = WarpValidator & { secretKey: Uint8Array };

/** avalanchego's local stakers 1-5 with their published signer keys; equal stake each. */
export const LOCAL_STAKERS: HeldValidator[] = LOCAL_SIGNERS.map((s) => ({ ...s, weight: 2_000_000_000_000n }));

export const publicKey = (v: WarpValidator): Uint8Array | undefined => v.publicKey ?? (v.secretKey ? publicKeyOf(v.secretKey) : undefined);

/** GetCanonicalValidatorSet of a subnet's validators. */
export const warpSet = (validators: WarpValidator[]): CanonicalSet<WarpValidator> => canonicalSet(validators, publicKey);

export class QuorumError extends Error {}

/** The key a canonical entry signs with: one of its members' whose secret this process holds, if online. */
const onlineKey = (v: CanonicalValidator<WarpValidator>): Uint8Array | undefined => v.members.find((m) => m.secretKey && !m.offline)?.secretKey;

/**
 * The warp API's aggregate (acp118's aggregator): online validators of the set whose key this
 * process holds sign until the quorum is met, short of it being no error, unless none will
 * (`willSign`: a validator signs a block's hash only for a block it accepted); empty bytes when
 * none signed, undefined for a set with no validator left.
 */
export function aggregateAny(unsigned: Uint8Array, validators: WarpValidator[], quorumNum: bigint, willSign = true): Uint8Array | undefined {
  const set = warpSet(validators);
  if (set.validators.length === 0) return undefined;
  return aggregateAvailable(unsigned, set, willSign ? onlineKey : () => undefined, quorumNum);
}

/**
 * Every online validator of the set whose key this process holds signs (they all run in this
 * process); the aggregate must carry quorum/100 of the set's whole weight.
 */
export function aggregate(unsigned: Uint8Array, validators: WarpValidator[], quorumNum: bigint): Uint8Array {
  try {
    return aggregateSet(unsigned, warpSet(validators), onlineKey, quorumNum);
  } catch (err) {
    if (!(err instanceof AggregationError)) throw err;
    if (err.reason === 'no validators') throw new QuorumError('cannot aggregate signatures from subnet with no validators');
    throw new QuorumError(`failed to aggregate signatures: ${err.message}`);
  }
}

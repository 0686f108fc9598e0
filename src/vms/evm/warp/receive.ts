// Receiving warp messages (subnet-evm core/predicate_check.go, state_transition.go accessListGas,
// precompile/contracts/warp/config.go PredicateGas and VerifyPredicate): the warp predicates of a
// tx's access list, their intrinsic gas (instead of the access list's), their verification before
// the tx runs, and what getVerifiedWarpMessage(n) reads while it runs.
import type { EVMInterface } from '@ethereumjs/evm';
import type { TypedTransaction } from '@ethereumjs/tx';
import { encodeCB58 } from '../../../encoding/cb58.js';
import { CodecError } from '../../../encoding/packer.js';
import { parsePayload, parseSignedMessage, parseUnsignedMessage, type SignedMessage } from '../../components/warp/message.js';
import { bitset, numSigners, verifySignature } from '../../components/warp/signature.js';
import { WARP_ADDRESS_HEX } from './precompile.js';
import { predicateBytes, warpPredicates } from './predicate.js';
import { aggregate, type WarpValidator, warpSet } from './signers.js';

const PRIMARY_NETWORK = new Uint8Array(32);
/** The P-Chain's ID: all zeros, like the primary network's. */
const P_CHAIN = new Uint8Array(32);

/** Granite's predicate gas: a base, per 32-byte chunk, per signer. */
const VERIFY_BASE_GAS = 125_000n;
const PER_CHUNK_GAS = 512n;
const PER_SIGNER_GAS = 250n;
/** The access list's own gas, which a warp predicate's replaces. */
const ACCESS_ADDRESS_GAS = 2_400n;
const ACCESS_KEY_GAS = 1_900n;

export class PredicateError extends Error {}

export interface WarpReceiveContext {
  networkID: number;
  /** The receiving chain's subnet. */
  subnetID: Uint8Array;
  /** The subnet of a known chain. */
  subnetOf(chainID: Uint8Array): Uint8Array | undefined;
  /** A subnet's validators (CB58 subnet ID). */
  validatorsOf(subnetID: string): WarpValidator[];
  /** The warp config's quorumNumerator (0 = 67). */
  quorumNumerator: number;
  requirePrimaryNetworkSigners: boolean;
}

/** A tx's warp predicates, parsed, with their chunk and signer counts (for gas). */
export interface TxPredicates {
  messages: SignedMessage[];
  chunks: number[];
  signers: number[];
}

/** `run`, its codec error as PredicateGas wraps it. */
function unpacked<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof CodecError) throw new PredicateError(`${what}: ${err.message}`);
    throw err;
  }
}

/** The warp predicates of a tx, or undefined without any; a malformed one is PredicateGas's error. */
export function readPredicates(tx: TypedTransaction): TxPredicates | undefined {
  const list = (tx as { accessList?: Array<[Uint8Array, Uint8Array[]]> }).accessList ?? [];
  const predicates = warpPredicates(list, WARP_ADDRESS_HEX);
  if (predicates.length === 0) return undefined;
  // PredicateGas's order: the predicate's bytes, the message, its payload, its signers.
  const messages: SignedMessage[] = [];
  const signers: number[] = [];
  for (const chunks of predicates) {
    let bytes: Uint8Array;
    try {
      bytes = predicateBytes(chunks);
    } catch (err) {
      throw new PredicateError(`cannot unpack predicate bytes: ${(err as Error).message}`);
    }
    const m = unpacked('cannot unpack warp message', () => parseSignedMessage(bytes));
    unpacked('cannot unpack warp message payload', () => parsePayload(m.payload));
    signers.push(unpacked('cannot fetch num signers from warp message', () => numSigners(m.signers)));
    messages.push(m);
  }
  return { messages, chunks: predicates.map((c) => c.length), signers };
}

/** The intrinsic gas of a tx with warp predicates: its own, with each predicate's gas instead of its access-list gas. */
export function withPredicateGas(tx: TypedTransaction, p: TxPredicates): void {
  const base = tx.getIntrinsicGas.bind(tx);
  let delta = 0n;
  p.chunks.forEach((n, i) => {
    const chunks = BigInt(n);
    delta += VERIFY_BASE_GAS + PER_CHUNK_GAS * chunks + PER_SIGNER_GAS * BigInt(p.signers[i]!) - (ACCESS_ADDRESS_GAS + ACCESS_KEY_GAS * chunks);
  });
  (tx as { getIntrinsicGas: () => bigint }).getIntrinsicGas = () => base() + delta;
}

/** The indexes of the predicates that fail verification (the block's predicate results). */
export function verifyPredicates(p: TxPredicates, ctx: WarpReceiveContext): Set<number> {
  const invalid = new Set<number>();
  p.messages.forEach((m, i) => {
    const subnet = signingSubnet(m.sourceChainID, ctx);
    if (!subnet || m.networkID !== ctx.networkID || verifySignature(m, warpSet(ctx.validatorsOf(encodeCB58(subnet))), quorumOf(ctx)) !== undefined)
      invalid.add(i);
  });
  return invalid;
}

const quorumOf = (ctx: WarpReceiveContext) => BigInt(ctx.quorumNumerator === 0 ? 67 : ctx.quorumNumerator);

/**
 * The subnet whose validators must sign a message from `sourceChainID` for this chain to accept it:
 * the source's, except that a primary-network message (and any P-Chain one) is checked against the
 * receiving subnet's validators unless the warp config requires primary-network signers. Undefined
 * for a chain the node does not know.
 */
function signingSubnet(sourceChainID: Uint8Array, ctx: WarpReceiveContext): Uint8Array | undefined {
  const subnet = ctx.subnetOf(sourceChainID);
  if (!subnet) return undefined;
  const fromPrimary = Buffer.compare(Buffer.from(subnet), Buffer.from(PRIMARY_NETWORK)) === 0;
  const fromP = Buffer.compare(Buffer.from(sourceChainID), Buffer.from(P_CHAIN)) === 0;
  return fromPrimary && (!ctx.requirePrimaryNetworkSigners || fromP) ? ctx.subnetID : subnet;
}

/**
 * `unsigned` signed as a relayer signs it for this chain (icm-relayer's signing subnet): by the
 * validators this chain verifies it against, all of which run in this process. QuorumError when
 * they cannot reach this chain's quorum; undefined for a source chain the node does not know.
 */
export function signForReceiver(unsigned: Uint8Array, ctx: WarpReceiveContext): Uint8Array | undefined {
  const subnet = signingSubnet(parseUnsignedMessage(unsigned).sourceChainID, ctx);
  return subnet && aggregate(unsigned, ctx.validatorsOf(encodeCB58(subnet)), quorumOf(ctx));
}

/** What the running tx's getVerifiedWarpMessage(n) sees. */
export interface RunningPredicates {
  messages: SignedMessage[];
  chunks: number[];
  invalid: Set<number>;
}

const running = new WeakMap<object, RunningPredicates>();

export function setRunningPredicates(evm: EVMInterface, p: RunningPredicates | undefined): void {
  if (p) running.set(evm, p);
  else running.delete(evm);
}

export function runningPredicates(evm: EVMInterface): RunningPredicates | undefined {
  return running.get(evm);
}

/** The invalid predicates as set.Bits.Bytes (the block's predicate results for the tx). */
export const invalidBits = (invalid: Set<number>): Uint8Array => bitset([...invalid]);

// ACP-176 applied to coreth headers (customheader/dynamic_fee_state.go, base_fee.go, gas_limit.go):
// the fee state before a block (the parent's, advanced by the time between them; a block-0 parent
// counts as the zero state), the base fee and gas limit it sets, and the state after the block's gas.
import { advanceMilliseconds, consumeGas, type FeeState, feeStateBytes, gasPrice, maxCapacity, parseFeeState, updateTargetExcess } from './acp176.js';
import type { CorethHeader } from './header.js';
import { EMPTY_PREDICATE_RESULTS } from './warp/predicate.js';

export const headerMillis = (h: CorethHeader): bigint => h.timeMilliseconds ?? h.time * 1000n;
/**
 * The latest time a block can carry, in seconds: coreth's and Subnet-EVM's headers hold it again in
 * milliseconds (timestampMilliseconds, a uint64), so Go clients fail to decode a header past it.
 */
export const MAX_BLOCK_TIME = (2n ** 64n - 1n) / 1000n;

export function feeStateBefore(parent: CorethHeader, timeMs: bigint): FeeState {
  const start = parent.number === 0n ? { capacity: 0n, excess: 0n, targetExcess: 0n } : parseFeeState(parent.extra);
  const elapsed = timeMs > headerMillis(parent) ? timeMs - headerMillis(parent) : 0n;
  return advanceMilliseconds(start, elapsed);
}

export interface BlockFees {
  state: FeeState;
  baseFee: bigint;
  gasLimit: bigint;
}

export function blockFees(parent: CorethHeader, timeMs: bigint): BlockFees {
  const state = feeStateBefore(parent, timeMs);
  return { state, baseFee: gasPrice(state), gasLimit: maxCapacity(state) };
}

/** miner/worker.go: a block is built only once capacity is back to min(gasLimit - gasLimit/5, 15M). */
export function buildFloor(f: BlockFees): bigint {
  const floor = f.gasLimit - f.gasLimit / 5n;
  return floor < 15_000_000n ? floor : 15_000_000n;
}

export const canBuild = (f: BlockFees): boolean => f.state.capacity >= buildFloor(f);

/**
 * The header's extraData: the fee state after the block's gas (its EVM txs', then its atomic txs'
 * extDataGasUsed), then the (empty) predicate results. With the chain config's gas-target, q moves
 * toward its target excess (at most Q per block).
 */
export function extraAfter(
  before: FeeState,
  gasUsed: bigint,
  desiredTargetExcess?: bigint,
  predicateResults: Uint8Array = EMPTY_PREDICATE_RESULTS,
  extDataGasUsed = 0n,
): Uint8Array {
  const consumed = consumeGas(before, gasUsed, extDataGasUsed);
  const after = desiredTargetExcess === undefined ? consumed : updateTargetExcess(consumed, desiredTargetExcess);
  const state = feeStateBytes(after);
  const out = new Uint8Array(state.length + predicateResults.length);
  out.set(state);
  out.set(predicateResults, state.length);
  return out;
}

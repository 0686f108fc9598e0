// ACP-176 dynamic fees, as avalanchego's vms/evm/acp176 computes them for coreth since Fortuna: a
// gas target set by targetExcess (q), a capacity that refills at twice the target up to ten times
// it, and a price that grows exponentially with the excess. All arithmetic is Go's uint64, with the
// same saturation (and the fake exponential of EIP-4844). Notes: docs/research/cchain.md §3.

export const MIN_TARGET_PER_SECOND = 1_000_000n; // P
export const MAX_TARGET_EXCESS_DIFF = 1n << 15n; // Q
export const MAX_TARGET_CHANGE_RATE = 1024n;
export const TARGET_CONVERSION = MAX_TARGET_CHANGE_RATE * MAX_TARGET_EXCESS_DIFF; // D
export const MIN_GAS_PRICE = 1n; // M
export const TIME_TO_FILL_CAPACITY = 5n;
export const TARGET_TO_MAX = 2n;
export const TARGET_TO_PRICE_UPDATE_CONVERSION = 87n;
export const TARGET_TO_MAX_CAPACITY = TARGET_TO_MAX * TIME_TO_FILL_CAPACITY;
/** TargetConversion · ln(MaxUint64 / MinTargetPerSecond) + 1 */
export const MAX_TARGET_EXCESS = 1_024_950_627n;
/** The 24 bytes at the start of a header's extraData. */
export const STATE_SIZE = 24;

import { calculatePrice } from '../components/gas.js';
import { asBuffer } from '../../encoding/bytes.js';

const MAX_U64 = (1n << 64n) - 1n;
const mulSat = (a: bigint, b: bigint) => (a * b > MAX_U64 ? MAX_U64 : a * b);
const addSat = (a: bigint, b: bigint) => (a + b > MAX_U64 ? MAX_U64 : a + b);

export class InsufficientCapacityError extends Error {}

export { calculatePrice };

export interface FeeState {
  capacity: bigint;
  excess: bigint;
  targetExcess: bigint;
}

/** Gas per second the chain targets, T. */
export const target = (s: FeeState): bigint => calculatePrice(MIN_TARGET_PER_SECOND, s.targetExcess, TARGET_CONVERSION);
/** The most gas capacity can hold: the gas limit of a block. */
export const maxCapacity = (s: FeeState): bigint => mulSat(target(s), TARGET_TO_MAX_CAPACITY);
/** The base fee: M · e^(excess / (87 · T)). */
export const gasPrice = (s: FeeState): bigint => calculatePrice(MIN_GAS_PRICE, s.excess, mulSat(target(s), TARGET_TO_PRICE_UPDATE_CONVERSION));

function advance(s: FeeState, max: bigint, capacityRate: bigint, targetRate: bigint, duration: bigint): FeeState {
  const added = capacityRate * duration > MAX_U64 ? MAX_U64 : addSat(s.capacity, capacityRate * duration);
  const removed = targetRate * duration;
  return {
    capacity: added < max ? added : max,
    excess: removed > MAX_U64 || removed > s.excess ? 0n : s.excess - removed,
    targetExcess: s.targetExcess,
  };
}

/** Granite: time passes in milliseconds, at the per-second rates divided by 1000 (rounded down). */
export function advanceMilliseconds(s: FeeState, milliseconds: bigint): FeeState {
  const t = target(s);
  const perMs = t / 1000n;
  return advance(s, mulSat(mulSat(t, TARGET_TO_MAX), TIME_TO_FILL_CAPACITY), perMs * TARGET_TO_MAX, perMs, milliseconds);
}

/** A block uses gas: capacity falls and excess rises by gasUsed (plus the atomic txs' gas). */
export function consumeGas(s: FeeState, gasUsed: bigint, extraGasUsed?: bigint): FeeState {
  const one = (st: FeeState, gas: bigint): FeeState => {
    if (gas > st.capacity) throw new InsufficientCapacityError(`insufficient capacity: capacity (${st.capacity}) < gas (${gas})`);
    return { capacity: st.capacity - gas, excess: addSat(st.excess, gas), targetExcess: st.targetExcess };
  };
  const after = one(s, gasUsed);
  if (extraGasUsed === undefined) return after;
  if (extraGasUsed > MAX_U64) throw new InsufficientCapacityError(`insufficient capacity: extraGasUsed (${extraGasUsed}) exceeds MaxUint64`);
  return one(after, extraGasUsed);
}

/** Moves q toward `desired` by at most Q, rescaling the excess to keep the price and clamping capacity. */
export function updateTargetExcess(s: FeeState, desired: bigint): FeeState {
  const previous = target(s);
  const diff = s.targetExcess > desired ? s.targetExcess - desired : desired - s.targetExcess;
  const change = diff < MAX_TARGET_EXCESS_DIFF ? diff : MAX_TARGET_EXCESS_DIFF;
  const targetExcess = s.targetExcess < desired ? s.targetExcess + change : s.targetExcess - change;
  const next = target({ ...s, targetExcess });
  const scaled = (s.excess * next) / previous;
  const max = mulSat(next, TARGET_TO_MAX_CAPACITY);
  return { capacity: s.capacity < max ? s.capacity : max, excess: scaled > MAX_U64 ? MAX_U64 : scaled, targetExcess };
}

/** The q whose target is the first at or above `desiredTarget` (a binary search, as avalanchego's). */
export function desiredTargetExcess(desiredTarget: bigint): bigint {
  let lo = 0n;
  let hi = MAX_TARGET_EXCESS;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (target({ capacity: 0n, excess: 0n, targetExcess: mid }) >= desiredTarget) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

export function parseFeeState(bytes: Uint8Array): FeeState {
  if (bytes.length < STATE_SIZE) throw new Error(`insufficient length for fee state: expected at least ${STATE_SIZE} bytes but got ${bytes.length} bytes`);
  const b = asBuffer(bytes);
  return { capacity: b.readBigUInt64BE(0), excess: b.readBigUInt64BE(8), targetExcess: b.readBigUInt64BE(16) };
}

export function feeStateBytes(s: FeeState): Uint8Array {
  const b = Buffer.alloc(STATE_SIZE);
  b.writeBigUInt64BE(s.capacity, 0);
  b.writeBigUInt64BE(s.excess, 8);
  b.writeBigUInt64BE(s.targetExcess, 16);
  return new Uint8Array(b);
}

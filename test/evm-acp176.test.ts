// ACP-176 fees held to avalanchego's own table tests (vms/evm/acp176/acp176_test.go): target, max
// capacity and price of each state, time advancing in seconds (Fortuna) and milliseconds (Granite),
// gas consumption, target changes and the fee state's bytes; then what they mean on the local network.
import { describe, expect, it } from 'vitest';
import {
  advanceMilliseconds,
  consumeGas,
  desiredTargetExcess,
  type FeeState,
  feeStateBytes,
  gasPrice,
  InsufficientCapacityError,
  MAX_TARGET_EXCESS,
  MAX_TARGET_EXCESS_DIFF,
  maxCapacity,
  MIN_TARGET_PER_SECOND,
  parseFeeState,
  target,
  updateTargetExcess,
} from '../src/vms/evm/acp176.js';

const MAX = (1n << 64n) - 1n;
const MAX_INT64 = (1n << 63n) - 1n;
const nAVAX = 1_000_000_000n;
const state = (excess: bigint, targetExcess: bigint, capacity = 0n): FeeState => ({ capacity, excess, targetExcess });

// [name, state, target, maxCapacity, gasPrice, skip desiredTargetExcess]
const readers: Array<[string, FeeState, bigint, bigint, bigint, boolean?]> = [
  ['zero', state(0n, 0n), MIN_TARGET_PER_SECOND, 10_000_000n, 1n],
  ['almost_excess_change', state(60_303_808n, 33n), MIN_TARGET_PER_SECOND, 10_000_000n, 2n, true],
  ['small_excess_change', state(60_303_868n, 34n), MIN_TARGET_PER_SECOND + 1n, 10n * (MIN_TARGET_PER_SECOND + 1n), 2n],
  ['max_initial_excess_change', state(95_672_652n, MAX_TARGET_EXCESS_DIFF), MIN_TARGET_PER_SECOND + 977n, 10n * (MIN_TARGET_PER_SECOND + 977n), 3n, true],
  ['current_target', state(2_704_386_192n, 13_605_152n), 1_500_000n, 15_000_000n, nAVAX + 2n],
  ['3m_target', state(6_610_721_802n, 36_863_312n), 3_000_000n, 30_000_000n, 100n * nAVAX + 4n],
  ['6m_target', state(13_221_443_604n, 60_121_472n), 6_000_000n, 60_000_000n, 100n * nAVAX + 4n],
  ['10m_target', state(22_035_739_340n, 77_261_935n), 10_000_000n, 100_000_000n, 100n * nAVAX + 5n],
  ['100m_target', state(220_357_393_400n, 154_523_870n), 100_000_000n, 1_000_000_000n, 100n * nAVAX + 5n],
  ['low_1b_target', state(2_203_573_881_110n, 231_785_804n), 1_000_000_000n - 24n, 10n * (1_000_000_000n - 24n), 100n * nAVAX],
  ['high_1b_target', state(2_203_573_947_217n, 231_785_805n), 1_000_000_000n + 6n, 10n * (1_000_000_000n + 6n), 100n * nAVAX],
  ['largest_max_capacity', state(MAX, 947_688_691n), 1_844_674_384_269_701_322n, 18_446_743_842_697_013_220n, 2n],
  ['largest_int64_target', state(MAX, 1_001_692_466n), 9_223_371_923_824_614_091n, MAX, 2n],
  ['second_largest_uint64_target', state(MAX, 1_024_950_626n), 18_446_743_882_783_898_031n, MAX, 2n],
  ['largest_uint64_target', state(MAX, MAX_TARGET_EXCESS), MAX, MAX, 2n],
  ['largest_excess', state(MAX, MAX), MAX, MAX, 2n, true],
];

describe('ACP-176 (avalanchego acp176_test.go)', () => {
  it.each(readers)('%s: target, max capacity, gas price and the target excess that gives the target', (_, s, t, cap, price, skipDesired) => {
    expect(target(s)).toBe(t);
    expect(maxCapacity(s)).toBe(cap);
    expect(gasPrice(s)).toBe(price);
    if (!skipDesired) expect(desiredTargetExcess(t)).toBe(s.targetExcess);
  });

  const q15 = 13_605_152n; // target 1.5M/s
  it.each<[string, FeeState, bigint, FeeState]>([
    ['0_seconds', state(2_000_000n, q15), 0n, state(2_000_000n, q15)],
    ['1_seconds', state(2_000_000n, q15), 1000n, state(500_000n, q15, 3_000_000n)],
    ['5_seconds', state(15_000_000n, q15), 5000n, state(7_500_000n, q15, 15_000_000n)],
    ['0_seconds_over_capacity', state(2_000_000n, q15, 16_000_000n), 0n, state(2_000_000n, q15, 15_000_000n)],
    ['max_capacity_overflow', state(MAX, 947_688_692n), 1000n, state(MAX - 3_689_348_878_490_564_000n / 2n, 947_688_692n, 3_689_348_878_490_564_000n)],
    ['max_rate_overflow', state(MAX, 1_001_692_467n), 1000n, state(9_223_371_875_007_030_615n, 1_001_692_467n, MAX)],
    ['1_millisecond', state(2_000_000n, q15), 1n, state(1_998_500n, q15, 3_000n)],
    ['target_rounds_down', state(2_000_000n, 13_627_491n), 999n, state(501_500n, 13_627_491n, 2_997_000n)],
  ])('advances in milliseconds: %s', (_, initial, ms, expected) => {
    expect(advanceMilliseconds(initial, ms)).toEqual(expected);
  });

  it.each<[string, bigint, bigint | undefined, FeeState | undefined]>([
    ['no_gas_used', 0n, undefined, state(2_000_000n, 0n, 1_000_000n)],
    ['some_gas_used', 100_000n, undefined, state(2_100_000n, 0n, 900_000n)],
    ['some_extra_gas_used', 0n, 100_000n, state(2_100_000n, 0n, 900_000n)],
    ['both_gas_used', 10_000n, 100_000n, state(2_110_000n, 0n, 890_000n)],
    ['gas_used_capacity_exceeded', 1_000_001n, undefined, undefined],
    ['massive_extra_gas_used', 0n, 1n << 64n, undefined],
    ['extra_gas_used_capacity_exceeded', 0n, 1_000_001n, undefined],
  ])('consumes gas: %s', (_, used, extra, expected) => {
    const initial = state(2_000_000n, 0n, 1_000_000n);
    if (expected) expect(consumeGas(initial, used, extra)).toEqual(expected);
    else expect(() => consumeGas(initial, used, extra)).toThrow(InsufficientCapacityError);
  });

  it.each<[string, FeeState, bigint, FeeState]>([
    ['no_change', state(2_000_000n, 0n), 0n, state(2_000_000n, 0n)],
    ['max_increase', state(2_000_000n, 0n), MAX_TARGET_EXCESS_DIFF + 1n, state(2_001_954n, MAX_TARGET_EXCESS_DIFF)],
    ['inverse_max_increase', state(2_001_954n, MAX_TARGET_EXCESS_DIFF), 0n, state(2_000_000n, 0n)],
    ['max_decrease', state(2_000_000_000n, 2n * MAX_TARGET_EXCESS_DIFF), 0n, state(1_998_047_816n, MAX_TARGET_EXCESS_DIFF)],
    ['inverse_max_decrease', state(1_998_047_816n, MAX_TARGET_EXCESS_DIFF), 2n * MAX_TARGET_EXCESS_DIFF, state(1_999_999_999n, 2n * MAX_TARGET_EXCESS_DIFF)],
    ['reduce_capacity', state(2_000_000_000n, 2n * MAX_TARGET_EXCESS_DIFF, 10_019_550n), 0n, state(1_998_047_816n, MAX_TARGET_EXCESS_DIFF, 10_009_770n)],
    ['overflow_max_capacity', state(2_000_000_000n, MAX_TARGET_EXCESS, MAX), 0n, state(1_998_047_867n, MAX_TARGET_EXCESS - MAX_TARGET_EXCESS_DIFF, MAX)],
    ['overflow_excess', state(MAX, MAX_TARGET_EXCESS - MAX_TARGET_EXCESS_DIFF, MAX), MAX_TARGET_EXCESS, state(MAX, MAX_TARGET_EXCESS, MAX)],
  ])('updates the target excess: %s', (_, initial, desired, expected) => {
    expect(updateTargetExcess(initial, desired)).toEqual(expected);
  });

  it('reads and writes the 24-byte state big-endian, ignoring what follows, refusing less', () => {
    const bytes = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28]);
    const s = parseFeeState(Buffer.concat([bytes, Buffer.from([0, 0, 0, 0, 0, 0])]));
    expect(s).toEqual({ capacity: 0x0102030405060708n, excess: 0x1112131415161718n, targetExcess: 0x2122232425262728n });
    expect(Buffer.from(feeStateBytes(s))).toEqual(Buffer.from(bytes));
    expect(() => parseFeeState(new Uint8Array(23))).toThrow('insufficient length for fee state: expected at least 24 bytes but got 23 bytes');
    expect(target(state(0n, MAX_INT64))).toBe(MAX);
  });
});

describe('on the local network (q = 0)', () => {
  it('a block after a long pause has a 10M gas limit and a 1 wei base fee; a 21,000-gas transfer leaves the state cchain.md §3.4 shows', () => {
    const before = advanceMilliseconds(state(0n, 0n), 1_000_000_000n);
    expect(before).toEqual(state(0n, 0n, 10_000_000n));
    expect(maxCapacity(before)).toBe(10_000_000n);
    expect(gasPrice(before)).toBe(1n);
    const after = consumeGas(before, 21_000n);
    expect(Buffer.from(feeStateBytes(after)).toString('hex')).toBe('0000000000984478' + '0000000000005208' + '0000000000000000');
  });
});

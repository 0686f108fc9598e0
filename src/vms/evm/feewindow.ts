// Subnet-EVM's dynamic fees (commontype/fee_config.go, plugin/evm/customheader/{base_fee,
// dynamic_fee_windower,block_gas_cost}.go): a fee config, and a window of the gas used in each of the
// last 10 seconds carried in the header's extraData, from which each block's base fee follows. The
// C-Chain's ACP-176 is in acp176.ts. All arithmetic is Go's: uint64 window slots saturating, big.Int
// base fees. Notes: ../shared/reference/subnet-evm.md §2.1-2.2.

import { EMPTY_PREDICATE_RESULTS } from './warp/predicate.js';

export interface FeeConfig {
  gasLimit: bigint;
  targetBlockRate: bigint;
  minBaseFee: bigint;
  targetGas: bigint;
  baseFeeChangeDenominator: bigint;
  minBlockGasCost: bigint;
  maxBlockGasCost: bigint;
  blockGasCostStep: bigint;
}

/** The keys of a fee config, in the order Go's struct prints them. */
export const FEE_CONFIG_KEYS = [
  'gasLimit',
  'targetBlockRate',
  'minBaseFee',
  'targetGas',
  'baseFeeChangeDenominator',
  'minBlockGasCost',
  'maxBlockGasCost',
  'blockGasCostStep',
] as const satisfies readonly (keyof FeeConfig)[];

/** params/extras.DefaultFeeConfig: the fee config of a genesis without one. */
export const DEFAULT_FEE_CONFIG: FeeConfig = {
  gasLimit: 8_000_000n,
  targetBlockRate: 2n,
  minBaseFee: 25_000_000_000n,
  targetGas: 15_000_000n,
  baseFeeChangeDenominator: 36n,
  minBlockGasCost: 0n,
  maxBlockGasCost: 1_000_000n,
  blockGasCostStep: 200_000n,
};

/** The window: 10 one-second slots, oldest first, 8 bytes each (big-endian). */
export const WINDOW_LEN = 10;
export const WINDOW_SIZE = WINDOW_LEN * 8;

const MAX_U64 = (1n << 64n) - 1n;
const MAX_U256 = (1n << 256n) - 1n;

export class FeeConfigError extends Error {}

/** FeeConfig.Verify, its checks and texts in its order. */
export function verifyFeeConfig(c: Partial<Record<keyof FeeConfig, bigint | undefined>>): FeeConfig {
  for (const key of FEE_CONFIG_KEYS) {
    if (key !== 'targetBlockRate' && c[key] === undefined) throw new FeeConfigError(`${key} cannot be nil`);
  }
  const f = { ...c, targetBlockRate: c.targetBlockRate ?? 0n } as FeeConfig;
  const atMostZero = (key: keyof FeeConfig) => {
    if (f[key] <= 0n) throw new FeeConfigError(`${key} cannot be less than or equal to 0: ${key} = ${f[key]}`);
  };
  const belowZero = (key: keyof FeeConfig) => {
    if (f[key] < 0n) throw new FeeConfigError(`${key} cannot be less than 0: ${key} = ${f[key]}`);
  };
  atMostZero('gasLimit');
  atMostZero('targetBlockRate');
  belowZero('minBaseFee');
  atMostZero('targetGas');
  atMostZero('baseFeeChangeDenominator');
  belowZero('minBlockGasCost');
  if (f.minBlockGasCost > f.maxBlockGasCost) {
    throw new FeeConfigError(
      `minBlockGasCost cannot be greater than maxBlockGasCost: minBlockGasCost = ${f.minBlockGasCost}, maxBlockGasCost = ${f.maxBlockGasCost}`,
    );
  }
  belowZero('blockGasCostStep');
  if (f.maxBlockGasCost > MAX_U64) throw new FeeConfigError(`maxBlockGasCost is not a valid uint64: maxBlockGasCost = ${f.maxBlockGasCost}`);
  for (const key of FEE_CONFIG_KEYS) {
    if (f[key] > MAX_U256) throw new FeeConfigError(`${key} exceeds hash length: 32 bytes`);
  }
  return f;
}

/**
 * A fee config from JSON, verified: Go's *big.Int reads a JSON integer literal only ("0x1" or "1" as
 * strings fail), an absent targetBlockRate is 0 (and fails the check), other absent fields are nil.
 */
export function feeConfigFromJson(c: Record<string, unknown>): FeeConfig {
  const field = (key: keyof FeeConfig): bigint | undefined => {
    const v = c[key];
    if (v === undefined || v === null) return key === 'targetBlockRate' ? 0n : undefined;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
    throw new FeeConfigError(`math/big: cannot unmarshal ${JSON.stringify(JSON.stringify(v))} into a *big.Int (${key})`);
  };
  return verifyFeeConfig(Object.fromEntries(FEE_CONFIG_KEYS.map((k) => [k, field(k)])));
}

/**
 * The fee config as JSON numbers, in Go's field order (eth_feeConfig, eth_getChainConfig). The
 * genesis reader takes JSON integers a double holds exactly, so every value here is one.
 */
export function feeConfigJson(f: FeeConfig): Record<string, number> {
  return Object.fromEntries(FEE_CONFIG_KEYS.map((k) => [k, Number(f[k])]));
}

export type Window = bigint[];

export function parseWindow(extra: Uint8Array): Window {
  if (extra.length < WINDOW_SIZE) {
    throw new Error(`insufficient length for fee window: expected at least ${WINDOW_SIZE} bytes but got ${extra.length} bytes`);
  }
  const b = Buffer.from(extra.buffer, extra.byteOffset, WINDOW_SIZE);
  return Array.from({ length: WINDOW_LEN }, (_, i) => b.readBigUInt64BE(i * 8));
}

export function windowBytes(w: Window): Uint8Array {
  const b = Buffer.alloc(WINDOW_SIZE);
  for (const [i, v] of w.entries()) b.writeBigUInt64BE(v, i * 8);
  return new Uint8Array(b);
}

const satAdd = (a: bigint, b: bigint) => (a + b > MAX_U64 ? MAX_U64 : a + b);

export interface WindowFees {
  /** The window the block's extraData carries: the parent's, with its gas added, shifted to the block's second. */
  window: Window;
  baseFee: bigint;
  gasLimit: bigint;
  /** Granite: always 0. */
  blockGasCost: bigint;
}

export interface WindowParent {
  number: bigint;
  time: bigint;
  gasUsed: bigint;
  baseFee?: bigint;
  extra: Uint8Array;
}

/** The fees of the child of `parent` at `time` (seconds), under fee config `f` (the one at the parent). */
export function windowFees(f: FeeConfig, parent: WindowParent, time: bigint): WindowFees {
  if (time < parent.time) throw new Error(`cannot calculate fee window for timestamp ${time} prior to parent timestamp ${parent.time}`);
  if (parent.number === 0n) return { window: new Array(WINDOW_LEN).fill(0n), baseFee: f.minBaseFee, gasLimit: f.gasLimit, blockGasCost: 0n };
  const w = parseWindow(parent.extra);
  w[WINDOW_LEN - 1] = satAdd(w[WINDOW_LEN - 1]!, parent.gasUsed);
  const elapsed = time - parent.time;
  const shifted: Window =
    elapsed >= BigInt(WINDOW_LEN) ? new Array(WINDOW_LEN).fill(0n) : [...w.slice(Number(elapsed)), ...new Array(Number(elapsed)).fill(0n)];
  let total = 0n;
  for (const v of shifted) total = satAdd(total, v);
  const parentFee = parent.baseFee ?? f.minBaseFee;
  let baseFee: bigint;
  if (total === f.targetGas) {
    // The legacy quirk: no clamping when the window is exactly on target.
    return { window: shifted, baseFee: parentFee, gasLimit: f.gasLimit, blockGasCost: 0n };
  }
  if (total > f.targetGas) {
    const delta = ((total - f.targetGas) * parentFee) / f.targetGas / f.baseFeeChangeDenominator;
    baseFee = parentFee + (delta > 1n ? delta : 1n);
  } else {
    let delta = ((f.targetGas - total) * parentFee) / f.targetGas / f.baseFeeChangeDenominator;
    if (delta < 1n) delta = 1n;
    const periods = elapsed / BigInt(WINDOW_LEN);
    if (periods > 1n) delta *= periods;
    baseFee = parentFee - delta;
  }
  if (baseFee < f.minBaseFee) baseFee = f.minBaseFee;
  if (baseFee > MAX_U256) baseFee = MAX_U256;
  return { window: shifted, baseFee, gasLimit: f.gasLimit, blockGasCost: 0n };
}

/** The header's extraData: the window, then the block's warp predicate results. */
export function windowExtra(w: Window, predicateResults: Uint8Array = EMPTY_PREDICATE_RESULTS): Uint8Array {
  const out = new Uint8Array(WINDOW_SIZE + predicateResults.length);
  out.set(windowBytes(w));
  out.set(predicateResults, WINDOW_SIZE);
  return out;
}

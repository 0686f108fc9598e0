// What an atomic tx costs (coreth atomic/tx.go, import_tx.go, export_tx.go, AP5+): gas is its
// unsigned bytes, 1000 per signature and the fixed 10,000; the fee it must burn is that gas at the
// block's base fee, converted from wei to nAVAX rounding up. Go's uint64 arithmetic fails with
// `overflow`/`underflow` (utils/math), so these throw those texts.
import { AtomicError, atomicErrors } from './errors.js';
import type { AtomicTx } from './codec.js';

/** 1 nAVAX = 10^9 wei: the rate between X/P amounts and C balances. */
export const X2C_RATE = 1_000_000_000n;
/** ap5.AtomicTxIntrinsicGas */
export const ATOMIC_TX_INTRINSIC_GAS = 10_000n;
/** secp256k1fx.CostPerSignature */
export const COST_PER_SIGNATURE = 1_000n;
/** ap5.AtomicGasLimit: the most gas the mempool admits per tx. */
export const MAX_MEMPOOL_GAS = 100_000n;

const MAX_U64 = (1n << 64n) - 1n;

function add(a: bigint, b: bigint): bigint {
  const s = a + b;
  if (s > MAX_U64) throw new AtomicError(atomicErrors.overflow());
  return s;
}

/** GasUsed(fixedFee = true). */
export function gasUsed(tx: AtomicTx): bigint {
  const u = tx.unsigned;
  let cost = BigInt(tx.unsignedBytes.length);
  if (u.type === 0) for (const i of u.importedInputs) cost = add(cost, BigInt(i.input.sigIndices.length) * COST_PER_SIGNATURE);
  else cost = add(cost, BigInt(u.ins.length) * COST_PER_SIGNATURE);
  return add(cost, ATOMIC_TX_INTRINSIC_GAS);
}

/** CalculateDynamicFee: ceil(gas · baseFee / 10^9) nAVAX. */
export function dynamicFee(gas: bigint, baseFee: bigint): bigint {
  const fee = (gas * baseFee + X2C_RATE - 1n) / X2C_RATE;
  if (fee > MAX_U64) throw new AtomicError(atomicErrors.feeOverflow());
  return fee;
}

/** Burned(assetID): inputs minus outputs of the asset. */
export function burned(tx: AtomicTx, assetID: Uint8Array): bigint {
  const same = (a: Uint8Array) => Buffer.from(a).equals(Buffer.from(assetID));
  const u = tx.unsigned;
  let spent = 0n;
  let input = 0n;
  if (u.type === 0) {
    for (const o of u.outs) if (same(o.assetID)) spent = add(spent, o.amount);
    for (const i of u.importedInputs) if (same(i.assetID)) input = add(input, i.input.amount);
  } else {
    for (const o of u.exportedOutputs) if (same(o.assetID)) spent = add(spent, o.out.amount);
    for (const i of u.ins) if (same(i.assetID)) input = add(input, i.amount);
  }
  if (spent > input) throw new AtomicError(atomicErrors.underflow());
  return input - spent;
}

/** EffectiveGasPrice: burned · 10^9 / gas, in wei per gas (the mempool's order). */
export function effectiveGasPrice(tx: AtomicTx, avaxAssetID: Uint8Array): bigint {
  const gas = gasUsed(tx);
  return (burned(tx, avaxAssetID) * X2C_RATE) / gas;
}

/** BlockFeeContribution's check: the tx burns at least its fee at the block's base fee. */
export function checkBurned(tx: AtomicTx, avaxAssetID: Uint8Array, baseFee: bigint): bigint {
  if (baseFee <= 0n) throw new AtomicError(atomicErrors.nonPositiveBaseFee(baseFee));
  const gas = gasUsed(tx);
  const fee = dynamicFee(gas, baseFee);
  const paid = burned(tx, avaxAssetID);
  if (fee > paid) throw new AtomicError(atomicErrors.insufficientBurned(paid, fee));
  return gas;
}

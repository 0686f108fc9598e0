// avalanchego vms/components/gas: the fee price every dynamic fee market uses (ACP-103's P-Chain
// fees, ACP-176's C-Chain base fee, the L1 validator fee).
const MAX_U64 = 0xffffffffffffffffn;

/** gas.CalculatePrice: minPrice · e^(excess / k), EIP-4844's fake exponential, capped at MaxUint64. */
export function calculatePrice(minPrice: bigint, excess: bigint, k: bigint): bigint {
  if (k === 0n) return 0n;
  const maxOutput = k * MAX_U64;
  let output = 0n;
  let accum = minPrice * k;
  for (let i = 1n; accum > 0n; i++) {
    output += accum;
    if (output >= maxOutput) return MAX_U64;
    accum = (accum * excess) / k / i;
  }
  return output / k;
}

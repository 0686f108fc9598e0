// The eth methods only coreth has: eth_suggestPriceOptions and eth_getChainConfig in coreth's form.
import { method, type MethodDef } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import { qty } from './format.js';
import type { GasOracle } from './gas.js';

const none = positional([]);

export function corethMethods(gas: GasOracle, chainConfig: Record<string, unknown>): Record<string, MethodDef> {
  return {
    // slow: 95 % of the tip capped at 20 gwei (at least 1 wei); normal: the capped tip; fast: 105 %
    // of the tip; each with twice the next base fee.
    suggestPriceOptions: method(none, async () => {
      const tip = await gas.suggestTip();
      const maxTip = 20_000_000_000n;
      const capped = tip < maxTip ? tip : maxTip;
      const slowTip = (capped * 95n) / 100n > 1n ? (capped * 95n) / 100n : 1n;
      const fastTip = (tip * 105n) / 100n;
      const fee = (t: bigint) => ({ maxPriorityFeePerGas: qty(t), maxFeePerGas: qty(gas.nextBaseFee() * 2n + t) });
      return { slow: fee(slowTip), normal: fee(capped), fast: fee(fastTip) };
    }),
    getChainConfig: method(none, () => chainConfig),
  };
}

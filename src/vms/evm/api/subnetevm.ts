// The eth methods only Subnet-EVM has (internal/ethapi/api_extra.go): eth_feeConfig,
// eth_getChainConfig in Subnet-EVM's form, eth_getActiveRulesAt and the deprecated
// eth_getActivePrecompilesAt.
import { method, type MethodDef } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import { optional } from '../../../rpc/schema.js';
import type { EvmChain } from '../chain.js';
import { feeConfigJson } from '../feewindow.js';
import { activePrecompilesAt, activeRulesAt, type SubnetEvmConfig } from '../subnetevm.js';
import { blockOf } from './blocks.js';
import { blockRef, goUint64 } from './fields.js';

export function subnetEvmMethods(chain: EvmChain, config: SubnetEvmConfig): Record<string, MethodDef> {
  const at = (time: number | undefined) => time ?? Number(chain.head.header.time);
  return {
    // The fee config governing the child of that block: the FeeManager's once it is active, else
    // the genesis one (last changed at block 0).
    feeConfig: method(positional([optional(blockRef)], 0), async ([ref]) => {
      const block = ref ? await blockOf(chain, ref as Parameters<typeof blockOf>[1]) : chain.head;
      const rules = await chain.rulesAt(block);
      return { feeConfig: feeConfigJson(rules.feeConfig ?? config.feeConfig), lastChangedAt: Number(rules.lastChangedAt) };
    }),
    getChainConfig: method(positional([]), () => config.chainConfig),
    getActiveRulesAt: method(positional([optional(goUint64)], 0), ([time]) => activeRulesAt(config, at(time as number | undefined))),
    getActivePrecompilesAt: method(positional([optional(goUint64)], 0), ([time]) =>
      Object.fromEntries(activePrecompilesAt(config, at(time as number | undefined)).map((p) => [p.key, p.json])),
    ),
  };
}

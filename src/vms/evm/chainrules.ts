// An EVM chain's rules from its genesis and config, by kind: coreth's (the C-Chain) or Subnet-EVM's
// (an L1), with the JSON-RPC methods only that kind serves.
import type { ChainContext } from '../../chains/manager.js';
import { corethMethods } from './api/coreth.js';
import type { GasOracle } from './api/gas.js';
import { subnetEvmMethods } from './api/subnetevm.js';
import type { EvmChain } from './chain.js';
import type { ChainConfig } from './chainfile.js';
import { chainConfigJson } from './chainconfig.js';
import { corethFlavor, subnetEvmFlavor } from './flavor.js';
import { parseGenesisJson } from './genesis.js';
import { barePrecompile } from './precompiles/config.js';
import { BLACKHOLE } from './rules.js';
import { engineUpgradesFrom, isActive, refuseFutureUpgrades, subnetEvmConfig } from './subnetevm.js';
import type { EvmConfig } from './vmtypes.js';
import { WARP_ADDRESS_HEX } from './warp/precompile.js';

/** coreth's warp precompile, which Durango schedules at its own time (all of them, locally, at genesis). */
const INITIALLY_ACTIVE = 1607144400;

/** The chain's rules and what only its kind serves. */
export function chainOf(kind: EvmConfig['kind'], ctx: ChainContext, chainConfig: ChainConfig) {
  const gasTarget = chainConfig.gasTarget;
  const text = Buffer.from(ctx.genesis).toString('utf8');
  const genesis = parseGenesisJson(text);
  if (kind === 'coreth') {
    return {
      genesis,
      flavor: corethFlavor(gasTarget === undefined ? {} : { gasTarget }),
      genesisRules: { etna: true, granite: true },
      precompiles: [barePrecompile('warpConfig', WARP_ADDRESS_HEX, INITIALLY_ACTIVE)],
      baseRules: { allowFeeRecipients: false, feeRecipient: BLACKHOLE },
      extras: (_chain: EvmChain, gas: GasOracle) => corethMethods(gas, chainConfigJson(text)),
      subnet: undefined,
    };
  }
  const subnet = subnetEvmConfig(genesis, ctx.upgrade);
  refuseFutureUpgrades(subnet, Number(ctx.clock.nowNs() / 1_000_000_000n));
  const time = subnet.genesisTime;
  return {
    genesis,
    flavor: subnetEvmFlavor(subnet.feeConfig),
    genesisRules: {
      etna: isActive(subnet, 'etnaTimestamp', time),
      granite: isActive(subnet, 'graniteTimestamp', time),
      minBaseFee: subnet.feeConfig.minBaseFee,
    },
    precompiles: subnet.precompiles,
    stateUpgrades: subnet.stateUpgrades,
    baseRules: { feeConfig: subnet.feeConfig, allowFeeRecipients: subnet.allowFeeRecipients, feeRecipient: chainConfig.feeRecipient ?? BLACKHOLE },
    extras: (chain: EvmChain) => subnetEvmMethods(chain, subnet),
    upgradesFrom: BigInt(engineUpgradesFrom(subnet)),
    subnet,
  };
}

export type ChainRulesOf = ReturnType<typeof chainOf>;

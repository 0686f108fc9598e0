// The EVM's factories: an EVM chain from its chain context, coreth's (the C-Chain) or Subnet-EVM's
// (an L1), with its JSON-RPC at /ext/bc/<id>/rpc and /ext/bc/<id>/ws in geth's dialect, for the
// C-Chain its atomic txs and their avax API at /ext/bc/<id>/avax, and for Subnet-EVM its validators
// API at /ext/bc/<id>/validators (both gorilla). Its namespaces follow the
// chain config's eth-apis as coreth and subnet-evm read them (debug and txpool off by default);
// --dev turns the developer namespaces on. A C-Chain config's gas-target sets the ACP-176 target the
// chain's blocks move toward.
import type { ChainContext, VmFactory } from '../../chains/manager.js';
import { loadKeccak } from '../../crypto/keccak.js';
import { FilterSystem } from './api/filters.js';
import { EvmChain } from './chain.js';
import { ChainConfigError, readChainConfig } from './chainfile.js';
import { addAtomic, chainOptions, chainVM, HeldKeys, l1ValidatorSet, l1ValidatorsRoute, rpcHandlers, warpValidators } from './chainparts.js';
import { type ChainRulesOf, chainOf } from './chainrules.js';
import type { OpenedFork } from './fork/open.js';
import { GenesisError } from './genesis.js';
import { chainCommon } from './rules.js';
import { encodeCB58 } from '../../encoding/cb58.js';
import type { EvmChainVM, EvmConfig } from './vmtypes.js';

export { ChainConfigError, l1ValidatorsFromConfig } from './chainfile.js';
export type { EvmChainVM, EvmConfig, SubnetMember } from './vmtypes.js';

export function evmFactory(config: EvmConfig): VmFactory<EvmChainVM> {
  const keys = new HeldKeys();
  return {
    proposervm: true,
    async create(ctx: ChainContext): Promise<EvmChainVM> {
      await loadKeccak();
      const chainConfig = readChainConfig(ctx.config);
      // The C-Chain forks what the flags say, an L1 what --fork-l1 or anvil_reset made it.
      const fork = await config.forks?.of(encodeCB58(ctx.chainID), ctx.db, config.kind, chainCommon);
      const rules = rulesOf(config, await forkedRules(config, ctx, fork), chainConfig);
      const l1Set = l1ValidatorSet(config, ctx, chainConfig, keys);
      const validatorsOf = warpValidators(config, keys);
      const devSettings = config.devSettingsOf?.(encodeCB58(ctx.chainID));
      const chain = await EvmChain.open(ctx.db, {
        ...chainOptions(config, ctx, rules, chainConfig, validatorsOf),
        ...(fork ? { fork } : {}),
        ...(devSettings ? { devSettings } : {}),
      });
      ctx.onResume?.(() => chain.resumeBuilding());
      chain.on('buildFailed', (err) => ctx.log.error('failed to accept block', { error: err.message }));
      const filters = new FilterSystem(chain);
      const handlers = rpcHandlers(config, ctx, chain, chainConfig, rules, filters, validatorsOf);
      addAtomic(config, ctx, chain, handlers);
      if (rules.subnet) handlers.set('/validators', await l1ValidatorsRoute(config, ctx, l1Set, keys));
      return chainVM(chain, filters, handlers, validatorsOf);
    },
  };
}

/**
 * The chain context an L1 takes its rules from: a forked L1's are its upstream's, in its genesis when
 * --fork-l1 created it, else taken by anvil_reset; the node's own upgrade.json wins over the upstream's.
 */
async function forkedRules(config: EvmConfig, ctx: ChainContext, fork: OpenedFork | undefined): Promise<ChainContext> {
  if (config.kind !== 'subnet-evm' || !config.forks) return ctx;
  const taken = await config.forks.l1Rules(encodeCB58(ctx.chainID), fork);
  const upgrade = ctx.upgrade ?? taken.upgrade;
  return { ...ctx, genesis: taken.genesis ?? ctx.genesis, ...(upgrade ? { upgrade } : {}) };
}

/** The chain's rules; a genesis the chain cannot run on is the chain config's error. */
function rulesOf(config: EvmConfig, ctx: ChainContext, chainConfig: ReturnType<typeof readChainConfig>): ChainRulesOf {
  try {
    return chainOf(config.kind, ctx, chainConfig);
  } catch (err) {
    if (err instanceof GenesisError) throw new ChainConfigError(err.message);
    throw err;
  }
}

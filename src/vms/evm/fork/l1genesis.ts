// The genesis an L1 forked from a Subnet-EVM endpoint is created with on this node's P-Chain: the
// upstream's chain config (eth_getChainConfig: the fee config, the precompiles and when they
// activate) and its genesis block's header fields, without an alloc. The chain's state is the
// upstream's at the fork block, read from it; this genesis gives the chain its rules, and the
// upgrades the config ends with (the upstream's upgrade.json) give it the rest of them.
import { ForkError, type ForkSettings } from './open.js';
import { guarded } from './state.js';
import { Upstream } from './upstream.js';

interface BlockJson {
  nonce: string;
  timestamp: string;
  extraData: string;
  gasLimit: string;
  difficulty: string;
  mixHash: string;
  miner: string;
  extDataHash?: string;
}

/** An L1 forking an upstream: its genesis file's bytes, and the upstream's upgrade.json if it has one. */
export interface ForkedL1Rules {
  genesis: Uint8Array;
  upgrade: Uint8Array | undefined;
}

/** The rules of an L1 forking `url`, from its upstream's chain config and genesis block. */
export async function forkedL1Rules(settings: Omit<ForkSettings, 'url'>, url: string): Promise<ForkedL1Rules> {
  const upstream = new Upstream({ ...settings, url });
  try {
    const call = guarded(upstream).call;
    const [config, genesis] = await Promise.all([
      call<Record<string, unknown> | null>('eth_getChainConfig', []).catch((err: Error) => {
        throw new ForkError(`${upstream.origin} is not a Subnet-EVM chain (eth_getChainConfig: ${err.message})`);
      }),
      call<BlockJson | null>('eth_getBlockByNumber', ['0x0', false]),
    ]);
    if (!config || !genesis) throw new ForkError(`${upstream.origin} has no chain config or genesis block`);
    if (genesis.extDataHash !== undefined) throw new ForkError(`${upstream.origin} is coreth (the C-Chain), not Subnet-EVM: fork it with --fork-url`);
    // The upgrades eth_getChainConfig ends with are upgrade.json's, not the genesis's.
    const { upgrades, ...rules } = config;
    const json = {
      config: rules,
      nonce: genesis.nonce,
      timestamp: genesis.timestamp,
      extraData: genesis.extraData,
      gasLimit: genesis.gasLimit,
      difficulty: genesis.difficulty,
      mixHash: genesis.mixHash,
      coinbase: genesis.miner,
      alloc: {},
      number: '0x0',
      gasUsed: '0x0',
      parentHash: `0x${'0'.repeat(64)}`,
    };
    const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
    const carried = upgradesToCarry(upgrades);
    return { genesis: encode(json), upgrade: carried ? encode(carried) : undefined };
  } finally {
    upstream.close();
  }
}

/**
 * What of the upstream's upgrades the fork takes: its precompile and state upgrades, or none.
 * networkUpgradeOverrides are left out: Subnet-EVM folds them into the config's upgrade times,
 * which the genesis keeps, and this node runs every upgrade through Granite from genesis anyway.
 */
function upgradesToCarry(upgrades: unknown): Record<string, unknown> | undefined {
  if (upgrades === null || typeof upgrades !== 'object') return undefined;
  const carried: Record<string, unknown> = {};
  for (const key of ['precompileUpgrades', 'stateUpgrades']) {
    const list = (upgrades as Record<string, unknown>)[key];
    if (Array.isArray(list) && list.length > 0) carried[key] = list;
  }
  return Object.keys(carried).length > 0 ? carried : undefined;
}

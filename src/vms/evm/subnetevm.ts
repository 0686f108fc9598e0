// A Subnet-EVM chain's configuration, read from its genesis as subnet-evm's parseGenesis does: the
// fee config (verified; subnet-evm's default without one), the gas limit that must match it, the
// network upgrade times (absent or 0 take avalanchego's times for the network), the precompiles
// the genesis enables, and what eth_getChainConfig and eth_getActiveRulesAt answer from them.
// Notes: ../shared/reference/subnet-evm.md §1.2-1.4, §2.1, §5.
import { DEFAULT_FEE_CONFIG, type FeeConfig, FeeConfigError, feeConfigFromJson, feeConfigJson } from './feewindow.js';
import { GenesisError, type GenesisJson, genesisQuantity } from './genesis.js';
import {
  allowListPrecompile,
  barePrecompile,
  feeManagerPrecompile,
  type PrecompileConfig,
  PrecompileConfigError,
  rewardManagerPrecompile,
} from './precompiles/config.js';
import { activeAt } from './precompiles/index.js';
import { type PrecompileParser, parseUpgrades, type StateUpgrade } from './upgrades.js';

/** avalanchego upgrade.InitiallyActiveTime: every upgrade's time on the local network. */
const INITIALLY_ACTIVE = 1607144400;
/** avalanchego upgrade.UnscheduledActivationTime (Helicon). */
const UNSCHEDULED = 253399622400;

/** The network upgrades Subnet-EVM knows, with the local network's times. */
const NETWORK_UPGRADES: Record<string, number | undefined> = {
  subnetEVMTimestamp: 0,
  durangoTimestamp: INITIALLY_ACTIVE,
  etnaTimestamp: INITIALLY_ACTIVE,
  fortunaTimestamp: undefined,
  graniteTimestamp: INITIALLY_ACTIVE,
  heliconTimestamp: UNSCHEDULED,
};

/** libevm's block-number forks, set to 0 when the genesis leaves them out. */
const BLOCK_FORKS = [
  'homesteadBlock',
  'eip150Block',
  'eip155Block',
  'eip158Block',
  'byzantiumBlock',
  'constantinopleBlock',
  'petersburgBlock',
  'istanbulBlock',
  'muirGlacierBlock',
  'berlinBlock',
  'londonBlock',
];

/** The stateful precompiles: config key, address. Only warp runs in the emulator so far. */
export const PRECOMPILES: Record<string, string> = {
  contractDeployerAllowListConfig: '0200000000000000000000000000000000000000',
  contractNativeMinterConfig: '0200000000000000000000000000000000000001',
  txAllowListConfig: '0200000000000000000000000000000000000002',
  feeManagerConfig: '0200000000000000000000000000000000000003',
  rewardManagerConfig: '0200000000000000000000000000000000000004',
  warpConfig: '0200000000000000000000000000000000000005',
};

export interface SubnetEvmConfig {
  chainId: number;
  feeConfig: FeeConfig;
  allowFeeRecipients: boolean;
  /** Upgrade key -> activation time (unix seconds); absent = never. */
  upgrades: Record<string, number | undefined>;
  /** Every precompile period: the genesis ones in address order (disabled or never-active ones too), then upgrade.json's. */
  precompiles: PrecompileConfig[];
  genesisTime: number;
  stateUpgrades: StateUpgrade[];
  /** eth_getChainConfig's answer. */
  chainConfig: Record<string, unknown>;
}

const u64 = (v: unknown, key: string): number | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new GenesisError(`json: cannot unmarshal ${JSON.stringify(v)} into Go struct field ChainConfig.${key} of type uint64`);
  return v;
};

function readFeeConfig(raw: unknown): FeeConfig {
  if (raw === undefined || raw === null) return DEFAULT_FEE_CONFIG;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new GenesisError('parsing genesis: feeConfig is not a JSON object');
  // An empty fee config is no fee config (FeeConfig == EmptyFeeConfig).
  if (Object.keys(raw).length === 0) return DEFAULT_FEE_CONFIG;
  try {
    return feeConfigFromJson(raw as Record<string, unknown>);
  } catch (err) {
    if (err instanceof FeeConfigError) throw new GenesisError(`failed to verify genesis: invalid fee config: ${err.message}`);
    throw err;
  }
}

/** Warp's config as Subnet-EVM prints it (blockTimestamp, disable, quorumNumerator, requirePrimaryNetworkSigners), verified. */
function warpConfigJson(raw: Record<string, unknown>, timestamp: number | undefined, durango: number): Record<string, unknown> {
  const quorum = u64(raw.quorumNumerator, 'warpConfig.quorumNumerator') ?? 0;
  const invalid = (why: string) => new GenesisError(`failed to verify genesis: invalid precompile upgrades: ${why}`);
  if (timestamp !== undefined && timestamp < durango) throw invalid('warp cannot be activated before Durango');
  if (quorum > 100) throw invalid(`invalid warp quorum ratio: cannot specify numerator (${quorum}) > denominator (100)`);
  if (quorum !== 0 && quorum < 33) throw invalid(`invalid warp quorum ratio: cannot specify numerator (${quorum}) < min numerator (33)`);
  return {
    blockTimestamp: timestamp ?? null,
    ...(raw.disable === true ? { disable: true } : {}),
    quorumNumerator: quorum,
    requirePrimaryNetworkSigners: raw.requirePrimaryNetworkSigners === true,
  };
}

export function subnetEvmConfig(g: GenesisJson, upgradeBytes?: Uint8Array): SubnetEvmConfig {
  const raw = g.config;
  const chainId = raw.chainId;
  if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0)
    throw new GenesisError('parsing genesis: chainId must be a positive JSON integer');
  const feeConfig = readFeeConfig(raw.feeConfig);
  const headerGasLimit = genesisQuantity(g.gasLimit, 'gasLimit');
  if (headerGasLimit !== feeConfig.gasLimit) {
    throw new GenesisError(`failed to verify genesis: gas limit in fee config (${feeConfig.gasLimit}) does not match gas limit in header (${headerGasLimit})`);
  }
  const upgrades: Record<string, number | undefined> = {};
  for (const [key, time] of Object.entries(NETWORK_UPGRADES)) {
    const given = u64(raw[key], key);
    upgrades[key] = given === undefined || given === 0 ? time : given;
  }
  const genesisTime = Number(genesisQuantity(g.timestamp, 'timestamp'));
  const durango = upgrades.durangoTimestamp!;
  const parse: PrecompileParser = (key, v, timestamp) => {
    const address = PRECOMPILES[key];
    if (address === undefined) throw new GenesisError(`failed to parse upgrade bytes: unknown precompile config: ${key}`);
    if (key === 'warpConfig') {
      return { ...barePrecompile(key, address, timestamp ?? 0, warpConfigJson(v, timestamp, durango)), timestamp, disable: v.disable === true };
    }
    if (key === 'feeManagerConfig') return feeManagerPrecompile(address, v, timestamp, durango, feeConfig);
    if (key === 'rewardManagerConfig') return rewardManagerPrecompile(address, v, timestamp, durango, raw.allowFeeRecipients === true);
    return allowListPrecompile(key, address, v, timestamp, durango);
  };
  const genesisPrecompiles: PrecompileConfig[] = [];
  for (const key of Object.keys(PRECOMPILES)) {
    const value = raw[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'object' || Array.isArray(value)) throw new GenesisError(`parsing genesis: ${key} is not a JSON object`);
    const v = value as Record<string, unknown>;
    try {
      // A nil blockTimestamp never activates (but the config is still printed).
      genesisPrecompiles.push(parse(key, v, u64(v.blockTimestamp, `${key}.blockTimestamp`)));
    } catch (err) {
      if (err instanceof PrecompileConfigError) throw new GenesisError(`failed to verify genesis: invalid precompile upgrades: ${err.message}`);
      throw err;
    }
  }
  const upgradeFile = parseUpgrades(upgradeBytes, genesisPrecompiles, parse);
  const precompiles = upgradeFile.precompiles;
  const allowFeeRecipients = raw.allowFeeRecipients === true;
  return {
    chainId,
    feeConfig,
    allowFeeRecipients,
    upgrades,
    precompiles,
    genesisTime,
    stateUpgrades: upgradeFile.stateUpgrades,
    chainConfig: chainConfigJson(raw, feeConfig, allowFeeRecipients, upgrades, genesisPrecompiles, upgradeFile.json),
  };
}

/** The network upgrades the engine runs in every block it builds (rules.ts): Durango, Etna, Granite. */
const ENGINE_UPGRADES = ['durangoTimestamp', 'etnaTimestamp', 'graniteTimestamp'];

/** When the last of the upgrades the engine runs activates (unix seconds): no block it builds may come before. */
export function engineUpgradesFrom(c: SubnetEvmConfig): number {
  return Math.max(0, ...ENGINE_UPGRADES.map((key) => c.upgrades[key] ?? 0));
}

/**
 * Refuses a genesis that schedules Durango, Etna or Granite after `nowSeconds`. Subnet-EVM takes a
 * time later than the network's (verifyWithDefault; with the later upgrades at least as late) and
 * builds the blocks before it under the earlier rules (Subnet-EVM's block gas cost, headers without
 * Granite's fields); the emulator builds every block under all three, so a chain whose next blocks
 * would come before one is not started.
 */
export function refuseFutureUpgrades(c: SubnetEvmConfig, nowSeconds: number): void {
  for (const key of ENGINE_UPGRADES) {
    const time = c.upgrades[key];
    if (time === undefined || time <= nowSeconds) continue;
    throw new GenesisError(
      `${key} ${time} is later than now (${nowSeconds}): the emulator builds every block under the upgrades through Granite, so none may be scheduled after the chain starts (leave it out or give 0 for the network's time, or give a time before the chain starts)`,
    );
  }
}

/** params.ToWithUpgradesJSON: the effective config, keys in Go's alphabetical map order, then upgrades. */
function chainConfigJson(
  raw: Record<string, unknown>,
  feeConfig: FeeConfig,
  allowFeeRecipients: boolean,
  upgrades: Record<string, number | undefined>,
  precompiles: PrecompileConfig[],
  upgradeJson: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // libevm's own fields as the genesis gives them (eip150Hash no longer exists).
  for (const key of ['chainId', 'daoForkBlock', 'daoForkSupport', 'arrowGlacierBlock', 'grayGlacierBlock', 'mergeNetsplitBlock', 'terminalTotalDifficulty']) {
    if (raw[key] !== undefined && raw[key] !== null) out[key] = raw[key];
  }
  for (const key of BLOCK_FORKS) out[key] = raw[key] ?? 0;
  for (const [key, time] of Object.entries(upgrades)) if (time !== undefined) out[key] = time;
  out.shanghaiTime = upgrades.durangoTimestamp;
  out.cancunTime = upgrades.etnaTimestamp;
  out.feeConfig = feeConfigJson(feeConfig);
  if (allowFeeRecipients) out.allowFeeRecipients = true;
  for (const p of precompiles) out[p.key] = p.json;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(out).sort()) sorted[key] = out[key];
  sorted.upgrades = upgradeJson;
  return sorted;
}

/** eth_getActiveRulesAt's answer at `time` (unix seconds). */
export function activeRulesAt(c: SubnetEvmConfig, time: number): Record<string, unknown> {
  const at = (key: string) => c.upgrades[key] !== undefined && time >= c.upgrades[key]!;
  return {
    ethRules: {
      ChainID: c.chainId,
      IsHomestead: true,
      IsEIP150: true,
      IsEIP155: true,
      IsEIP158: true,
      IsByzantium: true,
      IsConstantinople: true,
      IsPetersburg: true,
      IsIstanbul: true,
      IsBerlin: true,
      IsLondon: true,
      IsMerge: true,
      IsShanghai: at('durangoTimestamp'),
      IsCancun: at('etnaTimestamp'),
      IsPrague: false,
      IsVerkle: false,
    },
    avalancheRules: {
      IsSubnetEVM: at('subnetEVMTimestamp'),
      IsDurango: at('durangoTimestamp'),
      IsEtna: at('etnaTimestamp'),
      IsFortuna: at('fortunaTimestamp'),
      IsGranite: at('graniteTimestamp'),
      IsHelicon: at('heliconTimestamp'),
    },
    precompiles: Object.fromEntries(activePrecompilesAt(c, time).map((p) => [p.key, { timestamp: p.timestamp }])),
  };
}

export function activePrecompilesAt(c: SubnetEvmConfig, time: number): PrecompileConfig[] {
  return c.precompiles.filter((p) => activeAt(p, BigInt(time)));
}

/** Whether an upgrade is active at `time` (unix seconds). */
export function isActive(c: SubnetEvmConfig, key: string, time: number): boolean {
  return c.upgrades[key] !== undefined && time >= c.upgrades[key]!;
}

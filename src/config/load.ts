// Resolves the node's configuration as avalanchego does: a flag beats an AVAGO_* environment
// variable, which beats the config file, which beats the default. Nothing here touches the disk
// except reading the config file, so a bad value stops the node before anything is written.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Level } from '../logging/level.js';
import { FLAGS, FLAG_BY_NAME, FlagError, parseFlagValue, type FlagSpec, type FlagValue } from './flags.js';
import { networkHrp, networkName, refuseReason } from './network.js';
import { goQuote } from '../encoding/goquote.js';

export interface NodeConfig {
  dataDir: string;
  networkId: number;
  networkName: string;
  hrp: string;
  httpHost: string;
  httpPort: number;
  httpAllowedHosts: string[];
  httpAllowedOrigins: string[];
  apiAdminEnabled: boolean;
  apiInfoEnabled: boolean;
  apiHealthEnabled: boolean;
  apiMetricsEnabled: boolean;
  apiEmulatorEnabled: boolean;
  /** --icm, --icm-relayer, --icm-relayer-delay: ICM's messenger on the EVM chains and the relayer between them. */
  icm: boolean;
  icmRelayer: boolean;
  icmRelayerDelayBlocks: number;
  /** --api-data-enabled: the Data API at /v1. */
  apiDataEnabled: boolean;
  /** --api-explorer-enabled: the explorer's page at /explorer. */
  apiExplorerEnabled: boolean;
  indexEnabled: boolean;
  indexAllowIncomplete: boolean;
  xBlockIntervalNs: bigint;
  testAccounts: number;
  /** --dev: developer namespaces on every EVM chain. */
  dev: boolean;
  /** --dev without --disable-console-log: console.sol's logs printed, as Anvil prints them. */
  consoleLog: boolean;
  /** --fork-*: the C-Chain as a fork of an upstream chain (vms/evm/fork). */
  fork: ForkFlags;
  /** --fork-l1: L1s forked from Subnet-EVM endpoints. */
  forkL1: ForkedL1[];
  chainConfigDir: string;
  chainAliasesFile: string;
  /** --l1: Subnet-EVM genesis files. */
  l1: string[];
  healthCheckFrequencyNs: bigint;
  dbType: 'leveldb' | 'memdb';
  dbDir: string;
  /** `<db-dir>/<network name>`, as avalanchego lays it out. */
  dbPath: string;
  logLevel: Level;
  logDisplayLevel: Level;
  logDir: string;
  profileDir: string;
  /** --state-dir: where the emulator's state files may be written and read, and nowhere else. */
  stateDir: string;
  processContextFile: string;
  pluginDir: string;
  vmAliasesFile: string;
  stakingHost: string;
  stakingPort: number;
  /** Every resolved flag by name, for admin.getConfig. */
  flags: Record<string, FlagValue>;
  /** Flags set by the user (command line, environment, config file or options), not defaulted. */
  explicit: Set<string>;
}

export type ConfigResult = { action: 'run'; config: NodeConfig } | { action: 'help'; text: string } | { action: 'version' };

/** Options of the programmatic API: flag names in kebab-case or camelCase. */
export type NodeOptions = Record<string, unknown>;

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function specFor(name: string, origin: string): FlagSpec {
  const spec = FLAG_BY_NAME.get(name);
  if (!spec) throw new FlagError(origin === 'flag' ? `unknown flag: --${name}` : `unknown ${origin} key: ${goQuote(name)}`);
  return spec;
}

/** pflag's grammar: --name=value, --name value, and bare --name for booleans. */
export function parseArgv(argv: string[]): Map<string, FlagValue> {
  const out = new Map<string, FlagValue>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-' || arg === '--') {
      throw new FlagError(`unexpected argument ${goQuote(arg)}: flags are written --name=value`);
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq === -1 ? body : body.slice(0, eq);
    const spec = specFor(name, 'flag');
    let raw: string;
    if (eq !== -1) raw = body.slice(eq + 1);
    else if (spec.kind === 'bool') raw = 'true';
    else if (i + 1 < argv.length) raw = argv[++i]!;
    else throw new FlagError(`flag needs an argument: --${name}`);
    const value = parseFlagValue(spec, raw);
    // pflag's slices grow with each repetition of the flag.
    const before = out.get(name);
    out.set(name, (spec.kind === 'paths' || spec.kind === 'list') && Array.isArray(before) ? [...before, ...(value as string[])] : value);
  }
  return out;
}

function fromEnv(env: NodeJS.ProcessEnv): Map<string, FlagValue> {
  const out = new Map<string, FlagValue>();
  for (const spec of FLAGS) {
    const value = env[`AVAGO_${spec.name.toUpperCase().replace(/-/g, '_')}`];
    if (value !== undefined) out.set(spec.name, parseFlagValue(spec, value));
  }
  return out;
}

function fromObject(obj: Record<string, unknown>, origin: string): Map<string, FlagValue> {
  const out = new Map<string, FlagValue>();
  for (const [key, raw] of Object.entries(obj)) {
    if (raw === undefined) continue;
    const name = key.includes('-') ? key : kebab(key);
    out.set(name, parseFlagValue(specFor(name, origin), raw));
  }
  return out;
}

function readConfigFile(path: string | undefined, content: string | undefined, contentType: string): Map<string, FlagValue> {
  let text: string;
  let origin: string;
  if (content) {
    if (contentType !== 'json') throw new FlagError(`invalid argument ${goQuote(contentType)} for "--config-file-content-type" flag: only json is supported`);
    text = Buffer.from(content, 'base64').toString('utf8');
    origin = 'config-file-content';
  } else if (path) {
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new FlagError(`couldn't read --config-file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    origin = 'config file';
  } else {
    return new Map();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new FlagError(`couldn't parse ${origin} as JSON: ${(err as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new FlagError(`${origin} must hold a JSON object of flag names`);
  return fromObject(parsed as Record<string, unknown>, origin);
}

export function helpText(): string {
  const lines = ['Usage: avalanche-emulator [--flag=value ...]', '', 'Flags (avalanchego names and defaults; $AVALANCHEGO_DATA_DIR is --data-dir):'];
  for (const spec of FLAGS) {
    const def = spec.default === '' ? '' : ` (default ${JSON.stringify(spec.default)})`;
    lines.push(`  --${spec.name.padEnd(34)} ${spec.help}${def}`);
  }
  lines.push('', 'Each flag can also be set as AVAGO_<NAME> (e.g. AVAGO_HTTP_PORT=0) or as a key of --config-file.');
  return lines.join('\n');
}

export function loadConfig(sources: { argv?: string[]; env?: NodeJS.ProcessEnv; options?: NodeOptions }): ConfigResult {
  const cli = new Map([...parseArgv(sources.argv ?? []), ...fromObject(sources.options ?? {}, 'option')]);
  if (cli.get('help') === true) return { action: 'help', text: helpText() };
  if (cli.get('version') === true) return { action: 'version' };
  const env = fromEnv(sources.env ?? {});
  const early = (name: string) => (cli.get(name) ?? env.get(name)) as string | undefined;
  const file = readConfigFile(early('config-file'), early('config-file-content'), early('config-file-content-type') ?? 'json');

  const flags: Record<string, FlagValue> = {};
  const explicit = new Set<string>();
  for (const spec of FLAGS) {
    const value = cli.get(spec.name) ?? env.get(spec.name) ?? file.get(spec.name);
    if (value !== undefined) explicit.add(spec.name);
    flags[spec.name] = value ?? parseFlagValue(spec, spec.default);
  }
  const str = (name: string) => flags[name] as string;
  const bool = (name: string) => flags[name] as boolean;

  const dataDir = resolve(str('data-dir').replace('$HOME', homedir()));
  const inData = (name: string) => resolve(str(name).replace('$AVALANCHEGO_DATA_DIR', dataDir).replace('$HOME', homedir()));
  for (const spec of FLAGS) if (spec.kind === 'string' && str(spec.name).includes('$AVALANCHEGO_DATA_DIR')) flags[spec.name] = inData(spec.name);

  const networkId = flags['network-id'] as number;
  const refusal = refuseReason(networkId);
  if (refusal) throw new FlagError(`invalid --network-id: ${refusal}`, 'config');
  const frequency = flags['health-check-frequency'] as bigint;
  // avalanchego only rejects negative values and then panics on 0; both are refused here.
  if (frequency <= 0n) throw new FlagError('health-check-frequency must be positive', 'config');

  if ((flags['x-block-interval'] as bigint) < 0n) throw new FlagError('x-block-interval must not be negative', 'config');
  const logLevel = flags['log-level'] as Level;
  const display = flags['log-display-level'] as Level | '';
  const dbDir = str('db-dir');
  const name = networkName(networkId);
  return {
    action: 'run',
    config: {
      dataDir,
      networkId,
      networkName: name,
      hrp: networkHrp(networkId),
      httpHost: str('http-host'),
      httpPort: flags['http-port'] as number,
      httpAllowedHosts: flags['http-allowed-hosts'] as string[],
      httpAllowedOrigins: flags['http-allowed-origins'] as string[],
      apiAdminEnabled: bool('api-admin-enabled'),
      apiInfoEnabled: bool('api-info-enabled'),
      apiHealthEnabled: bool('api-health-enabled'),
      apiMetricsEnabled: bool('api-metrics-enabled'),
      apiEmulatorEnabled: bool('api-emulator-enabled'),
      apiDataEnabled: bool('api-data-enabled'),
      apiExplorerEnabled: bool('api-explorer-enabled'),
      indexEnabled: bool('index-enabled'),
      icm: bool('icm'),
      icmRelayer: bool('icm-relayer'),
      icmRelayerDelayBlocks: flags['icm-relayer-delay'] as number,
      indexAllowIncomplete: bool('index-allow-incomplete'),
      xBlockIntervalNs: flags['x-block-interval'] as bigint,
      testAccounts: flags['test-accounts'] as number,
      dev: bool('dev'),
      consoleLog: bool('dev') && !bool('disable-console-log'),
      fork: forkFlags(flags),
      forkL1: (flags['fork-l1'] as string[]).map(forkedL1),
      chainConfigDir: str('chain-config-dir'),
      chainAliasesFile: str('chain-aliases-file'),
      l1: (flags.l1 as string[]).map((p) => resolve(p)),
      healthCheckFrequencyNs: frequency,
      dbType: flags['db-type'] as 'leveldb' | 'memdb',
      dbDir,
      dbPath: join(dbDir, name),
      logLevel,
      logDisplayLevel: display === '' ? logLevel : display,
      logDir: str('log-dir'),
      profileDir: str('profile-dir'),
      stateDir: str('state-dir'),
      processContextFile: str('process-context-file'),
      pluginDir: str('plugin-dir'),
      vmAliasesFile: str('vm-aliases-file'),
      stakingHost: str('staking-host'),
      stakingPort: flags['staking-port'] as number,
      flags,
      explicit,
    },
  };
}

/** The fork flags, as vms/evm/fork's ForkSettings. */
export interface ForkFlags {
  url?: string;
  blockNumber?: bigint;
  retries: number;
  retryBackoffMs: number;
  timeoutMs: number;
  computeUnitsPerSecond: number;
  offline: boolean;
}

/** An L1 of --fork-l1: its alias, its upstream and the block (none: the upstream's latest). */
export interface ForkedL1 {
  name: string;
  url: string;
  blockNumber?: bigint;
}

function forkedL1(spec: string): ForkedL1 {
  const m = /^([^=]+)=(https?:\/\/\S+?)(?:@(0x[0-9a-fA-F]+|\d+))?$/i.exec(spec);
  if (!m) throw new FlagError(`invalid --fork-l1 ${JSON.stringify(spec)}: want name=url or name=url@block, with an http or https url`, 'config');
  return { name: m[1]!, url: m[2]!, ...(m[3] === undefined ? {} : { blockNumber: BigInt(m[3]) }) };
}

function forkFlags(flags: Record<string, FlagValue>): ForkFlags {
  const url = flags['fork-url'] as string;
  const number = flags['fork-block-number'] as string;
  if (number !== '' && !/^(0x[0-9a-fA-F]+|\d+)$/.test(number))
    throw new FlagError(`invalid --fork-block-number ${JSON.stringify(number)}: want a block number`, 'config');
  if (url !== '' && !/^https?:\/\//i.test(url)) throw new FlagError(`invalid --fork-url: want an http:// or https:// URL`, 'config');
  return {
    ...(url === '' ? {} : { url }),
    ...(number === '' ? {} : { blockNumber: BigInt(number) }),
    retries: flags['fork-retries'] as number,
    retryBackoffMs: flags['fork-retry-backoff'] as number,
    timeoutMs: flags['fork-timeout'] as number,
    computeUnitsPerSecond: flags['compute-units-per-second'] as number,
    offline: flags.offline as boolean,
  };
}

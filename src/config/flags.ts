// Every flag the emulator reads, with avalanchego's names and defaults (config/flags.go). Each kind
// knows how to parse a value, so the command line, AVAGO_* variables, the config file and the
// programmatic options all go through one validation.
import { parseDuration } from '../encoding/time.js';
import { parseLevel } from '../logging/level.js';
import { parseNetworkId } from './network.js';
import { goQuote } from '../encoding/goquote.js';

export type FlagKind = 'bool' | 'string' | 'port' | 'duration' | 'network' | 'level' | 'level?' | 'db-type' | 'list' | 'paths' | 'uint';

export interface FlagSpec {
  name: string;
  kind: FlagKind;
  /** The default as text, with $AVALANCHEGO_DATA_DIR standing for --data-dir. */
  default: string;
  help: string;
  /** Accepted so that avalanchego command lines and config files work, without effect here. */
  inert?: boolean;
}

const flag = (name: string, kind: FlagKind, def: string, help: string, inert = false): FlagSpec =>
  inert ? { name, kind, default: def, help, inert } : { name, kind, default: def, help };

export const FLAGS: FlagSpec[] = [
  flag('config-file', 'string', '', 'JSON file whose keys are flag names'),
  flag('config-file-content', 'string', '', 'base64 of a JSON config (takes precedence over --config-file)'),
  flag('config-file-content-type', 'string', 'json', 'type of --config-file-content: json'),
  flag('data-dir', 'string', '$HOME/.avalanche-emulator', 'base directory for the database, logs, profiles and the process context file'),
  flag('network-id', 'network', 'local', 'local (12345) or a custom numeric ID (local genesis, HRP "custom"); mainnet and fuji are refused'),
  flag('http-host', 'string', '127.0.0.1', 'address of the HTTP server; empty binds all interfaces'),
  flag('http-port', 'port', '9650', 'port of the HTTP server; 0 picks a free port'),
  flag('http-allowed-hosts', 'list', 'localhost', 'Host header names accepted (IP literals always are); * accepts any'),
  flag('http-allowed-origins', 'list', '*', 'CORS origins allowed'),
  flag('api-admin-enabled', 'bool', 'false', 'serve the Admin API at /ext/admin'),
  flag('api-info-enabled', 'bool', 'true', 'serve the Info API at /ext/info'),
  flag('api-health-enabled', 'bool', 'true', 'serve the Health API at /ext/health'),
  flag('api-metrics-enabled', 'bool', 'true', 'serve Prometheus metrics at /ext/metrics'),
  flag('api-emulator-enabled', 'bool', 'true', 'serve the emulator controls (fault injection) at /ext/emulator; not an avalanchego flag'),
  flag(
    'api-data-enabled',
    'bool',
    'true',
    "serve the Data API over the node's chains at /v1 (as data-api.avax.network does for mainnet and Fuji); not an avalanchego flag",
  ),
  flag('api-explorer-enabled', 'bool', 'true', "serve the explorer, a web page over the node's chains, at /explorer; not an avalanchego flag"),
  flag('index-enabled', 'bool', 'false', 'serve the Index API at /ext/index/...'),
  flag(
    'icm',
    'bool',
    'true',
    "place ICM's messenger (TeleporterMessenger v1.0.0's interface at 0x253b…5fcf) on the C-Chain and every warp-enabled EVM chain, and run a relayer between them (not an avalanchego flag)",
  ),
  flag(
    'icm-relayer',
    'bool',
    'true',
    'with --icm: deliver messages as they are sent; false starts the relayer paused (emulator.icmResume) (not an avalanchego flag)',
  ),
  flag('icm-relayer-delay', 'uint', '0', 'with --icm: destination blocks each new message waits before it is delivered (not an avalanchego flag)'),
  flag(
    'x-block-interval',
    'duration',
    '0s',
    'X-Chain block building: 0s builds a block as soon as a tx arrives; otherwise one block per interval (not an avalanchego flag)',
  ),
  flag(
    'test-accounts',
    'uint',
    '0',
    'deterministic test keys to print and fund with 10,000 AVAX each from ewoq in the first X-Chain block (not an avalanchego flag)',
  ),
  flag('index-allow-incomplete', 'bool', 'false', 'allow an index with gaps'),
  flag('health-check-frequency', 'duration', '30s', 'how often every health check runs (Go duration: 2s, 500ms)'),
  flag('db-type', 'db-type', 'leveldb', 'leveldb (on disk under --db-dir) or memdb (in memory)'),
  flag('db-dir', 'string', '$AVALANCHEGO_DATA_DIR/db', 'database directory; the database lives in <db-dir>/<network name>'),
  flag('log-level', 'level', 'info', 'level written to the log files: verbo, debug, trace, info, warn, error, fatal, off'),
  flag('log-display-level', 'level?', '', 'level shown on stdout; defaults to --log-level'),
  flag('log-dir', 'string', '$AVALANCHEGO_DATA_DIR/logs', 'directory of the log files <logger>.log'),
  flag('profile-dir', 'string', '$AVALANCHEGO_DATA_DIR/profiles', 'where admin profiles are written'),
  flag('process-context-file', 'string', '$AVALANCHEGO_DATA_DIR/process.json', 'written once the node serves: {"pid","uri","stakingAddress"}'),
  flag('plugin-dir', 'string', '$AVALANCHEGO_DATA_DIR/plugins', 'VM plugin directory read by admin.loadVMs'),
  flag('vm-aliases-file', 'string', '$AVALANCHEGO_DATA_DIR/configs/vms/aliases.json', 'JSON map of VM ID to aliases'),
  flag('staking-port', 'port', '9651', 'reported as the staking address (the emulator has no peer network)'),
  flag('staking-host', 'string', '', 'host of the reported staking address ([::] when empty)', true),
  flag('http-shutdown-wait', 'duration', '0s', 'accepted for compatibility', true),
  flag('http-shutdown-timeout', 'duration', '10s', 'accepted for compatibility', true),
  flag('http-read-timeout', 'duration', '30s', 'accepted for compatibility', true),
  flag('http-read-header-timeout', 'duration', '30s', 'accepted for compatibility', true),
  flag('http-write-timeout', 'duration', '30s', 'accepted for compatibility', true),
  flag('http-idle-timeout', 'duration', '120s', 'accepted for compatibility', true),
  flag('health-check-averager-halflife', 'duration', '10s', 'accepted for compatibility', true),
  flag('log-format', 'string', 'auto', 'accepted for compatibility', true),
  flag('sybil-protection-enabled', 'bool', 'true', 'accepted for compatibility (single node, no peers)', true),
  flag('sybil-protection-disabled-weight', 'uint', '100', 'accepted for compatibility', true),
  flag('bootstrap-ips', 'string', '', 'accepted for compatibility (no peers)', true),
  flag('bootstrap-ids', 'string', '', 'accepted for compatibility (no peers)', true),
  flag('public-ip', 'string', '', 'accepted for compatibility', true),
  flag('staking-ephemeral-cert-enabled', 'bool', 'false', 'accepted for compatibility', true),
  flag('staking-ephemeral-signer-enabled', 'bool', 'false', 'accepted for compatibility', true),
  flag('staking-tls-cert-file', 'string', '', 'accepted for compatibility', true),
  flag('staking-tls-key-file', 'string', '', 'accepted for compatibility', true),
  flag('staking-signer-key-file', 'string', '', 'accepted for compatibility', true),
  flag(
    'chain-config-dir',
    'string',
    '$AVALANCHEGO_DATA_DIR/configs/chains',
    'chain configs: <dir>/<chain ID or alias>/config.json (EVM chains read eth-apis; the C-Chain its gas-target)',
  ),
  flag('chain-aliases-file', 'string', '$AVALANCHEGO_DATA_DIR/configs/chains/aliases.json', 'JSON map of blockchain ID to aliases'),
  flag('l1', 'paths', '', 'a Subnet-EVM genesis file to run as an L1, aliased by its base name (repeatable; not an avalanchego flag)'),
  flag('dev', 'bool', 'false', 'development node: turns the debug_* and txpool_* namespaces on for every EVM chain'),
  flag(
    'disable-console-log',
    'bool',
    'false',
    "with --dev, do not print what contracts send to console.sol's console.log (Anvil's --disable-console-log); not an avalanchego flag",
  ),
  flag('fork-url', 'string', '', "fork the C-Chain from this coreth JSON-RPC endpoint (http or https), as Anvil's --fork-url; not an avalanchego flag"),
  flag(
    'fork-l1',
    'paths',
    '',
    'an L1 forked from a Subnet-EVM endpoint, as name=url or name=url@block, aliased by its name (repeatable; not an avalanchego flag)',
  ),
  flag('fork-block-number', 'string', '', "the upstream's block to fork (default: its latest), as Anvil's --fork-block-number"),
  flag('fork-retries', 'uint', '5', "retries of a fork request on rate limits, 5xx, timeouts and connection resets (Anvil's --retries)"),
  flag('fork-retry-backoff', 'uint', '1000', "milliseconds before the first retry of a fork request, doubling at each (Anvil's --fork-retry-backoff)"),
  flag('fork-timeout', 'uint', '45000', "milliseconds a fork request may take (Anvil's --timeout)"),
  flag(
    'compute-units-per-second',
    'uint',
    '0',
    'pace fork requests at this many compute units a second, 20 a call (0: unpaced; Anvil only slows down once the upstream says it is rate limited)',
  ),
  flag('offline', 'bool', 'false', "run a fork from its cache only: the upstream is never called (Anvil's --offline)"),
  flag(
    'state-dir',
    'string',
    '$AVALANCHEGO_DATA_DIR/states',
    'the only directory emulator.dumpState writes and emulator.loadState reads; relative paths are under it (not an avalanchego flag)',
  ),
  flag('track-subnets', 'string', '', 'accepted for compatibility', true),
  flag('version', 'bool', 'false', 'print the version and exit'),
  flag('help', 'bool', 'false', 'print this help and exit'),
];

export const FLAG_BY_NAME = new Map(FLAGS.map((f) => [f.name, f]));

/** `flags`: pflag rejected the command line; `config`: a value parsed but is not valid (avalanchego's two stages). */
export class FlagError extends Error {
  constructor(
    message: string,
    readonly stage: 'flags' | 'config' = 'flags',
  ) {
    super(message);
  }
}

export type FlagValue = string | boolean | number | bigint | string[];

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Parses one value of a flag; `raw` is text from the command line or environment, or a JSON value from a file. */
export function parseFlagValue(spec: FlagSpec, raw: unknown): FlagValue {
  const text = typeof raw === 'string' ? raw : Array.isArray(raw) ? raw.join(',') : String(raw);
  const invalid = (why: string) => new FlagError(`invalid argument ${goQuote(text)} for "--${spec.name}" flag: ${why}`);
  const unusable = (why: string) => new FlagError(`invalid --${spec.name}: ${why}`, 'config');
  switch (spec.kind) {
    case 'bool':
      if (typeof raw === 'boolean') return raw;
      if (TRUE.has(text)) return true;
      if (FALSE.has(text)) return false;
      throw invalid(`strconv.ParseBool: parsing ${goQuote(text)}: invalid syntax`);
    case 'port':
    case 'uint': {
      if (!/^\d+$/.test(text)) throw invalid(`strconv.ParseUint: parsing ${goQuote(text)}: invalid syntax`);
      const n = Number(text);
      if (spec.kind === 'port' && n > 65535) throw invalid('port must be in [0, 65535]');
      return n;
    }
    case 'duration': {
      // A bare number in a config file is nanoseconds, as viper casts it.
      if (typeof raw === 'number') return BigInt(Math.trunc(raw));
      try {
        return parseDuration(text);
      } catch (err) {
        throw invalid((err as Error).message);
      }
    }
    case 'network':
      try {
        return parseNetworkId(text);
      } catch (err) {
        throw unusable((err as Error).message);
      }
    case 'level':
    case 'level?':
      if (spec.kind === 'level?' && text === '') return '';
      try {
        return parseLevel(text);
      } catch (err) {
        throw unusable((err as Error).message);
      }
    case 'db-type':
      if (text === 'leveldb' || text === 'memdb') return text;
      if (text === 'pebbledb') throw unusable('pebbledb is not supported by the emulator; use leveldb or memdb');
      throw unusable('db-type must be one of {leveldb, memdb}');
    case 'list':
      return Array.isArray(raw) ? raw.map(String) : text.split(/[,\s]+/).filter((s) => s !== '');
    case 'paths':
      // pflag's StringSlice: comma-separated (paths may hold spaces).
      return Array.isArray(raw) ? raw.map(String) : text.split(',').filter((s) => s !== '');
    case 'string':
      if (typeof raw !== 'string' && raw !== undefined) throw invalid('expected a string');
      return text;
  }
}

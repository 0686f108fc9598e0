// A Subnet-EVM chain's upgrade.json (params/extras/{precompile_upgrade,state_upgrade}.go), read from
// --chain-config-dir/<chain>/upgrade.json: precompiles enabled or disabled at later times, and state
// upgrades (code, storage, balance changes) applied by the first block past their time. Parsed and
// verified with subnet-evm's texts; each precompile's periods become windows [from, until).
// networkUpgradeOverrides are refused: the engine runs every upgrade through Granite from genesis.
import { GenesisError } from './genesis.js';
import { type PrecompileConfig, PrecompileConfigError } from './precompiles/config.js';

export interface StateUpgradeAccount {
  address: Uint8Array;
  code?: Uint8Array;
  storage: [Uint8Array, Uint8Array][];
  balanceChange: bigint;
}

export interface StateUpgrade {
  timestamp: number;
  accounts: StateUpgradeAccount[];
}

export interface ParsedUpgrades {
  /** Precompile periods, genesis ones first, each closed by a later disable. */
  precompiles: PrecompileConfig[];
  stateUpgrades: StateUpgrade[];
  /** The `upgrades` object eth_getChainConfig ends with. */
  json: Record<string, unknown>;
}

/** Builds a precompile config from its JSON (the genesis reader's, per key). */
export type PrecompileParser = (key: string, raw: Record<string, unknown>, timestamp: number | undefined) => PrecompileConfig;

const parseError = (why: string) => new GenesisError(`failed to parse upgrade bytes: ${why}`);
const verifyError = (why: string) => new GenesisError(`failed to verify genesis: ${why}`);

/** Kept here, unlike parseHex: geth's reading of a config's hex (odd digit counts, left-padded to `length`, this file's errors). */
const hexBytes = (v: unknown, what: string, length?: number): Uint8Array => {
  if (typeof v !== 'string' || !/^(0x)?[0-9a-fA-F]*$/.test(v)) throw parseError(`invalid ${what} ${JSON.stringify(v)}`);
  const digits = v.replace(/^0x/i, '');
  const b = Buffer.from(digits.length % 2 ? `0${digits}` : digits, 'hex');
  if (length === undefined) return new Uint8Array(b);
  if (b.length > length) throw parseError(`invalid ${what} ${JSON.stringify(v)}`);
  const out = new Uint8Array(length);
  out.set(b, length - b.length);
  return out;
};

export function parseUpgrades(bytes: Uint8Array | undefined, genesisPrecompiles: PrecompileConfig[], parse: PrecompileParser): ParsedUpgrades {
  const precompiles = [...genesisPrecompiles];
  if (!bytes || Buffer.from(bytes).toString('utf8').trim() === '') return { precompiles, stateUpgrades: [], json: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch (err) {
    throw parseError((err as Error).message);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw parseError('json: cannot unmarshal into Go value of type extras.UpgradeConfig');
  const u = raw as { precompileUpgrades?: unknown; stateUpgrades?: unknown; networkUpgradeOverrides?: unknown };
  const json: Record<string, unknown> = {};
  if (u.networkUpgradeOverrides !== undefined && u.networkUpgradeOverrides !== null && Object.keys(u.networkUpgradeOverrides as object).length > 0) {
    throw new GenesisError('networkUpgradeOverrides are not supported by the emulator: every upgrade through Granite is active from genesis');
  }
  const stateUpgrades = parseStateUpgrades(u.stateUpgrades);
  if (stateUpgrades.length > 0) json.stateUpgrades = stateUpgradesJson(u.stateUpgrades as Record<string, unknown>[]);

  const list = u.precompileUpgrades ?? [];
  if (!Array.isArray(list)) throw parseError('json: cannot unmarshal precompileUpgrades into Go value of type []extras.PrecompileUpgrade');
  // The state each key is in after genesis: enabled (with its time) or not.
  const last = new Map<string, { disabled: boolean; timestamp: number }>();
  for (const p of genesisPrecompiles) if (p.timestamp !== undefined && !p.disable) last.set(p.key, { disabled: false, timestamp: p.timestamp });
  const printed: Record<string, unknown>[] = [];
  let previous: number | undefined;
  for (const [i, entry] of list.entries()) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw parseError('PrecompileUpgrade cannot be empty');
    const keys = Object.keys(entry);
    if (keys.length === 0) throw parseError('PrecompileUpgrade cannot be empty');
    if (keys.length > 1) throw parseError(`PrecompileUpgrade must have exactly one key, got ${keys.length}`);
    const key = keys[0]!;
    const body = (entry as Record<string, unknown>)[key];
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw parseError(`unknown precompile config: ${key}`);
    const v = body as Record<string, unknown>;
    const timestamp = v.blockTimestamp;
    const where = `PrecompileUpgrade (${key}) at [${i}]`;
    if (timestamp === undefined || timestamp === null)
      throw verifyError(`invalid precompile upgrades: precompile upgrade block timestamp cannot be nil: ${where}`);
    if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0)
      throw parseError(`json: cannot unmarshal ${JSON.stringify(timestamp)} into Go struct field of type uint64`);
    if (previous !== undefined && timestamp < previous) {
      throw verifyError(
        `invalid precompile upgrades: precompile upgrade config block timestamp must be greater than or equal to previous timestamp: ${where} has timestamp ${timestamp}, previous timestamp ${previous}`,
      );
    }
    const before = last.get(key);
    const disabledBefore = before ? before.disabled : true;
    const disable = v.disable === true;
    if (disabledBefore === disable) {
      throw verifyError(`invalid precompile upgrades: precompile upgrade disable value is invalid: ${where}, disable should be ${!disabledBefore}`);
    }
    if (before && timestamp <= before.timestamp) {
      throw verifyError(
        `invalid precompile upgrades: precompile upgrade config block timestamp for same key must be strictly greater than previous timestamp: ${where} has timestamp ${timestamp}, previous timestamp ${before.timestamp}`,
      );
    }
    if (disable) {
      // Closes the key's open period.
      const open = [...precompiles].reverse().find((p) => p.key === key && p.until === undefined && !p.disable);
      if (open) open.until = timestamp;
      printed.push({ [key]: { blockTimestamp: timestamp, disable: true } });
    } else {
      let config: PrecompileConfig;
      try {
        config = parse(key, v, timestamp);
      } catch (err) {
        if (err instanceof PrecompileConfigError) throw verifyError(`invalid precompile upgrades: ${err.message}`);
        throw err;
      }
      precompiles.push(config);
      printed.push({ [key]: config.json });
    }
    last.set(key, { disabled: disable, timestamp });
    previous = timestamp;
  }
  if (printed.length > 0) json.precompileUpgrades = printed;
  return { precompiles, stateUpgrades, json };
}

function parseStateUpgrades(raw: unknown): StateUpgrade[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw parseError('json: cannot unmarshal stateUpgrades into Go value of type []extras.StateUpgrade');
  const out: StateUpgrade[] = [];
  let previous: number | undefined;
  for (const [i, entry] of raw.entries()) {
    const e = (entry ?? {}) as { blockTimestamp?: unknown; accounts?: Record<string, Record<string, unknown>> };
    if (e.blockTimestamp === undefined || e.blockTimestamp === null)
      throw verifyError(`invalid state upgrades: state upgrade config block timestamp cannot be nil: StateUpgrade[${i}]`);
    const t = e.blockTimestamp;
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0)
      throw parseError(`json: cannot unmarshal ${JSON.stringify(t)} into Go struct field of type uint64`);
    if (t === 0) throw verifyError(`invalid state upgrades: state upgrade config block timestamp must be greater than 0: StateUpgrade[${i}] has timestamp 0`);
    if (previous !== undefined && t <= previous) {
      throw verifyError(
        `invalid state upgrades: state upgrade config block timestamp must be greater than previous timestamp: StateUpgrade[${i}] has timestamp ${t}, previous timestamp ${previous}`,
      );
    }
    previous = t;
    const accounts = Object.entries(e.accounts ?? {}).map(([address, a]): StateUpgradeAccount => {
      const change = a.balanceChange;
      const balanceChange = change === undefined || change === null ? 0n : BigInt(String(change));
      return {
        address: hexBytes(address, 'address', 20),
        ...(a.code !== undefined && a.code !== null ? { code: hexBytes(a.code, 'code') } : {}),
        storage: Object.entries((a.storage as Record<string, unknown> | undefined) ?? {}).map(([k, v]): [Uint8Array, Uint8Array] => [
          hexBytes(k, 'storage key', 32),
          hexBytes(v, 'storage value', 32),
        ]),
        balanceChange,
      };
    });
    out.push({ timestamp: t, accounts });
  }
  return out;
}

/** State upgrades as eth_getChainConfig prints them: blockTimestamp, accounts{code, storage, balanceChange}. */
function stateUpgradesJson(raw: Record<string, unknown>[]): Record<string, unknown>[] {
  return raw.map((e) => ({
    blockTimestamp: e.blockTimestamp,
    accounts: Object.fromEntries(
      Object.entries((e.accounts as Record<string, Record<string, unknown>>) ?? {}).map(([a, acc]) => [
        `0x${a.replace(/^0x/i, '').toLowerCase()}`,
        {
          ...(acc.code !== undefined ? { code: acc.code } : {}),
          ...(acc.storage !== undefined ? { storage: acc.storage } : {}),
          ...(acc.balanceChange !== undefined ? { balanceChange: `0x${BigInt(String(acc.balanceChange)).toString(16)}` } : {}),
        },
      ]),
    ),
  }));
}

// The configs of Subnet-EVM's allow-list precompiles as a genesis (or later upgrade.json) gives them
// (precompile/allowlist/config.go, contracts/*/config.go): their roles, the minter's initial mint,
// verified with subnet-evm's texts; how eth_getChainConfig prints them; and what activating one
// writes (Configure): Enabled, then Admin, then Manager roles, then the initial mint.
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, setLengthLeft, toChecksumAddress } from '@ethereumjs/util';
import { type FeeConfig, FeeConfigError, feeConfigFromJson, feeConfigJson } from '../feewindow.js';
import { Role } from './allowlist.js';
import { feeConfigWrites } from './feemanager.js';
import { REWARD_SLOT, type RewardSetting, rewardWord } from './rewardmanager.js';
import { BLACKHOLE } from '../rules.js';
import { toHex0x } from '../../../encoding/bytes.js';

export class PrecompileConfigError extends Error {}

export interface AllowListConfig {
  admins: Uint8Array[];
  managers: Uint8Array[];
  enabled: Uint8Array[];
}

export interface PrecompileConfig extends AllowListConfig {
  key: string;
  address: Uint8Array;
  /** Unix seconds; undefined never activates. */
  timestamp: number | undefined;
  /** When a later upgrade disables it (unix seconds). */
  until?: number;
  disable: boolean;
  /** The native minter's initialMint: address -> amount. */
  initialMint: [Uint8Array, bigint][];
  /** The fee manager's fee config at activation: initialFeeConfig, or else the genesis one. */
  initialFeeConfig?: FeeConfig;
  /** The reward manager's setting at activation. */
  initialReward?: RewardSetting;
  /** As eth_getChainConfig prints it. */
  json: Record<string, unknown>;
}

function addresses(raw: unknown, key: string, field: string): Uint8Array[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new PrecompileConfigError(`json: cannot unmarshal into Go struct field ${key}.${field} of type []common.Address`);
  return raw.map((a) => {
    if (typeof a !== 'string' || !/^(0x)?[0-9a-fA-F]{40}$/.test(a))
      throw new PrecompileConfigError(`json: cannot unmarshal hex string ${JSON.stringify(a)} into Go value of type common.Address`);
    return new Uint8Array(Buffer.from(a.replace(/^0x/i, ''), 'hex'));
  });
}

/** AllowListConfig.Verify, its checks and texts in its order. */
function verifyAllowList(c: AllowListConfig, timestamp: number | undefined, durango: number): void {
  const lists: [Uint8Array[], string][] = [
    [c.enabled, 'enabled'],
    [c.admins, 'admin'],
    [c.managers, 'manager'],
  ];
  for (const [list, name] of lists) {
    const seen = new Set<string>();
    for (const a of list) {
      if (seen.has(toHex0x(a))) throw new PrecompileConfigError(`duplicate address in ${name} list: ${toChecksumAddress(toHex0x(a))}`);
      seen.add(toHex0x(a));
    }
  }
  const has = (list: Uint8Array[], a: Uint8Array) => list.some((b) => toHex0x(b) === toHex0x(a));
  for (const a of c.admins) {
    if (has(c.enabled, a)) throw new PrecompileConfigError(`cannot set address as both admin and enabled: ${toChecksumAddress(toHex0x(a))}`);
    if (has(c.managers, a)) throw new PrecompileConfigError(`cannot set address as both admin and manager: ${toChecksumAddress(toHex0x(a))}`);
  }
  for (const a of c.enabled) {
    if (has(c.managers, a)) throw new PrecompileConfigError(`cannot set address as both enabled and manager: ${toChecksumAddress(toHex0x(a))}`);
  }
  if (c.managers.length > 0 && (timestamp === undefined || timestamp < durango)) throw new PrecompileConfigError('cannot add managers before Durango');
}

/** An allow-list precompile's config (the deployer allow list, the tx allow list, the native minter). */
export function allowListPrecompile(
  key: string,
  address: string,
  raw: Record<string, unknown>,
  timestamp: number | undefined,
  durango: number,
): PrecompileConfig {
  const c: AllowListConfig = {
    admins: addresses(raw.adminAddresses, key, 'adminAddresses'),
    managers: addresses(raw.managerAddresses, key, 'managerAddresses'),
    enabled: addresses(raw.enabledAddresses, key, 'enabledAddresses'),
  };
  verifyAllowList(c, timestamp, durango);
  const initialMint: [Uint8Array, bigint][] = [];
  if (key === 'contractNativeMinterConfig' && raw.initialMint !== undefined && raw.initialMint !== null) {
    if (typeof raw.initialMint !== 'object' || Array.isArray(raw.initialMint))
      throw new PrecompileConfigError('json: cannot unmarshal initialMint into map[common.Address]*math.HexOrDecimal256');
    for (const [a, v] of Object.entries(raw.initialMint as Record<string, unknown>)) {
      const addr = new Uint8Array(Buffer.from(a.replace(/^0x/i, '').padStart(40, '0'), 'hex'));
      if (v === null || v === undefined)
        throw new PrecompileConfigError(`initial mint cannot contain nil amount for address ${toChecksumAddress(toHex0x(addr))}`);
      const text = String(v);
      if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(text)) throw new PrecompileConfigError(`invalid hex or decimal integer ${JSON.stringify(text)}`);
      const amount = BigInt(text);
      if (amount === 0n)
        throw new PrecompileConfigError(`initial mint cannot contain invalid amount: amount 0 for address ${toChecksumAddress(toHex0x(addr))}`);
      initialMint.push([addr, amount]);
    }
    initialMint.sort((x, y) => Buffer.compare(Buffer.from(x[0]), Buffer.from(y[0])));
  }
  const json: Record<string, unknown> = {};
  if (c.admins.length > 0) json.adminAddresses = c.admins.map(toHex0x);
  if (c.managers.length > 0) json.managerAddresses = c.managers.map(toHex0x);
  if (c.enabled.length > 0) json.enabledAddresses = c.enabled.map(toHex0x);
  json.blockTimestamp = timestamp ?? null;
  if (raw.disable === true) json.disable = true;
  if (initialMint.length > 0) json.initialMint = Object.fromEntries(initialMint.map(([a, v]) => [toHex0x(a), `0x${v.toString(16)}`]));
  return { key, address: new Uint8Array(Buffer.from(address, 'hex')), timestamp, disable: raw.disable === true, ...c, initialMint, json };
}

/** FeeManager's config: an allow list and its initialFeeConfig (verified; the genesis fee config without one). */
export function feeManagerPrecompile(
  address: string,
  raw: Record<string, unknown>,
  timestamp: number | undefined,
  durango: number,
  genesisFee: FeeConfig,
): PrecompileConfig {
  const c = allowListPrecompile('feeManagerConfig', address, raw, timestamp, durango);
  const initial = raw.initialFeeConfig;
  if (initial === undefined || initial === null) return { ...c, initialFeeConfig: genesisFee };
  if (typeof initial !== 'object' || Array.isArray(initial))
    throw new PrecompileConfigError('json: cannot unmarshal initialFeeConfig into Go struct field of type commontype.FeeConfig');
  let fee: FeeConfig;
  try {
    fee = feeConfigFromJson(initial as Record<string, unknown>);
  } catch (err) {
    if (err instanceof FeeConfigError) throw new PrecompileConfigError(err.message);
    throw err;
  }
  return { ...c, initialFeeConfig: fee, json: { ...c.json, initialFeeConfig: feeConfigJson(fee) } };
}

/** RewardManager's config: an allow list and its initialRewardConfig; without one, the chain's allowFeeRecipients decides. */
export function rewardManagerPrecompile(
  address: string,
  raw: Record<string, unknown>,
  timestamp: number | undefined,
  durango: number,
  allowFeeRecipients: boolean,
): PrecompileConfig {
  const c = allowListPrecompile('rewardManagerConfig', address, raw, timestamp, durango);
  const initial = raw.initialRewardConfig;
  if (initial === undefined || initial === null) {
    return { ...c, initialReward: allowFeeRecipients ? { kind: 'feeRecipients' } : { kind: 'address', address: BLACKHOLE } };
  }
  if (typeof initial !== 'object' || Array.isArray(initial))
    throw new PrecompileConfigError('json: cannot unmarshal initialRewardConfig into Go struct field of type rewardmanager.InitialRewardConfig');
  const r = initial as { allowFeeRecipients?: unknown; rewardAddress?: unknown };
  const allow = r.allowFeeRecipients === true;
  const rewardAddress = typeof r.rewardAddress === 'string' ? addresses([r.rewardAddress], 'initialRewardConfig', 'rewardAddress')[0]! : new Uint8Array(20);
  const hasAddress = rewardAddress.some((b) => b !== 0);
  if (allow && hasAddress) throw new PrecompileConfigError('cannot enable both fee recipients and reward address at the same time');
  const initialReward: RewardSetting = allow ? { kind: 'feeRecipients' } : { kind: 'address', address: hasAddress ? rewardAddress : BLACKHOLE };
  return { ...c, initialReward, json: { ...c.json, initialRewardConfig: { allowFeeRecipients: allow, rewardAddress: toHex0x(rewardAddress) } } };
}

/** A precompile with no config but its activation (coreth's warp). */
export function barePrecompile(key: string, address: string, timestamp: number, json: Record<string, unknown> = {}): PrecompileConfig {
  return { key, address: new Uint8Array(Buffer.from(address, 'hex')), timestamp, disable: false, admins: [], managers: [], enabled: [], initialMint: [], json };
}

/** Disabling a precompile: its account goes, storage and all (SelfDestruct, then Finalise). */
export async function deactivatePrecompile(sm: MerkleStateManager, c: PrecompileConfig): Promise<void> {
  await sm.deleteAccount(new Address(c.address));
}

/**
 * Activating a precompile (core/state_processor_ext.go ApplyPrecompileActivations): nonce 1 and code
 * 0x01, so that extcodesize sees a contract, then its Configure: the roles (Enabled, then Admin,
 * then Manager), then the initial mint.
 */
export async function activatePrecompile(sm: MerkleStateManager, c: PrecompileConfig, blockNumber: bigint): Promise<void> {
  const at = new Address(c.address);
  const existing = await sm.getAccount(at);
  await sm.putAccount(at, new Account(1n, existing?.balance ?? 0n, existing?.storageRoot));
  await sm.putCode(at, Uint8Array.of(1));
  const setRole = (a: Uint8Array, role: Role) => sm.putStorage(at, setLengthLeft(a, 32), Uint8Array.of(role));
  for (const a of c.enabled) await setRole(a, Role.Enabled);
  for (const a of c.admins) await setRole(a, Role.Admin);
  for (const a of c.managers) await setRole(a, Role.Manager);
  if (c.initialFeeConfig) for (const [slot, value] of feeConfigWrites(c.initialFeeConfig, blockNumber)) await sm.putStorage(at, slot, value);
  if (c.initialReward) await sm.putStorage(at, REWARD_SLOT, rewardWord(c.initialReward));
  for (const [a, amount] of c.initialMint) {
    const addr = new Address(a);
    const account = (await sm.getAccount(addr)) ?? new Account();
    account.balance += amount;
    await sm.putAccount(addr, account);
  }
}

// An EVM chain's config.json (in --chain-config-dir) as coreth and subnet-evm read it: its eth-apis,
// warp API and off-chain warp messages, gas target and fee recipient, and the emulator's own
// emulator-validators.
import { publicKeyOf } from '../components/warp/bls.js';
import type { HeldValidator } from './warp/signers.js';

/** coreth's and subnet-evm's default eth-apis. */
const DEFAULT_APIS = ['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction'];

export class ChainConfigError extends Error {}

/** The parts of coreth's chain config (`<chain-config-dir>/<chain>/config.json`) the emulator reads. */
export interface ChainConfig {
  apis: string[];
  /** preimages-enabled: keep the preimages of the state tries' keys (preimages.ts). */
  preimages: boolean;
  /** warp-api-enabled: the warp namespace on /rpc and /ws. */
  warpApi: boolean;
  gasTarget?: bigint;
  /** Subnet-EVM's feeRecipient: the coinbase of this node's blocks when the chain lets producers choose. */
  feeRecipient?: Uint8Array;
  /** emulator-validators (not a subnet-evm key): an L1's validators besides the node. */
  validators: HeldValidator[];
  /** allow-unprotected-txs and allow-unprotected-tx-hashes: which txs without EIP-155 replay protection eth_sendRawTransaction takes. */
  unprotected: UnprotectedTxs;
  /**
   * warp-off-chain-messages: unsigned warp messages the node signs though no block sent them (such as
   * the registry's addProtocolVersion), as decoded; warp/offchain.ts checks them when the chain starts.
   */
  offChainMessages: Uint8Array[];
}

/** Which unprotected (pre-EIP-155) txs a chain takes over RPC besides Nick's-method ones (coreth's UnprotectedAllowed). */
export interface UnprotectedTxs {
  all: boolean;
  /** Tx hashes, unprefixed lowercase hex. */
  hashes: ReadonlySet<string>;
}

/** coreth's default allow-unprotected-tx-hashes: the EIP-1820 registry's keyless deployment. */
const EIP1820_DEPLOYMENT = 'fefb2da535e927b85fe68eb81cb2e4a5827c905f78381a01ef2322aa9b0aee8e';
const DEFAULT_UNPROTECTED: UnprotectedTxs = { all: false, hashes: new Set([EIP1820_DEPLOYMENT]) };

/** An L1's emulator-validators as its chain config gives them (for the node's ConvertSubnetToL1Tx). */
export const l1ValidatorsFromConfig = (config: Uint8Array | undefined): HeldValidator[] => readChainConfig(config).validators;

export function readChainConfig(config: Uint8Array | undefined): ChainConfig {
  if (!config || config.length === 0)
    return { apis: DEFAULT_APIS, preimages: false, warpApi: false, validators: [], unprotected: DEFAULT_UNPROTECTED, offChainMessages: [] };
  const text = Buffer.from(config).toString('utf8');
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ChainConfigError(`failed to unmarshal config ${text.slice(0, 64)}: ${(err as Error).message}`);
  }
  const list = parsed['eth-apis'];
  const gasTarget = parsed['gas-target'];
  if (gasTarget !== undefined && gasTarget !== null && !(typeof gasTarget === 'number' && Number.isSafeInteger(gasTarget) && gasTarget >= 0)) {
    // encoding/json's text for a value that does not fit gas.Gas (a uint64).
    const kind = typeof gasTarget === 'number' ? `number ${gasTarget}` : typeof gasTarget === 'object' ? 'object' : typeof gasTarget;
    throw new ChainConfigError(
      `failed to unmarshal config ${text.slice(0, 64)}: json: cannot unmarshal ${kind} into Go struct field Config.gas-target of type gas.Gas`,
    );
  }
  const feeRecipient = parsed.feeRecipient;
  if (feeRecipient !== undefined && (typeof feeRecipient !== 'string' || !/^(0x)?[0-9a-fA-F]{40}$/.test(feeRecipient))) {
    throw new ChainConfigError(`failed to unmarshal config ${text.slice(0, 64)}: invalid feeRecipient ${JSON.stringify(feeRecipient)}`);
  }
  const preimages = parsed['preimages-enabled'] ?? false;
  if (typeof preimages !== 'boolean') {
    throw new ChainConfigError(
      `failed to unmarshal config ${text.slice(0, 64)}: json: cannot unmarshal ${jsonKind(preimages)} into Go struct field Config.preimages-enabled of type bool`,
    );
  }
  return {
    apis: Array.isArray(list) ? list.map(String) : DEFAULT_APIS,
    preimages,
    warpApi: parsed['warp-api-enabled'] === true,
    validators: readValidators(parsed['emulator-validators'], text),
    unprotected: readUnprotected(parsed, text),
    offChainMessages: readOffChainMessages(parsed['warp-off-chain-messages'], text),
    ...(typeof feeRecipient === 'string' ? { feeRecipient: new Uint8Array(Buffer.from(feeRecipient.replace(/^0x/i, ''), 'hex')) } : {}),
    ...(typeof gasTarget === 'number' ? { gasTarget: BigInt(gasTarget) } : {}),
  };
}

/** allow-unprotected-txs and allow-unprotected-tx-hashes (a list given replaces the default, as Go's decoder does). */
function readUnprotected(parsed: Record<string, unknown>, text: string): UnprotectedTxs {
  const bad = (key: string) => new ChainConfigError(`failed to unmarshal config ${text.slice(0, 64)}: invalid ${key}`);
  const all = parsed['allow-unprotected-txs'] ?? false;
  if (typeof all !== 'boolean') throw bad('allow-unprotected-txs');
  const list = parsed['allow-unprotected-tx-hashes'];
  if (list === undefined || list === null) return { all, hashes: DEFAULT_UNPROTECTED.hashes };
  if (!Array.isArray(list) || !list.every((h) => typeof h === 'string' && /^(0x)?[0-9a-fA-F]{64}$/.test(h))) throw bad('allow-unprotected-tx-hashes');
  return { all, hashes: new Set(list.map((h: string) => h.replace(/^0x/i, '').toLowerCase())) };
}

/**
 * warp-off-chain-messages, a []hexutil.Bytes: a list of 0x-hex strings (an empty one is allowed),
 * refused with encoding/json's and hexutil's texts. Only the JSON is checked here.
 */
function readOffChainMessages(raw: unknown, text: string): Uint8Array[] {
  if (raw === undefined || raw === null) return [];
  const field = 'Go struct field Config.warp-off-chain-messages';
  const bad = (what: string, type: string) =>
    new ChainConfigError(`failed to unmarshal config ${text.slice(0, 64)}: json: cannot unmarshal ${what} into ${field} of type ${type}`);
  if (!Array.isArray(raw)) throw bad(jsonKind(raw), '[]hexutil.Bytes');
  return raw.map((hex) => {
    if (typeof hex !== 'string') throw bad('non-string', 'hexutil.Bytes');
    if (hex === '') return new Uint8Array(0);
    if (!/^0[xX]/.test(hex)) throw bad('hex string without 0x prefix', 'hexutil.Bytes');
    const digits = hex.slice(2);
    if (digits.length % 2 !== 0) throw bad('hex string of odd length', 'hexutil.Bytes');
    if (!/^[0-9a-fA-F]*$/.test(digits)) throw bad('invalid hex string', 'hexutil.Bytes');
    return new Uint8Array(Buffer.from(digits, 'hex'));
  });
}

/** How encoding/json names a JSON value of the wrong kind. */
const jsonKind = (v: unknown): string => (typeof v === 'boolean' ? 'bool' : typeof v === 'number' ? 'number' : typeof v === 'string' ? 'string' : 'object');

/**
 * emulator-validators: [{ "nodeID": "NodeID-…", "weight": 100, "blsSecretKey": "0x<32 bytes>",
 * "offline": false }]: validators of an L1 besides the node, each with its own BLS key, so that warp
 * quorums and weights can be tested. An offline one keeps its weight and signs nothing.
 */
function readValidators(raw: unknown, text: string): HeldValidator[] {
  if (raw === undefined || raw === null) return [];
  const bad = (why: string) => new ChainConfigError(`failed to unmarshal config ${text.slice(0, 64)}: emulator-validators: ${why}`);
  if (!Array.isArray(raw)) throw bad('not an array');
  return raw.map((v, i) => {
    const o = (v ?? {}) as { nodeID?: unknown; weight?: unknown; blsSecretKey?: unknown; offline?: unknown };
    if (typeof o.nodeID !== 'string' || !/^NodeID-[1-9A-HJ-NP-Za-km-z]+$/.test(o.nodeID)) throw bad(`[${i}].nodeID must be a NodeID-… string`);
    if (typeof o.weight !== 'number' || !Number.isSafeInteger(o.weight) || o.weight <= 0) throw bad(`[${i}].weight must be a positive integer`);
    if (typeof o.blsSecretKey !== 'string' || !/^(0x)?[0-9a-fA-F]{64}$/.test(o.blsSecretKey)) throw bad(`[${i}].blsSecretKey must be 32 bytes of hex`);
    const secretKey = new Uint8Array(Buffer.from(o.blsSecretKey.replace(/^0x/i, ''), 'hex'));
    try {
      publicKeyOf(secretKey);
    } catch {
      throw bad(`[${i}].blsSecretKey is not a BLS12-381 secret key`);
    }
    return { nodeID: o.nodeID, weight: BigInt(o.weight), secretKey, ...(o.offline === true ? { offline: true } : {}) };
  });
}

export function namespaces(apis: string[], dev: boolean): Set<string> {
  const on = new Set<string>();
  if (apis.some((a) => a === 'eth' || a.startsWith('internal-'))) on.add('eth');
  if (apis.includes('net')) on.add('net');
  if (apis.includes('web3')) on.add('web3');
  // coreth's three debug APIs: the tracers, ethapi's raw getters, eth/api_debug.go's.
  for (const name of ['debug-tracer', 'debug-file-tracer', 'internal-debug', 'debug']) if (apis.includes(name) || dev) on.add(name);
  if (apis.includes('internal-tx-pool') || dev) on.add('txpool');
  return on;
}

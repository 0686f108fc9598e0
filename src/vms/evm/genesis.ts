// An EVM chain's genesis block as coreth and Subnet-EVM build it (core/genesis.go toBlock, plugin/evm
// parseGenesis) for a chain whose upgrades are all active at its genesis time, as on the local
// network: the alloc's accounts (balance, nonce, code, storage) written into the chain's state, the
// stubs of the precompiles active at genesis (nonce 1, code 0x01), then the header: coreth's with the
// AP3 initial base fee and a zero ExtDataHash; Subnet-EVM's with the genesis base fee or else the
// fee config's minimum; both with Cancun's and Granite's fields. Notes: docs/research/cchain.md §2,
// ../shared/reference/subnet-evm.md §5.
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address } from '@ethereumjs/util';
import { type CorethHeader, EMPTY_ROOT, EMPTY_UNCLES, type HeaderLayout } from './header.js';

/** ap3.InitialBaseFee: 225 gwei. */
const AP3_INITIAL_BASE_FEE = 225_000_000_000n;
/** ACP-226's initial MinDelayExcess. */
const INITIAL_MIN_DELAY_EXCESS = 7_970_124n;

export interface GenesisAlloc {
  balance?: string;
  nonce?: string;
  code?: string;
  storage?: Record<string, string>;
}

export interface GenesisJson {
  config: Record<string, unknown> & { chainId?: number };
  timestamp?: string;
  extraData?: string;
  gasLimit?: string;
  difficulty?: string;
  mixHash?: string;
  coinbase?: string;
  nonce?: string;
  baseFeePerGas?: string;
  alloc?: Record<string, GenesisAlloc>;
}

export class GenesisError extends Error {}

/** Kept here, unlike parseHex: genesis fields with GenesisError's text, absent as empty, left-padded to `length`. */
const bytes = (hex: string | undefined, length?: number): Uint8Array => {
  const text = (hex ?? '0x').replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]*$/.test(text) || text.length % 2 !== 0) throw new GenesisError(`invalid hex string ${JSON.stringify(hex)}`);
  const b = Buffer.from(text, 'hex');
  if (length === undefined || b.length === length) return new Uint8Array(b);
  if (b.length > length) throw new GenesisError(`hex string ${JSON.stringify(hex)} is longer than ${length} bytes`);
  const out = new Uint8Array(length);
  out.set(b, length - b.length);
  return out;
};

/** A genesis quantity: hex (0x...) or decimal, as math.HexOrDecimal256 / HexOrDecimal64 read them. */
export function genesisQuantity(v: string | number | undefined, field: string): bigint {
  if (v === undefined || v === '' || v === '0x') return 0n;
  const text = String(v);
  if (/^0x[0-9a-fA-F]+$/i.test(text) || /^\d+$/.test(text)) return BigInt(text);
  // libevm's common/math ParseUint64/ParseBig256.
  throw new GenesisError(`parsing genesis: invalid hex or decimal integer ${JSON.stringify(text)} (${field})`);
}

export function parseGenesisJson(text: string): GenesisJson {
  let g: unknown;
  try {
    g = JSON.parse(text);
  } catch (err) {
    throw new GenesisError(`failed to unmarshal genesis: ${(err as Error).message}`);
  }
  if (typeof g !== 'object' || g === null || Array.isArray(g)) throw new GenesisError('failed to unmarshal genesis: not a JSON object');
  const json = g as GenesisJson;
  // gen_genesis.go: the fields without a default.
  for (const key of ['gasLimit', 'difficulty', 'alloc'] as const) {
    if (json[key] === undefined || json[key] === null) throw new GenesisError(`parsing genesis: missing required field '${key}' for Genesis`);
  }
  if (typeof json.config !== 'object' || json.config === null) throw new GenesisError('parsing genesis: missing chain configuration');
  if (typeof json.config.chainId !== 'number') throw new GenesisError('parsing genesis: the chain configuration has no chainId');
  return json;
}

/** Writes the alloc into the genesis state, after the precompiles it may replace (Genesis.toBlock's order). */
export async function writeGenesisAlloc(sm: MerkleStateManager, g: GenesisJson): Promise<void> {
  for (const [address, a] of Object.entries(g.alloc ?? {})) {
    const addr = new Address(bytes(address, 20));
    await sm.putAccount(addr, new Account(genesisQuantity(a.nonce, 'nonce'), genesisQuantity(a.balance, 'balance')));
    const code = bytes(a.code);
    if (code.length > 0) await sm.putCode(addr, code);
    for (const [k, v] of Object.entries(a.storage ?? {})) await sm.putStorage(addr, bytes(k, 32), bytes(v, 32));
  }
}

/** The upgrades active at the genesis time, which decide the header's optional fields. */
export interface GenesisRules {
  /** Etna (Cancun): blockGasCost 0, the blob fields and the beacon root. */
  etna: boolean;
  /** Granite: the time in milliseconds and ACP-226's min delay excess. */
  granite: boolean;
  /** Subnet-EVM: the base fee when the genesis names none. */
  minBaseFee?: bigint;
}

/** The genesis header over a state root. */
export function genesisHeader(g: GenesisJson, layout: HeaderLayout, stateRoot: Uint8Array, rules: GenesisRules): CorethHeader {
  const time = genesisQuantity(g.timestamp, 'timestamp');
  const h: CorethHeader = {
    parentHash: new Uint8Array(32),
    uncleHash: EMPTY_UNCLES,
    coinbase: bytes(g.coinbase, 20),
    stateRoot,
    txHash: EMPTY_ROOT,
    receiptHash: EMPTY_ROOT,
    bloom: new Uint8Array(256),
    difficulty: genesisQuantity(g.difficulty, 'difficulty'),
    number: 0n,
    gasLimit: genesisQuantity(g.gasLimit, 'gasLimit'),
    gasUsed: 0n,
    time,
    extra: bytes(g.extraData),
    mixDigest: bytes(g.mixHash, 32),
    nonce: bytes(g.nonce === undefined ? undefined : `0x${genesisQuantity(g.nonce, 'nonce').toString(16).padStart(16, '0')}`, 8),
  };
  if (layout === 'coreth') {
    h.extDataHash = new Uint8Array(32);
    h.baseFee = AP3_INITIAL_BASE_FEE;
    h.extDataGasUsed = 0n;
  } else {
    h.baseFee = g.baseFeePerGas === undefined ? (rules.minBaseFee ?? 0n) : genesisQuantity(g.baseFeePerGas, 'baseFeePerGas');
  }
  if (rules.etna) {
    h.blockGasCost = 0n;
    h.blobGasUsed = 0n;
    h.excessBlobGas = 0n;
    h.parentBeaconRoot = new Uint8Array(32);
  }
  if (rules.granite) {
    h.timeMilliseconds = time * 1000n;
    h.minDelayExcess = INITIAL_MIN_DELAY_EXCESS;
  }
  return h;
}

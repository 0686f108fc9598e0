// An EVM chain's genesis block as coreth builds it (core/genesis.go toBlock, plugin/evm parseGenesis)
// for a chain whose upgrades are all active at its genesis time, as on the local network: the
// alloc's accounts plus the warp precompile's stub (Durango activates it at genesis: nonce 1, code
// 0x01), the AP3 initial base fee, Cancun's and Granite's header fields. Notes: docs/research/cchain.md §2.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { type CorethHeader, EMPTY_ROOT, EMPTY_UNCLES, headerHash } from './header.js';
import { type Account, stateRoot } from './state.js';

/** ap3.InitialBaseFee: 225 gwei. */
const AP3_INITIAL_BASE_FEE = 225_000_000_000n;
/** ACP-226's initial MinDelayExcess. */
const INITIAL_MIN_DELAY_EXCESS = 7_970_124n;
const WARP_ADDRESS = Buffer.from('0200000000000000000000000000000000000005', 'hex');

interface GenesisJson {
  config: { chainId: number };
  timestamp?: string;
  extraData?: string;
  gasLimit?: string;
  difficulty?: string;
  mixHash?: string;
  coinbase?: string;
  nonce?: string;
  alloc: Record<string, { balance?: string; nonce?: string; code?: string }>;
}

const bytes = (hex: string | undefined, length?: number): Uint8Array => {
  const b = Buffer.from((hex ?? '0x').replace(/^0x/, ''), 'hex');
  if (length === undefined || b.length === length) return new Uint8Array(b);
  const out = new Uint8Array(length);
  out.set(b, length - b.length);
  return out;
};
const quantity = (hex: string | undefined): bigint => (hex === undefined || hex === '0x' ? 0n : BigInt(hex));

export interface EvmGenesis {
  chainId: number;
  header: CorethHeader;
  hash: Uint8Array;
  accounts: Map<string, Account>;
}

export async function genesisBlock(json: string): Promise<EvmGenesis> {
  const g = JSON.parse(json) as GenesisJson;
  const accounts = new Map<string, Account>();
  for (const [address, a] of Object.entries(g.alloc)) {
    const code = bytes(a.code);
    accounts.set(Buffer.from(bytes(address, 20)).toString('hex'), {
      balance: quantity(a.balance),
      nonce: quantity(a.nonce),
      ...(code.length > 0 ? { codeHash: keccak_256(code) } : {}),
    });
  }
  accounts.set(WARP_ADDRESS.toString('hex'), { nonce: 1n, codeHash: keccak_256(Uint8Array.of(1)) });
  const root = await stateRoot([...accounts].map(([address, account]) => [Buffer.from(address, 'hex'), account]));
  const time = quantity(g.timestamp);
  const header: CorethHeader = {
    parentHash: new Uint8Array(32),
    uncleHash: EMPTY_UNCLES,
    coinbase: bytes(g.coinbase, 20),
    stateRoot: root,
    txHash: EMPTY_ROOT,
    receiptHash: EMPTY_ROOT,
    bloom: new Uint8Array(256),
    difficulty: quantity(g.difficulty),
    number: 0n,
    gasLimit: quantity(g.gasLimit),
    gasUsed: 0n,
    time,
    extra: bytes(g.extraData),
    mixDigest: bytes(g.mixHash, 32),
    nonce: bytes(g.nonce === '0x0' ? undefined : g.nonce, 8),
    extDataHash: new Uint8Array(32),
    baseFee: AP3_INITIAL_BASE_FEE,
    extDataGasUsed: 0n,
    blockGasCost: 0n,
    blobGasUsed: 0n,
    excessBlobGas: 0n,
    parentBeaconRoot: new Uint8Array(32),
    timeMilliseconds: time * 1000n,
    minDelayExcess: INITIAL_MIN_DELAY_EXCESS,
  };
  return { chainId: g.config.chainId, header, hash: headerHash(header), accounts };
}

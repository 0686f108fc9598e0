// What the Data API says about a token or contract, read from the contract itself at the head:
// name(), symbol(), decimals(), tokenURI(id), uri(id), ownerOf(id), and its ERC type from ERC-165
// supportsInterface (ERC-721, ERC-1155) or the ERC-20 reads. No network: no logos, prices or NFT
// metadata fetched from a token URI.
import { keccakText } from '../../crypto/keccak.js';
import { call, type EvmChain } from '../../vms/evm/index.js';

const selector = (signature: string) => keccakText(signature).subarray(0, 4);
const word = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

async function read(chain: EvmChain, to: Uint8Array, data: Uint8Array): Promise<Buffer | undefined> {
  try {
    const out = await call(chain, chain.head, { to, data, gas: 1_000_000n });
    return Buffer.from(out);
  } catch {
    return undefined;
  }
}

/** An ABI-encoded string (or, as some old tokens answer, a bytes32). */
function abiString(out: Buffer | undefined): string | undefined {
  if (!out || out.length < 32) return undefined;
  if (out.length === 32) return out.toString('utf8').replace(/\0+$/, '');
  const offset = Number(out.readBigUInt64BE(24));
  if (offset + 32 > out.length) return undefined;
  const length = Number(out.readBigUInt64BE(offset + 24));
  if (offset + 32 + length > out.length) return undefined;
  return out.subarray(offset + 32, offset + 32 + length).toString('utf8');
}

const uint = (out: Buffer | undefined): bigint | undefined => (out && out.length >= 32 ? BigInt(`0x${out.subarray(0, 32).toString('hex')}`) : undefined);

export type ErcType = 'ERC-20' | 'ERC-721' | 'ERC-1155' | 'UNKNOWN';

export interface TokenInfo {
  ercType: ErcType;
  name?: string;
  symbol?: string;
  decimals?: number;
}

export async function supportsInterface(chain: EvmChain, to: Uint8Array, id: string): Promise<boolean> {
  const out = await read(chain, to, Buffer.concat([selector('supportsInterface(bytes4)'), Buffer.from(id.padEnd(64, '0'), 'hex')]));
  return uint(out) === 1n;
}

/** The contract's ERC type and its name, symbol and decimals where it answers them. */
export async function tokenInfo(chain: EvmChain, to: Uint8Array): Promise<TokenInfo> {
  const name = abiString(await read(chain, to, selector('name()')));
  const symbol = abiString(await read(chain, to, selector('symbol()')));
  const base = { ...(name !== undefined ? { name } : {}), ...(symbol !== undefined ? { symbol } : {}) };
  if (await supportsInterface(chain, to, '80ac58cd')) return { ercType: 'ERC-721', ...base };
  if (await supportsInterface(chain, to, 'd9b67a26')) return { ercType: 'ERC-1155', ...base };
  const decimals = uint(await read(chain, to, selector('decimals()')));
  const supply = await read(chain, to, selector('totalSupply()'));
  if (decimals !== undefined && decimals < 256n && supply !== undefined) return { ercType: 'ERC-20', ...base, decimals: Number(decimals) };
  return { ercType: 'UNKNOWN', ...base };
}

export async function tokenUri(chain: EvmChain, to: Uint8Array, kind: 'ERC-721' | 'ERC-1155', id: bigint): Promise<string> {
  const sig = kind === 'ERC-721' ? 'tokenURI(uint256)' : 'uri(uint256)';
  return abiString(await read(chain, to, Buffer.concat([selector(sig), word(id)]))) ?? '';
}

export async function ownerOf(chain: EvmChain, to: Uint8Array, id: bigint): Promise<Uint8Array | undefined> {
  const out = await read(chain, to, Buffer.concat([selector('ownerOf(uint256)'), word(id)]));
  return out && out.length >= 32 ? out.subarray(12, 32) : undefined;
}

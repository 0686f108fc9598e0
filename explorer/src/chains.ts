// The node's chains, as the explorer names and links them: the P-Chain, the X-Chain, the C-Chain and
// every other blockchain the P-Chain knows (the L1s), with their EVM chain IDs and native tokens.
import { getJson, rpc, tryRpc } from './api.js';
import { hexNum } from './format.js';

export const P_CHAIN_ID = '11111111111111111111111111111111LpoYY';
export const PRIMARY_SUBNET = P_CHAIN_ID;

export interface Chain {
  id: string;
  /** In links: P, X, C, the L1's alias, or its ID. */
  key: string;
  name: string;
  kind: 'P' | 'X' | 'C' | 'L1';
  subnetID: string;
  vmID: string;
  evmChainId?: number;
  /** JSON-RPC path: /ext/bc/P, /ext/bc/X, /ext/bc/<id>/rpc. */
  rpc: string;
  symbol: string;
}

let cached: { at: number; chains: Promise<Chain[]> } | undefined;

/** The chains, read again at most every 5 s (an L1 may appear at any time). */
export function chains(): Promise<Chain[]> {
  if (!cached || Date.now() - cached.at > 5000) {
    const previous = cached;
    const chainsNow = load().catch((err) => {
      if (previous) return previous.chains;
      throw err;
    });
    cached = { at: Date.now(), chains: chainsNow };
  }
  return cached.chains;
}

const known = new Map<string, Chain>();

async function load(): Promise<Chain[]> {
  const { blockchains } = await rpc('/ext/bc/P', 'platform.getBlockchains');
  const list: Chain[] = [
    { id: P_CHAIN_ID, key: 'P', name: 'P-Chain', kind: 'P', subnetID: PRIMARY_SUBNET, vmID: 'platformvm', rpc: '/ext/bc/P', symbol: 'AVAX' },
  ];
  for (const b of blockchains as Array<{ id: string; name: string; subnetID: string; vmID: string }>) {
    const seen = known.get(b.id);
    if (seen) {
      list.push(seen);
      continue;
    }
    let chain: Chain;
    if (b.name === 'X-Chain' && b.subnetID === PRIMARY_SUBNET) {
      chain = { id: b.id, key: 'X', name: 'X-Chain', kind: 'X', subnetID: b.subnetID, vmID: b.vmID, rpc: '/ext/bc/X', symbol: 'AVAX' };
    } else {
      const isC = b.name === 'C-Chain' && b.subnetID === PRIMARY_SUBNET;
      const alias = isC ? 'C' : (await tryRpc('/ext/info', 'info.getBlockchainID', { alias: b.name }))?.blockchainID === b.id ? b.name : b.id;
      const path = `/ext/bc/${isC ? 'C' : b.id}/rpc`;
      const id = await tryRpc(path, 'eth_chainId', []);
      let symbol = isC ? 'AVAX' : 'native';
      if (!isC && id) symbol = (await getJson(`/v1/chains/${b.id}`).catch(() => undefined))?.networkToken?.symbol ?? symbol;
      // The Data API names an L1's token after the chain's alias; a chain without one gets its ID's start.
      if (!isC && b.id.toUpperCase().startsWith(symbol)) symbol = b.name.toUpperCase();
      chain = { id: b.id, key: alias, name: b.name, kind: isC ? 'C' : 'L1', subnetID: b.subnetID, vmID: b.vmID, rpc: path, symbol };
      if (id) chain.evmChainId = hexNum(id);
      else if (!isC) continue;
    }
    known.set(b.id, chain);
    list.push(chain);
  }
  const order = { P: 0, X: 1, C: 2, L1: 3 };
  return list.sort((a, b) => order[a.kind] - order[b.kind] || a.name.localeCompare(b.name));
}

/** A chain by its key, alias, name, blockchain ID or EVM chain ID (case-insensitive for names). */
export async function findChain(ref: string): Promise<Chain | undefined> {
  const all = await chains();
  const lower = ref.toLowerCase();
  return all.find(
    (c) =>
      c.key === ref ||
      c.id === ref ||
      c.name.toLowerCase() === lower ||
      c.key.toLowerCase() === lower ||
      String(c.evmChainId) === ref ||
      (c.kind !== 'L1' && `${c.kind.toLowerCase()}-chain` === lower),
  );
}

export const isEvm = (c: Chain) => c.evmChainId !== undefined;

// The EVM chains the Data API answers for, and how each presents itself (getChainInfo): the
// C-Chain as the hosted API presents it, an L1 by its name, both with the node's own RPC URLs.
import type { EvmChain } from '../../vms/evm/index.js';
import { notFound } from '../errors.js';
import type { EvmFollower } from './follower.js';

export interface EvmSource {
  blockchainID: string;
  subnetID: string;
  vmID: string;
  /** The chain's primary alias: C, or an L1's name. */
  alias: string;
  evm: EvmChain;
  follower: EvmFollower;
}

export interface NativeToken {
  name: string;
  symbol: string;
  decimals: number;
}

export const isCChain = (s: EvmSource) => s.alias === 'C';

/**
 * The chain's native token. The C-Chain's is AVAX; an L1's symbol lives outside its genesis
 * (avalanche-cli keeps it in its sidecar), so the token is named after the chain.
 */
export function nativeToken(s: EvmSource): NativeToken {
  if (isCChain(s)) return { name: 'Avalanche', symbol: 'AVAX', decimals: 18 };
  return {
    name: `${s.alias} token`,
    symbol:
      s.alias
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '')
        .slice(0, 11) || 'TOKEN',
    decimals: 18,
  };
}

/** A chain by EVM chain ID (decimal) or blockchain ID, as the contract's `chainId` allows; or an alias. */
export function findChain(sources: EvmSource[], chainId: string): EvmSource {
  const s = sources.find((x) => String(x.evm.chainId) === chainId || x.blockchainID === chainId || x.alias === chainId);
  if (!s) throw notFound(`chain ${chainId} is not a chain of this node`);
  return s;
}

export function chainInfo(s: EvmSource, origin: string): Record<string, unknown> {
  const token = nativeToken(s);
  const ws = origin.replace(/^http/, 'ws');
  return {
    chainId: String(s.evm.chainId),
    status: 'OK',
    chainName: isCChain(s) ? 'Avalanche (C-Chain)' : s.alias,
    description: isCChain(s) ? "The local network's C-Chain" : `The L1 ${s.alias} of the local network`,
    platformChainId: s.blockchainID,
    subnetId: s.subnetID,
    vmId: s.vmID,
    vmName: 'EVM',
    rpcUrl: `${origin}/ext/bc/${s.blockchainID}/rpc`,
    wsUrl: `${ws}/ext/bc/${s.blockchainID}/ws`,
    isTestnet: true,
    networkToken: { ...token, description: isCChain(s) ? 'AVAX is the native token of the Avalanche C-Chain.' : `The native token of ${s.alias}.` },
    private: false,
  };
}

// The primary network's genesis as avalanchego derives it for any network ID other than mainnet and
// fuji: the local config with the network ID swapped in. The X-Chain's genesis holds one tx, the
// AVAX CreateAssetTx; the X and C chain IDs are the IDs of the P-Chain genesis CreateChainTxs,
// which embed the network ID and each chain's genesis bytes.
import { sha256 } from '@noble/hashes/sha2.js';
import { marshalUnsignedTx, outputSortKey, compareBytes } from '../vms/avm/codec/index.js';
import type { Output, UnsignedTx } from '../vms/avm/types.js';
import { LOCAL_C_CHAIN_GENESIS } from './cchain.js';
import { u16, u32 } from '../encoding/bytes.js';
import { VM_IDS } from '../chains/ids.js';

const hex = (s: string) => Buffer.from(s, 'hex');
const padded = (name: string) => {
  const b = Buffer.alloc(32);
  b.write(name, 'ascii');
  return b;
};

/** genesis_local.json X allocations with an initial amount, by (amount, address) as avalanchego sorts them. */
const X_ALLOCATIONS = [
  { address: hex('e0cfe8cae22827d032805ded484e393ce51cbedb'), amount: 10_000_000_000_000_000n }, // X-local1ur873…
  { address: hex('3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c'), amount: 300_000_000_000_000_000n }, // ewoq
];
/** Every local allocation shares one ETH address; each X allocation appends it to the memo. */
const ALLOCATION_ETH_ADDRESS = hex('b3d82b1367d362de99ab59a658165aff520cbd4d');

export function avaxGenesisTx(networkID: number): Extract<UnsignedTx, { type: 1 }> {
  const outputs: Output[] = X_ALLOCATIONS.map((a) => ({ type: 7, amount: a.amount, owners: { locktime: 0n, threshold: 1, addresses: [a.address] } }));
  outputs.sort((a, b) => compareBytes(outputSortKey(a), outputSortKey(b)));
  return {
    type: 1,
    base: { networkID, blockchainID: new Uint8Array(32), outputs: [], inputs: [], memo: Buffer.concat(X_ALLOCATIONS.map(() => ALLOCATION_ETH_ADDRESS)) },
    name: Buffer.from('Avalanche'),
    symbol: Buffer.from('AVAX'),
    denomination: 9,
    initialStates: [{ fxIndex: 0, outputs }],
  };
}

/** The X-Chain genesis bytes (genesis codec): one asset, alias "AVAX", its CreateAssetTx fields inline. */
export function xGenesisBytes(networkID: number): Uint8Array {
  const fields = marshalUnsignedTx(avaxGenesisTx(networkID)).subarray(6); // without version and type ID
  return Buffer.concat([u16(0), u32(1), u16(4), Buffer.from('AVAX'), fields]);
}

const CREATE_CHAIN_TX = 15; // platformvm codec
const P_SECP_INPUT = 10; // secp256k1fx.Input in the platformvm codec (SubnetAuth)

/** ID of a primary-network CreateChainTx in the P genesis (unsigned, no credentials). */
function createChainTxId(networkID: number, name: string, vm: string, fxs: string[], genesis: Uint8Array): string {
  const bytes = Buffer.concat([
    u16(0),
    u32(CREATE_CHAIN_TX),
    u32(networkID),
    Buffer.alloc(32),
    u32(0),
    u32(0),
    u32(0),
    Buffer.alloc(32),
    u16(name.length),
    Buffer.from(name),
    padded(vm),
    u32(fxs.length),
    ...fxs.map(padded),
    u32(genesis.length),
    genesis,
    u32(P_SECP_INPUT),
    u32(0),
    u32(0),
  ]);
  return Buffer.from(sha256(bytes)).toString('hex');
}

export interface PrimaryNetworkIds {
  xChainId: Uint8Array;
  cChainId: Uint8Array;
}

/** A chain of the primary network as its genesis declares it. */
export interface GenesisChain {
  chainID: Uint8Array;
  vmID: string;
  genesis: Uint8Array;
  /** Its genesis aliases, primary first. */
  aliases: string[];
}

/** The primary network's chains in creation order: P, X, C. */
export function primaryNetworkChains(networkID: number): GenesisChain[] {
  const { xChainId, cChainId } = primaryNetworkIds(networkID);
  return [
    // The P-Chain's genesis (validators, allocations) is not reproduced: it builds no blocks yet.
    { chainID: new Uint8Array(32), vmID: VM_IDS.platform, genesis: new Uint8Array(), aliases: ['P', 'platform'] },
    { chainID: xChainId, vmID: VM_IDS.avm, genesis: xGenesisBytes(networkID), aliases: ['X', 'avm'] },
    { chainID: cChainId, vmID: VM_IDS.evm, genesis: Buffer.from(LOCAL_C_CHAIN_GENESIS), aliases: ['C', 'evm'] },
  ];
}

export function primaryNetworkIds(networkID: number): PrimaryNetworkIds {
  return {
    xChainId: hex(createChainTxId(networkID, 'X-Chain', 'avm', ['secp256k1fx', 'nftfx', 'propertyfx'], xGenesisBytes(networkID))),
    cChainId: hex(createChainTxId(networkID, 'C-Chain', 'evm', [], Buffer.from(LOCAL_C_CHAIN_GENESIS))),
  };
}

/**
 * P-Chain genesis start time: the local start time rolled forward by whole 270-day periods at
 * process start, as avalanchego does for the local config (it is the P-Chain's chain time until
 * its first block).
 */
export function localGenesisStartTime(nowSeconds = Math.floor(Date.now() / 1000)): number {
  const period = 270 * 24 * 3600;
  let start = 1721016000;
  while (start + period <= nowSeconds) start += period;
  return start;
}

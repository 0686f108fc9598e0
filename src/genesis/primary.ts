// The primary network's genesis as avalanchego derives it for any network ID other than mainnet and
// fuji: the local config with the network ID swapped in. The X-Chain's genesis holds one tx, the
// AVAX CreateAssetTx; the X and C chain IDs are the IDs of the P-Chain genesis CreateChainTxs,
// which embed the network ID and each chain's genesis bytes.
import { buildTx, compareBytes, marshalUnsignedTx, type Output, outputSortKey, type UnsignedTx } from '../vms/avm/index.js';
import { LOCAL_C_CHAIN_GENESIS } from './cchain.js';
import { u16, u32 } from '../encoding/bytes.js';
import { marshalGenesis, type PGenesis } from '../vms/platform/index.js';
import { type GenesisChainDef, localPlatformGenesis } from './platform.js';
import { VM_IDS } from '../chains/ids.js';

/** genesis_local.json X allocations with an initial amount, by (amount, address) as avalanchego sorts them. */
const X_ALLOCATIONS = [
  { address: Buffer.from('e0cfe8cae22827d032805ded484e393ce51cbedb', 'hex'), amount: 10_000_000_000_000_000n }, // X-local1ur873…
  { address: Buffer.from('3cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c', 'hex'), amount: 300_000_000_000_000_000n }, // ewoq
];
/** Every local allocation shares one ETH address; each X allocation appends it to the memo. */
const ALLOCATION_ETH_ADDRESS = Buffer.from('b3d82b1367d362de99ab59a658165aff520cbd4d', 'hex');

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

/** The primary network's chains as the P-Chain genesis creates them, X then C. */
export function primaryChainDefs(networkID: number): GenesisChainDef[] {
  return [
    { name: 'X-Chain', vm: 'avm', fxs: ['secp256k1fx', 'nftfx', 'propertyfx'], genesis: xGenesisBytes(networkID) },
    { name: 'C-Chain', vm: 'evm', fxs: [], genesis: new Uint8Array(Buffer.from(LOCAL_C_CHAIN_GENESIS)) },
  ];
}

/** A chain of the primary network as its genesis declares it. */
export interface GenesisChain {
  chainID: Uint8Array;
  vmID: string;
  genesis: Uint8Array;
  /** Its genesis aliases, primary first. */
  aliases: string[];
}

/** The AVAX asset: the ID of the X-Chain genesis' CreateAssetTx. */
export const avaxAssetID = (networkID: number): Uint8Array => buildTx(avaxGenesisTx(networkID), []).id;

/** The local P-Chain genesis for this process (its start time rolled to now). */
export function primaryPlatformGenesis(networkID: number, startTime = BigInt(localGenesisStartTime())): PGenesis {
  return localPlatformGenesis(networkID, startTime, avaxAssetID(networkID), primaryChainDefs(networkID));
}

/** The primary network's chains in creation order: P, X, C. The X and C IDs are the IDs of the P genesis' CreateChainTxs. */
export function primaryNetworkChains(networkID: number, pGenesis = primaryPlatformGenesis(networkID)): GenesisChain[] {
  const [x, c] = pGenesis.chains;
  const defs = primaryChainDefs(networkID);
  return [
    { chainID: new Uint8Array(32), vmID: VM_IDS.platform, genesis: marshalGenesis(pGenesis), aliases: ['P', 'platform'] },
    { chainID: x!.id, vmID: VM_IDS.avm, genesis: defs[0]!.genesis, aliases: ['X', 'avm'] },
    { chainID: c!.id, vmID: VM_IDS.evm, genesis: defs[1]!.genesis, aliases: ['C', 'evm'] },
  ];
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

// The Data API's primary-network operations over the local network: blockchain details
// (getBlockchainById), the latest blocks of P, X and C with proposervm's details, and X-Chain
// vertices (a linearized local X-Chain has none). The local network presents itself as `fuji`
// and `testnet` (the contract's test network); `mainnet` is not this node's network.
import { LOCAL_NODE } from '../../chains/ids.js';
import { encodeCB58, idFromString as decodeID } from '../../encoding/cb58.js';
import { blockTxs, type EvmChain, txHash } from '../../vms/evm/index.js';
import type { XChain } from '../../vms/avm/index.js';
import type { Block as PBlock, PChain } from '../../vms/platform/index.js';
import { badRequest, notFound } from '../errors.js';
import type { DataHandler } from '../http.js';
import type { PageTokens } from '../pages.js';
import { genesisData } from './genesis.js';
import type { ProposerRecords } from './proposers.js';
import type { AddressChains } from './addresses.js';
import { decodeBech32 } from '../../vms/components/avax/index.js';

/** The primary network's chains, with the X- and C-Chain IDs (cb58). */
export interface PrimaryChains {
  pChain: PChain;
  xChain: XChain;
  cChain: EvmChain;
  xID: string;
  cID: string;
  /** The network's bech32 HRP (local). */
  hrp: string;
}

export interface PrimarySources {
  /** Looked up per request: the chains of the node's current core. */
  chains: () => PrimaryChains;
  proposers: ProposerRecords;
  addresses: AddressChains;
  pages: () => Promise<PageTokens>;
}

export const P_ID = '11111111111111111111111111111111LpoYY';
/** Fuji's X- and C-Chain IDs: where the contract's closed lists name a chain, the local one stands under these. */
export const FUJI_X = '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm';
export const FUJI_C = 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp';

type ChainName = 'p-chain' | 'x-chain' | 'c-chain';

/** The network path parameter: the local network answers as `fuji` or `testnet`. */
export function checkNetwork(network: unknown): string {
  if (network === 'mainnet') throw notFound('this node runs the local network, which the Data API presents as fuji (or testnet); mainnet is not served');
  return String(network);
}

/**
 * The local X- and C-Chain IDs are not in the contract's closed list of blockchain IDs: before
 * validation they are read as the aliases, as are Fuji's (which the SDK offers).
 */
export function aliasOf(id: string, s: { xID: string; cID: string }): string {
  if (id === s.xID || id === FUJI_X || id === '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM') return 'x-chain';
  if (id === s.cID || id === FUJI_C || id === '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5') return 'c-chain';
  if (id === P_ID) return 'p-chain';
  return id;
}

const P_BLOCK_TYPES: Record<number, string> = {
  2: 'ApricotCommitBlock',
  29: 'BanffProposalBlock',
  30: 'BanffAbortBlock',
  31: 'BanffCommitBlock',
  32: 'BanffStandardBlock',
};

interface Item {
  height: bigint;
  id: Uint8Array;
  parentID: Uint8Array;
  time: bigint;
  type: string;
  txs: string[];
  size: number;
}

async function pBlock(p: PChain, height: bigint): Promise<Item | undefined> {
  const id = await p.state.getBlockIdAtHeight(height);
  const b: PBlock | undefined = id ? await p.state.getBlock(id) : undefined;
  if (!b) return undefined;
  const txs = b.type === 32 ? b.txs : b.type === 29 ? [...b.decisionTxs, b.tx] : [];
  return {
    height,
    id: b.id,
    parentID: b.parentID,
    time: b.type === 2 ? p.genesisTimestamp : b.time,
    type: P_BLOCK_TYPES[b.type] ?? 'Block',
    txs: txs.map((t) => encodeCB58(t.id)),
    size: b.bytes.length,
  };
}

async function xBlock(x: XChain, height: bigint): Promise<Item | undefined> {
  const id = await x.state.getBlockIdAtHeight(height);
  const b = id ? await x.state.getBlock(id) : undefined;
  if (!b) return undefined;
  return { height, id: b.id, parentID: b.parentID, time: b.time, type: 'StandardBlock', txs: b.txs.map((t) => encodeCB58(t.id)), size: b.bytes.length };
}

async function cBlock(c: EvmChain, height: bigint): Promise<Item | undefined> {
  const b = await c.store.blockAt(height);
  if (!b) return undefined;
  const txs = blockTxs(c, b).map((t) => `0x${Buffer.from(txHash(t)).toString('hex')}`);
  return { height, id: b.hash, parentID: b.header.parentHash, time: b.header.time, type: 'EvmBlock', txs, size: b.size };
}

export function primaryHandlers(s: PrimarySources): Record<string, DataHandler> {
  const chainIDBytes = (name: ChainName) =>
    name === 'p-chain' ? new Uint8Array(32) : Buffer.from(decodeID(name === 'x-chain' ? s.chains().xID : s.chains().cID));
  return {
    getBlockchainById: async ({ params }) => {
      checkNetwork(params.network);
      const p = s.chains().pChain;
      const id = String(params.blockchainId);
      let raw: Uint8Array;
      try {
        raw = decodeID(id);
      } catch {
        throw badRequest(`${id} is not a blockchain ID`);
      }
      const hex = Buffer.from(raw).toString('hex');
      const record = p.state.ledger.chains.get(hex);
      const tx = record ? await p.state.getTx(raw) : undefined;
      if (!record || tx?.unsigned.type !== 15) throw notFound(`blockchain ${id} not found`);
      const created = await creationBlock(p, hex);
      const genesis = tx.unsigned.genesis;
      const evm = genesisData(genesis);
      return {
        createBlockTimestamp: Number(created.time),
        createBlockNumber: String(created.height),
        blockchainId: id,
        vmId: encodeCB58(tx.unsigned.vmID),
        subnetId: encodeCB58(tx.unsigned.subnetID),
        blockchainName: record.name,
        ...(evm?.config?.chainId !== undefined ? { evmChainId: evm.config.chainId } : {}),
        genesisData: evm ?? `0x${Buffer.from(genesis).toString('hex')}`,
      };
    },

    listLatestPrimaryNetworkBlocks: async ({ params }) => {
      const network = checkNetwork(params.network);
      const chain = String(params.blockchainId) as ChainName;
      const size = Number(params.pageSize);
      const start = params.startTimestamp === undefined ? undefined : BigInt(params.startTimestamp as number);
      const end = params.endTimestamp === undefined ? undefined : BigInt(params.endTimestamp as number);
      if (start !== undefined && end !== undefined && start > end) throw badRequest('startTimestamp must be before endTimestamp');
      const scope = `blocks:${chain}:${start ?? ''}:${end ?? ''}`;
      const pages = await s.pages();
      const cursor = typeof params.pageToken === 'string' ? BigInt(pages.read<string>(scope, params.pageToken)) : undefined;
      const { pChain, xChain, cChain } = s.chains();
      const head =
        chain === 'p-chain' ? pChain.state.lastAccepted().height : chain === 'x-chain' ? xChain.state.lastAccepted().height : cChain.head.header.number;
      const read = (h: bigint) => (chain === 'p-chain' ? pBlock(pChain, h) : chain === 'x-chain' ? xBlock(xChain, h) : cBlock(cChain, h));
      const found: Item[] = [];
      for (let h = cursor === undefined ? head : cursor - 1n; h >= 0n && found.length <= size; h--) {
        const b = await read(h);
        if (!b) continue;
        if (end !== undefined && b.time > end) continue;
        if (start !== undefined && b.time < start) break;
        found.push(b);
      }
      const blocks = [];
      for (const b of found.slice(0, size)) {
        const proposer = await s.proposers.get(chainIDBytes(chain), b.height);
        blocks.push({
          blockNumber: String(b.height),
          blockHash: chain === 'c-chain' ? `0x${Buffer.from(b.id).toString('hex')}` : encodeCB58(b.id),
          parentHash: chain === 'c-chain' ? `0x${Buffer.from(b.parentID).toString('hex')}` : encodeCB58(b.parentID),
          blockTimestamp: Number(b.time),
          blockType: b.type,
          txCount: b.txs.length,
          transactions: b.txs,
          blockSizeBytes: b.size,
          ...(proposer
            ? {
                proposerDetails: {
                  proposerId: encodeCB58(proposer.id),
                  proposerParentId: encodeCB58(proposer.parentID),
                  proposerNodeId: LOCAL_NODE.nodeID,
                  proposerPChainHeight: Number(proposer.pChainHeight),
                  proposerTimestamp: Number(proposer.timestamp),
                },
              }
            : {}),
        });
      }
      const last = found[size - 1];
      return {
        ...(found.length > size && last ? { nextPageToken: pages.issue(scope, String(last.height)) } : {}),
        blocks,
        chainInfo: { chainName: chain, network },
      };
    },

    getChainIdsForAddresses: async ({ params }) => {
      checkNetwork(params.network);
      const { pChain, xChain, xID, cID, hrp } = s.chains();
      const list = String(params.addresses)
        .split(',')
        .map((a) => a.trim())
        .filter((a) => a !== '');
      if (list.length === 0) throw badRequest(['addresses should not be empty']);
      if (list.length > 64) throw badRequest(['addresses must contain no more than 64 elements']);
      const out = [];
      for (const text of list) {
        const bare = text.replace(/^[PXC]-/, '');
        let bytes: Uint8Array;
        try {
          const d = decodeBech32(bare);
          if (d.hrp !== hrp || d.data.length !== 20) throw new Error('not an address of this network');
          bytes = d.data;
        } catch {
          throw badRequest([`${text} is not an address of this network (${hrp})`]);
        }
        const ids: string[] = [];
        if ((await s.addresses.touched(bytes, new Uint8Array(32))) || (await pChain.state.utxoIDs(bytes, undefined, 1)).length > 0) ids.push(P_ID);
        // The contract's list of blockchain IDs is closed to mainnet's and Fuji's: the local X-Chain stands under Fuji's.
        if ((await s.addresses.touched(bytes, decodeID(xID))) || (await xChain.state.utxoIDs(bytes, undefined, 1)).length > 0) ids.push(FUJI_X);
        if (await s.addresses.touched(bytes, decodeID(cID))) ids.push(FUJI_C);
        out.push({ address: text, blockchainIds: ids });
      }
      return { addresses: out };
    },

    // The local X-Chain is linearized from its genesis: it has blocks, never vertices. No page of
    // them was ever handed out, so any page token is one the other lists would refuse too.
    listLatestXChainVertices: async ({ params }) => {
      const network = checkNetwork(params.network);
      if (typeof params.pageToken === 'string') throw badRequest('Invalid page token');
      return { vertices: [], chainInfo: { chainName: 'x-chain', network } };
    },
    getVertexByHeight: async ({ params }) => ({ vertices: [], chainInfo: { chainName: 'x-chain', network: checkNetwork(params.network) } }),
  };
}

/** The P-Chain block that holds a chain's CreateChainTx: the genesis block for the primary network's chains. */
async function creationBlock(p: PChain, chainHex: string): Promise<{ height: bigint; time: bigint }> {
  const last = p.state.lastAccepted().height;
  for (let h = 1n; h <= last; h++) {
    const id = await p.state.getBlockIdAtHeight(h);
    const b = id ? await p.state.getBlock(id) : undefined;
    if (b?.type === 32 && b.txs.some((t) => Buffer.from(t.id).toString('hex') === chainHex)) return { height: h, time: b.time };
  }
  return { height: 0n, time: p.genesisTimestamp };
}

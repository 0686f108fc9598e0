// The Data API's EVM operations (listLatestTransactions, listTransactions, getNativeBalance,
// getContractMetadata, getChainInfo) over the node's EVM chains.
import { toChecksumAddress } from '@ethereumjs/util';
import type { Database } from '../../storage/db.js';
import { blockTxs } from '../../vms/evm/index.js';
import { badRequest, notFound } from '../errors.js';
import type { DataHandler } from '../http.js';
import type { PageTokens } from '../pages.js';
import { chainInfo, type EvmSource, findChain, nativeToken } from './chains.js';
import type { Deployment } from './follower.js';
import { deployedKey, failedKey, failedRange, partyRange, position } from './keys.js';
import { tokenInfo } from './tokens.js';
import { details, nativeTransaction, type TxAt } from './transactions.js';

interface Cursor {
  h: string;
  i: number;
}

export interface EvmDeps {
  sources: () => EvmSource[];
  /** The follower's database of a chain. */
  db: (s: EvmSource) => Database;
  pages: () => Promise<PageTokens>;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function address(params: Record<string, unknown>): Uint8Array {
  const a = String(params.address);
  if (!ADDRESS.test(a)) throw badRequest(['address must be an Ethereum address']);
  return Buffer.from(a.slice(2), 'hex');
}

async function txAt(s: EvmSource, height: bigint, index: number): Promise<TxAt | undefined> {
  const block = await s.evm.store.blockAt(height);
  if (!block) return undefined;
  const records = await s.evm.store.txRecords(block.hash);
  const tx = blockTxs(s.evm, block)[index];
  return tx && records[index] ? { block, tx, record: records[index]!, index } : undefined;
}

/** One page of `positions` (pageSize + 1 asked for): the items, and the token for the next page if there is one. */
async function page<T>(
  pages: PageTokens,
  scope: string,
  size: number,
  positions: Array<{ height: bigint; index: number }>,
  item: (p: { height: bigint; index: number }) => Promise<T | undefined>,
): Promise<{ items: T[]; nextPageToken?: string }> {
  const items: T[] = [];
  for (const p of positions.slice(0, size)) {
    const v = await item(p);
    if (v !== undefined) items.push(v);
  }
  const last = positions[size - 1];
  return positions.length > size && last ? { items, nextPageToken: pages.issue(scope, { h: String(last.height), i: last.index } satisfies Cursor) } : { items };
}

export function evmHandlers(d: EvmDeps): Record<string, DataHandler> {
  const cursorOf = async (scope: string, token: unknown) => (typeof token === 'string' ? (await d.pages()).read<Cursor>(scope, token) : undefined);

  return {
    getChainInfo: async ({ params, origin }) => chainInfo(findChain(d.sources(), String(params.chainId)), origin),

    listLatestTransactions: async ({ params }) => {
      const s = findChain(d.sources(), String(params.chainId));
      const size = Number(params.pageSize);
      const status = params.status as 'failed' | 'success' | undefined;
      const scope = `latest:${s.blockchainID}:${status ?? ''}`;
      const pages = await d.pages();
      const cursor = await cursorOf(scope, params.pageToken);
      const positions: Array<{ height: bigint; index: number }> = [];
      if (status === 'failed') {
        await s.follower.settled();
        const below = cursor ? { height: BigInt(cursor.h), index: cursor.i } : undefined;
        const keys = await d.db(s).entries({ ...failedRange(below), limit: size + 1, reverse: true });
        for (const [k] of keys) positions.push(position(k));
      } else {
        const failed = status === 'success' ? d.db(s) : undefined;
        if (failed) await s.follower.settled();
        for (let h = cursor ? BigInt(cursor.h) : s.evm.head.header.number; h >= 0n && positions.length <= size; h--) {
          const block = await s.evm.store.blockAt(h);
          if (!block || block.body.length === 0) continue;
          const start = cursor && h === BigInt(cursor.h) ? cursor.i - 1 : block.body.length - 1;
          for (let i = start; i >= 0 && positions.length <= size; i--) {
            if (failed && (await failed.get(failedKey(h, i))) !== undefined) continue;
            positions.push({ height: h, index: i });
          }
        }
      }
      const { items, nextPageToken } = await page(pages, scope, size, positions, async (p) => {
        const at = await txAt(s, p.height, p.index);
        return at && nativeTransaction(s, at);
      });
      return { ...(nextPageToken ? { nextPageToken } : {}), transactions: items };
    },

    listTransactions: async ({ params }) => {
      const s = findChain(d.sources(), String(params.chainId));
      const who = address(params);
      const size = Number(params.pageSize);
      const asc = params.sortOrder === 'asc';
      const head = s.evm.head.header.number;
      const block = (v: unknown, name: string) => {
        const n = Math.floor(Number(v));
        if (!Number.isSafeInteger(n) || n < 0) throw badRequest([`${name} must be a block number`]);
        return BigInt(n);
      };
      const start = params.startBlock === undefined ? 0n : block(params.startBlock, 'startBlock');
      const end = params.endBlock === undefined ? head + 1n : block(params.endBlock, 'endBlock');
      // The scope holds what the client asked for: an open end follows the head from page to page.
      const scope = `address:${s.blockchainID}:${Buffer.from(who).toString('hex')}:${start}:${params.endBlock ?? ''}:${asc ? 'asc' : 'desc'}`;
      const pages = await d.pages();
      const cursor = await cursorOf(scope, params.pageToken);
      await s.follower.settled();
      const range = partyRange(who, start, end);
      let bounds: { gte?: Uint8Array; gt?: Uint8Array; lt?: Uint8Array; lte?: Uint8Array } = { gte: range.gte, lt: range.lt };
      if (cursor) {
        const at = Buffer.concat([range.gte.subarray(0, 21), Buffer.alloc(12)]);
        at.writeBigUInt64BE(BigInt(cursor.h), 21);
        at.writeUInt32BE(cursor.i, 29);
        bounds = asc ? { gt: at, lt: range.lt } : { gte: range.gte, lt: at };
      }
      const keys = await d.db(s).entries({ ...bounds, limit: size + 1, reverse: !asc });
      const mine = `0x${Buffer.from(who).toString('hex')}`;
      const { items, nextPageToken } = await page(
        pages,
        scope,
        size,
        keys.map(([k]) => position(k)),
        async (p) => {
          const at = await txAt(s, p.height, p.index);
          return at && details(s, d.db(s), at, mine);
        },
      );
      return { ...(nextPageToken ? { nextPageToken } : {}), transactions: items };
    },

    getNativeBalance: async ({ params }) => {
      const s = findChain(d.sources(), String(params.chainId));
      const who = address(params);
      let block = s.evm.head;
      if (params.blockNumber !== undefined) {
        const text = String(params.blockNumber);
        if (!/^\d+$/.test(text)) throw badRequest(['blockNumber must be a number string']);
        const n = BigInt(text);
        if (n > s.evm.head.header.number) throw badRequest(`block ${n} is past the chain's latest block ${s.evm.head.header.number}`);
        const found = await s.evm.store.blockAt(n);
        if (!found) throw notFound(`block ${n} not found`);
        block = found;
      }
      const account = await s.evm.account(who, s.evm.stateRootOf(block));
      // No price feed offline: price and balanceValue are left out.
      return { nativeTokenBalance: { ...nativeToken(s), chainId: String(s.evm.chainId), balance: String(account?.balance ?? 0n) } };
    },

    getContractMetadata: async ({ params }) => {
      const s = findChain(d.sources(), String(params.chainId));
      const who = address(params);
      const account = await s.evm.account(who);
      if (!account || Buffer.from(account.codeHash).toString('hex') === 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470') {
        throw notFound(`no contract at ${toChecksumAddress(String(params.address).toLowerCase())}`);
      }
      await s.follower.settled();
      const info = await tokenInfo(s.evm, who);
      const stored = await d.db(s).get(deployedKey(who));
      const dep = stored ? (JSON.parse(Buffer.from(stored).toString('utf8')) as Deployment) : undefined;
      return {
        address: toChecksumAddress(`0x${Buffer.from(who).toString('hex')}`),
        ercType: info.ercType,
        ...(info.name !== undefined ? { name: info.name } : {}),
        ...(info.symbol !== undefined && info.ercType !== 'UNKNOWN' ? { symbol: info.symbol } : {}),
        ...(info.ercType === 'ERC-20' ? { decimals: info.decimals } : {}),
        ...(dep
          ? {
              deploymentDetails: {
                txHash: dep.txHash,
                deployerAddress: toChecksumAddress(dep.deployer),
                ...(dep.deployerContract ? { deployerContractAddress: toChecksumAddress(dep.deployerContract) } : {}),
              },
            }
          : {}),
      };
    },
  };
}

// EVM chains over their JSON-RPC: blocks, txs, and the logs the explorer can read without an ABI
// (ERC-20/721/1155 transfers and the ICM messenger's events).
import { type ApiError, evmBatch, getJson, rpc } from './api.js';
import { hexBytes } from './cb58.js';
import type { Chain } from './chains.js';
import { hexNum } from './format.js';
import { toBig, word } from './logs.js';

export { type DecodedLog, decodeLog, TOPICS, topicAddress } from './logs.js';

/** The reason a failed call gave: Error(string), Panic(uint256), or the raw data. */
export function revertReason(data: string | undefined): string | undefined {
  if (!data || data === '0x') return undefined;
  if (data.startsWith('0x08c379a0')) {
    const body = `0x${data.slice(10)}`;
    const len = Number(toBig(word(body, 1)));
    const hex = body.slice(2 + 128, 2 + 128 + len * 2);
    return new TextDecoder().decode(hexBytes(hex));
  }
  if (data.startsWith('0x4e487b71')) return `Panic(0x${toBig(`0x${data.slice(10)}`).toString(16)})`;
  return `custom error ${data.slice(0, 10)}${data.length > 10 ? ' (data ' : ''}${data.length > 10 ? `${data.slice(10, 74)}…)` : ''}`;
}

/** The revert reason of a failed tx, from a replay of its call on its block's parent state (txs before it in its block aside). */
export async function replayRevert(chain: Chain, tx: any): Promise<string | undefined> {
  const call = { from: tx.from, to: tx.to, data: tx.input, value: tx.value, gas: tx.gas };
  const blockTag = `0x${(hexNum(tx.blockNumber) - 1).toString(16)}`;
  try {
    await rpc(chain.rpc, 'eth_call', [call, blockTag]);
    return undefined;
  } catch (err) {
    const data = (err as ApiError).data;
    return revertReason(typeof data === 'string' ? data : undefined) ?? (err as Error).message;
  }
}

export interface EvmBlock {
  number: number;
  hash: string;
  time: number;
  txs: any[];
  gasUsed: bigint;
  gasLimit: bigint;
  baseFee?: bigint;
  miner: string;
  parentHash: string;
  size: number;
}

export function toBlock(b: any): EvmBlock {
  return {
    number: hexNum(b.number),
    hash: b.hash,
    time: hexNum(b.timestamp),
    txs: b.transactions ?? [],
    gasUsed: BigInt(b.gasUsed),
    gasLimit: BigInt(b.gasLimit),
    baseFee: b.baseFeePerGas ? BigInt(b.baseFeePerGas) : undefined,
    miner: b.miner,
    parentHash: b.parentHash,
    size: hexNum(b.size),
  };
}

/** The newest `count` blocks, newest first, with their txs. */
export async function latestBlocks(chain: Chain, count: number, full = true): Promise<EvmBlock[]> {
  const head = hexNum(await rpc(chain.rpc, 'eth_blockNumber', []));
  const numbers = Array.from({ length: Math.min(count, head + 1) }, (_, i) => head - i);
  const blocks = await evmBatch(
    chain.rpc,
    numbers.map((n) => ['eth_getBlockByNumber', [`0x${n.toString(16)}`, full]]),
  );
  return blocks.filter(Boolean).map(toBlock);
}

/** Blocks with their full txs, by chain and hash (a block never changes); the newest 256 kept. */
const fullBlocks = new Map<string, Promise<EvmBlock | undefined>>();

/** A block with its full txs, asked for once. */
export function fullBlock(chain: Chain, hash: string): Promise<EvmBlock | undefined> {
  const key = `${chain.id}:${hash}`;
  let b = fullBlocks.get(key);
  if (!b) {
    b = rpc(chain.rpc, 'eth_getBlockByHash', [hash, true]).then((raw) => (raw ? toBlock(raw) : undefined));
    fullBlocks.set(key, b);
    if (fullBlocks.size > 256) fullBlocks.delete(fullBlocks.keys().next().value!);
  }
  return b;
}

const metadata = new Map<string, Promise<any>>();

/** The Data API's view of a contract (name, symbol, decimals, ERC type, deployer); undefined for an account. `code`: the address's, when the caller has it. */
export function contractInfo(chain: Chain, address: string, code?: string): Promise<any> {
  const key = `${chain.id}:${address.toLowerCase()}`;
  let m = metadata.get(key);
  if (!m) {
    m = (async () => {
      const deployed = code ?? (await rpc(chain.rpc, 'eth_getCode', [address, 'latest']));
      if (!deployed || deployed === '0x') return undefined;
      return getJson(`/v1/chains/${chain.id}/addresses/${address}`).catch(() => ({ address, ercType: 'UNKNOWN' }));
    })();
    metadata.set(key, m);
  }
  return m;
}

// EVM chains over their JSON-RPC: blocks, txs, and the logs the explorer can read without an ABI
// (ERC-20/721/1155 transfers and the ICM messenger's events).
import { type ApiError, evmBatch, getJson, rpc } from './api.js';
import type { Chain } from './chains.js';
import { hexNum } from './format.js';

export const TOPICS = {
  transfer: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
  transferSingle: '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62',
  transferBatch: '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb',
  approval: '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925',
  approvalForAll: '0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31',
  icmSend: '0x2a211ad4a59ab9d003852404f9c57c690704ee755f3c79d2c2812ad32da99df8',
  icmReceive: '0x292ee90bbaf70b5d4936025e09d56ba08f3e421156b6a568cf3c2840d9343e34',
  icmExecuted: '0x34795cc6b122b9a0ae684946319f1e14a577b4e8f9b3dda9ac94c21a54d3188c',
  icmExecutionFailed: '0x4619adc1017b82e02eaefac01a43d50d6d8de4460774bc370c3ff0210d40c985',
  icmReceipt: '0xd13a7935f29af029349bed0a2097455b91fd06190a30478c575db3f31e00bf57',
  warp: '0x56600c567728a800c0aa927500f831cb451df66a7af570eb4df4dfbf4674887d',
};

export const topicAddress = (t: string) => `0x${t.slice(26)}`;
const word = (data: string, i: number) => `0x${data.slice(2 + i * 64, 2 + (i + 1) * 64)}`;
const toBig = (hex: string) => (hex === '0x' ? 0n : BigInt(hex));

export interface DecodedLog {
  event: string;
  standard: string;
  address: string;
  logIndex: number;
  from?: string;
  to?: string;
  /** ERC-20 value, or ERC-1155 amounts. */
  amounts?: bigint[];
  tokenIds?: bigint[];
  messageID?: string;
  /** The other chain of an ICM event (hex blockchain ID). */
  otherChain?: string;
  raw: any;
}

export function decodeLog(log: any): DecodedLog {
  const t: string[] = log.topics ?? [];
  const data: string = log.data ?? '0x';
  const base = { address: log.address, logIndex: hexNum(log.logIndex), raw: log };
  switch (t[0]) {
    case TOPICS.transfer:
      if (t.length === 4)
        return { ...base, event: 'Transfer', standard: 'ERC-721', from: topicAddress(t[1]!), to: topicAddress(t[2]!), tokenIds: [toBig(t[3]!)] };
      if (t.length === 3)
        return { ...base, event: 'Transfer', standard: 'ERC-20', from: topicAddress(t[1]!), to: topicAddress(t[2]!), amounts: [toBig(word(data, 0))] };
      break;
    case TOPICS.transferSingle:
      return {
        ...base,
        event: 'TransferSingle',
        standard: 'ERC-1155',
        from: topicAddress(t[2]!),
        to: topicAddress(t[3]!),
        tokenIds: [toBig(word(data, 0))],
        amounts: [toBig(word(data, 1))],
      };
    case TOPICS.transferBatch: {
      const arr = (offsetWord: number) => {
        const at = Number(toBig(word(data, offsetWord))) / 32;
        const n = Number(toBig(word(data, at)));
        return Array.from({ length: n }, (_, i) => toBig(word(data, at + 1 + i)));
      };
      return { ...base, event: 'TransferBatch', standard: 'ERC-1155', from: topicAddress(t[2]!), to: topicAddress(t[3]!), tokenIds: arr(0), amounts: arr(1) };
    }
    case TOPICS.approval:
      return { ...base, event: 'Approval', standard: t.length === 4 ? 'ERC-721' : 'ERC-20', from: topicAddress(t[1]!), to: topicAddress(t[2]!) };
    case TOPICS.icmSend:
      return { ...base, event: 'SendCrossChainMessage', standard: 'ICM', messageID: t[1], otherChain: t[2] };
    case TOPICS.icmReceive:
      return { ...base, event: 'ReceiveCrossChainMessage', standard: 'ICM', messageID: t[1], otherChain: t[2], from: t[3] ? topicAddress(t[3]) : undefined };
    case TOPICS.icmExecuted:
      return { ...base, event: 'MessageExecuted', standard: 'ICM', messageID: t[1], otherChain: t[2] };
    case TOPICS.icmExecutionFailed:
      return { ...base, event: 'MessageExecutionFailed', standard: 'ICM', messageID: t[1], otherChain: t[2] };
    case TOPICS.icmReceipt:
      return { ...base, event: 'ReceiptReceived', standard: 'ICM', messageID: t[1], otherChain: t[2] };
    case TOPICS.warp:
      return { ...base, event: 'SendWarpMessage', standard: 'Warp', from: t[1] ? topicAddress(t[1]) : undefined, messageID: t[2] };
  }
  return { ...base, event: t[0] ? `${t[0].slice(0, 10)}…` : 'anonymous', standard: '', raw: log };
}

/** The reason a failed call gave: Error(string), Panic(uint256), or the raw data. */
export function revertReason(data: string | undefined): string | undefined {
  if (!data || data === '0x') return undefined;
  if (data.startsWith('0x08c379a0')) {
    const body = `0x${data.slice(10)}`;
    const len = Number(toBig(word(body, 1)));
    const hex = body.slice(2 + 128, 2 + 128 + len * 2);
    const bytes = new Uint8Array(hex.match(/../g)?.map((b) => Number.parseInt(b, 16)) ?? []);
    return new TextDecoder().decode(bytes);
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

const metadata = new Map<string, Promise<any>>();

/** The Data API's view of a contract (name, symbol, decimals, ERC type, deployer); undefined for an account. */
export function contractInfo(chain: Chain, address: string): Promise<any> {
  const key = `${chain.id}:${address.toLowerCase()}`;
  let m = metadata.get(key);
  if (!m) {
    m = (async () => {
      const code = await rpc(chain.rpc, 'eth_getCode', [address, 'latest']);
      if (!code || code === '0x') return undefined;
      return getJson(`/v1/chains/${chain.id}/addresses/${address}`).catch(() => ({ address, ercType: 'UNKNOWN' }));
    })();
    metadata.set(key, m);
  }
  return m;
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** The bytes of a cb58 ID as 0x hex (its 4 checksum bytes dropped), to match the bytes32 IDs of ICM events. */
export function cb58ToHex(id: string): string {
  let n = 0n;
  for (const ch of id) {
    const v = B58.indexOf(ch);
    if (v < 0) return '';
    n = n * 58n + BigInt(v);
  }
  let hex = n.toString(16);
  const zeros = id.match(/^1*/)![0].length;
  hex = '00'.repeat(zeros) + (hex.length % 2 ? `0${hex}` : hex);
  return `0x${hex.slice(0, -8)}`;
}

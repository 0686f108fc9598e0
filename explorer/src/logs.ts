// The logs the explorer can read without an ABI: ERC-20/721/1155 transfers and approvals, the ICM
// messenger's events and warp's SendWarpMessage. Pure (no requests), so Node tests load it too.
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
export const word = (data: string, i: number) => `0x${data.slice(2 + i * 64, 2 + (i + 1) * 64)}`;
export const toBig = (hex: string) => (hex === '0x' ? 0n : BigInt(hex));

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

/** Topics each known event has (its indexed params and topic0): a log of another shape is shown undecoded. */
const TOPIC_COUNTS: Record<string, number[]> = {
  [TOPICS.transfer]: [3, 4],
  [TOPICS.transferSingle]: [4],
  [TOPICS.transferBatch]: [4],
  [TOPICS.approval]: [3, 4],
  [TOPICS.icmSend]: [3],
  [TOPICS.icmReceive]: [4],
  [TOPICS.icmExecuted]: [3],
  [TOPICS.icmExecutionFailed]: [3],
  [TOPICS.icmReceipt]: [4],
  [TOPICS.warp]: [3],
};

/**
 * A log decoded as the event its topic0 names, when it has that event's shape; any other log (an
 * unknown event, or a known topic0 on malformed topics or data, which any contract can emit) as a
 * generic row: one log never breaks its tx's page.
 */
export function decodeLog(log: any): DecodedLog {
  const t: string[] = log.topics ?? [];
  const base = { address: log.address, logIndex: hexNum(log.logIndex), raw: log };
  const generic = { ...base, event: t[0] ? `${t[0].slice(0, 10)}…` : 'anonymous', standard: '', raw: log };
  if (!t[0] || !TOPIC_COUNTS[t[0]]?.includes(t.length)) return generic;
  try {
    return decodeKnown(t, log.data ?? '0x', base);
  } catch {
    return generic;
  }
}

function decodeKnown(t: string[], data: string, base: { address: string; logIndex: number; raw: any }): DecodedLog {
  const words = Math.floor((data.length - 2) / 64);
  const at = (i: number) => {
    if (i >= words) throw new Error('log data too short');
    return toBig(word(data, i));
  };
  switch (t[0]) {
    case TOPICS.transfer:
      if (t.length === 4)
        return { ...base, event: 'Transfer', standard: 'ERC-721', from: topicAddress(t[1]!), to: topicAddress(t[2]!), tokenIds: [toBig(t[3]!)] };
      return { ...base, event: 'Transfer', standard: 'ERC-20', from: topicAddress(t[1]!), to: topicAddress(t[2]!), amounts: [at(0)] };
    case TOPICS.transferSingle:
      return {
        ...base,
        event: 'TransferSingle',
        standard: 'ERC-1155',
        from: topicAddress(t[2]!),
        to: topicAddress(t[3]!),
        tokenIds: [at(0)],
        amounts: [at(1)],
      };
    case TOPICS.transferBatch: {
      // Each array's offset and length come from the data: bounded by the words the data holds.
      const arr = (offsetWord: number) => {
        const start = Number(at(offsetWord) / 32n);
        const n = at(start);
        if (n > BigInt(words - start - 1)) throw new Error('array longer than the log data');
        return Array.from({ length: Number(n) }, (_, i) => at(start + 1 + i));
      };
      return { ...base, event: 'TransferBatch', standard: 'ERC-1155', from: topicAddress(t[2]!), to: topicAddress(t[3]!), tokenIds: arr(0), amounts: arr(1) };
    }
    case TOPICS.approval:
      return { ...base, event: 'Approval', standard: t.length === 4 ? 'ERC-721' : 'ERC-20', from: topicAddress(t[1]!), to: topicAddress(t[2]!) };
    case TOPICS.icmSend:
      return { ...base, event: 'SendCrossChainMessage', standard: 'ICM', messageID: t[1], otherChain: t[2] };
    case TOPICS.icmReceive:
      return { ...base, event: 'ReceiveCrossChainMessage', standard: 'ICM', messageID: t[1], otherChain: t[2], from: topicAddress(t[3]!) };
    case TOPICS.icmExecuted:
      return { ...base, event: 'MessageExecuted', standard: 'ICM', messageID: t[1], otherChain: t[2] };
    case TOPICS.icmExecutionFailed:
      return { ...base, event: 'MessageExecutionFailed', standard: 'ICM', messageID: t[1], otherChain: t[2] };
    case TOPICS.icmReceipt:
      return { ...base, event: 'ReceiptReceived', standard: 'ICM', messageID: t[1], otherChain: t[2] };
    default:
      return { ...base, event: 'SendWarpMessage', standard: 'Warp', from: topicAddress(t[1]!), messageID: t[2] };
  }
}

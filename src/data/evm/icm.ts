// ICM (Teleporter) messages for the Data API, from the ICM messenger contract's events on the node's
// EVM chains (ava-labs/icm-contracts' ITeleporterMessenger, v1): a send on the source chain, the
// delivery, the execution and the receipt's return as each chain's follower meets them. Each event
// is kept on its own (chains are followed independently); a message is assembled when listed.
import { createRequire } from 'node:module';
import { knownKeccak } from '../../crypto/keccak.js';
import type { BatchOp } from '../../storage/db.js';
import type { EvmLog } from '../../vms/evm/index.js';
import { toHex, toHex0x } from '../../encoding/bytes.js';

const MESSAGE = '(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes)';
const FEE = '(address,uint256)';
const topic = (s: string, digestHex: string) => toHex(knownKeccak(s, digestHex));
export const ICM_TOPICS = {
  send: topic(`SendCrossChainMessage(bytes32,bytes32,${MESSAGE},${FEE})`, '2a211ad4a59ab9d003852404f9c57c690704ee755f3c79d2c2812ad32da99df8'),
  receive: topic(`ReceiveCrossChainMessage(bytes32,bytes32,address,address,${MESSAGE})`, '292ee90bbaf70b5d4936025e09d56ba08f3e421156b6a568cf3c2840d9343e34'),
  executed: topic('MessageExecuted(bytes32,bytes32)', '34795cc6b122b9a0ae684946319f1e14a577b4e8f9b3dda9ac94c21a54d3188c'),
  receipt: topic(`ReceiptReceived(bytes32,bytes32,address,${FEE})`, 'd13a7935f29af029349bed0a2097455b91fd06190a30478c575db3f31e00bf57'),
};

/** What the events carry of a message, as stored. */
export interface IcmMessage {
  nonce: string;
  from: string;
  to: string;
  destinationBlockchainID: string;
  data: string;
  receipts: Array<{ receivedMessageNonce: string; relayerRewardAddress: string }>;
}

export interface IcmSend {
  contract: string;
  source: string;
  message: IcmMessage;
  feeToken: string;
  feeAmount: string;
  txHash: string;
  timestamp: number;
  gasSpent: string;
}

export interface IcmReceive {
  contract: string;
  source: string;
  destination: string;
  message: IcmMessage;
  deliverer: string;
  rewardRedeemer: string;
  txHash: string;
  timestamp: number;
  gasSpent: string;
}

type Decoded = readonly unknown[];
// viem's ABI decoder, loaded with the first ICM event (most nodes never see one).
let decoder: ((types: string, data: `0x${string}`) => Decoded) | undefined;
function decode(types: string, data: Uint8Array): Decoded {
  if (!decoder) {
    // viem's utils entry alone: half the load of its index.
    const viem = createRequire(import.meta.url)('viem/utils') as typeof import('viem/utils');
    decoder = (t, d) => viem.decodeAbiParameters(viem.parseAbiParameters(t), d);
  }
  return decoder(types, `0x${Buffer.from(data).toString('hex')}`);
}

const addressOf = (topic: Uint8Array) => toHex0x(topic.subarray(12));

function message(m: readonly unknown[]): IcmMessage {
  const [nonce, from, destination, to, , , receipts, data] = m as [bigint, string, string, string, bigint, string[], Array<readonly [bigint, string]>, string];
  return {
    nonce: String(nonce),
    from: from.toLowerCase(),
    to: to.toLowerCase(),
    destinationBlockchainID: destination,
    data,
    receipts: receipts.map(([n, a]) => ({ receivedMessageNonce: String(n), relayerRewardAddress: a.toLowerCase() })),
  };
}

const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
export const ICM_PART = { send: 0x73, receive: 0x72, executed: 0x78, receipt: 0x63 } as const;
/** t ‖ block time (ms) ‖ height ‖ log index ‖ kind ‖ message ID: the listing's order (newest first). */
export const ICM_TIME = 0x74;
/** Where a time key's kind byte is; the message ID follows it. */
export const TIME_KIND_AT = 21;
export const partKey = (kind: keyof typeof ICM_PART, id: Uint8Array) => Buffer.concat([Uint8Array.of(ICM_PART[kind]), id]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
export const timeKey = (at: { timeMs: number; height: number; logIndex: number }, kind: 'send' | 'receive', id: Uint8Array) =>
  Buffer.concat([Uint8Array.of(ICM_TIME), u64(at.timeMs), u64(at.height), u32(at.logIndex), Uint8Array.of(ICM_PART[kind]), id]);

/** The follower's writes for one log, if it is an ICM event: `ctx` is the tx that emitted it. */
export function icmOps(
  log: EvmLog,
  ctx: { blockchainID: string; txHash: string; timestamp: number; gasSpent: string; timeMs: number; height: number; logIndex: number },
  json: (v: unknown) => Uint8Array,
): BatchOp[] {
  const t0 = log.topics[0] ? Buffer.from(log.topics[0]).toString('hex') : '';
  const put = (key: Uint8Array, value: Uint8Array = new Uint8Array()): BatchOp => ({ type: 'put', key, value });
  try {
    if (t0 === ICM_TOPICS.send && log.topics.length === 3) {
      const id = log.topics[1]!;
      const [m, fee] = decode(`${MESSAGE}, ${FEE}`, log.data) as [readonly unknown[], readonly [string, bigint]];
      const send: IcmSend = {
        contract: toHex0x(log.address),
        source: ctx.blockchainID,
        message: message(m),
        feeToken: fee[0].toLowerCase(),
        feeAmount: String(fee[1]),
        txHash: ctx.txHash,
        timestamp: ctx.timestamp,
        gasSpent: ctx.gasSpent,
      };
      return [put(partKey('send', id), json(send)), put(timeKey(ctx, 'send', id))];
    }
    if (t0 === ICM_TOPICS.receive && log.topics.length === 4) {
      const id = log.topics[1]!;
      const [redeemer, m] = decode(`address, ${MESSAGE}`, log.data) as [string, readonly unknown[]];
      const receive: IcmReceive = {
        contract: toHex0x(log.address),
        source: toHex0x(log.topics[2]!),
        destination: ctx.blockchainID,
        message: message(m),
        deliverer: addressOf(log.topics[3]!),
        rewardRedeemer: redeemer.toLowerCase(),
        txHash: ctx.txHash,
        timestamp: ctx.timestamp,
        gasSpent: ctx.gasSpent,
      };
      return [put(partKey('receive', id), json(receive)), put(timeKey(ctx, 'receive', id))];
    }
    if (t0 === ICM_TOPICS.executed && log.topics.length === 3) return [put(partKey('executed', log.topics[1]!))];
    if (t0 === ICM_TOPICS.receipt && log.topics.length === 4) return [put(partKey('receipt', log.topics[1]!))];
  } catch {
    // Not the messenger's encoding (another contract's event with the same name): not an ICM message.
  }
  return [];
}

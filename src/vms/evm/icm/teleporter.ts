// What ICM puts on the wire (docs/research/icm.md §2): the messenger's canonical address, the warp
// logs its sends leave (SendWarpMessage from the precompile, sender = the messenger, data =
// abi.encode(bytes unsigned message) whose AddressedCall payload is abi.encode(TeleporterMessage)),
// message IDs as the messenger computes them, and the calldata a relayer sends. The ABI decoder
// (viem's) loads with the first message: most nodes never see one.
import { createRequire } from 'node:module';
import { keccak256, knownKeccak } from '../../../crypto/keccak.js';
import { fromHex0x, toHex, toHex0x } from '../../../encoding/bytes.js';
import { messageID as warpMessageID, parseAddressedCall, parseUnsignedMessage } from '../../components/warp/message.js';
import type { EvmLog, TxRecord } from '../records.js';
import { SEND_WARP_MESSAGE_TOPIC, WARP_ADDRESS_HEX } from '../warp/precompile.js';

/** TeleporterMessenger v1.0.0's address on every chain (Nick's method; avalanche-cli's genesis). */
export const MESSENGER_ADDRESS = fromHex0x('0x253b2784c75e510dd0ff1da844684a1aC0aa5fcf');
/** The keyless deployer of v1.0.0: given nonce 1 where the messenger is placed, so its deployment tx can never run there. */
export const MESSENGER_DEPLOYER = fromHex0x('0x618fedd9a45a8c456812ecaae70c671c6249dfac');

const MESSAGE_TYPE = '(uint256,address,bytes32,address,uint256,address[],(uint256,address)[],bytes)';
const topic = (signature: string, digestHex: string) => toHex(knownKeccak(signature, digestHex));
/** The messenger's events a relayer reads from its own delivery. */
export const DELIVERY_TOPICS = {
  executed: topic('MessageExecuted(bytes32,bytes32)', '34795cc6b122b9a0ae684946319f1e14a577b4e8f9b3dda9ac94c21a54d3188c'),
  failed: topic(`MessageExecutionFailed(bytes32,bytes32,${MESSAGE_TYPE})`, '4619adc1017b82e02eaefac01a43d50d6d8de4460774bc370c3ff0210d40c985'),
};

/** A TeleporterMessage, as a relayer needs it. */
export interface TeleporterMessage {
  nonce: bigint;
  originSender: Uint8Array;
  destinationBlockchainID: Uint8Array;
  destinationAddress: Uint8Array;
  requiredGasLimit: bigint;
  allowedRelayers: Uint8Array[];
  receipts: number;
  /** The payload's length (an empty one is a receipt-only message: nothing executes). */
  messageBytes: number;
}

/** A message a messenger sent: the warp message carrying it and the ICM message ID. */
export interface IcmSent {
  /** ICM's message ID: keccak256(abi.encode(messenger, source, destination, nonce)). */
  id: Uint8Array;
  /** The warp message's ID (sha256 of the unsigned bytes) and the bytes. */
  warpID: Uint8Array;
  unsigned: Uint8Array;
  sourceBlockchainID: Uint8Array;
  message: TeleporterMessage;
  /** The index of the tx that sent it in its block. */
  txIndex: number;
}

// viem's utils entry alone: half the load of its index (155 ms against 294 here).
type Viem = typeof import('viem/utils');
let viem: Viem | undefined;
const loadViem = (): Viem => {
  viem ??= createRequire(import.meta.url)('viem/utils') as Viem;
  return viem;
};

/** abi.decode(payload, TeleporterMessage); undefined when it is not one (the messenger's payload is always one). */
export function decodeTeleporterMessage(payload: Uint8Array): TeleporterMessage | undefined {
  const v = loadViem();
  try {
    const [m] = v.decodeAbiParameters(v.parseAbiParameters(MESSAGE_TYPE), toHex0x(payload) as `0x${string}`) as unknown as [
      readonly [bigint, string, string, string, bigint, readonly string[], readonly unknown[], string],
    ];
    return {
      nonce: m[0],
      originSender: fromHex0x(m[1]),
      destinationBlockchainID: fromHex0x(m[2]),
      destinationAddress: fromHex0x(m[3]),
      requiredGasLimit: m[4],
      allowedRelayers: m[5].map(fromHex0x),
      receipts: m[6].length,
      messageBytes: (m[7].length - 2) / 2,
    };
  } catch {
    return undefined;
  }
}

const word = (b: Uint8Array) => {
  const w = new Uint8Array(32);
  w.set(b, 32 - b.length);
  return w;
};
const uintWord = (n: bigint) => fromHex0x(n.toString(16).padStart(64, '0'));

/** calculateMessageID(source, destination, nonce) of the messenger at `messenger`. */
export function icmMessageID(source: Uint8Array, destination: Uint8Array, nonce: bigint, messenger = MESSENGER_ADDRESS): Uint8Array {
  return keccak256(Buffer.concat([word(messenger), source, destination, uintWord(nonce)]));
}

/** The unsigned warp message of a SendWarpMessage log (its data is abi.encode(bytes)). */
function loggedMessage(log: EvmLog): Uint8Array | undefined {
  if (log.data.length < 64) return undefined;
  const length = Number(BigInt(toHex0x(log.data.subarray(32, 64))));
  return log.data.length >= 64 + length ? log.data.slice(64, 64 + length) : undefined;
}

const isSendWarp = (log: EvmLog, sender: Uint8Array) =>
  toHex(log.address) === WARP_ADDRESS_HEX &&
  log.topics.length === 3 &&
  Buffer.compare(log.topics[0]!, SEND_WARP_MESSAGE_TOPIC) === 0 &&
  Buffer.compare(log.topics[1]!.subarray(12), sender) === 0;

/** What an unsigned warp message from the messenger at `messenger` carries: its source chain and the TeleporterMessage; undefined for any other message. */
function carried(unsigned: Uint8Array, messenger: Uint8Array): { sourceChainID: Uint8Array; message: TeleporterMessage } | undefined {
  try {
    const u = parseUnsignedMessage(unsigned);
    const call = parseAddressedCall(u.payload);
    if (Buffer.compare(call.sourceAddress, messenger) !== 0) return undefined;
    const message = decodeTeleporterMessage(call.payload);
    return message && { sourceChainID: u.sourceChainID, message };
  } catch {
    // Not a message the messenger made: not ICM's to relay.
    return undefined;
  }
}

/** The ICM messages a block's txs sent through the messenger at `messenger`, in order. */
export function icmSends(records: readonly TxRecord[], messenger = MESSENGER_ADDRESS): IcmSent[] {
  const out: IcmSent[] = [];
  records.forEach((r, txIndex) => {
    if (r.status !== 1) return;
    for (const log of r.logs) {
      const unsigned = isSendWarp(log, messenger) ? loggedMessage(log) : undefined;
      const sent = unsigned && carried(unsigned, messenger);
      if (!unsigned || !sent) continue;
      const id = icmMessageID(sent.sourceChainID, sent.message.destinationBlockchainID, sent.message.nonce, messenger);
      out.push({ id, warpID: warpMessageID(unsigned), unsigned, sourceBlockchainID: sent.sourceChainID, message: sent.message, txIndex });
    }
  });
  return out;
}

/** The TeleporterMessage an unsigned warp message from the messenger carries; undefined for any other. */
export const teleporterMessageOf = (unsigned: Uint8Array, messenger = MESSENGER_ADDRESS): TeleporterMessage | undefined =>
  carried(unsigned, messenger)?.message;

/** receiveCrossChainMessage(uint32 messageIndex, address relayerRewardAddress) */
export const receiveCalldata = (index: number, rewardAddress: Uint8Array): Uint8Array =>
  Buffer.concat([fromHex0x('0xccb5f809'), uintWord(BigInt(index)), word(rewardAddress)]);

/** messageReceived(bytes32 messageID) */
export const messageReceivedCalldata = (id: Uint8Array): Uint8Array => Buffer.concat([fromHex0x('0xebc3b1ba'), id]);

/** What a delivery tx's logs say of the message's execution: ran, reverted, or nothing ran (a receipt-only message). */
export function executionOf(record: TxRecord, id: Uint8Array, messenger = MESSENGER_ADDRESS): 'executed' | 'failed' | 'none' {
  for (const log of record.logs) {
    if (Buffer.compare(log.address, messenger) !== 0 || log.topics.length < 2 || Buffer.compare(log.topics[1]!, id) !== 0) continue;
    const t0 = toHex(log.topics[0]!);
    if (t0 === DELIVERY_TOPICS.executed) return 'executed';
    if (t0 === DELIVERY_TOPICS.failed) return 'failed';
  }
  return 'none';
}

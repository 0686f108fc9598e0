// What a relayer does on the destination chain (icm-relayer's teleporter message handler and
// destination client, docs/research/icm.md §4): asks the messenger whether a message was received,
// and builds the delivery tx: receiveCrossChainMessage(0, reward address) to the messenger, an
// EIP-1559 tx whose access list carries the signed warp message as the precompile's predicate,
// with icm-relayer's gas limit (Granite's costs) and fee cap (three times the base fee).
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { parseSignedMessage } from '../../components/warp/message.js';
import { numSigners } from '../../components/warp/signature.js';
import { call } from '../calls.js';
import type { EvmChain } from '../chain.js';
import { defaultsBaseFee, poolNonce } from '../txargs.js';
import { WARP_ADDRESS_HEX } from '../warp/precompile.js';
import { predicateChunksOf } from '../warp/predicate.js';
import { MESSENGER_ADDRESS, messageReceivedCalldata, receiveCalldata, type TeleporterMessage } from './teleporter.js';

/** icm-relayer's gas_utils.go with Granite's warp costs: per predicate chunk (paid twice), per AddressedCall byte, per receipt, per signer, the bases and the messenger's overhead. */
const PER_CHUNK = 512n * 2n;
const PER_PAYLOAD_BYTE = 35n;
const PER_RECEIPT = 2_500n;
const PER_SIGNER = 250n;
const BASES = 125_000n + 750n + 250_000n;
/** icm-relayer's default fee cap: the base fee times three (defaultBaseFeeFactor), no tip. */
const BASE_FEE_FACTOR = 3n;

/** messageReceived(id) on `chain` at its head; false when the call fails (no messenger there). */
export async function messageReceived(chain: EvmChain, id: Uint8Array, messenger = MESSENGER_ADDRESS): Promise<boolean> {
  try {
    const out = await call(chain, chain.head, { to: messenger, data: messageReceivedCalldata(id), gas: 1_000_000n });
    return out.length === 32 && out[31] === 1;
  } catch {
    return false;
  }
}

export interface DeliveryTx {
  bytes: Uint8Array;
  hash: Uint8Array;
  nonce: bigint;
  gasLimit: bigint;
  /** What the sender must hold for the pool to take it: gas limit × fee cap. */
  cost: bigint;
}

/** receiveCrossChainMessage's gas: the message's own limit plus what verifying and recording it costs. */
export function deliveryGas(signed: Uint8Array, message: TeleporterMessage): bigint {
  const chunks = BigInt(predicateChunksOf(signed).length);
  const m = parseSignedMessage(signed);
  const payload = BigInt(m.payload.length);
  return (
    message.requiredGasLimit +
    chunks * PER_CHUNK +
    payload * PER_PAYLOAD_BYTE +
    BigInt(message.receipts) * PER_RECEIPT +
    BigInt(numSigners(m.signers)) * PER_SIGNER +
    BASES
  );
}

/** The relayer's account: its key signs, its address (given, not derived from the key at each delivery) has the nonces. */
export interface RelayerAccount {
  key: Uint8Array;
  address: Uint8Array;
}

/** The signed delivery tx of `signed` (the warp message with its aggregate signature) from `relayer`, at `nonce` or else its next pool nonce on `chain`. */
export async function deliveryTx(
  chain: EvmChain,
  signed: Uint8Array,
  message: TeleporterMessage,
  relayer: RelayerAccount,
  rewardAddress: Uint8Array,
  at?: bigint,
  messenger = MESSENGER_ADDRESS,
): Promise<DeliveryTx> {
  const nonce = at ?? (await poolNonce(chain, relayer.address));
  const gasLimit = deliveryGas(signed, message);
  const maxFeePerGas = defaultsBaseFee(chain) * BASE_FEE_FACTOR;
  const tx = createFeeMarket1559Tx(
    {
      nonce,
      to: new Address(messenger),
      value: 0n,
      data: receiveCalldata(0, rewardAddress),
      gasLimit,
      maxFeePerGas,
      maxPriorityFeePerGas: 0n,
      accessList: [[Buffer.from(WARP_ADDRESS_HEX, 'hex'), predicateChunksOf(signed)]],
    },
    { common: chain.common },
  ).sign(relayer.key);
  return { bytes: tx.serialize(), hash: tx.hash(), nonce, gasLimit, cost: gasLimit * maxFeePerGas };
}

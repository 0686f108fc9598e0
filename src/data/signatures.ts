// The Data API's signature aggregator (POST /v1/signatureAggregator/{network}/aggregateSignatures):
// icm-services' signature-aggregator checks, in its order and with its texts, then the signatures of
// the signing subnet's validators, every one of which runs in this process. A message from the
// P-Chain must pass the P-Chain's signatureRequestVerifier (with the justification); a message from
// one of the node's EVM chains must be one the chain sent (or an accepted block's hash), as the
// validators' ACP-118 handlers check before they sign. Answers 201, as the hosted API does.
import { encodeCB58, idFromString } from '../encoding/cb58.js';
import { aggregate, type EvmChainVM, QuorumError, type WarpValidator } from '../vms/evm/index.js';
import {
  addressedCall,
  messageID,
  parseAddressedCall,
  parseSignedMessage,
  parseUnsignedMessage,
  type UnsignedMessage,
  unsignedMessage,
} from '../vms/components/warp/index.js';
import { sha256 } from '../crypto/sha256.js';
import { aggregateFor, conversionID, marshalPlatformMessage, parsePlatformMessage, type PChain, refusal, SigningError } from '../vms/platform/index.js';
import { badRequest, DataError } from './errors.js';
import type { DataHandler } from './http.js';
import { checkNetwork } from './primary/handlers.js';
import { parseHex0x } from '../encoding/bytes.js';

export interface SigningSources {
  networkID: number;
  pChain: () => PChain;
  /** One of the node's EVM chains by blockchain ID (CB58), with its subnet. */
  evmChain: (blockchainID: string) => { vm: EvmChainVM; subnetID: string } | undefined;
}

const PRIMARY = '11111111111111111111111111111111LpoYY';

/** utils.UnpackWarpMessage: ABI-encoded SendWarpMessage log data (offset ‖ length ‖ message), else a bare unsigned message. */
function unpack(bytes: Uint8Array): { unsigned: Uint8Array; msg: UnsignedMessage } | undefined {
  const b = Buffer.from(bytes);
  if (b.length >= 64 && b.readBigUInt64BE(24) === 32n) {
    const length = Number(b.readBigUInt64BE(56));
    if (64 + length <= b.length) {
      const inner = new Uint8Array(b.subarray(64, 64 + length));
      try {
        return { unsigned: inner, msg: parseUnsignedMessage(inner) };
      } catch {}
    }
  }
  try {
    return { unsigned: bytes, msg: parseUnsignedMessage(bytes) };
  } catch {
    return undefined;
  }
}

const failed = (inner: string) => new DataError(500, `failed to aggregate signatures. error: ${inner}`);

export function signatureHandlers(s: SigningSources): Record<string, DataHandler> {
  return {
    getAggregatedSignatures: async ({ params }) => {
      checkNetwork(params.network);
      let txID: Uint8Array;
      try {
        txID = idFromString(String(params.txHash));
      } catch {
        throw badRequest(`${params.txHash} is not a transaction ID`);
      }
      const p = s.pChain();
      const m = await messageOfTx(p, s.networkID, txID);
      const why = refusal(p.state.ledger, s.networkID, parseUnsignedMessage(m.unsigned), m.justification);
      if (why) throw failed(`failed to collect a threshold of signatures: validators refused the message: ${why}`);
      try {
        return { signedMessage: Buffer.from(aggregateFor(p.state.ledger, m.subnet, m.unsigned, 67)).toString('hex') };
      } catch (err) {
        if (err instanceof SigningError) throw failed(err.message);
        throw err;
      }
    },

    aggregateSignatures: async ({ params, body }) => {
      checkNetwork(params.network);
      const b = body ?? {};
      const raw = parseHex0x(String(b.message ?? ''));
      if (raw === undefined) throw badRequest('Could not decode message');
      const unpacked = unpack(raw);
      if (!unpacked) throw badRequest('Error unpacking warp message');
      const justification = parseHex0x(String(b.justification ?? ''));
      if (justification === undefined) throw badRequest('Could not decode justification');
      if (raw.every((x) => x === 0) && justification.every((x) => x === 0)) throw badRequest('Must provide either message or justification');
      let quorum = Number(b.quorumPercentage ?? 0);
      if (quorum === 0) quorum = 67;
      if (!Number.isInteger(quorum) || quorum < 0 || quorum > 100) throw badRequest('Invalid quorum number');
      const buffer = Number(b.quorumPercentageBuffer ?? 0);
      if (!Number.isInteger(buffer) || buffer < 0 || quorum + buffer > 100) throw badRequest('Invalid quorum buffer number');
      const { unsigned, msg } = unpacked;
      if (msg.networkID !== s.networkID) throw failed(`message is for network ${msg.networkID}, this node runs network ${s.networkID}`);
      const source = encodeCB58(msg.sourceChainID);
      let signingSubnet: string | undefined;
      if (typeof b.signingSubnetId === 'string' && b.signingSubnetId !== '') {
        try {
          const id = b.signingSubnetId.startsWith('0x') ? parseHex0x(b.signingSubnetId) : idFromString(b.signingSubnetId);
          if (id?.length !== 32) throw new Error('not 32 bytes');
          signingSubnet = encodeCB58(id);
        } catch {
          throw badRequest('Error parsing signing subnet ID');
        }
      }
      if (source === PRIMARY) {
        // A P-Chain message: its validators sign only what the P-Chain's verifier accepts.
        const ledger = s.pChain().state.ledger;
        const why = refusal(ledger, s.networkID, msg, justification);
        if (why) throw failed(`failed to collect a threshold of signatures: validators refused the message: ${why}`);
        try {
          const signed = aggregateFor(ledger, idFromString(signingSubnet ?? PRIMARY), unsigned, quorum);
          return { signedMessage: Buffer.from(signed).toString('hex') };
        } catch (err) {
          if (err instanceof SigningError) throw failed(err.message);
          throw err;
        }
      }
      const chain = s.evmChain(source);
      if (!chain) throw failed(`source blockchain not found for chain ID ${source}`);
      const known = (await chain.vm.evm.warpMessage(messageID(unsigned))) !== undefined || (await isBlockHash(chain.vm, msg));
      if (!known) throw failed('failed to collect a threshold of signatures: validators refused the message: the chain did not send it');
      const validators: WarpValidator[] = chain.vm.warpValidatorsOf(signingSubnet ?? chain.subnetID);
      try {
        return { signedMessage: Buffer.from(aggregate(unsigned, validators, BigInt(quorum))).toString('hex') };
      } catch (err) {
        if (err instanceof QuorumError) throw failed(err.message.replace(/^failed to aggregate signatures: /, ''));
        throw err;
      }
    },
  };
}

/**
 * The P-Chain's message for one of its L1 txs, with the justification and the signing subnet a
 * client gives for it (builders-hub's toolbox): the conversion (justified by the subnet ID), a
 * registration's acknowledgement, a weight change's acknowledgement; each signed by the L1's validators.
 */
async function messageOfTx(p: PChain, networkID: number, txID: Uint8Array): Promise<{ unsigned: Uint8Array; justification: Uint8Array; subnet: Uint8Array }> {
  const tx = await p.state.getTx(txID);
  if (!tx) throw new DataError(404, `transaction ${encodeCB58(txID)} not found on the P-Chain`);
  const u = tx.unsigned;
  const platform = (m: Parameters<typeof marshalPlatformMessage>[0]) =>
    unsignedMessage(networkID, new Uint8Array(32), addressedCall(new Uint8Array(), marshalPlatformMessage(m)));
  if (u.type === 35) {
    return { unsigned: platform({ type: 0, conversionID: conversionID(u) }), justification: u.subnetID, subnet: u.subnetID };
  }
  if (u.type === 36 || u.type === 37) {
    const inner = parsePlatformMessage(parseAddressedCall(parseSignedMessage(u.message).payload).payload);
    if (inner.type === 1) {
      const validationID = sha256(parseAddressedCall(parseSignedMessage(u.message).payload).payload);
      return {
        unsigned: platform({ type: 2, validationID, registered: true }),
        justification: new Uint8Array(),
        subnet: inner.subnetID,
      };
    }
    if (inner.type === 3) {
      const v = p.state.ledger.l1Validators.get(Buffer.from(inner.validationID).toString('hex'));
      const weight = { type: 3 as const, validationID: inner.validationID, nonce: inner.nonce, weight: inner.weight };
      return { unsigned: platform(weight), justification: new Uint8Array(), subnet: v ? Buffer.from(v.subnetID, 'hex') : new Uint8Array(32) };
    }
  }
  throw badRequest(`transaction ${encodeCB58(txID)} is not a P-Chain L1 transaction (ConvertSubnetToL1Tx, RegisterL1ValidatorTx or SetL1ValidatorWeightTx)`);
}

/** A Hash payload (typeID 0) naming an accepted block of the chain: what getBlockSignature signs. */
async function isBlockHash(vm: EvmChainVM, msg: UnsignedMessage): Promise<boolean> {
  const p = Buffer.from(msg.payload);
  if (p.length !== 2 + 4 + 32 || p.readUInt32BE(2) !== 0) return false;
  return (await vm.evm.store.block(p.subarray(6))) !== undefined;
}

// The P-Chain's warp messages and who signs them. avalanchego serves a validator's signature over
// p2p (ACP-118) only after vms/platformvm/network/warp.go's signatureRequestVerifier accepts the
// message; the emulator applies the same rules, then aggregates the signatures of the signing
// subnet's validators whose BLS keys it holds (the local network's five stakers; the node is staker
// 1), in canonical order, as icm-services' signature-aggregator does.
import { sha256 } from '../../crypto/sha256.js';
import { toHex, u32 } from '../../encoding/bytes.js';
import { encodeCB58 } from '../../encoding/cb58.js';
import { CodecError } from '../../encoding/packer.js';
import { parseAddressedCall, type UnsignedMessage } from '../components/warp/message.js';
import { AggregationError, aggregate } from '../components/warp/signature.js';
import { localSecretKeyOf } from '../components/warp/signers.js';
import type { Ledger } from './ledger.js';
import { validatorSets, warpSet } from './validators.js';
import { parsePlatformMessage } from './warp.js';

export class SigningError extends Error {}

/** L1ValidatorRegistrationJustification (protobuf): field 1 = SubnetIDIndex{1: subnet_id, 2: index}, field 2 = register message bytes. */
function parseJustification(b: Uint8Array): { subnetID: Uint8Array; index: number } | { registerMessage: Uint8Array } {
  let i = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      if (i >= b.length) throw new SigningError('failed to unmarshal justification: unexpected EOF');
      const c = b[i++]!;
      v += (c & 0x7f) * 2 ** shift;
      if (c < 0x80) return v;
      shift += 7;
    }
  };
  const tag = varint();
  const len = varint();
  const body = b.subarray(i, i + len);
  if (tag === (2 << 3) + 2) return { registerMessage: body };
  if (tag !== (1 << 3) + 2) throw new SigningError('failed to unmarshal justification: unknown field');
  let subnetID = new Uint8Array(32);
  let index = 0;
  let j = 0;
  while (j < body.length) {
    const t = body[j++]!;
    if (t === 0x0a) {
      const l = body[j++]!;
      subnetID = body.slice(j, j + l);
      j += l;
    } else if (t === 0x10) {
      let v = 0;
      let shift = 0;
      for (;;) {
        const c = body[j++]!;
        v += (c & 0x7f) * 2 ** shift;
        if (c < 0x80) break;
        shift += 7;
      }
      index = v;
    } else throw new SigningError('failed to unmarshal justification: unknown field');
  }
  return { subnetID, index };
}

/** signatureRequestVerifier.Verify: why this node refuses to sign, or undefined. */
export function refusal(ledger: Ledger, networkID: number, msg: UnsignedMessage, justification: Uint8Array): string | undefined {
  if (msg.networkID !== networkID) return `wrong networkID: expected ${networkID} but got ${msg.networkID}`;
  if (!msg.sourceChainID.every((b) => b === 0)) return 'source chain is not the P-Chain';
  let payload: ReturnType<typeof parsePlatformMessage>;
  try {
    const call = parseAddressedCall(msg.payload);
    if (call.sourceAddress.length !== 0) return 'source address should be empty';
    payload = parsePlatformMessage(call.payload);
  } catch (err) {
    if (err instanceof CodecError) return `failed to parse warp message payload: ${err.message}`;
    throw err;
  }
  switch (payload.type) {
    case 0: {
      const subnetID = justification;
      const conv = ledger.subnets.get(toHex(subnetID))?.conversion;
      if (!conv) return `subnet "${encodeCB58(subnetID)}" has not been converted`;
      if (conv.conversionID !== toHex(payload.conversionID)) {
        return `provided conversionID ${encodeCB58(payload.conversionID)} != expected conversionID ${encodeCB58(Buffer.from(conv.conversionID, 'hex'))}`;
      }
      return undefined;
    }
    case 2: {
      const exists = ledger.l1Validators.has(toHex(payload.validationID));
      if (payload.registered) return exists ? undefined : `validation ${encodeCB58(payload.validationID)} not found`;
      const j = parseJustification(justification);
      if ('registerMessage' in j) {
        if (toHex(sha256(j.registerMessage)) !== toHex(payload.validationID)) return 'validationID does not match the register message';
        if (exists) return `validation ${encodeCB58(payload.validationID)} exists`;
        return undefined;
      }
      if (toHex(sha256(Buffer.concat([j.subnetID, u32(j.index)]))) !== toHex(payload.validationID)) return 'validationID does not match the subnetID and index';
      if (!ledger.subnets.get(toHex(j.subnetID))?.conversion) return `subnet "${encodeCB58(j.subnetID)}" has not been converted`;
      if (exists) return `validation ${encodeCB58(payload.validationID)} exists`;
      return undefined;
    }
    case 3: {
      if (payload.nonce === 0xffffffffffffffffn) return 'impossible nonce';
      const v = ledger.l1Validators.get(toHex(payload.validationID));
      if (!v) return `validation ${encodeCB58(payload.validationID)} not found`;
      if (payload.nonce + 1n !== v.minNonce) return `provided nonce ${payload.nonce} != expected nonce (${v.minNonce} - 1)`;
      if (payload.weight !== v.weight) return `provided weight ${payload.weight} != expected weight ${v.weight}`;
      return undefined;
    }
    default:
      return 'unexpected message type';
  }
}

/**
 * Signs `unsigned` with the signing subnet's validators whose keys this process holds, and returns the
 * signed message (BitSetSignature over the canonical set), or throws when they lack `quorum` percent.
 */
export function aggregateFor(ledger: Ledger, signingSubnet: Uint8Array, unsigned: Uint8Array, quorum: number): Uint8Array {
  try {
    return aggregate(unsigned, warpSet(validatorSets(ledger)[toHex(signingSubnet)] ?? []), (v) => localSecretKeyOf(v.publicKey), BigInt(quorum));
  } catch (err) {
    if (!(err instanceof AggregationError)) throw err;
    if (err.reason === 'no validators') throw new SigningError(`no validators for subnet ${encodeCB58(signingSubnet)}`);
    throw new SigningError(`failed to collect a threshold of signatures: ${quorum}% of ${err.totalWeight} required, ${err.weight} signed`);
  }
}

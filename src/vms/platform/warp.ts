// The P-Chain's own warp messages (vms/platformvm/warp/message), the AddressedCall payloads of the
// messages RegisterL1ValidatorTx and SetL1ValidatorWeightTx carry and of those the P-Chain signs.
// The linear codec, one u16 version in front; the warp message and its payloads are
// src/vms/components/warp's.
import { u32, u64 } from '../../encoding/bytes.js';
import { CodecError, type Reader, unmarshal } from '../../encoding/packer.js';

export interface RegisterL1Validator {
  type: 1;
  subnetID: Uint8Array;
  nodeID: Uint8Array;
  publicKey: Uint8Array;
  expiry: bigint;
  remainingBalanceOwner: { threshold: number; addresses: Uint8Array[] };
  disableOwner: { threshold: number; addresses: Uint8Array[] };
  weight: bigint;
}

export type PlatformMessage =
  | { type: 0; conversionID: Uint8Array }
  | RegisterL1Validator
  | { type: 2; validationID: Uint8Array; registered: boolean }
  | { type: 3; validationID: Uint8Array; nonce: bigint; weight: bigint };

const owner = (r: Reader) => {
  const threshold = r.u32();
  const n = r.sliceLength();
  const addresses: Uint8Array[] = [];
  for (let i = 0; i < n; i++) addresses.push(r.fixed(20));
  return { threshold, addresses };
};

const MESSAGE_NAMES = ['*message.SubnetToL1Conversion', '*message.RegisterL1Validator', '*message.L1ValidatorRegistration', '*message.L1ValidatorWeight'];
export const messageTypeName = (type: number) => MESSAGE_NAMES[type] ?? `type ${type}`;

/** message.Parse: one of the four platform messages. */
export function parsePlatformMessage(bytes: Uint8Array): PlatformMessage {
  return unmarshal(bytes, (r): PlatformMessage => {
    const type = r.typeID();
    switch (type) {
      case 0:
        return { type: 0, conversionID: r.fixed(32) };
      case 1:
        return {
          type: 1,
          subnetID: r.fixed(32),
          nodeID: r.byteSlice(),
          publicKey: r.fixed(48),
          expiry: r.u64(),
          remainingBalanceOwner: owner(r),
          disableOwner: owner(r),
          weight: r.u64(),
        };
      case 2: {
        const validationID = r.fixed(32);
        const b = r.u8();
        if (b > 1) throw new CodecError(`couldn't unmarshal bool: invalid value ${b}`);
        return { type: 2, validationID, registered: b === 1 };
      }
      case 3:
        return { type: 3, validationID: r.fixed(32), nonce: r.u64(), weight: r.u64() };
      default:
        throw new CodecError(`couldn't unmarshal interface: unknown type ID ${type}`);
    }
  });
}

/**
 * message.Marshal of the messages the P-Chain signs about its own L1 txs (codec version 0 in front):
 * a conversion, a registration's acknowledgement and a weight change's acknowledgement.
 */
export function marshalPlatformMessage(m: Exclude<PlatformMessage, RegisterL1Validator>): Uint8Array {
  const version = Uint8Array.of(0, 0);
  if (m.type === 0) return Buffer.concat([version, u32(0), m.conversionID]);
  if (m.type === 2) return Buffer.concat([version, u32(2), m.validationID, Uint8Array.of(m.registered ? 1 : 0)]);
  return Buffer.concat([version, u32(3), m.validationID, u64(m.nonce), u64(m.weight)]);
}

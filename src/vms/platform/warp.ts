// Warp messages as the P-Chain reads them (vms/platformvm/warp): the signed message carried by
// RegisterL1ValidatorTx and SetL1ValidatorWeightTx, its AddressedCall payload, and the messages
// of vms/platformvm/warp/message. All in the linear codec, one u16 version in front.
import { sha256 } from '@noble/hashes/sha2.js';
import { CodecError, type Reader, unmarshal } from '../../encoding/packer.js';

export interface SignedWarp {
  networkID: number;
  sourceChainID: Uint8Array;
  payload: Uint8Array;
  /** The unsigned message's bytes (with version) and ID. */
  unsigned: Uint8Array;
  id: Uint8Array;
  signers: Uint8Array;
  signature: Uint8Array;
}

export function parseWarpMessage(bytes: Uint8Array): SignedWarp {
  return unmarshal(bytes, (r) => {
    const networkID = r.u32();
    const sourceChainID = r.fixed(32);
    const payload = r.byteSlice();
    const unsignedEnd = r.offset;
    const type = r.typeID();
    if (type !== 0) throw new CodecError(`couldn't unmarshal interface: unknown type ID ${type}`);
    const signers = r.byteSlice();
    const signature = r.fixed(96);
    const unsigned = bytes.slice(0, unsignedEnd);
    return { networkID, sourceChainID, payload, unsigned, id: sha256(unsigned), signers, signature };
  });
}

/** The number of set bits in a signer bitset (big-endian bytes). */
export function countSigners(bits: Uint8Array): number {
  let n = 0;
  for (const b of bits) for (let v = b; v; v &= v - 1) n++;
  return n;
}

/** payload.AddressedCall. */
export function parseAddressedCall(bytes: Uint8Array): { sourceAddress: Uint8Array; payload: Uint8Array } {
  return unmarshal(bytes, (r) => {
    const type = r.typeID();
    if (type !== 1) throw new CodecError(`couldn't unmarshal interface: unknown type ID ${type}`);
    return { sourceAddress: r.byteSlice(), payload: r.byteSlice() };
  });
}

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

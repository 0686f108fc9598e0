// Verifying a signed warp message as a receiving chain does (subnet-evm warp/config.go
// VerifyPredicate, avalanchego warp/signature.go): its network, its source chain's subnet (a
// primary-network source is checked against the receiving subnet's own validators unless
// requirePrimaryNetworkSigners), the signers' bitset over that set in canonical order, their
// weight against the quorum, and the aggregate BLS signature over the unsigned bytes.
import { WarpFormatError } from './message.js';
import { canonicalOrder, publicKey, verifyWarpSignature, type WarpValidator } from './signers.js';

export interface SignedMessage {
  unsigned: Uint8Array;
  networkID: number;
  sourceChainID: Uint8Array;
  payload: Uint8Array;
  signers: bigint;
  signerCount: number;
  signature: Uint8Array;
}

/** warp.ParseMessage: the unsigned message, then a BitSetSignature (type 0). */
export function parseSignedMessage(bytes: Uint8Array): SignedMessage {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (b.length < 42 || b.readUInt16BE(0) !== 0) throw new WarpFormatError("couldn't unpack codec version");
  const payloadLength = b.readUInt32BE(38);
  const unsignedEnd = 42 + payloadLength;
  if (b.length < unsignedEnd + 8) throw new WarpFormatError('insufficient length for a signed warp message');
  if (b.readUInt32BE(unsignedEnd) !== 0) throw new WarpFormatError(`unknown signature type ${b.readUInt32BE(unsignedEnd)}`);
  const signersLength = b.readUInt32BE(unsignedEnd + 4);
  const signersEnd = unsignedEnd + 8 + signersLength;
  if (b.length !== signersEnd + 96) throw new WarpFormatError('signed warp message has the wrong length');
  const signerBytes = b.subarray(unsignedEnd + 8, signersEnd);
  if (signerBytes.length > 0 && signerBytes[0] === 0) throw new WarpFormatError('bitset is invalid');
  const signers = signerBytes.length === 0 ? 0n : BigInt(`0x${signerBytes.toString('hex')}`);
  let signerCount = 0;
  for (let n = signers; n > 0n; n >>= 1n) if (n & 1n) signerCount++;
  return {
    unsigned: new Uint8Array(b.subarray(0, unsignedEnd)),
    networkID: b.readUInt32BE(2),
    sourceChainID: new Uint8Array(b.subarray(6, 38)),
    payload: new Uint8Array(b.subarray(42, unsignedEnd)),
    signers,
    signerCount,
    signature: new Uint8Array(b.subarray(signersEnd)),
  };
}

/** Why a message fails verification against `validators`, or undefined when it passes. */
export function verificationError(m: SignedMessage, networkID: number, validators: WarpValidator[], quorumNum: bigint): string | undefined {
  if (m.networkID !== networkID) return 'wrong networkID';
  const ordered = canonicalOrder(validators);
  if (m.signers >> BigInt(ordered.length) !== 0n) return 'unknown validator';
  const total = ordered.reduce((sum, v) => sum + v.weight, 0n);
  const signing = ordered.filter((_, i) => (m.signers >> BigInt(i)) & 1n);
  const weight = signing.reduce((sum, v) => sum + v.weight, 0n);
  if (weight * 100n < total * quorumNum) return `signature weight is insufficient: ${quorumNum}*${total} > 100*${weight}`;
  if (signing.length === 0) return 'signature is invalid';
  try {
    if (!verifyWarpSignature(m.unsigned, m.signature, signing.map(publicKey))) return 'signature is invalid';
  } catch {
    return 'signature is invalid';
  }
  return undefined;
}

// The block headers of coreth and Subnet-EVM (avalanchego 1.14, graft/{coreth,subnet-evm}
// customtypes HeaderSerializable): Ethereum's fifteen fields, then
//   - coreth: ExtDataHash (always present, before the base fee), then the tail baseFee,
//     extDataGasUsed, blockGasCost, blobGasUsed, excessBlobGas, parentBeaconRoot, timeMs, minDelayExcess;
//   - Subnet-EVM: the tail baseFee, blockGasCost, blobGasUsed, excessBlobGas, parentBeaconRoot,
//     timeMs, minDelayExcess.
// The tail is written up to its last present field, a missing one before it as an empty string. A
// header with an extDataHash is coreth's. The block hash is the keccak of this encoding, which is
// not what @ethereumjs's BlockHeader hashes, so the EVM chains encode and hash their headers here.
// Notes: docs/research/cchain.md §1.
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';
import { keccak256, knownKeccak } from '../../crypto/keccak.js';

export interface CorethHeader {
  parentHash: Uint8Array;
  uncleHash: Uint8Array;
  coinbase: Uint8Array;
  stateRoot: Uint8Array;
  txHash: Uint8Array;
  receiptHash: Uint8Array;
  bloom: Uint8Array;
  difficulty: bigint;
  number: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  /** Unix seconds. */
  time: bigint;
  extra: Uint8Array;
  mixDigest: Uint8Array;
  /** 8 bytes. */
  nonce: Uint8Array;
  /** coreth only (the hash of the block's atomic txs): its presence makes the header coreth's. */
  extDataHash?: Uint8Array;
  // The optional tail, in order (each present from its upgrade on):
  baseFee?: bigint;
  extDataGasUsed?: bigint;
  blockGasCost?: bigint;
  blobGasUsed?: bigint;
  excessBlobGas?: bigint;
  parentBeaconRoot?: Uint8Array;
  /** Granite: the block time in milliseconds. */
  timeMilliseconds?: bigint;
  /** Granite (ACP-226). */
  minDelayExcess?: bigint;
}

/** keccak256 of RLP("") and of RLP([]): the empty trie root and the empty uncles hash. */
export const EMPTY_ROOT = knownKeccak(RLP.encode(new Uint8Array()), '56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
export const EMPTY_UNCLES = knownKeccak(RLP.encode([]), '1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347');

const quantity = (n: bigint): Uint8Array => bigIntToUnpaddedBytes(n);

export type HeaderLayout = 'coreth' | 'subnet-evm';

type TailField = 'baseFee' | 'extDataGasUsed' | 'blockGasCost' | 'blobGasUsed' | 'excessBlobGas' | 'parentBeaconRoot' | 'timeMilliseconds' | 'minDelayExcess';

/** The optional tail of each layout, in order (after ExtDataHash for coreth). */
const TAILS: Record<HeaderLayout, TailField[]> = {
  coreth: ['baseFee', 'extDataGasUsed', 'blockGasCost', 'blobGasUsed', 'excessBlobGas', 'parentBeaconRoot', 'timeMilliseconds', 'minDelayExcess'],
  'subnet-evm': ['baseFee', 'blockGasCost', 'blobGasUsed', 'excessBlobGas', 'parentBeaconRoot', 'timeMilliseconds', 'minDelayExcess'],
};

/** The header's RLP, as coreth or Subnet-EVM encodes it. */
export function encodeHeader(h: CorethHeader): Uint8Array {
  const fields: Uint8Array[] = [
    h.parentHash,
    h.uncleHash,
    h.coinbase,
    h.stateRoot,
    h.txHash,
    h.receiptHash,
    h.bloom,
    quantity(h.difficulty),
    quantity(h.number),
    quantity(h.gasLimit),
    quantity(h.gasUsed),
    quantity(h.time),
    h.extra,
    h.mixDigest,
    h.nonce,
  ];
  if (h.extDataHash) fields.push(h.extDataHash);
  const tail = TAILS[h.extDataHash ? 'coreth' : 'subnet-evm'].map((k) => h[k]);
  let last = -1;
  tail.forEach((v, i) => {
    if (v !== undefined) last = i;
  });
  for (const v of tail.slice(0, last + 1)) fields.push(v === undefined ? new Uint8Array() : v instanceof Uint8Array ? v : quantity(v));
  return RLP.encode(fields);
}

export function headerHash(h: CorethHeader): Uint8Array {
  return keccak256(encodeHeader(h));
}

/** keccak256(RLP("")): the ExtDataHash of a block without atomic txs (coreth's EmptyExtDataHash). */
export const EMPTY_EXT_DATA_HASH = knownKeccak(RLP.encode(new Uint8Array()), '56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');

/** A tx as a block body holds it: a legacy tx as its RLP list, a typed one as the string type ‖ payload. */
export type BodyTx = Uint8Array | Uint8Array[];

/** An RLP list of items already encoded: the list's prefix, then the items. */
function rlpList(items: Uint8Array[]): Uint8Array {
  const length = items.reduce((n, i) => n + i.length, 0);
  const lengthBytes = length < 56 ? undefined : bigIntToUnpaddedBytes(BigInt(length));
  const out = new Uint8Array(1 + (lengthBytes?.length ?? 0) + length);
  out[0] = lengthBytes ? 0xf7 + lengthBytes.length : 0xc0 + length;
  let at = 1;
  if (lengthBytes) {
    out.set(lengthBytes, at);
    at += lengthBytes.length;
  }
  for (const i of items) {
    out.set(i, at);
    at += i.length;
  }
  return out;
}

/**
 * A block's RLP (`size` is its length) and its hash (the keccak of the header's RLP), the header
 * encoded once. coreth: [header, txs, uncles, version (always 0), extData (atomic txs, if any)];
 * Subnet-EVM: Ethereum's [header, txs, uncles].
 */
export function sealBlock(h: CorethHeader, txs: BodyTx[], extData?: Uint8Array): { bytes: Uint8Array; hash: Uint8Array } {
  const header = encodeHeader(h);
  const rest = h.extDataHash
    ? [RLP.encode(txs), RLP.encode([]), RLP.encode(new Uint8Array()), RLP.encode(extData ?? new Uint8Array())]
    : [RLP.encode(txs), RLP.encode([])];
  return { bytes: rlpList([header, ...rest]), hash: keccak256(header) };
}

/** A block's RLP (see sealBlock). */
export function encodeBlock(h: CorethHeader, txs: BodyTx[], extData?: Uint8Array): Uint8Array {
  return sealBlock(h, txs, extData).bytes;
}

/** The header of a decoded header list (the inverse of encodeHeader). */
export function decodeHeader(f: Uint8Array[], layout: HeaderLayout): CorethHeader {
  const q = (i: number) => (f[i] === undefined ? undefined : bytesToBigInt(f[i]!));
  const h: CorethHeader = {
    parentHash: f[0]!,
    uncleHash: f[1]!,
    coinbase: f[2]!,
    stateRoot: f[3]!,
    txHash: f[4]!,
    receiptHash: f[5]!,
    bloom: f[6]!,
    difficulty: q(7)!,
    number: q(8)!,
    gasLimit: q(9)!,
    gasUsed: q(10)!,
    time: q(11)!,
    extra: f[12]!,
    mixDigest: f[13]!,
    nonce: f[14]!,
  };
  // An empty string (a missing field before a present one) reads as 0, as Go's decoder gives it.
  let at = 15;
  if (layout === 'coreth') h.extDataHash = f[at++]!;
  for (const k of TAILS[layout]) {
    const v = f[at++];
    if (v === undefined) break;
    if (k === 'parentBeaconRoot') h.parentBeaconRoot = v;
    else h[k] = bytesToBigInt(v);
  }
  return h;
}

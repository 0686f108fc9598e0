// What geth answers for raw tx bytes it cannot decode (types.Transaction.UnmarshalBinary): the
// first error its rlp package meets, in its words, e.g. `rlp: too few elements for
// types.DynamicFeeTx` for an unsigned tx, or `rlp: input string too long for common.Address,
// decoding into (types.LegacyTx).To`. The txs themselves are decoded by @ethereumjs/tx; this only
// walks the bytes the way geth's rlp.Stream reads them into its tx structs, because the two
// decoders check in different orders and only geth's texts name the Go type and field that failed.
// The reading itself is rlpstream.ts's; here are the Go types geth decodes a raw tx into.
import {
  bigInt,
  byteArray,
  byteSlice,
  type Decoder,
  decodeBytes,
  firstElementKind,
  LIST,
  listOf,
  nilPointer,
  STRING,
  struct,
  uint64,
  uint256,
} from './rlpstream.js';

const address = byteArray(20, 'common.Address');
const hashes = listOf(byteArray(32, 'common.Hash'), '[]common.Hash');
const to = nilPointer(address, '*common.Address', STRING);
const accessList = listOf(
  struct('types.AccessTuple', [
    ['Address', address],
    ['StorageKeys', hashes],
  ]),
  'types.AccessList',
);
const signature = [
  ['V', bigInt],
  ['R', bigInt],
  ['S', bigInt],
] as const;

/** The fields AccessListTx and DynamicFeeTx both end with, in geth's order. */
const typedTail = [['Gas', uint64], ['To', to], ['Value', bigInt], ['Data', byteSlice], ['AccessList', accessList], ...signature] as const;

const LEGACY_TX = [
  'types.LegacyTx',
  struct('types.LegacyTx', [['Nonce', uint64], ['GasPrice', bigInt], ['Gas', uint64], ['To', to], ['Value', bigInt], ['Data', byteSlice], ...signature]),
] as const;

/** The typed txs decodeTyped knows besides the blob tx, by their type byte (0 is none of them). */
const TYPED_TXS: Record<number, readonly [string, Decoder]> = {
  1: ['types.AccessListTx', struct('types.AccessListTx', [['ChainID', bigInt], ['Nonce', uint64], ['GasPrice', bigInt], ...typedTail])],
  2: ['types.DynamicFeeTx', struct('types.DynamicFeeTx', [['ChainID', bigInt], ['Nonce', uint64], ['GasTipCap', bigInt], ['GasFeeCap', bigInt], ...typedTail])],
};

const blobTx = struct('types.BlobTx', [
  ['ChainID', uint256],
  ['Nonce', uint64],
  ['GasTipCap', uint256],
  ['GasFeeCap', uint256],
  ['Gas', uint64],
  ['To', address],
  ['Value', uint256],
  ['Data', byteSlice],
  ['AccessList', accessList],
  ['BlobFeeCap', uint256],
  ['BlobHashes', hashes],
  ['V', uint256],
  ['R', uint256],
  ['S', uint256],
]);
/** A blob tx as the network sends it, with its blobs, commitments and proofs. */
const BLOB_TX_WITH_BLOBS = [
  'types.blobTxWithBlobs',
  struct('types.blobTxWithBlobs', [
    ['BlobTx', blobTx],
    ['Blobs', listOf(byteArray(131_072, 'kzg4844.Blob'), '[]kzg4844.Blob')],
    ['Commitments', listOf(byteArray(48, 'kzg4844.Commitment'), '[]kzg4844.Commitment')],
    ['Proofs', listOf(byteArray(48, 'kzg4844.Proof'), '[]kzg4844.Proof')],
  ]),
] as const;

/**
 * BlobTx's decode: the canonical form, or the network's with the blobs when the list's first
 * element is a list (rlp.SplitList and rlp.Split tell them apart, with errors of their own).
 */
function decodeBlobTx(b: Uint8Array): string | undefined {
  const first = firstElementKind(b);
  if (typeof first === 'string') return first;
  return decodeBytes(b, first === LIST ? BLOB_TX_WITH_BLOBS : ['types.BlobTx', blobTx]);
}

/**
 * geth's error for raw tx bytes its decoding refuses (UnmarshalBinary), or undefined when geth
 * decodes them. A blob tx that decodes is the pool's to refuse: Avalanche's pools take none.
 */
export function gethTxDecodeError(b: Uint8Array): string | undefined {
  if (b.length > 0 && b[0]! > 0x7f) return decodeBytes(b, LEGACY_TX);
  if (b.length <= 1) return 'typed transaction too short';
  const type = b[0]!;
  if (type === 3) return decodeBlobTx(b.subarray(1));
  const target = TYPED_TXS[type];
  return target ? decodeBytes(b.subarray(1), target) : 'transaction type not supported';
}

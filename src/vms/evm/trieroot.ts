// The root of a trie whose entries are all known at once (a block's tx and receipt tries, as geth's
// DeriveSha): the trie is built bottom-up, so each node is encoded and hashed once. @ethereumjs/mpt's
// put re-reads, re-encodes and re-hashes the whole path at every insert, which made these two tries
// about a tenth of a transfer's CPU. The nodes and their encoding are @ethereumjs/mpt's own; only
// the order of construction is ours (test/trieroot.test.ts checks it against MerklePatriciaTrie).
import { BranchMPTNode, ExtensionMPTNode, LeafMPTNode } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { keccak256 } from '../../crypto/keccak.js';
import { EMPTY_ROOT } from './header.js';

type Node = BranchMPTNode | ExtensionMPTNode | LeafMPTNode;
interface Entry {
  nibbles: number[];
  value: Uint8Array;
}

const nibblesOf = (key: Uint8Array): number[] => {
  const out = new Array<number>(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i]! >> 4;
    out[2 * i + 1] = key[i]! & 15;
  }
  return out;
};

function compareNibbles(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** How a parent refers to a child: by hash, or the child itself when its encoding is under 32 bytes. */
function reference(node: Node): Uint8Array {
  const encoded = node.serialize();
  // An embedded child is its raw list; the node classes type their values as bytes.
  return encoded.length >= 32 ? keccak256(encoded) : (node.raw() as unknown as Uint8Array);
}

/** The node over entries[lo, hi), sorted, whose keys agree on their first `depth` nibbles. */
function build(entries: Entry[], lo: number, hi: number, depth: number): Node {
  const first = entries[lo]!.nibbles;
  if (hi - lo === 1) return new LeafMPTNode(first.slice(depth), entries[lo]!.value);
  const last = entries[hi - 1]!.nibbles;
  let shared = depth;
  while (shared < first.length && shared < last.length && first[shared] === last[shared]) shared++;
  if (shared > depth) return new ExtensionMPTNode(first.slice(depth, shared), reference(build(entries, lo, hi, shared)));
  const branch = new BranchMPTNode();
  let i = lo;
  // Sorted, a key that ends here comes first: its value is the branch's.
  if (first.length === depth) branch.value(entries[i++]!.value);
  while (i < hi) {
    const nibble = entries[i]!.nibbles[depth]!;
    let j = i + 1;
    while (j < hi && entries[j]!.nibbles[depth] === nibble) j++;
    branch.setBranch(nibble, reference(build(entries, i, j, depth + 1)));
    i = j;
  }
  return branch;
}

/** The root of the trie holding `entries`, in any order: a later entry of a key replaces an earlier one, an empty value is none. */
export function trieRoot(entries: Iterable<readonly [Uint8Array, Uint8Array]>): Uint8Array {
  const list: Entry[] = [];
  for (const [key, value] of entries) list.push({ nibbles: nibblesOf(key), value });
  // Stable: of entries with one key the last counts, as the last put would; then empty means absent.
  list.sort((a, b) => compareNibbles(a.nibbles, b.nibbles));
  const kept = list.filter((e, i) => e.value.length > 0 && (i + 1 === list.length || compareNibbles(e.nibbles, list[i + 1]!.nibbles) !== 0));
  if (kept.length === 0) return EMPTY_ROOT;
  return keccak256(build(kept, 0, kept.length, 0).serialize());
}

/** The root of a list trie (key = RLP of the index), as a block's txHash and receiptHash. */
export function listRoot(values: readonly Uint8Array[]): Uint8Array {
  return trieRoot(values.map((v, i) => [RLP.encode(bigIntToUnpaddedBytes(BigInt(i))), v] as const));
}

// Reading a chain's tries node by node, off the chain's store: the state diff of eth_call's kept
// answers (statediff.ts) and the debug API's ranges over a state (api/statedump.ts), which walk a
// trie's leaves in key order from a start key, as geth's trie.NodeIterator and trie.Iterator do.
import { BranchMPTNode, ExtensionMPTNode, LeafMPTNode, MerklePatriciaTrie, type MPTNode } from '@ethereumjs/mpt';
import { equalsBytes, KECCAK256_RLP, ValueEncoding } from '@ethereumjs/util';
import type { NodeStore } from './nodes.js';

/** A child reference as the trie holds it: a node's hash, a node short enough to be embedded, or none. */
export type Ref = Uint8Array | Uint8Array[] | null | undefined;

export const NIBBLE = '0123456789abcdef';
export const nibblesHex = (nibbles: number[]): string => nibbles.map((n) => NIBBLE[n]).join('');

export const isEmptyRef = (ref: Ref): boolean =>
  ref === null || ref === undefined || ref.length === 0 || (ref instanceof Uint8Array && equalsBytes(ref, KECCAK256_RLP));

/** What a walk throws past its budget of nodes. */
export class NodeBudget extends Error {}

/** Nodes a paced walk reads between two turns of the event loop (nodes in memory answer as microtasks, which never yield). */
const PACE_NODES = 1024;

/**
 * A trie over the chain's store, used for its node look-ups only (no fork layer: a missing node
 * throws MISSING_NODE). A walk with a `budget` stops past it; one without (the debug API's ranges
 * over a whole state) lets the event loop turn every PACE_NODES nodes, so the node answers others.
 */
export class TrieNodes {
  private read = 0;
  private readonly trie: MerklePatriciaTrie;

  constructor(
    nodes: NodeStore,
    private readonly budget = Number.POSITIVE_INFINITY,
  ) {
    this.trie = new MerklePatriciaTrie({ db: nodes, valueEncoding: ValueEncoding.Bytes, useKeyHashing: true });
  }

  async node(ref: Ref): Promise<MPTNode | null> {
    if (isEmptyRef(ref)) return null;
    if (++this.read > this.budget) throw new NodeBudget();
    if (this.read % PACE_NODES === 0 && this.budget === Number.POSITIVE_INFINITY) await new Promise((resolve) => setImmediate(resolve));
    return this.trie.lookupNode(ref!);
  }
}

/** A key's nibbles, high half of each byte first. */
export function nibblesOf(key: Uint8Array): number[] {
  const out: number[] = [];
  for (const b of key) out.push(b >> 4, b & 15);
  return out;
}

/** Bytes of an even number of nibbles. */
function bytesOf(nibbles: number[]): Uint8Array {
  const out = new Uint8Array(nibbles.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (nibbles[2 * i]! << 4) | nibbles[2 * i + 1]!;
  return out;
}

/** -1, 0 or 1 as `path` sorts before, along (over the nibbles both have), or after `start`. */
function compareShared(path: number[], start: number[]): number {
  const n = Math.min(path.length, start.length);
  for (let i = 0; i < n; i++) if (path[i] !== start[i]) return path[i]! < start[i]! ? -1 : 1;
  return 0;
}

/** A leaf: its full key and value. */
export interface TrieLeaf {
  key: Uint8Array;
  value: Uint8Array;
}

/**
 * The leaves of the trie at `root` at or after `start`, in the order geth's
 * trie.NewIterator(trie.NodeIterator(start)) gives them. geth orders paths with a terminator nibble
 * (16) after a key's own: a key sorts after every key it is a prefix of, a value at a branch comes
 * after the branch's children, and a key that is a prefix of `start` (or equals it) is at or after
 * it. Subtrees wholly before `start` are never read.
 */
export async function* leavesFrom(nodes: TrieNodes, root: Ref, start: Uint8Array = new Uint8Array()): AsyncGenerator<TrieLeaf> {
  const nibbles = nibblesOf(start);
  yield* walk(nodes, root, [], nibbles, nibbles.length > 0);
}

/** `bounded`: `path` is a proper prefix of `start`, so only part of the subtree is at or after it. */
async function* walk(nodes: TrieNodes, ref: Ref, path: number[], start: number[], bounded: boolean): AsyncGenerator<TrieLeaf> {
  const node = await nodes.node(ref);
  if (node instanceof LeafMPTNode) {
    const key = [...path, ...node.key()];
    // With its terminator, a key that runs along `start` to its own end sorts after it.
    if (!bounded || compareShared(key, start) >= 0) yield { key: bytesOf(key), value: node.value()! };
  } else if (node instanceof ExtensionMPTNode) {
    const below = [...path, ...node.key()];
    const order = bounded ? compareShared(below, start) : 1;
    if (order >= 0) yield* walk(nodes, node.value() as Ref, below, start, order === 0 && below.length < start.length);
  } else if (node instanceof BranchMPTNode) {
    const first = bounded ? start[path.length]! : 0;
    for (let i = first; i < 16; i++) {
      yield* walk(nodes, node.getBranch(i), [...path, i], start, bounded && i === first && path.length + 1 < start.length);
    }
    // The key that ends here is the branch's child 16: after the others, and after `start` when the
    // branch is on its path. (A secure trie's keys are all one length: none ends at a branch.)
    const value = node.value();
    if (value && value.length > 0 && path.length % 2 === 0) yield { key: bytesOf(path), value };
  }
}

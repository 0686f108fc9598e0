// What changed in a chain's state between two state roots, as eth_call's kept answers ask it
// (answers.ts): the accounts whose nonce, balance, code or coreth's multi-coin flag differ (or that
// exist in one state only) and the storage slots whose values differ, each by its trie key (the
// keccak of the address, of the slot). Read off the two tries' nodes in the chain's store, skipping
// every subtree the two roots share by hash, so the diff of a block costs the nodes along the paths
// its txs changed. A node the store lacks (a fork's upstream node never fetched) or a diff past
// MAX_NODES nodes answers undefined: the caller then knows nothing, and runs its call again.
import { BranchMPTNode, ExtensionMPTNode, LeafMPTNode, type MPTNode } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { equalsBytes } from '@ethereumjs/util';
import type { NodeStore } from './nodes.js';
import { isEmptyRef as isEmpty, NIBBLE, NodeBudget, nibblesHex, type Ref, TrieNodes } from './trienodes.js';
import { MISSING_NODE } from './triepath.js';

export interface StateChanges {
  /** Trie keys (hex) of the accounts whose fields other than the storage root changed. */
  accounts: Set<string>;
  /** Account trie key (hex) followed by storage trie key (hex), of every slot whose value changed. */
  slots: Set<string>;
}

/** Nodes one diff may read, at most: a block of a few txs reads some tens, the bound caps what one request waits for. */
const MAX_NODES = 1_024;

function sameRef(a: Ref, b: Ref): boolean {
  if (isEmpty(a) || isEmpty(b)) return isEmpty(a) && isEmpty(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return equalsBytes(a, b);
  if (a instanceof Uint8Array || b instanceof Uint8Array) return false;
  return equalsBytes(RLP.encode(a!), RLP.encode(b!));
}

const sameValue = (a: Uint8Array | null | undefined, b: Uint8Array | null | undefined): boolean =>
  a === null || a === undefined || a.length === 0 ? b === null || b === undefined || b.length === 0 : !!b && equalsBytes(a, b);

/** Changed leaves: full key (hex) -> [value in a, value in b] (null where absent). */
export type Changed = Map<string, [Uint8Array | null, Uint8Array | null]>;

/** The leaves that differ between the tries (or subtries at `path`) `a` and `b`, into `out`. */
export async function diffRefs(walk: TrieNodes, a: Ref, b: Ref, path: string, out: Changed): Promise<void> {
  if (sameRef(a, b)) return;
  const [na, nb] = [await walk.node(a), await walk.node(b)];
  if (na instanceof BranchMPTNode && nb instanceof BranchMPTNode) {
    for (let i = 0; i < 16; i++) await diffRefs(walk, na.getBranch(i), nb.getBranch(i), path + NIBBLE[i], out);
    if (!sameValue(na.value(), nb.value())) out.set(path, [na.value(), nb.value()]);
    return;
  }
  if (na instanceof ExtensionMPTNode && nb instanceof ExtensionMPTNode) {
    const key = nibblesHex(na.key());
    if (key === nibblesHex(nb.key())) return diffRefs(walk, na.value() as Ref, nb.value() as Ref, path + key, out);
  }
  // Shapes differ (a leaf moved under a new branch, an extension split): every leaf of each side, compared.
  const [la, lb]: Map<string, Uint8Array>[] = [new Map(), new Map()];
  await leaves(walk, na, path, la);
  await leaves(walk, nb, path, lb);
  for (const [k, v] of la) if (!sameValue(v, lb.get(k))) out.set(k, [v, lb.get(k) ?? null]);
  for (const [k, v] of lb) if (!la.has(k)) out.set(k, [null, v]);
}

async function leaves(walk: TrieNodes, node: MPTNode | null, path: string, out: Map<string, Uint8Array>): Promise<void> {
  if (node instanceof LeafMPTNode) out.set(path + nibblesHex(node.key()), node.value());
  else if (node instanceof ExtensionMPTNode) await leaves(walk, await walk.node(node.value() as Ref), path + nibblesHex(node.key()), out);
  else if (node instanceof BranchMPTNode) {
    for (let i = 0; i < 16; i++) await leaves(walk, await walk.node(node.getBranch(i)), path + NIBBLE[i], out);
    const value = node.value();
    if (value && value.length > 0) out.set(path, value);
  }
}

/** An account's RLP fields: nonce, balance, storage root, code hash (and coreth's isMultiCoin). */
const fieldsOf = (rlp: Uint8Array | null): Uint8Array[] | undefined => (rlp ? (RLP.decode(rlp) as Uint8Array[]) : undefined);

/** Whether the fields a call can read of an account directly (all but the storage root) differ. */
function accountChanged(a: Uint8Array[] | undefined, b: Uint8Array[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return true;
  return a.some((field, i) => i !== 2 && !equalsBytes(field, b[i]!));
}

/** The changes from state `from` to state `to` in `nodes`; undefined where they cannot be read in full. */
export async function stateChanges(nodes: NodeStore, from: Uint8Array, to: Uint8Array): Promise<StateChanges | undefined> {
  const walk = new TrieNodes(nodes, MAX_NODES);
  const changes: StateChanges = { accounts: new Set(), slots: new Set() };
  try {
    const accounts: Changed = new Map();
    await diffRefs(walk, from, to, '', accounts);
    for (const [key, [va, vb]] of accounts) {
      const [a, b] = [fieldsOf(va), fieldsOf(vb)];
      if (accountChanged(a, b)) changes.accounts.add(key);
      const slots: Changed = new Map();
      await diffRefs(walk, a?.[2], b?.[2], '', slots);
      for (const slot of slots.keys()) changes.slots.add(key + slot);
    }
    return changes;
  } catch (err) {
    if (err instanceof NodeBudget || (err as Error).message === MISSING_NODE) return undefined;
    throw err;
  }
}

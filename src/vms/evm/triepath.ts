// A trie whose key walk is a loop. @ethereumjs/mpt 10.1.3's findPath, which every trie read, write
// and proof runs, walks the key through its generic WalkController: a task queue with priorities,
// a promise and two closures per node, for a walk that only ever follows one child. Here the same
// walk is a loop over lookupNode, which subclasses still override (a fork's fetches its misses), and
// answers what findPath answers: the node at the key (or null), the nibbles left unmatched, and the
// nodes passed, root first.
import { BranchMPTNode, ExtensionMPTNode, LeafMPTNode, MerklePatriciaTrie, type MPTNode, type Path } from '@ethereumjs/mpt';
import { equalsBytes } from '@ethereumjs/util';

/** The error lookupNode throws for a node the store lacks (@ethereumjs/mpt's own text, which findPath reads as "not found"). */
export const MISSING_NODE = 'Missing node in DB';

/** A key's nibbles, high half of each byte first (as @ethereumjs/mpt's bytesToNibbles: no terminator). */
function nibblesOf(key: Uint8Array): number[] {
  const nibbles = new Array<number>(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    nibbles[2 * i] = key[i]! >> 4;
    nibbles[2 * i + 1] = key[i]! & 15;
  }
  return nibbles;
}

export class PathTrie extends MerklePatriciaTrie {
  override async findPath(key: Uint8Array, throwIfMissing = false, partialPath: { stack: MPTNode[] } = { stack: [] }): Promise<Path> {
    const target = nibblesOf(key);
    const stack: MPTNode[] = [];
    let progress = 0;
    // A walk resumed from a partial path starts again at its last node (by its hash, as the base class does).
    for (let i = 0; i < partialPath.stack.length - 1; i++) {
      const node = partialPath.stack[i]!;
      stack.push(node);
      progress += node instanceof BranchMPTNode ? 1 : node.keyLength();
    }
    const resumed = partialPath.stack[partialPath.stack.length - 1];
    let ref: Uint8Array | Uint8Array[] = resumed !== undefined ? this.hash(resumed.serialize()) : this.root();
    // An empty trie (an account's storage before its first write) is in no store: the lookup would
    // throw a missing node, an Error whose stack costs more than the rest of the walk.
    if (!throwIfMissing && stack.length === 0 && equalsBytes(ref, this.EMPTY_TRIE_ROOT)) return { node: null, remaining: [], stack };
    try {
      for (;;) {
        const node = await this.lookupNode(ref);
        stack.push(node);
        if (node instanceof BranchMPTNode) {
          if (progress === target.length) return { node, remaining: [], stack };
          const child = node.getBranch(target[progress]!);
          if (!child) return { node: null, remaining: target.slice(progress), stack };
          progress++;
          ref = child;
        } else if (node instanceof LeafMPTNode || node instanceof ExtensionMPTNode) {
          const start = progress;
          const nibbles = node.key();
          if (node instanceof LeafMPTNode && target.length - progress > nibbles.length) return { node: null, remaining: target.slice(start), stack };
          for (const nibble of nibbles) {
            if (nibble !== target[progress]) return { node: null, remaining: target.slice(start), stack };
            progress++;
          }
          if (node instanceof LeafMPTNode) return { node, remaining: [], stack };
          ref = node.value();
        } else {
          return { node: null, remaining: [], stack };
        }
      }
    } catch (err) {
      if ((err as Error).message !== MISSING_NODE || throwIfMissing) throw err;
      return { node: null, remaining: [], stack };
    }
  }

  /**
   * @ethereumjs/mpt's put and del take the trie's lock first and let it go only when they succeed:
   * one that threw (on a fork, the upstream failing while the write fetched a node) left every later
   * write to the trie waiting for good. Here a failed write lets it go.
   */
  override async put(key: Uint8Array, value: Uint8Array | null, skipKeyTransform = false): Promise<void> {
    // An empty value is a deletion: the base class hands it to del, which lets its own lock go.
    if (value === null || value.length === 0) return super.put(key, value, skipKeyTransform);
    try {
      await super.put(key, value, skipKeyTransform);
    } catch (err) {
      this.letGoOfLock();
      throw err;
    }
  }

  override async del(key: Uint8Array, skipKeyTransform = false): Promise<void> {
    try {
      await super.del(key, skipKeyTransform);
    } catch (err) {
      this.letGoOfLock();
      throw err;
    }
  }

  /**
   * After a failed write: the lock it held. (The base class fails before taking the lock only on a
   * key refused for root persistence, which the node's tries do not use.)
   */
  private letGoOfLock(): void {
    if ((this._lock as unknown as { permits: number }).permits === 0) this._lock.release();
  }
}

// State-trie accounts as coreth stores them: libevm's StateAccount with coreth's extra, isMultiCoin,
// always appended as a fifth RLP field (false as the empty string). With Ethereum's four fields every
// state root would differ from coreth's. Notes: docs/research/cchain.md §2.2.
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { toHex } from '../../encoding/bytes.js';
import { PathTrie } from './triepath.js';

/**
 * The account trie of a chain whose accounts carry coreth's fifth field: @ethereumjs's state
 * manager writes four-field accounts through `put`, and gets `isMultiCoin` = false appended here
 * (reads ignore a fifth field). Storage tries are plain copies of the base class, untouched.
 */
export class MultiCoinAccountTrie extends PathTrie {
  override async put(key: Uint8Array, value: Uint8Array | null, skipKeyTransform = false): Promise<void> {
    if (value !== null && value.length > 0) {
      const fields = RLP.decode(value) as Uint8Array[];
      if (fields.length === 4) value = RLP.encode([...fields, new Uint8Array()]);
    }
    return super.put(key, value, skipKeyTransform);
  }
}

/** Trie reads by (root, key): a root names one content forever, so an answer never goes stale. */
export class TrieMemo {
  private readonly entries = new Map<string, Uint8Array | null>();
  constructor(private readonly capacity: number) {}
  get(key: string): Uint8Array | null | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: Uint8Array | null): void {
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: a mixin base takes any constructor arguments
export type TrieClass = new (...args: any[]) => MerklePatriciaTrie;

/**
 * A copy of `trie` as an instance of `Storage` (MerklePatriciaTrie.shallowCopy makes a plain trie):
 * the state manager's storage tries are copies of its account trie, and must keep its layers.
 */
export function copyAs(trie: MerklePatriciaTrie, Storage: TrieClass, includeCheckpoints: boolean, opts?: Record<string, unknown>): MerklePatriciaTrie {
  // biome-ignore lint/suspicious/noExplicitAny: the trie's options and database are private in its types
  const self = trie as any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const copy = new Storage({ ...self._opts, db: self._db.db.shallowCopy(), root: trie.root(), cacheSize: 0, ...(opts ?? {}) }) as any;
  if (includeCheckpoints && trie.hasCheckpoints()) copy._db.setCheckpoints(self._db.checkpoints);
  return copy;
}

/**
 * A trie class whose reads go through `memo`, and whose copies (the state manager's storage tries) are
 * `storage` tries: a reader's state is re-read at the same root by call after call, its own caches
 * emptied by the revert that ends each call; the builder reads at the head what calls read there,
 * and after each evm_revert the snapshot's root again.
 */
function memoizing<T extends TrieClass>(Base: T, memo: TrieMemo, storage: () => TrieClass): TrieClass {
  return class extends Base {
    override async get(key: Uint8Array, throwIfMissing = false): Promise<Uint8Array | null> {
      const k = toHex(this.root()) + toHex(key);
      const hit = memo.get(k);
      if (hit !== undefined) return hit;
      const value = await super.get(key, throwIfMissing);
      memo.set(k, value);
      return value;
    }

    override shallowCopy(includeCheckpoints = true, opts?: Record<string, unknown>): MerklePatriciaTrie {
      return copyAs(this, storage(), includeCheckpoints, opts);
    }
  };
}

/** A layer over a trie class (and its storage copies, of class `storage`). */
export type TrieLayer = (Base: TrieClass, kind: 'account' | 'storage', storage: () => TrieClass) => TrieClass;

/** The layers given, the first innermost, as one (undefined for none). */
export function layered(...layers: Array<TrieLayer | undefined>): TrieLayer | undefined {
  const present = layers.filter((l): l is TrieLayer => l !== undefined);
  if (present.length <= 1) return present[0];
  return (Base, kind, storage) => present.reduce((Class, layer) => layer(Class, kind, storage), Base);
}

/**
 * The account trie class of a state: five-field or plain accounts, reads memoized in `memo` (the
 * one the builder and the readers share), under `layer` (a fork's), its storage tries copies with
 * the same layers.
 */
export function trieClass(multiCoin: boolean, memo?: TrieMemo, layer?: TrieLayer): TrieClass {
  if (!memo && !layer) return multiCoin ? MultiCoinAccountTrie : PathTrie;
  let storage: TrieClass = PathTrie;
  const storageOf = () => storage;
  let account: TrieClass = multiCoin ? MultiCoinAccountTrie : PathTrie;
  if (memo) {
    storage = memoizing(storage, memo, storageOf);
    account = memoizing(account, memo, storageOf);
  }
  if (layer) {
    storage = layer(storage, 'storage', storageOf);
    account = layer(account, 'account', storageOf);
  }
  return account;
}

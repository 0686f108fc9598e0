// State-trie accounts as coreth stores them: libevm's StateAccount with coreth's extra, isMultiCoin,
// always appended as a fifth RLP field (false as the empty string). With Ethereum's four fields every
// state root would differ from coreth's. Notes: docs/research/cchain.md §2.2.
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { knownKeccak } from '../../crypto/keccak.js';
import { EMPTY_ROOT } from './header.js';
import { toHex } from '../../encoding/bytes.js';

export interface Account {
  nonce?: bigint;
  balance?: bigint;
  storageRoot?: Uint8Array;
  codeHash?: Uint8Array;
  isMultiCoin?: boolean;
}

/** keccak256 of no code. */
export const EMPTY_CODE_HASH = knownKeccak(new Uint8Array(), 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');

export function encodeAccount(a: Account, multiCoin = true): Uint8Array {
  return RLP.encode([
    bigIntToUnpaddedBytes(a.nonce ?? 0n),
    bigIntToUnpaddedBytes(a.balance ?? 0n),
    a.storageRoot ?? EMPTY_ROOT,
    a.codeHash ?? EMPTY_CODE_HASH,
    ...(multiCoin ? [a.isMultiCoin ? Uint8Array.of(1) : new Uint8Array()] : []),
  ]);
}

/** The state root of accounts (address -> account), in a secure (keccak-keyed) trie; coreth's five-field accounts or Ethereum's four. */
export async function stateRoot(accounts: Iterable<[Uint8Array, Account]>, multiCoin = true): Promise<Uint8Array> {
  const trie = new MerklePatriciaTrie({ useKeyHashing: true });
  for (const [address, account] of accounts) await trie.put(address, encodeAccount(account, multiCoin));
  return trie.root();
}

/**
 * The account trie of a chain whose accounts carry coreth's fifth field: @ethereumjs's state
 * manager writes four-field accounts through `put`, and gets `isMultiCoin` = false appended here
 * (reads ignore a fifth field). Storage tries are plain copies of the base class, untouched.
 */
export class MultiCoinAccountTrie extends MerklePatriciaTrie {
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

/** Unprefixed hex of a byte view, without copying it. */

// biome-ignore lint/suspicious/noExplicitAny: a mixin base takes any constructor arguments
type TrieClass = new (...args: any[]) => MerklePatriciaTrie;

/**
 * A trie class whose reads go through `memo`, and whose copies (the state manager's storage tries) are
 * memoizing `storage` tries: the reader's state is re-read at the same root by call after call, and
 * its own caches are emptied by the revert that ends each call.
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
      // As MerklePatriciaTrie.shallowCopy, but of the memoizing storage class.
      // biome-ignore lint/suspicious/noExplicitAny: the trie's options and database are private in its types
      const self = this as any;
      const Storage = storage();
      // biome-ignore lint/suspicious/noExplicitAny: as above
      const copy = new Storage({ ...self._opts, db: self._db.db.shallowCopy(), root: this.root(), cacheSize: 0, ...(opts ?? {}) }) as any;
      if (includeCheckpoints && this.hasCheckpoints()) copy._db.setCheckpoints(self._db.checkpoints);
      return copy;
    }
  };
}

/** The account trie class (five-field or plain) and its storage tries, memoized in `memo`. */
export function memoTries(memo: TrieMemo, multiCoin: boolean): TrieClass {
  const storage: TrieClass = memoizing(MerklePatriciaTrie, memo, () => storage);
  return memoizing(multiCoin ? MultiCoinAccountTrie : MerklePatriciaTrie, memo, () => storage);
}

// @ethereumjs's account cache keeps each account as RLP: every putAccount serializes it and every
// getAccount decodes it again, and runTx reads and writes the sender, the recipient and the coinbase
// a dozen times per tx (about a tenth of a transfer's CPU). This cache keeps the Account object and
// makes its RLP only when something asks for it: the flush of a block's writes to the trie.
//
// Its LRU caches are MapLru, not lru-cache's: lru-cache keeps arrays of its full size (50,000 here),
// which it fills again on clear(), and a state root set (every evm_revert) clears all three (0.56 ms
// of a 1.2 ms revert, measured). A Map emptied is a new Map.
import { AccountCache, Caches, CacheType, type CacheOpts, type CachesStateManagerOpts, StorageCache } from '@ethereumjs/statemanager';
import { Account, type Address, bytesToUnprefixedHex } from '@ethereumjs/util';

/** A copy of `a` its holder may change. */
export const copyOf = (a: Account): Account => new Account(a.nonce, a.balance, a.storageRoot, a.codeHash, a.codeSize, a.version);

/** A cache entry holding its own copy of an account; `accountRLP` is what the base class reads. */
export class AccountEntry {
  private rlp: Uint8Array | undefined;
  private readonly account: Account;
  constructor(account: Account) {
    this.account = copyOf(account);
  }
  /** A copy the caller may change: callers change what getAccount returns, then put it back. */
  copy(): Account {
    return copyOf(this.account);
  }
  get accountRLP(): Uint8Array {
    this.rlp ??= this.account.serialize();
    return this.rlp;
  }
}

/** AccountCache whose puts store AccountEntry objects (deletions and partial accounts as the base class). */
export class ObjectAccountCache extends AccountCache {
  constructor(opts: CacheOpts) {
    super(opts);
  }

  override put(address: Address, account: Account | undefined, couldBePartialAccount = false): void {
    if (account === undefined || couldBePartialAccount) return super.put(address, account, couldBePartialAccount);
    const key = bytesToUnprefixedHex(address.bytes);
    this._saveCachePreState(key);
    // biome-ignore lint/suspicious/noExplicitAny: the base class types its elements as { accountRLP }, which AccountEntry provides
    const entry = new AccountEntry(account) as any;
    if (this._lruCache) this._lruCache.set(key, entry);
    else this._orderedMapCache!.setElement(key, entry);
    this._stats.writes += 1;
  }
}

/**
 * The subset of lru-cache's LRUCache that @ethereumjs's caches call (get, set, delete, size, clear),
 * over a Map: its insertion order is the recency order, a hit moves its key to the end, and the
 * first key goes once `max` are held. clear() costs nothing whatever the size.
 */
export class MapLru<V> {
  private map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get size(): number {
    return this.map.size;
  }
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): this {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
    return this;
  }
  delete(key: string): boolean {
    return this.map.delete(key);
  }
  clear(): void {
    this.map = new Map();
  }
}

/**
 * A storage cache whose clear (a CREATE, a deleted account) a reverted checkpoint undoes. The base
 * class journals each slot it puts or deletes, but empties an account's slots unjournaled: a
 * checkpoint reverted after a clear left them gone, and the builder's slots written earlier in the
 * block live only here until its end (CountedStateManager.putStorage), so they were lost.
 */
class JournaledStorageCache extends StorageCache {
  override clearStorage(address: Address): void {
    const addressHex = bytesToUnprefixedHex(address.bytes);
    const slots = this._lruCache ? this._lruCache.get(addressHex) : this._orderedMapCache?.getElementByKey(addressHex);
    if (slots) for (const keyHex of slots.keys()) this._saveCachePreState(addressHex, keyHex);
    super.clearStorage(address);
  }
}

/** What the base caches hold their entries in, as this file gives them one. */
interface CacheSlots {
  _lruCache?: unknown;
  _orderedMapCache?: unknown;
}

/**
 * Caches whose account cache is an ObjectAccountCache and whose LRU caches are MapLru. The base
 * class is told to make ordered maps (cheap to make; an LRUCache allocates its full size at once),
 * then each cache asked for as an LRU gets a MapLru, and the settings asked for, which copies read.
 */
export class ObjectCaches extends Caches {
  constructor(opts: CachesStateManagerOpts & { account: CacheOpts; storage: CacheOpts; code: CacheOpts }) {
    const mapped = (o: CacheOpts): CacheOpts => ({ ...o, type: CacheType.ORDERED_MAP });
    super({ account: { ...opts.account, size: 0 }, storage: mapped(opts.storage), code: mapped(opts.code) });
    this.account = new ObjectAccountCache(mapped(opts.account));
    if (this.storage) this.storage = new JournaledStorageCache(mapped(opts.storage));
    const pairs: Array<[CacheSlots | undefined, CacheOpts]> = [
      [this.account as unknown as CacheSlots, opts.account],
      [this.storage as unknown as CacheSlots | undefined, opts.storage],
      [this.code as unknown as CacheSlots | undefined, opts.code],
    ];
    for (const [cache, o] of pairs) {
      if (!cache || o.type !== CacheType.LRU) continue;
      cache._lruCache = new MapLru(o.size);
      cache._orderedMapCache = undefined;
    }
    this.settings = { account: opts.account, storage: opts.storage, code: opts.code };
  }

  /**
   * Empties the caches and their journals: what a write that failed midway left (clear() keeps the
   * journals, whose entries a later flush would then look for in emptied caches and fail on).
   */
  forgetAll(): void {
    this.clear();
    for (const cache of [this.account, this.storage, this.code]) {
      if (!cache) continue;
      cache._diffCache = [new Map()];
      cache._checkpoints = 0;
    }
  }
}

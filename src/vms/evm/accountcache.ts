// @ethereumjs's account cache keeps each account as RLP: every putAccount serializes it and every
// getAccount decodes it again, and runTx reads and writes the sender, the recipient and the coinbase
// a dozen times per tx (about a tenth of a transfer's CPU). This cache keeps the Account object and
// makes its RLP only when something asks for it: the flush of a block's writes to the trie.
import { AccountCache, Caches, type CacheOpts, type CachesStateManagerOpts } from '@ethereumjs/statemanager';
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
 * Caches whose account cache is an ObjectAccountCache. The base class is told to make no account
 * cache of its own (an LRU cache allocates arrays of its full size, here 50,000 entries, at once),
 * then given back its account settings, which its copies read.
 */
export class ObjectCaches extends Caches {
  constructor(opts: CachesStateManagerOpts & { account: CacheOpts }) {
    super({ ...opts, account: { ...opts.account, size: 0 } });
    this.account = new ObjectAccountCache(opts.account);
    this.settings.account = opts.account;
  }
}

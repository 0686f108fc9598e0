// The EVM state's caches (vms/evm/accountcache.ts): MapLru keeps lru-cache's order and bound, and
// the state manager's caches built on it still checkpoint, revert and clear as @ethereumjs's do.
import { CacheType } from '@ethereumjs/statemanager';
import { Account, Address, createAccountFromRLP } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { MapLru, ObjectCaches } from '../src/vms/evm/accountcache.js';

const address = (n: number) => new Address(Uint8Array.from({ length: 20 }, (_, i) => (i === 19 ? n : 0)));
const balanceOf = (caches: ObjectCaches, n: number) => {
  const elem = caches.account!.get(address(n));
  return elem?.accountRLP === undefined ? undefined : createAccountFromRLP(elem.accountRLP).balance;
};

describe('MapLru', () => {
  it('drops the least recently used key past its bound; a hit makes a key recent', () => {
    const lru = new MapLru<number>(3);
    lru.set('a', 1).set('b', 2).set('c', 3);
    expect(lru.get('a')).toBe(1);
    lru.set('d', 4);
    expect([lru.get('b'), lru.size]).toEqual([undefined, 3]);
    lru.set('c', 30);
    lru.set('e', 5);
    expect([lru.get('a'), lru.get('c'), lru.get('d'), lru.get('e')]).toEqual([undefined, 30, 4, 5]);
    expect(lru.delete('c')).toBe(true);
    expect(lru.size).toBe(2);
    lru.clear();
    expect([lru.size, lru.get('d')]).toEqual([0, undefined]);
    lru.set('f', 6);
    expect(lru.get('f')).toBe(6);
  });
});

describe('ObjectCaches over MapLru', () => {
  const lru = (size: number) => ({ type: CacheType.LRU, size });

  it('holds accounts within its bound, reverts a checkpoint and clears', () => {
    const caches = new ObjectCaches({ account: lru(2), storage: lru(2), code: lru(1) });
    caches.account!.put(address(1), new Account(0n, 1n));
    caches.account!.put(address(2), new Account(0n, 2n));
    caches.checkpoint();
    caches.account!.put(address(1), new Account(0n, 10n));
    caches.account!.put(address(3), new Account(0n, 3n));
    expect([balanceOf(caches, 1), balanceOf(caches, 3)]).toEqual([10n, 3n]);
    // Account 2 was the least recently used when the third came in.
    expect(balanceOf(caches, 2)).toBeUndefined();
    caches.revert();
    expect(balanceOf(caches, 1)).toBe(1n);
    expect(balanceOf(caches, 3)).toBeUndefined();
    caches.storage!.put(address(1), new Uint8Array(32), Uint8Array.of(7));
    expect(caches.storage!.get(address(1), new Uint8Array(32))).toEqual(Uint8Array.of(7));
    caches.clear();
    expect([balanceOf(caches, 1), caches.storage!.get(address(1), new Uint8Array(32))]).toEqual([undefined, undefined]);
    expect(caches.settings.account).toEqual(lru(2));
  });

  it('keeps ordered maps where they were asked for', () => {
    const caches = new ObjectCaches({ account: { type: CacheType.ORDERED_MAP, size: 5 }, storage: lru(5), code: lru(5) });
    expect((caches.account as unknown as { _lruCache?: unknown })._lruCache).toBeUndefined();
    expect((caches.storage as unknown as { _lruCache?: unknown })._lruCache).toBeInstanceOf(MapLru);
    caches.account!.put(address(1), new Account(0n, 1n));
    expect(balanceOf(caches, 1)).toBe(1n);
  });
});

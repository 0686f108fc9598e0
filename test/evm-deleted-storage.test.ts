// An account deleted and made again later starts with empty storage, as geth's state does: the
// builder's state manager kept a deleted account's storage trie by address (@ethereumjs 10.1.3), so
// a Subnet-EVM precompile disabled and enabled again in later blocks found its old slots.
import { Account, Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { nodeStores, slot } from './support/builderstate.js';

describe('storage of an account deleted and made again', () => {
  const open = nodeStores();

  it('starts empty, block after block, on the builder state manager', async () => {
    const { builder, uncached } = await open();
    const sm = builder();
    const address = new Address(Uint8Array.from({ length: 20 }, (_, i) => (i === 0 ? 2 : i === 19 ? 1 : 0)));
    /** One block: a checkpoint around `edit`, committed (the cache flushed to the tries). */
    const block = async (edit: () => Promise<void>) => {
      sm.checkpoint();
      await edit();
      await sm.commit();
      await sm.getStateRoot();
    };
    await block(async () => {
      await sm.putAccount(address, new Account(1n));
      await sm.putStorage(address, slot(1), Uint8Array.of(7));
    });
    await block(() => sm.deleteAccount(address));
    await block(async () => {
      await sm.putAccount(address, new Account(1n));
      await sm.putStorage(address, slot(2), Uint8Array.of(9));
    });
    const root = await sm.getStateRoot();
    // A fresh state at that root (no caches, no kept tries) reads what the trie holds.
    const fresh = uncached(root);
    expect(await fresh.getStorage(address, slot(1))).toEqual(new Uint8Array());
    expect(await fresh.getStorage(address, slot(2))).toEqual(Uint8Array.of(9));
    expect(await sm.getStorage(address, slot(1))).toEqual(new Uint8Array());
  });

  it('keeps the slots written earlier in the block when a checkpoint around their clear reverts', async () => {
    const { builder, uncached } = await open();
    const sm = builder();
    const address = new Address(Uint8Array.from({ length: 20 }, (_, i) => (i === 19 ? 7 : 0)));
    // The block's first writes: one slot on the trie already (an earlier block), one in the cache only.
    sm.checkpoint();
    await sm.putAccount(address, new Account(1n));
    await sm.putStorage(address, slot(1), Uint8Array.of(5));
    await sm.commit();
    await sm.getStateRoot();
    sm.checkpoint();
    await sm.putStorage(address, slot(2), Uint8Array.of(6));
    await sm.putStorage(address, slot(1), Uint8Array.of(8));
    // A frame clears the account's storage (a CREATE at the address, a delete), then reverts.
    sm.checkpoint();
    await sm.clearStorage(address);
    expect(await sm.getStorage(address, slot(2))).toEqual(new Uint8Array());
    await sm.revert();
    expect(await sm.getStorage(address, slot(1))).toEqual(Uint8Array.of(8));
    expect(await sm.getStorage(address, slot(2))).toEqual(Uint8Array.of(6));
    await sm.commit();
    const fresh = uncached(await sm.getStateRoot());
    expect(await fresh.getStorage(address, slot(1))).toEqual(Uint8Array.of(8));
    expect(await fresh.getStorage(address, slot(2))).toEqual(Uint8Array.of(6));
  });
});

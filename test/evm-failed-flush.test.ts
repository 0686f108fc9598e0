// The builder's state after a write that failed midway: @ethereumjs's flush writes code, then
// storage, then accounts, and one that throws leaves the rest in the caches and their journals. The
// state goes back to the head's root (resetTo) and stays usable: a reset that only emptied the
// caches kept the journals, whose next flush then looked for the emptied entries and failed every
// time after.
import { Account, Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { nodeStores, slot } from './support/builderstate.js';

const address = (n: number) => new Address(Uint8Array.from({ length: 20 }, (_, i) => (i === 19 ? n : 0)));

describe('the builder state after a failed flush', () => {
  const open = nodeStores();

  it('goes back to the head root and builds the next block as a fresh state does', async () => {
    const { nodes, builder } = await open();
    const sm = builder();
    const [a, b] = [address(1), address(2)];
    sm.checkpoint();
    await sm.putAccount(a, new Account(1n, 10n));
    await sm.putCode(a, Uint8Array.of(0x60, 0x00));
    await sm.putStorage(a, slot(1), Uint8Array.of(1));
    await sm.commit();
    const head = await sm.getStateRoot();

    // The next block's flush fails on its first write (the code), before its storage and accounts.
    sm.checkpoint();
    await sm.putAccount(b, new Account(0n, 5n));
    await sm.putCode(b, Uint8Array.of(0x60, 0x01));
    await sm.putStorage(a, slot(2), Uint8Array.of(2));
    const put = nodes.put.bind(nodes);
    nodes.put = async () => {
      nodes.put = put;
      throw new Error('store refused the write');
    };
    await expect(sm.commit()).rejects.toThrow('store refused the write');

    await sm.resetTo(head);
    expect(sm.stale).toBe(false);
    expect(sm.depth).toBe(0);
    expect(await sm.getStorage(a, slot(1))).toEqual(Uint8Array.of(1));
    expect(await sm.getStorage(a, slot(2))).toEqual(new Uint8Array());
    expect(await sm.getAccount(b)).toBeUndefined();

    // The block again, now written: the same root as a fresh state at the head makes.
    const again = async (state: typeof sm) => {
      state.checkpoint();
      await state.putAccount(b, new Account(0n, 5n));
      await state.putCode(b, Uint8Array.of(0x60, 0x01));
      await state.putStorage(a, slot(2), Uint8Array.of(2));
      await state.commit();
      return state.getStateRoot();
    };
    const fresh = builder(head);
    expect(Buffer.from(await again(sm)).toString('hex')).toBe(Buffer.from(await again(fresh)).toString('hex'));
  });
});

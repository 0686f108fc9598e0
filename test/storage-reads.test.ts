// Reads of the node's store (storage/db.ts), on LevelDB and on memdb: a read answers synchronously
// from the store (LevelDB's getSync) yet keeps the promise contract, so a failure is a rejection, not
// a throw, and it sees every write that resolved before it, under any prefix.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/storage/db.js';
import { tempDir } from './helpers.js';

const b = (s: string) => new TextEncoder().encode(s);
const text = (v: Uint8Array | undefined) => (v ? new TextDecoder().decode(v) : undefined);

describe.each(['leveldb', 'memdb'] as const)('reads on %s', (kind) => {
  it('see the writes that resolved before them, under their prefix only', async () => {
    const db = await openDatabase(kind, tempDir('reads-'));
    try {
      const a = db.prefix('a');
      const c = db.prefix('c');
      expect(await a.get(b('k'))).toBeUndefined();
      await a.put(b('k'), b('1'));
      expect(text(await a.get(b('k')))).toBe('1');
      expect(await c.get(b('k'))).toBeUndefined();
      await a.batch([
        { type: 'put', key: b('k'), value: b('2') },
        { type: 'put', key: b('j'), value: new Uint8Array(0) },
      ]);
      expect(text(await a.get(b('k')))).toBe('2');
      // An empty value is a value, not a missing key.
      expect((await a.get(b('j')))?.length).toBe(0);
      expect((await a.getMany([b('k'), b('x')])).map(text)).toEqual(['2', undefined]);
      await a.del(b('k'));
      expect(await a.get(b('k'))).toBeUndefined();
    } finally {
      await db.close();
    }
  });

  it('on a closed store, reject (a promise, never a throw) with the store not open', async () => {
    const db = await openDatabase(kind, tempDir('reads-closed-'));
    await db.put(b('k'), b('1'));
    await db.close();
    let pending: Promise<unknown> | undefined;
    expect(() => {
      pending = db.prefix('a').get(b('k'));
    }).not.toThrow();
    await expect(pending).rejects.toMatchObject({ code: 'LEVEL_DATABASE_NOT_OPEN' });
  });
});

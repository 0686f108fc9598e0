// The store's undo log (storage/undo.ts) on a real store: nested snapshots merge to the oldest
// value of each key, a rollback is one atomic write that records nothing, the oldest snapshots go
// first past the bounds, and writes that race a snapshot land wholly on one side of it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/storage/db.js';
import { changesOf, UndoLog } from '../src/storage/undo.js';
import { tempDir } from './helpers.js';

const b = (s: string) => new TextEncoder().encode(s);
const text = (v: Uint8Array | undefined) => (v ? new TextDecoder().decode(v) : undefined);

async function store() {
  const db = await openDatabase('memdb', '');
  const read = async (k: string) => text(await db.get(b(k)));
  return { db, read };
}

describe('the undo log', () => {
  it('puts back the values keys had at each snapshot, in one write, and uses up the later snapshots', async () => {
    const { db, read } = await store();
    await db.put(b('a'), b('a0'));
    await db.undo.mark(0n);
    await db.put(b('a'), b('a1'));
    await db.put(b('b'), b('b1'));
    await db.undo.mark(1n);
    await db.batch([
      { type: 'put', key: b('a'), value: b('a2') },
      { type: 'del', key: b('b') },
      { type: 'put', key: b('c'), value: b('c2') },
    ]);
    const back1 = await db.undo.take(1n);
    await db.undo.restore(back1!);
    expect([await read('a'), await read('b'), await read('c')]).toEqual(['a1', 'b1', undefined]);
    // Snapshot 0 still holds, and the rollback to 1 was not recorded in it as a change.
    await db.put(b('c'), b('c3'));
    const back0 = await db.undo.take(0n);
    expect(await db.undo.take(1n)).toBeUndefined();
    await db.undo.restore(back0!);
    expect([await read('a'), await read('b'), await read('c')]).toEqual(['a0', undefined, undefined]);
    expect(db.undo.recording).toBe(false);
    expect(await db.undo.take(0n)).toBeUndefined();
    // A prefixed database's keys are recorded under its prefix.
    const sub = db.prefix('sub');
    await db.undo.mark(2n);
    await sub.put(b('x'), b('x1'));
    const back2 = await db.undo.take(2n);
    expect(back2!.spaces.size).toBe(1);
    await db.undo.restore(back2!);
    expect(await sub.get(b('x'))).toBeUndefined();
  });

  it('names the keys a rollback writes, and whether it puts values back or only deletes', async () => {
    const { db } = await store();
    const pool = db.prefix('pool');
    const other = db.prefix('other');
    await pool.put(b('kept'), b('1'));
    await other.put(b('k'), b('0'));
    await db.undo.mark(0n);
    // Under `pool`: a key added since (the rollback deletes it). Under `other`: a key changed (put back).
    await pool.put(b('new'), b('2'));
    await other.put(b('k'), b('3'));
    const changes = changesOf((await db.undo.take(0n))!);
    expect([changes.touches(pool.keyPrefix), changes.puts(pool.keyPrefix)]).toEqual([true, false]);
    expect([changes.touches(other.keyPrefix), changes.puts(other.keyPrefix)]).toEqual([true, true]);
    expect(changes.touches(db.prefix('none').keyPrefix)).toBe(false);
    // A longer prefix: a key's first bytes under a database.
    expect(changes.touches(Buffer.concat([pool.keyPrefix, b('ne')]))).toBe(true);
    expect(changes.touches(Buffer.concat([pool.keyPrefix, b('ke')]))).toBe(false);
    await db.undo.mark(1n);
    await pool.del(b('kept'));
    const back = changesOf((await db.undo.take(1n))!);
    // What it wrote at a key, without a read: the value put back, a deletion, or nothing for a key left alone.
    expect(back.written(Buffer.concat([pool.keyPrefix, b('kept')]))).toEqual({ value: b('1') });
    expect(changes.written(Buffer.concat([pool.keyPrefix, b('new')]))).toEqual({ value: undefined });
    expect(back.written(Buffer.concat([pool.keyPrefix, b('new')]))).toBeUndefined();
    expect([back.touches(pool.keyPrefix), back.puts(pool.keyPrefix), back.puts(Buffer.concat([pool.keyPrefix, b('kept')]))]).toEqual([true, true, true]);
    // A prefix shorter than a database's (the root's bare keys, a hashed prefix's first bytes) spans databases.
    await db.undo.mark(2n);
    await db.put(b('bare'), b('1'));
    await other.put(b('k'), b('4'));
    const spanning = changesOf((await db.undo.take(2n))!);
    expect([spanning.touches(b('ba')), spanning.puts(b('ba')), spanning.touches(b('bb'))]).toEqual([true, false, false]);
    expect([spanning.touches(other.keyPrefix.subarray(0, 3)), spanning.puts(other.keyPrefix.subarray(0, 3))]).toEqual([true, true]);
    expect(spanning.touches(pool.keyPrefix)).toBe(false);
  });

  it('drops the oldest snapshots past its byte or count bound', async () => {
    const { db } = await store();
    const undo = new UndoLog({ getMany: (keys) => db.getMany(keys), batch: (ops) => db.batch(ops) }, 10_000, 3);
    await undo.write([{ type: 'put', key: b('k'), value: new Uint8Array(20_000) }]);
    for (let i = 0n; i < 5n; i++) await undo.mark(i);
    expect(undo.oldest()).toBe(2n);
    // What the write overwrites (20,000 bytes) is past the byte bound: every snapshot goes, and writes are no longer recorded.
    await undo.write([{ type: 'put', key: b('k'), value: new Uint8Array(20_000).fill(1) }]);
    expect(undo.recording).toBe(false);
    expect(await undo.take(4n)).toBeUndefined();
    // The write itself landed.
    expect((await db.get(b('k')))?.[0]).toBe(1);
  });

  it('a write racing a snapshot lands wholly on one side of it', async () => {
    const { db, read } = await store();
    await db.put(b('k'), b('v0'));
    const writing = db.put(b('k'), b('v1'));
    const marking = db.undo.mark(7n);
    const after = db.put(b('k'), b('v2'));
    await Promise.all([writing, marking, after]);
    await db.undo.restore((await db.undo.take(7n))!);
    // The mark came after the first write and before the second, as asked.
    expect(await read('k')).toBe('v1');
  });

  it('on LevelDB, a snapshot waits for a write that went straight to the store before it', async () => {
    // With no snapshot held the write goes straight to the store, through libuv's threads; the
    // next write, recorded, must find what it wrote. Before, the snapshot did not wait for it, and a
    // revert gave back the value before it (2,000 ops made it lose the write nearly every time).
    const db = await openDatabase('leveldb', join(tempDir(), 'db'));
    try {
      const filler = Array.from({ length: 2000 }, (_, j) => ({ type: 'put' as const, key: b(`f${j}`), value: new Uint8Array(200).fill(j) }));
      for (let i = 0; i < 20; i++) {
        const id = BigInt(i);
        await db.put(b('k'), b('before'));
        const first = db.batch([{ type: 'put', key: b('k'), value: b('asked before the snapshot') }, ...filler]);
        const marking = db.undo.mark(id);
        const second = db.put(b('k'), b('asked after it'));
        await Promise.all([first, marking, second]);
        await db.undo.restore((await db.undo.take(id))!);
        expect(text(await db.get(b('k')))).toBe('asked before the snapshot');
      }
    } finally {
      await db.close();
    }
  });
});

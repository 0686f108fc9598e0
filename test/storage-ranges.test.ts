// memdb's store answers as LevelDB does: memory-level holds keys as latin1 strings and orders them
// by V8's string comparison (storage/db.ts), which must be LevelDB's byte order. The same writes,
// then the same range reads (bounds on either side, open or closed, limits, reversed, under
// prefixes) and point reads give the same answers on both, with key bytes of every value (half of
// them 0x00, 0x01, 0x7f, 0x80, 0xfe or 0xff) and keys under a shared 32-byte head; both hold what a
// model sorted by Buffer.compare holds; and memdb refuses a batch whole.
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase, type Range } from '../src/storage/db.js';
import { mulberry32 } from '../src/rpc/mulberry32.js';
import { tempDir } from './helpers.js';

const hex = (v: Uint8Array) => Buffer.from(v).toString('hex');

describe('memdb and LevelDB', () => {
  it('give the same answers to the same writes and range reads', async () => {
    // Seeded, so that a failure can be replayed.
    const next = mulberry32(7);
    // Bytes of any value, half of them from the edges (so that keys share prefixes and sort on
    // them), and a fifth of the keys 33-35 bytes long under one shared 32-byte head.
    const edges = [0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff];
    const byte = () => (next() < 0.5 ? edges[Math.floor(next() * edges.length)]! : Math.floor(next() * 256));
    const head = Uint8Array.from({ length: 32 }, byte);
    const key = () => {
      const tail = Uint8Array.from({ length: 1 + Math.floor(next() * 4) }, byte);
      return next() < 0.2 ? Uint8Array.from([...head, ...tail.subarray(0, 3)]) : tail;
    };
    const [mem, level] = await Promise.all([openDatabase('memdb', ''), openDatabase('leveldb', tempDir('ranges-'))]);
    try {
      const dbs = (root: Database) => [root, root.prefix('a'), root.prefix('b')];
      const [memDbs, levelDbs] = [dbs(mem), dbs(level)];
      // The store's content as a model: its keys (a database's prefix, then the key) and values.
      const model = new Map<string, string>();
      for (let round = 0; round < 40; round++) {
        const which = Math.floor(next() * 3);
        const ops = Array.from({ length: 1 + Math.floor(next() * 20) }, () =>
          next() < 0.75 ? { type: 'put' as const, key: key(), value: key() } : { type: 'del' as const, key: key() },
        );
        await memDbs[which]!.batch(ops);
        await levelDbs[which]!.batch(ops);
        for (const op of ops) {
          const k = hex(Buffer.concat([memDbs[which]!.keyPrefix, op.key]));
          if (op.type === 'put') model.set(k, hex(op.value));
          else model.delete(k);
        }
        for (let q = 0; q < 10; q++) {
          const range: Range = {};
          const pick = () => (next() < 0.5 ? key() : undefined);
          const low = pick();
          const high = pick();
          if (low) range[next() < 0.5 ? 'gte' : 'gt'] = low;
          if (high) range[next() < 0.5 ? 'lt' : 'lte'] = high;
          if (next() < 0.3) range.limit = Math.floor(next() * 5);
          if (next() < 0.4) range.reverse = true;
          const at = Math.floor(next() * 3);
          const [m, l] = await Promise.all([memDbs[at]!.entries(range), levelDbs[at]!.entries(range)]);
          expect(
            m.map(([k, v]) => [hex(k), hex(v)]),
            JSON.stringify({ round, q, range }),
          ).toEqual(l.map(([k, v]) => [hex(k), hex(v)]));
          expect((await memDbs[at]!.values(range)).map(hex)).toEqual((await levelDbs[at]!.values(range)).map(hex));
          const probe = [key(), key()];
          expect((await memDbs[at]!.getMany(probe)).map((v) => v && hex(v))).toEqual((await levelDbs[at]!.getMany(probe)).map((v) => v && hex(v)));
        }
      }
      // Both hold the model's entries, in byte order (Buffer.compare's).
      const sorted = [...model].sort(([a], [b]) => Buffer.compare(Buffer.from(a, 'hex'), Buffer.from(b, 'hex')));
      const all = await mem.everything();
      expect(all.map(([k, v]) => [hex(k), hex(v)])).toEqual(sorted);
      expect((await level.everything()).map(([k, v]) => [hex(k), hex(v)])).toEqual(sorted);
      expect(all.length).toBeGreaterThan(50);
      // A batch with an op memdb refuses (a key that is not bytes) writes nothing, not its first ops.
      // (LevelDB's view encoding takes a string key as its UTF-8 bytes.)
      const refused = [
        { type: 'put' as const, key: Uint8Array.of(9), value: Uint8Array.of(9) },
        { type: 'put' as const, key: 'not bytes' as unknown as Uint8Array, value: Uint8Array.of(1) },
      ];
      await expect(mem.batch(refused)).rejects.toThrow();
      expect(await mem.get(Uint8Array.of(9))).toBeUndefined();
      // A value read is the caller's own: changing it changes nothing stored.
      await mem.put(Uint8Array.of(1), Uint8Array.of(1, 2));
      (await mem.get(Uint8Array.of(1)))![0] = 7;
      expect(hex((await mem.get(Uint8Array.of(1)))!)).toBe('0102');
    } finally {
      await Promise.all([mem.close(), level.close()]);
    }
  });
});

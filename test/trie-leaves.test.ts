// leavesFrom (trienodes.ts), the walk behind the debug API's ranges: a trie's leaves from a start
// key in the order geth's trie.NodeIterator(start) gives them, checked against the keys of random
// tries (keys of several lengths, so extensions, branch values and shared prefixes occur) sorted as
// geth sorts paths: by nibble, with a terminator nibble (16) after each key's own.
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { ValueEncoding } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/storage/db.js';
import { NodeStore } from '../src/vms/evm/nodes.js';
import { leavesFrom, TrieNodes } from '../src/vms/evm/trienodes.js';

/** A deterministic generator (xorshift), so a failure names its seed. */
function random(seed: number) {
  let x = seed || 1;
  return (n: number) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A hex key's nibbles, with geth's terminator (16) when it is a key (not a start). */
const nibbles = (h: string, terminated: boolean) => [...[...h].map((c) => Number.parseInt(c, 16)), ...(terminated ? [16] : [])];

/** geth's order of two paths: by nibble, then the shorter first. */
function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

async function collect(nodes: TrieNodes, root: Uint8Array, start?: Uint8Array): Promise<string[]> {
  const out: string[] = [];
  for await (const leaf of leavesFrom(nodes, root, start)) out.push(`${hex(leaf.key)}=${hex(leaf.value)}`);
  return out;
}

describe('leavesFrom', () => {
  it('walks every leaf at or after the start key, in key order', async () => {
    const db = await openDatabase('memdb', '');
    for (const seed of [1, 7, 42, 1234]) {
      const next = random(seed);
      const nodes = new NodeStore(db.prefix(`t${seed}`));
      const trie = new MerklePatriciaTrie({ db: nodes, valueEncoding: ValueEncoding.Bytes, useKeyHashing: false });
      const entries = new Map<string, string>();
      for (let i = 0; i < 300; i++) {
        // Short keys from a small alphabet share prefixes; a key may be a prefix of another (a branch's value).
        const key = Uint8Array.from({ length: 1 + next(4) }, () => next(3) * 0x11 + next(2));
        const value = Uint8Array.from({ length: 1 + next(40) }, () => next(256));
        await trie.put(key, value);
        entries.set(hex(key), hex(value));
      }
      const keys = [...entries.keys()].sort((a, b) => compare(nibbles(a, true), nibbles(b, true)));
      const sorted = keys.map((k) => `${k}=${entries.get(k)}`);
      const walk = new TrieNodes(nodes);
      expect(await collect(walk, trie.root())).toEqual(sorted);
      for (let i = 0; i < 40; i++) {
        const start = Uint8Array.from({ length: next(4) }, () => next(3) * 0x11 + next(2));
        const from = hex(start);
        const after = keys.filter((k) => compare(nibbles(k, true), nibbles(from, false)) >= 0).map((k) => `${k}=${entries.get(k)}`);
        expect(await collect(walk, trie.root(), start), `seed ${seed}, start ${from}`).toEqual(after);
      }
    }
    await db.close();
  });

  it('walks nothing in an empty trie', async () => {
    const db = await openDatabase('memdb', '');
    const trie = new MerklePatriciaTrie({ db: new NodeStore(db), valueEncoding: ValueEncoding.Bytes });
    expect(await collect(new TrieNodes(new NodeStore(db)), trie.root())).toEqual([]);
    await db.close();
  });
});

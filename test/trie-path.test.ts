// The node's trie walks a key with a loop (src/vms/evm/triepath.ts) where @ethereumjs/mpt walks it
// with its WalkController: both must find the same node, leave the same nibbles and pass the same
// nodes, for keys present and absent, in tries with embedded (short) nodes, extensions and
// branches, and writes through either must make the same roots.
import { MerklePatriciaTrie, type Path } from '@ethereumjs/mpt';
import { describe, expect, it } from 'vitest';
import { PathTrie } from '../src/vms/evm/triepath.js';

/** A deterministic byte source (xorshift32), so a failure names a reproducible case. */
function bytes(seed: number) {
  let x = seed >>> 0 || 1;
  return (n: number): Uint8Array => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      out[i] = x & 0xff;
    }
    return out;
  };
}

const shape = (p: Path) => ({
  node: p.node ? Buffer.from(p.node.serialize()).toString('hex') : null,
  remaining: [...p.remaining],
  stack: p.stack.map((n) => Buffer.from(n.serialize()).toString('hex')),
});

describe('the trie walk', () => {
  for (const seed of [1, 7, 42]) {
    it(`finds what @ethereumjs/mpt's findPath finds (seed ${seed})`, async () => {
      const rand = bytes(seed);
      const ours = new PathTrie();
      const theirs = new MerklePatriciaTrie();
      const keys: Uint8Array[] = [];
      for (let i = 0; i < 300; i++) {
        // Short keys sharing prefixes make extensions; short values make embedded nodes.
        const key = i % 3 === 0 && keys.length > 0 ? Uint8Array.from([...keys[i % keys.length]!.subarray(0, 2), ...rand(2)]) : rand(1 + (i % 5));
        const value = rand(1 + (i % 40));
        keys.push(key);
        await ours.put(key, value);
        await theirs.put(key, value);
      }
      for (const key of keys.filter((_, i) => i % 4 === 1)) {
        await ours.del(key);
        await theirs.del(key);
      }
      expect(Buffer.from(ours.root()).toString('hex')).toBe(Buffer.from(theirs.root()).toString('hex'));
      // The base class's walk over our trie's own store: the same nodes.
      const base = new MerklePatriciaTrie({ db: ours.database().db, root: ours.root() });
      const probes = [...keys, ...Array.from({ length: 200 }, (_, i) => rand(1 + (i % 6))), new Uint8Array()];
      for (const key of probes) {
        expect(shape(await ours.findPath(key))).toEqual(shape(await base.findPath(key)));
        expect(await ours.get(key)).toEqual(await base.get(key));
      }
      // A root the store lacks is read as an empty trie, and throws when asked to.
      const missing = new PathTrie({ db: ours.database().db, root: new Uint8Array(32).fill(9) });
      expect(shape(await missing.findPath(keys[0]!))).toEqual({ node: null, remaining: [], stack: [] });
      await expect(missing.findPath(keys[0]!, true)).rejects.toThrow('Missing node in DB');
    });
  }
});

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

  it('lets its lock go when a write fails, so that the next write runs', async () => {
    // As a fork's trie fails when its upstream does, while a write fetches a node.
    let failing = false;
    class Flaky extends PathTrie {
      override async lookupNode(node: Uint8Array | Uint8Array[]) {
        if (failing) throw new Error('upstream down');
        return super.lookupNode(node);
      }
    }
    const rand = bytes(3);
    const trie = new Flaky();
    const keys = Array.from({ length: 40 }, () => rand(4));
    for (const key of keys) await trie.put(key, rand(8));
    // @ethereumjs/mpt's own put and del kept the lock after a failure: every later write waited for good.
    const within = <T>(p: Promise<T>) =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('still waiting for the lock')), 2_000))]);
    failing = true;
    await expect(within(trie.put(rand(4), rand(8)))).rejects.toThrow('upstream down');
    await expect(within(trie.del(keys[0]!))).rejects.toThrow('upstream down');
    await expect(within(trie.put(keys[1]!, new Uint8Array()))).rejects.toThrow('upstream down');
    failing = false;
    const value = rand(8);
    await within(trie.put(keys[2]!, value));
    await within(trie.del(keys[3]!));
    expect(await trie.get(keys[2]!)).toEqual(value);
    expect(await trie.get(keys[3]!)).toBeNull();
    // Two writes at once still run one after the other.
    const [a, b] = [rand(8), rand(8)];
    await within(Promise.all([trie.put(keys[4]!, a), trie.put(keys[4]!, b)]));
    expect(await trie.get(keys[4]!)).toEqual(b);
  });
});

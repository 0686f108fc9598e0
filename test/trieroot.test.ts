// The bottom-up trie root of a block's tx and receipt lists (src/vms/evm/trieroot.ts) against
// @ethereumjs/mpt's MerklePatriciaTrie, the reference: list tries of every size a block has, and
// random keys that share prefixes, end inside each other, repeat, and values short enough for nodes
// to be embedded in their parent. No empty key: none occurs in Ethereum's tries, and MerklePatriciaTrie
// does not delete one.
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../src/rpc/mulberry32.js';
import { listRoot, trieRoot } from '../src/vms/evm/trieroot.js';

const bytes = (next: () => number, n: number) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256));

async function reference(entries: Array<readonly [Uint8Array, Uint8Array]>): Promise<string> {
  const trie = new MerklePatriciaTrie();
  for (const [k, v] of entries) await trie.put(k, v.length > 0 ? v : null);
  return bytesToHex(trie.root());
}

describe('trie roots built bottom-up', () => {
  it('equal MerklePatriciaTrie roots for list tries of 0 to 300 items, short and long values', async () => {
    const next = mulberry32(1);
    for (let n = 0; n <= 300; n += n < 20 ? 1 : 17) {
      const values = Array.from({ length: n }, () => bytes(next, next() < 0.3 ? 1 + Math.floor(next() * 8) : 40 + Math.floor(next() * 300)));
      const keyed = values.map((v, i) => [RLP.encode(bigIntToUnpaddedBytes(BigInt(i))), v] as const);
      expect(bytesToHex(listRoot(values)), `n = ${n}`).toBe(await reference(keyed));
    }
  });

  it('equal MerklePatriciaTrie roots for random keys: shared prefixes, keys ending inside others, repeats, deletions', async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = mulberry32(seed);
      const pool = Array.from({ length: 1 + Math.floor(next() * 6) }, () => bytes(next, 1 + Math.floor(next() * 3)));
      const entries = Array.from({ length: Math.floor(next() * 40) }, () => {
        const key = Uint8Array.from([...pool[Math.floor(next() * pool.length)]!, ...bytes(next, Math.floor(next() * 3))]);
        const value = next() < 0.1 ? new Uint8Array() : bytes(next, next() < 0.5 ? 1 + Math.floor(next() * 6) : 33 + Math.floor(next() * 40));
        return [key, value] as const;
      });
      expect(bytesToHex(trieRoot(entries)), `seed ${seed}`).toBe(await reference(entries));
    }
  });
});

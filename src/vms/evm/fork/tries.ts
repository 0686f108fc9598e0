// The tries of a forked chain: a lookup that misses a node asks the fork state to fetch it (state.ts),
// knowing which key it was looking for. Every trie operation that walks a key (get, put, del, a
// proof) first transforms the key (appliedKey), which is where the key is noted; a storage trie is
// told by its state manager whose storage it is and which upstream block it reads.
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { copyAs, type TrieClass, type TrieLayer } from '../state.js';
import type { ForkState, TrieSite } from './state.js';

/** What a storage trie of a forked state knows of itself. */
interface StorageOwner {
  /** keccak256 of the account's address (what the state manager keys storage tries by). */
  hashed: Uint8Array;
  block: bigint;
}

const owners = new WeakMap<MerklePatriciaTrie, StorageOwner>();

/** Tells a storage trie whose it is and which upstream block its upstream nodes are from. */
export function ownStorageTrie(trie: MerklePatriciaTrie, hashed: Uint8Array, block: bigint): void {
  owners.set(trie, { hashed, block });
}

const MISSING = 'Missing node in DB';

/** What of @ethereumjs/mpt's CheckpointDB a miss is remembered in. */
interface MissMemory {
  _cache?: { delete(key: string): unknown };
  checkpoints: Array<{ keyValueMap: Map<string, Uint8Array | undefined> }>;
}

/**
 * Forgets that the trie's database missed `hash`: its checkpoint layers remember a miss as a value
 * (undefined), so the node the fork just fetched would stay missing for as long as they are open.
 */
function forgetMiss(trie: MerklePatriciaTrie, hash: Uint8Array): void {
  // biome-ignore lint/suspicious/noExplicitAny: the trie's database and key function are private in its types
  const self = trie as any;
  const db = self._db as MissMemory;
  const key = Buffer.from(self._getDbKey(hash) as Uint8Array).toString('hex');
  db._cache?.delete(key);
  for (const layer of db.checkpoints) if (layer.keyValueMap.has(key) && layer.keyValueMap.get(key) === undefined) layer.keyValueMap.delete(key);
}

/** The layer trieClass puts over a forked chain's tries. */
export function forkLayer(fork: ForkState): TrieLayer {
  return (Base: TrieClass, kind: 'account' | 'storage', storage: () => TrieClass): TrieClass =>
    class extends Base {
      /** The key of the operation under way, where a miss is resolved. */
      site: TrieSite | undefined;

      override appliedKey(key: Uint8Array): Uint8Array {
        if (kind === 'account') {
          fork.noteAddress(key);
          this.site = { block: fork.blockOf(this.root()), address: key };
        } else {
          const owner = owners.get(this);
          const address = owner && fork.addressOf(owner.hashed);
          this.site = owner && address ? { block: owner.block, address, slot: key } : undefined;
        }
        return super.appliedKey(key);
      }

      override async lookupNode(node: Uint8Array | Uint8Array[]): ReturnType<MerklePatriciaTrie['lookupNode']> {
        try {
          return await super.lookupNode(node);
        } catch (err) {
          if ((err as Error).message !== MISSING || !(node instanceof Uint8Array) || node.length !== 32) throw err;
          if (!this.site) throw new Error(`forked state: trie node ${Buffer.from(node).toString('hex')} is missing and its key is unknown`);
          await fork.resolve(this.site, node);
          forgetMiss(this, node);
          return super.lookupNode(node);
        }
      }

      override shallowCopy(includeCheckpoints = true, opts?: Record<string, unknown>): MerklePatriciaTrie {
        return copyAs(this, storage(), includeCheckpoints, opts);
      }
    };
}

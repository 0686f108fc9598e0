// The tries of a forked chain: a lookup that misses a node asks the fork state to fetch it (state.ts),
// knowing which key it was looking for. Every trie operation that walks a key (get, put, del, a
// proof) first transforms the key (appliedKey), which is where the key is noted; a storage trie is
// told by its state manager whose storage it is and which upstream block it reads.
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { equalsBytes } from '@ethereumjs/util';
import { copyAs, type TrieClass, type TrieLayer } from '../state.js';
import { MISSING_NODE } from '../triepath.js';
import { type ForkState, ForkStateError, type TrieSite } from './state.js';

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

/** Keys of a trie's latest operations kept to resolve a miss (reads of one trie may run concurrently). */
const RECENT_SITES = 64;

/** The zero address: any key's proof holds the root. */
const ANY_KEY = new Uint8Array(20);

/**
 * Where a lookup with no key under way happens: the trie checking its root exists (a state set to
 * a past block's root). An account trie's root comes with the proof of any key at the block whose
 * root it is; a storage trie's with its owner's.
 */
function rootSite(fork: ForkState, kind: 'account' | 'storage', node: Uint8Array, trie: MerklePatriciaTrie): TrieSite {
  if (kind === 'account') return { block: fork.blockOf(node), address: ANY_KEY };
  const owner = owners.get(trie);
  const address = owner && fork.addressOf(owner.hashed);
  if (!owner || !address) throw new ForkStateError(`forked state: the storage trie ${Buffer.from(node).toString('hex')} has no known owner`);
  return { block: owner.block, address, slot: new Uint8Array(32) };
}

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
      /** The keys of the latest operations, newest first: a miss is on the path of one under way. */
      sites: TrieSite[] = [];

      private noteSite(site: TrieSite | undefined): void {
        if (!site) return;
        this.sites.unshift(site);
        if (this.sites.length > RECENT_SITES) this.sites.pop();
      }

      override appliedKey(key: Uint8Array): Uint8Array {
        if (kind === 'account') {
          fork.noteAddress(key);
          this.noteSite({ block: fork.blockOf(this.root()), address: key });
        } else {
          const owner = owners.get(this);
          const address = owner && fork.addressOf(owner.hashed);
          this.noteSite(owner && address ? { block: owner.block, address, slot: key } : undefined);
        }
        return super.appliedKey(key);
      }

      /**
       * A root the trie makes from an upstream block's reads that block's nodes where it did not
       * change them: a block before the fork block, run again (a trace), reads its parent's state.
       */
      override async put(key: Uint8Array, value: Uint8Array | null, skipKeyTransform = false): Promise<void> {
        const block = fork.blockOf(this.root());
        await super.put(key, value, skipKeyTransform);
        if (kind === 'account') fork.noteDerived(this.root(), block);
      }

      override async del(key: Uint8Array, skipKeyTransform = false): Promise<void> {
        const block = fork.blockOf(this.root());
        await super.del(key, skipKeyTransform);
        if (kind === 'account') fork.noteDerived(this.root(), block);
      }

      /** A root check walks no key: a miss there is the root, found by a proof of any key (rootSite). */
      override async checkRoot(root: Uint8Array): Promise<boolean> {
        this.checking = root;
        try {
          return await super.checkRoot(root);
        } finally {
          this.checking = undefined;
        }
      }

      /** The root being checked, if a check is under way. */
      private checking: Uint8Array | undefined;

      override async lookupNode(node: Uint8Array | Uint8Array[]): ReturnType<MerklePatriciaTrie['lookupNode']> {
        try {
          return await super.lookupNode(node);
        } catch (err) {
          // The empty root is in no store: @ethereumjs/mpt reads its miss as an empty trie.
          if ((err as Error).message !== MISSING_NODE || !(node instanceof Uint8Array) || node.length !== 32 || equalsBytes(node, this.EMPTY_TRIE_ROOT))
            throw err;
          const root = this.checking !== undefined && Buffer.compare(this.checking, node) === 0;
          await fork.resolve(root ? [rootSite(fork, kind, node, this)] : this.sites, node);
          forgetMiss(this, node);
          return super.lookupNode(node);
        }
      }

      override shallowCopy(includeCheckpoints = true, opts?: Record<string, unknown>): MerklePatriciaTrie {
        return copyAs(this, storage(), includeCheckpoints, opts);
      }
    };
}

// The preimages of a chain's trie keys (an account's address, a storage slot), by their keccak, as
// coreth and subnet-evm keep them with the chain config's `preimages-enabled` (off by default; on
// here with --dev too): every key the block builder writes into a state trie, the genesis's and the
// dev edits' included, is kept with the block's write. The debug API reads them back to name the
// accounts and slots of a state it walks by hashed key (debug_accountRange, debug_dumpBlock,
// debug_storageRangeAt, debug_getModifiedAccountsBy*, debug_preimage). A key's preimage never
// changes, so they are never deleted (a revert takes back those its blocks wrote, as every write).
import { keccak256 } from '../../crypto/keccak.js';
import { toHex } from '../../encoding/bytes.js';
import type { Database, WriteBatch } from '../../storage/db.js';
import { StagedWrites } from './staged.js';
import type { TrieClass, TrieLayer } from './state.js';

export class Preimages {
  /** Noted since the last flush, by hashed key (hex). */
  private readonly staged: StagedWrites;

  constructor(private readonly db: Database) {
    this.staged = new StagedWrites(db);
  }

  /** Notes `key`'s preimage, to be written with the next flush. */
  note(key: Uint8Array): void {
    const hashed = toHex(keccak256(key));
    if (!this.staged.has(hashed)) this.staged.set(hashed, Uint8Array.from(key));
  }

  /** The preimage of `hashed`, if kept. */
  async get(hashed: Uint8Array): Promise<Uint8Array | undefined> {
    return this.staged.get(toHex(hashed)) ?? (await this.db.get(hashed));
  }

  /** Adds the noted preimages to `batch`; returns what to call once it committed. */
  flushInto(batch: WriteBatch): () => void {
    return this.staged.flushInto(batch);
  }

  /** A batch that failed: its preimages wait for the next one. */
  unflushed(): void {
    this.staged.unflushed();
  }
}

/**
 * The layer that notes the key of every write of a value to a trie (and its storage tries): geth's
 * secure trie keeps the preimage of each key it updates and writes them when the state is
 * committed. A deletion notes nothing. (geth's trie also forgets a key it deletes after updating it;
 * here such a key's preimage, like one a failed block noted, is written all the same: a preimage is
 * true of its key in any trie, and another trie may hold the same slot.)
 */
export function preimageLayer(preimages: Preimages): TrieLayer {
  return (Base: TrieClass) =>
    class extends Base {
      override async put(key: Uint8Array, value: Uint8Array | null, skipKeyTransform = false): Promise<void> {
        if (!skipKeyTransform && value !== null && value.length > 0) preimages.note(key);
        return super.put(key, value, skipKeyTransform);
      }
    };
}

// Dev state edits (anvil_setBalance, setNonce, setCode, setStorageAt): they change the head's state
// without a block, as in Anvil and Hardhat. The edited root is kept durably for the head it was made
// on; the next block's state root includes it, and a replay of that block starts from it.
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { VM } from '@ethereumjs/vm';
import { type Database, WriteBatch } from '../../storage/db.js';
import type { BlockRules } from './blockrules.js';
import { countedState } from './execution.js';
import type { NodeStore } from './nodes.js';
import type { ChainRules } from './precompiles/rules.js';
import type { StoredBlock } from './store.js';

/** The dev-state key of the head's edited root: the head's hash, then the root. */
const EDITED_ROOT_KEY = new Uint8Array([0]);

type Edit = (sm: MerkleStateManager) => Promise<void>;

export class StateEdits {
  /** State edits waiting for the next round to apply them, with their callers. */
  private waiting: Array<{ edit: Edit; done: (err?: Error) => void }> = [];
  /** The head's state with the dev edits made since it was built; undefined when there are none. */
  private editedRoot: Uint8Array | undefined;

  /**
   * `devState`: the edited roots, the head's and those of the blocks built on edits. `forkBase`: a
   * fork's first head and the edited state the upstream served for it (ChainFork.editedRoot).
   */
  constructor(
    private readonly db: Database,
    private readonly devState: Database,
    private readonly nodes: NodeStore,
    private readonly rules: BlockRules,
    private readonly forkBase?: { hash: Uint8Array; root: Uint8Array },
  ) {}

  /**
   * The state root reads of `block` use: for the head, its state with the dev edits made since (what
   * Anvil's and Hardhat's `latest` and `pending` see), else the header's. A fork block whose upstream
   * served it with edits keeps that state once it is no longer the head: its header's state is one
   * the upstream never proves (Anvil, which reads the upstream at the fork block while it is the
   * upstream's head, reads the same).
   */
  rootOf(block: StoredBlock, head: StoredBlock): Uint8Array {
    const isHead = block === head || Buffer.compare(block.hash, head.hash) === 0;
    if (this.editedRoot && isHead) return this.editedRoot;
    if (this.forkBase && Buffer.compare(block.hash, this.forkBase.hash) === 0) return this.forkBase.root;
    return block.header.stateRoot;
  }

  /** The state `block` was built on: its parent's, with the dev edits made on the parent since. */
  async builtOn(block: StoredBlock, parent: StoredBlock): Promise<Uint8Array> {
    return (await this.devState.get(block.hash)) ?? parent.header.stateRoot;
  }

  /** The edited root kept for `head`, if any (an edit made before a restart or a revert). */
  async load(head: StoredBlock): Promise<void> {
    const kept = await this.devState.get(EDITED_ROOT_KEY);
    this.editedRoot = kept && Buffer.from(kept.subarray(0, 32)).equals(Buffer.from(head.hash)) ? kept.slice(32) : undefined;
  }

  /** Records in `batch` that `head`'s state has edits, their root `root` (a fork of a head that had some); `load` reads it. */
  editedAt(batch: WriteBatch, head: StoredBlock, root: Uint8Array): void {
    batch.put(this.devState, EDITED_ROOT_KEY, Buffer.concat([head.hash, root]));
  }

  /** An edit for the next round to apply; resolves once it is written durably. */
  request(edit: Edit): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ edit, done: (err) => (err ? reject(err) : resolve()) });
    });
  }

  /**
   * Applies the waiting edits on `vm`'s state (at `head`'s edited root) and tells their callers how
   * it went; a failure is theirs, not the round's. The rules the edited state sets for the next
   * block when edits were written (an edit of a precompile's storage governs the next block).
   */
  async applyWaiting(vm: VM, head: StoredBlock): Promise<ChainRules | undefined> {
    const edits = this.waiting.splice(0);
    if (edits.length === 0) return undefined;
    const fns = edits.map((e) => e.edit);
    let rules: ChainRules;
    try {
      rules = await this.write(vm, head, fns);
    } catch (err) {
      for (const e of edits) e.done(err as Error);
      return undefined;
    }
    for (const e of edits) e.done();
    return rules;
  }

  /** Applies edits on the builder's state and writes them in one batch: the trie nodes and the edited root, for this head. */
  private async write(vm: VM, head: StoredBlock, edits: Edit[]): Promise<ChainRules> {
    const sm = countedState(vm);
    const base = sm.depth;
    sm.checkpoint();
    let root: Uint8Array;
    let rules: ChainRules;
    try {
      for (const edit of edits) await edit(sm);
      await sm.commit();
      root = await sm.getStateRoot();
      // Read before the write (on a fork a read may fail too): a refused edit must leave nothing.
      rules = await this.rules.after(vm.stateManager as MerkleStateManager, head.header.time);
    } catch (err) {
      // Reverted while its checkpoint is open; an edit whose flush failed (on a fork, a deleted slot's
      // sibling the upstream did not give) goes back to the head's state, as a failed block does.
      await sm.undoFailedWrite(base, this.rootOf(head, head));
      throw err;
    }
    const batch = new WriteBatch();
    const settled = this.nodes.flushInto(batch);
    this.editedAt(batch, head, root);
    try {
      await this.db.write(batch);
    } catch (err) {
      this.nodes.unflushed();
      await sm.tryResetTo(this.rootOf(head, head));
      throw err;
    }
    settled();
    this.editedRoot = root;
    return rules;
  }

  /** The block built on the head goes in `batch`: the edits it includes are now its parent's, kept for its replay. */
  carryInto(batch: WriteBatch, block: StoredBlock): void {
    if (!this.editedRoot) return;
    batch.del(this.devState, EDITED_ROOT_KEY);
    batch.put(this.devState, block.hash, this.editedRoot);
  }

  /** The block carrying the edits is the head: its state has no edits yet. */
  committed(): void {
    this.editedRoot = undefined;
  }

  /** Edits that came after the last round (a revert or a load rebuilds the node under them) are not applied. */
  close(): void {
    for (const e of this.waiting.splice(0)) e.done(new Error('the state edit was not applied: the chain was closed (the node was reverted, loaded or reset)'));
  }
}

// Whole-node state control, as the shell (node.ts) offers it to the emulator API and to the EVM
// chains' Anvil methods (evm_snapshot, anvil_dumpState, ...): every chain, shared memory and the
// index are captured and restored together, so they stay consistent with one another.

import { type Changes, changesOf, spaceOfBytes, type UndoLog } from '../storage/undo.js';

export type { Changes } from '../storage/undo.js';

/** Thrown for a state that cannot be loaded (another network, not a dump, a newer format). */
export { StateError } from '../storage/state.js';

export interface NodeStates {
  /** Captures the node; the id (from 0, as Anvil's) reverts to it once. */
  snapshot(): Promise<bigint>;
  /** Back to snapshot `id`, which is used up with every later one; false if there is no such snapshot. */
  revert(id: bigint): Promise<boolean>;
  /** The node's state, gzipped: what `load` takes, here or in another node of the same network. */
  dump(): Promise<Uint8Array>;
  load(state: Uint8Array): Promise<void>;
  /** Back to genesis (and the start-up work of the node's flags: test accounts, --l1 chains). */
  reset(): Promise<void>;
}

/**
 * A part of the node that follows the store back to a snapshot without the node being rebuilt
 * (evm_revert at Anvil's speed): a chain, the index, the Data API's followers.
 */
export interface Rewindable {
  /** The root-level databases it reads: their key prefixes (hashed, 32 bytes). */
  prefixes: Uint8Array[];
  /** Stops writing (what is under way finishes) and resolves to what lets it go on. */
  hold(): Promise<() => void>;
  /**
   * After the store went back (while held): what it keeps in memory, as the store has it; false if
   * it cannot. `changes` names the keys the store's rollback wrote: what mirrors others may stay.
   */
  reload(changes: Changes): Promise<boolean>;
  /**
   * The node went back to a snapshot in place (every part reloaded, still held), whether or not the
   * rollback wrote any of its keys: what a revert resets that the store does not hold (an EVM
   * chain's block time, as Anvil's revert resets its time manager). A revert that rebuilds the node
   * tells the new parts instead (node/slot.ts).
   */
  reverted?(): void;
  /**
   * Before a snapshot is taken: finishes the work already due on what the store holds (a follower
   * behind the head), so that each revert to the snapshot does not find it undone and do it again.
   */
  settle?(): Promise<void>;
}

/** How going back to a snapshot in place went (see `rewind`). */
export type Rewound =
  /** No such snapshot: nothing changed. */
  | 'unknown'
  /** The store is back and every part reloaded. */
  | 'done'
  /** The store is back, but a part cannot follow in place: the node must be rebuilt on it. */
  | 'rebuild';

/**
 * Goes back to snapshot `id` in place: holds every part, writes the undo log's rollback, and has
 * the parts whose databases it wrote reload. A database no part claims (the X- or P-Chain's, shared
 * memory's, a chain's created since) and that is not `neutral` (the root's bare keys), or a part
 * that cannot reload, asks for a rebuild. The parts stay held until `release` (a rebuild closes them first).
 */
export async function rewind(
  undo: UndoLog,
  id: bigint,
  parts: Rewindable[],
  neutral: Set<string>,
  /** Once the store is back, before the parts reload (what they read besides the store: the node's clock). */
  restored: () => void = () => {},
): Promise<{ outcome: Rewound; release: () => void }> {
  const releases: Array<() => void> = [];
  const release = () => {
    for (const r of releases.splice(0)) r();
  };
  try {
    for (const p of parts) releases.push(await p.hold());
    const rollback = await undo.take(id);
    if (!rollback) return { outcome: 'unknown', release };
    await undo.restore(rollback);
    restored();
    const claims = new Map<string, Rewindable>();
    for (const p of parts) for (const prefix of p.prefixes) claims.set(spaceOfBytes(prefix), p);
    const dirty = new Set<Rewindable>();
    for (const space of rollback.spaces) {
      const p = claims.get(space);
      if (p) dirty.add(p);
      else if (!neutral.has(space)) return { outcome: 'rebuild', release };
    }
    const changes = changesOf(rollback);
    // Each part reads only its own databases: their reads overlap (on LevelDB each waits on a thread).
    // A part that fails to reload is rebuilt with the node, from the store it now has.
    const reloaded = await Promise.all([...dirty].map((p) => p.reload(changes).catch(() => false)));
    if (!reloaded.every(Boolean)) return { outcome: 'rebuild', release };
    for (const p of parts) p.reverted?.();
    return { outcome: 'done', release };
  } catch (err) {
    release();
    throw err;
  }
}

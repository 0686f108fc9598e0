// The node's states (--dev): snapshots, revert, dump, load and reset of the whole node (X, P, C, the
// L1s, shared memory, the index and the node clock's offset).
import { type NodeStates, rewind } from '../chains/states.js';
import type { NodeConfig } from '../config/load.js';
import type { Database } from '../storage/db.js';
import { checkLayout, ROOT_KEYS } from '../storage/keys.js';
import { decodeState, encodeState, type NodeState, StateError } from '../storage/state.js';
import { spaceOfBytes } from '../storage/undo.js';
import type { Shell } from './shell.js';
import type { CoreSlot } from './slot.js';

/** A fresh store gets the layout stamp and the running-node marker, as at start-up. */
export async function stampStore(db: Database, config: NodeConfig): Promise<void> {
  await checkLayout(db, config.dataDir);
  await db.put(ROOT_KEYS.ungracefulShutdown, new Uint8Array());
}

/**
 * Snapshots are marks in the store's undo log (storage/undo.ts), with the node clock's offset:
 * taking one costs nothing, and going back writes what changed since and has the parts that read
 * it reload (chains/states.ts rewind); only a change a part cannot follow rebuilds the core.
 */
export function nodeStates(shell: Shell, slot: CoreSlot): NodeStates {
  const { config, db, clock, main } = shell;
  const offsets = new Map<bigint, bigint>();
  let nextId = 0n;
  const neutral = new Set(Object.values(ROOT_KEYS).map(spaceOfBytes));
  const capture = async (): Promise<NodeState> => ({ networkId: config.networkId, clockOffsetNs: clock.offsetNs, entries: await db.everything() });
  const settled = async () => {
    while (slot.rebuilding) await slot.rebuilding;
  };
  return {
    async snapshot() {
      await settled();
      // Followers behind the head index what they owe first: a revert would otherwise undo it each time.
      for (const part of slot.current().rewindables()) await part.settle?.();
      await settled();
      const id = nextId++;
      offsets.set(id, clock.offsetNs);
      await db.undo.mark(id);
      // The undo log drops the oldest snapshots past its bounds: their offsets go too (ids only grow).
      const oldest = db.undo.oldest() ?? nextId;
      for (const k of offsets.keys()) {
        if (k >= oldest) break;
        offsets.delete(k);
      }
      return id;
    },
    revert(id) {
      return slot.exclusive(async () => {
        const offset = offsets.get(id);
        if (offset === undefined) return false;
        // One-shot, as Anvil's: this snapshot and every later one are used up.
        for (const k of [...offsets.keys()]) if (k >= id) offsets.delete(k);
        main.info('reverting the node to a snapshot', { id: String(id) });
        // The clock goes back with the store, before the parts reload: the pool's reload stamps the txs it takes back.
        const { outcome, release } = await rewind(db.undo, id, slot.current().rewindables(), neutral, () => {
          clock.offsetNs = offset;
        });
        try {
          if (outcome === 'unknown') return false;
          if (outcome === 'rebuild') await slot.rebuild(async () => {}, 'revert');
          // As after a rebuild, the websocket clients connected before the revert are told 1012 (their
          // subscriptions followed blocks that are gone), once the revert has answered.
          else setTimeout(slot.endSockets(), 100).unref();
        } finally {
          release();
        }
        return true;
      });
    },
    async dump() {
      await settled();
      return encodeState(await capture());
    },
    async load(bytes) {
      const state = decodeState(bytes);
      if (state.networkId !== config.networkId) throw new StateError(`the state is of network ${state.networkId}, this node runs network ${config.networkId}`);
      main.info('loading a dumped state', { entries: state.entries.length });
      try {
        // Snapshots outlive a load, as Anvil's: the undo log records the replaced store (within its bounds).
        await slot.exclusive(() =>
          slot.rebuild(async () => {
            await db.replaceEverything(state.entries);
            clock.offsetNs = state.clockOffsetNs;
          }),
        );
      } catch (err) {
        // The node went back to the state it had: the dump is what was wrong.
        throw new StateError(`the node cannot run on it (${(err as Error).message}); it kept its own state`);
      }
    },
    async reset() {
      main.info('resetting the node to genesis');
      await slot.exclusive(async () => {
        offsets.clear();
        await db.undo.clear();
        try {
          await slot.rebuild(async () => {
            await db.replaceEverything([]);
            await stampStore(db, config);
            clock.offsetNs = 0n;
          }, 'fresh');
        } catch (err) {
          // Rolled back: the node runs on as it was (unless even that failed: no core then).
          if (slot.core) throw new StateError(`the node could not be reset (${(err as Error).message}); it kept its state`);
          throw err;
        }
      });
    },
  };
}

// emulator.snapshot / revert / dumpState / loadState / reset (--dev): the whole node's state (X, P,
// C, the L1s, shared memory, the index and the node clock's offset) captured and put back together.
// The EVM chains' evm_snapshot, evm_revert, anvil_dumpState, anvil_loadState and anvil_reset are
// the same operations.
import { readFile } from 'node:fs/promises';
import { StateError, type NodeStates } from '../../chains/states.js';
import { method, serviceErrors } from '../../rpc/method.js';
import { none, string, struct, uint64 } from '../../rpc/schema.js';
import { writeFileAtomic } from '../../storage/files.js';

const errors = serviceErrors({
  noPath: () => 'path is required',
  unreadable: (path: string, why: string) => `couldn't read state file ${path}: ${why}`,
  unwritable: (path: string, why: string) => `couldn't write state file ${path}: ${why}`,
  badState: (why: string) => `couldn't load state: ${why}`,
});

export function stateMethods(states: NodeStates) {
  return {
    snapshot: method(none, async () => ({ id: String(await states.snapshot()) })),
    revert: method(struct({ id: uint64 }), async ({ id }) => ({ reverted: await states.revert(id) })),
    dumpState: method(struct({ path: string }), async ({ path }) => {
      if (path === '') throw errors.noPath();
      const state = await states.dump();
      try {
        await writeFileAtomic(path, state);
      } catch (err) {
        throw errors.unwritable(path, (err as Error).message);
      }
      return { path, bytes: String(state.length) };
    }),
    loadState: method(struct({ path: string }), async ({ path }) => {
      if (path === '') throw errors.noPath();
      let state: Uint8Array;
      try {
        state = new Uint8Array(await readFile(path));
      } catch (err) {
        throw errors.unreadable(path, (err as Error).message);
      }
      try {
        await states.load(state);
      } catch (err) {
        if (err instanceof StateError) throw errors.badState(err.message);
        throw err;
      }
      return {};
    }),
    reset: method(none, async () => {
      await states.reset();
      return {};
    }),
  };
}

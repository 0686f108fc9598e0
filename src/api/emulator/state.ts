// emulator.snapshot / revert / dumpState / loadState / reset (--dev): the whole node's state (X, P,
// C, the L1s, shared memory, the index and the node clock's offset) captured and put back together.
// The EVM chains' evm_snapshot, evm_revert, anvil_dumpState, anvil_loadState and anvil_reset are
// the same operations. State files live in --state-dir and nowhere else: these methods are reachable
// by any local client, and a path of the caller's choosing would let one write or probe any file
// the user can.
import { readFile } from 'node:fs/promises';
import { StateError, type NodeStates } from '../../chains/states.js';
import { method, serviceErrors } from '../../rpc/method.js';
import { none, string, struct, uint64 } from '../../rpc/schema.js';
import { confinedPath, OutsideDirError, writeFileAtomic } from '../../storage/files.js';

const errors = serviceErrors({
  noPath: () => 'path is required',
  nulInPath: () => 'path must not contain a NUL byte',
  outside: (path: string, dir: string) => `path ${path} is outside the state directory ${dir}`,
  unreadable: (path: string, why: string) => `couldn't read state file ${path}: ${why}`,
  unwritable: (path: string, why: string) => `couldn't write state file ${path}: ${why}`,
  badState: (why: string) => `couldn't load state: ${why}`,
});

export function stateMethods(states: NodeStates, stateDir: string) {
  /** The file a caller's path names, under the state directory. */
  const fileOf = async (path: string): Promise<string> => {
    if (path === '') throw errors.noPath();
    // No file system takes a NUL in a name (Node would throw its own text, naming the directory).
    if (path.includes('\0')) throw errors.nulInPath();
    try {
      return await confinedPath(stateDir, path);
    } catch (err) {
      if (err instanceof OutsideDirError) throw errors.outside(path, stateDir);
      throw errors.unreadable(path, (err as Error).message);
    }
  };
  return {
    snapshot: method(none, async () => ({ id: String(await states.snapshot()) })),
    revert: method(struct({ id: uint64 }), async ({ id }) => ({ reverted: await states.revert(id) })),
    dumpState: method(struct({ path: string }), async ({ path }) => {
      const file = await fileOf(path);
      const state = await states.dump();
      try {
        await writeFileAtomic(file, state);
      } catch (err) {
        throw errors.unwritable(file, (err as Error).message);
      }
      return { path: file, bytes: String(state.length) };
    }),
    loadState: method(struct({ path: string }), async ({ path }) => {
      const file = await fileOf(path);
      let state: Uint8Array;
      try {
        state = new Uint8Array(await readFile(file));
      } catch (err) {
        throw errors.unreadable(file, (err as Error).message);
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

// Whole-node state control, as the shell (node.ts) offers it to the emulator API and to the EVM
// chains' Anvil methods (evm_snapshot, anvil_dumpState, ...): every chain, shared memory and the
// index are captured and restored together, so they stay consistent with one another.

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

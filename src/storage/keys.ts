// Every key space of the node's store, in one place. The root holds a few bare keys (read and
// written one at a time, never scanned); everything else lives in a prefixed sub-database whose
// hashed prefix keeps it apart from every other: one per chain (as avalanchego's chain manager
// gives each chain prefixdb(chainID)), with the VM's state and proposervm's inside it, and one each
// for the index and shared memory.
import type { Database } from './db.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

/** Bare keys of the root. */
export const ROOT_KEYS = {
  /** avalanchego's marker of a run that has not shut down cleanly. */
  ungracefulShutdown: utf8('ungracefulShutdown'),
  /** Read by the database health check. */
  healthProbe: utf8('health-probe'),
  /** The layout version of this store (see checkLayout). */
  layout: utf8('emulatorLayout'),
} as const;

/** A chain's own database. */
export const chainDatabase = (root: Database, chainID: Uint8Array): Database => root.prefix(chainID);
/** The chain's VM state, inside the chain's database. */
export const vmDatabase = (chain: Database): Database => chain.prefix('vm');
/** proposervm's outer blocks, inside the chain's database. */
export const proposerDatabase = (chain: Database): Database => chain.prefix('proposervm');
/** The Index API's containers and markers. */
export const indexDatabase = (root: Database): Database => root.prefix('index');
/** Shared memory between the primary network's chains. */
export const sharedMemoryDatabase = (root: Database): Database => root.prefix('atomic');

/** The layout this version writes: 1, prefixed sub-databases. */
export const LAYOUT_VERSION = 1;

/** The single-chain layout before it (version 0) kept the X-Chain's "last accepted" record here. */
const V0_X_LAST_ACCEPTED = Uint8Array.of(0x15, ...utf8('last'));

export class LayoutError extends Error {}

/**
 * Makes sure the store is one this version can read: a new store is stamped with the current
 * layout; one written by the earlier single-chain layout is refused (never misread), naming what
 * to remove.
 */
export async function checkLayout(root: Database, dataDir: string): Promise<void> {
  const stamp = await root.get(ROOT_KEYS.layout);
  if (stamp !== undefined) {
    const version = stamp[0];
    if (version !== LAYOUT_VERSION) {
      throw new LayoutError(
        `database ${root.path ?? ''} has layout version ${version}, which this version of the emulator (layout ${LAYOUT_VERSION}) cannot read; use another --data-dir`,
      );
    }
    return;
  }
  if ((await root.get(V0_X_LAST_ACCEPTED)) !== undefined) {
    throw new LayoutError(
      `database ${root.path ?? ''} was written by an earlier version of the emulator (single-chain layout) and cannot be read by this one; ` +
        `remove ${root.path ?? 'it'} or use another --data-dir than ${dataDir}`,
    );
  }
  await root.put(ROOT_KEYS.layout, Uint8Array.of(LAYOUT_VERSION));
}

// What the state-manager tests share: the C-Chain's state managers over a node store in a memdb,
// one store per test (closed after it), and a storage slot's key.
import { afterEach } from 'vitest';
import { type Database, openDatabase } from '../../src/storage/db.js';
import { stateAt } from '../../src/vms/evm/execution.js';
import { NodeStore } from '../../src/vms/evm/nodes.js';
import { chainCommon } from '../../src/vms/evm/rules.js';

/** Slot `n` as a 32-byte key. */
export const slot = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? n : 0));

/**
 * Inside a describe: what opens a test's store, closed after the test. Its `builder(root)` is a state
 * manager with the builder's caches, `uncached(root)` one that reads only what the tries hold.
 */
export function nodeStores() {
  let db: Database | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });
  return async () => {
    db = await openDatabase('memdb', '');
    const nodes = new NodeStore(db);
    const common = chainCommon(43112n);
    return {
      nodes,
      builder: (root?: Uint8Array) => stateAt(nodes, common, root, false, { cacheEntries: 50_000 }),
      uncached: (root: Uint8Array) => stateAt(nodes, common, root, false),
    };
  };
}

// An EVM chain's first blocks at open: its head and genesis as the database has them, else written
// now, for a fresh chain (the genesis state and block) or a fresh fork (the upstream's fork block).
import type { Common } from '@ethereumjs/common';
import { type Database, WriteBatch } from '../../storage/db.js';
import { toHex as hex } from '../../encoding/bytes.js';
import type { ChainFork, EvmChainOptions } from './chaintypes.js';
import type { StateEdits } from './edits.js';
import { stateAt } from './execution.js';
import { genesisHeader, genesisQuantity, writeGenesisAlloc } from './genesis.js';
import { encodeBlock, headerHash } from './header.js';
import type { NodeStore } from './nodes.js';
import { activatePrecompile } from './precompiles/config.js';
import { activeAt } from './precompiles/index.js';
import type { ChainStore, StoredBlock } from './store.js';

/** What a chain's first blocks are read from and written to. */
export interface ChainBase {
  readonly db: Database;
  readonly store: ChainStore;
  readonly nodes: NodeStore;
  readonly common: Common;
  readonly opts: EvmChainOptions;
  readonly edits: StateEdits;
}

/** The chain's head and genesis: read back on a restart, else written now. */
export async function initialBlocks(base: ChainBase): Promise<{ head: StoredBlock; genesis: StoredBlock }> {
  const headHash = await base.store.head();
  if (!headHash && base.opts.fork) return writeForkBase(base, base.opts.fork);
  if (!headHash) return writeGenesis(base);
  const head = await base.store.block(headHash);
  const genesis = await base.store.blockAt(0n);
  if (!head || !genesis) throw new Error(`the head block ${hex(headHash)} or the genesis block is missing from the database`);
  return { head, genesis };
}

/** A fresh chain: the genesis state and block, in one batch. */
async function writeGenesis({ db, store, nodes, common, opts }: ChainBase): Promise<{ head: StoredBlock; genesis: StoredBlock }> {
  const sm = stateAt(nodes, common, undefined, opts.flavor.multiCoin, { preimages: nodes.preimages });
  const genesisTime = genesisQuantity(opts.genesis.timestamp, 'timestamp');
  for (const p of opts.precompiles) if (activeAt(p, genesisTime)) await activatePrecompile(sm, p, 0n);
  await writeGenesisAlloc(sm, opts.genesis);
  const header = genesisHeader(opts.genesis, opts.flavor.layout, await sm.getStateRoot(), opts.genesisRules);
  const bytes = encodeBlock(header, []);
  const genesis: StoredBlock = { header, hash: headerHash(header), body: [], size: bytes.length };
  const batch = new WriteBatch();
  const settled = nodes.flushInto(batch);
  store.put(batch, genesis, bytes, [], []);
  await db.write(batch);
  settled();
  return { head: genesis, genesis };
}

/**
 * A fresh fork: its head is the upstream's fork block, which the store finds in the fork's history
 * (as every upstream block up to it), and its genesis the upstream's; the head's state edited as the
 * upstream's was, if it was.
 */
async function writeForkBase({ db, store, edits }: ChainBase, fork: ChainFork): Promise<{ head: StoredBlock; genesis: StoredBlock }> {
  const [base, genesis] = await Promise.all([store.blockAt(fork.number), store.blockAt(0n)]);
  if (!base || !genesis) throw new Error(`the fork's upstream has no block ${base ? 0 : fork.number}`);
  const batch = new WriteBatch();
  store.putHead(batch, base.hash);
  if (fork.editedRoot) edits.editedAt(batch, base, fork.editedRoot);
  await db.write(batch);
  return { head: base, genesis };
}

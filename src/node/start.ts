// Builds one node from its configuration: the store, the clock, the emulator's faults and journal
// and the HTTP server (the shell), and the core over them (core.ts: chains, health, APIs). The shell
// outlives the core: reverting, loading or resetting the node's state (--dev) closes the core, puts
// the store's content back, and builds the core again, as a restart would (slot.ts, states.ts).
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Profiler } from '../api/admin/profiler.js';
import { TravelClock } from '../chains/clock.js';
import { LOCAL_NODE } from '../chains/ids.js';
import { loadKeccak } from '../crypto/keccak.js';
import type { ChainManager } from '../chains/manager.js';
import { BlockStalls } from '../chains/stalls.js';
import { VmRegistry } from '../chains/vms.js';
import type { NodeConfig } from '../config/load.js';
import { IndexerShutdown } from '../indexer/indexer.js';
import { LogFactory } from '../logging/logger.js';
import { BodyBudget } from '../rpc/budget.js';
import { Faults } from '../rpc/faults.js';
import { Journal } from '../rpc/journal.js';
import { type Database, openDatabase } from '../storage/db.js';
import { writeFileAtomic } from '../storage/files.js';
import { ROOT_KEYS } from '../storage/keys.js';
import type { TestAccount, XChain } from '../vms/avm/index.js';
import { ChainForks, type EvmChain } from '../vms/evm/index.js';
import { listen } from './server.js';
import { formatAddrPort, type L1Info, type Shell, StartError } from './shell.js';
import { CoreSlot } from './slot.js';
import { nodeStates, stampStore } from './states.js';

export interface RunningNode {
  /** e.g. http://127.0.0.1:9650 */
  uri: string;
  config: NodeConfig;
  /** The funded test keys (--test-accounts). */
  testAccounts: TestAccount[];
  /** The chain manager: create chains at run time, look them up by ID or alias. */
  readonly chains: ChainManager;
  readonly xChain: XChain;
  readonly cChain: EvmChain;
  /** The L1s of --l1, in order. */
  readonly l1s: L1Info[];
  stop(): Promise<void>;
}

function checkPluginDir(config: NodeConfig): void {
  const dir = config.pluginDir;
  if (!existsSync(dir)) {
    if (config.explicit.has('plugin-dir')) throw new StartError(`plugin dir "${dir}" not found: stat ${dir}: no such file or directory`);
    mkdirSync(dir, { recursive: true, mode: 0o750 });
  } else if (!statSync(dir).isDirectory()) {
    throw new StartError(`plugin dir is not a directory: "${dir}"`);
  }
}

type Cleanups = Array<() => Promise<void> | void>;

/** The shell: what outlives rebuilds of the core. */
async function openShell(config: NodeConfig, logs: LogFactory, cleanups: Cleanups): Promise<Shell> {
  checkPluginDir(config);
  const vmAliases = await VmRegistry.readAliasesFile(config.vmAliasesFile);
  const vms = new VmRegistry(config.pluginDir, vmAliases);
  const loaded = await vms.reload();
  for (const [vmId, error] of Object.entries(loaded.failedVMs)) logs.get('vm-factory')!.error('failed to register VM', { vmID: vmId, error });
  const db: Database = await openDatabase(config.dbType, config.dbPath);
  cleanups.push(() => db.close());
  await stampStore(db, config);
  // The profiler watches event-loop delay from the start (for lock.profile): only when it can be asked for.
  const profiler = config.apiAdminEnabled ? new Profiler(config.profileDir) : undefined;
  // Go samples the heap from the start; so does the admin profiler, for admin.memoryProfile.
  profiler?.startSampling();
  if (profiler) cleanups.push(() => profiler.close());
  // The fork cache is a store of its own: a revert or a load of the node's state keeps what was fetched.
  const forkCache = join(config.dbDir, 'fork-cache');
  const forks = new ChainForks(
    config.fork,
    () => openDatabase(config.dbType, forkCache),
    () => config.dbType !== 'memdb' && existsSync(forkCache),
  );
  cleanups.push(() => forks.close());
  return {
    config,
    logs,
    main: logs.get('main')!,
    db,
    forks,
    vms,
    vmAliases,
    clock: new TravelClock(),
    // Emulator controls: injected API faults and the request journal, node-wide.
    faults: new Faults(),
    stalls: new BlockStalls(),
    journal: new Journal(),
    bodies: new BodyBudget(),
    startedAt: Date.now(),
    ...(profiler ? { profiler } : {}),
  };
}

export async function startNode(config: NodeConfig): Promise<RunningNode> {
  // The EVM chains' keccak is WebAssembly, compiled off this thread: begun now, it is ready by the
  // time the C-Chain is made (awaited there), instead of 5-9 ms of waiting then.
  void loadKeccak();
  const logs = new LogFactory({ logLevel: config.logLevel, displayLevel: config.logDisplayLevel }, config.logDir);
  const main = logs.make('main');
  logs.make('vm-factory');
  const cleanups: Cleanups = [
    async () => {
      main.info('finished node shutdown');
      await logs.close();
    },
  ];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn();
  };
  try {
    const shell = await openShell(config, logs, cleanups);
    const slot = new CoreSlot(shell);
    if (config.dev) shell.states = nodeStates(shell, slot);
    await slot.build();
    cleanups.push(() => slot.core?.close());
    const server = await listen(shell, slot);
    cleanups.push(() => server.close());
    const { uri } = server;
    if (config.processContextFile !== '') {
      const context = { pid: process.pid, uri, stakingAddress: formatAddrPort(config.stakingHost || '::', config.stakingPort) };
      await writeFileAtomic(config.processContextFile, JSON.stringify(context, null, 2));
      cleanups.push(() => rm(config.processContextFile, { force: true }));
    }
    main.info('node started', { uri, networkID: config.networkId, nodeID: LOCAL_NODE.nodeID });
    return running(shell, slot, uri, cleanup);
  } catch (err) {
    if (err instanceof IndexerShutdown) main.info('shutting down node', { exitCode: 0 });
    await cleanup();
    throw err;
  }
}

/** What a caller holds of a started node: always the current core's chains. */
function running(shell: Shell, slot: CoreSlot, uri: string, cleanup: () => Promise<void>): RunningNode {
  const { config, db, main } = shell;
  let stopping: Promise<void> | undefined;
  return {
    uri,
    config,
    testAccounts: slot.current().accounts,
    get chains() {
      return slot.current().manager;
    },
    get xChain() {
      return slot.current().xChain;
    },
    get cChain() {
      return slot.current().cChain;
    },
    get l1s() {
      return slot.current().l1s;
    },
    stop() {
      stopping ??= (async () => {
        while (slot.rebuilding) await slot.rebuilding;
        main.info('shutting down node', { exitCode: 0 });
        if (db.status === 'open') await db.del(ROOT_KEYS.ungracefulShutdown);
        await cleanup();
      })();
      return stopping;
    },
  };
}

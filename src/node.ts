// Builds one node from its configuration: the store, the clock, the emulator's faults and journal
// and the HTTP server (the shell, here), and the core over them (core.ts: chains, health, APIs).
// The shell outlives the core: reverting, loading or resetting the node's state (--dev) closes the
// core, puts the store's content back, and builds the core again, as a restart would, while the
// HTTP server holds new requests until the new core serves them.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { Profiler } from './api/admin/profiler.js';
import { TravelClock } from './chains/clock.js';
import type { ChainManager } from './chains/manager.js';
import { type NodeStates, rewind } from './chains/states.js';
import { BlockStalls } from './chains/stalls.js';
import { VmRegistry } from './chains/vms.js';
import type { NodeConfig } from './config/load.js';
import { buildCore, type Core, formatAddrPort, type L1Info, type Shell, StartError } from './core.js';
import { IndexerShutdown } from './indexer/indexer.js';
import { LOCAL_NODE } from './chains/ids.js';
import { LogFactory } from './logging/logger.js';
import { BodyBudget } from './rpc/budget.js';
import { Faults } from './rpc/faults.js';
import { Journal } from './rpc/journal.js';
import { createApp, createHttpServer, type RequestListener } from './server/app.js';
import { acceptWebsockets } from './server/websocket.js';
import type { TestAccount } from './vms/avm/testaccounts.js';
import type { XChain } from './vms/avm/vm.js';
import type { DevSettings, EvmChain } from './vms/evm/chain.js';
import type { EvmChainVM } from './vms/evm/factory.js';
import { openDatabase, type Database } from './storage/db.js';
import { writeFileAtomic } from './storage/files.js';
import { checkLayout, ROOT_KEYS } from './storage/keys.js';
import { decodeState, encodeState, type NodeState, StateError } from './storage/state.js';
import { spaceOfBytes } from './storage/undo.js';

export { StartError } from './core.js';

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

/** A fresh store gets the layout stamp and the running-node marker, as at start-up. */
async function stampStore(db: Database, config: NodeConfig): Promise<void> {
  await checkLayout(db, config.dataDir);
  await db.put(ROOT_KEYS.ungracefulShutdown, new Uint8Array());
}

export async function startNode(config: NodeConfig): Promise<RunningNode> {
  const startedAt = Date.now();
  const logs = new LogFactory({ logLevel: config.logLevel, displayLevel: config.logDisplayLevel }, config.logDir);
  const main = logs.make('main');
  logs.make('vm-factory');
  const cleanups: Array<() => Promise<void> | void> = [
    async () => {
      main.info('finished node shutdown');
      await logs.close();
    },
  ];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn();
  };

  try {
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
    const clock = new TravelClock();
    let core: Core | undefined;
    /** While the core is rebuilt: what new requests wait for. */
    let rebuilding: Promise<void> | undefined;
    const shell: Shell = {
      config,
      logs,
      main,
      db,
      vms,
      vmAliases,
      clock,
      // Emulator controls: injected API faults and the request journal, node-wide.
      faults: new Faults(),
      stalls: new BlockStalls(),
      journal: new Journal(),
      bodies: new BodyBudget(),
      startedAt,
      ...(profiler ? { profiler } : {}),
    };
    const sockets = { endCurrent: (): (() => void) => () => {} };
    if (config.dev) shell.states = nodeStates();
    core = await buildCore(shell);
    cleanups.push(() => core?.close());

    /** Runs `fn` while new requests wait (and after any change under way): the node's state changes under them. */
    async function exclusive<T>(fn: () => Promise<T>): Promise<T> {
      while (rebuilding) await rebuilding;
      let done!: () => void;
      rebuilding = new Promise<void>((resolve) => {
        done = resolve;
      });
      try {
        return await fn();
      } finally {
        rebuilding = undefined;
        done();
      }
    }

    /**
     * Closes the core, lets `change` rewrite the store, and builds the core again on what it left
     * (within `exclusive`). The EVM chains' dev settings (automine, interval mining, impersonation,
     * ...) carry over, as Anvil's outlive its reverts, unless `fresh` (a reset).
     */
    async function rebuild(change: () => Promise<void>, fresh = false): Promise<void> {
      const old = core!;
      const healthFaults = old.health.activeFaults();
      const dev = new Map<string, DevSettings>();
      for (const c of old.manager.chains()) if (!fresh && 'evm' in c.vm) dev.set(c.id, (c.vm as EvmChainVM).evm.devSettings());
      // What to go back to if the changed store cannot be built on (a foreign dump, say).
      const before = await db.everything();
      const offset = clock.offsetNs;
      core = undefined;
      // The old core's websocket clients are ended once this rebuild has answered (its own caller may be one).
      const endSockets = sockets.endCurrent();
      await old.close();
      try {
        await change();
        core = await buildCore({ ...shell, healthFaults });
      } catch (err) {
        main.error('the node could not be rebuilt on the changed state; it goes back to the state before', { error: (err as Error).message });
        await db.replaceEverything(before);
        clock.offsetNs = offset;
        core = await buildCore({ ...shell, healthFaults });
        throw err;
      } finally {
        setTimeout(endSockets, 100).unref();
      }
      for (const c of core.manager.chains()) {
        const settings = dev.get(c.id);
        if (settings && 'evm' in c.vm) (c.vm as EvmChainVM).evm.applyDevSettings(settings);
      }
    }

    /**
     * Snapshots are marks in the store's undo log (storage/undo.ts), with the node clock's offset:
     * taking one costs nothing, and going back writes what changed since and has the parts that read
     * it reload (chains/states.ts rewind); only a change a part cannot follow rebuilds the core.
     */
    function nodeStates(): NodeStates {
      const offsets = new Map<bigint, bigint>();
      let nextId = 0n;
      const neutral = new Set(Object.values(ROOT_KEYS).map(spaceOfBytes));
      const capture = async (): Promise<NodeState> => ({ networkId: config.networkId, clockOffsetNs: clock.offsetNs, entries: await db.everything() });
      const forgetSnapshots = async () => {
        offsets.clear();
        await db.undo.clear();
      };
      return {
        async snapshot() {
          while (rebuilding) await rebuilding;
          // Followers behind the head index what they owe first: a revert would otherwise undo it each time.
          for (const part of core!.rewindables()) await part.settle?.();
          while (rebuilding) await rebuilding;
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
          return exclusive(async () => {
            const offset = offsets.get(id);
            if (offset === undefined) return false;
            // One-shot, as Anvil's: this snapshot and every later one are used up.
            for (const k of [...offsets.keys()]) if (k >= id) offsets.delete(k);
            main.info('reverting the node to a snapshot', { id: String(id) });
            const { outcome, release } = await rewind(db.undo, id, core!.rewindables(), neutral);
            try {
              if (outcome === 'unknown') return false;
              clock.offsetNs = offset;
              if (outcome === 'rebuild') await rebuild(async () => {});
              // As after a rebuild, the websocket clients connected before the revert are told 1012 (their
              // subscriptions followed blocks that are gone), once the revert has answered.
              else setTimeout(sockets.endCurrent(), 100).unref();
            } finally {
              release();
            }
            return true;
          });
        },
        async dump() {
          while (rebuilding) await rebuilding;
          return encodeState(await capture());
        },
        async load(bytes) {
          const state = decodeState(bytes);
          if (state.networkId !== config.networkId)
            throw new StateError(`the state is of network ${state.networkId}, this node runs network ${config.networkId}`);
          main.info('loading a dumped state', { entries: state.entries.length });
          try {
            // Snapshots outlive a load, as Anvil's: the undo log records the replaced store (within its bounds).
            await exclusive(() =>
              rebuild(async () => {
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
          await exclusive(async () => {
            await forgetSnapshots();
            await rebuild(async () => {
              await db.replaceEverything([]);
              await stampStore(db, config);
              clock.offsetNs = 0n;
            }, true);
          });
        },
      };
    }

    const app = createApp({
      nodeId: LOCAL_NODE.nodeID,
      allowedOrigins: config.httpAllowedOrigins,
      allowedHosts: config.httpAllowedHosts,
      router: { match: (path) => core?.router.match(path), matchMount: (path) => core?.router.matchMount(path) },
      // The journal serves the emulator's controls and the Data API's usage metrics and request logs.
      ...(config.apiEmulatorEnabled || config.apiDataEnabled ? { journal: shell.journal, nowNs: () => clock.nowNs() } : {}),
      ...(config.apiEmulatorEnabled ? { faults: shell.faults } : {}),
    });
    const listener: RequestListener = (req, res) => {
      if (rebuilding) void rebuilding.then(() => listener(req, res));
      else app(req, res);
    };
    const server = createHttpServer(listener);
    const ws = acceptWebsockets(server, { match: (path) => core?.router.match(path) }, config.httpAllowedHosts, () => rebuilding);
    // A rebuilt core has new chains: subscriptions to the old ones end, as a restart ends them.
    sockets.endCurrent = () => ws.endCurrent();
    await new Promise<void>((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => {
        const addr = formatAddrPort(config.httpHost || '::', config.httpPort);
        reject(
          new StartError(
            `failed to initialize node: couldn't initialize API server: listen tcp ${addr}: ${err.code === 'EADDRINUSE' ? 'bind: address already in use' : err.message}`,
          ),
        );
      };
      server.once('error', onError);
      server.listen({ port: config.httpPort, host: config.httpHost === '' ? undefined : config.httpHost }, () => {
        server.off('error', onError);
        resolve();
      });
    });
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
          ws.close();
        }),
    );
    const address = server.address() as AddressInfo;
    const uri = `http://${formatAddrPort(address.address, address.port)}`;

    if (config.processContextFile !== '') {
      const context = { pid: process.pid, uri, stakingAddress: formatAddrPort(config.stakingHost || '::', config.stakingPort) };
      await writeFileAtomic(config.processContextFile, JSON.stringify(context, null, 2));
      cleanups.push(() => rm(config.processContextFile, { force: true }));
    }
    main.info('node started', { uri, networkID: config.networkId, nodeID: LOCAL_NODE.nodeID });

    const current = () => {
      if (!core) throw new StartError('the node is being rebuilt');
      return core;
    };
    let stopping: Promise<void> | undefined;
    return {
      uri,
      config,
      testAccounts: current().accounts,
      get chains() {
        return current().manager;
      },
      get xChain() {
        return current().xChain;
      },
      get cChain() {
        return current().cChain;
      },
      get l1s() {
        return current().l1s;
      },
      stop() {
        stopping ??= (async () => {
          while (rebuilding) await rebuilding;
          main.info('shutting down node', { exitCode: 0 });
          if (db.status === 'open') await db.del(ROOT_KEYS.ungracefulShutdown);
          await cleanup();
        })();
        return stopping;
      },
    };
  } catch (err) {
    if (err instanceof IndexerShutdown) main.info('shutting down node', { exitCode: 0 });
    await cleanup();
    throw err;
  }
}

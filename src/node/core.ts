// The node's core: its chains, health and APIs over an open store, built in the order avalanchego
// initializes them, and closed again in reverse. The shell (start.ts) owns the store, the clock, the
// faults, the journal and the HTTP server; it builds the core at start-up and builds it again, from
// the store's restored contents, when the node's state is reverted, loaded or reset.
import { AcceptedStream } from '../chains/acceptance.js';
import { Aliaser } from '../chains/aliases.js';
import { ChainManager, isPrimaryNetwork } from '../chains/manager.js';
import { SharedMemory } from '../chains/sharedmemory.js';
import { indexService } from '../api/index/service.js';
import { proposervmService } from '../api/proposervm/service.js';
import { registerNodeChecks } from '../health/checks.js';
import { Health } from '../health/health.js';
import { Indexer } from '../indexer/indexer.js';
import { Router } from '../server/router.js';
import { indexDatabase, sharedMemoryDatabase } from '../storage/keys.js';
import { placeCreate2Deployer } from '../vms/evm/index.js';
import { fundAccounts } from './accounts.js';
import { createPrimaryChains, registerVMs, SubnetChains } from './chains.js';
import { mountDataApi } from './data.js';
import { endpoints } from './endpoints.js';
import { readChainAliases } from './files.js';
import { NodeIcm } from './icm.js';
import { createSubnetChains } from './l1s.js';
import { addNodeRoutes } from './routes.js';
import type { Core, Shell } from './shell.js';
import { NodeVMs } from './vms.js';

export async function buildCore(shell: Shell): Promise<Core> {
  const { config, db, main, clock } = shell;
  const cleanups: Array<() => Promise<void> | void> = [];
  const cleanup = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn();
  };
  try {
    const health = new Health(Number(config.healthCheckFrequencyNs / 1_000_000n) || 1);
    registerNodeChecks(health, { db, dbPath: config.dbPath, startedAt: shell.startedAt });
    const router = new Router((url, endpoint) => main.info('adding route', { url, endpoint }));
    const serve = endpoints(shell);
    const chainAliases = new Aliaser();
    const stream = new AcceptedStream();
    const indexer = await Indexer.open(indexDatabase(db), { enabled: config.indexEnabled, allowIncomplete: config.indexAllowIncomplete }, main, clock);
    stream.acceptors.push(indexer);
    const { logs, stalls } = shell;
    const shared = new SharedMemory(sharedMemoryDatabase(db));
    const manager = new ChainManager({
      networkID: config.networkId,
      root: db,
      shared,
      aliases: chainAliases,
      clock,
      logs,
      routes: router,
      health,
      stream,
      stalls,
    });
    const vms = new NodeVMs();
    const data = config.apiDataEnabled ? mountDataApi(shell, router, stream, manager, vms) : undefined;
    // As avalanchego's indexer, only the primary network's chains are indexed.
    manager.onCreate(async (chain) => {
      if (!isPrimaryNetwork(chain.subnetID)) return;
      for (const index of await indexer.registerChain(chain)) router.addRoute(serve.rpc([indexService(index)]), `index/${chain.alias}`, `/${index.kind}`);
    });
    // proposervm's API for every chain under it, as avalanchego's proposervm adds it to the VM's handlers.
    manager.onCreate(async (chain) => {
      if (chain.proposer) router.addRoute(serve.rpc([proposervmService(chain.proposer)]), `bc/${chain.id}`, '/proposervm');
    });
    const extraAliases = await readChainAliases(config.chainAliasesFile);
    const subnets = new SubnetChains(shell, manager, extraAliases);
    registerVMs(shell, manager, vms, serve, subnets);
    cleanups.push(() => manager.close());
    const icm = config.icm ? new NodeIcm(shell, health, (name) => manager.get(name)?.id) : undefined;
    // Closed before the chains: it may be delivering to one.
    if (icm) cleanups.push(() => icm.close());
    // Closed before the chains: a follower may be reading one.
    if (data) cleanups.push(() => data.close());
    addNodeRoutes({ shell, router, rpc: serve.rpc, health, chainAliases, manager, vms, icm });

    await createPrimaryChains(shell, manager, extraAliases);
    const l1s = await createSubnetChains(shell, manager, vms, subnets);
    const cChain = vms.cChain.evm;
    // Before the test accounts' block: that block's state root then carries ICM's placement, so the
    // head has no pending edit (a fork of this node at its head reads state by the header's root).
    if (icm) {
      for (const { id, evm } of vms.evmChains()) await icm.add(id, evm);
      // A chain a CreateChainTx makes gets ICM once it runs.
      subnets.onCreated((id) => {
        const vm = vms.evmChain(id);
        return vm ? icm.add(id, vm.evm, true) : Promise.resolve();
      });
    }
    // With --dev, Anvil's CREATE2 deployer on every chain, before the test accounts' block for the same reason.
    if (config.dev) {
      for (const { evm } of vms.evmChains()) await placeCreate2Deployer(evm);
      subnets.onCreated(async (id) => {
        const vm = vms.evmChain(id);
        if (vm) await placeCreate2Deployer(vm.evm);
      });
    }
    const l1Chains = vms
      .evmChains()
      .map((c) => c.evm)
      .filter((evm) => evm !== cChain);
    const accounts = await fundAccounts(config.testAccounts, vms.xChain, cChain, l1Chains);

    for (const [name, message] of Object.entries(shell.healthFaults ?? {})) if (health.knows(name)) await health.injectFault(name, message);
    await health.start();
    cleanups.push(() => health.stop());
    return {
      router,
      health,
      manager,
      xChain: vms.xChain,
      cChain,
      accounts,
      l1s,
      evmChains: () => vms.evmChains(),
      // The relayer first: held after the chains, a delivery it is sending would wait on a held chain, and the revert on it.
      rewindables: () => [...(icm ? [icm.rewindable()] : []), ...manager.rewindables(), indexer.rewindable(), ...(data ? [data.rewindable()] : [])],
      close: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

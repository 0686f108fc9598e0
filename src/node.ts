// Builds one node from its configuration: storage, chains, health, the APIs and the HTTP server,
// in the order avalanchego initializes them, and takes it down again in reverse.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { adminService } from './api/admin/service.js';
import { nodeConfigJson } from './api/admin/config.js';
import { Profiler } from './api/admin/profiler.js';
import { emulatorService } from './api/emulator/service.js';
import { healthReportHandler, healthService } from './api/health/service.js';
import { infoService } from './api/info/service.js';
import { metricsHandler } from './api/metrics/handler.js';
import { avmService, walletService } from './api/avm/service.js';
import { platformService } from './api/platform/service.js';
import { LOCAL_NODE } from './chains/ids.js';
import { localGenesisStartTime } from './chains/genesis.js';
import { ChainRegistry } from './chains/registry.js';
import { SharedMemory } from './chains/sharedmemory.js';
import { XChain } from './chains/x/vm.js';
import { ProposerVM } from './chains/proposervm.js';
import { BlockAcceptor, Indexer, IndexerShutdown } from './indexer/indexer.js';
import { indexService } from './api/index/service.js';
import { EWOQ_ADDRESS, fundingTx, testAccounts, type TestAccount } from './chains/x/testaccounts.js';
import { encodeCB58 } from './encoding/cb58.js';
import { VmRegistry } from './chains/vms.js';
import type { NodeConfig } from './config/load.js';
import { Health } from './health/health.js';
import { registerChainCheck, registerNodeChecks } from './health/checks.js';
import { LogFactory } from './logging/logger.js';
import { createApp, createHttpServer } from './server/app.js';
import { gorillaDialect } from './server/jsonrpc/gorilla.js';
import { jsonRpcEndpoint } from './server/jsonrpc/endpoint.js';
import { BodyBudget } from './server/jsonrpc/budget.js';
import { withCallLog } from './api/rpc.js';
import { Router } from './server/router.js';
import { openDatabase, type Database } from './storage/db.js';
import { writeFileAtomic } from './storage/files.js';

/** Local network fees (genesis LocalParams; --tx-fee and --create-asset-tx-fee are not exposed yet). */
const TX_FEE = 1_000_000n;
const CREATE_ASSET_TX_FEE = 1_000_000n;
const UNGRACEFUL_SHUTDOWN_KEY = new TextEncoder().encode('ungracefulShutdown');

export class StartError extends Error {}

export interface RunningNode {
  /** e.g. http://127.0.0.1:9650 */
  uri: string;
  config: NodeConfig;
  /** The funded test keys (--test-accounts). */
  testAccounts: TestAccount[];
  xChain: XChain;
  stop(): Promise<void>;
}

function formatAddrPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
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

export async function startNode(config: NodeConfig): Promise<RunningNode> {
  const startedAt = Date.now();
  const logs = new LogFactory({ logLevel: config.logLevel, displayLevel: config.logDisplayLevel }, config.logDir);
  const main = logs.make('main');
  logs.make('vm-factory');
  const cleanups: Array<() => Promise<void> | void> = [async () => { main.info('finished node shutdown'); await logs.close(); }];
  const cleanup = async () => { for (const fn of cleanups.reverse()) await fn(); };

  try {
    checkPluginDir(config);
    const vmAliases = await VmRegistry.readAliasesFile(config.vmAliasesFile);
    const vms = new VmRegistry(config.pluginDir, vmAliases);
    const loaded = await vms.reload();
    for (const [vmId, error] of Object.entries(loaded.failedVMs)) logs.get('vm-factory')!.error('failed to register VM', { vmID: vmId, error });

    const db: Database = await openDatabase(config.dbType, config.dbPath);
    cleanups.push(() => db.close());
    await db.put(UNGRACEFUL_SHUTDOWN_KEY, new Uint8Array());

    const chains = new ChainRegistry(config.networkId);
    for (const chain of chains.chains) logs.make(chain.alias);

    const indexer = await Indexer.open(db, { enabled: config.indexEnabled, allowIncomplete: config.indexAllowIncomplete }, chains.chains, main);
    const shared = new SharedMemory(db);
    const xInfo = chains.get('X');
    const peerChains = new Map(chains.chains.filter((c) => c.alias !== 'X').map((c) => [Buffer.from(c.idBytes).toString('hex'), 'primary' as const]));
    const xParams = { networkID: config.networkId, chainID: xInfo.idBytes, avaxAssetID: new Uint8Array(32) as Uint8Array, txFee: TX_FEE, createAssetTxFee: CREATE_ASSET_TX_FEE, peerChains };
    const xChain = await XChain.open(db, shared, { params: xParams, blockIntervalMs: Number(config.xBlockIntervalNs / 1_000_000n) });
    xParams.avaxAssetID = xChain.avaxAssetID;
    cleanups.push(() => xChain.close());
    const xProposer = new ProposerVM(db, xInfo.idBytes, xChain.genesisBlock.id);
    await xProposer.load();
    xChain.addAcceptor(new BlockAcceptor(xProposer, indexer.get('X', 'block')));
    xInfo.status = { lastAccepted: () => { const l = xChain.lastAccepted(); return { height: l.height, id: encodeCB58(l.id) }; }, processing: () => xChain.processing() };
    xChain.on('buildFailed', (err) => logs.get('X')!.error('failed to accept block', { error: err.message }));
    const accounts = testAccounts(config.testAccounts);
    if (accounts.length > 0 && xChain.freshGenesis) {
      const [source] = (await xChain.state.utxoIDs(EWOQ_ADDRESS, undefined, 1));
      const utxo = source && (await xChain.state.getUTXO(source));
      if (!utxo) throw new StartError('the ewoq genesis UTXO is not available to fund the test accounts');
      await xChain.issueTx(fundingTx({ ...xParams, avaxAssetID: xChain.avaxAssetID }, utxo, accounts).bytes);
      await xChain.buildAll();
    }

    const health = new Health(Number(config.healthCheckFrequencyNs / 1_000_000n) || 1);
    registerNodeChecks(health, { db, dbPath: config.dbPath, startedAt });
    for (const chain of chains.chains) if (chain.status) registerChainCheck(health, chain.alias, chain.status);

    const router = new Router((url, endpoint) => main.info('adding route', { url, endpoint }));
    const bodies = new BodyBudget();
    const rpc = (services: Parameters<typeof jsonRpcEndpoint>[1]) =>
      jsonRpcEndpoint(gorillaDialect, services.map((s) => withCallLog(s, (msg, fields) => main.debug(msg, fields))), { budget: bodies });
    if (config.apiAdminEnabled) {
      // The profiler watches event-loop delay from the start (for lock.profile): only when it can be asked for.
      const profiler = new Profiler(config.profileDir);
      cleanups.push(() => profiler.close());
      router.addRoute(rpc([adminService({
        routes: router, chainAliases: chains.aliaser, logs, vms, profiler, db,
        config: () => nodeConfigJson(config, encodeCB58(xChain.avaxAssetID), TX_FEE, CREATE_ASSET_TX_FEE, Object.keys(vmAliases).length > 0 ? vmAliases : null),
      })]), 'admin');
    }
    if (config.apiInfoEnabled) {
      router.addRoute(rpc([infoService({
        networkId: config.networkId, networkName: config.networkName, chains, vms,
        stakingAddress: () => formatAddrPort(String(config.flags['public-ip'] || '127.0.0.1'), config.stakingPort),
        txFee: TX_FEE, createAssetTxFee: CREATE_ASSET_TX_FEE,
      })]), 'info');
    }
    if (config.apiHealthEnabled) {
      const healthRpc = rpc([healthService(health)]);
      const report = healthReportHandler(health, 'health');
      router.addRoute((req, res) => (req.method === 'GET' ? report(req, res) : healthRpc(req, res)), 'health');
      router.addRoute(healthReportHandler(health, 'readiness'), 'health', '/readiness');
      router.addRoute(report, 'health', '/health');
      router.addRoute(healthReportHandler(health, 'liveness'), 'health', '/liveness');
    }
    if (config.apiMetricsEnabled) router.addRoute(metricsHandler(health, startedAt), 'metrics');
    const avmDeps = {
      vm: xChain, hrp: config.hrp, chainId: xInfo.id, chainAliases: chains.aliaser, shared,
      txFee: TX_FEE, createAssetTxFee: CREATE_ASSET_TX_FEE, now: () => BigInt(Math.floor(Date.now() / 1000)),
    };
    router.addRoute(rpc([avmService(avmDeps)]), `bc/${xInfo.id}`);
    router.addRoute(rpc([walletService(avmDeps)]), `bc/${xInfo.id}`, '/wallet');
    router.addRoute(rpc([platformService(localGenesisStartTime())]), `bc/${chains.get('P').id}`);
    if (config.apiEmulatorEnabled) router.addRoute(rpc([emulatorService(health)]), 'emulator');
    for (const [name, index] of indexer.indexes) {
      const [alias, kind] = name.split('/');
      router.addRoute(rpc([indexService(index)]), `index/${alias}`, `/${kind}`);
    }
    // Genesis API aliases come before the chains register their routes, which they then inherit.
    for (const chain of chains.chains) {
      const [primary, vmAlias] = chains.aliaser.aliases(chain.id)!;
      router.addAliases(`bc/${chain.id}`, primary!, vmAlias!, `bc/${primary}`, `bc/${vmAlias}`);
    }

    await health.start();
    cleanups.push(() => health.stop());

    const app = createApp({ nodeId: LOCAL_NODE.nodeID, allowedOrigins: config.httpAllowedOrigins, allowedHosts: config.httpAllowedHosts, router });
    const server = createHttpServer(app);
    await new Promise<void>((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => {
        const addr = formatAddrPort(config.httpHost || '::', config.httpPort);
        reject(new StartError(`failed to initialize node: couldn't initialize API server: listen tcp ${addr}: ${err.code === 'EADDRINUSE' ? 'bind: address already in use' : err.message}`));
      };
      server.once('error', onError);
      server.listen({ port: config.httpPort, host: config.httpHost === '' ? undefined : config.httpHost }, () => {
        server.off('error', onError);
        resolve();
      });
    });
    cleanups.push(() => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
    const address = server.address() as AddressInfo;
    const uri = `http://${formatAddrPort(address.address, address.port)}`;

    if (config.processContextFile !== '') {
      const context = { pid: process.pid, uri, stakingAddress: formatAddrPort(config.stakingHost || '::', config.stakingPort) };
      await writeFileAtomic(config.processContextFile, JSON.stringify(context, null, 2));
      cleanups.push(() => rm(config.processContextFile, { force: true }));
    }
    main.info('node started', { uri, networkID: config.networkId, nodeID: LOCAL_NODE.nodeID });

    let stopping: Promise<void> | undefined;
    return {
      uri,
      config,
      testAccounts: accounts,
      xChain,
      stop() {
        stopping ??= (async () => {
          main.info('shutting down node', { exitCode: 0 });
          if (db.status === 'open') await db.del(UNGRACEFUL_SHUTDOWN_KEY);
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

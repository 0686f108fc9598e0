// The node's core: its chains, health and APIs over an open store, built in the order avalanchego
// initializes them, and closed again in reverse. The shell (node.ts) owns the store, the clock, the
// faults, the journal and the HTTP server; it builds the core at start-up and builds it again, from
// the store's restored contents, when the node's state is reverted, loaded or reset.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { adminService } from './api/admin/service.js';
import { nodeConfigJson } from './api/admin/config.js';
import { Profiler } from './api/admin/profiler.js';
import { emulatorService } from './api/emulator/service.js';
import { healthReportHandler, healthService } from './api/health/service.js';
import { indexService } from './api/index/service.js';
import { proposervmService } from './api/proposervm/service.js';
import { infoService } from './api/info/service.js';
import { metricsHandler } from './api/metrics/handler.js';
import { platformFactory, type PlatformChainVM } from './vms/platform/factory.js';
import type { CreatedChain } from './vms/platform/execute/index.js';
import { signingMethods } from './vms/platform/api/signing.js';
import { nodeIDBytes } from './genesis/platform.js';
import { type ServiceDef, withCallLog } from './rpc/method.js';
import { AcceptedStream } from './chains/acceptance.js';
import { Aliaser } from './chains/aliases.js';
import type { TravelClock } from './chains/clock.js';
import { clockMethods } from './api/emulator/clock.js';
import { stateMethods } from './api/emulator/state.js';
import type { NodeStates, Rewindable } from './chains/states.js';
import { faultMethods } from './api/emulator/faults.js';
import { type Faults, withFaults } from './rpc/faults.js';
import type { BlockStalls } from './chains/stalls.js';
import type { Journal } from './rpc/journal.js';
import { primaryNetworkChains } from './genesis/primary.js';
import { LOCAL_NODE, VM_IDS } from './chains/ids.js';
import { ChainManager, isPrimaryNetwork } from './chains/manager.js';
import { SharedMemory } from './chains/sharedmemory.js';
import type { VmRegistry } from './chains/vms.js';
import { avmFactory, type AvmChain } from './vms/avm/factory.js';
import { EWOQ_ADDRESS, EWOQ_PRIVATE_KEY, fundingTx, testAccounts, type TestAccount } from './vms/avm/testaccounts.js';
import type { EvmChain } from './vms/evm/chain.js';
import { evmFactory, type EvmChainVM, l1ValidatorsFromConfig, type SubnetMember } from './vms/evm/factory.js';
import { subnetMembers } from './vms/platform/validators.js';
import { fundTestAccounts } from './vms/evm/testaccounts.js';
import { convertValidator, convertValidatorWithKey, L1_NODE_WEIGHT, type L1Definition, L1Error, readL1, VALIDATOR_MANAGER_ADDRESS } from './genesis/l1.js';
import { PWallet } from './vms/platform/wallet.js';
import { gethDialect } from './rpc/geth.js';
import { jsonRpcSocket } from './rpc/socket.js';
import type { XChain } from './vms/avm/vm.js';
import type { NodeConfig } from './config/load.js';
import { decodeCB58, encodeCB58 } from './encoding/cb58.js';
import { registerNodeChecks } from './health/checks.js';
import { Health } from './health/health.js';
import { Indexer, type IndexedChain } from './indexer/indexer.js';
import type { LogFactory, Logger } from './logging/logger.js';
import type { BodyBudget } from './rpc/budget.js';
import { jsonRpcEndpoint } from './rpc/endpoint.js';
import { gorillaDialect } from './rpc/gorilla.js';
import { Router } from './server/router.js';
import { DataApi } from './data/service.js';
import type { Database } from './storage/db.js';
import { indexDatabase, sharedMemoryDatabase } from './storage/keys.js';

const hexBytes = (h: string) => new Uint8Array(Buffer.from(h.replace(/^0x/, ''), 'hex'));

/** Local network fees (genesis LocalParams; --tx-fee and --create-asset-tx-fee are not exposed yet). */
const TX_FEE = 1_000_000n;
const CREATE_ASSET_TX_FEE = 1_000_000n;

export class StartError extends Error {}

/** An L1 of --l1, as the node reports it. */
export interface L1Info {
  name: string;
  blockchainID: string;
  subnetID: string;
  evmChainId: bigint;
}

export function formatAddrPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** avalanchego's --chain-aliases-file: a JSON map of blockchain ID to aliases; no file, no aliases. */
async function readChainAliases(path: string): Promise<Record<string, string[]>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new StartError(`couldn't read chain aliases file: ${(err as Error).message}`);
  }
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    Array.isArray(parsed) ||
    !Object.values(parsed).every((v) => Array.isArray(v) && v.every((a) => typeof a === 'string'))
  ) {
    throw new StartError("couldn't read chain aliases file: json: cannot unmarshal into Go value of type map[ids.ID][]string");
  }
  return parsed as Record<string, string[]>;
}

/** A chain's config.json or upgrade.json in --chain-config-dir, under its ID or else an alias, as avalanchego looks. */
async function readChainFile(dir: string, names: string[], file: 'config.json' | 'upgrade.json'): Promise<Uint8Array | undefined> {
  for (const name of names) {
    try {
      return new Uint8Array(await readFile(join(dir, name, file)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'ENOTDIR') throw err;
    }
  }
  return undefined;
}

export interface Shell {
  config: NodeConfig;
  logs: LogFactory;
  main: Logger;
  db: Database;
  vms: VmRegistry;
  vmAliases: Record<string, string[]>;
  clock: TravelClock;
  faults: Faults;
  stalls: BlockStalls;
  journal: Journal;
  bodies: BodyBudget;
  startedAt: number;
  profiler?: Profiler;
  /** Whole-node snapshots (--dev): served at /ext/emulator and by the EVM chains' evm_snapshot. */
  states?: NodeStates;
  /** Health faults injected before a rebuild, kept by the new core. */
  healthFaults?: Record<string, string>;
}

export interface Core {
  router: Router;
  health: Health;
  manager: ChainManager;
  xChain: XChain;
  cChain: EvmChain;
  accounts: TestAccount[];
  l1s: L1Info[];
  /** What follows the store back to a snapshot in place (evm_revert without a rebuild). */
  rewindables(): Rewindable[];
  close(): Promise<void>;
}

export async function buildCore(shell: Shell): Promise<Core> {
  const { config, db, logs, main, vms, vmAliases, clock, faults, stalls, journal, bodies, startedAt } = shell;
  const cleanups: Array<() => Promise<void> | void> = [];
  const cleanup = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn();
  };
  try {
    const health = new Health(Number(config.healthCheckFrequencyNs / 1_000_000n) || 1);
    registerNodeChecks(health, { db, dbPath: config.dbPath, startedAt });

    const router = new Router((url, endpoint) => main.info('adding route', { url, endpoint }));
    const rpc = (services: ServiceDef[]) =>
      jsonRpcEndpoint(
        gorillaDialect,
        services.map((s) =>
          withFaults(
            withCallLog(s, (msg, fields) => main.debug(msg, fields)),
            faults,
            '.',
          ),
        ),
        { budget: bodies },
      );
    const serve = (services: ServiceDef[]) => ({ http: rpc(services) });

    const chainAliases = new Aliaser();
    const stream = new AcceptedStream();
    const indexer = await Indexer.open(indexDatabase(db), { enabled: config.indexEnabled, allowIncomplete: config.indexAllowIncomplete }, main, clock);
    stream.acceptors.push(indexer);
    const manager = new ChainManager({
      networkID: config.networkId,
      root: db,
      shared: new SharedMemory(sharedMemoryDatabase(db)),
      aliases: chainAliases,
      clock,
      logs,
      routes: router,
      health,
      stream,
      stalls,
    });
    // The Data API follows every EVM chain from its creation (and backfills one it never saw).
    let data: DataApi | undefined;
    if (config.apiDataEnabled) {
      data = new DataApi({
        db: db.prefix('data'),
        stream,
        log: main,
        primary: () => ({
          pChain: (manager.get('P')!.vm as PlatformChainVM).pChain,
          xChain: (manager.get('X')!.vm as AvmChain).xChain,
          cChain: (manager.get('C')!.vm as EvmChainVM).evm,
          xID: manager.get('X')!.id,
          cID: manager.get('C')!.id,
          hrp: config.hrp,
        }),
        journal,
        networkID: config.networkId,
        evmChain: (id) => {
          const c = manager.get(id);
          return c && 'evm' in c.vm ? { vm: c.vm as EvmChainVM, subnetID: encodeCB58(c.subnetID) } : undefined;
        },
      });
      // The Data API (/v1) and the Metrics API (/v2, and /v1/avg_tps) share one handler.
      const mount = data.mount();
      router.mount('/v1', mount);
      router.mount('/v2', mount);
      manager.onCreate(async (chain) => {
        const vm = chain.vm as Partial<EvmChainVM>;
        if (vm.evm) data?.addEvmChain({ blockchainID: chain.id, subnetID: encodeCB58(chain.subnetID), vmID: chain.vmID, alias: chain.alias, evm: vm.evm });
      });
    }
    // As avalanchego's indexer, only the primary network's chains are indexed.
    const indexChain = async (chain: IndexedChain) => {
      for (const index of await indexer.registerChain(chain)) router.addRoute(rpc([indexService(index)]), `index/${chain.alias}`, `/${index.kind}`);
    };
    manager.onCreate((chain) => (isPrimaryNetwork(chain.subnetID) ? indexChain(chain) : Promise.resolve()));
    // proposervm's API for every chain under it, as avalanchego's proposervm adds it to the VM's handlers.
    manager.onCreate(async (chain) => {
      if (chain.proposer) router.addRoute(rpc([proposervmService(chain.proposer)]), `bc/${chain.id}`, '/proposervm');
    });
    // Chains created by CreateChainTxs on the P-Chain, each with its config files and extra aliases.
    const extraAliases = await readChainAliases(config.chainAliasesFile);
    /** Aliases of the chains of --l1, by hex chain ID (their file names). */
    const startupAliases = new Map<string, string[]>();
    /** Hex IDs of the --l1 chains being created: these must start, or the node does not. */
    /** The --l1 file each such chain comes from, by hex chain ID: its errors name the flag. */
    const strictChains = new Map<string, string>();
    const createSubnetChain = async (c: CreatedChain, strict?: string) => {
      const id = encodeCB58(c.chainID);
      if (manager.get(id)) return;
      const aliases = [...(startupAliases.get(Buffer.from(c.chainID).toString('hex')) ?? []), ...(extraAliases[id] ?? [])];
      try {
        await manager.createChain({
          subnetID: c.subnetID,
          chainID: c.chainID,
          vmID: encodeCB58(c.vmID),
          genesis: c.genesis,
          aliases,
          config: await readChainFile(config.chainConfigDir, [id, ...aliases], 'config.json'),
          upgrade: await readChainFile(config.chainConfigDir, [id, ...aliases], 'upgrade.json'),
        });
      } catch (err) {
        // A chain of --l1 must start; for others, as avalanchego's chain manager: logged, the node goes on.
        if (strict) throw (err as Error).message.startsWith('--l1=') ? err : new L1Error(`--l1=${strict}: ${(err as Error).message}`);
        main.error('error creating chain', {
          subnetID: encodeCB58(c.subnetID),
          chainID: id,
          chainAlias: id,
          vmID: encodeCB58(c.vmID),
          error: (err as Error).message,
        });
      }
    };
    let pChainReady = false;
    const pendingChains: CreatedChain[] = [];
    manager.registerVM(
      VM_IDS.platform,
      platformFactory({
        hrp: config.hrp,
        nodeID: Buffer.from(nodeIDBytes(LOCAL_NODE.nodeID)).toString('hex'),
        startedAt: BigInt(Math.floor(startedAt / 1000)),
        serve,
        runsChain: (idOrAlias) => manager.get(idOrAlias)?.id,
        onChainCreated: async (c) => {
          if (pChainReady) await createSubnetChain(c, strictChains.get(Buffer.from(c.chainID).toString('hex')));
          else pendingChains.push(c);
        },
      }),
    );
    const avm = avmFactory({
      hrp: config.hrp,
      txFee: TX_FEE,
      createAssetTxFee: CREATE_ASSET_TX_FEE,
      blockIntervalMs: Number(config.xBlockIntervalNs / 1_000_000n),
      serve,
    });
    manager.registerVM(VM_IDS.avm, avm);
    const serveGeth = (services: ServiceDef[]) => {
      const logged = services.map((s) =>
        withFaults(
          withCallLog(s, (msg, fields) => main.debug(msg, fields)),
          faults,
          '_',
        ),
      );
      return { http: jsonRpcEndpoint(gethDialect, logged, { budget: bodies }), ws: jsonRpcSocket(gethDialect, logged) };
    };
    const l1Validators = new Map();
    // --dev: the test accounts sign for eth_sendTransaction on every EVM chain.
    const devKeys = config.dev ? testAccounts(config.testAccounts).map((a) => a.privateKey) : [];
    // Validator state for the EVM chains' warp and validators API: the P-Chain's sets.
    const subnetValidators = (subnetID: Uint8Array): SubnetMember[] | undefined => {
      const p = manager.get('P');
      if (!p) return undefined;
      const bytes = (h: string) => new Uint8Array(Buffer.from(h, 'hex'));
      return subnetMembers((p.vm as PlatformChainVM).pChain.state.ledger, Buffer.from(subnetID).toString('hex'))?.map((m) => ({
        ...m,
        nodeID: `NodeID-${encodeCB58(bytes(m.nodeID))}`,
        publicKey: m.publicKey ? bytes(m.publicKey) : undefined,
        validationID: bytes(m.validationID),
      }));
    };
    manager.registerVM(
      VM_IDS.evm,
      evmFactory({ kind: 'coreth', serve: serveGeth, serveGorilla: serve, dev: config.dev, devKeys, l1Validators, subnetValidators, states: shell.states }),
    );
    manager.registerVM(
      VM_IDS.subnetEvm,
      evmFactory({ kind: 'subnet-evm', serve: serveGeth, serveGorilla: serve, dev: config.dev, devKeys, l1Validators, subnetValidators, states: shell.states }),
    );
    cleanups.push(() => manager.close());
    // Closed before the chains: a follower may be reading one.
    if (data) cleanups.push(() => data.close());

    if (config.apiAdminEnabled) {
      // The profiler watches event-loop delay from the start (for lock.profile): only when it can be asked for.
      const profiler = shell.profiler ?? new Profiler(config.profileDir);
      router.addRoute(
        rpc([
          adminService({
            routes: router,
            chainAliases,
            logs,
            vms,
            profiler,
            db,
            config: () =>
              nodeConfigJson(config, encodeCB58(xChain.avaxAssetID), TX_FEE, CREATE_ASSET_TX_FEE, Object.keys(vmAliases).length > 0 ? vmAliases : null),
          }),
        ]),
        'admin',
      );
    }
    if (config.apiInfoEnabled) {
      router.addRoute(
        rpc([
          infoService({
            networkId: config.networkId,
            networkName: config.networkName,
            chainAliases,
            vms,
            stakingAddress: () => formatAddrPort(String(config.flags['public-ip'] || '127.0.0.1'), config.stakingPort),
            txFee: TX_FEE,
            createAssetTxFee: CREATE_ASSET_TX_FEE,
          }),
        ]),
        'info',
      );
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
    if (config.apiEmulatorEnabled) {
      router.addRoute(
        rpc([
          emulatorService(health, {
            ...signingMethods(() => (manager.get('P')!.vm as PlatformChainVM).pChain, config.networkId),
            ...clockMethods(clock, () => (manager.get('P')!.vm as PlatformChainVM).pChain.advance()),
            ...faultMethods(faults, journal, health, {
              stalls,
              stallable: (chain) => manager.get(chain)?.id,
            }),
            ...(shell.states ? stateMethods(shell.states, config.stateDir) : {}),
          }),
        ]),
        'emulator',
      );
    }

    // The primary network's chains, in avalanchego's order, each with its chain config if it has one
    // and the aliases of --chain-aliases-file besides its own.
    const l1s: L1Definition[] = [];
    for (const path of config.l1) l1s.push(await readL1(path));
    for (const g of primaryNetworkChains(config.networkId)) {
      const id = encodeCB58(g.chainID);
      const chainConfig = await readChainFile(config.chainConfigDir, [id, ...g.aliases], 'config.json');
      const upgrade = await readChainFile(config.chainConfigDir, [id, ...g.aliases], 'upgrade.json');
      if (
        upgrade &&
        Buffer.from(upgrade)
          .toString('utf8')
          .trim()
          .replace(/^\{\s*\}$/, '') !== ''
      ) {
        throw new StartError(`${g.aliases[0] ?? id}: upgrade.json is read for Subnet-EVM chains only`);
      }
      await manager.createChain({
        subnetID: new Uint8Array(32),
        chainID: g.chainID,
        vmID: g.vmID,
        genesis: g.genesis,
        aliases: [...g.aliases, ...(extraAliases[id] ?? [])],
        config: chainConfig,
      });
    }
    // The chains of every subnet the P-Chain knows (sybil protection off: the node runs them all),
    // as avalanchego's initBlockchains creates them after the primary network's. An --l1 chain the
    // P-Chain created on an earlier run (same name, same genesis) keeps its ID and gets its alias.
    pChainReady = true;
    const pChain = (manager.get('P')!.vm as PlatformChainVM).pChain;
    const created = new Map<string, { subnetID: Uint8Array; chainID: Uint8Array }>();
    const subnetChains: CreatedChain[] = [];
    for (const [chainHex, rec] of pChain.state.ledger.chains) {
      if (/^0+$/.test(rec.subnetID)) continue;
      const tx = await pChain.state.getTx(Buffer.from(chainHex, 'hex'));
      if (tx?.unsigned.type !== 15) continue;
      const c = { chainID: tx.id, subnetID: tx.unsigned.subnetID, name: rec.name, vmID: tx.unsigned.vmID, genesis: tx.unsigned.genesis };
      const l1 = l1s.find((l) => l.chainName === rec.name && encodeCB58(c.vmID) === VM_IDS.subnetEvm && Buffer.from(l.genesis).equals(Buffer.from(c.genesis)));
      if (l1 && !created.has(l1.name)) {
        startupAliases.set(chainHex, [l1.name]);
        strictChains.set(chainHex, l1.path);
        created.set(l1.name, c);
      }
      subnetChains.push(c);
    }
    for (const c of subnetChains) await createSubnetChain(c, strictChains.get(Buffer.from(c.chainID).toString('hex')));
    for (const c of pendingChains.splice(0)) await createSubnetChain(c);
    // The other --l1 chains are created as a real network creates them: ewoq's CreateSubnetTx,
    // CreateChainTx and ConvertSubnetToL1Tx (the node and the chain config's emulator-validators).
    const wallet = new PWallet(pChain, EWOQ_PRIVATE_KEY);
    for (const l of l1s) {
      if (created.has(l.name)) continue;
      try {
        const subnetID = await wallet.createSubnet();
        const chainTx = await wallet.createChainTx(subnetID, l.chainName, decodeCB58(VM_IDS.subnetEvm), l.genesis);
        startupAliases.set(Buffer.from(chainTx.id).toString('hex'), [l.name]);
        strictChains.set(Buffer.from(chainTx.id).toString('hex'), l.path);
        await wallet.issue(chainTx);
        if (!manager.get(encodeCB58(chainTx.id))) throw new L1Error('the chain was not created');
        const chainConfig = await readChainFile(config.chainConfigDir, [encodeCB58(chainTx.id), l.name], 'config.json');
        await wallet.convert(subnetID, chainTx.id, VALIDATOR_MANAGER_ADDRESS, [
          convertValidator(LOCAL_NODE.nodeID, L1_NODE_WEIGHT, hexBytes(LOCAL_NODE.publicKey), hexBytes(LOCAL_NODE.proofOfPossession)),
          ...l1ValidatorsFromConfig(chainConfig).map((v) => convertValidatorWithKey(v.nodeID, v.weight, v.secretKey)),
        ]);
        created.set(l.name, { subnetID, chainID: chainTx.id });
      } catch (err) {
        // Whatever fails while the node sets up an --l1 chain is that flag's doing: the message names it.
        const message = (err as Error).message;
        throw message.startsWith('--l1=') ? err : new L1Error(`--l1=${l.path}: ${message}`);
      }
    }
    const l1Chains = l1s.map((l) => {
      const ids = created.get(l.name)!;
      const vm = manager.get(encodeCB58(ids.chainID))!.vm as EvmChainVM;
      return { name: l.name, blockchainID: encodeCB58(ids.chainID), subnetID: encodeCB58(ids.subnetID), evmChainId: vm.evm.chainId };
    });
    const xChain = (manager.get('X')!.vm as AvmChain).xChain;
    const cChain = (manager.get('C')!.vm as EvmChainVM).evm;
    const accounts = testAccounts(config.testAccounts);
    if (accounts.length > 0 && xChain.freshGenesis) {
      const [source] = await xChain.state.utxoIDs(EWOQ_ADDRESS, undefined, 1);
      const utxo = source && (await xChain.state.getUTXO(source));
      if (!utxo) throw new StartError('the ewoq genesis UTXO is not available to fund the test accounts');
      await xChain.issueTx(fundingTx(xChain.params, utxo, accounts).bytes);
      await xChain.buildAll();
    }
    if (accounts.length > 0 && cChain.head.header.number === 0n && cChain.pool.size === 0) {
      await fundTestAccounts(
        cChain,
        EWOQ_PRIVATE_KEY,
        accounts.map((a) => a.privateKey),
      );
    }

    for (const [name, message] of Object.entries(shell.healthFaults ?? {})) if (health.knows(name)) await health.injectFault(name, message);
    await health.start();
    cleanups.push(() => health.stop());
    return {
      router,
      health,
      manager,
      xChain,
      cChain,
      accounts,
      l1s: l1Chains,
      rewindables: () => [...manager.rewindables(), indexer.rewindable(), ...(data ? [data.rewindable()] : [])],
      close: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

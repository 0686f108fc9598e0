// The node's own APIs, each behind its --api-*-enabled flag: admin, info, health, metrics, the
// emulator's controls and the explorer's page.
import { nodeConfigJson } from '../api/admin/config.js';
import type { Profiler } from '../api/admin/profiler.js';
import { adminService } from '../api/admin/service.js';
import { clockMethods } from '../api/emulator/clock.js';
import { faultMethods } from '../api/emulator/faults.js';
import { emulatorService } from '../api/emulator/service.js';
import { stateMethods } from '../api/emulator/state.js';
import { healthReportHandler, healthService } from '../api/health/service.js';
import { infoService } from '../api/info/service.js';
import { metricsHandler } from '../api/metrics/handler.js';
import type { Aliaser } from '../chains/aliases.js';
import type { ChainManager } from '../chains/manager.js';
import { encodeCB58 } from '../encoding/cb58.js';
import type { Health } from '../health/health.js';
import { explorerHandler } from '../server/explorer.js';
import type { Router } from '../server/router.js';
import { signingMethods } from '../vms/platform/index.js';
import type { Endpoints } from './endpoints.js';
import { CREATE_ASSET_TX_FEE, formatAddrPort, type Shell, TX_FEE } from './shell.js';
import type { NodeIcm } from './icm.js';
import type { NodeVMs } from './vms.js';

export interface NodeRoutes {
  shell: Shell;
  router: Router;
  rpc: Endpoints['rpc'];
  health: Health;
  chainAliases: Aliaser;
  manager: ChainManager;
  vms: NodeVMs;
  icm?: NodeIcm | undefined;
}

export function addNodeRoutes(r: NodeRoutes): void {
  const { config } = r.shell;
  // The shell made the profiler at start-up when admin is enabled (it watches the event loop from then).
  if (config.apiAdminEnabled && r.shell.profiler) addAdmin(r, r.shell.profiler);
  if (config.apiInfoEnabled) addInfo(r);
  if (config.apiHealthEnabled) addHealth(r);
  if (config.apiMetricsEnabled) r.router.addRoute(metricsHandler(r.health, r.shell.startedAt), 'metrics');
  if (config.apiEmulatorEnabled) addEmulator(r);
  if (config.apiExplorerEnabled) r.router.mount('/explorer', explorerHandler());
}

function addAdmin({ shell, router, rpc, chainAliases, vms }: NodeRoutes, profiler: Profiler): void {
  const { config, logs, db, vmAliases } = shell;
  const aliases = Object.keys(vmAliases).length > 0 ? vmAliases : null;
  const service = adminService({
    routes: router,
    chainAliases,
    logs,
    vms: shell.vms,
    profiler,
    db,
    config: () => nodeConfigJson(config, encodeCB58(vms.xChain.avaxAssetID), TX_FEE, CREATE_ASSET_TX_FEE, aliases),
  });
  router.addRoute(rpc([service]), 'admin');
}

function addInfo({ shell, router, rpc, chainAliases }: NodeRoutes): void {
  const { config } = shell;
  const service = infoService({
    networkId: config.networkId,
    networkName: config.networkName,
    chainAliases,
    vms: shell.vms,
    stakingAddress: () => formatAddrPort(String(config.flags['public-ip'] || '127.0.0.1'), config.stakingPort),
    txFee: TX_FEE,
    createAssetTxFee: CREATE_ASSET_TX_FEE,
  });
  router.addRoute(rpc([service]), 'info');
}

function addHealth({ router, rpc, health }: NodeRoutes): void {
  const healthRpc = rpc([healthService(health)]);
  const report = healthReportHandler(health, 'health');
  router.addRoute((req, res) => (req.method === 'GET' ? report(req, res) : healthRpc(req, res)), 'health');
  router.addRoute(healthReportHandler(health, 'readiness'), 'health', '/readiness');
  router.addRoute(report, 'health', '/health');
  router.addRoute(healthReportHandler(health, 'liveness'), 'health', '/liveness');
}

function addEmulator({ shell, router, rpc, health, manager, vms, icm }: NodeRoutes): void {
  const { config, clock, faults, journal, stalls, states } = shell;
  const service = emulatorService(health, {
    ...signingMethods(() => vms.pChain, config.networkId),
    ...clockMethods(clock, () => vms.pChain.advance()),
    ...faultMethods(faults, journal, health, { stalls, stallable: (chain) => manager.get(chain)?.id }),
    ...(states ? stateMethods(states, config.stateDir) : {}),
    ...(icm ? icm.methods() : {}),
  });
  router.addRoute(rpc([service]), 'emulator');
}

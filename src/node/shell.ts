// What the node's parts share: the shell (what outlives a rebuild of the core: the store, the clock,
// the emulator's faults and journal, the HTTP server's budget) and the core it builds over it.
import type { DevSettings } from '../vms/evm/index.js';
import type { Profiler } from '../api/admin/profiler.js';
import type { TravelClock } from '../chains/clock.js';
import type { ChainManager } from '../chains/manager.js';
import type { NodeStates, Rewindable } from '../chains/states.js';
import type { BlockStalls } from '../chains/stalls.js';
import type { VmRegistry } from '../chains/vms.js';
import type { NodeConfig } from '../config/load.js';
import type { Health } from '../health/health.js';
import type { LogFactory, Logger } from '../logging/logger.js';
import type { BodyBudget } from '../rpc/budget.js';
import type { Faults } from '../rpc/faults.js';
import type { Journal } from '../rpc/journal.js';
import type { Router } from '../server/router.js';
import type { Database } from '../storage/db.js';
import type { TestAccount, XChain } from '../vms/avm/index.js';
import type { ChainForks, EvmChain } from '../vms/evm/index.js';

/** A start-up failure the user caused (a flag, a file): one line, and the node exits non-zero. */
export class StartError extends Error {}

/** An L1 of --l1, as the node reports it. */
export interface L1Info {
  name: string;
  blockchainID: string;
  subnetID: string;
  evmChainId: bigint;
}

/** host:port, with an IPv6 host in brackets (Go's net.JoinHostPort). */
export function formatAddrPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Local network fees (genesis LocalParams; --tx-fee and --create-asset-tx-fee are not exposed yet). */
export const TX_FEE = 1_000_000n;
export const CREATE_ASSET_TX_FEE = 1_000_000n;

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
  /** The chains' forks (--fork-url), with their upstreams and caches: a rebuild keeps them. */
  forks: ChainForks;
  /**
   * The EVM chains' dev settings a rebuild carries over, by blockchain ID (CB58): each chain takes
   * its own before it reloads its pool (whose txs evm_setBlockGasLimit's limit admits).
   */
  devSettings?: ReadonlyMap<string, DevSettings>;
}

export interface Core {
  router: Router;
  health: Health;
  manager: ChainManager;
  xChain: XChain;
  cChain: EvmChain;
  accounts: TestAccount[];
  l1s: L1Info[];
  /** Every EVM chain (the C-Chain, the L1s, chains created since), with its blockchain ID. */
  evmChains(): Array<{ id: string; evm: EvmChain }>;
  /** What follows the store back to a snapshot in place (evm_revert without a rebuild). */
  rewindables(): Rewindable[];
  close(): Promise<void>;
}

// The chain manager (avalanchego chains/manager.go): a chain is created from its subnet, ID, VM,
// genesis and config by the factory registered for its VM. Creating it gives it a database of its
// own, a logger and aliases, mounts its handlers under /ext/bc/<id>, registers its health check
// (tagged with its subnet) and runs the node's hooks (the indexer, for primary-network chains).
// Chains can be created while the node runs; each then appears in all of these at once.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import { encodeCB58 } from '../encoding/cb58.js';
import { formatDuration } from '../encoding/time.js';
import type { CheckFn, CheckOutcome } from '../health/worker.js';
import type { LogFactory, Logger } from '../logging/logger.js';
import type { Database } from '../storage/db.js';
import { chainDatabase, proposerDatabase, vmDatabase } from '../storage/keys.js';
import type { Changes, Rewindable } from './states.js';
import { type Acceptance, type AcceptedStream, chainAcceptance } from './acceptance.js';
import type { Aliaser } from './aliases.js';
import type { Clock } from './clock.js';
import { PRIMARY_NETWORK_ID } from './ids.js';
import { ProposerVM } from './proposervm.js';
import type { SharedMemory } from './sharedmemory.js';
import type { BlockStalls } from './stalls.js';
import { toHex } from '../encoding/bytes.js';

/** What a chain serves at one extension of /ext/bc/<id>: plain HTTP, websocket upgrades, or both. */
export interface ChainRoute {
  http?: (req: IncomingMessage, res: ServerResponse) => void;
  ws?: (socket: WebSocket, req: IncomingMessage) => void;
}

/** What the manager needs of the HTTP router. */
export interface ChainRoutes {
  addRoute(route: ChainRoute, base: string, endpoint?: string): void;
  addAliases(endpoint: string, ...aliases: string[]): void;
}

/** What the manager needs of the node's health checks. */
export interface HealthRegistry {
  registerHealthCheck(name: string, fn: CheckFn, tags: string[]): void;
}

export interface ChainParameters {
  subnetID: Uint8Array;
  chainID: Uint8Array;
  vmID: string;
  /** The chain's genesis, as its CreateChainTx carries it. */
  genesis: Uint8Array;
  /** The chain's config file, if it has one. */
  config?: Uint8Array;
  /** The chain's upgrade file (upgrade.json), if it has one. */
  upgrade?: Uint8Array;
  /** Aliases besides the ID, primary first (the primary network's are X/avm, P/platform, C/evm). */
  aliases?: string[];
}

/** A VM's state as consensus sees it, for the chain's health check. */
export interface ConsensusStatus {
  lastAccepted: { id: Uint8Array; height: bigint };
  /** Blocks being processed: built or due but not yet accepted. */
  processingBlocks: number;
  /** How long the oldest of them has been processing, in ms. */
  longestProcessingMs: number;
  /** The VM's own health error, if any. */
  vmError?: string;
}

export interface ChainVM {
  /** Handlers by extension: '' for /ext/bc/<id> itself, '/wallet', '/rpc', '/ws', ... */
  readonly handlers: ReadonlyMap<string, ChainRoute>;
  /** The VM's genesis block: the parent of the first block proposervm wraps. */
  readonly genesisID?: Uint8Array;
  /** Its timestamp (unix s): the epoch proposervm reports before it wraps a block. */
  readonly genesisTimestamp?: bigint;
  /** The platform VM's last accepted height: the P-Chain height proposervm blocks of every chain carry. */
  pChainHeight?(): bigint;
  /** The asset a VM's chain pays its fees in, if it defines one (the X-Chain's AVAX). */
  readonly feeAssetID?: Uint8Array;
  /** For chains that build blocks: what the health check reports. */
  consensus?(): ConsensusStatus;
  /**
   * The chain is registered with the node (its hooks ran: the indexer, the followers): a VM builds no
   * block before this, as avalanchego's VMs wait for SetState(NormalOp).
   */
  start?(): void;
  /**
   * While the node goes back to a snapshot without rebuilding (evm_revert): stops writing, and
   * resolves to what lets it go on. A VM without `hold` and `reload` is rebuilt with the node.
   */
  hold?(): Promise<() => void>;
  /** After the store went back (while held): what it keeps in memory, as the store has it; false if it cannot (`changes`: see Rewindable). */
  reload?(changes: Changes): Promise<boolean>;
  /** The node went back to a snapshot, whatever the rollback wrote of this chain (see Rewindable). */
  reverted?(): void;
  close(): Promise<void>;
}

/** What a VM is given when its chain is created. */
export interface ChainContext {
  networkID: number;
  subnetID: Uint8Array;
  chainID: Uint8Array;
  genesis: Uint8Array;
  config: Uint8Array | undefined;
  upgrade: Uint8Array | undefined;
  /** The VM's own database. */
  db: Database;
  shared: SharedMemory;
  /** Chain aliases of the node (to resolve chain names in API arguments). */
  aliases: Aliaser;
  /** The subnet of a known chain (avalanchego's ValidatorState.GetSubnetID). */
  subnetOf(chainID: Uint8Array): Uint8Array | undefined;
  /**
   * avalanchego's ctx.AVAXAssetID: the fee asset of the primary network's X-Chain, once that chain
   * exists (avalanchego reads it from the X-Chain's genesis before creating any chain).
   */
  avaxAssetID?(): Uint8Array | undefined;
  /** The P-Chain's current height (ValidatorState.GetCurrentHeight), once the P-Chain exists. */
  pChainHeight?(): bigint;
  log: Logger;
  clock: Clock;
  /** What the VM calls for each block it accepts, to have it wrapped, indexed and announced. */
  acceptance: Acceptance;
  /** Whether block production is stalled (an emulator fault), and a way to hear when it resumes. */
  stalled?(): boolean;
  onResume?(fn: () => void): void;
}

/** Makes the VM of each chain of one VM ID; `V` is what its chains' VMs offer besides ChainVM. */
export interface VmFactory<V extends ChainVM = ChainVM> {
  /** A linearized DAG VM (the X-Chain) also has vertex and tx indexes. */
  readonly dag?: boolean;
  /** Whether its chains run under proposervm, which wraps and re-identifies their blocks. */
  readonly proposervm: boolean;
  create(ctx: ChainContext): Promise<V>;
}

/** A created chain. */
export interface Chain {
  readonly subnetID: Uint8Array;
  readonly chainID: Uint8Array;
  readonly id: string;
  readonly vmID: string;
  /** Its primary alias: also its logger's and its health check's name. */
  readonly alias: string;
  readonly dag: boolean;
  readonly vm: ChainVM;
  /** The chain's proposervm layer, for chains that run under it. */
  readonly proposer?: ProposerVM;
}

/** Runs for every chain as it is created, before its routes are served (the indexer's RegisterChain). */
export type ChainHook = (chain: Chain) => Promise<void>;

export class ManagerError extends Error {}

export interface ManagerDeps {
  networkID: number;
  root: Database;
  shared: SharedMemory;
  aliases: Aliaser;
  clock: Clock;
  logs: LogFactory;
  routes: ChainRoutes;
  health: HealthRegistry;
  stream: AcceptedStream;
  /** Stalled block production, by chain (emulator faults). */
  stalls?: BlockStalls;
}

/** snowball's default MaxItemProcessingTime (--snow-max-processing-time). */
const MAX_PROCESSING_MS = 30_000;

export class ChainManager {
  private readonly factories = new Map<string, VmFactory>();
  private readonly created = new Map<string, Chain>();
  /** Each created chain's database prefix, hashed once: its rewindable claims it at every snapshot and revert. */
  private readonly keyPrefixes = new Map<string, Uint8Array>();
  /** Listeners on node-wide emitters (the stalls), removed when the chains close: a rebuilt node adds its own. */
  private readonly unsubscribes: Array<() => void> = [];
  /** Every chain the node knows of (created or only declared), by hex ID: its subnet. */
  private readonly known = new Map<string, Uint8Array>();
  private readonly hooks: ChainHook[] = [];

  constructor(private readonly deps: ManagerDeps) {}

  /** Every chain's accepted blocks, once committed. */
  get stream(): AcceptedStream {
    return this.deps.stream;
  }

  /** avalanchego's VM registry: the factory that creates chains of `vmID`. */
  registerVM(vmID: string, factory: VmFactory): void {
    this.factories.set(vmID, factory);
  }

  onCreate(hook: ChainHook): void {
    this.hooks.push(hook);
  }

  /** Records a chain the node knows of without running it (one whose VM is not emulated yet). */
  declare(chainID: Uint8Array, subnetID: Uint8Array, aliases: string[] = []): void {
    this.known.set(toHex(chainID), subnetID);
    const id = encodeCB58(chainID);
    for (const a of aliases) this.deps.aliases.alias(id, a);
    this.deps.aliases.alias(id, id);
  }

  async createChain(p: ChainParameters): Promise<Chain> {
    const factory = this.factories.get(p.vmID);
    if (!factory) throw new ManagerError(`error while looking up VM: there is no ID with alias: ${p.vmID}`);
    const id = encodeCB58(p.chainID);
    if (this.created.has(id)) throw new ManagerError(`chain ${id} is already created`);
    if (!this.known.has(toHex(p.chainID))) this.declare(p.chainID, p.subnetID, p.aliases);
    const alias = this.deps.aliases.primaryAlias(id);
    const log = this.deps.logs.make(alias);
    const chainDb = chainDatabase(this.deps.root, p.chainID);
    this.keyPrefixes.set(id, chainDb.keyPrefix);
    let acceptance: Acceptance | undefined;
    const ctx: ChainContext = {
      networkID: this.deps.networkID,
      subnetID: p.subnetID,
      chainID: p.chainID,
      genesis: p.genesis,
      config: p.config,
      upgrade: p.upgrade,
      db: vmDatabase(chainDb),
      shared: this.deps.shared,
      aliases: this.deps.aliases,
      log,
      clock: this.deps.clock,
      subnetOf: (chainID) => this.known.get(toHex(chainID)),
      avaxAssetID: () => this.avaxAssetID(),
      pChainHeight: () => this.pChainHeight(),
      acceptance: { prepare: (inner, batch) => acceptance!.prepare(inner, batch) },
      stalled: () => this.deps.stalls?.isStalled(id) ?? false,
      onResume: (fn) => {
        const listener = (chainID: string) => chainID === id && fn();
        this.deps.stalls?.on('resumed', listener);
        this.unsubscribes.push(() => this.deps.stalls?.off('resumed', listener));
      },
    };
    const vm = await factory.create(ctx);
    let proposer: ProposerVM | undefined;
    if (factory.proposervm) {
      if (!vm.genesisID) throw new ManagerError(`a chain under proposervm must name its genesis block (VM ${p.vmID})`);
      proposer = new ProposerVM(proposerDatabase(chainDb), vm.genesisID, () => this.pChainHeight(), vm.genesisTimestamp ?? 0n);
      await proposer.load();
    }
    acceptance = chainAcceptance(p, this.deps.stream, this.deps.clock, proposer);
    const chain: Chain = {
      subnetID: p.subnetID,
      chainID: p.chainID,
      id,
      vmID: p.vmID,
      alias,
      dag: factory.dag ?? false,
      vm,
      ...(proposer ? { proposer } : {}),
    };
    try {
      for (const hook of this.hooks) await hook(chain);
    } catch (err) {
      // A refusal (the indexer's) leaves no chain half-created behind: its VM stops before serving.
      await vm.close();
      throw err;
    }
    this.created.set(id, chain);
    for (const [endpoint, route] of vm.handlers) this.deps.routes.addRoute(route, `bc/${id}`, endpoint);
    // The HTTP aliases of a chain: each of its aliases, bare and under bc/ (avalanchego's /ext/X and /ext/bc/X).
    const aliases = (this.deps.aliases.aliases(id) ?? []).filter((a) => a !== id);
    if (aliases.length > 0) this.deps.routes.addAliases(`bc/${id}`, ...aliases, ...aliases.map((a) => `bc/${a}`));
    if (vm.consensus) this.deps.health.registerHealthCheck(alias, chainCheck(vm), [encodeCB58(p.subnetID)]);
    vm.start?.();
    return chain;
  }

  /** The P-Chain's height as proposervm reads it (the platform VM's last accepted block; 0 before it exists). */
  private pChainHeight(): bigint {
    for (const chain of this.created.values()) if (chain.vm.pChainHeight) return chain.vm.pChainHeight();
    return 0n;
  }

  /** The fee asset of the first primary-network chain that defines one: the X-Chain's AVAX. */
  private avaxAssetID(): Uint8Array | undefined {
    for (const chain of this.created.values()) if (isPrimaryNetwork(chain.subnetID) && chain.vm.feeAssetID) return chain.vm.feeAssetID;
    return undefined;
  }

  /** Created chains, in creation order. */
  chains(): Chain[] {
    return [...this.created.values()];
  }

  /** The chains whose VMs can follow the store back to a snapshot in place (chains/states.ts). */
  rewindables(): Rewindable[] {
    const out: Rewindable[] = [];
    for (const chain of this.created.values()) {
      const { vm, proposer } = chain;
      if (!vm.hold || !vm.reload) continue;
      out.push({
        prefixes: [this.keyPrefixes.get(chain.id)!],
        hold: () => vm.hold!(),
        async reload(changes) {
          // The proposervm's last block and the VM's head are read apart: their reads overlap, and
          // both end before the revert goes on (a failure rebuilds the node: nothing may still run).
          const [loaded, reloaded] = await Promise.allSettled([proposer?.load(changes), vm.reload!(changes)]);
          if (loaded.status === 'rejected') throw loaded.reason;
          if (reloaded.status === 'rejected') throw reloaded.reason;
          return reloaded.value;
        },
        reverted: () => vm.reverted?.(),
      });
    }
    return out;
  }

  /** A created chain by ID or alias. */
  get(idOrAlias: string): Chain | undefined {
    if (!this.deps.aliases.has(idOrAlias)) return undefined;
    return this.created.get(this.deps.aliases.lookup(idOrAlias));
  }

  /** Stops every chain, newest first. */
  async close(): Promise<void> {
    for (const off of this.unsubscribes.splice(0)) off();
    for (const chain of [...this.created.values()].reverse()) await chain.vm.close();
  }
}

export const isPrimaryNetwork = (subnetID: Uint8Array): boolean => encodeCB58(subnetID) === PRIMARY_NETWORK_ID;

/**
 * A chain's handler health as a single local node reports it: the engine's consensus state (and the
 * VM's error, combined as avalanchego's engine does), and networking as a lone validator.
 */
export function chainCheck(vm: ChainVM): CheckFn {
  return (): CheckOutcome => {
    const c = vm.consensus!();
    const longest = BigInt(Math.round(c.longestProcessingMs)) * 1_000_000n;
    const consensusError =
      c.longestProcessingMs > MAX_PROCESSING_MS
        ? `block processing too long: ${formatDuration(longest)} > ${formatDuration(BigInt(MAX_PROCESSING_MS) * 1_000_000n)}`
        : undefined;
    const error = consensusError && c.vmError ? `vm: ${c.vmError} ; consensus: ${consensusError}` : (consensusError ?? c.vmError);
    const details = {
      engine: {
        consensus: {
          lastAcceptedHeight: Number(c.lastAccepted.height),
          lastAcceptedID: encodeCB58(c.lastAccepted.id),
          longestProcessingBlock: formatDuration(longest),
          processingBlocks: c.processingBlocks,
        },
        vm: null,
      },
      networking: { disconnectedValidators: [], percentConnected: 1 },
    };
    return error === undefined ? { details } : { details, error };
  };
}

// The platform VM's factory: the P-Chain from its genesis, its API at /ext/bc/P, its consensus state
// for the `P` health check, and the chains its CreateChainTxs create, handed to the node.
import { unixSeconds } from '../../chains/clock.js';
import type { ChainContext, ChainRoute, ChainVM, VmFactory } from '../../chains/manager.js';
import { encodeCB58 } from '../../encoding/cb58.js';
import type { ServiceDef } from '../../rpc/method.js';
import { platformService } from './api/index.js';
import type { CreatedChain } from './execute/index.js';
import { PChain } from './vm.js';

export interface PlatformConfig {
  hrp: string;
  /** The node's own node ID, hex. */
  nodeID: string;
  startedAt: bigint;
  serve(services: ServiceDef[]): ChainRoute;
  /** The ID of a chain this node runs, by ID or alias. */
  runsChain(idOrAlias: string): string | undefined;
  /** A CreateChainTx was accepted: the node creates the chain. */
  onChainCreated(chain: CreatedChain): Promise<void>;
}

export interface PlatformChainVM extends ChainVM {
  readonly pChain: PChain;
}

export function platformFactory(config: PlatformConfig): VmFactory<PlatformChainVM> {
  return {
    proposervm: true,
    async create(ctx: ChainContext): Promise<PlatformChainVM> {
      const vm = await PChain.open(ctx.db, ctx.shared, {
        networkID: ctx.networkID,
        chainID: ctx.chainID,
        genesis: ctx.genesis,
        subnetOf: ctx.subnetOf,
        clock: ctx.clock,
        acceptance: ctx.acceptance,
        onChainCreated: config.onChainCreated,
        nodeID: config.nodeID,
        startedAt: config.startedAt,
        ...(ctx.stalled ? { stalled: ctx.stalled } : {}),
      });
      ctx.onResume?.(() => void vm.resume().catch(() => undefined));
      const service = platformService({
        vm,
        hrp: config.hrp,
        chainId: encodeCB58(ctx.chainID),
        chainAliases: ctx.aliases,
        shared: ctx.shared,
        nodeID: config.nodeID,
        startedAt: config.startedAt,
        now: () => unixSeconds(ctx.clock),
        runsChain: config.runsChain,
      });
      return {
        pChain: vm,
        genesisID: vm.genesisBlockID,
        genesisTimestamp: vm.genesisTimestamp,
        pChainHeight: () => vm.state.lastAccepted().height,
        handlers: new Map([['', config.serve([service])]]),
        consensus() {
          const last = vm.state.lastAccepted();
          return { lastAccepted: { id: last.id, height: last.height }, processingBlocks: 0, longestProcessingMs: 0 };
        },
        close: () => vm.close(),
      };
    },
  };
}

// The AVM's factory: an X-Chain (or any other AVM chain) from its chain context, with its APIs at
// /ext/bc/<id> (avm) and /ext/bc/<id>/wallet, and its consensus state for the chain's health check.
import { avmService, walletService, type AvmDeps } from './service.js';
import type { ServiceDef } from '../../rpc/method.js';
import { encodeCB58 } from '../../encoding/cb58.js';
import { unixSeconds } from '../../chains/clock.js';
import type { ChainContext, ChainRoute, ChainVM, VmFactory } from '../../chains/manager.js';
import { XChain } from './vm.js';

export interface AvmConfig {
  hrp: string;
  txFee: bigint;
  createAssetTxFee: bigint;
  /** 0 builds a block as soon as a tx arrives. */
  blockIntervalMs: number;
  /** Serves services as the node's JSON-RPC endpoints do. */
  serve(services: ServiceDef[]): ChainRoute;
}

export interface AvmChain extends ChainVM {
  readonly xChain: XChain;
}

export interface AvmFactory extends VmFactory {
  create(ctx: ChainContext): Promise<AvmChain>;
}

export function avmFactory(config: AvmConfig): AvmFactory {
  return {
    dag: true,
    proposervm: true,
    async create(ctx) {
      const vm = await XChain.open(ctx.db, ctx.shared, {
        networkID: ctx.networkID,
        chainID: ctx.chainID,
        subnetID: ctx.subnetID,
        genesis: ctx.genesis,
        txFee: config.txFee,
        createAssetTxFee: config.createAssetTxFee,
        subnetOf: ctx.subnetOf,
        blockIntervalMs: config.blockIntervalMs,
        clock: ctx.clock,
        acceptance: ctx.acceptance,
        ...(ctx.stalled ? { stalled: ctx.stalled } : {}),
      });
      ctx.onResume?.(() => void vm.buildAll());
      vm.on('buildFailed', (err) => ctx.log.error('failed to accept block', { error: err.message }));
      const deps: AvmDeps = {
        vm,
        hrp: config.hrp,
        chainId: encodeCB58(ctx.chainID),
        chainAliases: ctx.aliases,
        shared: ctx.shared,
        txFee: config.txFee,
        createAssetTxFee: config.createAssetTxFee,
        now: () => unixSeconds(ctx.clock),
      };
      return {
        xChain: vm,
        genesisID: vm.genesisBlock.id,
        genesisTimestamp: vm.genesisBlock.time,
        feeAssetID: vm.avaxAssetID,
        handlers: new Map([
          ['', config.serve([avmService(deps)])],
          ['/wallet', config.serve([walletService(deps)])],
        ]),
        consensus() {
          const { txs, longestMs, lastError } = vm.processing();
          const last = vm.lastAccepted();
          return {
            lastAccepted: { id: last.id, height: last.height },
            processingBlocks: txs > 0 ? 1 : 0,
            longestProcessingMs: longestMs,
            ...(lastError ? { vmError: `failed to accept block: ${lastError.message}` } : {}),
          };
        },
        close: () => vm.close(),
      };
    },
  };
}

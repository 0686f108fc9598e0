// The EVM's factory: an EVM chain (the C-Chain, later Subnet-EVM chains) from its chain context, with
// its JSON-RPC at /ext/bc/<id>/rpc and /ext/bc/<id>/ws in geth's dialect. Its namespaces follow the
// chain config's eth-apis as coreth reads them (debug and txpool off by default); --dev turns the
// developer namespaces on.
import type { ChainContext, ChainRoute, ChainVM, VmFactory } from '../../chains/manager.js';
import type { ServiceDef } from '../../rpc/method.js';
import { debugService } from './api/debug.js';
import { ethService } from './api/eth.js';
import { FilterSystem, filterService } from './api/filters.js';
import { GasOracle } from './api/gas.js';
import { netService, web3Service } from './api/net.js';
import { txpoolService } from './api/txpool.js';
import { EvmChain } from './chain.js';
import { chainConfigJson } from './chainconfig.js';

export interface EvmConfig {
  /** Serves services in geth's dialect, over HTTP and websockets. */
  serve(services: ServiceDef[]): ChainRoute;
  /** --dev */
  dev: boolean;
  /** coreth's five-field accounts (the C-Chain); Subnet-EVM's four otherwise. */
  multiCoin: boolean;
}

export interface EvmChainVM extends ChainVM {
  readonly evm: EvmChain;
}

/** coreth's default eth-apis. */
const DEFAULT_APIS = ['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction'];

export class ChainConfigError extends Error {}

function namespaces(config: Uint8Array | undefined, dev: boolean): Set<string> {
  let apis = DEFAULT_APIS;
  if (config && config.length > 0) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(config).toString('utf8'));
    } catch (err) {
      throw new ChainConfigError(`failed to unmarshal config ${Buffer.from(config).toString('utf8').slice(0, 64)}: ${(err as Error).message}`);
    }
    const list = (parsed as { 'eth-apis'?: unknown })['eth-apis'];
    if (Array.isArray(list)) apis = list.map(String);
  }
  const on = new Set<string>();
  if (apis.some((a) => a === 'eth' || a.startsWith('internal-'))) on.add('eth');
  if (apis.includes('net')) on.add('net');
  if (apis.includes('web3')) on.add('web3');
  if (apis.some((a) => a === 'debug' || a === 'debug-tracer' || a === 'internal-debug') || dev) on.add('debug');
  if (apis.includes('internal-tx-pool') || dev) on.add('txpool');
  return on;
}

export function evmFactory(config: EvmConfig): VmFactory {
  return {
    proposervm: true,
    async create(ctx: ChainContext): Promise<EvmChainVM> {
      const on = namespaces(ctx.config, config.dev);
      const genesis = Buffer.from(ctx.genesis).toString('utf8');
      const chain = await EvmChain.open(ctx.db, { genesis, clock: ctx.clock, acceptance: ctx.acceptance, multiCoin: config.multiCoin });
      chain.on('buildFailed', (err) => ctx.log.error('failed to accept block', { error: err.message }));
      const filters = new FilterSystem(chain);
      const eth = ethService({ chain, gas: new GasOracle(chain, ctx.clock), clock: ctx.clock, chainConfig: chainConfigJson(genesis) });
      const ethFilters = filterService(chain, filters);
      const services: ServiceDef[] = [];
      if (on.has('eth')) services.push({ name: 'eth', methods: { ...eth.methods, ...ethFilters.methods } });
      if (on.has('net')) services.push(netService(chain.chainId));
      if (on.has('web3')) services.push(web3Service());
      if (on.has('txpool')) services.push(txpoolService(chain));
      if (on.has('debug')) services.push(debugService(chain));
      const route = config.serve(services);
      return {
        evm: chain,
        genesisID: chain.genesis.hash,
        handlers: new Map([
          ['/rpc', { http: route.http }],
          ['/ws', { ws: route.ws }],
        ]),
        consensus() {
          const since = chain.waitingSince;
          return {
            lastAccepted: { id: chain.head.hash, height: chain.head.header.number },
            processingBlocks: since === undefined ? 0 : 1,
            longestProcessingMs: since === undefined ? 0 : Date.now() - since,
            ...(chain.lastBuildError ? { vmError: `failed to accept block: ${chain.lastBuildError.message}` } : {}),
          };
        },
        async close() {
          filters.close();
          await chain.close();
        },
      };
    },
  };
}

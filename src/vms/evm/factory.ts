// The EVM's factory: an EVM chain (the C-Chain, later Subnet-EVM chains) from its chain context, with
// its JSON-RPC at /ext/bc/<id>/rpc and /ext/bc/<id>/ws in geth's dialect. Its namespaces follow the
// chain config's eth-apis as coreth reads them (debug and txpool off by default); --dev turns the
// developer namespaces on. Its gas-target sets the ACP-176 target the chain's blocks move toward.
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

/** The parts of coreth's chain config (`<chain-config-dir>/<chain>/config.json`) the emulator reads. */
interface ChainConfig {
  apis: string[];
  gasTarget?: bigint;
}

function readChainConfig(config: Uint8Array | undefined): ChainConfig {
  if (!config || config.length === 0) return { apis: DEFAULT_APIS };
  const text = Buffer.from(config).toString('utf8');
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ChainConfigError(`failed to unmarshal config ${text.slice(0, 64)}: ${(err as Error).message}`);
  }
  const list = parsed['eth-apis'];
  const gasTarget = parsed['gas-target'];
  if (gasTarget !== undefined && gasTarget !== null && !(typeof gasTarget === 'number' && Number.isSafeInteger(gasTarget) && gasTarget >= 0)) {
    // encoding/json's text for a value that does not fit gas.Gas (a uint64).
    const kind = typeof gasTarget === 'number' ? `number ${gasTarget}` : typeof gasTarget === 'object' ? 'object' : typeof gasTarget;
    throw new ChainConfigError(
      `failed to unmarshal config ${text.slice(0, 64)}: json: cannot unmarshal ${kind} into Go struct field Config.gas-target of type gas.Gas`,
    );
  }
  return {
    apis: Array.isArray(list) ? list.map(String) : DEFAULT_APIS,
    ...(typeof gasTarget === 'number' ? { gasTarget: BigInt(gasTarget) } : {}),
  };
}

function namespaces(apis: string[], dev: boolean): Set<string> {
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
      const chainConfig = readChainConfig(ctx.config);
      const on = namespaces(chainConfig.apis, config.dev);
      const genesis = Buffer.from(ctx.genesis).toString('utf8');
      const chain = await EvmChain.open(ctx.db, {
        genesis,
        clock: ctx.clock,
        acceptance: ctx.acceptance,
        multiCoin: config.multiCoin,
        ...(chainConfig.gasTarget === undefined ? {} : { gasTarget: chainConfig.gasTarget }),
      });
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

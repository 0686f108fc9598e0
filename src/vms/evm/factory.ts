// The EVM's factories: an EVM chain from its chain context, coreth's (the C-Chain) or Subnet-EVM's
// (an L1), with its JSON-RPC at /ext/bc/<id>/rpc and /ext/bc/<id>/ws in geth's dialect, for the
// C-Chain its atomic txs and their avax API at /ext/bc/<id>/avax, and for Subnet-EVM its validators
// API at /ext/bc/<id>/validators (both gorilla). Its namespaces follow the
// chain config's eth-apis as coreth and subnet-evm read them (debug and txpool off by default);
// --dev turns the developer namespaces on. A C-Chain config's gas-target sets the ACP-176 target the
// chain's blocks move toward.
import { loadKeccak } from '../../crypto/keccak.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { ChainContext, ChainRoute, ChainVM, VmFactory } from '../../chains/manager.js';
import { unixSeconds } from '../../chains/clock.js';
import { hrpOf, LOCAL_NODE, PRIMARY_NETWORK_ID } from '../../chains/ids.js';
import { AtomicBackend } from './atomic/backend.js';
import { avaxService } from './atomic/service.js';
import { warpService } from './api/warp.js';
import { WARP_ADDRESS_HEX } from './warp/precompile.js';
import { publicKeyOf } from '../components/warp/bls.js';
import { type HeldValidator, LOCAL_STAKERS, type WarpValidator } from './warp/signers.js';
import { decodeCB58, encodeCB58 } from '../../encoding/cb58.js';
import type { ServiceDef } from '../../rpc/method.js';
import { corethMethods } from './api/coreth.js';
import { debugService } from './api/debug.js';
import { devServices } from './api/dev.js';
import type { NodeStates } from '../../chains/states.js';
import { ethService } from './api/eth.js';
import { FilterSystem, filterService } from './api/filters.js';
import { GasOracle } from './api/gas.js';
import { netService, web3Service } from './api/net.js';
import { subnetEvmMethods } from './api/subnetevm.js';
import { txpoolService } from './api/txpool.js';
import { validatorsService } from './api/validators.js';
import { EvmChain } from './chain.js';
import type { EvmChainOptions } from './chaintypes.js';
import { chainConfigJson } from './chainconfig.js';
import { corethFlavor, subnetEvmFlavor } from './flavor.js';
import { GenesisError, parseGenesisJson } from './genesis.js';
import { barePrecompile } from './precompiles/config.js';
import { BLACKHOLE } from './rules.js';
import { isActive, subnetEvmConfig } from './subnetevm.js';

export interface EvmConfig {
  /** coreth's rules (the C-Chain) or Subnet-EVM's (L1s). */
  kind: 'coreth' | 'subnet-evm';
  /** Serves services in geth's dialect, over HTTP and websockets. */
  serve(services: ServiceDef[]): ChainRoute;
  /** Serves services in avalanchego's gorilla dialect (coreth's avax API, Subnet-EVM's validators API). */
  serveGorilla(services: ServiceDef[]): ChainRoute;
  /** --dev */
  dev: boolean;
  /** With --dev, the test accounts' keys: eth_accounts and eth_sendTransaction. */
  devKeys?: Uint8Array[];
  /** The validators of every L1 the node runs, by subnet ID (CB58): shared by all EVM chains, for warp. */
  l1Validators: Map<string, WarpValidator[]>;
  /**
   * A subnet's validators as the P-Chain holds them (undefined for a subnet it does not know): what
   * warp verification, aggregation and the validators API follow, as a real node's validator state.
   */
  subnetValidators?: (subnetID: Uint8Array) => SubnetMember[] | undefined;
  /** With --dev, the whole node's snapshots, for evm_snapshot, evm_revert, anvil_dumpState, anvil_loadState and anvil_reset. */
  states?: NodeStates | undefined;
}

/** One validator of a subnet, as the P-Chain's state gives it. */
export interface SubnetMember {
  nodeID: string;
  publicKey?: Uint8Array;
  weight: bigint;
  /** An L1 validator's validation ID, or the staker tx ID of a permissioned subnet's validator. */
  validationID: Uint8Array;
  startTime: bigint;
  active: boolean;
  l1: boolean;
}

export interface EvmChainVM extends ChainVM {
  readonly evm: EvmChain;
  /** The validators that sign this chain's warp messages for a subnet (CB58), with the keys this process holds. */
  warpValidatorsOf(subnetID: string): WarpValidator[];
}

/** coreth's and subnet-evm's default eth-apis. */
const DEFAULT_APIS = ['eth', 'eth-filter', 'net', 'web3', 'internal-eth', 'internal-blockchain', 'internal-transaction'];

export class ChainConfigError extends Error {}

/** The parts of coreth's chain config (`<chain-config-dir>/<chain>/config.json`) the emulator reads. */
interface ChainConfig {
  apis: string[];
  /** warp-api-enabled: the warp namespace on /rpc and /ws. */
  warpApi: boolean;
  gasTarget?: bigint;
  /** Subnet-EVM's feeRecipient: the coinbase of this node's blocks when the chain lets producers choose. */
  feeRecipient?: Uint8Array;
  /** emulator-validators (not a subnet-evm key): an L1's validators besides the node. */
  validators: HeldValidator[];
}

/** An L1's emulator-validators as its chain config gives them (for the node's ConvertSubnetToL1Tx). */
export const l1ValidatorsFromConfig = (config: Uint8Array | undefined): HeldValidator[] => readChainConfig(config).validators;

function readChainConfig(config: Uint8Array | undefined): ChainConfig {
  if (!config || config.length === 0) return { apis: DEFAULT_APIS, warpApi: false, validators: [] };
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
  const feeRecipient = parsed.feeRecipient;
  if (feeRecipient !== undefined && (typeof feeRecipient !== 'string' || !/^(0x)?[0-9a-fA-F]{40}$/.test(feeRecipient))) {
    throw new ChainConfigError(`failed to unmarshal config ${text.slice(0, 64)}: invalid feeRecipient ${JSON.stringify(feeRecipient)}`);
  }
  return {
    apis: Array.isArray(list) ? list.map(String) : DEFAULT_APIS,
    warpApi: parsed['warp-api-enabled'] === true,
    validators: readValidators(parsed['emulator-validators'], text),
    ...(typeof feeRecipient === 'string' ? { feeRecipient: new Uint8Array(Buffer.from(feeRecipient.replace(/^0x/i, ''), 'hex')) } : {}),
    ...(typeof gasTarget === 'number' ? { gasTarget: BigInt(gasTarget) } : {}),
  };
}

/**
 * emulator-validators: [{ "nodeID": "NodeID-…", "weight": 100, "blsSecretKey": "0x<32 bytes>",
 * "offline": false }]: validators of an L1 besides the node, each with its own BLS key, so that warp
 * quorums and weights can be tested. An offline one keeps its weight and signs nothing.
 */
function readValidators(raw: unknown, text: string): HeldValidator[] {
  if (raw === undefined || raw === null) return [];
  const bad = (why: string) => new ChainConfigError(`failed to unmarshal config ${text.slice(0, 64)}: emulator-validators: ${why}`);
  if (!Array.isArray(raw)) throw bad('not an array');
  return raw.map((v, i) => {
    const o = (v ?? {}) as { nodeID?: unknown; weight?: unknown; blsSecretKey?: unknown; offline?: unknown };
    if (typeof o.nodeID !== 'string' || !/^NodeID-[1-9A-HJ-NP-Za-km-z]+$/.test(o.nodeID)) throw bad(`[${i}].nodeID must be a NodeID-… string`);
    if (typeof o.weight !== 'number' || !Number.isSafeInteger(o.weight) || o.weight <= 0) throw bad(`[${i}].weight must be a positive integer`);
    if (typeof o.blsSecretKey !== 'string' || !/^(0x)?[0-9a-fA-F]{64}$/.test(o.blsSecretKey)) throw bad(`[${i}].blsSecretKey must be 32 bytes of hex`);
    const secretKey = new Uint8Array(Buffer.from(o.blsSecretKey.replace(/^0x/i, ''), 'hex'));
    try {
      publicKeyOf(secretKey);
    } catch {
      throw bad(`[${i}].blsSecretKey is not a BLS12-381 secret key`);
    }
    return { nodeID: o.nodeID, weight: BigInt(o.weight), secretKey, ...(o.offline === true ? { offline: true } : {}) };
  });
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

/** The node's weight as its L1s' one validator. */
const L1_VALIDATOR_WEIGHT = 100n;

/** coreth's warp precompile, which Durango schedules at its own time (all of them, locally, at genesis). */
const INITIALLY_ACTIVE = 1607144400;

/** The chain's rules and what only its kind serves. */
function chainOf(kind: EvmConfig['kind'], ctx: ChainContext, chainConfig: ChainConfig) {
  const gasTarget = chainConfig.gasTarget;
  const text = Buffer.from(ctx.genesis).toString('utf8');
  const genesis = parseGenesisJson(text);
  if (kind === 'coreth') {
    return {
      genesis,
      flavor: corethFlavor(gasTarget === undefined ? {} : { gasTarget }),
      genesisRules: { etna: true, granite: true },
      precompiles: [barePrecompile('warpConfig', WARP_ADDRESS_HEX, INITIALLY_ACTIVE)],
      baseRules: { allowFeeRecipients: false, feeRecipient: BLACKHOLE },
      extras: (_chain: EvmChain, gas: GasOracle) => corethMethods(gas, chainConfigJson(text)),
      subnet: undefined,
    };
  }
  const subnet = subnetEvmConfig(genesis, ctx.upgrade);
  const time = subnet.genesisTime;
  return {
    genesis,
    flavor: subnetEvmFlavor(subnet.feeConfig),
    genesisRules: {
      etna: isActive(subnet, 'etnaTimestamp', time),
      granite: isActive(subnet, 'graniteTimestamp', time),
      minBaseFee: subnet.feeConfig.minBaseFee,
    },
    precompiles: subnet.precompiles,
    stateUpgrades: subnet.stateUpgrades,
    baseRules: { feeConfig: subnet.feeConfig, allowFeeRecipients: subnet.allowFeeRecipients, feeRecipient: chainConfig.feeRecipient ?? BLACKHOLE },
    extras: (chain: EvmChain) => subnetEvmMethods(chain, subnet),
    subnet,
  };
}

export function evmFactory(config: EvmConfig): VmFactory<EvmChainVM> {
  /** BLS keys this process holds (the local stakers', the chain configs' emulator-validators), by public key. */
  // Public keys are derived on first use: a BLS scalar multiplication each, not worth paying at start-up.
  const holders: HeldValidator[] = [...LOCAL_STAKERS];
  let byKey: Map<string, HeldValidator> | undefined;
  const keyHex = (v: HeldValidator) => Buffer.from(publicKeyOf(v.secretKey)).toString('hex');
  const knownKeys = {
    add(v: HeldValidator): void {
      holders.push(v);
      byKey?.set(keyHex(v), v);
    },
    get(pk: string): HeldValidator | undefined {
      byKey ??= new Map(holders.map((v) => [keyHex(v), v]));
      return byKey.get(pk);
    },
  };
  return {
    proposervm: true,
    async create(ctx: ChainContext): Promise<EvmChainVM> {
      await loadKeccak();
      const chainConfig = readChainConfig(ctx.config);
      const on = namespaces(chainConfig.apis, config.dev);
      let rules: ReturnType<typeof chainOf>;
      try {
        rules = chainOf(config.kind, ctx, chainConfig);
      } catch (err) {
        if (err instanceof GenesisError) throw new ChainConfigError(err.message);
        throw err;
      }
      // The primary network's validators are the local stakers.
      const [self] = LOCAL_STAKERS;
      // Every other subnet is one of the node's L1s: the node, and the chain config's other validators.
      const l1Set = [{ ...self!, weight: L1_VALIDATOR_WEIGHT }, ...chainConfig.validators];
      if (config.kind === 'subnet-evm') config.l1Validators.set(encodeCB58(ctx.subnetID), l1Set);
      for (const v of l1Set) knownKeys.add(v);
      /**
       * The P-Chain's set when it knows the subnet, signing when this process holds a member's secret.
       * As avalanchego's GetValidatorSet, inactive L1 validators and validators without a key keep
       * their weight in the total and sign nothing.
       */
      const fromP = (subnetID: string): WarpValidator[] | undefined =>
        config.subnetValidators?.(decodeCB58(subnetID))?.map((m) => {
          if (!m.active || !m.publicKey) return { nodeID: m.nodeID, weight: m.weight };
          const known = knownKeys.get(Buffer.from(m.publicKey).toString('hex'));
          return known ? { ...known, nodeID: m.nodeID, weight: m.weight } : { nodeID: m.nodeID, weight: m.weight, publicKey: m.publicKey };
        });
      const validatorsOf = (subnetID: string): WarpValidator[] =>
        fromP(subnetID) ?? (subnetID === PRIMARY_NETWORK_ID ? LOCAL_STAKERS : (config.l1Validators.get(subnetID) ?? []));
      const warpJson = rules.precompiles.find((p) => p.key === 'warpConfig')?.json as
        | { quorumNumerator?: number; requirePrimaryNetworkSigners?: boolean }
        | undefined;
      const options: EvmChainOptions = {
        clock: ctx.clock,
        acceptance: ctx.acceptance,
        ...(ctx.stalled ? { stalled: ctx.stalled } : {}),
        ...(config.dev ? { dev: true } : {}),
        genesis: rules.genesis,
        flavor: rules.flavor,
        genesisRules: rules.genesisRules,
        precompiles: rules.precompiles,
        baseRules: rules.baseRules,
        ...('stateUpgrades' in rules ? { stateUpgrades: rules.stateUpgrades } : {}),
        warp: { networkID: ctx.networkID, blockchainID: ctx.chainID },
        warpReceive: {
          networkID: ctx.networkID,
          subnetID: ctx.subnetID,
          subnetOf: (chainID) => ctx.subnetOf(chainID),
          validatorsOf,
          quorumNumerator: Number(warpJson?.quorumNumerator ?? 0),
          requirePrimaryNetworkSigners: warpJson?.requirePrimaryNetworkSigners === true,
        },
      };
      const chain = await EvmChain.open(ctx.db, options);
      ctx.onResume?.(() => chain.resumeBuilding());
      chain.on('buildFailed', (err) => ctx.log.error('failed to accept block', { error: err.message }));
      const filters = new FilterSystem(chain);
      const gas = new GasOracle(chain, ctx.clock);
      const eth = ethService({
        chain,
        gas,
        clock: ctx.clock,
        devKeys: config.devKeys ?? [],
        accountsApi: config.dev || chainConfig.apis.includes('internal-account'),
      });
      const ethFilters = filterService(filters);
      const services: ServiceDef[] = [];
      if (on.has('eth')) services.push({ name: 'eth', methods: { ...eth.methods, ...ethFilters.methods, ...rules.extras(chain, gas) } });
      if (on.has('net')) services.push(netService(chain.chainId));
      if (on.has('web3')) services.push(web3Service(chain.flavor.clientVersion));
      if (on.has('txpool')) services.push(txpoolService(chain));
      if (on.has('debug')) services.push(debugService(chain));
      if (config.dev) services.push(...devServices(chain, gas, config.states));
      if (chainConfig.warpApi) {
        services.push(
          warpService({
            chain,
            networkID: ctx.networkID,
            blockchainID: ctx.chainID,
            subnetID: ctx.subnetID,
            secretKey: self!.secretKey,
            validatorsOf,
          }),
        );
      }
      const route = config.serve(services.map((service) => readsAfterBlocks(service, chain)));
      const handlers = new Map<string, ChainRoute>([
        ['/rpc', { http: route.http }],
        ['/ws', { ws: route.ws }],
      ]);
      const avaxAssetID = ctx.avaxAssetID?.();
      if (config.kind === 'coreth' && avaxAssetID) {
        // coreth's atomic txs: their own database within the chain's, shared memory with the primary network.
        const backend = new AtomicBackend(
          chain,
          ctx.shared,
          ctx.db.prefix('atomic'),
          {
            networkID: ctx.networkID,
            chainID: ctx.chainID,
            subnetID: ctx.subnetID,
            avaxAssetID,
            subnetOf: (chainID) => ctx.subnetOf(chainID),
            now: () => unixSeconds(ctx.clock),
          },
          ctx.clock,
        );
        chain.setExtension(backend);
        handlers.set('/avax', config.serveGorilla([avaxService({ backend, shared: ctx.shared, aliases: ctx.aliases, hrp: hrpOf(ctx.networkID) })]));
      } else if (config.kind === 'coreth') {
        ctx.log.warn('no AVAX asset on the primary network yet: the C-Chain runs without atomic txs');
      }
      if (rules.subnet) {
        // The L1's validators as a ConvertSubnetToL1Tx's: the node first (index 0), then the others.
        const since = await startTimestamp(ctx);
        const fixed = l1Set.map((v, i) => {
          const index = Buffer.alloc(4);
          index.writeUInt32BE(i);
          return {
            validationID: sha256(Buffer.concat([ctx.subnetID, index])),
            nodeID: i === 0 ? LOCAL_NODE.nodeID : v.nodeID,
            weight: v.weight,
            startTimestamp: since,
            isL1Validator: true,
            active: true,
            connected: !v.offline,
          };
        });
        // The P-Chain's view when it knows the subnet: every L1 validator, active while its balance lasts.
        const validators = () =>
          config.subnetValidators?.(ctx.subnetID)?.map((m) => {
            const known = m.publicKey ? knownKeys.get(Buffer.from(m.publicKey).toString('hex')) : undefined;
            return {
              validationID: m.validationID,
              nodeID: m.nodeID,
              weight: m.weight,
              startTimestamp: m.startTime,
              isL1Validator: m.l1,
              active: m.active,
              connected: m.nodeID === LOCAL_NODE.nodeID || (known !== undefined && !known.offline),
            };
          }) ?? fixed;
        handlers.set('/validators', config.serveGorilla([validatorsService({ clock: ctx.clock, validators })]));
      }
      return {
        evm: chain,
        warpValidatorsOf: validatorsOf,
        genesisID: chain.genesis.hash,
        genesisTimestamp: chain.genesis.header.time,
        handlers,
        start: () => chain.start(),
        hold: () => chain.hold(),
        async reload() {
          // coreth's atomic mempool lives in memory only: with a tx in it, the node is rebuilt (as a restart drops it).
          if (chain.extension?.hasPending()) return false;
          await chain.reload();
          return true;
        },
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

/** When the node first created the chain (kept in its database): its validator's start time. */
async function startTimestamp(ctx: ChainContext): Promise<bigint> {
  const meta = ctx.db.prefix('validators');
  const key = new Uint8Array(Buffer.from('start'));
  const stored = await meta.get(key);
  if (stored) return Buffer.from(stored).readBigUInt64BE(0);
  const now = ctx.clock.nowNs() / 1_000_000_000n;
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(now);
  await meta.put(key, new Uint8Array(b));
  return now;
}

/** What answers without the chain's state: these need not wait for a block round. */
const STATELESS = new Set(['eth_chainId', 'net_version', 'net_listening', 'net_peerCount', 'web3_clientVersion', 'web3_sha3']);
/** Sends answer at admission: a send that waited for the round would put every awaited send in a block of its own. */
const SENDS = new Set(['eth_sendRawTransaction', 'eth_sendTransaction']);

/**
 * A service whose methods first wait for the block round a send started (EvmChain.settled): a client
 * that reads after a send finds its tx mined, as on a dev node that mines each tx before answering.
 */
function readsAfterBlocks(service: ServiceDef, chain: EvmChain): ServiceDef {
  const methods: ServiceDef['methods'] = {};
  for (const [name, def] of Object.entries(service.methods)) {
    const full = `${service.name}_${name}`;
    methods[name] =
      STATELESS.has(full) || SENDS.has(full)
        ? def
        : {
            params: def.params,
            handler: (args, ctx) => {
              const pending = chain.settled();
              return pending ? pending.then(() => def.handler(args, ctx)) : def.handler(args, ctx);
            },
          };
  }
  return { name: service.name, methods };
}

// The parts of an EVM chain's VM, as the factory assembles them: the keys this process holds and the
// warp validator sets they sign in, the chain's options, its JSON-RPC namespaces, the C-Chain's
// atomic txs and avax API, an L1's validators API, and the VM the chain manager runs.
import { sha256 } from '../../crypto/sha256.js';
import type { ChainContext, ChainRoute } from '../../chains/manager.js';
import { unixSeconds } from '../../chains/clock.js';
import { hrpOf, LOCAL_NODE, PRIMARY_NETWORK_ID } from '../../chains/ids.js';
import { decodeCB58, encodeCB58 } from '../../encoding/cb58.js';
import type { ServiceDef } from '../../rpc/method.js';
import { publicKeyOf } from '../components/warp/bls.js';
import { debugService } from './api/debug.js';
import { devClientVersion, devEthMethods, devServices } from './api/dev.js';
import { ethService } from './api/eth.js';
import { keyRing } from './api/accounts.js';
import { rawDebugMethods } from './api/rawdebug.js';
import { stateDebugMethods } from './api/statedump.js';
import { blockTraceMethods, fileTraceMethods } from './api/debugblocks.js';
import { traceChainService } from './api/tracechain.js';
import { otterscanServices } from './api/otterscan.js';
import { personalService } from './api/signing.js';
import { type FilterSystem, filterService } from './api/filters.js';
import { GasOracle } from './api/gas.js';
import { netService, web3Service } from './api/net.js';
import { txpoolService } from './api/txpool.js';
import { validatorsService } from './api/validators.js';
import { warpService } from './api/warp.js';
import { AtomicBackend } from './atomic/backend.js';
import { avaxService } from './atomic/service.js';
import type { EvmChain } from './chain.js';
import { type ChainConfig, namespaces } from './chainfile.js';
import { type ChainRulesOf, chainOf } from './chainrules.js';
import type { EvmChainOptions } from './chaintypes.js';
import { type ForkedL1Rules, forkedL1Rules } from './fork/l1genesis.js';
import { ForkError, onceSettings } from './fork/open.js';
import { GenesisError } from './genesis.js';
import type { EvmChainVM, EvmConfig } from './vmtypes.js';
import { offChainMessages } from './warp/offchain.js';
import { type HeldValidator, LOCAL_STAKERS, type WarpValidator } from './warp/signers.js';

/** The node's weight as its L1s' one validator. */
const L1_VALIDATOR_WEIGHT = 100n;

/** BLS keys this process holds (the local stakers', the chain configs' emulator-validators), by public key. */
export class HeldKeys {
  private readonly holders: HeldValidator[] = [...LOCAL_STAKERS];
  // Public keys are derived on first use: a BLS scalar multiplication each, not worth paying at start-up.
  private byKey: Map<string, HeldValidator> | undefined;

  add(v: HeldValidator): void {
    this.holders.push(v);
    this.byKey?.set(keyHex(v), v);
  }

  get(publicKey: Uint8Array): HeldValidator | undefined {
    this.byKey ??= new Map(this.holders.map((v) => [keyHex(v), v]));
    return this.byKey.get(Buffer.from(publicKey).toString('hex'));
  }
}

const keyHex = (v: HeldValidator) => Buffer.from(publicKeyOf(v.secretKey)).toString('hex');

/**
 * The chain's L1 validators as this node sets them up: the node, then the chain config's others. A
 * Subnet-EVM chain's are every EVM chain's view of its subnet until the P-Chain knows it.
 */
export function l1ValidatorSet(config: EvmConfig, ctx: ChainContext, chainConfig: ChainConfig, keys: HeldKeys): HeldValidator[] {
  const [self] = LOCAL_STAKERS;
  const l1Set = [{ ...self!, weight: L1_VALIDATOR_WEIGHT }, ...chainConfig.validators];
  if (config.kind === 'subnet-evm') config.l1Validators.set(encodeCB58(ctx.subnetID), l1Set);
  for (const v of l1Set) keys.add(v);
  return l1Set;
}

/**
 * The validators that sign for a subnet: the P-Chain's set when it knows the subnet, signing when
 * this process holds a member's secret. As avalanchego's GetValidatorSet, inactive L1 validators and
 * validators without a key keep their weight in the total and sign nothing. Else the local stakers
 * (the primary network) or the L1's set as the node made it.
 */
export function warpValidators(config: EvmConfig, keys: HeldKeys): (subnetID: string) => WarpValidator[] {
  const fromP = (subnetID: string): WarpValidator[] | undefined =>
    config.subnetValidators?.(decodeCB58(subnetID))?.map((m) => {
      if (!m.active || !m.publicKey) return { nodeID: m.nodeID, weight: m.weight };
      const known = keys.get(m.publicKey);
      return known ? { ...known, nodeID: m.nodeID, weight: m.weight } : { nodeID: m.nodeID, weight: m.weight, publicKey: m.publicKey };
    });
  return (subnetID) => fromP(subnetID) ?? (subnetID === PRIMARY_NETWORK_ID ? LOCAL_STAKERS : (config.l1Validators.get(subnetID) ?? []));
}

/**
 * Where a chain prints console.sol's logs: its logger, at INFO (the default display level), a line
 * each as Anvil prints them, with the tx or the method they came from.
 */
function consolePrinter(ctx: ChainContext): NonNullable<EvmChainOptions['consoleLog']> {
  return (lines, from) => {
    for (const line of lines) ctx.log.info(`console.log: ${line}`, from);
  };
}

/** What the chain is opened with. */
export function chainOptions(
  config: EvmConfig,
  ctx: ChainContext,
  rules: ChainRulesOf,
  chainConfig: ChainConfig,
  validatorsOf: (subnetID: string) => WarpValidator[],
): EvmChainOptions {
  // After the config and the genesis, as subnet-evm's Initialize makes its warp backend.
  const offChain = offChainMessages(chainConfig.offChainMessages, ctx.networkID, ctx.chainID);
  const warpJson = rules.precompiles.find((p) => p.key === 'warpConfig')?.json as
    | { quorumNumerator?: number; requirePrimaryNetworkSigners?: boolean }
    | undefined;
  return {
    clock: ctx.clock,
    acceptance: ctx.acceptance,
    unprotected: chainConfig.unprotected,
    ...(chainConfig.preimages || config.dev ? { preimages: true } : {}),
    ...(offChain.size > 0 ? { offChainWarpMessages: offChain } : {}),
    ...(ctx.stalled ? { stalled: ctx.stalled } : {}),
    ...(config.dev ? { dev: true } : {}),
    ...(config.consoleLog ? { consoleLog: consolePrinter(ctx) } : {}),
    genesis: rules.genesis,
    flavor: rules.flavor,
    genesisRules: rules.genesisRules,
    precompiles: rules.precompiles,
    baseRules: rules.baseRules,
    ...('stateUpgrades' in rules ? { stateUpgrades: rules.stateUpgrades } : {}),
    ...('upgradesFrom' in rules ? { upgradesFrom: rules.upgradesFrom } : {}),
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
}

/** The chain's JSON-RPC at /rpc and /ws: the namespaces its chain config turns on (all with --dev). */
export function rpcHandlers(
  config: EvmConfig,
  ctx: ChainContext,
  chain: EvmChain,
  chainConfig: ChainConfig,
  rules: ChainRulesOf,
  filters: FilterSystem,
  validatorsOf: (subnetID: string) => WarpValidator[],
): Map<string, ChainRoute> {
  const on = namespaces(chainConfig.apis, config.dev);
  const gas = new GasOracle(chain);
  // The node's own keys (--dev: the test accounts), for every method that signs.
  const ring = keyRing(config.devKeys ?? []);
  const eth = ethService({
    chain,
    gas,
    clock: ctx.clock,
    ring,
    accountsApi: config.dev || chainConfig.apis.includes('internal-account'),
    dev: config.dev,
  });
  const services: ServiceDef[] = [];
  const devEth = config.dev ? devEthMethods(chain, gas, ring) : {};
  if (on.has('eth')) services.push({ name: 'eth', methods: { ...eth.methods, ...filterService(filters).methods, ...rules.extras(chain, gas), ...devEth } });
  if (on.has('net')) services.push(netService(chain.chainId));
  if (on.has('web3')) services.push(web3Service(config.dev ? devClientVersion(chain) : chain.flavor.clientVersion));
  if (on.has('txpool')) services.push(txpoolService(chain));
  const debug = {
    ...(on.has('debug-tracer') ? { ...debugService(chain).methods, ...blockTraceMethods(chain), ...traceChainService(chain) } : {}),
    ...(on.has('debug-file-tracer') ? fileTraceMethods(chain) : {}),
    ...(on.has('internal-debug') ? rawDebugMethods(chain) : {}),
    ...(on.has('debug') ? stateDebugMethods(chain) : {}),
  };
  if (Object.keys(debug).length > 0) services.push({ name: 'debug', methods: debug });
  // A chain's fork is Anvil's to change (anvil_reset with forking, anvil_setRpcUrl); an L1 takes
  // the rules of the chain it forks.
  const start = config.kind === 'coreth' ? {} : { rules: (url: string) => checkedL1Rules(config, ctx, chainConfig, url) };
  const fork = config.forks?.control(encodeCB58(ctx.chainID), start);
  if (config.dev) services.push(...devServices(chain, gas, config.states, fork), personalService(ring), ...otterscanServices(chain));
  if (chainConfig.warpApi) {
    const [self] = LOCAL_STAKERS;
    const ids = { networkID: ctx.networkID, blockchainID: ctx.chainID, subnetID: ctx.subnetID };
    const pChainHeight = () => ctx.pChainHeight?.() ?? 0n;
    services.push(warpService({ chain, ...ids, secretKey: self!.secretKey, validatorsOf, pChainHeight }));
  }
  const route = config.serve(services.map((service) => readsAfterBlocks(service, chain)));
  return new Map<string, ChainRoute>([
    ['/rpc', { http: route.http }],
    ['/ws', { ws: route.ws }],
  ]);
}

/**
 * The rules of the L1 at `url` (asked once, within seconds: anvil_reset waits on it), refused as the
 * chain's genesis would be if this node cannot run them. The node's own upgrade.json for the chain
 * wins over the upstream's, as for --fork-l1.
 */
async function checkedL1Rules(config: EvmConfig, ctx: ChainContext, chainConfig: ChainConfig, url: string): Promise<ForkedL1Rules> {
  const rules = await forkedL1Rules(onceSettings(config.forks?.upstreamSettings ?? { offline: false }), url);
  try {
    const upgrade = ctx.upgrade ?? rules.upgrade;
    chainOf('subnet-evm', { ...ctx, genesis: rules.genesis, ...(upgrade ? { upgrade } : {}) }, chainConfig);
  } catch (err) {
    if (!(err instanceof GenesisError)) throw err;
    const whose = ctx.upgrade ? `${new URL(url).origin}'s rules with this node's upgrade.json for the chain` : `${new URL(url).origin}'s rules`;
    throw new ForkError(`${whose} cannot run here: ${err.message}`);
  }
  return rules;
}

/** coreth's atomic txs on the C-Chain: their own database within the chain's, shared memory with the primary network, and the avax API. */
export function addAtomic(config: EvmConfig, ctx: ChainContext, chain: EvmChain, handlers: Map<string, ChainRoute>): void {
  if (config.kind !== 'coreth') return;
  const avaxAssetID = ctx.avaxAssetID?.();
  if (!avaxAssetID) {
    ctx.log.warn('no AVAX asset on the primary network yet: the C-Chain runs without atomic txs');
    return;
  }
  const params = {
    networkID: ctx.networkID,
    chainID: ctx.chainID,
    subnetID: ctx.subnetID,
    avaxAssetID,
    subnetOf: (chainID: Uint8Array) => ctx.subnetOf(chainID),
    now: () => unixSeconds(ctx.clock),
  };
  const backend = new AtomicBackend(chain, ctx.shared, ctx.db.prefix('atomic'), params, ctx.clock);
  chain.setExtension(backend);
  handlers.set('/avax', config.serveGorilla([avaxService({ backend, shared: ctx.shared, aliases: ctx.aliases, hrp: hrpOf(ctx.networkID) })]));
}

/** An L1's validators API: the P-Chain's view when it knows the subnet, else its ConvertSubnetToL1Tx's. */
export async function l1ValidatorsRoute(config: EvmConfig, ctx: ChainContext, l1Set: HeldValidator[], keys: HeldKeys): Promise<ChainRoute> {
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
      const known = m.publicKey ? keys.get(m.publicKey) : undefined;
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
  return config.serveGorilla([validatorsService({ clock: ctx.clock, validators })]);
}

/** The VM the chain manager runs: the chain, its routes, its lifecycle and its consensus state. */
export function chainVM(
  chain: EvmChain,
  filters: FilterSystem,
  handlers: Map<string, ChainRoute>,
  validatorsOf: (subnetID: string) => WarpValidator[],
): EvmChainVM {
  return {
    evm: chain,
    warpValidatorsOf: validatorsOf,
    genesisID: chain.genesis.hash,
    genesisTimestamp: chain.genesis.header.time,
    handlers,
    start: () => chain.start(),
    hold: () => chain.hold(),
    async reload(changes) {
      // coreth's atomic mempool lives in memory only: with a tx in it, the node is rebuilt (as a restart drops it).
      if (chain.extension?.hasPending()) return false;
      // A rollback to the other side of a fork (a state loaded since the snapshot): the chain's fork is opened again.
      if (chain.forkRewritten(changes)) return false;
      await chain.reload(changes);
      return true;
    },
    reverted: () => chain.dev.reverted(),
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
const SENDS = new Set(['eth_sendRawTransaction', 'eth_sendTransaction', 'eth_sendUnsignedTransaction']);

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

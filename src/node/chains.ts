// The node's VMs and chains: the factories of the platform VM, the AVM, coreth and Subnet-EVM; the
// primary network's chains in avalanchego's order; and the chains of subnets, created as the
// P-Chain learns of them (and at start-up, for those it already knows).
import { LOCAL_NODE, VM_IDS } from '../chains/ids.js';
import type { ChainManager } from '../chains/manager.js';
import { encodeCB58 } from '../encoding/cb58.js';
import { L1Error } from '../genesis/l1.js';
import { nodeIDBytes } from '../genesis/platform.js';
import { primaryNetworkChains } from '../genesis/primary.js';
import { avmFactory, testAccounts } from '../vms/avm/index.js';
import { evmFactory, type SubnetMember } from '../vms/evm/index.js';
import { type CreatedChain, platformFactory, subnetMembers } from '../vms/platform/index.js';
import type { Endpoints } from './endpoints.js';
import { readChainFile, saysSomething } from './files.js';
import { CREATE_ASSET_TX_FEE, type Shell, StartError, TX_FEE } from './shell.js';
import type { NodeVMs } from './vms.js';
import { fromHex, toHex } from '../encoding/bytes.js';

/**
 * Creates the chains of subnets: those of --l1 (by hex chain ID, with the flag's file) must start
 * or the node does not; for others, as avalanchego's chain manager, a failure is logged and the node goes on.
 */
export class SubnetChains {
  /** Aliases of the chains of --l1, by hex chain ID (their file names). */
  readonly aliases = new Map<string, string[]>();
  /** The --l1 file each such chain comes from, by hex chain ID: its errors name the flag. */
  readonly strict = new Map<string, string>();
  /** Chains the P-Chain created before the node was ready to run them. */
  private readonly pending: CreatedChain[] = [];
  private ready = false;
  private readonly createdHooks: Array<(id: string) => Promise<void>> = [];

  constructor(
    private readonly shell: Shell,
    private readonly manager: ChainManager,
    private readonly extraAliases: Record<string, string[]>,
  ) {}

  /** What the P-Chain calls for each chain a CreateChainTx makes. */
  async created(c: CreatedChain): Promise<void> {
    if (this.ready) await this.create(c);
    else this.pending.push(c);
  }

  /** Runs after each chain this creates from now on has started (ICM's placement). */
  onCreated(hook: (id: string) => Promise<void>): void {
    this.createdHooks.push(hook);
  }

  /** From now on chains are created as they come; those that came before are created now. */
  async start(known: CreatedChain[]): Promise<void> {
    this.ready = true;
    for (const c of known) await this.create(c);
    for (const c of this.pending.splice(0)) await this.create(c);
  }

  async create(c: CreatedChain): Promise<void> {
    const id = encodeCB58(c.chainID);
    if (this.manager.get(id)) return;
    const hexID = Buffer.from(c.chainID).toString('hex');
    const strict = this.strict.get(hexID);
    const aliases = [...(this.aliases.get(hexID) ?? []), ...(this.extraAliases[id] ?? [])];
    const dir = this.shell.config.chainConfigDir;
    try {
      await this.manager.createChain({
        subnetID: c.subnetID,
        chainID: c.chainID,
        vmID: encodeCB58(c.vmID),
        genesis: c.genesis,
        aliases,
        config: await readChainFile(dir, [id, ...aliases], 'config.json'),
        // The node's own; a forked L1's factory adds its upstream's where the node has none.
        upgrade: await readChainFile(dir, [id, ...aliases], 'upgrade.json'),
      });
    } catch (err) {
      // `strict` is an --l1 file's path, or a --fork-l1 flag as written.
      const flag = strict?.startsWith('--') ? strict : `--l1=${strict}`;
      if (strict) throw (err as Error).message.startsWith(flag) ? err : new L1Error(`${flag}: ${(err as Error).message}`);
      this.shell.main.error('error creating chain', {
        subnetID: encodeCB58(c.subnetID),
        chainID: id,
        chainAlias: id,
        vmID: encodeCB58(c.vmID),
        error: (err as Error).message,
      });
      return;
    }
    try {
      for (const hook of this.createdHooks) await hook(id);
    } catch (err) {
      this.shell.main.error('error setting up chain', { chainID: id, error: (err as Error).message });
    }
  }
}

/** Registers the four VMs the node runs, each noted in `vms` as it makes chains. */
export function registerVMs(shell: Shell, manager: ChainManager, vms: NodeVMs, serve: Endpoints, subnets: SubnetChains): void {
  const { config, startedAt } = shell;
  manager.registerVM(
    VM_IDS.platform,
    vms.platform(
      platformFactory({
        hrp: config.hrp,
        nodeID: Buffer.from(nodeIDBytes(LOCAL_NODE.nodeID)).toString('hex'),
        startedAt: BigInt(Math.floor(startedAt / 1000)),
        serve: serve.serve,
        runsChain: (idOrAlias) => manager.get(idOrAlias)?.id,
        onChainCreated: (c) => subnets.created(c),
      }),
    ),
  );
  manager.registerVM(
    VM_IDS.avm,
    vms.avm(
      avmFactory({
        hrp: config.hrp,
        txFee: TX_FEE,
        createAssetTxFee: CREATE_ASSET_TX_FEE,
        blockIntervalMs: Number(config.xBlockIntervalNs / 1_000_000n),
        serve: serve.serve,
      }),
    ),
  );
  const evm = {
    serve: serve.serveGeth,
    serveGorilla: serve.serve,
    dev: config.dev,
    consoleLog: config.consoleLog,
    // --dev: the test accounts sign for eth_sendTransaction on every EVM chain.
    devKeys: config.dev ? testAccounts(config.testAccounts).map((a) => a.privateKey) : [],
    l1Validators: new Map(),
    subnetValidators: (subnetID: Uint8Array) => subnetValidators(vms, subnetID),
    states: shell.states,
    forks: shell.forks,
    devSettingsOf: (chainID: string) => shell.devSettings?.get(chainID),
  };
  manager.registerVM(VM_IDS.evm, vms.evm(evmFactory({ kind: 'coreth', ...evm }), true));
  manager.registerVM(VM_IDS.subnetEvm, vms.evm(evmFactory({ kind: 'subnet-evm', ...evm })));
}

/** Validator state for the EVM chains' warp and validators API: the P-Chain's sets. */
function subnetValidators(vms: NodeVMs, subnetID: Uint8Array): SubnetMember[] | undefined {
  return subnetMembers(vms.pChain.state.ledger, toHex(subnetID))?.map((m) => ({
    ...m,
    nodeID: `NodeID-${encodeCB58(fromHex(m.nodeID))}`,
    publicKey: m.publicKey ? fromHex(m.publicKey) : undefined,
    validationID: fromHex(m.validationID),
  }));
}

/** The primary network's chains, in avalanchego's order, each with its chain config and the aliases of --chain-aliases-file. */
export async function createPrimaryChains(shell: Shell, manager: ChainManager, extraAliases: Record<string, string[]>): Promise<void> {
  const dir = shell.config.chainConfigDir;
  for (const g of primaryNetworkChains(shell.config.networkId)) {
    const id = encodeCB58(g.chainID);
    const chainConfig = await readChainFile(dir, [id, ...g.aliases], 'config.json');
    const upgrade = await readChainFile(dir, [id, ...g.aliases], 'upgrade.json');
    if (saysSomething(upgrade)) throw new StartError(`${g.aliases[0] ?? id}: upgrade.json is read for Subnet-EVM chains only`);
    await manager.createChain({
      subnetID: new Uint8Array(32),
      chainID: g.chainID,
      vmID: g.vmID,
      genesis: g.genesis,
      aliases: [...g.aliases, ...(extraAliases[id] ?? [])],
      config: chainConfig,
    });
  }
}

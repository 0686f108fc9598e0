// Info API (avalanchego api/info): what clients ask first. avalanchejs builds its context from
// getNetworkID and getBlockchainID; tmpnet and wallets read getNodeID and getNodeVersion.
import { LOCAL_NODE, FX_IDS } from '../../chains/ids.js';
import type { Aliaser } from '../../chains/aliases.js';
import { NODE_VERSION, type VmRegistry } from '../../chains/vms.js';
import { method, rpcTry, serviceErrors, type ServiceDef } from '../../rpc/method.js';
import { none, nodeID, string, struct, arrayOf } from '../../rpc/schema.js';
import { LOCAL_UPGRADES } from '../../config/upgrades.js';

const errors = serviceErrors({
  noChain: () => "argument 'chain' not given",
  unknownChain: (chain: string) => `there is no chain with alias/ID '${chain}'`,
});

export interface InfoDeps {
  networkId: number;
  networkName: string;
  stakingAddress: () => string;
  /** Every chain the node knows of, by alias and ID. */
  chainAliases: Aliaser;
  vms: VmRegistry;
  txFee: bigint;
  createAssetTxFee: bigint;
}

export const DATABASE_VERSION = 'v1.4.5';
export const RPC_PROTOCOL_VERSION = '45';

export function infoService(d: InfoDeps): ServiceDef {
  return {
    name: 'info',
    methods: {
      getNodeVersion: method(none, () => ({
        version: NODE_VERSION,
        databaseVersion: DATABASE_VERSION,
        rpcProtocolVersion: RPC_PROTOCOL_VERSION,
        gitCommit: '',
        vmVersions: d.vms.versions(),
      })),
      getNodeID: method(none, () => ({
        nodeID: LOCAL_NODE.nodeID,
        nodePOP: { publicKey: LOCAL_NODE.publicKey, proofOfPossession: LOCAL_NODE.proofOfPossession },
      })),
      getNodeIP: method(none, () => ({ ip: d.stakingAddress() })),
      getNetworkID: method(none, () => ({ networkID: String(d.networkId) })),
      getNetworkName: method(none, () => ({ networkName: d.networkName })),
      getBlockchainID: method(struct({ alias: string }), ({ alias }) => ({ blockchainID: rpcTry(() => d.chainAliases.lookup(alias)) })),
      peers: method(struct({ nodeIDs: arrayOf(nodeID) }), () => ({ numPeers: '0', peers: [] })),
      isBootstrapped: method(struct({ chain: string }), ({ chain }) => {
        if (chain === '') throw errors.noChain();
        if (!d.chainAliases.has(chain)) throw errors.unknownChain(chain);
        return { isBootstrapped: true };
      }),
      upgrades: method(none, () => LOCAL_UPGRADES),
      // The node is the only validator, so it holds all of the stake and all of its uptime.
      uptime: method(none, () => ({ rewardingStakePercentage: '100.0000', weightedAveragePercentage: '100.0000' })),
      acps: method(none, () => ({ acps: {} })),
      getTxFee: method(none, () => ({
        txFee: String(d.txFee),
        createAssetTxFee: String(d.createAssetTxFee),
        createSubnetTxFee: '100000000',
        transformSubnetTxFee: '100000000',
        createBlockchainTxFee: '100000000',
        addPrimaryNetworkValidatorFee: '0',
        addPrimaryNetworkDelegatorFee: '0',
        addSubnetValidatorFee: '1000000',
        addSubnetDelegatorFee: '1000000',
      })),
      getVMs: method(none, () => ({
        vms: d.vms.vms(),
        fxs: Object.fromEntries(
          Object.entries(FX_IDS)
            .map(([name, id]) => [id, name])
            .sort(([a], [b]) => (a! < b! ? -1 : 1)),
        ),
      })),
    },
  };
}

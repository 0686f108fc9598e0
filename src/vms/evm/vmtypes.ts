// What the EVM's factory is configured with and what it makes: an EVM chain's VM.
import type { ChainRoute, ChainVM } from '../../chains/manager.js';
import type { NodeStates } from '../../chains/states.js';
import type { ServiceDef } from '../../rpc/method.js';
import type { EvmChain } from './chain.js';
import type { DevSettings } from './devcontrols.js';
import type { WarpValidator } from './warp/signers.js';

import type { ChainForks } from './fork/forks.js';

export interface EvmConfig {
  /** coreth's rules (the C-Chain) or Subnet-EVM's (L1s). */
  kind: 'coreth' | 'subnet-evm';
  /** Serves services in geth's dialect, over HTTP and websockets. */
  serve(services: ServiceDef[]): ChainRoute;
  /** Serves services in avalanchego's gorilla dialect (coreth's avax API, Subnet-EVM's validators API). */
  serveGorilla(services: ServiceDef[]): ChainRoute;
  /** --dev */
  dev: boolean;
  /** --dev without --disable-console-log: each chain prints console.sol's logs to its logger. */
  consoleLog?: boolean;
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
  /** --fork-url and --fork-l1: the forks of the node's chains. */
  forks?: ChainForks;
  /** A rebuilt node's chains: the dev settings of the chain of this blockchain ID (CB58) before the rebuild. */
  devSettingsOf?: (chainID: string) => DevSettings | undefined;
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

// What differs between the EVM chains the engine runs: coreth's C-Chain and Subnet-EVM's L1s. The
// header layout and accounts, the fee market (ACP-176 against Subnet-EVM's fee window), the pool's
// fee floors, and the genesis header. Everything else (execution, the pool, storage, the APIs) is
// the engine's, shared.
import type { CustomPrecompile } from '@ethereumjs/evm';
import { desiredTargetExcess, target } from './acp176.js';
import { CORETH_PRECOMPILES } from './execution.js';
import { blockFees, buildFloor, canBuild, extraAfter, headerMillis } from './fees.js';
import { type FeeConfig, windowExtra, windowFees } from './feewindow.js';
import { type CorethHeader, EMPTY_EXT_DATA_HASH, type HeaderLayout } from './header.js';
import type { ChainRules } from './precompiles/rules.js';

/** The fees and room of the next block. */
export interface NextFees {
  baseFee: bigint;
  gasLimit: bigint;
  /** The gas the block may use: ACP-176's capacity, or Subnet-EVM's gas limit. */
  room: bigint;
  /** ms until a block can be built at all (ACP-176's build floor); 0 = now. */
  waitMs: number;
  /** ms until `gas` more room than now, for txs a full block left over; 0 = the next block at once. */
  refillMs(gas: bigint): number;
  /**
   * The header's extraData once the block has used `gasUsed` (and `extDataGasUsed` for coreth's
   * atomic txs), with its warp predicate results (none: an empty map).
   */
  extra(gasUsed: bigint, predicateResults?: Uint8Array, extDataGasUsed?: bigint): Uint8Array;
  blockGasCost: bigint;
}

export interface EvmFlavor {
  layout: HeaderLayout;
  /** coreth's five-field accounts (the C-Chain); Subnet-EVM's are Ethereum's four. */
  multiCoin: boolean;
  /**
   * The pool's least fee cap (coreth: ACP-176's 1 wei floor; Subnet-EVM: the minBaseFee of the fee
   * config in force). Neither has a least tip: both set the pool's to 0 at start-up.
   */
  minFeeCap(rules: ChainRules): bigint;
  /** The fees of the child of `parent` at `timeMs`, under the rules the parent's state sets. */
  nextFees(parent: CorethHeader, timeMs: bigint, rules: ChainRules): NextFees;
  /** Precompiles besides Ethereum's and the stateful ones: coreth's deprecated native-asset contracts. */
  customPrecompiles: CustomPrecompile[];
  /** Header fields of this flavor only (coreth: the atomic txs' hash and gas). */
  headerExtras: Partial<CorethHeader>;
  /** web3_clientVersion. */
  clientVersion: string;
}

/** The C-Chain: ACP-176, with the chain config's gas-target if it has one. */
export function corethFlavor(opts: { gasTarget?: bigint } = {}): EvmFlavor {
  const desired = opts.gasTarget === undefined ? undefined : desiredTargetExcess(opts.gasTarget);
  return {
    layout: 'coreth',
    multiCoin: true,
    minFeeCap: () => 1n,
    nextFees(parent, timeMs) {
      const fees = blockFees(parent, timeMs);
      // ms until ACP-176 capacity refills by `gas` (at twice the target per second).
      const refillMs = (gas: bigint) => {
        if (gas <= 0n) return 0;
        const perMs = (target(fees.state) * 2n) / 1000n || 1n;
        return Math.max(1, Number((gas + perMs - 1n) / perMs));
      };
      return {
        baseFee: fees.baseFee,
        gasLimit: fees.gasLimit,
        room: fees.state.capacity,
        waitMs: canBuild(fees) ? 0 : refillMs(buildFloor(fees) - fees.state.capacity),
        refillMs,
        extra: (gasUsed, results, extDataGasUsed) => extraAfter(fees.state, gasUsed, desired, results, extDataGasUsed),
        blockGasCost: 0n,
      };
    },
    customPrecompiles: CORETH_PRECOMPILES,
    headerExtras: { extDataHash: EMPTY_EXT_DATA_HASH, extDataGasUsed: 0n },
    clientVersion: 'v1.14.2',
  };
}

/** A Subnet-EVM chain: the window of its fee config in force, the genesis one or the FeeManager's (Granite: no block gas cost). */
export function subnetEvmFlavor(genesisFee: FeeConfig): EvmFlavor {
  return {
    layout: 'subnet-evm',
    multiCoin: false,
    minFeeCap: (rules) => (rules.feeConfig ?? genesisFee).minBaseFee,
    nextFees(parent, timeMs, rules) {
      const f = windowFees(rules.feeConfig ?? genesisFee, parent, (timeMs > headerMillis(parent) ? timeMs : headerMillis(parent)) / 1000n);
      return {
        baseFee: f.baseFee,
        gasLimit: f.gasLimit,
        room: f.gasLimit,
        waitMs: 0,
        refillMs: () => 0,
        extra: (_gasUsed, results) => windowExtra(f.window, results),
        blockGasCost: f.blockGasCost,
      };
    },
    // 0x0100…00 is Subnet-EVM's blackhole, a plain account.
    customPrecompiles: [],
    headerExtras: {},
    // subnet-evm's plugin/evm/version.go in avalanchego 1.14.
    clientVersion: 'v0.8.0',
  };
}

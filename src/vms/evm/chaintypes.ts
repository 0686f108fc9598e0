// What an EVM chain is opened with and what it hands out: its options, the extension a VM adds to
// its blocks (coreth's atomic txs), and the blocks it announces. A leaf the chain's parts share.
import type { DevSettings } from './devcontrols.js';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import type { Acceptance } from '../../chains/acceptance.js';
import type { Clock } from '../../chains/clock.js';
import type { WriteBatch } from '../../storage/db.js';
import type { EvmFlavor } from './flavor.js';
import type { GenesisJson, GenesisRules } from './genesis.js';
import type { PrecompileConfig } from './precompiles/config.js';
import type { BaseRules } from './precompiles/rules.js';
import type { WarpContext } from './precompiles/warp.js';
import type { TxRecord } from './records.js';
import type { StoredBlock } from './store.js';
import type { InternalTx } from './trace/internal.js';
import type { StateUpgrade } from './upgrades.js';
import type { WarpReceiveContext } from './warp/receive.js';

import type { UnprotectedTxs } from './chainfile.js';
import type { UpstreamHistory } from './store.js';
import type { ForkState } from './fork/state.js';

export interface EvmChainOptions {
  clock: Clock;
  acceptance?: Acceptance;
  /** Whether block production is stalled (an emulator fault): txs are admitted, no block is built. */
  stalled?: () => boolean;
  /**
   * --dev: blocks are not paced by ACP-176's capacity. A block short of it is built at once, at a
   * time just late enough for the capacity to have refilled (see BlockBuilder.blockTime).
   */
  dev?: boolean;
  /**
   * --dev (unless --disable-console-log): prints what a mined tx or an eth_call sent to console.sol's
   * address, as Anvil prints it, each line with where it came from.
   */
  consoleLog?: (lines: string[], from: { tx: string } | { call: string }) => void;
  /** A rebuilt node's: the dev settings this chain had, taken before its pool reloads. */
  devSettings?: DevSettings;
  /** The parsed genesis file. */
  genesis: GenesisJson;
  /** coreth's rules or Subnet-EVM's. */
  flavor: EvmFlavor;
  /** The upgrades active at the genesis time (the genesis header's optional fields follow them). */
  genesisRules: GenesisRules;
  /**
   * When the last upgrade the engine runs (Durango, Etna, Granite) activates on an L1, unix seconds:
   * no block is built before it (the dev controls' times included). The C-Chain's genesis is a
   * Granite block already.
   */
  upgradesFrom?: bigint;
  /**
   * Stateful precompiles and when they activate: at genesis, or in the first block whose time
   * passes theirs (ApplyPrecompileActivations).
   */
  precompiles: PrecompileConfig[];
  /** What the fee config and coinbase are without Subnet-EVM's managers. */
  baseRules: BaseRules;
  /** upgrade.json's state upgrades. */
  stateUpgrades?: StateUpgrade[];
  /** The chain's network and blockchain IDs, for the warp precompile's messages. */
  warp?: WarpContext;
  /** How warp messages delivered to this chain are verified. */
  warpReceive?: WarpReceiveContext;
  /** A fork of an upstream chain: its chain ID, its history up to the fork block and its state there. */
  fork?: ChainFork;
  /** The chain config's unprotected txs taken over RPC (besides Nick's-method ones). */
  unprotected?: UnprotectedTxs;
  /** Whether the preimages of the state tries' keys are kept (preimages-enabled, or --dev). */
  preimages?: boolean;
  /** The chain config's warp-off-chain-messages, checked, by ID (unprefixed lowercase hex). */
  offChainWarpMessages?: ReadonlyMap<string, Uint8Array>;
}

/** What a forked chain reads of its upstream (fork/open.ts makes it). */
export interface ChainFork {
  chainId: bigint;
  /** The fork block's height and hash: the chain's first head. */
  number: bigint;
  hash: Uint8Array;
  /**
   * The state the upstream serves at the fork block when its root is not the block's: the upstream's
   * head with state edits made since it was built (anvil_setBalance, this node's ICM placement). The
   * fork takes them as edits of its own head, which its next block includes.
   */
  editedRoot?: Uint8Array;
  state: ForkState;
  history: UpstreamHistory;
}

/** The block being built, as an extension sees it once the block's EVM txs have run. */
export interface ExtensionBlock {
  /** The block's state, after its EVM txs. */
  sm: MerkleStateManager;
  baseFee: bigint;
  /** The ACP-176 capacity the EVM txs left (coreth's RemainingAtomicGasCapacity). */
  room: bigint;
}

/** What an extension adds to a block, already applied to the block's state. */
export interface ExtensionContent {
  /** The block's extData (coreth's atomic txs). */
  extData: Uint8Array;
  /** Its gas (extDataGasUsed), consumed after the EVM txs' in the block's fee state. */
  gasUsed: bigint;
  /** Adds the block's own writes (shared memory, its tx index) to the block's batch. */
  write(batch: WriteBatch, block: StoredBlock): Promise<void>;
  /** The batch committed. */
  accepted(): void;
  /** The block was not committed: what it carried waits for the next one. */
  abandoned(): void;
}

/**
 * What a VM adds to its EVM chain's blocks besides EVM txs: coreth's atomic txs. It runs after the
 * EVM txs (coreth's OnFinalizeAndAssemble), and a block with only its content is a block.
 */
export interface BlockExtension {
  /** Whether it has something waiting for a block. */
  hasPending(): boolean;
  /**
   * Picks, verifies and applies what fits in the block; nothing if none does. `retry` asks for
   * another round once `gas` more capacity is back, or (without gas) a while later.
   */
  assemble(block: ExtensionBlock, retry: (gas?: bigint) => void): Promise<ExtensionContent | undefined>;
}

/** An accepted block with what subscribers need: its txs as they ran and their records. */
export interface AcceptedEvmBlock {
  block: StoredBlock;
  /** Not to be run again as decoded: a warp tx's carries its predicate gas. */
  txs: TypedTransaction[];
  records: TxRecord[];
  /** Each tx's internal transactions, recorded as it ran: when a follower asked (EvmChain.followBlocks). */
  internal?: InternalTx[][];
}

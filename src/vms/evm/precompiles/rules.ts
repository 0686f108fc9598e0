// What the state after a block decides for the next one (core/blockchain_reader.go GetFeeConfigAt,
// GetCoinbaseAt): the fee config, from the FeeManager's storage once it is active, else the genesis
// one; and the coinbase, from the RewardManager's setting once it is active, else the fee recipient
// when the chain allows fee recipients, else the blackhole.
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, setLengthLeft } from '@ethereumjs/util';
import type { FeeConfig } from '../feewindow.js';
import { BLACKHOLE } from '../rules.js';
import type { PrecompileConfig } from './config.js';
import { readFeeConfig, readLastChangedAt, type StorageReader } from './feemanager.js';
import { activeAt } from './index.js';
import { readReward } from './rewardmanager.js';

export interface ChainRules {
  /** The fee config governing the next block (Subnet-EVM only). */
  feeConfig?: FeeConfig;
  /** The block of its last change (0: the genesis config). */
  lastChangedAt: bigint;
  /** The next block's coinbase. */
  coinbase: Uint8Array;
}

/** What the rules start from: the genesis fee config, allowFeeRecipients, and the node's fee recipient. */
export interface BaseRules {
  feeConfig?: FeeConfig;
  allowFeeRecipients: boolean;
  feeRecipient: Uint8Array;
}

const storageOf = (sm: MerkleStateManager, address: Uint8Array): StorageReader => ({
  read: async (slot) => setLengthLeft(await sm.getStorage(new Address(address), slot), 32),
});

const feeManagerAt = (configs: PrecompileConfig[], time: bigint) => configs.find((c) => c.key === 'feeManagerConfig' && activeAt(c, time));
const rewardManagerAt = (configs: PrecompileConfig[], time: bigint) => configs.find((c) => c.key === 'rewardManagerConfig' && activeAt(c, time));

/** Whether the rules after a block at `time` read its state: only a FeeManager or a RewardManager that is on does. */
export const rulesReadState = (configs: PrecompileConfig[], time: bigint): boolean =>
  feeManagerAt(configs, time) !== undefined || rewardManagerAt(configs, time) !== undefined;

/**
 * The rules after a block whose state is `sm` and whose time is `time`; `sm` may be left out where
 * they read no state (rulesReadState).
 */
export async function rulesAfter(sm: MerkleStateManager | undefined, configs: PrecompileConfig[], time: bigint, base: BaseRules): Promise<ChainRules> {
  const fees = feeManagerAt(configs, time);
  const rewards = rewardManagerAt(configs, time);
  const state = () => {
    if (!sm) throw new Error('the rules after this block read its state: a state is needed');
    return sm;
  };
  let coinbase = base.allowFeeRecipients ? base.feeRecipient : BLACKHOLE;
  if (rewards) {
    const r = await readReward(storageOf(state(), rewards.address));
    coinbase = r.kind === 'feeRecipients' ? base.feeRecipient : r.address;
  }
  if (!fees) return { ...(base.feeConfig ? { feeConfig: base.feeConfig } : {}), lastChangedAt: 0n, coinbase };
  const store = storageOf(state(), fees.address);
  return { feeConfig: await readFeeConfig(store), lastChangedAt: await readLastChangedAt(store), coinbase };
}

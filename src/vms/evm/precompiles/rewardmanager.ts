// RewardManager (precompile/contracts/rewardmanager): where block fees go, kept at slot "rask": a
// reward address, or "afrav" (fee recipients allowed: each block's producer chooses), or the
// blackhole (rewards disabled). The coinbase of block N is read from the state after block N - 1.
import { Address, setLengthLeft, setLengthRight } from '@ethereumjs/util';
import { BLACKHOLE } from '../rules.js';
import { knownKeccak } from '../../../crypto/keccak.js';
import { allowListFunctions, isEnabled, readRole } from './allowlist.js';
import { addressArg, addressWord, type Call, checksum, logGas, PrecompileError, type PrecompileFunction, READ_GAS_PER_SLOT, wordOf } from './contract.js';
import type { StorageReader } from './feemanager.js';

export const REWARD_SLOT = setLengthRight(new Uint8Array(Buffer.from('rask')), 32);
/** The value meaning "fee recipients allowed". */
export const ALLOW_FEE_RECIPIENTS = setLengthRight(new Uint8Array(Buffer.from('afrav')), 32);

const SET_GAS = 25_000n;
const ADDRESS_CHANGED = knownKeccak('RewardAddressChanged(address,address,address)', 'c2a9e07cba6f4920acaa5933bd0406949d5dbef7ee698e786ea23e8708f32a6c');
const RECIPIENTS_ALLOWED = knownKeccak('FeeRecipientsAllowed(address)', 'abb1949bd129fef9b84601a48aee89d600d90074ca10216a02ce43996be55991');
const DISABLED = knownKeccak('RewardsDisabled(address)', 'eb121f0335efe8f4b8ebef7793c18c171834696989656a8c345acc558359fabf');

export type RewardSetting = { kind: 'address'; address: Uint8Array } | { kind: 'feeRecipients' };

export async function readReward(store: StorageReader): Promise<RewardSetting> {
  const value = setLengthLeft(await store.read(REWARD_SLOT), 32);
  if (Buffer.compare(Buffer.from(value), Buffer.from(ALLOW_FEE_RECIPIENTS)) === 0) return { kind: 'feeRecipients' };
  return { kind: 'address', address: value.slice(12) };
}

export const rewardWord = (r: RewardSetting): Uint8Array => (r.kind === 'feeRecipients' ? ALLOW_FEE_RECIPIENTS : setLengthLeft(r.address, 32));

async function guard(call: Call, name: string): Promise<void> {
  call.writable();
  if (!isEnabled(await readRole(call, call.caller))) throw new PrecompileError(`non-enabled cannot call ${name}: ${checksum(call.caller)}`);
}

/** The address now rewarded, as currentRewardAddress reports it (zero when fee recipients are allowed). */
const currentAddress = (r: RewardSetting) => (r.kind === 'feeRecipients' ? new Uint8Array(20) : r.address);

export const rewardManagerFunctions: PrecompileFunction[] = [
  ...allowListFunctions,
  {
    signature: 'setRewardAddress(address)',
    gas: SET_GAS,
    async run(call) {
      const next = addressArg(call.input, 0);
      await guard(call, 'setRewardAddress');
      call.deduct(READ_GAS_PER_SLOT + logGas(4, 0));
      const old = currentAddress(await readReward(call));
      call.log([ADDRESS_CHANGED, addressWord(call.caller), setLengthLeft(old, 32), addressWord(next)], new Uint8Array());
      if (next.isZero()) throw new PrecompileError('reward address cannot be empty');
      await call.write(REWARD_SLOT, addressWord(next));
      return new Uint8Array();
    },
  },
  {
    signature: 'allowFeeRecipients()',
    gas: SET_GAS,
    async run(call) {
      await guard(call, 'allowFeeRecipients');
      call.deduct(logGas(2, 0));
      call.log([RECIPIENTS_ALLOWED, addressWord(call.caller)], new Uint8Array());
      await call.write(REWARD_SLOT, ALLOW_FEE_RECIPIENTS);
      return new Uint8Array();
    },
  },
  {
    signature: 'disableRewards()',
    gas: SET_GAS,
    async run(call) {
      await guard(call, 'disableRewards');
      call.deduct(logGas(2, 0));
      call.log([DISABLED, addressWord(call.caller)], new Uint8Array());
      await call.write(REWARD_SLOT, addressWord(new Address(BLACKHOLE)));
      return new Uint8Array();
    },
  },
  {
    signature: 'currentRewardAddress()',
    gas: READ_GAS_PER_SLOT,
    run: async (call) => setLengthLeft(currentAddress(await readReward(call)), 32),
  },
  {
    signature: 'areFeeRecipientsAllowed()',
    gas: READ_GAS_PER_SLOT,
    run: async (call) => wordOf((await readReward(call)).kind === 'feeRecipients' ? 1n : 0n),
  },
];

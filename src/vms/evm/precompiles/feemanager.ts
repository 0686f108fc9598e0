// FeeManager (precompile/contracts/feemanager): the fee config kept in the precompile's storage, one
// slot per field (the field's number in the slot's first byte) and the block of its last change at
// "lca"; setFeeConfig by an enabled caller (verified, with FeeConfigChanged), getFeeConfig,
// getFeeConfigLastChangedAt. A change governs the blocks after the one it is in.
import { setLengthLeft, setLengthRight } from '@ethereumjs/util';
import { FEE_CONFIG_KEYS, type FeeConfig, FeeConfigError, verifyFeeConfig } from '../feewindow.js';
import { knownKeccak } from '../../../crypto/keccak.js';
import { allowListFunctions, isEnabled, readRole } from './allowlist.js';
import {
  addressWord,
  type Call,
  checksum,
  logGas,
  PrecompileError,
  type PrecompileFunction,
  READ_GAS_PER_SLOT,
  uintArg,
  WRITE_GAS_PER_SLOT,
  wordOf,
} from './contract.js';

/** The storage the fee config lives in, for whoever reads it (the chain, the precompile). */
export interface StorageReader {
  read(slot: Uint8Array): Promise<Uint8Array>;
}

const fieldSlot = (i: number): Uint8Array => {
  const slot = new Uint8Array(32);
  slot[0] = i + 1;
  return slot;
};
export const LAST_CHANGED_AT_SLOT = setLengthRight(new Uint8Array(Buffer.from('lca')), 32);

const CHANGED = knownKeccak(
  'FeeConfigChanged(address,(uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256),(uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256))',
  '4c98e43adb5962c18f3f0e6dd066e2a2de258d3b4f695b317b77c8f27cd044fc',
);
const GET_GAS = READ_GAS_PER_SLOT * BigInt(FEE_CONFIG_KEYS.length);
/** SetFeeConfigGasCost: a write per field and one for lastChangedAt. */
const SET_GAS = WRITE_GAS_PER_SLOT * BigInt(FEE_CONFIG_KEYS.length + 1);
/** FeeConfigChangedEventGasCost: reading the old config, and the log (2 topics, two configs of data). */
const CHANGED_GAS = GET_GAS + logGas(2, 2 * 32 * FEE_CONFIG_KEYS.length);

const toBig = (b: Uint8Array) => (b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b).toString('hex')}`));

export async function readFeeConfig(store: StorageReader): Promise<FeeConfig> {
  const values = await Promise.all(FEE_CONFIG_KEYS.map((_, i) => store.read(fieldSlot(i))));
  return Object.fromEntries(FEE_CONFIG_KEYS.map((k, i) => [k, toBig(values[i]!)])) as unknown as FeeConfig;
}

export async function readLastChangedAt(store: StorageReader): Promise<bigint> {
  return toBig(await store.read(LAST_CHANGED_AT_SLOT));
}

/** The writes of StoreFeeConfig: every field, then the block number. */
export function feeConfigWrites(f: FeeConfig, blockNumber: bigint): [Uint8Array, Uint8Array][] {
  return [...FEE_CONFIG_KEYS.map((k, i): [Uint8Array, Uint8Array] => [fieldSlot(i), wordOf(f[k])]), [LAST_CHANGED_AT_SLOT, wordOf(blockNumber)]];
}

const configWords = (f: FeeConfig) => Buffer.concat(FEE_CONFIG_KEYS.map((k) => wordOf(f[k])));

export function feeManagerFunctions(blockNumber: (call: Call) => bigint): PrecompileFunction[] {
  return [
    ...allowListFunctions,
    {
      signature: 'setFeeConfig(uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256)',
      gas: SET_GAS,
      async run(call) {
        call.writable();
        const next = Object.fromEntries(FEE_CONFIG_KEYS.map((k, i) => [k, uintArg(call.input, i)])) as unknown as FeeConfig;
        if (!isEnabled(await readRole(call, call.caller))) throw new PrecompileError(`non-enabled cannot change fee config: ${checksum(call.caller)}`);
        call.deduct(CHANGED_GAS);
        const old = await readFeeConfig(call);
        call.log([CHANGED, addressWord(call.caller)], new Uint8Array(Buffer.concat([configWords(old), configWords(next)])));
        try {
          verifyFeeConfig(next);
        } catch (err) {
          if (err instanceof FeeConfigError) throw new PrecompileError(`cannot verify fee config: ${err.message}`);
          throw err;
        }
        for (const [slot, value] of feeConfigWrites(next, blockNumber(call))) await call.write(slot, value);
        return new Uint8Array();
      },
    },
    {
      signature: 'getFeeConfig()',
      gas: GET_GAS,
      run: async (call) => new Uint8Array(configWords(await readFeeConfig(call))),
    },
    {
      signature: 'getFeeConfigLastChangedAt()',
      gas: READ_GAS_PER_SLOT,
      run: async (call) => setLengthLeft(wordOf(await readLastChangedAt(call)), 32),
    },
  ];
}

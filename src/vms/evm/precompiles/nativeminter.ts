// ContractNativeMinter (precompile/contracts/nativeminter): mintNativeCoin(address, uint256) by an
// enabled caller, with its NativeCoinMinted event; the allow list's functions besides.
import { Account } from '@ethereumjs/util';
import { knownKeccak } from '../../../crypto/keccak.js';
import { allowListFunctions, isEnabled, readRole } from './allowlist.js';
import { addressArg, addressWord, checksum, logGas, PrecompileError, type PrecompileFunction, uintArg, wordOf } from './contract.js';

const MINTED = knownKeccak('NativeCoinMinted(address,address,uint256)', '400cd392f3d56fd10bb1dbd5839fdda8298208ddaa97b368faa053e1850930ee');
/** MintGasCost, then NativeCoinMintedEventGasCost (3 topics, 32 bytes of data). */
const MINT_GAS = 30_000n;
const MINTED_GAS = logGas(3, 32);

export const nativeMinterFunctions: PrecompileFunction[] = [
  ...allowListFunctions,
  {
    signature: 'mintNativeCoin(address,uint256)',
    gas: MINT_GAS,
    async run(call) {
      call.writable();
      let to: ReturnType<typeof addressArg>;
      let amount: bigint;
      try {
        to = addressArg(call.input, 0);
        amount = uintArg(call.input, 1);
      } catch (err) {
        throw new PrecompileError(`failed to unpack input: ${(err as Error).message}`);
      }
      if (!isEnabled(await readRole(call, call.caller))) throw new PrecompileError(`non-enabled cannot mint: ${checksum(call.caller)}`);
      call.deduct(MINTED_GAS);
      call.log([MINTED, addressWord(call.caller), addressWord(to)], wordOf(amount));
      const sm = call.evm.stateManager;
      const account = (await sm.getAccount(to)) ?? new Account();
      account.balance += amount;
      await sm.putAccount(to, account);
      return new Uint8Array();
    },
  },
];

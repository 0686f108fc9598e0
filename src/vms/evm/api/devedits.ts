// anvil_setBalance, setNonce, setCode and setStorageAt (with their hardhat_ names): each changes the
// head's state without a block (see EvmChain.editState), as Anvil's and Hardhat's do; one that cannot
// be applied is the caller's error.
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bigIntToBytes, setLengthLeft, unpadBytes } from '@ethereumjs/util';
import { method, RpcError } from '../../../rpc/method.js';
import { devPositional } from '../../../rpc/geth.js';
import type { EvmChain } from '../chain.js';
import { address, bytes, hash, u256 } from './fields.js';

const MAX_U256 = 2n ** 256n - 1n;
const MAX_NONCE = 2n ** 64n - 1n;

/** The state edit methods, by their names without the namespace. */
export function stateEdits(chain: EvmChain) {
  const edit = async (fn: (sm: MerkleStateManager) => Promise<void>) => {
    try {
      await chain.editState(fn);
    } catch (err) {
      throw new RpcError((err as Error).message);
    }
  };
  /** Writes the account at `a` (a new one if it has none) with `change` made, then what `after` writes under it (its code, a slot). */
  const editAccount = (a: unknown, change: (acc: Account) => void, after?: (sm: MerkleStateManager, addr: Address) => Promise<void>) =>
    edit(async (sm) => {
      const addr = new Address(a as Uint8Array);
      const acc = (await sm.getAccount(addr)) ?? new Account();
      change(acc);
      await sm.putAccount(addr, acc);
      await after?.(sm, addr);
    });
  const unchanged = () => {};
  return {
    setBalance: method(devPositional([address, u256]), async ([a, balance]) => {
      await editAccount(a, (acc) => {
        acc.balance = balance as bigint;
      });
      return null;
    }),
    // anvil_addBalance: the balance plus `amount`, saturating at 2^256-1 as Anvil's.
    addBalance: method(devPositional([address, u256]), async ([a, amount]) => {
      await editAccount(a, (acc) => {
        const sum = acc.balance + (amount as bigint);
        acc.balance = sum < MAX_U256 ? sum : MAX_U256;
      });
      return null;
    }),
    // A U256 to Anvil (deserialize_number: a bare 0x is 0), saturated to a nonce's 2^64-1.
    setNonce: method(devPositional([address, u256]), async ([a, nonce]) => {
      await editAccount(a, (acc) => {
        acc.nonce = (nonce as bigint) < MAX_NONCE ? (nonce as bigint) : MAX_NONCE;
      });
      return null;
    }),
    setCode: method(devPositional([address, bytes]), async ([a, code]) => {
      await editAccount(a, unchanged, (sm, addr) => sm.putCode(addr, code as Uint8Array));
      return null;
    }),
    setStorageAt: method(devPositional([address, u256, hash]), async ([a, slot, value]) => {
      await editAccount(a, unchanged, (sm, addr) => sm.putStorage(addr, setLengthLeft(bigIntToBytes(slot as bigint), 32), unpadBytes(value as Uint8Array)));
      return true;
    }),
  };
}

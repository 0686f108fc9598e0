// State-trie accounts as coreth stores them, built by hand for the tests that hold state roots to
// coreth's vectors: libevm's StateAccount with coreth's fifth field, isMultiCoin (false as the
// empty string), or Ethereum's four fields. The node itself writes accounts through
// @ethereumjs's state manager (src/vms/evm/state.ts MultiCoinAccountTrie).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { EMPTY_ROOT } from '../../src/vms/evm/header.js';

export interface Account {
  nonce?: bigint;
  balance?: bigint;
  storageRoot?: Uint8Array;
  codeHash?: Uint8Array;
  isMultiCoin?: boolean;
}

/** keccak256 of no code. */
const EMPTY_CODE_HASH = keccak_256(new Uint8Array());

export function encodeAccount(a: Account, multiCoin = true): Uint8Array {
  return RLP.encode([
    bigIntToUnpaddedBytes(a.nonce ?? 0n),
    bigIntToUnpaddedBytes(a.balance ?? 0n),
    a.storageRoot ?? EMPTY_ROOT,
    a.codeHash ?? EMPTY_CODE_HASH,
    ...(multiCoin ? [a.isMultiCoin ? Uint8Array.of(1) : new Uint8Array()] : []),
  ]);
}

/** The state root of accounts (address -> account), in a secure (keccak-keyed) trie; coreth's five-field accounts or Ethereum's four. */
export async function stateRoot(accounts: Iterable<[Uint8Array, Account]>, multiCoin = true): Promise<Uint8Array> {
  const trie = new MerklePatriciaTrie({ useKeyHashing: true });
  for (const [address, account] of accounts) await trie.put(address, encodeAccount(account, multiCoin));
  return trie.root();
}

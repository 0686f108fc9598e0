// State-trie accounts as coreth stores them: libevm's StateAccount with coreth's extra, isMultiCoin,
// always appended as a fifth RLP field (false as the empty string). With Ethereum's four fields every
// state root would differ from coreth's. Notes: docs/research/cchain.md §2.2.
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { EMPTY_ROOT } from './header.js';

export interface Account {
  nonce?: bigint;
  balance?: bigint;
  storageRoot?: Uint8Array;
  codeHash?: Uint8Array;
  isMultiCoin?: boolean;
}

/** keccak256 of no code. */
export const EMPTY_CODE_HASH = keccak_256(new Uint8Array());

export function encodeAccount(a: Account): Uint8Array {
  return RLP.encode([
    bigIntToUnpaddedBytes(a.nonce ?? 0n),
    bigIntToUnpaddedBytes(a.balance ?? 0n),
    a.storageRoot ?? EMPTY_ROOT,
    a.codeHash ?? EMPTY_CODE_HASH,
    a.isMultiCoin ? Uint8Array.of(1) : new Uint8Array(),
  ]);
}

/** The state root of accounts (address -> account), in a secure (keccak-keyed) trie. */
export async function stateRoot(accounts: Iterable<[Uint8Array, Account]>): Promise<Uint8Array> {
  const trie = new MerklePatriciaTrie({ useKeyHashing: true });
  for (const [address, account] of accounts) await trie.put(address, encodeAccount(account));
  return trie.root();
}

/**
 * The account trie of a chain whose accounts carry coreth's fifth field: @ethereumjs's state
 * manager writes four-field accounts through `put`, and gets `isMultiCoin` = false appended here
 * (reads ignore a fifth field). Storage tries are plain copies of the base class, untouched.
 */
export class MultiCoinAccountTrie extends MerklePatriciaTrie {
  override async put(key: Uint8Array, value: Uint8Array | null, skipKeyTransform = false): Promise<void> {
    if (value !== null && value.length > 0) {
      const fields = RLP.decode(value) as Uint8Array[];
      if (fields.length === 4) value = RLP.encode([...fields, new Uint8Array()]);
    }
    return super.put(key, value, skipKeyTransform);
  }
}

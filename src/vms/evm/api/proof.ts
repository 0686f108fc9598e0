// eth_getProof (EIP-1186, internal/ethapi's GetProof): an account's Merkle proof against a block's
// state root, and a proof for each storage key against the account's storage root, with geth's
// shapes: keys echoed as given when 32 bytes long, else as quantities; values as quantities; a key
// of an account without storage gets an empty proof.
import { createMerkleProof, type MerklePatriciaTrie } from '@ethereumjs/mpt';
import { type Account, Address, bytesToBigInt } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { RpcError } from '../../../rpc/method.js';
import type { EvmChain } from '../chain.js';
import type { StoredBlock } from '../store.js';
import { qty } from './format.js';
import { toHex0x } from '../../../encoding/bytes.js';
import { Pacer } from '../trace/pacer.js';

const EMPTY_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
/** What StateDB's GetCodeHash and GetStorageRoot answer for an account that does not exist. */
const ZERO_HASH = `0x${'0'.repeat(64)}`;

export const proofErrors = {
  invalidHex: () => new RpcError('hex string invalid'),
  tooLong: () => new RpcError('hex string too long, want at most 32 bytes'),
};

/** geth's decodeHash: 0x optional, odd lengths padded, at most 32 bytes; the key and its length as given. */
export function decodeStorageKey(text: string): { key: Uint8Array; length: number } {
  let s = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  if (s.length % 2 === 1) s = `0${s}`;
  if (!/^[0-9a-fA-F]*$/.test(s)) throw proofErrors.invalidHex();
  const bytes = Buffer.from(s, 'hex');
  if (bytes.length > 32) throw proofErrors.tooLong();
  const key = new Uint8Array(32);
  key.set(bytes, 32 - bytes.length);
  return { key, length: bytes.length };
}

/** A quantity from big-endian bytes (0x0 for none). */
const quantityOf = (b: Uint8Array) => qty(bytesToBigInt(b));

/** The state manager's tries, which it keeps private: the account trie and an account's storage trie. */
interface Tries {
  _trie: MerklePatriciaTrie;
  _getStorageTrie(address: Address, account: Account): MerklePatriciaTrie;
}

async function storageProofs(vm: VM, addr: Address, account: Account | undefined, keys: Array<{ key: Uint8Array; length: number }>) {
  const tries = vm.stateManager as unknown as Tries;
  const hasStorage = account !== undefined && toHex0x(account.storageRoot) !== EMPTY_ROOT;
  const trie = hasStorage ? tries._getStorageTrie(addr, account) : undefined;
  const out: Array<{ key: string; value: string; proof: string[] }> = [];
  // A request for thousands of keys must not hold the event loop: the store's reads answer without
  // yielding (storage/db.ts), so the keys are proven in slices of a few ms.
  const pacer = new Pacer();
  for (const { key, length } of keys) {
    const paused = pacer.pause();
    if (paused) await paused;
    const outputKey = length === 32 ? toHex0x(key) : qty(BigInt(toHex0x(key)));
    if (!trie) {
      out.push({ key: outputKey, value: '0x0', proof: [] });
      continue;
    }
    const proof = (await createMerkleProof(trie, key)).map(toHex0x);
    out.push({ key: outputKey, value: quantityOf(await vm.stateManager.getStorage(addr, key)), proof });
  }
  return out;
}

/** eth_getProof at `block` (its state root). */
export async function getProof(chain: EvmChain, block: StoredBlock, address: Uint8Array, keyTexts: string[]) {
  // Every key is decoded before any state is read, as geth does.
  const keys = keyTexts.map(decodeStorageKey);
  // The head with its dev state edits, as every read of it (chain.stateRootOf).
  return chain.withState(chain.stateRootOf(block), async (vm) => {
    const addr = new Address(address);
    const account = await vm.stateManager.getAccount(addr);
    const storageProof = await storageProofs(vm, addr, account, keys);
    const accountProof = (await createMerkleProof((vm.stateManager as unknown as Tries)._trie, address)).map(toHex0x);
    return {
      address: toHex0x(address),
      accountProof,
      balance: qty(account?.balance ?? 0n),
      codeHash: account ? toHex0x(account.codeHash) : ZERO_HASH,
      nonce: qty(account?.nonce ?? 0n),
      storageHash: account ? toHex0x(account.storageRoot) : ZERO_HASH,
      storageProof,
    };
  });
}

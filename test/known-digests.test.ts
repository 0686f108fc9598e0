// The digests the code states as literals (knownKeccak: event topics, the empty trie's root, the
// empty uncles list) against @noble/hashes' keccak-256 of their preimages; and keccakText, which
// hashes a signature once, before and after the WebAssembly hasher loads.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it, vi } from 'vitest';
import { keccakText, loadKeccak } from '../src/crypto/keccak.js';
import '../src/data/evm/follower.js';
import '../src/data/evm/icm.js';
import '../src/vms/evm/header.js';
import '../src/vms/evm/precompiles/allowlist.js';
import '../src/vms/evm/precompiles/feemanager.js';
import '../src/vms/evm/precompiles/nativeminter.js';
import '../src/vms/evm/precompiles/rewardmanager.js';
import '../src/vms/evm/warp/precompile.js';

// Every digest the modules above state as a literal, with its preimage, as they load: the test
// wraps knownKeccak, so src keeps no list of them.
const knownDigests = vi.hoisted(() => [] as Array<{ preimage: Uint8Array; digest: Uint8Array }>);
vi.mock('../src/crypto/keccak.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/crypto/keccak.js')>();
  return {
    ...actual,
    knownKeccak: (preimage: string | Uint8Array, digestHex: string): Uint8Array => {
      const digest = actual.knownKeccak(preimage, digestHex);
      knownDigests.push({ preimage: typeof preimage === 'string' ? Buffer.from(preimage) : preimage, digest });
      return digest;
    },
  };
});

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('known keccak-256 digests', () => {
  it('every literal digest is the keccak-256 of its preimage', () => {
    // 16 event topics, the empty root (twice: also coreth's empty extData hash) and the empty
    // uncles list.
    expect(knownDigests.length).toBeGreaterThanOrEqual(19);
    for (const { preimage, digest } of knownDigests) expect(hex(digest), Buffer.from(preimage).toString()).toBe(hex(keccak_256(preimage)));
  });

  it('keccakText gives the same digest before and after the WebAssembly hasher loads', async () => {
    const before = keccakText('transfer(address,uint256)');
    await loadKeccak();
    expect(hex(keccakText('approve(address,uint256)'))).toBe(hex(keccak_256(Buffer.from('approve(address,uint256)'))));
    expect(hex(before)).toBe(hex(keccak_256(Buffer.from('transfer(address,uint256)'))));
    expect(hex(before).slice(0, 8)).toBe('a9059cbb');
  });
});

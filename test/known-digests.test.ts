// The digests the code states as literals (knownKeccak: event topics, the empty trie's root, the
// empty code's hash) against @noble/hashes' keccak-256 of their preimages; and keccakText, which
// hashes a signature once, before and after the WebAssembly hasher loads.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { keccakText, knownDigests, loadKeccak } from '../src/crypto/keccak.js';
import '../src/data/evm/follower.js';
import '../src/data/evm/icm.js';
import '../src/vms/evm/header.js';
import '../src/vms/evm/precompiles/allowlist.js';
import '../src/vms/evm/precompiles/feemanager.js';
import '../src/vms/evm/precompiles/nativeminter.js';
import '../src/vms/evm/precompiles/rewardmanager.js';
import '../src/vms/evm/state.js';
import '../src/vms/evm/warp/precompile.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('known keccak-256 digests', () => {
  it('every literal digest is the keccak-256 of its preimage', () => {
    // 14 event topics, the empty root (twice: also coreth's empty extData hash), the empty uncles
    // list and the empty code.
    expect(knownDigests.length).toBeGreaterThanOrEqual(18);
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

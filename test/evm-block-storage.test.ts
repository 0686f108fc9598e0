// What a block's txs write to contract storage reaches the state trie whole and nothing else does:
// the builder keeps SSTOREs in its storage cache and writes them to the tries once, at the block's
// end (execution.ts, CountedStateManager.putStorage). Writes a reverted frame or a failed tx made
// are gone, a slot set back to zero leaves the trie, and a slot written twice holds the last value.
// The contract's storage root is checked against a trie built here, independently, from what the
// slots should hold.
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { createMPT } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { encodeFunctionData, parseAbi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainCommon } from '../src/vms/evm/rules.js';
import { call, startTestNode, type TestNode } from './helpers.js';
import { EWOQ_KEY } from './support/evm.js';
import { compileSources } from './support/solc.js';

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Stores {
  uint256 public a;
  uint256 public b = 7;
  uint256 public c;
  uint256 public d;
  uint256 public e;
  function inner() external { b = 22; revert("inner"); }
  function writeThenRevertInner() external { a = 11; try this.inner() {} catch {} }
  function setAndClear() external { c = 5; c = 0; }
  function failAfterWrite() external { d = 9; revert("outer"); }
  function twice() external { e = 1; e = 2; }
}`;

const abi = parseAbi(['function writeThenRevertInner()', 'function setAndClear()', 'function failAfterWrite()', 'function twice()']);
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

describe("a block's storage writes (C-Chain, --dev)", () => {
  let node: TestNode;
  let url: string;
  let nonce = 0n;
  const send = (fields: { to?: string; data: string }) => {
    const tx = createFeeMarket1559Tx(
      {
        nonce: nonce++,
        ...(fields.to ? { to: fields.to as `0x${string}` } : {}),
        data: Buffer.from(fields.data.slice(2), 'hex'),
        gasLimit: 1_000_000n,
        maxFeePerGas: 300_000_000_000n,
        maxPriorityFeePerGas: 1n,
      },
      { common: chainCommon(43112n) },
    ).sign(hexToBytes(EWOQ_KEY));
    return call(url, 'eth_sendRawTransaction', [hex(tx.serialize())]);
  };

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    url = `${node.uri}/ext/bc/C/rpc`;
  });

  afterAll(async () => {
    await node?.stop();
  });

  it('writes what committed and only that, in one block', async () => {
    const compiled = compileSources({ 'Stores.sol': SOURCE })['Stores.sol']!.Stores!;
    const deployed = await call(url, 'eth_getTransactionReceipt', [await send({ data: compiled.bytecode })]);
    expect(deployed.status).toBe('0x1');
    const to = deployed.contractAddress as string;

    await call(url, 'evm_setAutomine', [false]);
    const names = ['writeThenRevertInner', 'setAndClear', 'failAfterWrite', 'twice'] as const;
    const hashes = [];
    for (const functionName of names) hashes.push(await send({ to, data: encodeFunctionData({ abi, functionName }) }));
    await call(url, 'evm_mine', []);
    await call(url, 'evm_setAutomine', [true]);
    const receipts = await Promise.all(hashes.map((h) => call(url, 'eth_getTransactionReceipt', [h])));
    expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(1);
    expect(receipts.map((r) => r.status)).toEqual(['0x1', '0x1', '0x0', '0x1']);

    // Read at the new block from its state trie (a reader at that root, nothing cached from the build).
    const block = receipts[0].blockNumber as string;
    const slots = await Promise.all([0, 1, 2, 3, 4].map((i) => call(url, 'eth_getStorageAt', [to, word(i), block])));
    expect(slots.map((s) => BigInt(s))).toEqual([11n, 7n, 0n, 0n, 2n]);

    // The storage root a trie of exactly a = 11, b = 7, e = 2 has (secure keys, RLP values).
    const expected = await createMPT({ useKeyHashing: true });
    for (const [slot, value] of [
      [0, 11n],
      [1, 7n],
      [4, 2n],
    ] as const) {
      await expected.put(setLengthLeft(bigIntToUnpaddedBytes(BigInt(slot)), 32), RLP.encode(bigIntToUnpaddedBytes(value)));
    }
    const proof = await call(url, 'eth_getProof', [to, [word(2), word(3)], block]);
    expect(proof.storageHash).toBe(hex(expected.root()));
    // The cleared and the reverted slots are absent from the trie, not stored as zero.
    for (const p of proof.storageProof) expect(p.value).toBe('0x0');
  });
});

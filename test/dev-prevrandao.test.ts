// hardhat_setPrevRandao (Hardhat's setPrevRandao helper) and anvil_setNextBlockPrevRandao: the next
// block's PREVRANDAO, once. coreth's PREVRANDAO answers the difficulty (1) and its headers carry a
// zero mix digest; the block given a value carries it there, so that calls on that block and its
// traces read what its txs read.
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSources } from './support/solc.js';
import { DEV_NODE, evmClients, ewoq } from './support/evm.js';
import { call, callError, startTestNode, type TestNode } from './helpers.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Randao {
  uint256 public seen;
  function current() external view returns (uint256) { return block.prevrandao; }
  function save() external { seen = block.prevrandao; }
}
`;
const { abi, bytecode } = compileSources({ 'Randao.sol': SOURCE })['Randao.sol']!.Randao!;
const VALUE: Hex = `0x${'ab'.repeat(31)}01`;

describe('hardhat_setPrevRandao and anvil_setNextBlockPrevRandao (--dev)', () => {
  let node: TestNode;
  let url: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    url = `${node.uri}/ext/bc/C/rpc`;
  });
  afterAll(() => node.stop());

  it("gives the next block its PREVRANDAO, read by its txs, by calls on it and by its traces, then coreth's again", async () => {
    const { client, wallet, test } = evmClients(node.uri, 'C', 43112, ewoq, DEV_NODE);
    const deployed = await client.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi, bytecode }) });
    const address = deployed.contractAddress!;
    const save = async () => client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address, abi, functionName: 'save', gas: 100_000n }) });

    expect(await client.readContract({ address, abi, functionName: 'current' })).toBe(1n);
    expect(await call(url, 'hardhat_setPrevRandao', [VALUE])).toBe(true);
    const given = await save();
    expect(await client.readContract({ address, abi, functionName: 'seen' })).toBe(BigInt(VALUE));
    expect((await client.getBlock({ blockNumber: given.blockNumber })).mixHash).toBe(VALUE);
    expect(await client.readContract({ address, abi, functionName: 'current', blockNumber: given.blockNumber })).toBe(BigInt(VALUE));
    const trace = await call(url, 'debug_traceTransaction', [given.transactionHash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
    expect(trace.post[address.toLowerCase()].storage['0x0000000000000000000000000000000000000000000000000000000000000000']).toBe(VALUE);

    // Once: the block after it is coreth's again.
    const after = await save();
    expect(await client.readContract({ address, abi, functionName: 'seen' })).toBe(1n);
    expect((await client.getBlock({ blockNumber: after.blockNumber })).mixHash).toBe(`0x${'00'.repeat(32)}`);

    // Anvil's name answers null, as Anvil does; an empty block carries the value too.
    expect(await call(url, 'anvil_setNextBlockPrevRandao', [VALUE])).toBeNull();
    await test.mine({ blocks: 1 });
    expect((await client.getBlock()).mixHash).toBe(VALUE);
  });

  it('takes a 32-byte hash only, and not zero, which a coreth header cannot tell from its own', async () => {
    expect((await callError(url, 'hardhat_setPrevRandao', ['0x01'])).code).toBe(-32602);
    expect(await callError(url, 'anvil_setNextBlockPrevRandao', [`0x${'00'.repeat(32)}`])).toEqual({
      code: -32602,
      message: "a zero PREVRANDAO cannot be told from coreth's own: its blocks carry a zero mix digest and answer PREVRANDAO with their difficulty, 1",
    });
  });
});

// evm_setBlockGasLimit (Anvil's anvil_setBlockGasLimit; viem's test client and Hardhat's
// setBlockGasLimit helper send it): the gas limit of every block from now on, which the pool and
// estimates hold txs to at once, as Anvil does. A C-Chain block never holds more than ACP-176's
// capacity, so a higher limit is refused there; an L1's limit may go past its fee config's.
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_NODE, evmClients, ewoq } from './support/evm.js';
import { call, callError, startTestNode, type TestNode } from './helpers.js';

const L1_FIXTURE = new URL('../fixtures/myl1.json', import.meta.url).pathname;
// Creation code of a contract whose constructor loops until its gas runs out (JUMPDEST PUSH1 0 JUMP).
const BURNER: Hex = '0x5b600056';

const clients = (uri: string, alias: string, id: number) => evmClients(uri, alias, id, ewoq, DEV_NODE);

describe('evm_setBlockGasLimit (--dev)', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, l1: [L1_FIXTURE] });
  });
  afterAll(() => node.stop());

  it("lowers the C-Chain's limit: the pool, estimates, anvil_nodeInfo and the next blocks follow at once", async () => {
    const c = clients(node.uri, 'C', 43112);
    await c.test.mine({ blocks: 1 });
    const rules = (await c.client.getBlock()).gasLimit;
    await c.test.setBlockGasLimit({ gasLimit: 100_000n });
    expect((await call(c.url, 'anvil_nodeInfo', [])).environment.gasLimit).toBe('0x186a0');
    await expect(c.wallet.sendTransaction({ to: ewoq.address, gas: 200_000n })).rejects.toThrow(
      /exceeds block gas limit: tx gas \(200000\) > current max gas \(100000\)/,
    );
    expect(await callError(c.url, 'eth_estimateGas', [{ from: ewoq.address, data: BURNER }])).toMatchObject({
      code: -32000,
      message: 'gas required exceeds allowance (100000)',
    });
    const hash = await c.wallet.sendTransaction({ to: ewoq.address, value: 1n });
    const receipt = await c.client.waitForTransactionReceipt({ hash });
    expect((await c.client.getBlock({ blockNumber: receipt.blockNumber })).gasLimit).toBe(100_000n);
    // The answer Anvil gives, `true`, and a limit above ACP-176's capacity refused, the limit kept.
    expect(await call(c.url, 'anvil_setBlockGasLimit', ['0x30000'])).toBe(true);
    expect(await callError(c.url, 'evm_setBlockGasLimit', [`0x${(rules + 1n).toString(16)}`])).toEqual({
      code: -32602,
      message: `gas limit ${rules + 1n} is over ${rules}, the most gas ACP-176's capacity lets a C-Chain block hold`,
    });
    expect((await call(c.url, 'anvil_nodeInfo', [])).environment.gasLimit).toBe('0x30000');
    await c.test.setBlockGasLimit({ gasLimit: rules });
  });

  it('fills a C-Chain block to the lowered limit, the rest in the next block, its time not pushed on for capacity', async () => {
    const c = clients(node.uri, 'C', 43112);
    await c.test.setAutomine(false);
    const nonce = await c.client.getTransactionCount({ address: ewoq.address, blockTag: 'pending' });
    for (let i = 0; i < 3; i++) await c.wallet.sendTransaction({ to: ewoq.address, value: 1n, nonce: nonce + i, gas: 21_000n });
    await c.test.setBlockGasLimit({ gasLimit: 50_000n });
    await c.test.mine({ blocks: 1 });
    const first = await c.client.getBlock();
    expect([first.transactions.length, first.gasUsed, first.gasLimit]).toEqual([2, 42_000n, 50_000n]);
    await c.test.mine({ blocks: 1 });
    const second = await c.client.getBlock();
    expect(second.transactions).toHaveLength(1);
    // ACP-176's capacity was there: no block time moved on to refill it.
    expect(second.timestamp - first.timestamp).toBeLessThanOrEqual(2n);
    await c.test.setAutomine(true);
    await c.test.setBlockGasLimit({ gasLimit: 10_000_000n });
  });

  it("drops a pooled tx over a limit lowered after it came, as geth's pool does at its reset", async () => {
    const c = clients(node.uri, 'C', 43112);
    await c.test.setAutomine(false);
    const big = await c.wallet.sendTransaction({ to: ewoq.address, gas: 500_000n });
    await c.test.setBlockGasLimit({ gasLimit: 100_000n });
    await c.test.mine({ blocks: 1 });
    await c.test.setAutomine(true);
    expect(await call(c.url, 'eth_getTransactionByHash', [big])).toBeNull();
    expect((await call(c.url, 'txpool_status', [])).pending).toBe('0x0');
    await c.test.setBlockGasLimit({ gasLimit: 10_000_000n });
  });

  it("raises an L1's limit past its fee config's, the blocks' room with it, and keeps it across evm_revert", async () => {
    const l1 = clients(node.uri, 'myl1', 99999);
    const rules = (await l1.client.getBlock()).gasLimit;
    const id = await l1.test.snapshot();
    await l1.test.setBlockGasLimit({ gasLimit: rules + 10_000_000n });
    const hash = await l1.wallet.sendTransaction({ to: ewoq.address, gas: rules + 1n });
    const receipt = await l1.client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect((await l1.client.getBlock({ blockNumber: receipt.blockNumber })).gasLimit).toBe(rules + 10_000_000n);
    // A dev setting, as the coinbase and automine are: the revert takes the block back, not the limit.
    await l1.test.revert({ id });
    expect((await call(l1.url, 'anvil_nodeInfo', [])).environment.gasLimit).toBe(`0x${(rules + 10_000_000n).toString(16)}`);
    // Anvil saturates a limit past a u64.
    expect(await call(l1.url, 'evm_setBlockGasLimit', [`0x1${'0'.repeat(20)}`])).toBe(true);
    expect((await call(l1.url, 'anvil_nodeInfo', [])).environment.gasLimit).toBe('0xffffffffffffffff');
  });

  it('keeps a pooled tx only the raised limit admits across anvil_loadState, which rebuilds the node', async () => {
    const l1 = clients(node.uri, 'myl1', 99999);
    // myl1's fee config limits a block to 20,000,000 gas.
    await l1.test.setBlockGasLimit({ gasLimit: 30_000_000n });
    await l1.test.setAutomine(false);
    const hash = await l1.wallet.sendTransaction({ to: ewoq.address, gas: 25_000_000n });
    await l1.test.loadState({ state: await l1.test.dumpState() });
    expect((await call(l1.url, 'txpool_status', [])).pending).toBe('0x1');
    await l1.test.mine({ blocks: 1 });
    expect((await l1.client.getTransactionReceipt({ hash })).status).toBe('success');
    await l1.test.setAutomine(true);
  });

  it('is not there without --dev', async () => {
    const plain = await startTestNode({ dbType: 'memdb' });
    try {
      const error = await callError(`${plain.uri}/ext/bc/C/rpc`, 'evm_setBlockGasLimit', ['0x186a0']);
      expect(error.code).toBe(-32601);
    } finally {
      await plain.stop();
    }
  });
});

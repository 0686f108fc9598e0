// Anvil's pool, block and impersonation controls with --dev, through viem's test client:
// anvil_dropTransaction, anvil_dropAllTransactions, anvil_setCoinbase, anvil_impersonateAccount,
// anvil_stopImpersonatingAccount and anvil_autoImpersonateAccount.
import { createPublicClient, createTestClient, createWalletClient, defineChain, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, startTestNode, type TestNode, tempDir } from './helpers.js';

const EWOQ = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';

describe("Anvil's pool controls with --dev", () => {
  let node: TestNode;
  let url: string;
  const clients = () => {
    const chain = defineChain({ id: 43112, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    return {
      test: createTestClient({ chain, mode: 'anvil', transport: http(url), cacheTime: 0 }),
      client: createPublicClient({ chain, transport: http(url), cacheTime: 0 }),
      wallet: createWalletClient({ chain, transport: http(url), account: privateKeyToAccount(EWOQ) }),
    };
  };
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    url = `${node.uri}/ext/bc/C/rpc`;
  });
  afterAll(() => node.stop());

  it('drops one pending tx, then all of them; a dropped tx is never mined', async () => {
    const { test, client, wallet } = clients();
    await test.setAutomine(false);
    const send = (nonce: number) =>
      wallet.sendTransaction({ to: '0x9999999999999999999999999999999999999999', value: 1n, nonce, maxFeePerGas: 300_000_000_000n, maxPriorityFeePerGas: 1n });
    const base = await client.getTransactionCount({ address: wallet.account.address });
    const a = await send(base);
    const b = await send(base + 1);
    const c = await send(base + 2);
    expect((await rpc(url, 'txpool_status', [])).json.result).toEqual({ pending: '0x3', queued: '0x0' });
    await test.dropTransaction({ hash: c });
    expect((await rpc(url, 'anvil_dropTransaction', [c])).json.result).toBeNull();
    expect((await rpc(url, 'txpool_status', [])).json.result).toEqual({ pending: '0x2', queued: '0x0' });
    expect(await client.getTransaction({ hash: c }).catch((e) => e.name)).toBe('TransactionNotFoundError');
    await rpc(url, 'anvil_dropAllTransactions', []);
    expect((await rpc(url, 'txpool_status', [])).json.result).toEqual({ pending: '0x0', queued: '0x0' });
    await test.mine({ blocks: 1 });
    for (const h of [a, b, c]) expect((await rpc(url, 'eth_getTransactionReceipt', [h])).json.result).toBeNull();
    expect(await client.getTransactionCount({ address: wallet.account.address })).toBe(base);
    await test.setAutomine(true);
  });

  it("answers anvil_nodeInfo in Anvil's shape; refuses setMinGasPrice as Anvil does under EIP-1559; sets the next base fee once", async () => {
    const { test, client, wallet } = clients();
    const info = (await rpc(url, 'anvil_nodeInfo', [])).json.result;
    const head = await client.getBlock();
    expect(info).toEqual({
      currentBlockNumber: `0x${head.number.toString(16)}`,
      currentBlockTimestamp: Number(head.timestamp),
      currentBlockHash: head.hash,
      hardFork: 'cancun',
      transactionOrder: 'fees',
      environment: {
        baseFee: expect.stringMatching(/^0x[0-9a-f]+$/),
        chainId: 43112,
        gasLimit: `0x${head.gasLimit.toString(16)}`,
        gasPrice: expect.stringMatching(/^0x[0-9a-f]+$/),
      },
      forkConfig: { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null },
    });
    await expect(test.setMinGasPrice({ gasPrice: 20_000_000_000n })).rejects.toThrow(/anvil_setMinGasPrice is not supported when EIP-1559 is active/);
    expect((await rpc(url, 'hardhat_setMinGasPrice', ['0x1'])).json.error).toEqual({
      code: -32602,
      message: 'anvil_setMinGasPrice is not supported when EIP-1559 is active',
    });
    await test.setNextBlockBaseFeePerGas({ baseFeePerGas: 7_000_000_000n });
    expect(await client.getGasPrice()).toBeGreaterThanOrEqual(7_000_000_000n);
    const hash = await wallet.sendTransaction({
      to: '0x9999999999999999999999999999999999999999',
      value: 1n,
      maxFeePerGas: 300_000_000_000n,
      maxPriorityFeePerGas: 1n,
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect((await client.getBlock({ blockNumber: receipt.blockNumber })).baseFeePerGas).toBe(7_000_000_000n);
    expect(receipt.effectiveGasPrice).toBe(7_000_000_001n);
    // Once: the next block is priced by ACP-176 again.
    await test.mine({ blocks: 1 });
    expect((await client.getBlock()).baseFeePerGas).toBeLessThan(7_000_000_000n);
  });

  it('sets the coinbase of the next blocks, which receives their fees', async () => {
    const { test, client, wallet } = clients();
    const miner = '0x7777777777777777777777777777777777777777';
    await test.setCoinbase({ address: miner });
    const hash = await wallet.sendTransaction({
      to: '0x9999999999999999999999999999999999999999',
      value: 1n,
      maxFeePerGas: 300_000_000_000n,
      maxPriorityFeePerGas: 2n,
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    const block = await client.getBlock({ blockNumber: receipt.blockNumber });
    expect(block.miner).toBe(miner);
    expect(await client.getBalance({ address: miner })).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
  });
});

describe("Anvil's impersonation with --dev", () => {
  const chainOf = (url: string) =>
    defineChain({ id: 43112, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } });

  it('sends for an impersonated account without its key, traced and listed; stops; auto-impersonates; survives evm_revert', async () => {
    const node = await startTestNode({ dbType: 'memdb', dev: true });
    try {
      const url = `${node.uri}/ext/bc/C/rpc`;
      const chain = chainOf(url);
      const test = createTestClient({ chain, mode: 'anvil', transport: http(url), cacheTime: 0 });
      const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
      const whale = '0x1234567890123456789012345678901234567890';
      const wallet = createWalletClient({ chain, transport: http(url), account: whale });
      expect((await rpc(url, 'eth_sendTransaction', [{ from: whale, to: whale, value: '0x1' }])).json.error.message).toBe('unknown account');
      await test.setBalance({ address: whale, value: 10n ** 20n });
      await test.impersonateAccount({ address: whale });
      expect((await rpc(url, 'eth_accounts', [])).json.result).toContain(whale);
      const hash = await wallet.sendTransaction({ to: '0x2222222222222222222222222222222222222222', value: 5n });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      expect(receipt.from).toBe(whale);
      const tx = await client.getTransaction({ hash });
      expect([tx.r, tx.s]).toEqual(['0x1', '0x1']);
      expect(await client.getBalance({ address: '0x2222222222222222222222222222222222222222' })).toBe(5n);
      const trace = (await rpc(url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])).json.result;
      expect(trace).toMatchObject({ from: whale, to: '0x2222222222222222222222222222222222222222', value: '0x5', type: 'CALL' });
      // A legacy tx too (gasPrice given).
      const legacy = await wallet.sendTransaction({ to: '0x2222222222222222222222222222222222222222', value: 1n, gasPrice: 100_000_000_000n, type: 'legacy' });
      expect((await client.waitForTransactionReceipt({ hash: legacy })).from).toBe(whale);

      // Impersonation outlives a revert, as Anvil's.
      const id = await test.snapshot();
      await test.revert({ id });
      expect((await rpc(url, 'eth_sendTransaction', [{ from: whale, to: whale, value: '0x1' }])).json.result).toMatch(/^0x[0-9a-f]{64}$/);

      await test.stopImpersonatingAccount({ address: whale });
      expect((await rpc(url, 'eth_sendTransaction', [{ from: whale, to: whale, value: '0x1' }])).json.error.message).toBe('unknown account');
      await rpc(url, 'anvil_autoImpersonateAccount', [true]);
      expect((await rpc(url, 'eth_sendTransaction', [{ from: whale, to: whale, value: '0x1' }])).json.result).toMatch(/^0x[0-9a-f]{64}$/);
      await rpc(url, 'anvil_autoImpersonateAccount', [false]);
    } finally {
      await node.stop();
    }
  });

  it("journals an impersonated tx's sender: after a restart it is mined as from that account", async () => {
    const dataDir = tempDir();
    const whale = '0x1234567890123456789012345678901234567890';
    let hash: `0x${string}`;
    {
      const node = await startTestNode({ dataDir, dev: true });
      try {
        const url = `${node.uri}/ext/bc/C/rpc`;
        const test = createTestClient({ chain: chainOf(url), mode: 'anvil', transport: http(url), cacheTime: 0 });
        await test.setBalance({ address: whale, value: 10n ** 20n });
        await test.impersonateAccount({ address: whale });
        await test.setAutomine(false);
        hash = (await rpc(url, 'eth_sendTransaction', [{ from: whale, to: '0x3333333333333333333333333333333333333333', value: '0x7' }])).json.result;
        expect((await rpc(url, 'eth_getTransactionReceipt', [hash])).json.result).toBeNull();
      } finally {
        await node.stop();
      }
    }
    const node = await startTestNode({ dataDir, dev: true });
    try {
      const url = `${node.uri}/ext/bc/C/rpc`;
      const client = createPublicClient({ chain: chainOf(url), transport: http(url), cacheTime: 0, pollingInterval: 50 });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.from).toBe(whale);
      expect(await client.getBalance({ address: '0x3333333333333333333333333333333333333333' })).toBe(7n);
    } finally {
      await node.stop();
    }
  });
});

// Anvil's pool and block controls with --dev, through viem's test client: anvil_dropTransaction,
// anvil_dropAllTransactions and anvil_setCoinbase.
import { createPublicClient, createTestClient, createWalletClient, defineChain, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, startTestNode, type TestNode } from './helpers.js';

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

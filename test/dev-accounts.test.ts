// eth_accounts and eth_sendTransaction with --dev: the test accounts sign for clients that send
// through the node (viem's JSON-RPC accounts, ethers' JsonRpcSigner) on every EVM chain; without
// --dev, coreth's answers.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcProvider } from 'ethers';
import { createPublicClient, createWalletClient, defineChain, http, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, startTestNode, type TestNode } from './helpers.js';

const FIXTURE = new URL('../fixtures/myl1.json', import.meta.url).pathname;
/** The first test account's EVM address (--test-accounts' keys are deterministic). */
const TEST0 = '0x97F34C899051f46f6B9a0a7fe8ff6E3435148c5A';

describe('--dev test accounts', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 2, l1: [FIXTURE] });
  });
  afterAll(() => node.stop());

  it('eth_accounts lists them; viem sends through the node with a JSON-RPC account', async () => {
    const url = `${node.uri}/ext/bc/C/rpc`;
    const accounts: `0x${string}`[] = (await rpc(url, 'eth_accounts', [])).json.result;
    expect(accounts).toHaveLength(2);
    expect(accounts.every((a) => /^0x[0-9a-f]{40}$/.test(a))).toBe(true);
    const chain = defineChain({ id: 43112, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    const wallet = createWalletClient({ chain, transport: http(url), account: accounts[0]! });
    const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
    const hash = await wallet.sendTransaction({ to: '0x4444444444444444444444444444444444444444', value: parseEther('1.5') });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(receipt.from).toBe(accounts[0]);
    expect(await client.getBalance({ address: '0x4444444444444444444444444444444444444444' })).toBe(parseEther('1.5'));
  });

  it("ethers' JsonRpcSigner sends a tx with data; a key the node lacks is refused, on the L1 too", async () => {
    const url = `${node.uri}/ext/bc/C/rpc`;
    const provider = new JsonRpcProvider(url, 43112, { staticNetwork: true });
    const [first] = await provider.listAccounts();
    const signer = await provider.getSigner(first!.address);
    const tx = await signer.sendTransaction({ to: '0x5555555555555555555555555555555555555555', value: 7n, data: '0x1234' });
    const receipt = await tx.wait();
    expect(receipt!.status).toBe(1);
    expect((await provider.getTransaction(tx.hash))!.data).toBe('0x1234');
    const l1 = `${node.uri}/ext/bc/myl1/rpc`;
    expect((await rpc(l1, 'eth_accounts', [])).json.result).toEqual((await rpc(url, 'eth_accounts', [])).json.result);
    const refused = await rpc(l1, 'eth_sendTransaction', [{ from: '0x6666666666666666666666666666666666666666', to: first!.address, value: '0x1' }]);
    expect(refused.json.error).toEqual({ code: -32000, message: 'unknown account' });
  });
});

describe('without --dev', () => {
  it('has no eth_accounts (coreth leaves internal-account out of its default eth-apis) and no key to send with', async () => {
    const node = await startTestNode({ dbType: 'memdb', testAccounts: 1 });
    try {
      const url = `${node.uri}/ext/bc/C/rpc`;
      expect((await rpc(url, 'eth_accounts', [])).json.error.code).toBe(-32601);
      const refused = await rpc(url, 'eth_sendTransaction', [
        { from: '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC', to: '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC' },
      ]);
      expect(refused.json.error.message).toBe('unknown account');
    } finally {
      await node.stop();
    }
  });
});

describe("Anvil's mining and time controls with --dev (viem's test client)", () => {
  it('mines empty blocks, moves the chain time and sets the next timestamp', async () => {
    const { createTestClient } = await import('viem');
    const node = await startTestNode({ dbType: 'memdb', dev: true });
    try {
      const url = `${node.uri}/ext/bc/C/rpc`;
      const chain = defineChain({
        id: 43112,
        name: 'C',
        nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
        rpcUrls: { default: { http: [url] } },
      });
      const test = createTestClient({ chain, mode: 'anvil', transport: http(url), cacheTime: 0 });
      const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
      expect(await client.getBlockNumber()).toBe(0n);
      await test.mine({ blocks: 3 });
      expect(await client.getBlockNumber()).toBe(3n);
      const b3 = await client.getBlock({ blockNumber: 3n });
      expect(b3.transactions).toEqual([]);
      await test.increaseTime({ seconds: 3600 });
      await test.mine({ blocks: 1 });
      const b4 = await client.getBlock({ blockNumber: 4n });
      expect(b4.timestamp - b3.timestamp).toBeGreaterThanOrEqual(3600n);
      await test.setNextBlockTimestamp({ timestamp: b4.timestamp + 100_000n });
      await test.mine({ blocks: 1 });
      expect((await client.getBlock({ blockNumber: 5n })).timestamp).toBe(b4.timestamp + 100_000n);
      // Two blocks an interval apart; evm_mine and hardhat_mine alike.
      await test.mine({ blocks: 2, interval: 10 });
      const [b6, b7] = await Promise.all([client.getBlock({ blockNumber: 6n }), client.getBlock({ blockNumber: 7n })]);
      expect(b7.timestamp - b6.timestamp).toBe(10n);
      expect((await rpc(url, 'evm_mine', [])).json.result).toBe('0x0');
      expect((await rpc(url, 'hardhat_mine', ['0x2'])).json.result).toBeNull();
      expect(await client.getBlockNumber()).toBe(10n);
      const past = await rpc(url, 'evm_setNextBlockTimestamp', [1]);
      // Anvil's text and code (-32602), since 2026-11-27.
      expect(past.json.error).toEqual({ code: -32602, message: "Timestamp error: 1 is lower than previous block's timestamp" });
      // A real tx still goes into its own block as usual.
      expect((await rpc(url, 'eth_blockNumber', [])).json.result).toBe('0xa');
    } finally {
      await node.stop();
    }
  });

  it('are not there without --dev', async () => {
    const node = await startTestNode({ dbType: 'memdb' });
    try {
      expect((await rpc(`${node.uri}/ext/bc/C/rpc`, 'evm_mine', [])).json.error.code).toBe(-32601);
    } finally {
      await node.stop();
    }
  });
});

describe("Anvil's state controls with --dev (viem's test client), on the C-Chain and an L1", () => {
  it('sets balance, nonce, code and storage without a block, seen at once at latest', async () => {
    const { createTestClient } = await import('viem');
    const node = await startTestNode({ dbType: 'memdb', dev: true, l1: [FIXTURE] });
    try {
      for (const [alias, id] of [
        ['C', 43112],
        ['myl1', 99999],
      ] as const) {
        const url = `${node.uri}/ext/bc/${alias}/rpc`;
        const chain = defineChain({ id, name: alias, nativeCurrency: { name: 'T', symbol: 'T', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
        const test = createTestClient({ chain, mode: 'anvil', transport: http(url), cacheTime: 0 });
        const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
        const who = '0x7777777777777777777777777777777777777777';
        const start = await client.getBlockNumber();
        await test.setBalance({ address: who, value: parseEther('123') });
        expect(await client.getBalance({ address: who })).toBe(parseEther('123'));
        await test.setNonce({ address: who, nonce: 9 });
        expect(await client.getTransactionCount({ address: who })).toBe(9);
        // Runtime code that returns 42 as a word.
        await test.setCode({ address: who, bytecode: '0x602a60005260206000f3' });
        expect(await client.getCode({ address: who })).toBe('0x602a60005260206000f3');
        expect(BigInt((await client.call({ to: who })).data!)).toBe(42n);
        await test.setStorageAt({ address: who, index: 5, value: `0x${'00'.repeat(31)}07` });
        expect(await client.getStorageAt({ address: who, slot: '0x05' })).toBe(`0x${'00'.repeat(31)}07`);
        // Four edits, no block (as Anvil and Hardhat): the number stays.
        expect(await client.getBlockNumber()).toBe(start);
        expect(await client.getBalance({ address: who })).toBe(parseEther('123'));
      }
    } finally {
      await node.stop();
    }
  });
});

describe("Anvil's automine and interval mining with --dev", () => {
  it('holds txs while automine is off until evm_mine, and mines on an interval', async () => {
    const { createTestClient } = await import('viem');
    const { privateKeyToAccount } = await import('viem/accounts');
    const node = await startTestNode({ dbType: 'memdb', dev: true });
    try {
      const url = `${node.uri}/ext/bc/C/rpc`;
      const chain = defineChain({
        id: 43112,
        name: 'C',
        nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
        rpcUrls: { default: { http: [url] } },
      });
      const test = createTestClient({ chain, mode: 'anvil', transport: http(url), cacheTime: 0 });
      const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
      const ewoq = privateKeyToAccount('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
      const wallet = createWalletClient({ chain, transport: http(url), account: ewoq });
      expect(await test.getAutomine()).toBe(true);
      await test.setAutomine(false);
      expect(await test.getAutomine()).toBe(false);
      const hash = await wallet.sendTransaction({
        to: '0x8888888888888888888888888888888888888888',
        value: 1n,
        maxFeePerGas: 300_000_000_000n,
        maxPriorityFeePerGas: 1n,
      });
      expect((await rpc(url, 'eth_getTransactionReceipt', [hash])).json.result).toBeNull();
      expect(await client.getBlockNumber()).toBe(0n);
      await test.mine({ blocks: 1 });
      expect((await client.getTransactionReceipt({ hash })).blockNumber).toBe(1n);
      await test.setIntervalMining({ interval: 1 });
      expect((await rpc(url, 'anvil_getIntervalMining', [])).json.result).toBe(1);
      for (let i = 0; i < 40 && (await client.getBlockNumber()) < 3n; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(3n);
      await test.setIntervalMining({ interval: 0 });
      await test.setAutomine(true);
      const second = await wallet.sendTransaction({
        to: '0x8888888888888888888888888888888888888888',
        value: 1n,
        maxFeePerGas: 300_000_000_000n,
        maxPriorityFeePerGas: 1n,
      });
      expect((await client.getTransactionReceipt({ hash: second })).status).toBe('success');
    } finally {
      await node.stop();
    }
  });
});

describe('--test-accounts on L1s', () => {
  it("funds them where ewoq's genesis funds and rules allow, and leaves an L1 whose tx allow list refuses ewoq as it is", async () => {
    // gated.json with its tx allow list's admin another address: ewoq's transfer is refused there.
    const dir = mkdtempSync(join(tmpdir(), 'refusing-l1-'));
    const genesis = JSON.parse(readFileSync(new URL('../fixtures/gated.json', import.meta.url), 'utf8'));
    genesis.config.txAllowListConfig = { ...genesis.config.txAllowListConfig, adminAddresses: ['0x0Fa8EA536Be85F32724D57A37758761B86416123'] };
    const refusing = join(dir, 'refusing.json');
    writeFileSync(refusing, JSON.stringify(genesis));
    const node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1, l1: [FIXTURE, refusing] });
    try {
      const balanceOn = async (chain: string) => BigInt((await rpc(`${node.uri}/ext/bc/${chain}/rpc`, 'eth_getBalance', [TEST0, 'latest'])).json.result);
      expect(await balanceOn('myl1')).toBe(10_000n * 10n ** 18n);
      expect(await balanceOn('refusing')).toBe(0n);
      expect((await rpc(`${node.uri}/ext/bc/refusing/rpc`, 'eth_blockNumber', [])).json.result).toBe('0x0');
    } finally {
      await node.stop();
    }
  });
});

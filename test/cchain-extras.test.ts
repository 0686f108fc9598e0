// The rest of the C-Chain's surface, each through the client or the wire a user would use:
// @avalanche-sdk/client pointed at the node, test accounts funded on C, a client re-hashing a
// block header from its JSON, coreth's eth_suggestPriceOptions and eth_getChainConfig, the refusal
// of set-code (type 4) txs, newPendingTransactions over the websocket, and debug_traceCall and
// debug_traceBlockByNumber/ByHash over HTTP with --dev.
import { sha256 } from '@noble/hashes/sha2.js';
import { createAvalancheClient } from '@avalanche-sdk/client';
import { avalancheLocal } from '@avalanche-sdk/client/chains';
import { type Hex, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { post, startTestNode, type TestNode } from './helpers.js';
import { corethHeaderHash } from './support/headers.js';

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
/** What a C-Chain test account holds: 10,000 AVAX (src/vms/evm/testaccounts.ts). */
const TEST_ACCOUNT_WEI = 10_000n * 10n ** 18n;

async function eth(node: TestNode, method: string, params: unknown[] = []) {
  return (await post(`${node.uri}/ext/bc/C/rpc`, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).json;
}

const ewoq = privateKeyToAccount(EWOQ_KEY);
async function transfer(node: TestNode, nonce: number, value = 1n): Promise<Hex> {
  const raw = await ewoq.signTransaction({
    chainId: 43112,
    nonce,
    to: '0x1111111111111111111111111111111111111111',
    value,
    gas: 21_000n,
    maxFeePerGas: 300_000_000_000n,
    maxPriorityFeePerGas: 1n,
  });
  return (await eth(node, 'eth_sendRawTransaction', [raw])).result;
}

describe('the C-Chain through @avalanche-sdk/client, and with test accounts', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', testAccounts: 2 });
  });
  afterAll(() => node.stop());

  it("answers @avalanche-sdk/client's C-Chain and info reads, and a tx sent through it", async () => {
    const client = createAvalancheClient({
      chain: { ...avalancheLocal, rpcUrls: { default: { http: [`${node.uri}/ext/bc/C/rpc`] } } },
      transport: { type: 'http' },
    });
    expect(await client.getChainId()).toBe(43112);
    expect(await client.getBalance({ address: EWOQ })).toBe(50_000_000n * 10n ** 18n - 2n * TEST_ACCOUNT_WEI - (await spentOnFunding(node)));
    // Its sub-clients exist at run time; the chain object given here loses them from the inferred type.
    const { info } = client as unknown as { info: { getNetworkID(): Promise<unknown> } };
    expect(await info.getNetworkID()).toEqual({ networkID: '12345' });
    const nonce = await client.getTransactionCount({ address: EWOQ });
    const raw = await ewoq.signTransaction({
      chainId: 43112,
      nonce,
      to: '0x2222222222222222222222222222222222222222',
      value: parseEther('1'),
      gas: 21_000n,
      maxFeePerGas: 300_000_000_000n,
      maxPriorityFeePerGas: 1n,
    });
    const hash = await client.sendRawTransaction({ serializedTransaction: raw });
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(await client.getBalance({ address: '0x2222222222222222222222222222222222222222' })).toBe(parseEther('1'));
  });

  it('funds each test account with 10,000 AVAX on C too', async () => {
    for (const i of [0, 1]) {
      const key = sha256(new TextEncoder().encode(`avalanche-emulator test account ${i}`));
      const address = privateKeyToAccount(`0x${Buffer.from(key).toString('hex')}`).address;
      expect(BigInt((await eth(node, 'eth_getBalance', [address, 'latest'])).result)).toBe(TEST_ACCOUNT_WEI);
    }
  });
});

/** The fees ewoq paid for the funding txs (receipts of blocks 1..n). */
async function spentOnFunding(node: TestNode): Promise<bigint> {
  let spent = 0n;
  const head = BigInt((await eth(node, 'eth_blockNumber')).result);
  for (let n = 1n; n <= head; n++) {
    const block = (await eth(node, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).result;
    for (const hash of block.transactions) {
      const r = (await eth(node, 'eth_getTransactionReceipt', [hash])).result;
      if (r.from.toLowerCase() === EWOQ.toLowerCase()) spent += BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice);
    }
  }
  return spent;
}

describe('C-Chain extras with --dev', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
  });
  afterAll(() => node.stop());

  it("lets a client re-hash a built block's header from its JSON, in coreth's field order", async () => {
    const receipt = await (async () => {
      const hash = await transfer(node, 0);
      return (await eth(node, 'eth_getTransactionReceipt', [hash])).result;
    })();
    const b = (await eth(node, 'eth_getBlockByNumber', [receipt.blockNumber, false])).result;
    expect(corethHeaderHash(b)).toBe(b.hash);
  });

  it("answers coreth's eth_suggestPriceOptions and eth_getChainConfig", async () => {
    const options = (await eth(node, 'eth_suggestPriceOptions')).result;
    expect(Object.keys(options)).toEqual(['slow', 'normal', 'fast']);
    for (const level of ['slow', 'normal', 'fast']) {
      expect(Object.keys(options[level])).toEqual(['maxPriorityFeePerGas', 'maxFeePerGas']);
      // An idle chain: a 1 wei tip and twice the 1 wei base fee.
      expect(options[level]).toEqual({ maxPriorityFeePerGas: '0x1', maxFeePerGas: '0x3' });
    }
    const config = (await eth(node, 'eth_getChainConfig')).result;
    expect(config.chainId).toBe(43112);
    expect(config.graniteTimestamp).toBe(1607144400);
    expect(config.feeConfig).toBeUndefined();
    expect(config.upgrades).toBeUndefined();
    expect(Object.keys(config)).toEqual([...Object.keys(config)].sort());
  });

  it("gives a block's receipts with their logs numbered through the block, as one by one", async () => {
    // Three creations whose constructors emit LOG1 and LOG2 (offset 0, size 0), in one block.
    await eth(node, 'evm_setAutomine', [false]);
    const start = Number((await eth(node, 'eth_getTransactionCount', [EWOQ, 'latest'])).result);
    const hashes: Hex[] = [];
    for (let k = 0; k < 3; k++) {
      const raw = await ewoq.signTransaction({
        chainId: 43112,
        nonce: start + k,
        data: '0x60ff60006000a160ee60dd60006000a200',
        gas: 100_000n,
        maxFeePerGas: 300_000_000_000n,
        maxPriorityFeePerGas: 1n,
      });
      hashes.push((await eth(node, 'eth_sendRawTransaction', [raw])).result);
    }
    await eth(node, 'evm_mine');
    await eth(node, 'evm_setAutomine', [true]);
    const one = await Promise.all(hashes.map(async (h) => (await eth(node, 'eth_getTransactionReceipt', [h])).result));
    expect(new Set(one.map((r) => r.blockNumber)).size).toBe(1);
    expect(one.flatMap((r) => r.logs.map((l: { logIndex: string }) => l.logIndex))).toEqual(['0x0', '0x1', '0x2', '0x3', '0x4', '0x5']);
    expect((await eth(node, 'eth_getBlockReceipts', [one[0].blockNumber])).result).toEqual(one);
  });

  it('refuses a set-code (type 4) tx as geth does', async () => {
    expect((await eth(node, 'eth_sendRawTransaction', ['0x04c0'])).error).toEqual({ code: -32000, message: 'transaction type not supported' });
  });

  it('pushes newPendingTransactions over the websocket', async () => {
    const ws = new WebSocket(`${node.uri.replace('http', 'ws')}/ext/bc/C/ws`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const messages: { id?: number; result?: string; params?: { subscription: string; result: string } }[] = [];
    ws.on('message', (m) => messages.push(JSON.parse(m.toString())));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newPendingTransactions'] }));
    while (!messages.some((m) => m.id === 1)) await new Promise((r) => setTimeout(r, 10));
    const subscription = messages.find((m) => m.id === 1)!.result!;
    const nonce = Number(BigInt((await eth(node, 'eth_getTransactionCount', [EWOQ, 'latest'])).result));
    const hash = await transfer(node, nonce);
    const deadline = Date.now() + 5_000;
    while (!messages.some((m) => m.params?.result === hash) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(messages.find((m) => m.params?.result === hash)?.params?.subscription).toBe(subscription);
    ws.close();
  });

  it('traces a call and whole blocks over HTTP (callTracer, by number and by hash)', async () => {
    const call = (
      await eth(node, 'debug_traceCall', [{ from: EWOQ, to: '0x3333333333333333333333333333333333333333', value: '0x5' }, 'latest', { tracer: 'callTracer' }])
    ).result;
    expect(call).toMatchObject({ type: 'CALL', from: EWOQ.toLowerCase(), to: '0x3333333333333333333333333333333333333333', value: '0x5', gasUsed: '0x5208' });
    const nonce = Number(BigInt((await eth(node, 'eth_getTransactionCount', [EWOQ, 'latest'])).result));
    const hash = await transfer(node, nonce, 7n);
    const receipt = (await eth(node, 'eth_getTransactionReceipt', [hash])).result;
    const byNumber = (await eth(node, 'debug_traceBlockByNumber', [receipt.blockNumber, { tracer: 'callTracer' }])).result;
    expect(byNumber).toEqual([{ txHash: hash, result: expect.objectContaining({ type: 'CALL', value: '0x7', gasUsed: '0x5208' }) }]);
    const byHash = (await eth(node, 'debug_traceBlockByHash', [receipt.blockHash, { tracer: 'callTracer' }])).result;
    expect(byHash).toEqual(byNumber);
  });
});

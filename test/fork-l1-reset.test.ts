// An --l1 chain becoming a fork at run time (anvil_reset({forking}) on an L1 that is none), as
// Anvil's per-chain reset: the L1 takes the rules of the chain it forks (its chain ID, chain config,
// precompiles) as --fork-l1 does at start, keeps them across a restart with the upstream stopped,
// and gives them back with the fork (anvil_reset without forking: its own genesis again). The
// upstream is a second node running fixtures/gated.json (the native minter and the allow lists,
// ewoq their admin); the forking L1 is fixtures/myl1.json under another chain ID.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { encodeFunctionData, type Hex, parseAbi, parseGwei } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, startTestNode, type TestNode, tempDir } from './helpers.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const ewoq = privateKeyToAccount('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const MINTER: Hex = '0x0200000000000000000000000000000000000001';
const TX_LIST: Hex = '0x0200000000000000000000000000000000000002';
const allowList = parseAbi(['function readAllowList(address) view returns (uint256)', 'function setEnabled(address)']);
const minter = parseAbi(['function mintNativeCoin(address addr, uint256 amount)']);
const OWN_CHAIN_ID = 77777;
const UPSTREAM_CHAIN_ID = 99999;

const alice = privateKeyToAccount(generatePrivateKey());
const bob = privateKeyToAccount(generatePrivateKey()).address;
const carol = privateKeyToAccount(generatePrivateKey()).address;
const qty = (n: bigint) => `0x${n.toString(16)}`;

/** ewoq signs and sends a call (a legacy tx at a fixed price) on chain `chainId` and waits for its receipt. */
async function asEwoq(url: string, chainId: number, to: Hex, data: Hex = '0x'): Promise<any> {
  const nonce = Number(await call(url, 'eth_getTransactionCount', [ewoq.address, 'latest']));
  const raw = await ewoq.signTransaction({ type: 'legacy', chainId, nonce, gas: 200_000n, gasPrice: parseGwei('50'), to, data });
  return call(url, 'eth_getTransactionReceipt', [await call(url, 'eth_sendRawTransaction', [raw])]);
}

const role = async (url: string, who: Hex) =>
  BigInt(await call(url, 'eth_call', [{ to: TX_LIST, data: encodeFunctionData({ abi: allowList, functionName: 'readAllowList', args: [who] }) }, 'latest']));

/**
 * That a stranger's transfer is refused by the upstream's tx allow list. One stranger throughout: once
 * the upstream is stopped, the fork knows of it what it read before (an account never read needs its
 * proof).
 */
const dave = privateKeyToAccount(generatePrivateKey());
async function refusesStranger(url: string): Promise<void> {
  await call(url, 'anvil_setBalance', [dave.address, '0xde0b6b3a7640000']);
  const raw = await dave.signTransaction({ type: 'legacy', chainId: UPSTREAM_CHAIN_ID, nonce: 0, gas: 21_000n, gasPrice: parseGwei('50'), to: bob });
  expect((await callError(url, 'eth_sendRawTransaction', [raw])).message).toBe(`cannot issue transaction from non-allow listed address: ${dave.address}`);
}

let upstream: TestNode;
let U: string;
let forkBlock: bigint;
/** The L1's own state before it forked (anvil_dumpState). */
let ownDump: string;
let node: TestNode;
let L: string;
const dir = tempDir('fork-l1-reset-');
const l1File = join(tempDir(), 'mine.json');
const startNode = () => startTestNode({ dbType: 'leveldb', dataDir: dir, dev: true, l1: [l1File] });

beforeAll(async () => {
  const genesis = JSON.parse(readFileSync(join(FIXTURES, 'myl1.json'), 'utf8'));
  writeFileSync(l1File, JSON.stringify({ ...genesis, config: { ...genesis.config, chainId: OWN_CHAIN_ID } }));
  upstream = await startTestNode({ dbType: 'memdb', dev: true, l1: [join(FIXTURES, 'gated.json')] });
  U = `${upstream.uri}/ext/bc/gated/rpc`;
  expect((await asEwoq(U, UPSTREAM_CHAIN_ID, MINTER, encodeFunctionData({ abi: minter, functionName: 'mintNativeCoin', args: [bob, 777n] }))).status).toBe(
    '0x1',
  );
  expect((await asEwoq(U, UPSTREAM_CHAIN_ID, TX_LIST, encodeFunctionData({ abi: allowList, functionName: 'setEnabled', args: [alice.address] }))).status).toBe(
    '0x1',
  );
  forkBlock = BigInt(await call(U, 'eth_blockNumber'));
  // History after the fork block, which the fork must not see.
  await asEwoq(U, UPSTREAM_CHAIN_ID, MINTER, encodeFunctionData({ abi: minter, functionName: 'mintNativeCoin', args: [bob, 1n] }));
  node = await startNode();
  L = `${node.uri}/ext/bc/mine/rpc`;
}, 120_000);

afterAll(async () => {
  await node?.stop().catch(() => undefined);
  await upstream?.stop().catch(() => undefined);
});

describe('an --l1 chain forked at run time (anvil_reset with forking)', () => {
  it("takes the upstream's chain ID, chain config and blocks up to the fork block", async () => {
    expect(await call(L, 'eth_chainId')).toBe(qty(BigInt(OWN_CHAIN_ID)));
    expect((await asEwoq(L, OWN_CHAIN_ID, carol)).status).toBe('0x1');
    ownDump = await call(L, 'anvil_dumpState');
    expect(await call(L, 'anvil_reset', [{ forking: { jsonRpcUrl: U, blockNumber: Number(forkBlock) } }])).toBeNull();
    expect(await call(L, 'eth_chainId')).toBe(qty(BigInt(UPSTREAM_CHAIN_ID)));
    expect(BigInt(await call(L, 'eth_blockNumber'))).toBe(forkBlock);
    for (const n of [0n, forkBlock])
      expect(await call(L, 'eth_getBlockByNumber', [qty(n), true])).toEqual(await call(U, 'eth_getBlockByNumber', [qty(n), true]));
    const { upgrades: _, ...theirs } = await call(U, 'eth_getChainConfig');
    const { upgrades: __, ...mine } = await call(L, 'eth_getChainConfig');
    expect(mine).toEqual(theirs);
    expect((await call(L, 'anvil_nodeInfo')).forkConfig).toMatchObject({ forkUrl: U, forkBlockNumber: Number(forkBlock) });
    // The reset went back to genesis: the local tx before it is gone with the L1's own chain.
    expect(await call(L, 'eth_getBalance', [carol, 'latest'])).toBe('0x0');
  });

  it('enforces the precompiles as the upstream does, their state read from its storage', async () => {
    expect(await role(L, alice.address)).toBe(1n);
    expect(await role(L, ewoq.address)).toBe(2n);
    await refusesStranger(L);
    const minted = await asEwoq(L, UPSTREAM_CHAIN_ID, MINTER, encodeFunctionData({ abi: minter, functionName: 'mintNativeCoin', args: [carol, 5n] }));
    expect(minted.status).toBe('0x1');
    expect(BigInt(minted.blockNumber)).toBe(forkBlock + 1n);
    expect((await call(L, 'eth_getBlockByNumber', [minted.blockNumber, false])).parentHash).toBe(
      (await call(U, 'eth_getBlockByNumber', [qty(forkBlock), false])).hash,
    );
    expect(await call(L, 'eth_getBalance', [carol, 'latest'])).toBe('0x5');
    expect(await call(U, 'eth_getBalance', [carol, 'latest'])).toBe('0x0');
  });

  it('runs a loaded state, and a revert across a load, on the rules of its side of the fork', async () => {
    const forkedDump = await call(L, 'anvil_dumpState');
    const isOwn = async () => {
      expect(await call(L, 'eth_chainId')).toBe(qty(BigInt(OWN_CHAIN_ID)));
      expect(await call(L, 'eth_blockNumber')).toBe('0x1');
      expect((await call(L, 'eth_getChainConfig')).contractNativeMinterConfig).toBeUndefined();
      expect((await call(L, 'anvil_nodeInfo')).forkConfig.forkUrl).toBeNull();
    };
    const isForked = async () => {
      expect(await call(L, 'eth_chainId')).toBe(qty(BigInt(UPSTREAM_CHAIN_ID)));
      expect(await call(L, 'eth_getBalance', [carol, 'latest'])).toBe('0x5');
      expect((await call(L, 'eth_getChainConfig')).contractNativeMinterConfig).toBeDefined();
      expect((await call(L, 'anvil_nodeInfo')).forkConfig).toMatchObject({ forkUrl: U, forkBlockNumber: Number(forkBlock) });
      await refusesStranger(L);
    };
    const snapshot = await call(L, 'evm_snapshot');
    expect(await call(L, 'anvil_loadState', [ownDump])).toBe(true);
    await isOwn();
    expect(await call(L, 'evm_revert', [snapshot])).toBe(true);
    await isForked();
    expect(await call(L, 'anvil_loadState', [ownDump])).toBe(true);
    await isOwn();
    expect(await call(L, 'anvil_loadState', [forkedDump])).toBe(true);
    await isForked();
  });

  it('refuses an upstream that is not Subnet-EVM, or whose rules this node cannot run, resetting nothing', async () => {
    const error = await callError(L, 'anvil_reset', [{ forking: { jsonRpcUrl: `${upstream.uri}/ext/bc/C/rpc` } }]);
    expect(error.message).toBe(`${upstream.uri} is coreth (the C-Chain), not Subnet-EVM: fork it with --fork-url`);
    // A Subnet-EVM upstream whose rules this node cannot run: its fee config's gas limit is 0.
    const { feeConfig, ...config } = (await call(U, 'eth_getChainConfig')) as { feeConfig: Record<string, unknown> };
    const genesis = await call(U, 'eth_getBlockByNumber', ['0x0', false]);
    const answers: Record<string, unknown> = {
      eth_blockNumber: '0x5',
      eth_chainId: qty(BigInt(UPSTREAM_CHAIN_ID)),
      eth_getChainConfig: { ...config, feeConfig: { ...feeConfig, gasLimit: 0 } },
      eth_getBlockByNumber: genesis,
    };
    const fake = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const { id, method } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: answers[method] ?? null }));
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    try {
      const origin = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
      const refused = await callError(L, 'anvil_reset', [{ forking: { jsonRpcUrl: `${origin}/` } }]);
      expect(refused.message).toBe(
        `${origin}'s rules cannot run here: failed to verify genesis: invalid fee config: gasLimit cannot be less than or equal to 0: gasLimit = 0`,
      );
    } finally {
      fake.close();
    }
    expect(await call(L, 'eth_chainId')).toBe(qty(BigInt(UPSTREAM_CHAIN_ID)));
    expect(await call(L, 'eth_getBalance', [carol, 'latest'])).toBe('0x5');
  });

  it('keeps the rules when it forks another block of the same upstream', async () => {
    const at = async (n: bigint) => {
      expect(await call(L, 'anvil_reset', [{ forking: { blockNumber: Number(n) } }])).toBeNull();
      expect(BigInt(await call(L, 'eth_blockNumber'))).toBe(n);
      expect(await call(L, 'eth_chainId')).toBe(qty(BigInt(UPSTREAM_CHAIN_ID)));
      expect((await call(L, 'eth_getChainConfig')).contractNativeMinterConfig).toBeDefined();
    };
    // Alice was enabled by the fork block's last tx.
    await at(forkBlock - 1n);
    expect(await role(L, alice.address)).toBe(0n);
    await at(forkBlock);
    expect(await role(L, alice.address)).toBe(1n);
    await refusesStranger(L);
    await asEwoq(L, UPSTREAM_CHAIN_ID, MINTER, encodeFunctionData({ abi: minter, functionName: 'mintNativeCoin', args: [carol, 5n] }));
  });

  it('keeps its fork and rules when a reset fails and is rolled back', async () => {
    // A second L1 forks the upstream through a proxy (--fork-l1): a reset makes it again, asking its
    // upstream, and fails once the proxy is down.
    let down = false;
    const proxy = createServer(async (req, res) => {
      if (down) return void req.socket.destroy();
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answered = await fetch(U, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
      res.setHeader('content-type', 'application/json');
      res.end(await answered.text());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const other = `other=http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`;
    const second = await startTestNode({ dbType: 'memdb', dev: true, l1: [l1File], forkL1: [other], forkRetries: 0 });
    try {
      const M = `${second.uri}/ext/bc/mine/rpc`;
      expect(await call(M, 'anvil_reset', [{ forking: { jsonRpcUrl: U, blockNumber: Number(forkBlock) } }])).toBeNull();
      await refusesStranger(M);
      down = true;
      // Without forking, and with another block: each reset fails at the other L1 and is rolled back.
      for (const params of [[], [{ forking: { blockNumber: Number(forkBlock - 1n) } }]]) {
        expect((await callError(M, 'anvil_reset', params)).message).toMatch(/^the node could not be reset \(--fork-l1=other: .*\); it kept its state$/);
        expect(await call(M, 'eth_chainId')).toBe(qty(BigInt(UPSTREAM_CHAIN_ID)));
        expect(BigInt(await call(M, 'eth_blockNumber'))).toBe(forkBlock);
        expect(await role(M, alice.address)).toBe(1n);
        expect((await call(M, 'anvil_nodeInfo')).forkConfig).toMatchObject({ forkUrl: U, forkBlockNumber: Number(forkBlock) });
        await refusesStranger(M);
      }
    } finally {
      await second.stop();
      proxy.close();
    }
  }, 60_000);

  it("keeps the upstream's rules across a restart with the upstream stopped, and gives them back with the fork", async () => {
    await upstream.stop();
    await node.stop();
    node = await startNode();
    L = `${node.uri}/ext/bc/mine/rpc`;
    expect(await call(L, 'eth_chainId')).toBe(qty(BigInt(UPSTREAM_CHAIN_ID)));
    expect(await call(L, 'eth_getBalance', [carol, 'latest'])).toBe('0x5');
    expect((await call(L, 'eth_getChainConfig')).contractNativeMinterConfig).toBeDefined();
    await refusesStranger(L);
    // Without forking: a fork no more, the L1's own genesis and rules again, after a restart too.
    expect(await call(L, 'anvil_reset', [])).toBeNull();
    for (let round = 0; round < 2; round++) {
      expect(await call(L, 'eth_chainId')).toBe(qty(BigInt(OWN_CHAIN_ID)));
      expect(await call(L, 'eth_blockNumber')).toBe('0x0');
      expect((await call(L, 'eth_getChainConfig')).contractNativeMinterConfig).toBeUndefined();
      expect((await call(L, 'anvil_nodeInfo')).forkConfig.forkUrl).toBeNull();
      if (round === 0) {
        await node.stop();
        node = await startNode();
        L = `${node.uri}/ext/bc/mine/rpc`;
      }
    }
  }, 60_000);
});

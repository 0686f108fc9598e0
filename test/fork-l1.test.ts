// Forking an L1 (--fork-l1=name=url@block): the upstream is a second node running fixtures/gated.json
// (the native minter, the tx and deployer allow lists, the fee and reward managers, ewoq their admin),
// given history on its L1 (a mint, a role granted). The fork takes the upstream's chain ID, chain
// config and blocks, reads the precompiles' state from the upstream's storage, enforces it as the
// upstream does, and leaves the upstream alone.
import { join } from 'node:path';
import { encodeFunctionData, type Hex, parseAbi, parseGwei } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, startTestNode, type TestNode } from './helpers.js';

const GATED = join(import.meta.dirname, '..', 'fixtures', 'gated.json');
const EWOQ_KEY: Hex = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const ewoq = privateKeyToAccount(EWOQ_KEY);
const MINTER: Hex = '0x0200000000000000000000000000000000000001';
const TX_LIST: Hex = '0x0200000000000000000000000000000000000002';
const allowList = parseAbi(['function readAllowList(address) view returns (uint256)', 'function setEnabled(address)']);
const minter = parseAbi(['function mintNativeCoin(address addr, uint256 amount)']);

const alice = privateKeyToAccount(generatePrivateKey());
const bob = privateKeyToAccount(generatePrivateKey()).address;
const carol = privateKeyToAccount(generatePrivateKey()).address;

async function call<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const { json } = await rpc(url, method, params);
  if (json.error) throw new Error(`${method}: ${json.error.message}`);
  return json.result as T;
}

/** ewoq signs and sends a call (a legacy tx at a fixed price) and waits for its receipt. */
async function asEwoq(url: string, to: Hex, data: Hex): Promise<any> {
  const nonce = Number(await call(url, 'eth_getTransactionCount', [ewoq.address, 'latest']));
  const raw = await ewoq.signTransaction({ type: 'legacy', chainId: 99999, nonce, gas: 200_000n, gasPrice: parseGwei('50'), to, data });
  return call(url, 'eth_getTransactionReceipt', [await call(url, 'eth_sendRawTransaction', [raw])]);
}

const role = async (url: string, who: Hex, block = 'latest') =>
  BigInt(await call(url, 'eth_call', [{ to: TX_LIST, data: encodeFunctionData({ abi: allowList, functionName: 'readAllowList', args: [who] }) }, block]));

let upstream: TestNode;
let U: string;
let forkBlock: bigint;
let fork: TestNode;
let F: string;

beforeAll(async () => {
  upstream = await startTestNode({ dbType: 'memdb', dev: true, l1: [GATED] });
  U = `${upstream.uri}/ext/bc/gated/rpc`;
  expect((await asEwoq(U, MINTER, encodeFunctionData({ abi: minter, functionName: 'mintNativeCoin', args: [bob, 777n] }))).status).toBe('0x1');
  expect((await asEwoq(U, TX_LIST, encodeFunctionData({ abi: allowList, functionName: 'setEnabled', args: [alice.address] }))).status).toBe('0x1');
  forkBlock = BigInt(await call(U, 'eth_blockNumber'));
  // History after the fork block, which the fork must not see.
  await asEwoq(U, MINTER, encodeFunctionData({ abi: minter, functionName: 'mintNativeCoin', args: [bob, 1n] }));
  fork = await startTestNode({ dbType: 'memdb', dev: true, forkL1: [`forked=${U}@${forkBlock}`] });
  F = `${fork.uri}/ext/bc/forked/rpc`;
}, 120_000);

afterAll(async () => {
  await fork?.stop();
  await upstream?.stop();
});

describe('a fork of an L1 (--fork-l1)', () => {
  it("takes the upstream's chain ID, chain config and blocks up to the fork block", async () => {
    expect(await call(F, 'eth_chainId')).toBe('0x1869f');
    expect(BigInt(await call(F, 'eth_blockNumber'))).toBe(forkBlock);
    for (const n of [0n, forkBlock]) {
      const at = `0x${n.toString(16)}`;
      expect(await call(F, 'eth_getBlockByNumber', [at, true])).toEqual(await call(U, 'eth_getBlockByNumber', [at, true]));
    }
    const { upgrades: _, ...theirs } = await call(U, 'eth_getChainConfig');
    const { upgrades: __, ...mine } = await call(F, 'eth_getChainConfig');
    expect(mine).toEqual(theirs);
  });

  it("reads the precompiles' state and the balances from the upstream's storage at the fork block", async () => {
    expect(await role(F, alice.address)).toBe(1n);
    expect(await role(F, ewoq.address)).toBe(2n);
    expect(await role(F, carol)).toBe(0n);
    expect(await call(F, 'eth_getBalance', [bob, 'latest'])).toBe('0x309');
  });

  it('enforces them as the upstream does: the tx allow list refuses, the minter mints for its admin', async () => {
    const dave = privateKeyToAccount(generatePrivateKey());
    await call(F, 'anvil_setBalance', [dave.address, '0xde0b6b3a7640000']);
    const raw = await dave.signTransaction({ type: 'legacy', chainId: 99999, nonce: 0, gas: 21_000n, gasPrice: parseGwei('50'), to: bob });
    const refused = await rpc(F, 'eth_sendRawTransaction', [raw]);
    expect(refused.json.error.message).toBe(`cannot issue transaction from non-allow listed address: ${dave.address}`);
    const minted = await asEwoq(F, MINTER, encodeFunctionData({ abi: minter, functionName: 'mintNativeCoin', args: [carol, 5n] }));
    expect(minted.status).toBe('0x1');
    expect(BigInt(minted.blockNumber)).toBe(forkBlock + 1n);
    expect((await call(F, 'eth_getBlockByNumber', [minted.blockNumber, false])).parentHash).toBe(
      (await call(U, 'eth_getBlockByNumber', [`0x${forkBlock.toString(16)}`, false])).hash,
    );
    expect(await call(F, 'eth_getBalance', [carol, 'latest'])).toBe('0x5');
    // The upstream is unchanged.
    expect(await call(U, 'eth_getBalance', [carol, 'latest'])).toBe('0x0');
    expect(await call(U, 'eth_getBalance', [bob, 'latest'])).toBe('0x30a');
  });

  it('refuses to fork the C-Chain as an L1, in one line at start', async () => {
    await expect(startTestNode({ dbType: 'memdb', forkL1: [`c=${upstream.uri}/ext/bc/C/rpc`], forkRetries: 0 })).rejects.toThrow(
      /^--fork-l1=c: http:\/\/127\.0\.0\.1:\d+ is coreth \(the C-Chain\), not Subnet-EVM: fork it with --fork-url$/,
    );
  });
});

// A fork of the C-Chain through the clients users fork with: viem (public, wallet and Anvil test
// clients) and ethers 6. The upstream is a second node with a token and an NFT made before the fork
// block and more blocks after it; the fork must answer the upstream's history up to the fork block
// exactly, read its state there, build on it with impersonation, snapshots and time controls, and
// never touch the upstream. Every test starts at the fork block (a snapshot taken before it, reverted
// after it), so each sees the same fork whatever ran before.
import { createHash } from 'node:crypto';
import { Contract, JsonRpcProvider, NonceManager, type TransactionReceipt as EthersReceipt } from 'ethers';
import {
  type Abi,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  parseEther,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.js';
import { call, startTestNode, tempDir, type TestNode } from './helpers.js';
import { fixture } from './support/solc.js';

const token = fixture('TestToken');
const nft = fixture('TestNFT');
const tokenAbi = token.abi as Abi;
const nftAbi = nft.abi as Abi;
// The node's deterministic --test-accounts (vms/avm/testaccounts.ts): account 0 makes the history.
const deployer = privateKeyToAccount(`0x${createHash('sha256').update('avalanche-emulator test account 0').digest('hex')}`);
const HOLDERS = Array.from({ length: 6 }, (_, i) => getAddress(`0x${(0xf00d0 + i).toString(16).padStart(40, '0')}`));
const [whale, recipient] = [HOLDERS[0]!, HOLDERS[1]!];
const NFT_IDS = [1n, 2n, 3n, 4n];
const LATE_NFT = 5n; // minted upstream after the fork block

const C = (uri: string) => `${uri}/ext/bc/C/rpc`;
let upstream: TestNode;
let fork: Awaited<ReturnType<typeof startEmulator>>;
let U: string;
let F: string;
let chainId: number;
let forkBlock: bigint;
let tokenAddress: Hex;
let nftAddress: Hex;
let tokenTxs: Hex[] = [];
let up: PublicClient;
let fc: PublicClient;
/** The upstream as it stood once its history was made: the fork must not change it. */
let upstreamBefore: unknown;

const chainOf = (url: string) =>
  defineChain({ id: chainId, name: 'C fork', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
// cacheTime 0 and a short poll: viem otherwise caches the block number for 4 s, which an instant miner outruns.
const publicClient = (url: string, batch = false) =>
  createPublicClient({ chain: chainOf(url), transport: http(url, { batch }), cacheTime: 0, pollingInterval: 20 }) as PublicClient;
const balance = (client: PublicClient, who: Hex, blockNumber?: bigint) =>
  client.readContract({ address: tokenAddress, abi: tokenAbi, functionName: 'balanceOf', args: [who], blockNumber }) as Promise<bigint>;

async function upstreamSnapshot() {
  const head = await up.getBlock();
  const balances = await Promise.all([deployer.address, ...HOLDERS].map((h) => balance(up, h)));
  const ownerOf = (id: bigint) => up.readContract({ address: nftAddress, abi: nftAbi, functionName: 'ownerOf', args: [id] });
  const owners = await Promise.all([...NFT_IDS, LATE_NFT].map(ownerOf));
  return { head: head.hash, number: head.number, balances, owners, nonce: await up.getTransactionCount({ address: whale }) };
}

beforeAll(async () => {
  upstream = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 2 });
  U = C(upstream.uri);
  chainId = Number(await call(U, 'eth_chainId', []));
  up = publicClient(U);
  const wallet = createWalletClient({ chain: chainOf(U), transport: http(U), account: deployer });
  // The upstream's dev mode mines each tx as it arrives: the receipt is there once the send returns.
  const mined = async (hash: Promise<Hex>) => up.getTransactionReceipt({ hash: await hash });
  const write = (address: Hex, abi: Abi, functionName: string, args: unknown[]) => mined(wallet.writeContract({ address, abi, functionName, args }));

  const deployed = await mined(wallet.deployContract({ abi: tokenAbi, bytecode: token.bytecode, args: ['Fork', 'FRK', 10n ** 24n] }));
  tokenAddress = deployed.contractAddress!;
  tokenTxs = [deployed.transactionHash];
  for (const [i, h] of HOLDERS.entries()) tokenTxs.push((await write(tokenAddress, tokenAbi, 'transfer', [h, parseEther(`${100 + i}`)])).transactionHash);
  nftAddress = (await mined(wallet.deployContract({ abi: nftAbi, bytecode: nft.bytecode, args: ['Fork NFT', 'FNFT'] }))).contractAddress!;
  for (const id of NFT_IDS) await write(nftAddress, nftAbi, 'mint', [HOLDERS[Number(id) % HOLDERS.length]!, id]);
  forkBlock = await up.getBlockNumber();
  // History after the fork block, which the fork must not see: a transfer to the recipient, a mint.
  await write(tokenAddress, tokenAbi, 'transfer', [recipient, parseEther('7')]);
  await write(nftAddress, nftAbi, 'mint', [whale, LATE_NFT]);
  upstreamBefore = await upstreamSnapshot();

  fork = await startEmulator({
    httpPort: 0,
    logLevel: 'off',
    dataDir: tempDir('fork-clients-'),
    dbType: 'memdb',
    dev: true,
    forkUrl: U,
    forkBlockNumber: `${forkBlock}`,
  });
  F = C(fork.uri);
  fc = publicClient(F);
}, 120_000);

afterAll(async () => {
  await fork?.stop().catch(() => undefined);
  await upstream?.stop().catch(() => undefined);
});

let snapshot: string;
beforeEach(async () => {
  snapshot = await call(F, 'evm_snapshot', []);
});
afterEach(async () => {
  expect(await call(F, 'evm_revert', [snapshot])).toBe(true);
});

describe('viem against the fork', () => {
  const test = () => createTestClient({ chain: chainOf(F), mode: 'anvil', transport: http(F), cacheTime: 0 });
  const walletAs = (address: Hex) => createWalletClient({ chain: chainOf(F), transport: http(F), account: address });

  it("serves the fork block, a pre-fork receipt and the Transfer history as the upstream does, and no block of the upstream's after it", async () => {
    // Whole blocks: hash, parentHash, stateRoot, transactions and every other field.
    for (const includeTransactions of [false, true]) {
      const at = { blockNumber: forkBlock, includeTransactions };
      expect(await fc.getBlock(at)).toEqual(await up.getBlock(at));
    }
    for (const hash of [tokenTxs[0]!, tokenTxs[3]!]) expect(await fc.getTransactionReceipt({ hash })).toEqual(await up.getTransactionReceipt({ hash }));
    for (const [address, abi, count] of [
      [tokenAddress, tokenAbi, 1 + HOLDERS.length],
      [nftAddress, nftAbi, NFT_IDS.length],
    ] as const) {
      const range = { address, abi, eventName: 'Transfer', fromBlock: 0n, toBlock: forkBlock } as const;
      const events = await fc.getContractEvents(range);
      expect(events).toHaveLength(count);
      expect(events).toEqual(await up.getContractEvents(range));
    }
    const raw = { address: [tokenAddress, nftAddress], fromBlock: 0n, toBlock: forkBlock };
    expect(await fc.getLogs(raw)).toEqual(await up.getLogs(raw));
    // Past its head the fork answers as coreth (and the upstream) does for a block not yet accepted.
    await expect(fc.getBlock({ blockNumber: forkBlock + 1n })).rejects.toThrow(/cannot query unfinalized data/);
  });

  it('reads the contracts as they were at the fork block, not as the upstream has them now', async () => {
    for (const h of [deployer.address, ...HOLDERS]) {
      const then = await balance(up, h, forkBlock);
      expect(await balance(fc, h)).toBe(then);
      expect(await balance(fc, h, forkBlock)).toBe(then);
    }
    expect(await balance(up, recipient)).toBe((await balance(fc, recipient)) + parseEther('7'));
    // The NFT minted upstream after the fork block does not exist on the fork: the contract's own revert.
    await expect(fc.readContract({ address: nftAddress, abi: nftAbi, functionName: 'ownerOf', args: [LATE_NFT] })).rejects.toThrow(/ERC721: invalid token ID/);
    expect(await fc.readContract({ address: nftAddress, abi: nftAbi, functionName: 'ownerOf', args: [2n] })).toBe(HOLDERS[2]);
  });

  // BUG: state reads at a block before the fork block (eth_call, eth_getBalance, eth_getCode,
  // eth_getStorageAt, eth_getTransactionCount, eth_estimateGas, eth_getProof) answer HTTP 500
  // "internal error: forked state: trie node <that block's stateRoot> is missing and its key is
  // unknown", not JSON-RPC; Anvil answers them with the upstream's state at that block.
  it('reads the contracts at a block before the fork block as the upstream does', async () => {
    const earlier = forkBlock - 2n;
    for (const h of [deployer.address, ...HOLDERS]) expect(await balance(fc, h, earlier)).toBe(await balance(up, h, earlier));
    const avax = (client: PublicClient) => client.getBalance({ address: deployer.address, blockNumber: earlier });
    expect(await avax(fc)).toBe(await avax(up));
  });

  it('answers 50 reads sent at once, one HTTP request each and as one JSON-RPC batch', async () => {
    // Most of them read storage the fork has not fetched from the upstream yet.
    const who = (i: number) => (i < 20 ? HOLDERS[i % HOLDERS.length]! : getAddress(`0x${(0xbeef00 + i).toString(16).padStart(40, '0')}`));
    const reads = Array.from({ length: 50 }, (_, i) =>
      i % 5 === 4
        ? { address: nftAddress, abi: nftAbi, functionName: 'ownerOf', args: [NFT_IDS[i % NFT_IDS.length]!] }
        : { address: tokenAddress, abi: tokenAbi, functionName: 'balanceOf', args: [who(i)] },
    );
    const expected = await Promise.all(reads.map((r) => up.readContract({ ...r, blockNumber: forkBlock })));
    expect(expected.filter((v) => v === 0n)).toHaveLength(24);
    for (const client of [publicClient(F), publicClient(F, true)]) expect(await Promise.all(reads.map((r) => client.readContract(r)))).toEqual(expected);
  });

  it('sends as an impersonated holder: setBalance, writeContract, waitForTransactionReceipt', async () => {
    const t = test();
    await t.impersonateAccount({ address: whale });
    await t.setBalance({ address: whale, value: parseEther('10') });
    const before = await balance(fc, whale);
    const hash = await walletAs(whale).writeContract({ address: tokenAddress, abi: tokenAbi, functionName: 'transfer', args: [recipient, 5n] });
    const receipt = await fc.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    expect(receipt).toMatchObject({ status: 'success', from: whale.toLowerCase(), blockNumber: forkBlock + 1n });
    expect((await fc.getBlock({ blockNumber: receipt.blockNumber })).parentHash).toBe((await up.getBlock({ blockNumber: forkBlock })).hash);
    expect(await balance(fc, whale)).toBe(before - 5n);
    expect(await balance(fc, recipient)).toBe((await balance(up, recipient, forkBlock)) + 5n);
    await t.stopImpersonatingAccount({ address: whale });
    const again = walletAs(whale).writeContract({ address: tokenAddress, abi: tokenAbi, functionName: 'transfer', args: [recipient, 1n] });
    await expect(again).rejects.toThrow(/unknown account/);
  });

  it('snapshot and revert around a transfer put the balances and the head back', async () => {
    const t = test();
    await t.impersonateAccount({ address: whale });
    await t.setBalance({ address: whale, value: parseEther('10') });
    const [whaleBefore, recipientBefore] = [await balance(fc, whale), await balance(fc, recipient)];
    const id = await t.snapshot();
    const hash = await walletAs(whale).writeContract({ address: tokenAddress, abi: tokenAbi, functionName: 'transfer', args: [recipient, whaleBefore] });
    expect((await fc.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe('success');
    expect(await balance(fc, whale)).toBe(0n);
    await t.revert({ id });
    expect(await fc.getBlockNumber()).toBe(forkBlock);
    expect([await balance(fc, whale), await balance(fc, recipient)]).toEqual([whaleBefore, recipientBefore]);
    expect(await fc.getTransactionReceipt({ hash }).catch(() => null)).toBeNull();
  });

  it("mines and moves time on top of the fork block, the chain going on from the upstream's hash", async () => {
    const t = test();
    const base = await up.getBlock({ blockNumber: forkBlock });
    await t.mine({ blocks: 1 });
    const first = await fc.getBlock({ blockNumber: forkBlock + 1n });
    expect(first.parentHash).toBe(base.hash);
    // The upstream's own block at that height is another block.
    expect(first.hash).not.toBe((await up.getBlock({ blockNumber: forkBlock + 1n })).hash);
    await t.increaseTime({ seconds: 3600 });
    await t.mine({ blocks: 1 });
    const second = await fc.getBlock({ blockNumber: forkBlock + 2n });
    expect(second.parentHash).toBe(first.hash);
    expect(second.timestamp - first.timestamp).toBeGreaterThanOrEqual(3600n);
    await t.setNextBlockTimestamp({ timestamp: second.timestamp + 1000n });
    await t.mine({ blocks: 1 });
    const third = await fc.getBlock({ blockNumber: forkBlock + 3n });
    expect([third.parentHash, third.timestamp]).toEqual([second.hash, second.timestamp + 1000n]);
    // The state at the tip is still the fork block's.
    expect(await balance(fc, whale)).toBe(await balance(up, whale, forkBlock));
  });

  it('estimates gas and simulates calls on the fork as the upstream does at the fork block', async () => {
    const transfer = { address: tokenAddress, abi: tokenAbi, functionName: 'transfer', account: whale } as const;
    const gas = await fc.estimateContractGas({ ...transfer, args: [recipient, 1n] });
    expect(gas).toBe(await up.estimateContractGas({ ...transfer, args: [recipient, 1n], blockNumber: forkBlock }));
    expect(gas).toBeGreaterThan(21_000n);
    const { result, request } = await fc.simulateContract({ ...transfer, args: [recipient, 1n] });
    expect(result).toBe(true);
    expect(request).toMatchObject({ functionName: 'transfer', args: [recipient, 1n] });
    const all = await balance(fc, whale);
    await expect(fc.simulateContract({ ...transfer, args: [recipient, all + 1n] })).rejects.toThrow(/ERC20: insufficient balance/);
  });
});

describe('ethers 6 against the fork', () => {
  let provider: JsonRpcProvider;
  beforeAll(() => {
    // A static network (no eth_chainId before each call) and no 250 ms read cache: the fork mines at once.
    provider = new JsonRpcProvider(F, chainId, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 20 });
  });
  afterAll(() => provider.destroy());

  /** Polls for a receipt: tx.wait() learns of blocks by polling and can lag an instant miner. */
  async function receiptOf(hash: string): Promise<EthersReceipt> {
    for (let i = 0; i < 500; i++) {
      const receipt = await provider.getTransactionReceipt(hash);
      if (receipt) return receipt;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no receipt for ${hash}`);
  }

  it("reads the fork block and the token's balances", async () => {
    const { hash, parentHash, stateRoot, transactions } = await up.getBlock({ blockNumber: forkBlock });
    expect(await provider.getBlock(forkBlock)).toMatchObject({ hash, parentHash, stateRoot, transactions });
    const erc20 = new Contract(tokenAddress, token.abi, provider);
    for (const h of HOLDERS) expect(await erc20.getFunction('balanceOf')(h)).toBe(await balance(up, h, forkBlock));
  });

  it('an impersonated JsonRpcSigner sends back to back through a NonceManager; queryFilter spans the fork block', async () => {
    await provider.send('anvil_impersonateAccount', [whale]);
    await provider.send('anvil_setBalance', [whale, `0x${parseEther('10').toString(16)}`]);
    const signer = new NonceManager(await provider.getSigner(whale));
    const erc20 = new Contract(tokenAddress, token.abi, signer);
    // Sent at once, none waiting for another: the NonceManager counts the nonces, and the node takes
    // them in whatever order they arrive.
    const hashes = (await Promise.all([1n, 2n, 3n].map((amount) => erc20.getFunction('transfer')(recipient, amount)))).map((tx) => tx.hash as string);
    const receipts = await Promise.all(hashes.map(receiptOf));
    expect(receipts.map((r) => r.status)).toEqual([1, 1, 1]);
    const nonces = await Promise.all(hashes.map(async (h) => (await provider.getTransaction(h))!.nonce));
    const first = await provider.getTransactionCount(whale, Number(forkBlock));
    expect(nonces).toEqual([first, first + 1, first + 2]);

    // Transfers to the recipient: one made before the fork block (served from the upstream's history),
    // three made here; not the upstream's own transfer after the fork block.
    const events = await erc20.queryFilter(erc20.filters.Transfer!(null, recipient), 0, 'latest');
    const before = await up.getTransactionReceipt({ hash: tokenTxs[2]! });
    expect(events.map((e) => [e.blockNumber, e.transactionHash])).toEqual([
      [Number(before.blockNumber), before.transactionHash],
      ...receipts.map((r) => [r.blockNumber, r.hash]),
    ]);
    expect(events[0]!.blockNumber).toBeLessThanOrEqual(Number(forkBlock));
    expect(receipts.every((r) => r.blockNumber > Number(forkBlock))).toBe(true);
    expect(events[0]).toMatchObject({ blockHash: before.blockHash, index: before.logs[0]!.logIndex, data: before.logs[0]!.data });
    await provider.send('anvil_stopImpersonatingAccount', [whale]);
  });
});

describe('the upstream', () => {
  it('is as it was before the fork was made and used', async () => {
    expect(await upstreamSnapshot()).toEqual(upstreamBefore);
  });
});

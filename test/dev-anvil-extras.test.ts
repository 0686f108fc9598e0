// Anvil's methods beyond the mining and state controls, as viem's test client calls them and as
// Anvil 1.7.1 answers them (read off its binary): a block timestamp interval, the logging switch,
// unsigned sends, eth_getAccount / eth_getAccountInfo, anvil_addBalance, anvil_removePoolTransactions,
// anvil_getGenesisTime. Without --dev none exists.
import { concat, createPublicClient, createTestClient, defineChain, getContractAddress, http, pad } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendTipped } from './support/tips.js';
import { call, startTestNode, type TestNode } from './helpers.js';

const EMPTY_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
const EMPTY_CODE = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

describe("Anvil's other methods (--dev)", () => {
  let node: TestNode;
  let url: string;
  let from: `0x${string}`;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1 });
    url = `${node.uri}/ext/bc/C/rpc`;
    from = (await call(url, 'eth_accounts', []))[0];
  });
  afterAll(() => node.stop());

  const clients = () => {
    const chain = defineChain({ id: 43112, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    return {
      test: createTestClient({ chain, mode: 'anvil', transport: http(url), cacheTime: 0 }),
      client: createPublicClient({ chain, transport: http(url), cacheTime: 0 }),
    };
  };

  it("viem's test client: a block timestamp interval, the logging switch, an unsigned send", async () => {
    const { test, client } = clients();
    await test.setBlockTimestampInterval({ interval: 5 });
    await test.mine({ blocks: 1 });
    const a = await client.getBlock();
    await test.mine({ blocks: 1 });
    const b = await client.getBlock();
    expect(b.timestamp - a.timestamp).toBe(5n);
    await test.removeBlockTimestampInterval();
    expect(await call(url, 'anvil_removeBlockTimestampInterval', [])).toBe(false);
    await test.setLoggingEnabled(false);
    expect(await call(url, 'hardhat_setLoggingEnabled', [true])).toBeNull();
    const stranger = `0x${'5a'.repeat(20)}` as const;
    await test.setBalance({ address: stranger, value: 10n ** 18n });
    const hash = await test.sendUnsignedTransaction({ from: stranger, to: from, value: 1n });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 5 });
    expect([receipt.status, receipt.from]).toEqual(['success', stranger]);
  });

  it('eth_getAccount and eth_getAccountInfo read an account at a block; anvil_addBalance adds', async () => {
    const empty = `0x${'e7'.repeat(20)}`;
    expect(await call(url, 'eth_getAccount', [empty, 'latest'])).toEqual({ nonce: '0x0', balance: '0x0', storageRoot: EMPTY_ROOT, codeHash: EMPTY_CODE });
    expect(await call(url, 'eth_getAccountInfo', [empty, 'latest'])).toEqual({ balance: '0x0', nonce: '0x0', code: '0x' });
    expect(await call(url, 'anvil_addBalance', [empty, '0x10'])).toBeNull();
    expect(await call(url, 'anvil_addBalance', [empty, 16])).toBeNull();
    expect((await call(url, 'eth_getAccount', [empty, 'latest'])).balance).toBe('0x20');
    await call(url, 'anvil_setCode', [empty, '0x6001']);
    const info = await call(url, 'eth_getAccountInfo', [empty, 'latest']);
    expect([info.balance, info.code]).toEqual(['0x20', '0x6001']);
    expect((await call(url, 'eth_getAccount', [empty, 'latest'])).codeHash).not.toBe(EMPTY_CODE);
    // Anvil 1.7.1 answers hardhat_addBalance and Tenderly's names too (an earlier reading had it refuse the first).
    expect(await call(url, 'hardhat_addBalance', [empty, 1])).toBeNull();
    expect(await call(url, 'tenderly_addBalance', [empty, '100'])).toBeNull();
    expect((await call(url, 'eth_getAccount', [empty, 'latest'])).balance).toBe('0x85');
    expect(await call(url, 'tenderly_setBalance', [empty, '0x20'])).toBeNull();
    // The sum saturates at 2^256-1.
    const max = `0x${'f'.repeat(64)}`;
    await call(url, 'anvil_addBalance', [empty, max]);
    expect((await call(url, 'eth_getAccount', [empty, 'latest'])).balance).toBe(max);
    await call(url, 'anvil_setBalance', [empty, '0x20']);
    // A bare 0x is 0 to Anvil's U256.
    expect(await call(url, 'anvil_setBalance', [empty, '0x'])).toBeNull();
    expect((await call(url, 'eth_getAccount', [empty, 'latest'])).balance).toBe('0x0');
    // anvil_dumpState takes Anvil's optional preserveHistoricalStates.
    expect(await call(url, 'anvil_dumpState', [true])).toMatch(/^0x1f8b/);
  });

  it("web3_clientVersion passes Hardhat's network helpers' gate; hardhat_metadata's instanceId outlives a revert, not a reset", async () => {
    const version: string = await call(url, 'web3_clientVersion', []);
    expect(version).toBe('anvil/v1.7.1 (avalanche-emulator; coreth v1.14.2)');
    // hardhat-network-helpers' checkIfDevelopmentNetwork, and OpenZeppelin upgrades' name before '/'.
    expect(version.toLowerCase().startsWith('anvil')).toBe(true);
    expect(version.split('/', 1)[0]).toBe('anvil');
    const head = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    const meta = await call(url, 'hardhat_metadata', []);
    expect(meta).toEqual({
      clientVersion: version,
      chainId: 43112,
      instanceId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      latestBlockNumber: Number(head.number),
      latestBlockHash: head.hash,
    });
    expect(await call(url, 'anvil_metadata', [])).toEqual({ ...meta, forkedNetwork: null });
    const id = await call(url, 'evm_snapshot', []);
    await call(url, 'evm_mine', []);
    expect(await call(url, 'evm_revert', [id])).toBe(true);
    expect((await call(url, 'hardhat_metadata', [])).instanceId).toBe(meta.instanceId);
  });

  it('anvil_removePoolTransactions takes every pool tx of an address; anvil_getGenesisTime', async () => {
    await call(url, 'evm_setAutomine', [false]);
    try {
      for (let i = 0; i < 2; i++) await call(url, 'eth_sendTransaction', [{ from, to: `0x${'0b'.repeat(20)}`, value: '0x1' }]);
      expect(await call(url, 'txpool_status', [])).toEqual({ pending: '0x2', queued: '0x0' });
      expect(await call(url, 'anvil_removePoolTransactions', [from])).toBeNull();
      expect(await call(url, 'txpool_status', [])).toEqual({ pending: '0x0', queued: '0x0' });
    } finally {
      await call(url, 'evm_setAutomine', [true]);
    }
    const genesis = await call(url, 'eth_getBlockByNumber', ['0x0', false]);
    expect(await call(url, 'anvil_getGenesisTime', [])).toBe(Number(genesis.timestamp));
  });

  it("Anvil's CREATE2 deployer is there: forge's salted deploys go through it", async () => {
    const proxy = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
    expect(await call(url, 'eth_getCode', [proxy, 'latest'])).toBe(
      '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3',
    );
    // Init code returning the one-byte runtime 0x01, deployed with salt 1 as forge sends it: salt ‖ init code.
    const initCode = '0x600160005360016000f3';
    const salt = pad('0x01');
    const hash = await call(url, 'eth_sendTransaction', [{ from, to: proxy, data: concat([salt, initCode]) }]);
    const receipt = await clients().client.waitForTransactionReceipt({ hash, pollingInterval: 5 });
    expect(receipt.status).toBe('success');
    const created = getContractAddress({ opcode: 'CREATE2', from: proxy, salt, bytecode: initCode });
    expect(await call(url, 'eth_getCode', [created, 'latest'])).toBe('0x01');
  });

  it('evm_revert drops a next block timestamp set since the snapshot, as Anvil resets its time manager', async () => {
    // Hardhat's loadFixture reverts between tests: a time one test pinned must not reach the next.
    const pinned = BigInt(Math.floor(Date.now() / 1000)) + 100_000n;
    const id = await call(url, 'evm_snapshot', []);
    expect(await call(url, 'evm_setNextBlockTimestamp', [Number(pinned)])).toBeNull();
    expect(await call(url, 'evm_revert', [id])).toBe(true);
    await call(url, 'evm_mine', []);
    const after = BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).timestamp);
    expect(after < pinned - 50_000n, `block at ${after}, pinned ${pinned}`).toBe(true);
    // Set again and not reverted, it holds (once).
    const again = pinned + 1n;
    await call(url, 'evm_setNextBlockTimestamp', [Number(again)]);
    await call(url, 'evm_mine', []);
    expect(BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).timestamp)).toBe(again);
  });

  it('evm_revert takes the block time back to the restored head, as Anvil resets its time manager', async () => {
    const latest = async () => BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).timestamp);
    const DAY = 86_400n;
    // Moved on by evm_increaseTime, by a pinned time that a block then used, and across a revert
    // that rebuilds the node (a load in between rewrites every chain's store): each time the next
    // block after the revert comes at the snapshot's head time, not a day or ten later.
    const moves: Array<[string, () => Promise<unknown>]> = [
      ['increaseTime', () => call(url, 'evm_increaseTime', [Number(DAY)])],
      ['a pinned time, mined', async () => call(url, 'evm_setNextBlockTimestamp', [Number((await latest()) + 10n * DAY)])],
      ['a load in between', async () => call(url, 'anvil_loadState', [await call(url, 'anvil_dumpState', [])])],
    ];
    for (const [what, move] of moves) {
      await call(url, 'evm_mine', []);
      const head = await latest();
      const id = await call(url, 'evm_snapshot', []);
      await call(url, 'evm_increaseTime', [Number(DAY)]);
      await move();
      await call(url, 'evm_mine', []);
      expect((await latest()) >= head + DAY, what).toBe(true);
      expect(await call(url, 'evm_revert', [id]), what).toBe(true);
      await call(url, 'evm_mine', []);
      const after = await latest();
      expect(after >= head && after < head + 600n, `${what}: head ${head}, after the revert ${after}`).toBe(true);
    }
  });

  it("eth_coinbase names anvil_setCoinbase's coinbase; setNonce and anvil_mine take Anvil's number forms", async () => {
    const coinbase = `0x${'00'.repeat(19)}cb`;
    expect(await call(url, 'eth_coinbase', [])).toBe('0x0100000000000000000000000000000000000000');
    await call(url, 'anvil_setCoinbase', [coinbase]);
    expect(await call(url, 'eth_coinbase', [])).toBe(coinbase);
    await call(url, 'evm_mine', []);
    expect((await call(url, 'eth_getBlockByNumber', ['latest', false])).miner).toBe(coinbase);
    await call(url, 'anvil_setCoinbase', ['0x0100000000000000000000000000000000000000']);
    // U256s to Anvil: a bare 0x is 0; a nonce past 2^64-1 saturates to it.
    const who = `0x${'ab'.repeat(20)}`;
    expect(await call(url, 'anvil_setNonce', [who, '0x10000000000000005'])).toBeNull();
    expect(await call(url, 'eth_getTransactionCount', [who, 'latest'])).toBe('0xffffffffffffffff');
    expect(await call(url, 'anvil_setNonce', [who, '0x'])).toBeNull();
    expect(await call(url, 'eth_getTransactionCount', [who, 'latest'])).toBe('0x0');
    const head = await call(url, 'eth_blockNumber', []);
    expect(await call(url, 'anvil_mine', ['0x'])).toBeNull();
    expect(await call(url, 'eth_blockNumber', [])).toBe(head);
    expect(await call(url, 'hardhat_mine', ['0x2', '0x'])).toBeNull();
    expect(BigInt(await call(url, 'eth_blockNumber', []))).toBe(BigInt(head) + 2n);
  });

  it('a reset gives the chain a new instanceId (last: it resets the node)', async () => {
    const before = (await call(url, 'hardhat_metadata', [])).instanceId;
    expect(await call(url, 'hardhat_reset', [])).toBeNull();
    expect((await call(url, 'hardhat_metadata', [])).instanceId).not.toBe(before);
  });
});

describe('evm_revert on a chain whose head is its genesis (--dev)', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
  });
  afterAll(() => node.stop());

  it("takes no chain back to its genesis' time (2020 on the local network): the clock goes on", async () => {
    const url = `${node.uri}/ext/bc/C/rpc`;
    const genesis = BigInt((await call(url, 'eth_getBlockByNumber', ['0x0', false])).timestamp);
    const now = BigInt(Math.floor(Date.now() / 1000));
    expect(genesis < now - 86_400n).toBe(true);
    const id = await call(url, 'evm_snapshot', []);
    await call(url, 'evm_increaseTime', [86_400]);
    expect(await call(url, 'evm_revert', [id])).toBe(true);
    await call(url, 'evm_mine', []);
    const mined = BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).timestamp);
    expect(mined >= now - 60n && mined < now + 3_600n, `mined at ${mined}, now ${now}`).toBe(true);
  });

  it('keeps a date a test set in the past across a revert, as Anvil does', async () => {
    const url = `${node.uri}/ext/bc/C/rpc`;
    const latest = async () => BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).timestamp);
    // Back at genesis (2020), then a date pinned in 2023 and a block after it.
    expect(await call(url, 'anvil_reset', [])).toBeNull();
    await call(url, 'evm_setNextBlockTimestamp', [1_700_000_000]);
    await call(url, 'evm_mine', []);
    await call(url, 'evm_mine', []);
    const head = await latest();
    expect(head >= 1_700_000_000n && head < 1_700_000_600n, `head ${head}`).toBe(true);
    const id = await call(url, 'evm_snapshot', []);
    await call(url, 'evm_mine', []);
    expect(await call(url, 'evm_revert', [id])).toBe(true);
    await call(url, 'evm_mine', []);
    const after = await latest();
    expect(after >= head && after < head + 600n, `head ${head}, after the revert ${after}`).toBe(true);
  });

  it('a load does not leave the clock behind the loaded head (its blocks would stall at its time)', async () => {
    const url = `${node.uri}/ext/bc/C/rpc`;
    const latest = async () => BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).timestamp);
    await call(url, 'evm_increaseTime', [30 * 86_400]);
    await call(url, 'evm_mine', []);
    const dump = await call(url, 'anvil_dumpState', []);
    expect(await call(url, 'anvil_reset', [])).toBeNull();
    expect(await call(url, 'anvil_loadState', [dump])).toBe(true);
    const head = await latest();
    await call(url, 'evm_increaseTime', [86_400]);
    await call(url, 'evm_mine', []);
    expect((await latest()) >= head + 86_400n, `head ${head}, then ${await latest()}`).toBe(true);
  });

  it("the tip oracle looks back from the chain's present, not from a pinned next block time", async () => {
    const url = `${node.uri}/ext/bc/C/rpc`;
    const tip = 50_000_000_000n;
    await sendTipped(url, tip);
    const head = BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).timestamp);
    await call(url, 'evm_setNextBlockTimestamp', [Number(head + 86_400n)]);
    expect(BigInt(await call(url, 'eth_maxPriorityFeePerGas', []))).toBe(tip);
  });
});

// Subnet-EVM's allow-list precompiles on an L1 (fixtures/gated.json: the tx allow list, the
// contract deployer allow list and the native minter, ewoq admin of each, an initial mint), through
// viem: roles and their events, the tx allow list refusing at admission, a deploy by a non-enabled
// origin mined with status 0, minting, a manager's limits, the dispatcher's errors, and a precompile
// called from a contract. Texts, topics and gas are subnet-evm's (../shared/reference/subnet-evm.md §3).
import { join } from 'node:path';
import {
  type Abi,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  nonceManager,
  pad,
  parseAbi,
  parseEther,
  type PublicClient,
  toEventSelector,
  toHex,
} from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startTestNode, type TestNode } from './helpers.js';
import { fixture } from './support/solc.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'gated.json');
const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const DEPLOYERS: Hex = '0x0200000000000000000000000000000000000000';
const MINTER: Hex = '0x0200000000000000000000000000000000000001';
const TX_LIST: Hex = '0x0200000000000000000000000000000000000002';
const ROLE_SET = toEventSelector('RoleSet(uint256,address,address,uint256)');
const MINTED = toEventSelector('NativeCoinMinted(address,address,uint256)');
const allowList = parseAbi([
  'function readAllowList(address) view returns (uint256)',
  'function setAdmin(address)',
  'function setEnabled(address)',
  'function setManager(address)',
  'function setNone(address)',
]);
const minterAbi = parseAbi(['function mintNativeCoin(address addr, uint256 amount)']);

const gated = defineChain({ id: 99999, name: 'gated', nativeCurrency: { name: 'Token', symbol: 'TKN', decimals: 18 }, rpcUrls: { default: { http: [] } } });
const word = (a: Hex) => pad(a.toLowerCase() as Hex, { size: 32 });
/** Intrinsic gas of a call with this calldata (Istanbul: 4 per zero byte, 16 per other). */
const intrinsic = (data: Hex) => {
  const bytes = Buffer.from(data.slice(2), 'hex');
  return 21_000n + bytes.reduce((sum, b) => sum + (b === 0 ? 4n : 16n), 0n);
};

describe('allow-list precompiles and the native minter on an L1 (fixtures/gated.json)', () => {
  let node: TestNode;
  let url: string;
  let client: PublicClient;
  const ewoq = privateKeyToAccount(EWOQ_KEY, { nonceManager });
  const alice = privateKeyToAccount(generatePrivateKey(), { nonceManager });
  const carol = privateKeyToAccount(generatePrivateKey(), { nonceManager });
  const dave = privateKeyToAccount(generatePrivateKey());
  const walletOf = (account: PrivateKeyAccount) => createWalletClient({ chain: gated, transport: http(url), account });
  const send = async (account: PrivateKeyAccount, to: Hex, data: Hex, gas?: bigint) => {
    const hash = await walletOf(account).sendTransaction({ to, data, chain: gated, account, ...(gas ? { gas } : {}) });
    return client.waitForTransactionReceipt({ hash });
  };
  const call = async (from: Hex, to: Hex | undefined, data: Hex) =>
    (await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ from, ...(to ? { to } : {}), data }, 'latest'] }))).json;

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', l1: [FIXTURE] });
    url = `${node.uri}/ext/bc/gated/rpc`;
    client = createPublicClient({ chain: gated, transport: http(url), cacheTime: 0 }) as PublicClient;
    for (const to of [alice.address, carol.address]) {
      await client.waitForTransactionReceipt({ hash: await walletOf(ewoq).sendTransaction({ to, value: parseEther('10'), chain: gated, account: ewoq }) });
    }
  });
  afterAll(() => node.stop());

  it('activates at genesis: code 0x01, the admin role, the initial mint', async () => {
    for (const address of [DEPLOYERS, MINTER, TX_LIST]) {
      expect(await client.getCode({ address })).toBe('0x01');
      expect(await client.readContract({ address, abi: allowList, functionName: 'readAllowList', args: [ewoq.address] })).toBe(2n);
    }
    expect(await client.getBalance({ address: '0x3333333333333333333333333333333333333333' })).toBe(100n);
  });

  it('refuses a tx from an address the tx allow list does not enable, at admission', async () => {
    const raw = await alice.signTransaction({
      chainId: 99999,
      nonce: 0,
      to: ewoq.address,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 0n,
    });
    expect((await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] }))).json.error).toEqual({
      code: -32000,
      message: `cannot issue transaction from non-allow listed address: ${alice.address}`,
    });
    // eth_call does not apply it.
    expect((await call(alice.address, ewoq.address, '0x')).result).toBe('0x');
  });

  it('sets a role with its RoleSet event and gas (20,000 + 2,131 for the event)', async () => {
    const data = encodeFunctionData({ abi: allowList, functionName: 'setEnabled', args: [alice.address] });
    const receipt = await send(ewoq, TX_LIST, data);
    expect(receipt.status).toBe('success');
    expect(receipt.gasUsed).toBe(intrinsic(data) + 22_131n);
    expect(receipt.logs).toHaveLength(1);
    expect(receipt.logs[0]!.address).toBe(TX_LIST);
    expect(receipt.logs[0]!.topics).toEqual([ROLE_SET, toHex(1n, { size: 32 }), word(alice.address), word(ewoq.address)]);
    expect(receipt.logs[0]!.data).toBe(toHex(0n, { size: 32 }));
    expect(await client.readContract({ address: TX_LIST, abi: allowList, functionName: 'readAllowList', args: [alice.address] })).toBe(1n);
    // Now alice may send.
    const hash = await walletOf(alice).sendTransaction({ to: ewoq.address, value: 1n, chain: gated, account: alice });
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
  });

  it('mines a deploy by a non-enabled tx.origin with status 0 and all its gas; calls and estimates answer the error', async () => {
    const token = fixture('TestToken');
    const data = token.bytecode;
    const expected = `tx.origin ${alice.address} is not authorized to deploy a contract`;
    expect((await call(alice.address, undefined, data)).error).toEqual({ code: -32000, message: expected });
    const estimate = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_estimateGas', params: [{ from: alice.address, data }] }));
    expect(estimate.json.error.message).toBe(expected);
    const receipt = await send(alice, undefined as unknown as Hex, data, 3_000_000n);
    expect(receipt.status).toBe('reverted');
    expect(receipt.gasUsed).toBe(3_000_000n);
  });

  it('mints native coin for an enabled caller, with its event; refuses others with its text', async () => {
    const bob = privateKeyToAccount(generatePrivateKey()).address;
    const data = encodeFunctionData({ abi: minterAbi, functionName: 'mintNativeCoin', args: [bob, 1_000n] });
    const receipt = await send(ewoq, MINTER, data);
    expect(receipt.gasUsed).toBe(intrinsic(data) + 31_756n);
    expect(receipt.logs[0]!.topics).toEqual([MINTED, word(ewoq.address), word(bob)]);
    expect(receipt.logs[0]!.data).toBe(toHex(1_000n, { size: 32 }));
    expect(await client.getBalance({ address: bob })).toBe(1_000n);
    expect((await call(alice.address, MINTER, data)).error).toEqual({ code: -32000, message: `non-enabled cannot mint: ${alice.address}` });
    // A direct tx that fails: included, status 0, all its gas used, no logs.
    const failed = await send(alice, MINTER, data, 100_000n);
    expect(failed.status).toBe('reverted');
    expect(failed.gasUsed).toBe(100_000n);
    expect(failed.logs).toEqual([]);
  });

  it('lets a manager move addresses between None and Enabled only', async () => {
    await send(ewoq, TX_LIST, encodeFunctionData({ abi: allowList, functionName: 'setManager', args: [carol.address] }));
    const enable = await send(carol, TX_LIST, encodeFunctionData({ abi: allowList, functionName: 'setEnabled', args: [dave.address] }));
    expect(enable.status).toBe('success');
    expect((await call(carol.address, TX_LIST, encodeFunctionData({ abi: allowList, functionName: 'setAdmin', args: [dave.address] }))).error).toEqual({
      code: -32000,
      message: `cannot modify allow list: modify address: ${carol.address}, from role: EnabledRole, to role: AdminRole`,
    });
    expect((await call(carol.address, TX_LIST, encodeFunctionData({ abi: allowList, functionName: 'setNone', args: [ewoq.address] }))).error.message).toBe(
      `cannot modify allow list: modify address: ${carol.address}, from role: AdminRole, to role: NoRole`,
    );
  });

  it("answers the dispatcher's errors for a bad selector or input", async () => {
    expect((await call(ewoq.address, TX_LIST, '0x12')).error).toEqual({ code: -32000, message: 'missing function selector to precompile - input length (1)' });
    expect((await call(ewoq.address, TX_LIST, '0x12345678')).error).toEqual({ code: -32000, message: 'invalid function selector: 0x12345678' });
  });

  it('fails a call from a contract without data, refuses writes in a static call and a delegatecall', async () => {
    const caller = fixture('AllowListCaller');
    const abi = caller.abi as Abi;
    const hash = await walletOf(ewoq).deployContract({ abi, bytecode: caller.bytecode, chain: gated, account: ewoq });
    const address = (await client.waitForTransactionReceipt({ hash })).contractAddress!;
    expect(await client.readContract({ address, abi, functionName: 'roleOf', args: [TX_LIST, ewoq.address] })).toBe(2n);
    // The contract has no role: the precompile fails, and the caller sees an empty revert.
    const failing = await call(ewoq.address, address, encodeFunctionData({ abi, functionName: 'enable', args: [TX_LIST, dave.address] }));
    expect(failing.error).toEqual({ code: -32000, message: 'execution reverted' });
    await send(ewoq, TX_LIST, encodeFunctionData({ abi: allowList, functionName: 'setAdmin', args: [address] }));
    expect(await client.readContract({ address, abi, functionName: 'enableStatic', args: [TX_LIST, dave.address] })).toBe(false);
    const delegated = await client.simulateContract({ address, abi, functionName: 'enableDelegated', args: [TX_LIST, dave.address], account: ewoq });
    expect(delegated.result).toBe(false);
    const ok = await client.simulateContract({ address, abi, functionName: 'enable', args: [TX_LIST, dave.address], account: ewoq });
    expect(ok.result).toBeUndefined();
  });

  it('is not pre-warmed: a first call from a contract pays the cold access', async () => {
    // A contract's readAllowList costs the cold account access (2,600) where a warm precompile would cost 100.
    const caller = fixture('AllowListCaller');
    const abi = caller.abi as Abi;
    const hash = await walletOf(ewoq).deployContract({ abi, bytecode: caller.bytecode, chain: gated, account: ewoq });
    const address = (await client.waitForTransactionReceipt({ hash })).contractAddress!;
    const data = encodeFunctionData({ abi, functionName: 'roleOf', args: [TX_LIST, ewoq.address] });
    const cold = await client.estimateGas({ account: ewoq.address, to: address, data });
    const warm = await client.estimateGas({
      account: ewoq.address,
      to: address,
      data,
      accessList: [{ address: TX_LIST, storageKeys: [] }],
    } as Parameters<PublicClient['estimateGas']>[0]);
    // With the address in the access list the call is warm: 2,500 cheaper, less the list's own 2,400.
    expect(cold - warm).toBe(100n);
  });
});

describe('the fee manager and the reward manager on an L1 (fixtures/gated.json)', () => {
  let node: TestNode;
  let url: string;
  let client: PublicClient;
  // No nonce manager: viem's is keyed by address and chain ID, and would carry the other node's nonces here.
  const ewoq = privateKeyToAccount(EWOQ_KEY);
  const FEES: Hex = '0x0200000000000000000000000000000000000003';
  const REWARDS: Hex = '0x0200000000000000000000000000000000000004';
  const BLACKHOLE: Hex = '0x0100000000000000000000000000000000000000';
  const feeAbi = parseAbi([
    'function setFeeConfig(uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)',
    'function getFeeConfig() view returns (uint256 gasLimit, uint256 targetBlockRate, uint256 minBaseFee, uint256 targetGas, uint256 baseFeeChangeDenominator, uint256 minBlockGasCost, uint256 maxBlockGasCost, uint256 blockGasCostStep)',
    'function getFeeConfigLastChangedAt() view returns (uint256 blockNumber)',
  ]);
  const rewardAbi = parseAbi([
    'function setRewardAddress(address addr)',
    'function allowFeeRecipients()',
    'function disableRewards()',
    'function currentRewardAddress() view returns (address)',
    'function areFeeRecipientsAllowed() view returns (bool)',
  ]);
  const genesisFees = [20_000_000n, 2n, 1_000_000_000n, 100_000_000n, 48n, 0n, 10_000_000n, 500_000n] as const;
  const newFees = [30_000_000n, 2n, 2_000_000_000n, 100_000_000n, 48n, 0n, 10_000_000n, 500_000n] as const;
  const rpc = async (method: string, params: unknown[]) => (await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).json;
  const send = async (to: Hex, data: Hex) => {
    const wallet = createWalletClient({ chain: gated, transport: http(url), account: ewoq });
    // Explicit fees: once the fee manager raises minBaseFee, a fee cap drawn from the latest block's
    // base fee (viem's default) is under the new pool minimum, on a real node as here.
    const fees = { maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1n };
    return client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to, data, chain: gated, account: ewoq, ...fees }) });
  };
  const transfer = () => send('0x4444444444444444444444444444444444444444', '0x');

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', l1: [FIXTURE] });
    url = `${node.uri}/ext/bc/gated/rpc`;
    client = createPublicClient({ chain: gated, transport: http(url), cacheTime: 0 }) as PublicClient;
  });
  afterAll(() => node.stop());

  it('changes the fee config from the next block on, with FeeConfigChanged and its gas', async () => {
    expect((await rpc('eth_feeConfig', [])).result.lastChangedAt).toBe(0);
    expect(await client.readContract({ address: FEES, abi: feeAbi, functionName: 'getFeeConfig' })).toEqual(genesisFees);
    const alice = privateKeyToAccount(generatePrivateKey()).address;
    const data = encodeFunctionData({ abi: feeAbi, functionName: 'setFeeConfig', args: newFees });
    expect((await call(alice, data)).error).toEqual({ code: -32000, message: `non-enabled cannot change fee config: ${alice}` });
    const bad = encodeFunctionData({ abi: feeAbi, functionName: 'setFeeConfig', args: [30_000_000n, 2n, 1n, 0n, 48n, 0n, 1n, 1n] });
    expect((await call(ewoq.address, bad)).error.message).toBe('cannot verify fee config: targetGas cannot be less than or equal to 0: targetGas = 0');

    const receipt = await send(FEES, data);
    expect(receipt.gasUsed).toBe(intrinsic(data) + 225_221n);
    expect(receipt.logs[0]!.topics).toEqual([
      toEventSelector(
        'FeeConfigChanged(address,(uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256),(uint256,uint256,uint256,uint256,uint256,uint256,uint256,uint256))',
      ),
      word(ewoq.address),
    ]);
    expect(receipt.logs[0]!.data).toBe(`0x${[...genesisFees, ...newFees].map((n) => n.toString(16).padStart(64, '0')).join('')}`);
    const changedAt = receipt.blockNumber;
    // The block that changed it still ran under the old config.
    expect((await client.getBlock({ blockNumber: changedAt })).gasLimit).toBe(20_000_000n);
    expect((await rpc('eth_feeConfig', ['latest'])).result).toEqual({
      feeConfig: {
        gasLimit: 30000000,
        targetBlockRate: 2,
        minBaseFee: 2000000000,
        targetGas: 100000000,
        baseFeeChangeDenominator: 48,
        minBlockGasCost: 0,
        maxBlockGasCost: 10000000,
        blockGasCostStep: 500000,
      },
      lastChangedAt: Number(changedAt),
    });
    expect((await rpc('eth_feeConfig', [`0x${(changedAt - 1n).toString(16)}`])).result.lastChangedAt).toBe(0);
    expect(await client.readContract({ address: FEES, abi: feeAbi, functionName: 'getFeeConfigLastChangedAt' })).toBe(changedAt);
    const next = await client.getBlock({ blockNumber: (await transfer()).blockNumber });
    expect(next.gasLimit).toBe(30_000_000n);
    expect(next.baseFeePerGas).toBe(2_000_000_000n);
    // The pool's minimum follows the new minBaseFee.
    const raw = await privateKeyToAccount(EWOQ_KEY).signTransaction({
      chainId: 99999,
      nonce: await client.getTransactionCount({ address: ewoq.address }),
      to: ewoq.address,
      gas: 21_000n,
      maxFeePerGas: 1_500_000_000n,
      maxPriorityFeePerGas: 0n,
    });
    expect((await rpc('eth_sendRawTransaction', [raw])).error.message).toBe(
      `transaction underpriced: address ${ewoq.address} have gas fee cap (1500000000) < pool minimum fee cap (2000000000)`,
    );
  });

  it("pays the fees to the reward manager's address from the next block, then to fee recipients, then to the blackhole", async () => {
    expect(await client.readContract({ address: REWARDS, abi: rewardAbi, functionName: 'currentRewardAddress' })).toBe(BLACKHOLE);
    expect(await client.readContract({ address: REWARDS, abi: rewardAbi, functionName: 'areFeeRecipientsAllowed' })).toBe(false);
    const reward: Hex = '0x5555555555555555555555555555555555555555';
    expect(
      (
        await call(
          ewoq.address,
          encodeFunctionData({ abi: rewardAbi, functionName: 'setRewardAddress', args: ['0x0000000000000000000000000000000000000000'] }),
          REWARDS,
        )
      ).error.message,
    ).toBe('reward address cannot be empty');
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    expect((await call(stranger, encodeFunctionData({ abi: rewardAbi, functionName: 'disableRewards' }), REWARDS)).error.message).toBe(
      `non-enabled cannot call disableRewards: ${stranger}`,
    );
    const data = encodeFunctionData({ abi: rewardAbi, functionName: 'setRewardAddress', args: [reward] });
    const set = await send(REWARDS, data);
    expect(set.gasUsed).toBe(intrinsic(data) + 31_875n);
    expect(set.logs[0]!.topics).toEqual([toEventSelector('RewardAddressChanged(address,address,address)'), word(ewoq.address), word(BLACKHOLE), word(reward)]);
    expect((await client.getBlock({ blockNumber: set.blockNumber })).miner).toBe(BLACKHOLE);
    const paid = await transfer();
    expect((await client.getBlock({ blockNumber: paid.blockNumber })).miner).toBe(reward);
    expect(await client.getBalance({ address: reward })).toBe(paid.gasUsed * paid.effectiveGasPrice);

    const allowed = await send(REWARDS, encodeFunctionData({ abi: rewardAbi, functionName: 'allowFeeRecipients' }));
    expect(allowed.logs[0]!.topics).toEqual([toEventSelector('FeeRecipientsAllowed(address)'), word(ewoq.address)]);
    expect(await client.readContract({ address: REWARDS, abi: rewardAbi, functionName: 'currentRewardAddress' })).toBe(
      '0x0000000000000000000000000000000000000000',
    );
    expect(await client.readContract({ address: REWARDS, abi: rewardAbi, functionName: 'areFeeRecipientsAllowed' })).toBe(true);
    // This node's fee recipient (the chain config's feeRecipient) is the blackhole by default.
    expect((await client.getBlock({ blockNumber: (await transfer()).blockNumber })).miner).toBe(BLACKHOLE);

    const disabled = await send(REWARDS, encodeFunctionData({ abi: rewardAbi, functionName: 'disableRewards' }));
    expect(disabled.logs[0]!.topics).toEqual([toEventSelector('RewardsDisabled(address)'), word(ewoq.address)]);
    expect(await client.readContract({ address: REWARDS, abi: rewardAbi, functionName: 'currentRewardAddress' })).toBe(BLACKHOLE);
  });

  async function call(from: Hex, data: Hex, to: Hex = FEES) {
    return rpc('eth_call', [{ from, to, data }, 'latest']);
  }
});

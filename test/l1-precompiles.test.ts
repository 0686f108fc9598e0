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

// Anvil's helpers a test suite leans on (--dev), as Anvil 1.7.1 answers them (read off its binary):
// EIP-7966's sends that answer with the receipt (through viem's actions), ERC-20 balances and
// allowances dealt by finding the token's slot, a sender's tx by nonce, eth_getStorageValues,
// anvil_setTime, evm_mine_detailed, and the typed-data methods Anvil does not implement.
import { type Abi, createPublicClient, createWalletClient, defineChain, encodeDeployData, encodeFunctionData, http, parseEther, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, startTestNode, type TestNode } from './helpers.js';
import { fixture } from './support/solc.js';

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const HOLDER: `0x${string}` = `0x${'a1'.repeat(20)}`;
const SPENDER: `0x${string}` = `0x${'b2'.repeat(20)}`;
const token = fixture('TestToken');
const tokenAbi = token.abi as Abi;

describe("Anvil's test-suite helpers (--dev)", () => {
  let node: TestNode;
  let url: string;
  let from: `0x${string}`;
  let tokenAddress: `0x${string}`;
  const read = (functionName: string, args: unknown[]) =>
    call(url, 'eth_call', [{ to: tokenAddress, data: encodeFunctionData({ abi: tokenAbi, functionName, args }) }, 'latest']);
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1 });
    url = `${node.uri}/ext/bc/C/rpc`;
    from = (await call(url, 'eth_accounts', []))[0];
    const data = encodeDeployData({ abi: tokenAbi, bytecode: token.bytecode, args: constructorArgs() });
    const receipt = await call(url, 'eth_sendTransactionSync', [{ from, data }]);
    tokenAddress = receipt.contractAddress;
  });
  afterAll(() => node.stop());

  /** TestToken's constructor arguments: its strings "T", its supply 10^24 (to the deployer). */
  function constructorArgs(): unknown[] {
    const ctor = tokenAbi.find((x) => x.type === 'constructor') as unknown as { inputs: Array<{ type: string }> };
    return ctor.inputs.map((i) => (i.type === 'string' ? 'T' : 10n ** 24n));
  }

  it("EIP-7966: viem's sync sends answer with the receipt", async () => {
    const chain = defineChain({ id: 43112, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    const wallet = createWalletClient({ chain, transport: http(url), account: privateKeyToAccount(EWOQ_KEY), cacheTime: 0 }).extend(publicActions);
    const signed = await wallet.signTransaction(await wallet.prepareTransactionRequest({ to: HOLDER, value: 1n }));
    const receipt = await wallet.sendRawTransactionSync({ serializedTransaction: signed });
    expect(receipt.status).toBe('success');
    expect(await call(url, 'eth_getTransactionReceipt', [receipt.transactionHash])).toMatchObject({ blockHash: receipt.blockHash, status: '0x1' });
    const local = createWalletClient({ chain, transport: http(url), account: from, cacheTime: 0 });
    const viaNode = await local.sendTransactionSync({ to: HOLDER, value: 2n });
    expect(viaNode.status).toBe('success');
    const client = createPublicClient({ chain, transport: http(url), cacheTime: 0 });
    expect(await client.getBalance({ address: HOLDER })).toBe(3n);
  });

  it('sync sends wait for the block that holds the tx, and time out as Anvil', async () => {
    await call(url, 'evm_setAutomine', [false]);
    try {
      // Mined by another client meanwhile: the receipt comes then.
      const waiting = call(url, 'eth_sendTransactionSync', [{ from, to: HOLDER, value: '0x1' }]);
      await new Promise((r) => setTimeout(r, 50));
      await call(url, 'evm_mine', []);
      expect((await waiting).status).toBe('0x1');
      // EIP-7966's timeout (ms): not mined within it, Anvil's error; the tx waits in the pool.
      const started = Date.now();
      expect(await callError(url, 'eth_sendTransactionSync', [{ from, to: HOLDER, value: '0x1' }, 200])).toEqual({
        code: -32603,
        message: 'Transaction confirmation timeout',
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await call(url, 'txpool_status', [])).pending).toBe('0x1');
    } finally {
      await call(url, 'evm_setAutomine', [true]);
    }
    await call(url, 'evm_mine', []);
    expect(await callError(url, 'eth_sendTransactionSync', [{ from: HOLDER, to: HOLDER }])).toEqual({ code: -32602, message: 'No Signer available' });
    // Without `from`, Anvil's first account sends.
    expect((await call(url, 'eth_sendTransactionSync', [{ to: HOLDER, value: '0x1' }])).from).toBe(from.toLowerCase());
  });

  it('anvil_dealERC20, its aliases and anvil_setERC20Allowance find the slot balanceOf and allowance read', async () => {
    const amount = parseEther('1234');
    expect(await call(url, 'anvil_dealERC20', [HOLDER, tokenAddress, `0x${amount.toString(16)}`])).toBeNull();
    expect(BigInt(await read('balanceOf', [HOLDER]))).toBe(amount);
    expect(await call(url, 'hardhat_dealERC20', [HOLDER, tokenAddress, '77'])).toBeNull();
    expect(BigInt(await read('balanceOf', [HOLDER]))).toBe(77n);
    expect(await call(url, 'anvil_setERC20Balance', [HOLDER, tokenAddress, 5])).toBeNull();
    expect(BigInt(await read('balanceOf', [HOLDER]))).toBe(5n);
    // The sender's balance is untouched: the holder's own slot was written.
    expect(BigInt(await read('balanceOf', [from]))).toBe(10n ** 24n);
    expect(await call(url, 'anvil_setERC20Allowance', [HOLDER, SPENDER, tokenAddress, '0x99'])).toBeNull();
    expect(BigInt(await read('allowance', [HOLDER, SPENDER]))).toBe(0x99n);
    // No block was made for them, and the state persists in the next one.
    await call(url, 'evm_mine', []);
    expect(BigInt(await read('balanceOf', [HOLDER]))).toBe(5n);
    // An account with no code has no slot.
    expect(await callError(url, 'anvil_dealERC20', [HOLDER, SPENDER, '0x1'])).toEqual({ code: -32603, message: 'Unable to set ERC20 balance, no slot found' });
    expect(await callError(url, 'anvil_setERC20Allowance', [HOLDER, SPENDER, SPENDER, '0x1'])).toEqual({
      code: -32603,
      message: 'Unable to set ERC20 allowance, no slot found',
    });
  });

  it('eth_getTransactionBySenderAndNonce: pooled, then mined, txs of a sender by nonce', async () => {
    const sender = `0x${'c3'.repeat(20)}`;
    await call(url, 'anvil_setBalance', [sender, '0xde0b6b3a7640000']);
    await call(url, 'anvil_impersonateAccount', [sender]);
    const hashes: string[] = [];
    for (let i = 0; i < 3; i++) {
      hashes.push(await call(url, 'eth_sendTransaction', [{ from: sender, to: HOLDER, value: '0x1' }]));
      await call(url, 'evm_mine', []);
    }
    for (let i = 0; i < 3; i++) {
      const tx = await call(url, 'eth_getTransactionBySenderAndNonce', [sender, i === 1 ? '1' : `0x${i.toString(16)}`]);
      expect(tx).toEqual(await call(url, 'eth_getTransactionByHash', [hashes[i]]));
    }
    expect(await call(url, 'eth_getTransactionBySenderAndNonce', [sender, 3])).toBeNull();
    // A U256 nonce no tx can have: null, as Anvil saturates it.
    expect(await call(url, 'eth_getTransactionBySenderAndNonce', [sender, '0x10000000000000000'])).toBeNull();
    await call(url, 'evm_setAutomine', [false]);
    try {
      const pooled = await call(url, 'eth_sendTransaction', [{ from: sender, to: HOLDER, value: '0x1' }]);
      expect(await call(url, 'eth_getTransactionBySenderAndNonce', [sender, 3])).toMatchObject({ hash: pooled, blockHash: null, blockNumber: null });
    } finally {
      await call(url, 'evm_setAutomine', [true]);
      await call(url, 'anvil_stopImpersonatingAccount', [sender]);
    }
  });

  it('eth_getStorageValues: many slots at a block, read as eth_getStorageAt reads them', async () => {
    const slots = [0, 1, 2, 3].map((i) => `0x${i.toString(16).padStart(64, '0')}`);
    const values = await call(url, 'eth_getStorageValues', [{ [tokenAddress]: slots, [HOLDER]: [slots[0]] }, 'latest']);
    expect(values[tokenAddress.toLowerCase()]).toEqual(await Promise.all(slots.map((s) => call(url, 'eth_getStorageAt', [tokenAddress, s, 'latest']))));
    expect(values[HOLDER]).toEqual([`0x${'0'.repeat(64)}`]);
    expect(await call(url, 'eth_getStorageValues', [{}, null])).toEqual({});
    expect((await callError(url, 'eth_getStorageValues', [{ [HOLDER]: ['0x2'] }, 'latest'])).message).toContain('odd number of digits');
    expect((await callError(url, 'eth_getStorageValues', [{ [HOLDER]: ['0x02'] }, 'latest'])).message).toContain('invalid string length');
    const many = Array.from({ length: 1025 }, () => slots[0]);
    expect(await callError(url, 'eth_getStorageValues', [{ [HOLDER]: many }, 'latest'])).toEqual({
      code: -32602,
      message: 'total slot count 1025 exceeds limit 1024',
    });
    expect((await callError(url, 'eth_getStorageValues', [{}])).code).toBe(-32602);
  });

  it('anvil_setTime: the clock reads the time given; its answer is how far ahead that was', async () => {
    const head = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    const t = Number(head.timestamp) + 100_000;
    const ahead = await call(url, 'anvil_setTime', [t]);
    expect(typeof ahead).toBe('number');
    expect(ahead).toBeGreaterThan(90_000);
    expect(ahead).toBeLessThanOrEqual(100_000);
    await call(url, 'evm_mine', []);
    const mined = Number((await call(url, 'eth_getBlockByNumber', ['latest', false])).timestamp);
    expect(mined - t).toBeGreaterThanOrEqual(0);
    expect(mined - t).toBeLessThan(3);
    // Over 10^12 the time is in ms; a pending next timestamp is dropped.
    await call(url, 'evm_setNextBlockTimestamp', [t + 500_000]);
    expect(await call(url, 'evm_setTime', [(t + 1_000) * 1000])).toBe(0);
    await call(url, 'evm_mine', []);
    const next = Number((await call(url, 'eth_getBlockByNumber', ['latest', false])).timestamp);
    expect(next - (t + 1_000)).toBeLessThan(3);
    expect(await callError(url, 'anvil_setTime', ['0xffffffffffffffff'])).toEqual({ code: -32602, message: 'The timestamp is too big' });
    expect(await callError(url, 'anvil_setTime', [-1])).toEqual({ code: -32602, message: 'data did not match any variant of untagged enum NumericSeq' });
  });

  it("evm_mine_detailed / anvil_mine_detailed: the blocks mined, with each tx's output and revert reason", async () => {
    const transfer = (to: string, amount: bigint) => encodeFunctionData({ abi: tokenAbi, functionName: 'transfer', args: [to, amount] });
    await call(url, 'evm_setAutomine', [false]);
    let ok: string;
    let failed: string;
    let mined: any[];
    try {
      ok = await call(url, 'eth_sendTransaction', [{ from, to: tokenAddress, data: transfer(SPENDER, 1n), gas: '0x20000' }]);
      failed = await call(url, 'eth_sendTransaction', [{ from, to: tokenAddress, data: transfer(SPENDER, 10n ** 30n), gas: '0x20000' }]);
      mined = await call(url, 'evm_mine_detailed', []);
    } finally {
      await call(url, 'evm_setAutomine', [true]);
    }
    expect(mined).toHaveLength(1);
    const [block] = mined;
    expect(block.hash).toBe((await call(url, 'eth_getBlockByNumber', ['latest', false])).hash);
    const { output: okOut, revertReason: okReason, ...okTx } = block.transactions[0];
    expect(okTx).toEqual(await call(url, 'eth_getTransactionByHash', [ok]));
    expect(okOut).toBe(`0x${'0'.repeat(63)}1`);
    expect(okReason).toBeUndefined();
    expect(block.transactions[1]).toMatchObject({ hash: failed, revertReason: 'ERC20: insufficient balance' });
    expect(block.transactions[1].output.slice(0, 10)).toBe('0x08c379a0');
    // MineOptions: two empty blocks at a time given.
    const t = Number(block.timestamp) + 10;
    const two = await call(url, 'anvil_mine_detailed', [{ timestamp: t, blocks: 2 }]);
    expect(two.map((b: any) => b.transactions)).toEqual([[], []]);
    expect(Number(two[0].timestamp)).toBe(t);
    expect(Number(two[1].number)).toBe(Number(block.number) + 2);
    expect(await callError(url, 'evm_mine_detailed', [{ blocks: 2 }])).toEqual({
      code: -32602,
      message: 'data did not match any variant of untagged enum MineOptions',
    });
  });

  it('eth_signTypedData and eth_signTypedData_v3: not implemented, as in Anvil', async () => {
    for (const m of ['eth_signTypedData', 'eth_signTypedData_v3'])
      expect(await callError(url, m, [from, {}])).toEqual({ code: -32603, message: 'Not implemented' });
  });
});

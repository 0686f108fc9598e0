// The dev controls through ethers 6 as Hardhat's network helpers call them (provider.send with the
// hardhat_/evm_ names and hex quantities), on an L1 (Subnet-EVM): loadFixture's snapshot/revert,
// impersonation through JsonRpcSigner, state edits, time, mining, the pool, fees and the coinbase.
import { JsonRpcProvider, NonceManager, toBeHex, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from './helpers.js';

const FIXTURE = new URL('../fixtures/myl1.json', import.meta.url).pathname;
const EWOQ = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const q = (n: bigint | number) => toBeHex(n);

describe('dev controls through ethers (Hardhat helpers), on an L1', () => {
  let node: TestNode;
  let provider: JsonRpcProvider;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1, l1: [FIXTURE] });
    provider = new JsonRpcProvider(`${node.uri}/ext/bc/myl1/rpc`, 99999, { staticNetwork: true, cacheTimeout: -1 });
  });
  afterAll(async () => {
    provider.destroy();
    await node.stop();
  });

  it("loadFixture's pattern: evm_snapshot after the fixture, evm_revert and evm_snapshot again around each test", async () => {
    const ewoq = new NonceManager(new Wallet(EWOQ, provider));
    let fixture: string = await provider.send('evm_snapshot', []);
    const start = await provider.getBlockNumber();
    for (let test = 0; test < 3; test++) {
      await (await ewoq.sendTransaction({ to: '0x00000000000000000000000000000000000000aa', value: 10n })).wait();
      expect(await provider.getBalance('0x00000000000000000000000000000000000000aa')).toBe(10n);
      expect(await provider.send('evm_revert', [fixture])).toBe(true);
      ewoq.reset();
      expect(await provider.getBlockNumber()).toBe(start);
      expect(await provider.getBalance('0x00000000000000000000000000000000000000aa')).toBe(0n);
      // The id is used up: loadFixture takes a new one.
      expect(await provider.send('evm_revert', [fixture])).toBe(false);
      const again: string = await provider.send('evm_snapshot', []);
      expect(BigInt(again)).toBeGreaterThan(BigInt(fixture));
      fixture = again;
    }
  });

  it('impersonates through JsonRpcSigner and edits state with the hardhat_ names', async () => {
    const whale = '0x00000000000000000000000000000000000000bb';
    await provider.send('hardhat_setBalance', [whale, q(10n ** 20n)]);
    await provider.send('hardhat_impersonateAccount', [whale]);
    const signer = await provider.getSigner(whale);
    const receipt = await (await signer.sendTransaction({ to: '0x00000000000000000000000000000000000000cc', value: 99n })).wait();
    expect(receipt!.from.toLowerCase()).toBe(whale);
    expect(await provider.getBalance('0x00000000000000000000000000000000000000cc')).toBe(99n);
    await provider.send('hardhat_stopImpersonatingAccount', [whale]);
    await expect(signer.sendTransaction({ to: whale, value: 1n })).rejects.toThrow(/unknown account/);

    // A contract that returns its storage slot 0: PUSH0 SLOAD PUSH0 MSTORE PUSH1 32 PUSH0 RETURN.
    const box = '0x00000000000000000000000000000000000000dd';
    await provider.send('hardhat_setCode', [box, '0x5f545f5260205ff3']);
    await provider.send('hardhat_setStorageAt', [box, '0x0', `0x${'0'.repeat(62)}2a`]);
    expect(BigInt(await provider.call({ to: box }))).toBe(42n);
    expect(await provider.getStorage(box, 0)).toBe(`0x${'0'.repeat(62)}2a`);
    await provider.send('hardhat_setNonce', [box, q(7)]);
    expect(await provider.getTransactionCount(box)).toBe(7);
  });

  it('impersonates a contract as Anvil does (EIP-3607 off): its txs run, its code stays, traces replay them', async () => {
    // PUSH0 PUSH0 LOG0 STOP: a call to it logs once.
    const safe = '0x000000000000000000000000000000000000a5fe';
    await provider.send('hardhat_setCode', [safe, '0x5f5fa000']);
    await provider.send('hardhat_setBalance', [safe, q(10n ** 18n)]);
    await provider.send('hardhat_impersonateAccount', [safe]);
    const signer = await provider.getSigner(safe);
    const out = (await (await signer.sendTransaction({ to: '0x000000000000000000000000000000000000a5ff', value: 5n })).wait())!;
    expect(out.status).toBe(1);
    expect(await provider.getBalance('0x000000000000000000000000000000000000a5ff')).toBe(5n);
    // To itself: its code runs as the tx's message.
    const self = (await (await signer.sendTransaction({ to: safe })).wait())!;
    expect(self.logs.map((l) => l.address.toLowerCase())).toEqual([safe]);
    expect(await provider.getCode(safe)).toBe('0x5f5fa000');
    expect(await provider.getTransactionCount(safe)).toBe(2);
    await provider.send('hardhat_stopImpersonatingAccount', [safe]);
    // Re-executed as built: the same call and log, and the block's state root after its last tx.
    const trace = await provider.send('debug_traceTransaction', [self.hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
    expect([trace.from, trace.to, trace.logs.length]).toEqual([safe, safe, 1]);
    const roots: string[] = await provider.send('debug_intermediateRoots', [self.blockHash]);
    expect(roots.at(-1)).toBe((await provider.getBlock(self.blockHash))!.stateRoot);
  });

  it('moves time and mines as the helpers do; holds, drops and prices txs; sets the coinbase', async () => {
    const before = (await provider.getBlock('latest'))!;
    await provider.send('evm_increaseTime', [3600]);
    await provider.send('evm_mine', []);
    expect((await provider.getBlock('latest'))!.timestamp).toBeGreaterThanOrEqual(before.timestamp + 3600);
    const target = (await provider.getBlock('latest'))!.timestamp + 100;
    await provider.send('evm_setNextBlockTimestamp', [target]);
    await provider.send('evm_mine', []);
    expect((await provider.getBlock('latest'))!.timestamp).toBe(target);
    const height = await provider.getBlockNumber();
    await provider.send('hardhat_mine', [q(5), q(10)]);
    const mined = (await provider.getBlock('latest'))!;
    expect(mined.number).toBe(height + 5);
    expect(mined.timestamp - (await provider.getBlock(height + 1))!.timestamp).toBe(40);

    const ewoq = new NonceManager(new Wallet(EWOQ, provider));
    await provider.send('evm_setAutomine', [false]);
    expect(await provider.send('hardhat_getAutomine', [])).toBe(false);
    const held = await ewoq.sendTransaction({ to: '0x00000000000000000000000000000000000000ee', value: 1n });
    expect(await provider.getTransactionReceipt(held.hash)).toBeNull();
    expect(await provider.send('hardhat_dropTransaction', [held.hash])).toBe(held.hash);
    ewoq.reset();
    await provider.send('hardhat_setCoinbase', ['0x00000000000000000000000000000000000000ff']);
    await provider.send('hardhat_setNextBlockBaseFeePerGas', [q(50_000_000_000n)]);
    const next = await ewoq.sendTransaction({
      to: '0x00000000000000000000000000000000000000ee',
      value: 2n,
      maxFeePerGas: 100_000_000_000n,
      maxPriorityFeePerGas: 1n,
    });
    await provider.send('evm_mine', []);
    await provider.send('evm_setAutomine', [true]);
    const receipt = (await next.wait())!;
    const block = (await provider.getBlock(receipt.blockNumber))!;
    expect(block.baseFeePerGas).toBe(50_000_000_000n);
    expect(block.miner.toLowerCase()).toBe('0x00000000000000000000000000000000000000ff');
    expect(await provider.getBalance('0x00000000000000000000000000000000000000ee')).toBe(2n);
    await expect(provider.send('hardhat_setMinGasPrice', [q(1)])).rejects.toThrow(/not supported when EIP-1559 is active/);
  });

  it('dumps, resets and loads the state with the anvil_/hardhat_ names; reports nodeInfo', async () => {
    const info = await provider.send('anvil_nodeInfo', []);
    expect(info.environment.chainId).toBe(99999);
    const height = await provider.getBlockNumber();
    const state = await provider.send('hardhat_dumpState', []);
    await provider.send('hardhat_reset', []);
    expect(await provider.getBlockNumber()).toBeLessThan(height);
    expect(await provider.getBalance('0x00000000000000000000000000000000000000ee')).toBe(0n);
    expect(await provider.send('hardhat_loadState', [state])).toBe(true);
    expect(await provider.getBlockNumber()).toBe(height);
    expect(await provider.getBalance('0x00000000000000000000000000000000000000ee')).toBe(2n);
    expect((await provider.listAccounts()).length).toBe(1);
  });
});

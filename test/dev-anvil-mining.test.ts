// Mining controls as Anvil 1.7.1 answers them (each expectation read off its binary,
// node_modules/@foundry-rs/anvil-linux-amd64, with the same requests): anvil_mine's interval moves
// the time before every block and a count of 0 mines nothing; evm_mine takes MineOptions; a past
// timestamp is serde's -32602; automine and interval mining are one mining mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, startTestNode, type TestNode } from './helpers.js';

describe("Anvil's mining controls", () => {
  let node: TestNode;
  let url: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    url = `${node.uri}/ext/bc/C/rpc`;
  });
  afterAll(() => node.stop());

  const head = async () => call(url, 'eth_getBlockByNumber', ['latest', false]);
  const time = (b: { timestamp: string }) => BigInt(b.timestamp);

  it('anvil_mine: the interval comes before every block, the offset keeps it; 0 blocks is none', async () => {
    const before = await head();
    const nextTime = BigInt(Math.floor(Date.now() / 1000));
    expect(await call(url, 'anvil_mine', [3, 10])).toBeNull();
    const last = await head();
    expect(Number(last.number) - Number(before.number)).toBe(3);
    const first = await call(url, 'eth_getBlockByNumber', [`0x${(Number(before.number) + 1).toString(16)}`, false]);
    // The first block one interval past the next block's time; the others exactly one apart.
    expect(time(first) >= nextTime + 10n).toBe(true);
    expect(time(last) - time(first)).toBe(20n);
    await call(url, 'evm_mine', []);
    expect(time(await head()) >= time(last)).toBe(true);
    const n = (await head()).number;
    expect(await call(url, 'anvil_mine', ['0x0'])).toBeNull();
    expect((await head()).number).toBe(n);
  });

  it('evm_mine takes a timestamp or MineOptions {timestamp, blocks}; a time in the past is -32602', async () => {
    const start = await head();
    const at = time(start) + 1000n;
    expect(await call(url, 'evm_mine', [{ timestamp: Number(at), blocks: 3 }])).toBe('0x0');
    const end = await head();
    expect(Number(end.number) - Number(start.number)).toBe(3);
    const first = await call(url, 'eth_getBlockByNumber', [`0x${(Number(start.number) + 1).toString(16)}`, false]);
    expect(time(first)).toBe(at);
    const noVariant = { code: -32602, message: 'data did not match any variant of untagged enum MineOptions' };
    expect(await callError(url, 'evm_mine', [{ blocks: 2 }])).toEqual(noVariant);
    expect(await callError(url, 'evm_mine', [{}])).toEqual(noVariant);
    const past = { code: -32602, message: "Timestamp error: 16 is lower than previous block's timestamp" };
    expect(await callError(url, 'evm_mine', [{ timestamp: '0x10' }])).toEqual(past);
    expect(await callError(url, 'evm_setNextBlockTimestamp', [16])).toEqual(past);
    expect((await head()).number).toBe(end.number);
  });

  it('automine and interval mining are one mode: each turns the other off', async () => {
    await call(url, 'evm_setIntervalMining', [60]);
    expect(await call(url, 'anvil_getAutomine', [])).toBe(false);
    await call(url, 'evm_setAutomine', [true]);
    expect(await call(url, 'anvil_getIntervalMining', [])).toBeNull();
    expect(await call(url, 'anvil_getAutomine', [])).toBe(true);
    // Interval 0 stops all mining, automine too.
    await call(url, 'evm_setIntervalMining', [0]);
    expect(await call(url, 'anvil_getAutomine', [])).toBe(false);
    await call(url, 'evm_setAutomine', [true]);
  });
});

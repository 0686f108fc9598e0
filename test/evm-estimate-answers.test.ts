// eth_estimateGas's kept answers (answers.ts) are the estimator's on one state: what no state says
// is never kept. A dev edit made and undone while an estimate runs does not reach some of its runs
// (each run reads the state the estimate started on; so do eth_createAccessList's passes), and a fork's upstream failing during an
// estimate is that failure, answered once and never again once the upstream is back.
import { pad } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.js';
import { call, type RpcReply, rpc, startTestNode, type TestNode, tempDir } from './helpers.js';
import { rpcProxy, type RpcProxy } from './support/rpcproxy.js';

const C = (uri: string) => `${uri}/ext/bc/C/rpc`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A reply's result, or its error: either is an answer to compare. */
const answerOf = (r: RpcReply): unknown => {
  expect(r.json).toBeDefined();
  return r.json.error ? { error: r.json.error } : r.json.result;
};

/**
 * Reads slot 0, reverts unless more than 9M gas is left, loops some 2.6M gas, then reverts if what
 * it read was not zero: it reads its gas, so the estimator searches with real runs, each reading
 * the slot as it starts.
 */
const SLOW = '0x6000545a6289544010601057600080fd5b620186a05b600190038060155750602357005b600080fd';
/** Reads slot 0, loops 50,000 times, then reads slot 1 if slot 0 was not zero: its access list follows slot 0. */
const ACCESS = '0x6000546200c3505b600190038060075750601557005b60015400';
/** Adds 10 to slot 5 and stores it in slot 6: a call that reads the storage a fork fetches. */
const READER = '0x600554600a0160065500';

describe("an estimate's kept answer", () => {
  let node: TestNode;
  let url: string;
  let from: string;

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1 });
    url = C(node.uri);
    from = (await call(url, 'eth_accounts', []))[0];
  });
  afterAll(() => node?.stop());

  /**
   * `method` asked of the code `code` placed at `to`, with its slot 0 set to 1 `after` ms into the
   * request and back to 0 `lasting` ms later (the state comes back to its root): the answer.
   */
  async function askWhileEdited(method: string, to: string, code: string, after: number, lasting: number): Promise<unknown> {
    await call(url, 'anvil_setCode', [to, code]);
    await call(url, 'evm_mine', []);
    const asked = rpc(url, method, [{ from, to }, 'latest']);
    await sleep(after);
    await call(url, 'anvil_setStorageAt', [to, '0x0', pad('0x01')]);
    await sleep(lasting);
    await call(url, 'anvil_setStorageAt', [to, '0x0', pad('0x00')]);
    return answerOf(await asked);
  }

  it('is of the state the estimate began on, whatever edit came and went meanwhile', async () => {
    const to = '0x00000000000000000000000000000000000c0de2';
    const first = await askWhileEdited('eth_estimateGas', to, SLOW, 100, 350);
    const args = { from, to };
    const fresh = answerOf(await rpc(url, 'eth_estimateGas', [args, 'latest', {}]));
    expect(first).toEqual(fresh);
    expect(answerOf(await rpc(url, 'eth_estimateGas', [args, 'latest']))).toEqual(fresh);
    await call(url, 'evm_mine', []);
    expect(answerOf(await rpc(url, 'eth_estimateGas', [args, 'latest']))).toEqual(fresh);
  });

  it("eth_createAccessList's passes all run on the state it began on", async () => {
    const to = '0x00000000000000000000000000000000000c0de3';
    const first = await askWhileEdited('eth_createAccessList', to, ACCESS, 300, 650);
    // The state is back to the one the first began on: a second asks the same of it.
    expect(first).toEqual(answerOf(await rpc(url, 'eth_createAccessList', [{ from, to }, 'latest'])));
  });
});

describe("a fork's estimate while its upstream fails", () => {
  let upstream: TestNode;
  let proxy: RpcProxy;
  let fork: Awaited<ReturnType<typeof startEmulator>>;
  let F: string;
  let failing = false;
  const reader = '0x00000000000000000000000000000000000fee01';
  const sender = '0x00000000000000000000000000000000000005e5';

  beforeAll(async () => {
    upstream = await startTestNode({ dbType: 'memdb', dev: true });
    const U = C(upstream.uri);
    await call(U, 'anvil_setCode', [reader, READER]);
    await call(U, 'anvil_setStorageAt', [reader, '0x5', pad('0x07')]);
    await call(U, 'anvil_setBalance', [sender, '0xde0b6b3a7640000']);
    await call(U, 'evm_mine', []);
    proxy = await rpcProxy(U, {
      reply: (answer) => (failing ? { jsonrpc: '2.0', id: answer.id, error: { code: -32000, message: 'upstream unavailable' } } : answer),
    });
    fork = await startEmulator({ httpPort: 0, logLevel: 'off', dataDir: tempDir('fork-estimate-'), dev: true, forkUrl: proxy.url, forkRetries: 0 });
    F = C(fork.uri);
  }, 60_000);
  afterAll(async () => {
    await fork?.stop().catch(() => undefined);
    proxy?.close();
    await upstream?.stop().catch(() => undefined);
  });

  it('fails with the upstream, then answers as a fresh estimate once it is back', async () => {
    // The sender is fetched first: only the reader's account and slot are left to fetch.
    await call(F, 'eth_getBalance', [sender, 'latest']);
    const args = { from: sender, to: reader, data: '0x01' };
    failing = true;
    const during = await rpc(F, 'eth_estimateGas', [args, 'latest']);
    failing = false;
    expect(during.json.error?.message).toMatch(/upstream unavailable/);
    const again = answerOf(await rpc(F, 'eth_estimateGas', [args, 'latest']));
    const fresh = answerOf(await rpc(F, 'eth_estimateGas', [args, 'latest', {}]));
    expect(typeof fresh).toBe('string');
    expect(again).toEqual(fresh);
    expect(answerOf(await rpc(F, 'eth_call', [args, 'latest']))).toBe('0x');
  });
});

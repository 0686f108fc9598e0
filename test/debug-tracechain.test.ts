// debug_subscribe("traceChain") over the websocket (coreth's TraceChain): the blocks after the start
// up to the end traced and pushed in order, as debug_traceBlockByNumber traces each, a block without
// txs only when it is the end; a tx whose trace fails pushed as {txHash, error} and the block's txs
// after it as null; coreth's refusals; debug_unsubscribe.
import { type Hex, pad, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { deployer, LOOP } from './support/programs.js';
import { DEV_NODE, evmClients, ewoq } from './support/evm.js';
import { call, callError, startTestNode, type TestNode } from './helpers.js';

const CALL_TRACER = { tracer: 'callTracer' };

interface Message {
  id?: number;
  result?: unknown;
  error?: { code: number; message: string };
  method?: string;
  params?: { subscription: string; result: { block: Hex; hash: Hex; traces: unknown[] } };
}

describe('debug_subscribe traceChain', () => {
  let node: TestNode;
  let url: string;
  let ws: WebSocket;
  const messages: Message[] = [];
  let nextId = 1;
  /** The head once the blocks below are made: 1 tx, 1 tx, empty, 2 txs, empty, [a loop that times out, a transfer]. */
  let head: bigint;

  const request = async (method: string, params: unknown[]): Promise<Message> => {
    const id = nextId++;
    ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 5))) {
      const reply = messages.find((m) => m.id === id);
      if (reply) return reply;
    }
    throw new Error(`no reply to ${method}`);
  };

  /** The notifications of `subscription` once one for block `last` came. */
  const pushed = async (subscription: string, last: bigint) => {
    const mine = () => messages.filter((m) => m.params?.subscription === subscription).map((m) => m.params!.result);
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 10))) {
      if (mine().some((r) => BigInt(r.block) === last)) return mine();
    }
    throw new Error(`no notification of block ${last}`);
  };

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    url = `${node.uri}/ext/bc/C/rpc`;
    const { client, wallet } = evmClients(node.uri, 'C', 43112, ewoq, DEV_NODE);
    const mined = async (hash: Hex) => client.waitForTransactionReceipt({ hash });
    const transfer = (to: Hex, nonce?: number) => wallet.sendTransaction({ to, value: 1n, ...(nonce === undefined ? {} : { nonce }) });
    const loop = (await mined(await wallet.sendTransaction({ data: `0x${deployer(LOOP)}` }))).contractAddress!;
    await mined(await transfer('0x1111111111111111111111111111111111111111'));
    await call(url, 'evm_mine', []);
    let nonce = await client.getTransactionCount({ address: ewoq.address });
    await call(url, 'evm_setAutomine', [false]);
    await transfer('0x2222222222222222222222222222222222222222', nonce++);
    await transfer('0x3333333333333333333333333333333333333333', nonce++);
    await call(url, 'evm_mine', []);
    await call(url, 'evm_mine', []);
    await wallet.sendTransaction({ to: loop, data: pad(toHex(200_000)), gas: 9_000_000n, nonce: nonce++ });
    await transfer('0x4444444444444444444444444444444444444444', nonce++);
    await call(url, 'evm_mine', []);
    await call(url, 'evm_setAutomine', [true]);
    head = BigInt(await call(url, 'eth_blockNumber', []));
    ws = new WebSocket(`${node.uri.replace('http', 'ws')}/ext/bc/C/ws`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.on('message', (m) => messages.push(JSON.parse(m.toString())));
  });
  afterAll(async () => {
    ws.close();
    await node.stop();
  });

  it('pushes each block after the start with txs, and the end, traced as debug_traceBlockByNumber traces it', async () => {
    const end = head - 1n;
    const sub = await request('debug_subscribe', ['traceChain', '0x0', toHex(end), CALL_TRACER]);
    const id = sub.result as string;
    const results = await pushed(id, end);
    const numbers = results.map((r) => BigInt(r.block));
    // Block 3 (evm_mine: empty) is skipped; the end is pushed though it has no txs.
    expect(numbers).toEqual([1n, 2n, 4n, end]);
    for (const r of results) {
      const block = await call(url, 'eth_getBlockByNumber', [r.block, false]);
      expect(r.hash).toBe(block.hash);
      expect(r.traces).toEqual(block.transactions.length === 0 ? [] : await call(url, 'debug_traceBlockByNumber', [r.block, CALL_TRACER]));
    }
    expect((await request('debug_unsubscribe', [id])).result).toBe(true);
    expect((await request('debug_unsubscribe', [id])).error?.message).toBe('subscription not found');
  });

  it("pushes a tx whose trace failed as its error, and the block's txs after it as null", async () => {
    const sub = await request('debug_subscribe', ['traceChain', toHex(head - 1n), toHex(head), { ...CALL_TRACER, timeout: '5ms' }]);
    const [last] = await pushed(sub.result as string, head);
    const block = await call(url, 'eth_getBlockByNumber', [toHex(head), false]);
    expect(last!.traces).toEqual([{ txHash: block.transactions[0], error: 'execution timeout' }, null]);
  });

  it('refuses what coreth refuses, and over HTTP: notifications not supported', async () => {
    expect((await request('debug_subscribe', ['traceChain', '0x3', '0x2'])).error).toEqual({
      code: -32000,
      message: 'end block (#2) needs to come after start block (#3)',
    });
    expect((await request('debug_subscribe', ['traceChain', 'latest', '0x1'])).error?.message).toBe('end block (#1) needs to come after start block (#-2)');
    expect((await request('debug_subscribe', ['traceChain', '0x0', '0x10000'])).error?.message).toBe('cannot query unfinalized data');
    expect((await request('debug_subscribe', ['traceChain', '0x0'])).error?.message).toBe('missing value for required argument 2');
    expect((await request('debug_subscribe', ['nope'])).error).toEqual({ code: -32601, message: 'no "nope" subscription in debug namespace' });
    expect(await callError(url, 'debug_subscribe', ['traceChain', '0x0', '0x1'])).toEqual({ code: -32601, message: 'notifications not supported' });
  });
});

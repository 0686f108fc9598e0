// The C-Chain's websocket stream and subscriptions as avalanchego 1.14.2's coreth answers them
// (graft/coreth/eth/filters, graft/evm/rpc at the v1.14.2 release): log ranges on subscriptions
// and filters (filterLogs), coreth's newAcceptedTransactions, no `syncing`, handleSubscribe's
// argument checks, respondWithBatchTooLarge, responses left unanswered, a stream that cannot be
// read on closing the connection (Client.read), and newHeads in HeaderSerializable's field order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { call, rpc, startTestNode, type TestNode } from './helpers.js';

/** A websocket that keeps every message it gets, in order, and how it closed. */
class Conn {
  readonly messages: any[] = [];
  closed?: number;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (d: Buffer) => this.messages.push(JSON.parse(d.toString())));
    ws.on('close', (code) => {
      this.closed = code;
    });
  }

  static open(url: string): Promise<Conn> {
    const ws = new WebSocket(url);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new Conn(ws)));
      ws.once('error', reject);
    });
  }

  /** Waits until `ok` holds of what has come (10 s at most). */
  async wait<T>(ok: () => T | undefined): Promise<T> {
    for (const deadline = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 10))) {
      const v = ok();
      if (v !== undefined && v !== false) return v;
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(this.messages)}`);
    }
  }

  /** Sends a call with a fresh id and answers its reply. */
  async ask(method: string, params?: unknown): Promise<any> {
    const id = Math.floor(Math.random() * 1e9);
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    return this.wait(() => this.messages.find((m) => m.id === id));
  }

  /** The results notified so far for subscription `id`. */
  notified(id: string): any[] {
    return this.messages.filter((m) => m.method === 'eth_subscription' && m.params.subscription === id).map((m) => m.params.result);
  }
}

const EMITTER = `0x${'e1'.repeat(20)}`;
// LOG1(0, 0, topic 0x01) then STOP: one log with one topic per call.
const EMITTER_CODE = '0x60015f5fa100';

describe('websocket subscriptions and stream as coreth', () => {
  let node: TestNode;
  let rpcUrl: string;
  let wsUrl: string;
  let from: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1 });
    rpcUrl = `${node.uri}/ext/bc/C/rpc`;
    wsUrl = `${node.uri.replace('http', 'ws')}/ext/bc/C/ws`;
    from = (await call(rpcUrl, 'eth_accounts', []))[0];
    await call(rpcUrl, 'anvil_setCode', [EMITTER, EMITTER_CODE]);
  });
  afterAll(() => node.stop());

  /** Sends a tx that logs once; answers its receipt. */
  const emit = async () => {
    const hash = await call(rpcUrl, 'eth_sendTransaction', [{ from, to: EMITTER }]);
    for (;;) {
      const receipt = await call(rpcUrl, 'eth_getTransactionReceipt', [hash]);
      if (receipt) return receipt;
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  it("logs subscriptions and filters keep to a numeric range (filterLogs); newAcceptedTransactions is coreth's", async () => {
    const c = await Conn.open(wsUrl);
    try {
      const head = BigInt(await call(rpcUrl, 'eth_blockNumber', []));
      const past = (await c.ask('eth_subscribe', ['logs', { address: EMITTER, fromBlock: '0x0', toBlock: '0x1' }])).result;
      const future = (await c.ask('eth_subscribe', ['logs', { address: EMITTER, fromBlock: `0x${(head + 100n).toString(16)}` }])).result;
      const open = (await c.ask('eth_subscribe', ['logs', { address: EMITTER, fromBlock: '0x0' }])).result;
      const hashes = (await c.ask('eth_subscribe', ['newAcceptedTransactions'])).result;
      const full = (await c.ask('eth_subscribe', ['newAcceptedTransactions', true])).result;
      const pastFilter = await call(rpcUrl, 'eth_newFilter', [{ address: EMITTER, fromBlock: '0x0', toBlock: '0x1' }]);
      const openFilter = await call(rpcUrl, 'eth_newFilter', [{ address: EMITTER }]);
      const receipt = await emit();
      await c.wait(() => c.notified(open).length === 1 && c.notified(full).length === 1);
      expect(c.notified(past)).toEqual([]);
      expect(c.notified(future)).toEqual([]);
      expect(await call(rpcUrl, 'eth_getFilterChanges', [pastFilter])).toEqual([]);
      expect(await call(rpcUrl, 'eth_getFilterChanges', [openFilter])).toHaveLength(1);
      expect(c.notified(hashes)).toEqual([receipt.transactionHash]);
      const [tx] = c.notified(full);
      expect([tx.hash, tx.from, tx.blockHash, tx.blockNumber, tx.transactionIndex]).toEqual([receipt.transactionHash, from, null, null, null]);
      expect((await c.ask('eth_subscribe', ['syncing'])).error).toEqual({ code: -32601, message: 'no "syncing" subscription in eth namespace' });
    } finally {
      c.ws.close();
    }
  });

  it("eth_subscribe's arguments are checked as handleSubscribe does, after the transport", async () => {
    const c = await Conn.open(wsUrl);
    const invalid = (message: string) => ({ code: -32602, message });
    try {
      const cases: Array<[unknown, unknown]> = [
        [undefined, invalid('non-array args')],
        [[], invalid('expected subscription name as first argument')],
        [[1], invalid('expected subscription name as first argument')],
        [[null], invalid('expected subscription name as first argument')],
        [['newHeads', null], invalid('too many arguments, want at most 1')],
        [['logs'], invalid('missing value for required argument 1')],
        [['logs', {}, 1], invalid('too many arguments, want at most 2')],
        [['logs', { topics: [['0x1']] }], invalid('invalid argument 1: hex string of odd length')],
        [['newPendingTransactions', 'x'], invalid('invalid argument 1: json: cannot unmarshal string into Go value of type bool')],
        [['nope'], { code: -32601, message: 'no "nope" subscription in eth namespace' }],
      ];
      for (const [params, error] of cases) expect([params, (await c.ask('eth_subscribe', params)).error]).toEqual([params, error]);
      expect((await c.ask('eth_subscribe', ['logs', null])).result).toMatch(/^0x[0-9a-f]+$/);
    } finally {
      c.ws.close();
    }
    // Over HTTP, notifications are refused before the params are looked at.
    expect((await rpc(rpcUrl, 'eth_subscribe', [])).json.error).toEqual({ code: -32601, message: 'notifications not supported' });
  });

  it("a batch's subscription notifies only after the batch's reply, which carries its ID (Notifier.activate)", async () => {
    await emit();
    const c = await Conn.open(wsUrl);
    try {
      // traceChain has its first block traced long before the batch's slow call ends: its
      // notification must still wait for the reply that names it.
      const loop = `0x${'10'.repeat(20)}`;
      c.ws.send(
        JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'debug_subscribe', params: ['traceChain', '0x0', 'latest', { tracer: 'callTracer' }] },
          { jsonrpc: '2.0', id: 2, method: 'eth_call', params: [{ to: loop, gas: '0x400000' }, 'latest', { [loop]: { code: '0x5b5f56' } }] },
        ]),
      );
      const traced = await c.wait(() => {
        const i = c.messages.findIndex((m) => m.method === 'debug_subscription');
        return i < 0 ? undefined : i;
      });
      const reply = c.messages.findIndex(Array.isArray);
      expect(reply).toBeGreaterThanOrEqual(0);
      expect(reply).toBeLessThan(traced);
      expect(c.messages[traced].params.subscription).toBe(c.messages[reply].find((m: any) => m.id === 1).result);
      expect(c.messages[reply].find((m: any) => m.id === 2).error.message).toBe('out of gas');
    } finally {
      c.ws.close();
    }
  });

  it("runs a batch's calls one after another, as geth's handleBatch does: each sees what those before it did", async () => {
    const before = BigInt(await call(rpcUrl, 'eth_blockNumber', []));
    const who = '0x00000000000000000000000000000000000b47c4';
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] },
      { jsonrpc: '2.0', id: 3, method: 'anvil_setBalance', params: [who, '0x5'] },
      { jsonrpc: '2.0', id: 4, method: 'eth_getBalance', params: [who, 'latest'] },
      { jsonrpc: '2.0', id: 5, method: 'eth_sendTransaction', params: [{ from, to: who, value: '0x2' }] },
      { jsonrpc: '2.0', id: 6, method: 'eth_getBalance', params: [who, 'latest'] },
    ];
    const reply = (await (
      await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) })
    ).json()) as Array<{
      id: number;
      result: string;
    }>;
    const result = (id: number) => reply.find((m) => m.id === id)!.result;
    expect(BigInt(result(2))).toBe(before + 1n);
    expect(result(4)).toBe('0x5');
    // Automine: the send's block is made before the next call runs.
    expect(result(6)).toBe('0x7');
  });

  it("any namespace's *_unsubscribe ends any subscription of its connection (unsubscribeCb), none of another's", async () => {
    const [a, b] = [await Conn.open(wsUrl), await Conn.open(wsUrl)];
    const notFound = { code: -32000, message: 'subscription not found' };
    try {
      const [first, second, kept] = [
        (await a.ask('eth_subscribe', ['newHeads'])).result,
        (await a.ask('eth_subscribe', ['newHeads'])).result,
        (await a.ask('eth_subscribe', ['newHeads'])).result,
      ];
      expect((await b.ask('debug_unsubscribe', [first])).error).toEqual(notFound);
      expect((await a.ask('debug_unsubscribe', [first])).result).toBe(true);
      expect((await a.ask('eth_unsubscribe', [first])).error).toEqual(notFound);
      // A namespace the node does not serve at all still ends it, as geth's handler does.
      expect((await a.ask('foo_unsubscribe', [second])).result).toBe(true);
      expect((await a.ask('foo_subscribe', ['x'])).error).toEqual({ code: -32601, message: 'no "x" subscription in foo namespace' });
      expect((await a.ask('foo_subscribe', [1])).error).toEqual({ code: -32602, message: 'expected subscription name as first argument' });
      await emit();
      await a.wait(() => a.notified(kept).length === 1);
      // The ended ones got nothing after their end.
      expect([a.notified(first), a.notified(second)]).toEqual([[], []]);
    } finally {
      a.ws.close();
      b.ws.close();
    }
    expect((await rpc(rpcUrl, 'foo_subscribe', ['x'])).json.error).toEqual({ code: -32601, message: 'notifications not supported' });
    expect((await rpc(rpcUrl, 'foo_unsubscribe', ['0x1'])).json.error).toEqual(notFound);
  });

  it('newHeads is types.Header as HeaderSerializable marshals it: its fields in order, the block answer their values', async () => {
    const c = await Conn.open(wsUrl);
    try {
      const id = (await c.ask('eth_subscribe', ['newHeads'])).result;
      const receipt = await emit();
      const [head] = await c.wait(() => (c.notified(id).length > 0 ? c.notified(id) : undefined));
      expect(Object.keys(head)).toEqual([
        'parentHash',
        'sha3Uncles',
        'miner',
        'stateRoot',
        'transactionsRoot',
        'receiptsRoot',
        'logsBloom',
        'difficulty',
        'number',
        'gasLimit',
        'gasUsed',
        'timestamp',
        'extraData',
        'mixHash',
        'nonce',
        'extDataHash',
        'baseFeePerGas',
        'extDataGasUsed',
        'blockGasCost',
        'blobGasUsed',
        'excessBlobGas',
        'parentBeaconBlockRoot',
        'timestampMilliseconds',
        'minDelayExcess',
        'hash',
      ]);
      const block = await call(rpcUrl, 'eth_getBlockByHash', [receipt.blockHash, false]);
      for (const [k, v] of Object.entries(head)) expect([k, v]).toEqual([k, block[k]]);
    } finally {
      c.ws.close();
    }
  });

  it('a batch over the limit, a response, and a stream that cannot be read on', async () => {
    const c = await Conn.open(wsUrl);
    // respondWithBatchTooLarge: one error in a batch, with the id of the first call.
    const batch = [
      { jsonrpc: '2.0', method: 'eth_chainId' },
      ...Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: '2.0', id: i + 7, method: 'eth_chainId' })),
    ];
    c.ws.send(JSON.stringify(batch));
    await c.wait(() => c.messages.length === 1);
    expect(c.messages[0]).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'batch too large' } }]);
    // A response is for a call of the server's own: it is not answered.
    c.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, result: '0x1' }));
    expect(await c.ask('eth_chainId', [])).toEqual(expect.objectContaining({ result: '0xa868' }));
    expect(c.messages).toHaveLength(2);
    // A syntax error is answered with encoding/json's text and the connection closed, without a close
    // frame, once the calls read before it are answered; what follows it is not read (Client.read
    // stops at its error): no block is mined.
    const head = await call(rpcUrl, 'eth_blockNumber', []);
    c.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 50, method: 'eth_blockNumber', params: [] }));
    c.ws.send('xyz');
    for (let i = 0; i < 3; i++) c.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 100 + i, method: 'evm_mine', params: [] }));
    await c.wait(() => c.closed);
    expect(c.closed).toBe(1006);
    expect(c.messages.slice(2)).toHaveLength(2);
    expect(c.messages.slice(2)).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: null, error: { code: -32700, message: "invalid character 'x' looking for beginning of value" } },
        { jsonrpc: '2.0', id: 50, result: head },
      ]),
    );
    expect(await call(rpcUrl, 'eth_blockNumber', [])).toBe(head);
    // A message cut short closes it unanswered.
    const d = await Conn.open(wsUrl);
    d.ws.send('{"a":');
    await d.wait(() => d.closed);
    expect(d.messages).toEqual([]);
  });
});

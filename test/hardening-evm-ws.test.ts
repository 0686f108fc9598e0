// Hardening of the EVM chains' websockets and filters (issue 25): a bad frame closes that
// connection with RFC 6455's code and the node answers everyone else; polled filters expire,
// overflow and are capped as documented in src/vms/evm/api/filters.ts; a subscriber that does not
// read is dropped past the backlog limit (src/rpc/socket.ts); a connection's subscriptions end with it.
// Frames are written by hand over a net.Socket; everything else goes through HTTP and websockets.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { type RunningNode, startEmulator } from '../src/index.js';
import { rpc, tempDir } from './helpers.js';

const FIXTURE = new URL('../fixtures/myl1.json', import.meta.url).pathname;
const MiB = 1024 * 1024;

let node: RunningNode;
let uri: string;
let stop: () => Promise<void>;
let from: string;

beforeAll(async () => {
  ({ uri, stop, node } = await startEmulator({ httpPort: 0, logLevel: 'off', dataDir: tempDir(), dbType: 'memdb', dev: true, testAccounts: 1, l1: [FIXTURE] }));
  from = (await rpc(`${uri}/ext/bc/C/rpc`, 'eth_accounts', [])).json.result[0];
});

afterAll(async () => {
  await stop?.();
});

const CHAINS = [
  { name: 'C', path: '/ext/bc/C', chainId: '0xa868' },
  { name: 'myl1', path: '/ext/bc/myl1', chainId: '0x1869f' },
];

// ---- websocket frames by hand ----

/** A client frame: FIN and opcode in `first`, the payload masked (unless told not to) with a fixed key. */
function frame(first: number, payload: Buffer, { masked = true, declared = payload.length } = {}): Buffer {
  let header: Buffer;
  if (declared > 0xffff) {
    header = Buffer.alloc(10);
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(declared), 2);
  } else if (declared > 125) {
    header = Buffer.alloc(4);
    header[1] = 126;
    header.writeUInt16BE(declared, 2);
  } else header = Buffer.from([0, declared]);
  header[0] = first;
  if (!masked) return Buffer.concat([header, payload]);
  header[1]! |= 0x80;
  const key = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const body = Buffer.from(payload);
  for (let i = 0; i < body.length; i++) body[i]! ^= key[i & 3]!;
  return Buffer.concat([header, key, body]);
}

const TEXT = 0x81;

interface RawSocket {
  socket: net.Socket;
  /** The bytes after the 101 response so far. */
  received(): Buffer;
  /** Settles when the connection has ended (either way). */
  ended: Promise<void>;
}

/** A websocket opened over a plain TCP socket: the upgrade by hand, then bytes as they come. */
async function rawSocket(path: string): Promise<RawSocket> {
  const { port } = new URL(uri);
  const socket = net.connect(Number(port), '127.0.0.1');
  // The server may reset the connection while the test still writes the rest of a refused frame.
  socket.on('error', () => undefined);
  // Chunks kept as they come and joined when asked for: a test may read a hundred megabytes.
  const chunks: Buffer[] = [];
  let head = Buffer.alloc(0);
  const received = () => {
    if (chunks.length > 1) chunks.splice(0, chunks.length, Buffer.concat(chunks));
    return chunks[0] ?? Buffer.alloc(0);
  };
  const ended = new Promise<void>((done) => socket.once('close', () => done()));
  const upgraded = new Promise<void>((done, fail) => {
    let waiting = true;
    socket.on('data', (chunk: Buffer) => {
      if (!waiting) {
        chunks.push(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      waiting = false;
      chunks.push(head.subarray(end + 4));
      const response = head.subarray(0, end).toString();
      if (response.startsWith('HTTP/1.1 101 ')) done();
      else fail(new Error(`no upgrade: ${response}`));
    });
  });
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  await upgraded;
  return { socket, received, ended };
}

/** A server close frame: unmasked, the code and no reason. */
const closeFrame = (code: number) => Buffer.from([0x88, 0x02, code >> 8, code & 0xff]);

/** A websocket client that has opened, with its error (a refused upgrade) failing the test rather than the process. */
function openWs(path: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${uri.replace(/^http/, 'ws')}${path}`);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** The next `n` messages on a websocket, parsed. */
function nextMessages(ws: WebSocket, n: number): Promise<any[]> {
  return new Promise((resolve) => {
    const got: any[] = [];
    const on = (data: Buffer) => {
      got.push(JSON.parse(data.toString()));
      if (got.length === n) {
        ws.off('message', on);
        resolve(got);
      }
    };
    ws.on('message', on);
  });
}

async function wsCall(ws: WebSocket, method: string, params: unknown[] = []): Promise<any> {
  const reply = nextMessages(ws, 1);
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  return (await reply)[0];
}

/** The node still serves this chain: over HTTP, and over a websocket opened now. */
async function expectAnswering(chain: (typeof CHAINS)[number]): Promise<void> {
  expect((await rpc(`${uri}${chain.path}/rpc`, 'eth_chainId', [])).json).toEqual({ jsonrpc: '2.0', id: 1, result: chain.chainId });
  const ws = await openWs(`${chain.path}/ws`);
  try {
    expect(await wsCall(ws, 'eth_chainId')).toEqual({ jsonrpc: '2.0', id: 1, result: chain.chainId });
  } finally {
    ws.close();
  }
}

const BAD_FRAMES: Array<{ name: string; code: number; bytes: () => Buffer[] }> = [
  {
    name: 'a text frame declaring 4 MiB + 1 bytes (a 64-bit length), its payload sent',
    code: 1009,
    bytes: () => [frame(TEXT, Buffer.alloc(4 * MiB + 1, 0x20))],
  },
  {
    name: 'a message of 4 MiB + 1 bytes in two fragments, each under the limit',
    code: 1009,
    bytes: () => [frame(0x01, Buffer.alloc(2 * MiB, 0x20)), frame(0x80, Buffer.alloc(2 * MiB + 1, 0x20))],
  },
  { name: 'a text frame with invalid UTF-8', code: 1007, bytes: () => [frame(TEXT, Buffer.from([0x5b, 0xff, 0xfe, 0x5d]))] },
  { name: 'an unmasked client frame', code: 1002, bytes: () => [frame(TEXT, Buffer.from('{}'), { masked: false })] },
  { name: 'a frame with the reserved opcode 0x3', code: 1002, bytes: () => [frame(0x83, Buffer.from('{}'))] },
];

describe('a bad frame closes its own connection with the RFC 6455 code; the node answers everyone else', () => {
  for (const chain of CHAINS) {
    for (const bad of BAD_FRAMES) {
      it(`${chain.name}: ${bad.name} → ${bad.code}`, async () => {
        const raw = await rawSocket(`${chain.path}/ws`);
        const bystander = await openWs(`${chain.path}/ws`);
        try {
          for (const b of bad.bytes()) raw.socket.write(b);
          await raw.ended;
          expect(raw.received().toString('hex')).toBe(closeFrame(bad.code).toString('hex'));
          // A connection opened before is untouched.
          expect(await wsCall(bystander, 'eth_chainId')).toEqual({ jsonrpc: '2.0', id: 1, result: chain.chainId });
          await expectAnswering(chain);
        } finally {
          raw.socket.destroy();
          bystander.close();
        }
      });
    }
  }
});

// ---- polled filters ----

const C_RPC = () => `${uri}/ext/bc/C/rpc`;
const FILTER_NOT_FOUND = { code: -32000, message: 'filter not found' };

/** A contract that emits LOG0 `count` times, each with `size` zero bytes of data; calldata is (count, size). */
const EMITTER = '0x00000000000000000000000000000000000e4170';
const EMITTER_CODE = '0x5f355b6020355fa0600190038060025700';
const word = (n: number) => n.toString(16).padStart(64, '0');

/** A successful call's result over HTTP; the error fails the test. */
async function call(method: string, params: unknown[] = [], url = C_RPC()): Promise<any> {
  const reply = await rpc(url, method, params);
  if (reply.json?.error) throw new Error(`${method}: ${JSON.stringify(reply.json.error)}`);
  return reply.json.result;
}

/** Emits `count` logs of `size` bytes from the emitter in one tx and waits for its block. */
async function emit(count: number, size = 0): Promise<any> {
  const hash = await call('eth_sendTransaction', [{ from, to: EMITTER, data: `0x${word(count)}${word(size)}`, gas: '0x895440' }]);
  return mined(hash);
}

/** A tx's receipt once it is in a block (a large tx may wait for ACP-176's gas capacity to refill). */
async function mined(hash: string): Promise<any> {
  for (;;) {
    const receipt = await call('eth_getTransactionReceipt', [hash]);
    if (receipt) {
      expect(receipt.status).toBe('0x1');
      return receipt;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One HTTP batch of the same method with each of `params`, answered in order. */
async function batch(method: string, params: unknown[][]): Promise<any[]> {
  const reply = await fetch(C_RPC(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params.map((p, id) => ({ jsonrpc: '2.0', id, method, params: p }))),
  });
  const answers = (await reply.json()) as any[];
  return answers.sort((a, b) => a.id - b.id);
}

const listeners = () => ({ block: node.cChain.listenerCount('block'), pendingTx: node.cChain.listenerCount('pendingTx') });

beforeAll(async () => {
  await call('hardhat_setCode', [EMITTER, EMITTER_CODE]);
});

describe('polled filters', () => {
  it('a filter holds 10,000 entries between polls; one more and it is uninstalled, answering filter not found', async () => {
    const logs = await call('eth_newFilter', [{ address: EMITTER }]);
    const blocks = await call('eth_newBlockFilter');
    const first = await emit(10_000);
    const changes = await call('eth_getFilterChanges', [logs]);
    expect(changes).toHaveLength(10_000);
    expect(changes[0]).toEqual({
      address: EMITTER,
      topics: [],
      data: '0x',
      blockNumber: first.blockNumber,
      transactionHash: first.transactionHash,
      transactionIndex: '0x0',
      blockHash: first.blockHash,
      logIndex: '0x0',
      removed: false,
    });
    expect(changes[9_999].logIndex).toBe('0x270f');
    const second = await emit(10_001);
    expect((await rpc(C_RPC(), 'eth_getFilterChanges', [logs])).json.error).toEqual(FILTER_NOT_FOUND);
    expect(await call('eth_uninstallFilter', [logs])).toBe(false);
    // The block filter, far from its bound, is untouched.
    expect(await call('eth_getFilterChanges', [blocks])).toEqual([first.blockHash, second.blockHash]);
    expect(await call('eth_uninstallFilter', [blocks])).toBe(true);
  });

  it('at most 1,000 filters are installed: a new one uninstalls the least recently polled', async () => {
    const ids = (
      await batch(
        'eth_newBlockFilter',
        Array.from({ length: 1_000 }, () => []),
      )
    ).map((a) => a.result as string);
    expect(new Set(ids).size).toBe(1_000);
    // Polled, the first is the most recent; the second is now the least recently polled.
    expect(await call('eth_getFilterChanges', [ids[0]])).toEqual([]);
    const newest = await call('eth_newBlockFilter');
    expect((await rpc(C_RPC(), 'eth_getFilterChanges', [ids[1]])).json.error).toEqual(FILTER_NOT_FOUND);
    expect(await call('eth_getFilterChanges', [ids[0]])).toEqual([]);
    expect(await call('eth_getFilterChanges', [newest])).toEqual([]);
    const removed = await batch(
      'eth_uninstallFilter',
      [...ids, newest].slice(0, 1_000).map((id) => [id]),
    );
    expect(removed.map((a) => a.result)).toEqual([true, false, ...Array(998).fill(true)]);
    expect(await call('eth_uninstallFilter', [newest])).toBe(true);
  });

  it('2,000 filters never polled and 5,000 logs: the first 1,000 are gone, the rest share the formatted logs', async () => {
    const before = process.memoryUsage().heapUsed;
    const ids: string[] = [];
    for (let round = 0; round < 2; round++) {
      ids.push(
        ...(
          await batch(
            'eth_newFilter',
            Array.from({ length: 1_000 }, () => [{}]),
          )
        ).map((a) => a.result as string),
      );
    }
    const receipt = await emit(5_000);
    // 1,000 filters each holding its own copy of 5,000 formatted logs would be some 2.5 GB; shared, they are pointers.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(256 * MiB);
    expect((await rpc(C_RPC(), 'eth_getFilterChanges', [ids[999]])).json.error).toEqual(FILTER_NOT_FOUND);
    const changes = await call('eth_getFilterChanges', [ids[1_000]]);
    expect(changes).toHaveLength(5_000);
    expect(changes[4_999]).toMatchObject({ transactionHash: receipt.transactionHash, logIndex: '0x1387' });
    const removed = await batch(
      'eth_uninstallFilter',
      ids.slice(1_000).map((id) => [id]),
    );
    expect(removed.every((a) => a.result === true)).toBe(true);
  });

  it("a filter unpolled for 5 minutes is uninstalled (geth's deadline), on a clock the test moves", async () => {
    const baseline = listeners();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const t0 = Date.now();
      const forgotten = (await httpCall('eth_newFilter', [{ address: EMITTER }])).result;
      expect(listeners()).toEqual({ block: baseline.block + 1, pendingTx: baseline.pendingTx + 1 });
      // Past its deadline, the first block that comes lets it go, with no call naming it.
      vi.setSystemTime(t0 + 5 * 60_000 + 1);
      await httpCall('evm_mine');
      expect(listeners()).toEqual(baseline);
      expect(await httpCall('eth_getFilterChanges', [forgotten])).toEqual({ error: FILTER_NOT_FOUND });

      // Each poll moves the deadline: polled at exactly 5 minutes, it lives 5 minutes more.
      const t1 = Date.now();
      const polled = (await httpCall('eth_newBlockFilter')).result;
      vi.setSystemTime(t1 + 5 * 60_000);
      expect(await httpCall('eth_getFilterChanges', [polled])).toEqual({ result: [] });
      vi.setSystemTime(t1 + 10 * 60_000);
      expect(await httpCall('eth_getFilterChanges', [polled])).toEqual({ result: [] });
      vi.setSystemTime(t1 + 15 * 60_000 + 1);
      expect(await httpCall('eth_getFilterChanges', [polled])).toEqual({ error: FILTER_NOT_FOUND });
      expect(await httpCall('eth_uninstallFilter', [polled])).toEqual({ result: false });
      expect(listeners()).toEqual(baseline);
    } finally {
      vi.useRealTimers();
    }
  });
});

/**
 * A call over node:http rather than fetch, whose timers read Date: with Date moved minutes ahead,
 * its connections would time out. Answers { result } or { error }.
 */
function httpCall(method: string, params: unknown[] = []): Promise<{ result?: any; error?: any }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  return new Promise((resolve, reject) => {
    const req = http.request(C_RPC(), { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => {
        const { result, error } = JSON.parse(text);
        resolve(error ? { error } : { result });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

// ---- subscriptions ----

/** The complete server frames in `bytes` (a cut-off last one is left out). */
function serverFrames(bytes: Buffer): Array<{ opcode: number; payload: Buffer }> {
  const out: Array<{ opcode: number; payload: Buffer }> = [];
  let at = 0;
  while (at + 2 <= bytes.length) {
    let length = bytes[at + 1]! & 0x7f;
    let start = at + 2;
    if (length === 126) {
      if (start + 2 > bytes.length) break;
      length = bytes.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      if (start + 8 > bytes.length) break;
      length = Number(bytes.readBigUInt64BE(start));
      start += 8;
    }
    if (start + length > bytes.length) break;
    out.push({ opcode: bytes[at]! & 0x0f, payload: bytes.subarray(start, start + length) });
    at = start + length;
  }
  return out;
}

/** Waits for `ok()` to hold, checking every 20 ms, failing after `ms`. */
async function until(ok: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Subscribes on a websocket; answers the subscription ID. */
async function subscribe(ws: WebSocket, params: unknown[]): Promise<string> {
  const reply = await wsCall(ws, 'eth_subscribe', params);
  expect(reply.result).toMatch(/^0x[0-9a-f]+$/);
  return reply.result;
}

/** Collects a websocket's notifications by subscription ID. */
function notifications(ws: WebSocket): Map<string, any[]> {
  const byId = new Map<string, any[]>();
  ws.on('message', (data: Buffer) => {
    const msg = JSON.parse(data.toString());
    if (msg.method !== 'eth_subscription') return;
    const list = byId.get(msg.params.subscription) ?? [];
    list.push(msg.params.result);
    byId.set(msg.params.subscription, list);
  });
  return byId;
}

/** A tx with many small logs may wait for ACP-176's capacity: moving the chain's time refills it. */
async function emitNow(count: number): Promise<any> {
  await call('evm_increaseTime', [60]);
  return emit(count);
}

describe('websocket subscriptions', () => {
  it("notifications carry the JSON eth_getLogs and the block answer; IDs are their connection's own", async () => {
    const baseline = listeners();
    const a = await openWs('/ext/bc/C/ws');
    const b = await openWs('/ext/bc/C/ws');
    try {
      const aLogs = await subscribe(a, ['logs', { address: EMITTER }]);
      const aHeads = await subscribe(a, ['newHeads']);
      const bLogs = await subscribe(b, ['logs', { address: EMITTER }]);
      const fromA = notifications(a);
      const fromB = notifications(b);
      const receipt = await emit(3);
      await until(() => fromA.get(aLogs)?.length === 3 && fromA.get(aHeads)?.length === 1 && fromB.get(bLogs)?.length === 3);
      const logs = await call('eth_getLogs', [{ blockHash: receipt.blockHash }]);
      expect(logs).toHaveLength(3);
      expect(fromA.get(aLogs)).toEqual(logs);
      expect(fromB.get(bLogs)).toEqual(logs);
      const [head] = fromA.get(aHeads)!;
      const block = await call('eth_getBlockByHash', [receipt.blockHash, false]);
      expect(head.hash).toBe(receipt.blockHash);
      for (const field of ['parentHash', 'number', 'timestamp', 'gasUsed', 'logsBloom', 'receiptsRoot', 'stateRoot', 'baseFeePerGas']) {
        expect(head[field]).toBe(block[field]);
      }

      // geth's subscriptions belong to their connection: another cannot end them, nor can HTTP.
      const notFound = { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'subscription not found' } };
      expect(await wsCall(b, 'eth_unsubscribe', [aLogs])).toEqual(notFound);
      expect((await rpc(C_RPC(), 'eth_unsubscribe', [aLogs])).json).toEqual(notFound);
      expect((await rpc(C_RPC(), 'eth_subscribe', ['newHeads'])).json.error).toEqual({ code: -32601, message: 'notifications not supported' });
      expect(await wsCall(a, 'eth_unsubscribe', [aLogs])).toEqual({ jsonrpc: '2.0', id: 1, result: true });
      expect(await wsCall(a, 'eth_unsubscribe', [aLogs])).toEqual(notFound);
    } finally {
      a.close();
      b.close();
    }
    await until(() => listeners().block === baseline.block);
  });

  it("a connection's subscriptions end with it: 1,000 on 100 connections, and the chain's listeners are back as before", async () => {
    const baseline = listeners();
    const sockets = await Promise.all(Array.from({ length: 100 }, () => openWs('/ext/bc/C/ws')));
    try {
      const kinds = [...Array(4).fill(['newHeads']), ...Array(3).fill(['logs', { address: EMITTER }]), ...Array(3).fill(['newPendingTransactions'])];
      const counts = sockets.map((ws) => {
        let n = 0;
        ws.on('message', (data: Buffer) => {
          if (JSON.parse(data.toString()).method === 'eth_subscription') n++;
        });
        return () => n;
      });
      await Promise.all(
        sockets.map(async (ws) => {
          const replies = nextMessages(ws, 1);
          ws.send(JSON.stringify(kinds.map((params, id) => ({ jsonrpc: '2.0', id, method: 'eth_subscribe', params }))));
          const [answers] = await replies;
          expect(answers.map((r: any) => typeof r.result)).toEqual(Array(10).fill('string'));
        }),
      );
      expect(listeners()).toEqual({ block: baseline.block + 1, pendingTx: baseline.pendingTx + 1 });
      await emit(1);
      // Each connection: 4 heads, 3 logs and 3 pending hashes.
      await until(() => counts.every((n) => n() === 10));
    } finally {
      // Half leave with a close handshake, half by dropping the connection.
      for (const [i, ws] of sockets.entries()) {
        if (i % 2 === 0) ws.close();
        else ws.terminate();
      }
    }
    await until(() => listeners().block === baseline.block && listeners().pendingTx === baseline.pendingTx);
  });

  it('a subscriber that does not read is dropped past 16 MiB of notifications; the node answers meanwhile', async () => {
    const baseline = listeners();
    const raw = await rawSocket('/ext/bc/C/ws');
    try {
      raw.socket.write(frame(TEXT, Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['logs', { address: EMITTER }] }))));
      await until(() => serverFrames(raw.received()).length === 1);
      expect(JSON.parse(serverFrames(raw.received())[0]!.payload.toString()).result).toMatch(/^0x[0-9a-f]+$/);
      raw.socket.pause();
      // Some 8.5 MB of notifications a tx; what the kernel buffers does not count towards the limit.
      let logs = 0;
      for (let tx = 0; tx < 8 && listeners().block !== baseline.block; tx++) {
        await emitNow(19_000);
        logs += 19_000;
        expect((await rpc(C_RPC(), 'eth_chainId', [])).json.result).toBe('0xa868');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(listeners()).toEqual(baseline);
      // Read now, the connection gives what was written before it was cut, with no close frame, and ends.
      raw.socket.resume();
      await raw.ended;
      const got = serverFrames(raw.received());
      expect(got.length).toBeGreaterThan(1);
      expect(got.length).toBeLessThan(logs);
      expect(got.every((f) => f.opcode === 1)).toBe(true);
      await expectAnswering(CHAINS[0]!);
    } finally {
      raw.socket.destroy();
    }
  }, 120_000);

  it('a client that sends requests without reading the replies is slowed, not dropped: every reply comes once it reads', async () => {
    const receipt = await emitNow(5_000);
    const raw = await rawSocket('/ext/bc/C/ws');
    try {
      raw.socket.pause();
      // Some 2.3 MB a reply, 40 of them: more than the 16 MiB after which the node stops reading requests.
      for (let id = 0; id < 40; id++) {
        raw.socket.write(frame(TEXT, Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_getLogs', params: [{ blockHash: receipt.blockHash }] }))));
        await new Promise((r) => setTimeout(r, 20));
      }
      expect((await rpc(C_RPC(), 'eth_chainId', [])).json.result).toBe('0xa868');
      raw.socket.resume();
      await until(() => serverFrames(raw.received()).length === 40, 60_000);
      const replies = serverFrames(raw.received()).map((f) => JSON.parse(f.payload.toString()));
      expect(replies.map((r) => r.id)).toEqual(Array.from({ length: 40 }, (_, i) => i));
      expect(replies.every((r) => r.result.length === 5_000)).toBe(true);
    } finally {
      raw.socket.destroy();
    }
  }, 120_000);
});

// Regressions from a hostile-input run against the HTTP surface: deeply nested JSON (once a 500),
// the memory held by request bodies that never finish, aliases that took routes over, and admin
// files written through shared temporary names or planted symlinks.
import net from 'node:net';
import { existsSync, lstatSync, readFileSync, readdirSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { gethDialect, positional } from '../src/rpc/geth.js';
import { jsonRpcEndpoint } from '../src/rpc/endpoint.js';
import { method } from '../src/rpc/method.js';
import { encodeHex } from '../src/encoding/hex.js';
import { call, post, rpc, spawnNode, startTestNode, tempDir, type TestNode } from './helpers.js';

const INVALID_ARG = "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";
const PARSE_DATA = { jsonrpc: '', method: '', params: null, id: null };
const ONE_BYTE = encodeHex(new Uint8Array(1), 'hex');
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe("item 2: deeply nested JSON gets the real node's answer, never a 500", () => {
  let node: TestNode;
  let info: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb' });
    info = `${node.uri}/ext/info`;
  });
  afterAll(() => node.stop());

  it.each([4500, 5000, 9999])('params nested %i deep (body under 64 KiB): the generic argument error', async (depth) => {
    const r = await post(info, `{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","params":${nested(depth)}}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: INVALID_ARG, data: null }, id: 1 });
  });

  it('params of nested objects, 6,000 deep: an unknown member of an empty args struct, ignored as Go ignores it', async () => {
    const r = await post(info, `{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","params":${nestedObjects(6000)}}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ jsonrpc: '2.0', result: { networkID: '12345' }, id: 1 });
  });

  it('an id nested 5,000 deep is echoed as written, as json.RawMessage is', async () => {
    const id = nested(5000);
    const r = await post(info, `{"jsonrpc":"2.0","id":${id},"method":"info.getNetworkID"}`);
    expect(r.status).toBe(200);
    expect(r.text).toBe(`{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":${id}}\n`);
  });

  it('a notification (no id) with deep params runs and gets an empty body', async () => {
    const r = await post(info, `{"jsonrpc":"2.0","method":"info.getNetworkID","params":${nested(5000)}}`);
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
  });

  it.each([
    ['params', (d: number) => `{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","params":${nested(d)}}`],
    ['id', (d: number) => `{"jsonrpc":"2.0","id":${nested(d)},"method":"info.getNetworkID"}`],
  ])('past Go\'s 10,000 levels (%s), under and over 64 KiB: -32700 "exceeded max depth"', async (_, body) => {
    for (const depth of [10_000, 12_000, 40_000]) {
      const r = await post(info, body(depth));
      expect(r.status, `depth ${depth}`).toBe(200);
      expect(r.json, `depth ${depth}`).toEqual({
        jsonrpc: '2.0',
        error: { code: -32700, message: "invalid character '[' exceeded max depth", data: PARSE_DATA },
        id: null,
      });
    }
  });

  it('9,999 levels inside the envelope object is the most Go accepts', async () => {
    const r = await post(info, `{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","params":${nested(9999)}}`);
    expect(r.json.error.code).toBe(-32000);
  });

  it('the geth dialect reads a deep id without overflowing the stack, and answers it as coreth does', async () => {
    const app = express();
    app.post('/rpc', jsonRpcEndpoint(gethDialect, [{ name: 'test', methods: { ping: method(positional([]), () => 'pong') } }]));
    // An object id is no id to coreth (hasValidID): the request is invalid, answered with id null.
    const id = nestedObjects(5000);
    const r = await request(app).post('/rpc').set('content-type', 'application/json').send(`{"jsonrpc":"2.0","id":${id},"method":"test_ping","params":[]}`);
    expect(r.status).toBe(200);
    expect(r.text).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}\n');
  });
});

describe('item 4: request bodies that never finish are bounded in total', () => {
  it('100 connections each holding 4 MiB of an unfinished body: the oldest are shed, RSS stays bounded, others are served', async () => {
    const node = await spawnNode(['--db-type=memdb', '--log-level=off']);
    try {
      const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${node.child.pid}/status`, 'utf8'))![1]) / 1024;
      const { port } = new URL(node.uri);
      const before = rss();
      const sockets: net.Socket[] = [];
      let closedByNode = 0;
      const almost = Buffer.alloc(4 * 1024 * 1024 - 16, 0x20);
      for (let i = 0; i < 100; i++) {
        const s = net.connect(Number(port), '127.0.0.1');
        s.on('error', () => {});
        s.on('close', () => {
          closedByNode++;
        });
        s.write(`POST /ext/info HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${4 * 1024 * 1024}\r\n\r\n`);
        s.write(almost);
        sockets.push(s);
      }
      const settle = Date.now() + 8000;
      while (closedByNode < 80 && Date.now() < settle) await new Promise((r) => setTimeout(r, 100));
      const held = rss();
      // A normal client is still answered at once.
      const t0 = Date.now();
      expect(await call(`${node.uri}/ext/info`, 'info.getNetworkID')).toEqual({ networkID: '12345' });
      const latency = Date.now() - t0;
      for (const s of sockets) s.destroy();
      // 64 MiB of bodies are kept: 16 of the 100; the node closed the connections of the others.
      expect(closedByNode).toBeGreaterThanOrEqual(80);
      expect(closedByNode).toBeLessThanOrEqual(85);
      // Unbounded, this held 400 MiB more; bounded, the 64 MiB kept plus what GC has yet to reclaim.
      expect(held - before, `RSS ${before.toFixed(0)} -> ${held.toFixed(0)} MiB`).toBeLessThan(220);
      expect(latency).toBeLessThan(2000);
    } finally {
      node.child.kill('SIGTERM');
      await node.exited;
    }
  }, 30_000);
});

describe('item 5: an alias never takes a path away from the endpoint that had it', () => {
  let node: TestNode;
  let admin: string;
  beforeEach(async () => {
    node = await startTestNode({ dbType: 'memdb', apiAdminEnabled: true, indexEnabled: true });
    admin = `${node.uri}/ext/admin`;
  });
  afterEach(() => node.stop());

  const walletStillServes = async () => {
    const e = (await rpc(`${node.uri}/ext/bc/X/wallet`, 'wallet.issueTx', { tx: ONE_BYTE })).json.error;
    expect(e.message).toBe("couldn't unpack codec version");
  };

  it('admin.alias bc/X/wallet, health/readiness and index/X/block for info: accepted, as avalanchego does, and the paths keep their endpoints', async () => {
    for (const alias of ['bc/X/wallet', 'health/readiness', 'index/X/block']) {
      expect(await call(admin, 'admin.alias', { endpoint: 'info', alias })).toEqual({});
    }
    await walletStillServes();
    const readiness = await fetch(`${node.uri}/ext/health/readiness`);
    expect(readiness.status).toBe(200);
    expect(Object.keys(((await readiness.json()) as { checks: object }).checks)).toEqual(['bootstrapped']);
    expect((await rpc(`${node.uri}/ext/index/X/block`, 'index.getLastAccepted', { encoding: 'hex' })).json.error.message).toBe(
      'no containers have been accepted',
    );
    // The aliases' sub-endpoints that nothing had are new: /ext/bc/X/wallet is the info alias's base.
    expect((await rpc(`${node.uri}/ext/bc/X/wallet`, 'info.getNetworkID')).json.error.message).toBe('rpc: can\'t find service "info.GetNetworkID"');
  });

  it("a second alias of an already reserved name is refused with the router's error", async () => {
    expect(await call(admin, 'admin.alias', { endpoint: 'info', alias: 'bc/X/wallet' })).toEqual({});
    const e = (await rpc(admin, 'admin.alias', { endpoint: 'health', alias: 'bc/X/wallet' })).json.error;
    expect(e.message).toBe('route is either already aliased or already maps to a handle: /ext/bc/X/wallet');
  });

  it('admin.aliasChain X/wallet and ../index/X/block: the wallet and the index keep their paths', async () => {
    expect(await call(admin, 'admin.aliasChain', { chain: 'X', alias: 'X/wallet' })).toEqual({});
    await walletStillServes();
    // The alias's own sub-endpoint is new: /ext/bc/X/wallet/wallet serves the wallet.
    expect((await rpc(`${node.uri}/ext/bc/X/wallet/wallet`, 'wallet.issueTx', { tx: ONE_BYTE })).json.error.message).toBe("couldn't unpack codec version");

    expect(await call(admin, 'admin.aliasChain', { chain: 'X', alias: '../index/X/block' })).toEqual({});
    const last = await rpc(`${node.uri}/ext/index/X/block`, 'index.getLastAccepted', { encoding: 'hex' });
    expect(last.json.error.message).toBe('no containers have been accepted');
    expect((await rpc(`${node.uri}/ext/index/X/block`, 'avm.getHeight')).json.error.message).toBe('rpc: can\'t find service "avm.GetHeight"');
  });
});

describe('item 6: admin files are written safely', () => {
  it('five concurrent admin.stacktrace calls all succeed and leave no temporary file', async () => {
    const node = await startTestNode({ dbType: 'memdb', apiAdminEnabled: true });
    const cwd = process.cwd();
    const dir = tempDir('emu-stack-');
    process.chdir(dir);
    try {
      const replies = await Promise.all(Array.from({ length: 5 }, () => rpc(`${node.uri}/ext/admin`, 'admin.stacktrace')));
      for (const r of replies) expect(r.json).toEqual({ jsonrpc: '2.0', result: {}, id: 1 });
      expect(readdirSync(dir)).toEqual(['stacktrace.txt']);
      expect(readFileSync(join(dir, 'stacktrace.txt'), 'utf8')).toMatch(/^pid \d+/);
    } finally {
      process.chdir(cwd);
      await node.stop();
    }
  });

  it('admin.memoryProfile replaces a symlink planted at mem.profile instead of writing through it', async () => {
    const profiles = tempDir('emu-prof-');
    const outside = join(tempDir('emu-outside-'), 'victim.txt');
    writeFileSync(outside, 'precious\n');
    mkdirSync(profiles, { recursive: true });
    symlinkSync(outside, join(profiles, 'mem.profile'));
    const node = await startTestNode({ dbType: 'memdb', apiAdminEnabled: true, profileDir: profiles });
    try {
      expect(await call(`${node.uri}/ext/admin`, 'admin.memoryProfile')).toEqual({});
      expect(readFileSync(outside, 'utf8')).toBe('precious\n');
      const stat = lstatSync(join(profiles, 'mem.profile'));
      expect(stat.isSymbolicLink()).toBe(false);
      expect(stat.mode & 0o777).toBe(0o640);
      expect(JSON.parse(readFileSync(join(profiles, 'mem.profile'), 'utf8')).head).toBeDefined();
      expect(readdirSync(profiles)).toEqual(['mem.profile']);
      expect(existsSync(outside)).toBe(true);
    } finally {
      await node.stop();
    }
  });
});

describe('found by the fuzz run', () => {
  it('a method name of megabytes is not kept by the method cache (heap stays flat)', async () => {
    const dir = tempDir('emu-cache-');
    const node = await spawnNode(['--db-type=memdb', '--log-level=off', '--api-admin-enabled=true', `--profile-dir=${join(dir, 'profiles')}`], dir);
    try {
      // admin.memoryProfile collects the garbage first (as avalanchego runs runtime.GC()): what is left is what is kept.
      const heap = async () => {
        await call(`${node.uri}/ext/admin`, 'admin.memoryProfile');
        return Number(/nodejs_heap_used_bytes (\d+)/.exec(await (await fetch(`${node.uri}/ext/metrics`)).text())![1]) / 2 ** 20;
      };
      const before = await heap();
      for (let i = 0; i < 40; i++) {
        const reply = await post(`${node.uri}/ext/info`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: `info.x${i}${'y'.repeat(1_000_000)}` }));
        expect(reply.json.error.message).toMatch(/^rpc: can't find method "info.X\d+y+"$/);
      }
      // Kept, 40 names and their error texts would hold some 80 MiB.
      expect((await heap()) - before).toBeLessThan(40);
    } finally {
      node.child.kill('SIGTERM');
      await node.exited;
    }
  }, 60_000);

  it('a stopCPUProfiler racing startCPUProfiler waits for it, and stops the profiler it started', async () => {
    const profiles = tempDir('emu-prof-');
    const node = await startTestNode({ dbType: 'memdb', apiAdminEnabled: true, profileDir: profiles });
    try {
      const admin = `${node.uri}/ext/admin`;
      const [start, stop] = await Promise.all([rpc(admin, 'admin.startCPUProfiler'), rpc(admin, 'admin.stopCPUProfiler')]);
      expect(start.json).toEqual({ jsonrpc: '2.0', result: {}, id: 1 });
      expect(stop.json).toEqual({ jsonrpc: '2.0', result: {}, id: 1 });
      expect(JSON.parse(readFileSync(join(profiles, 'cpu.profile'), 'utf8')).nodes.length).toBeGreaterThan(0);
      // Nothing is left running: the next stop has nothing to stop, and a new start works.
      expect((await rpc(admin, 'admin.stopCPUProfiler')).json.error.message).toBe("cpu profiler doesn't exist");
      expect((await rpc(admin, 'admin.startCPUProfiler')).json.result).toEqual({});
      expect((await rpc(admin, 'admin.stopCPUProfiler')).json.result).toEqual({});
    } finally {
      await node.stop();
    }
  });

  it('object keys fold as Go folds them: the long s is an s', async () => {
    const node = await startTestNode({ dbType: 'memdb' });
    try {
      const info = `${node.uri}/ext/info`;
      expect((await post(info, '{"j\u017fonrpc":"2.0","method":"info.getNetworkID","id":1}')).json).toEqual({
        jsonrpc: '2.0',
        result: { networkID: '12345' },
        id: 1,
      });
      expect((await post(info, '{"jsonrpc":"2.0","method":"info.getBlockchainID","params":{"alia\u017f":"X"},"id":1}')).json.result).toEqual({
        blockchainID: '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed',
      });
    } finally {
      await node.stop();
    }
  });
});

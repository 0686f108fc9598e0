// Issue 25, items 6 and 7: with --dev, a web page the user visits must not get the file system (state
// files only under --state-dir, the emulator controls closed to other origins), and dev controls
// refuse the values that would wedge a chain (times past what a header holds, a base fee no block can
// carry, an anvil_reset argument that is not Anvil's) with -32602 instead of acting on them.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, post, rpc, startTestNode, tempDir, type TestNode } from './helpers.js';
import { startEmulator } from '../src/index.js';

const MAX_TIME = (2n ** 64n - 1n) / 1000n;
const EVIL = 'http://evil.example';

async function geth(url: string, method: string, params: unknown[] = []) {
  return (await rpc(url, method, params)).json as { result?: any; error?: { code: number; message: string } };
}

describe('state files stay in --state-dir', () => {
  let node: TestNode;
  let emulator: string;
  let stateDir: string;
  beforeAll(async () => {
    stateDir = join(tempDir('emu-states-'), 'states');
    node = await startTestNode({ dbType: 'memdb', dev: true, stateDir });
    emulator = `${node.uri}/ext/emulator`;
  });
  afterAll(() => node.stop());

  it('a relative path is written under the state directory, which is created, and read back from it', async () => {
    const dumped = await call(emulator, 'emulator.dumpState', { path: 'nested/one.bin' });
    expect(dumped.path).toBe(join(stateDir, 'nested', 'one.bin'));
    expect(readFileSync(dumped.path).length).toBe(Number(dumped.bytes));
    expect(await call(emulator, 'emulator.loadState', { path: 'nested/one.bin' })).toEqual({});
    // An absolute path inside the directory is the same file.
    expect(await call(emulator, 'emulator.loadState', { path: dumped.path })).toEqual({});
  });

  it.each([
    ['an absolute path elsewhere', () => join(tempDir('emu-elsewhere-'), 'x.bin')],
    ['a relative path climbing out', () => '../escaped.bin'],
    ['a path climbing out and back in under another name', () => `../${'states-not'}/x.bin`],
  ])('%s is refused with one text, and nothing is written', async (_, pathOf) => {
    const path = pathOf();
    const text = `path ${path} is outside the state directory ${stateDir}`;
    expect(await callError(emulator, 'emulator.dumpState', { path })).toMatchObject({ code: -32000, message: text });
    expect(await callError(emulator, 'emulator.loadState', { path })).toMatchObject({ code: -32000, message: text });
    expect(existsSync(join(stateDir, path))).toBe(false);
  });

  it('a symlink planted in the state directory does not lead out of it, to write or to read', async () => {
    const outside = tempDir('emu-target-');
    writeFileSync(join(outside, 'victim.bin'), 'precious');
    mkdirSync(stateDir, { recursive: true });
    symlinkSync(outside, join(stateDir, 'link'));
    for (const path of ['link/victim.bin', 'link/new.bin']) {
      const text = `path ${path} is outside the state directory ${stateDir}`;
      expect(await callError(emulator, 'emulator.dumpState', { path })).toMatchObject({ message: text });
      expect(await callError(emulator, 'emulator.loadState', { path })).toMatchObject({ message: text });
    }
    expect(readFileSync(join(outside, 'victim.bin'), 'utf8')).toBe('precious');
    expect(existsSync(join(outside, 'new.bin'))).toBe(false);
  });

  it('inside the directory, a missing file and a file that is no state keep their own errors', async () => {
    expect((await callError(emulator, 'emulator.loadState', { path: 'missing.bin' })).message).toMatch(
      new RegExp(`^couldn't read state file ${join(stateDir, 'missing.bin')}: ENOENT`),
    );
    writeFileSync(join(stateDir, 'text.bin'), 'hello');
    expect(await callError(emulator, 'emulator.loadState', { path: 'text.bin' })).toMatchObject({
      message: "couldn't load state: not a state dumped by the emulator: not gzip data",
    });
  });

  it('a gzip bomb sent to anvil_loadState is refused before it is unzipped whole; the node goes on', async () => {
    const bomb = gzipSync(Buffer.alloc(256 * 1024 * 1024));
    const r = await geth(`${node.uri}/ext/bc/C/rpc`, 'anvil_loadState', [`0x${bomb.toString('hex')}`]);
    expect(r.error).toEqual({ code: -32000, message: 'failed to load state: not a state dumped by the emulator: it unzips to over 100 times its size' });
    expect((await geth(`${node.uri}/ext/bc/C/rpc`, 'eth_chainId')).result).toBe('0xa868');
  });
});

describe('the emulator controls are closed to other origins', () => {
  let node: TestNode;
  let named: TestNode;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    named = await startTestNode({ dbType: 'memdb', dev: true, httpAllowedOrigins: 'http://tool.local' });
  });
  afterAll(async () => {
    await node.stop();
    await named.stop();
  });

  const preflight = (url: string, origin: string) =>
    fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });

  it("with avalanchego's default origins (*), a web page's preflight to /ext/emulator gets no CORS grant, while the chains' APIs keep theirs", async () => {
    const refused = await preflight(`${node.uri}/ext/emulator`, EVIL);
    expect(refused.status).toBe(200);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    const chain = await preflight(`${node.uri}/ext/bc/C/rpc`, EVIL);
    expect(chain.headers.get('access-control-allow-origin')).toBe('*');
    // A cross-origin POST (the browser would not read it) carries no grant either.
    const r = await fetch(`${node.uri}/ext/emulator`, {
      method: 'POST',
      headers: { origin: EVIL, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'emulator.healthFaults' }),
    });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("the Data and Metrics APIs grant the headers Glacier's SDK sends; avalanchego's APIs keep rs/cors's list", async () => {
    const ask = (path: string) =>
      fetch(`${node.uri}${path}`, {
        method: 'OPTIONS',
        headers: { origin: EVIL, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-glacier-api-key,x-speakeasy-user-agent' },
      });
    for (const path of ['/v1/chains/43112', '/v2/chains/43112/metrics/txCount']) {
      const r = await ask(path);
      expect([path, r.headers.get('access-control-allow-origin'), r.headers.get('access-control-allow-headers')]).toEqual([
        path,
        '*',
        'X-Glacier-Api-Key, X-Speakeasy-User-Agent',
      ]);
    }
    expect((await ask('/ext/bc/C/rpc')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('an origin named in --http-allowed-origins keeps its grant on /ext/emulator', async () => {
    const r = await preflight(`${named.uri}/ext/emulator`, 'http://tool.local');
    expect(r.headers.get('access-control-allow-origin')).toBe('http://tool.local');
    expect((await preflight(`${named.uri}/ext/emulator`, EVIL)).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a request without an Origin (curl, SDKs) is served as before', async () => {
    const r = await post(`${node.uri}/ext/emulator`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'emulator.healthFaults' }));
    expect(r.json).toEqual({ jsonrpc: '2.0', result: { faults: {} }, id: 1 });
  });
});

describe('dev controls take the ranges Anvil takes; everything else is -32602 and changes nothing', () => {
  let node: TestNode;
  let c: string;
  let l1: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, l1: [new URL('../fixtures/myl1.json', import.meta.url).pathname] });
    c = `${node.uri}/ext/bc/C/rpc`;
    l1 = `${node.uri}/ext/bc/myl1/rpc`;
  });
  afterAll(() => node.stop());

  const head = async (url: string) => (await geth(url, 'eth_getBlockByNumber', ['latest', false])).result;

  it('evm_increaseTime past what a header holds (2^64-1 s, or 2^63 twice) is refused; the offset stays', async () => {
    for (const url of [c, l1]) {
      const before = (await geth(url, 'evm_increaseTime', ['0x0'])).result;
      const r = await geth(url, 'evm_increaseTime', [`0x${(2n ** 64n - 1n).toString(16)}`]);
      expect(r.error?.code).toBe(-32602);
      expect(r.error?.message).toMatch(
        /^timestamp \d+ is past the latest a block can carry \(18446744073709551: its time in milliseconds must fit in a uint64\)$/,
      );
      expect((await geth(url, 'evm_increaseTime', [`0x${(2n ** 63n).toString(16)}`])).error?.code).toBe(-32602);
      expect((await geth(url, 'evm_increaseTime', ['0x0'])).result).toBe(before);
    }
  });

  it('evm_setNextBlockTimestamp, evm_mine(timestamp) and anvil_mine intervals past it are refused; at the limit, blocks still decode', async () => {
    const past = `0x${(MAX_TIME + 1n).toString(16)}`;
    expect((await geth(c, 'evm_setNextBlockTimestamp', [past])).error?.code).toBe(-32602);
    expect((await geth(c, 'evm_mine', [past])).error?.code).toBe(-32602);
    const before = await head(c);
    const r = await geth(c, 'anvil_mine', ['0x2', `0x${(2n ** 64n - 1n).toString(16)}`]);
    expect(r.error?.code).toBe(-32602);
    expect((await head(c)).number).toBe(before.number);
    // The latest time a block can carry is taken, and the chain goes on at it.
    expect((await geth(c, 'evm_setNextBlockTimestamp', [`0x${MAX_TIME.toString(16)}`])).result).toBeNull();
    expect((await geth(c, 'anvil_mine', ['0x2'])).result).toBeNull();
    const last = await head(c);
    expect(BigInt(last.number)).toBe(BigInt(before.number) + 2n);
    expect(BigInt(last.timestamp)).toBe(MAX_TIME);
    expect(BigInt(last.timestampMilliseconds)).toBeLessThanOrEqual(2n ** 64n - 1n);
  });

  it('anvil_setNextBlockBaseFeePerGas over a u64 is refused; the L1 keeps mining', async () => {
    const r = await geth(l1, 'anvil_setNextBlockBaseFeePerGas', [`0x${(2n ** 256n - 1n).toString(16)}`]);
    expect(r.error).toEqual({ code: -32602, message: `base fee ${2n ** 256n - 1n} is over ${2n ** 64n - 1n}, the largest a block can carry` });
    const before = await head(l1);
    expect((await geth(l1, 'anvil_mine', ['0x1'])).result).toBeNull();
    const after = await head(l1);
    expect(BigInt(after.number)).toBe(BigInt(before.number) + 1n);
    expect(BigInt(after.baseFeePerGas)).toBeLessThan(2n ** 64n);
  });

  it.each([
    [['abc'], 'invalid type: string "abc", expected struct Forking'],
    [[7], 'invalid type: integer `7`, expected struct Forking'],
    [[[]], 'invalid type: sequence, expected struct Forking'],
    [[{ forking: 'x' }], 'invalid type: string "x", expected struct Forking'],
    [[{ forking: { jsonRpcUrl: 5 } }], 'invalid type: integer `5`, expected a string'],
    [[{ blockNumber: 'abc' }], 'invalid hex or decimal integer "abc"'],
  ])('anvil_reset(%j) is -32602 (%s) and resets nothing', async (params, message) => {
    await geth(c, 'anvil_mine', ['0x1']);
    const before = await head(c);
    const r = await geth(c, 'anvil_reset', params);
    expect(r.error).toEqual({ code: -32602, message });
    expect((await head(c)).hash).toBe(before.hash);
  });

  it("anvil_reset asking for a fork it cannot make is refused, resetting nothing; viem's reset() ({forking: {}}) and no argument reset the node", async () => {
    await geth(c, 'anvil_mine', ['0x1']);
    const before = await head(c);
    for (const params of [[{ forking: { jsonRpcUrl: 'http://127.0.0.1:1' } }], [{ jsonRpcUrl: 'http://127.0.0.1:1' }]]) {
      const { error } = await geth(c, 'anvil_reset', params);
      expect(error?.code).toBe(-32000);
      expect(error?.message).toMatch(/^fork upstream http:\/\/127\.0\.0\.1:1: eth_blockNumber failed: connect ECONNREFUSED/);
    }
    // A block without a URL, on a chain that is no fork: Anvil's words and code (Anvil 1.7.1 answers
    // -32602, read off its binary; this said -32000 before).
    expect((await geth(c, 'anvil_reset', [{ blockNumber: 5 }])).error).toEqual({
      code: -32602,
      message: 'Forking not enabled and RPC URL not provided to start forking',
    });
    expect((await head(c)).hash).toBe(before.hash);
    for (const params of [[{ forking: {} }], [], [null]]) {
      await geth(c, 'anvil_mine', ['0x1']);
      expect((await geth(c, 'anvil_reset', params)).result).toBeNull();
      expect((await head(c)).number).toBe('0x0');
    }
  });
});

describe('what the fuzz of the EVM side found', () => {
  let node: TestNode;
  let c: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1 });
    c = `${node.uri}/ext/bc/C/rpc`;
  });
  afterAll(() => node.stop());

  it.each(['eth_constructor', 'eth___proto__', 'net_valueOf', 'eth_toString', 'debug_hasOwnProperty'])(
    '%s is an unknown method (-32601), not a 500',
    async (method) => {
      const r = await rpc(c, method, []);
      expect(r.status).toBe(200);
      expect(r.json.error).toEqual({ code: -32601, message: `the method ${method} does not exist/is not available` });
    },
  );

  it("a call with nonce 2^64-1 runs (geth skips a call's nonce checks); eth_createAccessList refuses gas x price past 256 bits with its text", async () => {
    const max = `0x${(2n ** 64n - 1n).toString(16)}`;
    expect((await geth(c, 'eth_call', [{ to: '0x0000000000000000000000000000000000000004', data: '0x01', nonce: max }, 'latest'])).result).toBe('0x01');
    const r = await geth(c, 'eth_createAccessList', [{ to: '0x0000000000000000000000000000000000000001', gas: '0x1c9c380', gasPrice: `0x7${'f'.repeat(63)}` }]);
    expect(r.error?.code).toBe(-32000);
    expect(r.error?.message).toMatch(
      /^failed to apply transaction: 0x[0-9a-f]{64} err: insufficient funds for gas \* price \+ value: address 0x0000000000000000000000000000000000000000 required balance exceeds 256 bits$/,
    );
  });

  it('after evm_setNextBlockTimestamp in the future, later blocks go on from that time (as Anvil): heavy txs keep being mined', async () => {
    const [from] = (await geth(c, 'eth_accounts')).result;
    const head = (await geth(c, 'eth_getBlockByNumber', ['latest', false])).result;
    const future = BigInt(head.timestamp) + 1_000_000n;
    expect((await geth(c, 'evm_setNextBlockTimestamp', [`0x${future.toString(16)}`])).result).toBeNull();
    // 12 txs of about 1M gas each: more than a block's capacity, refilled as block time passes.
    const hashes: string[] = [];
    for (let i = 0; i < 12; i++) hashes.push((await geth(c, 'eth_sendTransaction', [{ from, to: from, data: `0x${'ff'.repeat(60_000)}` }])).result);
    let mined = 0;
    for (let i = 0; i < 150 && mined < hashes.length; i++) {
      mined = 0;
      for (const h of hashes) if ((await geth(c, 'eth_getTransactionReceipt', [h])).result) mined++;
      if (mined < hashes.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mined).toBe(hashes.length);
    const last = (await geth(c, 'eth_getBlockByNumber', ['latest', false])).result;
    expect(BigInt(last.timestamp)).toBeGreaterThanOrEqual(future);
  }, 30_000);

  it('a state edit racing a revert is answered (applied, or refused as not applied), never left hanging', async () => {
    for (let i = 0; i < 5; i++) {
      const id = (await geth(c, 'evm_snapshot')).result;
      const [edit, revert] = await Promise.all([
        geth(c, 'anvil_setBalance', ['0x00000000000000000000000000000000000000f1', '0x1']),
        geth(c, 'evm_revert', [id]),
      ]);
      expect(revert.result).toBe(true);
      if (edit.error)
        expect(edit.error).toEqual({ code: -32000, message: 'the state edit was not applied: the chain was closed (the node was reverted, loaded or reset)' });
      else expect(edit.result).toBeNull();
    }
  });

  it('an edit still waiting when its chain closes (a revert rebuilds the node under it) is refused, not left hanging', async () => {
    const started = await startEmulator({ httpPort: 0, dbType: 'memdb', dev: true, logLevel: 'off', dataDir: tempDir() });
    const chain = started.node.cChain;
    const edit = chain.editState(async () => {});
    const closing = chain.close();
    await expect(edit).rejects.toThrow('the state edit was not applied: the chain was closed (the node was reverted, loaded or reset)');
    await closing;
    await started.stop();
  });

  it('a state path with a NUL byte gets its own error, which names no directory', async () => {
    const r = await callError(`${node.uri}/ext/emulator`, 'emulator.dumpState', { path: 'a\u0000b' });
    expect(r.message).toBe('path must not contain a NUL byte');
  });

  it('websockets: an upgrade during a revert waits for it (no 404); the old connections are told 1012 (service restart)', async () => {
    const { WebSocket } = await import('ws');
    const wsUrl = `${node.uri.replace('http', 'ws')}/ext/bc/C/ws`;
    const old = new WebSocket(wsUrl);
    await new Promise((r) => old.once('open', r));
    const closed = new Promise<number>((r) => old.once('close', (code) => r(code)));
    const id = (await geth(c, 'evm_snapshot')).result;
    const reverting = geth(c, 'evm_revert', [id]);
    const during = Array.from({ length: 5 }, () => {
      const ws = new WebSocket(wsUrl);
      return new Promise<string>((resolve) => {
        ws.once('open', () => {
          resolve('open');
          ws.close();
        });
        ws.once('unexpected-response', (_req, res) => resolve(`HTTP ${res.statusCode}`));
        ws.once('error', (err) => resolve(err.message));
      });
    });
    expect((await reverting).result).toBe(true);
    expect(await Promise.all(during)).toEqual(['open', 'open', 'open', 'open', 'open']);
    expect(await closed).toBe(1012);
  });
});

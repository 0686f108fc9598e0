// Admin API (/ext/admin) through HTTP, as avalanchego 1.14.2 serves it with --api-admin-enabled=true.
// Errors of the admin service are HTTP 200 JSON-RPC errors with code -32000 and data null.
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { base58 } from '@scure/base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { checksum, encodeCB58 } from '../src/encoding/cb58.js';
import { LEVELS, enabled, type Level } from '../src/logging/level.js';
import type { NodeOptions } from '../src/index.js';
import { call, post, rpc, startTestNode, tempDir, type TestNode } from './helpers.js';

const P = '11111111111111111111111111111111LpoYY';
const X = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const C = '2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC';
const AVM_VM_ID = 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq';
const SUBNET_EVM = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
const UNKNOWN_VM_1 = encodeCB58(new Uint8Array(32).fill(1));
const UNKNOWN_VM_2 = encodeCB58(new Uint8Array(32).fill(2));
const INVALID_ARG = "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";
const EMPTY_REPLY = '{"jsonrpc":"2.0","result":{},"id":1}\n';

// ---- helpers ---------------------------------------------------------------------------------

/** Nodes and directories made inside one test; released after it. */
const perTest: TestNode[] = [];
const dirs: string[] = [];

async function freshNode(options: NodeOptions = {}): Promise<TestNode> {
  const node = await startTestNode({ apiAdminEnabled: true, ...options });
  perTest.push(node);
  dirs.push(node.dataDir);
  return node;
}

function dir(prefix = 'emu-admin-'): string {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
}

afterEach(async () => {
  for (const node of perTest.splice(0)) await node.stop();
});
afterAll(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const adminOf = (node: TestNode) => `${node.uri}/ext/admin`;

/** Starts a node with the Admin API for the enclosing describe block and stops it afterwards. */
function withAdminNode(use: (node: TestNode) => void, options: Record<string, unknown> = {}): void {
  let started: TestNode;
  beforeAll(async () => {
    started = await startTestNode({ apiAdminEnabled: true, ...options });
    dirs.push(started.dataDir);
    use(started);
  });
  afterAll(() => started.stop());
}
const infoOf = (node: TestNode) => `${node.uri}/ext/info`;

/** A call that must fail: HTTP 200, code -32000, data null, the request's id. */
async function expectError(url: string, method: string, params: unknown, message: string): Promise<void> {
  const r = await rpc(url, method, params);
  expect(r.status).toBe(200);
  expect(r.json).toEqual({ jsonrpc: '2.0', error: { code: -32000, message, data: null }, id: 1 });
}

/** A call that must succeed with exactly `{}`. */
async function expectEmpty(url: string, method: string, params?: unknown): Promise<void> {
  const r = await rpc(url, method, params);
  expect(r.status).toBe(200);
  expect(r.text).toBe(EMPTY_REPLY);
}

/** The raw JSON text of a successful call's result (to check key order byte for byte). */
async function resultText(url: string, method: string, params?: unknown): Promise<string> {
  const r = await rpc(url, method, params);
  expect(r.json?.error).toBeUndefined();
  const prefix = '{"jsonrpc":"2.0","result":';
  const suffix = ',"id":1}\n';
  expect(r.text.startsWith(prefix)).toBe(true);
  expect(r.text.endsWith(suffix)).toBe(true);
  return r.text.slice(prefix.length, r.text.length - suffix.length);
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A stand-in for process.stdout.write that records what is written. */
const capture = (into: string[]) =>
  ((chunk: string | Uint8Array) => {
    into.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;

const readText = async (path: string) => (existsSync(path) ? readFile(path, 'utf8') : '');
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

// ---- availability ----------------------------------------------------------------------------

describe('availability of /ext/admin', () => {
  it('is absent (404, text/plain "404 page not found\\n") without --api-admin-enabled', async () => {
    const node = await startTestNode({});
    perTest.push(node);
    dirs.push(node.dataDir);
    const r = await rpc(adminOf(node), 'admin.getLoggerLevel', {});
    expect(r.status).toBe(404);
    expect(r.text).toBe('404 page not found\n');
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    // The rest of the node is there.
    expect(await call(infoOf(node), 'info.getNetworkID')).toEqual({ networkID: '12345' });
  });

  it('is absent with apiAdminEnabled: false given explicitly', async () => {
    const node = await freshNode({ apiAdminEnabled: false });
    const r = await rpc(adminOf(node), 'admin.getLoggerLevel', {});
    expect(r.status).toBe(404);
    expect(r.text).toBe('404 page not found\n');
  });

  it('is served with apiAdminEnabled: true', async () => {
    const node = await freshNode();
    const r = await rpc(adminOf(node), 'admin.getLoggerLevel', { loggerName: 'main' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.json).toEqual({ jsonrpc: '2.0', result: { loggerLevels: { main: { logLevel: 'OFF', displayLevel: 'OFF' } } }, id: 1 });
  });
});

// ---- admin.alias -----------------------------------------------------------------------------

describe('admin.alias', () => {
  let node: TestNode;
  let admin: string;
  withAdminNode((n) => {
    node = n;
    admin = adminOf(n);
  });

  it('rejects an alias longer than 512 bytes with the full error envelope', async () => {
    const r = await rpc(admin, 'admin.alias', { endpoint: 'info', alias: 'a'.repeat(513) });
    expect(r.status).toBe(200);
    expect(r.text).toBe('{"jsonrpc":"2.0","error":{"code":-32000,"message":"alias length is too long","data":null},"id":1}\n');
    // Nothing was reserved.
    expect((await post(`${node.uri}/ext/${'a'.repeat(513)}`, '{}')).status).toBe(404);
  });

  it('measures the alias in bytes, as Go len() does: 257 × "é" (514 bytes) is too long', async () => {
    await expectError(admin, 'admin.alias', { endpoint: 'info', alias: 'é'.repeat(257) }, 'alias length is too long');
  });

  it('accepts an alias of exactly 512 bytes, which then serves the endpoint', async () => {
    const alias = 'b'.repeat(512);
    await expectEmpty(admin, 'admin.alias', { endpoint: 'info', alias });
    expect(await call(`${node.uri}/ext/${alias}`, 'info.getNetworkID')).toEqual({ networkID: '12345' });
  });

  it('aliases "info" to "myinfo": both paths serve the info API', async () => {
    expect((await post(`${node.uri}/ext/myinfo`, '{}')).status).toBe(404);
    await expectEmpty(admin, 'admin.alias', { endpoint: 'info', alias: 'myinfo' });
    expect(await call(`${node.uri}/ext/myinfo`, 'info.getNetworkID')).toEqual({ networkID: '12345' });
    expect(await call(`${node.uri}/ext/myinfo`, 'info.getBlockchainID', { alias: 'X' })).toEqual({ blockchainID: X });
    expect(await call(infoOf(node), 'info.getNetworkID')).toEqual({ networkID: '12345' });
  });

  it('refuses the same alias twice', async () => {
    await expectError(admin, 'admin.alias', { endpoint: 'info', alias: 'myinfo' }, 'route is either already aliased or already maps to a handle: /ext/myinfo');
    await expectError(
      admin,
      'admin.alias',
      { endpoint: 'health', alias: 'myinfo' },
      'route is either already aliased or already maps to a handle: /ext/myinfo',
    );
    // Still the info API.
    expect(await call(`${node.uri}/ext/myinfo`, 'info.getNetworkName')).toEqual({ networkName: 'local' });
  });

  it('aliases an alias: the aliased route is a base of its own', async () => {
    await expectEmpty(admin, 'admin.alias', { endpoint: 'myinfo', alias: 'myinfo2' });
    expect(await call(`${node.uri}/ext/myinfo2`, 'info.getNetworkID')).toEqual({ networkID: '12345' });
  });

  it('accepts an alias with path segments', async () => {
    await expectEmpty(admin, 'admin.alias', { endpoint: 'info', alias: 'deep/info' });
    expect(await call(`${node.uri}/ext/deep/info`, 'info.getNetworkID')).toEqual({ networkID: '12345' });
  });

  it('aliases an unknown endpoint silently and reserves the alias', async () => {
    await expectEmpty(admin, 'admin.alias', { endpoint: 'nowhere', alias: 'ghost' });
    expect((await post(`${node.uri}/ext/ghost`, '{}')).status).toBe(404);
    await expectError(admin, 'admin.alias', { endpoint: 'info', alias: 'ghost' }, 'route is either already aliased or already maps to a handle: /ext/ghost');
    // The alias stays dead: it was reserved for "nowhere", not given to info.
    expect((await post(`${node.uri}/ext/ghost`, '{}')).status).toBe(404);
  });

  it('fails to alias onto an existing base, keeps that base, and reserves the alias anyway', async () => {
    await expectError(admin, 'admin.alias', { endpoint: 'info', alias: 'health' }, 'failed to create endpoint as /ext/health already exists');
    const health = await fetch(`${node.uri}/ext/health/liveness`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ checks: {}, healthy: true });
    // /ext/health still answers health.*, not info.*.
    const r = await rpc(`${node.uri}/ext/health`, 'info.getNetworkID');
    expect(r.json.error.message).toBe('rpc: can\'t find service "info.GetNetworkID"');
    await expectError(admin, 'admin.alias', { endpoint: 'info', alias: 'health' }, 'route is either already aliased or already maps to a handle: /ext/health');
  });

  it('mirrors every sub-endpoint: "health" aliased to "h2" serves /ext/h2/liveness, /readiness and /health', async () => {
    await expectEmpty(admin, 'admin.alias', { endpoint: 'health', alias: 'h2' });
    for (const sub of ['/liveness', '/readiness', '/health', '']) {
      const res = await fetch(`${node.uri}/ext/h2${sub}`);
      const text = await res.text();
      if (sub === '/liveness') expect(JSON.parse(text)).toEqual({ checks: {}, healthy: true });
      expect(res.status, `GET /ext/h2${sub}`).toBe(200);
      expect(JSON.parse(text).healthy).toBe(true);
    }
    expect(await call(`${node.uri}/ext/h2`, 'health.liveness')).toEqual({ checks: {}, healthy: true });
  });

  it('decodes its arguments like Go: keys case-insensitively, absent fields empty', async () => {
    await expectEmpty(admin, 'admin.alias', { ENDPOINT: 'info', Alias: 'caseinfo' });
    expect(await call(`${node.uri}/ext/caseinfo`, 'info.getNetworkID')).toEqual({ networkID: '12345' });
    const bad = await rpc(admin, 'admin.alias', { endpoint: 1, alias: 'x' });
    expect(bad.json.error).toEqual({ code: -32000, message: INVALID_ARG, data: null });
  });
});

// ---- admin.aliasChain ------------------------------------------------------------------------

describe('admin.aliasChain', () => {
  let node: TestNode;
  let admin: string;
  let info: string;
  beforeAll(async () => {
    node = await startTestNode({ apiAdminEnabled: true });
    dirs.push(node.dataDir);
    admin = adminOf(node);
    info = infoOf(node);
  });
  afterAll(() => node.stop());

  it('rejects an alias longer than 512 bytes before looking the chain up', async () => {
    await expectError(admin, 'admin.aliasChain', { chain: 'X', alias: 'a'.repeat(513) }, 'alias length is too long');
    await expectError(admin, 'admin.aliasChain', { chain: 'nope', alias: 'a'.repeat(513) }, 'alias length is too long');
  });

  it('measures the alias in bytes, as Go len() does: 257 × "é" (514 bytes) is too long', async () => {
    // Its own node, so that a wrongly accepted alias cannot leak into the other tests.
    const other = await freshNode();
    await expectError(adminOf(other), 'admin.aliasChain', { chain: 'X', alias: 'é'.repeat(257) }, 'alias length is too long');
    expect(await call(adminOf(other), 'admin.getChainAliases', { chain: X })).toEqual({ aliases: ['X', 'avm', X] });
  });

  it('rejects an unknown chain', async () => {
    await expectError(admin, 'admin.aliasChain', { chain: 'Q', alias: 'q' }, 'there is no ID with alias: Q');
    await expectError(admin, 'admin.aliasChain', { alias: 'q' }, 'there is no ID with alias: ');
  });

  it('rejects an alias some chain already has', async () => {
    await expectError(admin, 'admin.aliasChain', { chain: 'C', alias: 'X' }, 'alias already mapped to an ID: X');
    await expectError(admin, 'admin.aliasChain', { chain: 'X', alias: 'platform' }, 'alias already mapped to an ID: platform');
    await expectError(admin, 'admin.aliasChain', { chain: 'X', alias: X }, `alias already mapped to an ID: ${X}`);
  });

  it('aliases the X-Chain to "myX": info.getBlockchainID and getChainAliases see it', async () => {
    await expectEmpty(admin, 'admin.aliasChain', { chain: 'X', alias: 'myX' });
    expect(await call(info, 'info.getBlockchainID', { alias: 'myX' })).toEqual({ blockchainID: X });
    expect(await resultText(admin, 'admin.getChainAliases', { chain: X })).toBe(`{"aliases":["X","avm","${X}","myX"]}`);
  });

  it('registers /ext/bc/myX with the router: the chain alias and the route are both taken', async () => {
    await expectError(admin, 'admin.aliasChain', { chain: 'X', alias: 'myX' }, 'alias already mapped to an ID: myX');
    await expectError(admin, 'admin.alias', { endpoint: 'info', alias: 'bc/myX' }, 'route is either already aliased or already maps to a handle: /ext/bc/myX');
  });

  it('finds the chain by any alias or by its ID', async () => {
    await expectEmpty(admin, 'admin.aliasChain', { chain: 'platform', alias: 'myP' });
    await expectEmpty(admin, 'admin.aliasChain', { chain: C, alias: 'myC' });
    await expectEmpty(admin, 'admin.aliasChain', { chain: 'myC', alias: 'myC2' });
    expect(await call(info, 'info.getBlockchainID', { alias: 'myP' })).toEqual({ blockchainID: P });
    expect(await call(info, 'info.getBlockchainID', { alias: 'myC2' })).toEqual({ blockchainID: C });
    expect(await call(admin, 'admin.getChainAliases', { chain: C })).toEqual({ aliases: ['C', 'evm', C, 'myC', 'myC2'] });
  });

  it('keeps the chain alias when the route alias fails (no rollback)', async () => {
    await expectEmpty(admin, 'admin.alias', { endpoint: 'nowhere', alias: 'bc/taken' });
    await expectError(admin, 'admin.aliasChain', { chain: 'P', alias: 'taken' }, 'route is either already aliased or already maps to a handle: /ext/bc/taken');
    expect(await call(info, 'info.getBlockchainID', { alias: 'taken' })).toEqual({ blockchainID: P });
    expect(await call(admin, 'admin.getChainAliases', { chain: P })).toEqual({ aliases: ['P', 'platform', P, 'myP', 'taken'] });
  });
});

// ---- admin.getChainAliases -------------------------------------------------------------------

describe('admin.getChainAliases', () => {
  let admin: string;
  withAdminNode((n) => {
    admin = adminOf(n);
  });

  it('lists the P-Chain genesis aliases, then its ID', async () => {
    expect(await resultText(admin, 'admin.getChainAliases', { chain: P })).toBe(`{"aliases":["P","platform","${P}"]}`);
  });

  it('lists the X- and C-Chain aliases', async () => {
    expect(await resultText(admin, 'admin.getChainAliases', { chain: X })).toBe(`{"aliases":["X","avm","${X}"]}`);
    expect(await resultText(admin, 'admin.getChainAliases', { chain: C })).toBe(`{"aliases":["C","evm","${C}"]}`);
  });

  it('answers null for a valid ID no chain has', async () => {
    const unknown = encodeCB58(new Uint8Array(32).fill(7));
    expect(await resultText(admin, 'admin.getChainAliases', { chain: unknown })).toBe('{"aliases":null}');
  });

  const twenty = encodeCB58(new Uint8Array(20).fill(9));
  const raw = new Uint8Array(32).fill(3);
  const wrongSum = checksum(raw).map((b) => b ^ 0xff);
  const badChecksum = base58.encode(new Uint8Array([...raw, ...wrongSum]));
  const cases: Array<[string, string]> = [
    ['', 'base58 decoding error: zero length string'],
    ['0abc', "base58 decoding error: Invalid base58 digit ('0')"],
    ['1', 'input string is smaller than the checksum size'],
    ['X', 'input string is smaller than the checksum size'],
    ['P', 'input string is smaller than the checksum size'],
    [badChecksum, 'invalid input checksum'],
    [twenty, 'invalid hash length: expected 32 bytes but got 20'],
  ];
  it.each(cases)('chain %j -> %s', async (chain, message) => {
    await expectError(admin, 'admin.getChainAliases', { chain }, message);
  });

  it('treats an absent chain as the empty string', async () => {
    await expectError(admin, 'admin.getChainAliases', {}, 'base58 decoding error: zero length string');
  });
});

// ---- logger levels ---------------------------------------------------------------------------

describe('admin.getLoggerLevel', () => {
  let node: TestNode;
  let admin: string;
  beforeAll(async () => {
    node = await startTestNode({ apiAdminEnabled: true, logLevel: 'warn', logDisplayLevel: 'off' });
    dirs.push(node.dataDir);
    admin = adminOf(node);
  });
  afterAll(() => node.stop());

  it('reports one logger by name', async () => {
    expect(await resultText(admin, 'admin.getLoggerLevel', { loggerName: 'main' })).toBe('{"loggerLevels":{"main":{"logLevel":"WARN","displayLevel":"OFF"}}}');
    expect(await call(admin, 'admin.getLoggerLevel', { loggerName: 'X' })).toEqual({ loggerLevels: { X: { logLevel: 'WARN', displayLevel: 'OFF' } } });
  });

  it('reports every logger (main, vm-factory, P, X, C) without a name', async () => {
    const levels = { logLevel: 'WARN', displayLevel: 'OFF' };
    const all = await call(admin, 'admin.getLoggerLevel', {});
    expect(all).toEqual({ loggerLevels: { main: levels, 'vm-factory': levels, P: levels, X: levels, C: levels } });
    expect(await call(admin, 'admin.getLoggerLevel', { loggerName: '' })).toEqual(all);
    expect(await call(admin, 'admin.getLoggerLevel')).toEqual(all);
  });

  it('marshals loggerLevels as a Go map: keys sorted byte-wise', async () => {
    const text = await resultText(admin, 'admin.getLoggerLevel', {});
    expect(Object.keys(JSON.parse(text).loggerLevels)).toEqual(['C', 'P', 'X', 'main', 'vm-factory']);
  });

  it('rejects an unknown logger', async () => {
    await expectError(admin, 'admin.getLoggerLevel', { loggerName: 'nope' }, 'logger with name "nope" not found');
    await expectError(admin, 'admin.getLoggerLevel', { loggerName: 'MAIN' }, 'logger with name "MAIN" not found');
  });

  it('quotes the unknown name as Go %q does: a quote is escaped', async () => {
    await expectError(admin, 'admin.getLoggerLevel', { loggerName: 'a"b' }, 'logger with name "a\\"b" not found');
  });

  it('quotes the unknown name as Go %q does: a control character is \\x-escaped', async () => {
    await expectError(admin, 'admin.getLoggerLevel', { loggerName: 'a\u0001b' }, 'logger with name "a\\x01b" not found');
  });
});

describe('admin.setLoggerLevel', () => {
  let node: TestNode;
  let admin: string;
  beforeEach(async () => {
    node = await freshNode({ logLevel: 'info', logDisplayLevel: 'off' });
    admin = adminOf(node);
  });

  it('requires logLevel or displayLevel', async () => {
    await expectError(admin, 'admin.setLoggerLevel', { loggerName: 'main' }, 'need to specify either displayLevel or logLevel');
    await expectError(admin, 'admin.setLoggerLevel', {}, 'need to specify either displayLevel or logLevel');
    await expectError(
      admin,
      'admin.setLoggerLevel',
      { loggerName: 'main', logLevel: null, displayLevel: null },
      'need to specify either displayLevel or logLevel',
    );
  });

  it('changes one logger, case-insensitively, and answers its levels upper-case', async () => {
    expect(await resultText(admin, 'admin.setLoggerLevel', { loggerName: 'main', logLevel: 'dEbUg' })).toBe(
      '{"loggerLevels":{"main":{"logLevel":"DEBUG","displayLevel":"OFF"}}}',
    );
    expect(await call(admin, 'admin.setLoggerLevel', { loggerName: 'main', displayLevel: 'Warn' })).toEqual({
      loggerLevels: { main: { logLevel: 'DEBUG', displayLevel: 'WARN' } },
    });
    expect(await call(admin, 'admin.getLoggerLevel', { loggerName: 'main' })).toEqual({ loggerLevels: { main: { logLevel: 'DEBUG', displayLevel: 'WARN' } } });
    // The others are untouched.
    expect(await call(admin, 'admin.getLoggerLevel', { loggerName: 'P' })).toEqual({ loggerLevels: { P: { logLevel: 'INFO', displayLevel: 'OFF' } } });
  });

  it('sets both levels at once', async () => {
    expect(await call(admin, 'admin.setLoggerLevel', { loggerName: 'C', logLevel: 'verbo', displayLevel: 'fatal' })).toEqual({
      loggerLevels: { C: { logLevel: 'VERBO', displayLevel: 'FATAL' } },
    });
  });

  it.each(LEVELS.map((l) => [l.toLowerCase(), l] as const))('accepts %j as %s', async (text, upper) => {
    expect(await call(admin, 'admin.setLoggerLevel', { loggerName: 'vm-factory', logLevel: text })).toEqual({
      loggerLevels: { 'vm-factory': { logLevel: upper, displayLevel: 'OFF' } },
    });
  });

  it('changes every logger when loggerName is absent, and answers them all', async () => {
    const levels = { logLevel: 'ERROR', displayLevel: 'OFF' };
    const expected = { loggerLevels: { main: levels, 'vm-factory': levels, P: levels, X: levels, C: levels } };
    expect(await call(admin, 'admin.setLoggerLevel', { logLevel: 'error' })).toEqual(expected);
    expect(await call(admin, 'admin.getLoggerLevel', {})).toEqual(expected);
  });

  it('changes every logger when loggerName is empty', async () => {
    const levels = { logLevel: 'INFO', displayLevel: 'TRACE' };
    expect(await call(admin, 'admin.setLoggerLevel', { loggerName: '', displayLevel: 'trace' })).toEqual({
      loggerLevels: { main: levels, 'vm-factory': levels, P: levels, X: levels, C: levels },
    });
  });

  it('answers the changed loggers as a Go map: keys sorted byte-wise', async () => {
    const text = await resultText(admin, 'admin.setLoggerLevel', { logLevel: 'warn' });
    expect(Object.keys(JSON.parse(text).loggerLevels)).toEqual(['C', 'P', 'X', 'main', 'vm-factory']);
  });

  it('rejects an unknown logger and changes nothing', async () => {
    await expectError(admin, 'admin.setLoggerLevel', { loggerName: 'nope', logLevel: 'debug' }, 'logger with name "nope" not found');
    expect((await call(admin, 'admin.getLoggerLevel', {})).loggerLevels.main).toEqual({ logLevel: 'INFO', displayLevel: 'OFF' });
  });

  it('rejects an invalid level with the generic argument error and changes nothing', async () => {
    for (const params of [
      { loggerName: 'main', logLevel: 'loud' },
      { loggerName: 'main', displayLevel: 'loud' },
      { loggerName: 'main', logLevel: '' },
      { loggerName: 'main', logLevel: 5 },
      { loggerName: 'main', logLevel: 'info', displayLevel: 'nope' },
    ]) {
      const r = await rpc(admin, 'admin.setLoggerLevel', params);
      expect(r.status).toBe(200);
      expect(r.json, JSON.stringify(params)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: INVALID_ARG, data: null }, id: 1 });
    }
    expect(await call(admin, 'admin.getLoggerLevel', { loggerName: 'main' })).toEqual({ loggerLevels: { main: { logLevel: 'INFO', displayLevel: 'OFF' } } });
  });

  it('matches argument keys case-insensitively', async () => {
    expect(await call(admin, 'admin.setLoggerLevel', { LoggerName: 'P', LOGLEVEL: 'trace' })).toEqual({
      loggerLevels: { P: { logLevel: 'TRACE', displayLevel: 'OFF' } },
    });
  });
});

describe('logger levels decide what is written', () => {
  /** A node logging INFO to <dataDir>/logs/*.log and nothing to stdout, once "node started" is on disk. */
  async function loggingNode(): Promise<{ node: TestNode; admin: string; mainLog: string }> {
    const node = await freshNode({ logLevel: 'info', logDisplayLevel: 'off' });
    const mainLog = join(node.dataDir, 'logs', 'main.log');
    await waitFor(async () => (await readText(mainLog)).includes('node started'), 'main.log to hold "node started"');
    return { node, admin: adminOf(node), mainLog };
  }

  // The only log call the emulator makes on demand is main's INFO "shutting down node" on stop.
  it('writes INFO "node started" and, on stop, INFO "shutting down node" at logLevel info', async () => {
    const { node, mainLog } = await loggingNode();
    expect(await readText(mainLog)).toMatch(/^\[\d\d-\d\d\|\d\d:\d\d:\d\d\.\d{3}\] INFO .*node started/m);
    await node.stop();
    expect(await readText(mainLog)).toMatch(/ INFO .*shutting down node/);
  });

  it('writes nothing more once main is set to OFF', async () => {
    const { node, admin, mainLog } = await loggingNode();
    await call(admin, 'admin.setLoggerLevel', { loggerName: 'main', logLevel: 'off' });
    const before = await readText(mainLog);
    await call(admin, 'admin.alias', { endpoint: 'info', alias: 'quiet' });
    await node.stop();
    const after = await readText(mainLog);
    expect(after).toBe(before);
    expect(after).not.toContain('shutting down node');
  });

  it('drops INFO lines at WARN', async () => {
    const { node, admin, mainLog } = await loggingNode();
    await call(admin, 'admin.setLoggerLevel', { loggerName: 'main', logLevel: 'WARN' });
    await node.stop();
    expect(await readText(mainLog)).not.toContain('shutting down node');
  });

  it('keeps INFO lines at TRACE (TRACE sits below INFO)', async () => {
    const { node, admin, mainLog } = await loggingNode();
    await call(admin, 'admin.setLoggerLevel', { loggerName: 'main', logLevel: 'trace' });
    await node.stop();
    expect(await readText(mainLog)).toContain('shutting down node');
  });

  it('leaves main alone when another logger is turned off', async () => {
    const { node, admin, mainLog } = await loggingNode();
    await call(admin, 'admin.setLoggerLevel', { loggerName: 'P', logLevel: 'off' });
    await node.stop();
    expect(await readText(mainLog)).toContain('shutting down node');
  });

  it('turns main OFF when all loggers are set without a name', async () => {
    const { node, admin, mainLog } = await loggingNode();
    await call(admin, 'admin.setLoggerLevel', { logLevel: 'off' });
    await node.stop();
    expect(await readText(mainLog)).not.toContain('shutting down node');
  });

  it('the display level decides what reaches stdout', async () => {
    const { node, admin } = await loggingNode();
    await call(admin, 'admin.setLoggerLevel', { loggerName: 'main', displayLevel: 'info' });
    const writes: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation(capture(writes));
    try {
      await node.stop();
    } finally {
      spy.mockRestore();
    }
    expect(writes.some((w) => / INFO .*shutting down node/.test(w))).toBe(true);

    const quiet = await loggingNode();
    const quietWrites: string[] = [];
    const spy2 = vi.spyOn(process.stdout, 'write').mockImplementation(capture(quietWrites));
    try {
      await quiet.node.stop();
    } finally {
      spy2.mockRestore();
    }
    expect(quietWrites.some((w) => w.includes('shutting down node'))).toBe(false);
  });
});

describe('level ordering (logging/level.ts enabled())', () => {
  const order: Level[] = ['VERBO', 'DEBUG', 'TRACE', 'INFO', 'WARN', 'ERROR', 'FATAL', 'OFF'];

  it('orders VERBO < DEBUG < TRACE < INFO < WARN < ERROR < FATAL < OFF', () => {
    expect([...LEVELS]).toEqual(order);
  });

  it('writes a message at or above the threshold, never at OFF', () => {
    for (const [ti, threshold] of order.entries()) {
      for (const [li, level] of order.slice(0, -1).entries()) {
        expect(enabled(level, threshold), `${level} at threshold ${threshold}`).toBe(threshold !== 'OFF' && li >= ti);
      }
    }
    expect(enabled('INFO', 'TRACE')).toBe(true);
    expect(enabled('TRACE', 'INFO')).toBe(false);
    expect(enabled('TRACE', 'DEBUG')).toBe(true);
    expect(enabled('DEBUG', 'TRACE')).toBe(false);
    expect(enabled('FATAL', 'OFF')).toBe(false);
  });
});

// ---- profiler --------------------------------------------------------------------------------

describe('profiler', () => {
  let node: TestNode;
  let admin: string;
  let profileDir: string;
  beforeAll(async () => {
    profileDir = join(dir('emu-profiles-'), 'nested', 'profiles');
    node = await startTestNode({ apiAdminEnabled: true, profileDir });
    dirs.push(node.dataDir);
    admin = adminOf(node);
  });
  afterAll(() => node.stop());

  it('does not create the profile dir before a profile is asked for', () => {
    expect(existsSync(profileDir)).toBe(false);
  });

  it('startCPUProfiler answers {} and creates cpu.profile; a second start fails', async () => {
    await expectEmpty(admin, 'admin.startCPUProfiler');
    expect(existsSync(join(profileDir, 'cpu.profile'))).toBe(true);
    expect(await modeOf(profileDir)).toBe(0o750);
    await expectError(admin, 'admin.startCPUProfiler', undefined, 'cpu profiler already running');
  });

  it('stopCPUProfiler answers {} and leaves a V8 CPU profile; a second stop fails', async () => {
    // Some work to sample.
    for (let i = 0; i < 20; i++) await call(`${node.uri}/ext/info`, 'info.getNodeVersion');
    await expectEmpty(admin, 'admin.stopCPUProfiler');
    const path = join(profileDir, 'cpu.profile');
    const profile = JSON.parse(await readFile(path, 'utf8'));
    expect(Array.isArray(profile.nodes)).toBe(true);
    expect(profile.nodes.length).toBeGreaterThan(0);
    expect(typeof profile.startTime).toBe('number');
    expect(typeof profile.endTime).toBe('number');
    expect(profile.endTime).toBeGreaterThanOrEqual(profile.startTime);
    expect(Array.isArray(profile.samples)).toBe(true);
    expect(await modeOf(path)).toBe(0o640);
    await expectError(admin, 'admin.stopCPUProfiler', undefined, "cpu profiler doesn't exist");
  });

  it('can profile the CPU again after a stop', async () => {
    await expectEmpty(admin, 'admin.startCPUProfiler');
    await expectEmpty(admin, 'admin.stopCPUProfiler');
    expect(JSON.parse(await readFile(join(profileDir, 'cpu.profile'), 'utf8')).nodes.length).toBeGreaterThan(0);
  });

  it("memoryProfile answers {} and writes V8's sampling heap profile of the memory in use to mem.profile", async () => {
    // Something held meanwhile: the profile samples what is live, with its allocation stacks.
    const held = Array.from({ length: 2000 }, (_, i) => ({ i, data: 'x'.repeat(1000) + i }));
    await expectEmpty(admin, 'admin.memoryProfile');
    const path = join(profileDir, 'mem.profile');
    const profile = JSON.parse(await readFile(path, 'utf8'));
    expect(Object.keys(profile).sort()).toEqual(['head', 'samples']);
    expect(profile.head.callFrame).toMatchObject({ functionName: '(root)' });
    expect(profile.samples.length).toBeGreaterThan(0);
    expect(held).toHaveLength(2000);
    expect(await modeOf(path)).toBe(0o640);
  });

  it('lockProfile answers {} and writes an event-loop-delay report to lock.profile', async () => {
    await expectEmpty(admin, 'admin.lockProfile');
    const path = join(profileDir, 'lock.profile');
    const report = JSON.parse(await readFile(path, 'utf8'));
    expect(report.kind).toBe('event-loop-delay');
    expect(await modeOf(path)).toBe(0o640);
    await expectEmpty(admin, 'admin.lockProfile');
    expect(JSON.parse(await readFile(path, 'utf8')).kind).toBe('event-loop-delay');
  });

  it('the profile methods take no arguments beyond an empty object', async () => {
    const r = await rpc(admin, 'admin.lockProfile', { unknown: 1 });
    expect(r.text).toBe(EMPTY_REPLY);
  });
});

// ---- stacktrace ------------------------------------------------------------------------------

describe('admin.stacktrace', () => {
  const file = join(process.cwd(), 'stacktrace.txt');
  let preexisting: Buffer | undefined;
  beforeAll(async () => {
    preexisting = existsSync(file) ? await readFile(file) : undefined;
    await rm(file, { force: true });
  });
  afterAll(async () => {
    await rm(file, { force: true });
    if (preexisting) await writeFile(file, preexisting);
  });

  it('answers {} and writes stacktrace.txt (0640) in the working directory', async () => {
    const node = await freshNode();
    await expectEmpty(adminOf(node), 'admin.stacktrace');
    expect(existsSync(file)).toBe(true);
    expect((await readFile(file, 'utf8')).length).toBeGreaterThan(0);
    expect(await modeOf(file)).toBe(0o640);
  });

  it('overwrites an existing stacktrace.txt and gives it mode 0640 (perms.WriteFile)', async () => {
    await writeFile(file, 'old contents that must go\n');
    await chmod(file, 0o644);
    const node = await freshNode();
    await expectEmpty(adminOf(node), 'admin.stacktrace');
    expect(await readFile(file, 'utf8')).not.toContain('old contents that must go');
    expect(await modeOf(file)).toBe(0o640);
  });
});

// ---- getConfig -------------------------------------------------------------------------------

// node.Config's JSON keys in avalanchego 1.14.2 (config/node/config.go), in declaration order.
const REAL_CONFIG_KEYS = [
  'httpConfig',
  'ipConfig',
  'stakingConfig',
  'txFeeConfig',
  'stateSyncConfig',
  'bootstrapConfig',
  'databaseConfig',
  'upgradeConfig',
  'avaxAssetID',
  'networkID',
  'healthCheckFreq',
  'networkConfig',
  'adaptiveTimeoutConfig',
  'benchlistConfig',
  'profilerConfig',
  'loggingConfig',
  'pluginDir',
  'fdLimit',
  'meterVMEnabled',
  'routerHealthConfig',
  'consensusShutdownTimeout',
  'consensusGossipFreq',
  'consensusAppConcurrency',
  'trackedSubnets',
  'proposerMinBlockDelay',
  'subnetConfigs',
  'chainAliases',
  'vmAliases',
  'systemTrackerProcessingHalflife',
  'systemTrackerFrequency',
  'systemTrackerCPUHalflife',
  'systemTrackerDiskHalflife',
  'cpuTargeterConfig',
  'diskTargeterConfig',
  'requiredAvailableDiskSpacePercentage',
  'warningAvailableDiskSpacePercentage',
  'traceConfig',
  'useCurrentHeight',
  'chainDataDir',
  'processContextFilePath',
];

describe('admin.getConfig', () => {
  let node: TestNode;
  let config: any;
  let text: string;
  let pluginDir: string;
  beforeAll(async () => {
    pluginDir = dir('emu-plugins-');
    node = await startTestNode({ apiAdminEnabled: true, pluginDir });
    dirs.push(node.dataDir);
    text = await resultText(adminOf(node), 'admin.getConfig');
    config = JSON.parse(text);
  });
  afterAll(() => node.stop());

  it('starts with httpConfig, ipConfig, stakingConfig, txFeeConfig', () => {
    expect(Object.keys(config).slice(0, 4)).toEqual(['httpConfig', 'ipConfig', 'stakingConfig', 'txFeeConfig']);
  });

  it('has only node.Config keys, in node.Config order', () => {
    const keys = Object.keys(config);
    for (const k of keys) expect(REAL_CONFIG_KEYS, k).toContain(k);
    const positions = keys.map((k) => REAL_CONFIG_KEYS.indexOf(k));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('httpConfig: server timeouts first, in nanoseconds, and the admin API enabled', () => {
    const http = config.httpConfig;
    expect(Object.keys(http).slice(0, 5)).toEqual(['readTimeout', 'readHeaderTimeout', 'writeHeaderTimeout', 'idleTimeout', 'apiConfig']);
    expect(http.writeHeaderTimeout).toBe(30_000_000_000);
    expect(http.readTimeout).toBe(30_000_000_000);
    expect(http.readHeaderTimeout).toBe(30_000_000_000);
    expect(http.idleTimeout).toBe(120_000_000_000);
    expect(http.apiConfig.adminAPIEnabled).toBe(true);
    expect(http.apiConfig.infoAPIEnabled).toBe(true);
    expect(http.httpsEnabled).toBe(false);
    expect(text).toContain('"writeHeaderTimeout":30000000000');
  });

  it('networkID is the number 12345, healthCheckFreq 30s in ns', () => {
    expect(config.networkID).toBe(12345);
    expect(text).toContain('"networkID":12345,');
    expect(config.healthCheckFreq).toBe(30_000_000_000);
  });

  it('reports the plugin dir it was given', () => {
    expect(config.pluginDir).toBe(pluginDir);
  });

  it('reports a configured health check frequency in ns', async () => {
    const other = await freshNode({ healthCheckFrequency: '2s' });
    expect((await call(adminOf(other), 'admin.getConfig')).healthCheckFreq).toBe(2_000_000_000);
  });
});

// ---- dbGet -----------------------------------------------------------------------------------

describe('admin.dbGet', () => {
  let admin: string;
  withAdminNode((n) => {
    admin = adminOf(n);
  });

  it('reads the "ungracefulShutdown" marker the running node keeps: an empty value', async () => {
    expect(Buffer.from('ungracefulShutdown').toString('hex')).toBe('756e677261636566756c53687574646f776e');
    expect(await resultText(admin, 'admin.dbGet', { key: '0x756e677261636566756c53687574646f776e' })).toBe('{"value":"0x","errorCode":0}');
  });

  it('accepts upper-case hex digits', async () => {
    expect(await call(admin, 'admin.dbGet', { key: '0x756E677261636566756C53687574646F776E' })).toEqual({ value: '0x', errorCode: 0 });
  });

  it('answers an absent key with errorCode 2 (not found) and an empty value', async () => {
    expect(await resultText(admin, 'admin.dbGet', { key: '0xdeadbeef' })).toBe('{"value":"","errorCode":2}');
    expect(await call(admin, 'admin.dbGet', { key: '0x' })).toEqual({ value: '', errorCode: 2 });
    expect(await call(admin, 'admin.dbGet', { key: '' })).toEqual({ value: '', errorCode: 2 });
  });

  it('rejects a key without the 0x prefix', async () => {
    await expectError(admin, 'admin.dbGet', { key: 'abc' }, 'missing 0x prefix to hex encoding');
    await expectError(admin, 'admin.dbGet', { key: '756e67' }, 'missing 0x prefix to hex encoding');
  });

  it('rejects odd-length and non-hex keys with Go encoding/hex errors', async () => {
    await expectError(admin, 'admin.dbGet', { key: '0xabc' }, 'encoding/hex: odd length hex string');
    await expectError(admin, 'admin.dbGet', { key: '0xzz' }, "encoding/hex: invalid byte: U+007A 'z'");
  });
});

// ---- loadVMs ---------------------------------------------------------------------------------

describe('admin.loadVMs', () => {
  let node: TestNode;
  let admin: string;
  let info: string;
  let pluginDir: string;
  beforeEach(async () => {
    pluginDir = dir('emu-plugins-');
    node = await freshNode({ pluginDir });
    admin = adminOf(node);
    info = infoOf(node);
  });

  const plugin = async (name: string, mode = 0o644, content = 'not a binary\n') => {
    const path = join(pluginDir, name);
    await writeFile(path, content);
    await chmod(path, mode);
    return path;
  };

  it('answers {"newVMs":{}} for an empty plugin dir, without failedVMs', async () => {
    expect(readdirSync(pluginDir)).toEqual([]);
    expect(await resultText(admin, 'admin.loadVMs')).toBe('{"newVMs":{}}');
  });

  it('reports a plugin that cannot be executed in failedVMs only (newVMs lists registered VMs)', async () => {
    const path = await plugin(UNKNOWN_VM_1);
    // VMRegistry.Reload `continue`s past a VM whose factory fails, so it never reaches newVMs.
    expect(await resultText(admin, 'admin.loadVMs')).toBe(
      `{"newVMs":{},"failedVMs":{"${UNKNOWN_VM_1}":"failed to start process: fork/exec ${path}: permission denied"}}`,
    );
  });

  it('never retries a VM once registered, even a failed one', async () => {
    await plugin(UNKNOWN_VM_1);
    await call(admin, 'admin.loadVMs');
    expect(await resultText(admin, 'admin.loadVMs')).toBe('{"newVMs":{}}');
  });

  it('lists a failed VM in info.getVMs (its factory is registered) but not in vmVersions', async () => {
    await plugin(UNKNOWN_VM_1);
    await call(admin, 'admin.loadVMs');
    expect((await call(info, 'info.getVMs')).vms[UNKNOWN_VM_1]).toEqual([]);
    expect(Object.keys((await call(info, 'info.getNodeVersion')).vmVersions)).toEqual(['avm', 'evm', 'platform']);
  });

  it('reports an executable that is no program as an exec format error', async () => {
    const path = await plugin(UNKNOWN_VM_2, 0o755, 'hello\n');
    expect(await call(admin, 'admin.loadVMs')).toEqual({
      newVMs: {},
      failedVMs: { [UNKNOWN_VM_2]: `failed to start process: fork/exec ${path}: exec format error` },
    });
  });

  it('sorts failedVMs by VM ID, as Go marshals a map, not by file name', async () => {
    const aliases = join(dir('emu-vm-aliases-'), 'aliases.json');
    const [first, second] = [UNKNOWN_VM_1, UNKNOWN_VM_2].sort();
    // The first ID gets an alias that sorts last among the file names.
    await writeFile(aliases, JSON.stringify({ [first!]: ['zzz-vm'] }));
    const plugins = dir('emu-plugins-');
    const other = await freshNode({ pluginDir: plugins, vmAliasesFile: aliases });
    await writeFile(join(plugins, 'zzz-vm'), 'x');
    await writeFile(join(plugins, second!), 'x');
    const text = await resultText(adminOf(other), 'admin.loadVMs');
    expect(Object.keys(JSON.parse(text).failedVMs)).toEqual([first, second]);
  });

  it('loads the Subnet-EVM plugin: newVMs, info.getVMs and vmVersions show it', async () => {
    await plugin(SUBNET_EVM);
    expect(await resultText(admin, 'admin.loadVMs')).toBe(`{"newVMs":{"${SUBNET_EVM}":[]}}`);
    expect((await call(info, 'info.getVMs')).vms[SUBNET_EVM]).toEqual([]);
    expect((await call(info, 'info.getNodeVersion')).vmVersions[SUBNET_EVM]).toBe('v0.8.0');
    expect(await resultText(admin, 'admin.loadVMs')).toBe('{"newVMs":{}}');
  });

  it('strips a file extension (Windows .exe) from the plugin name', async () => {
    await plugin(`${SUBNET_EVM}.exe`);
    expect(await call(admin, 'admin.loadVMs')).toEqual({ newVMs: { [SUBNET_EVM]: [] } });
  });

  it('skips plugin files for VMs that are already registered', async () => {
    await plugin(AVM_VM_ID);
    await plugin('evm');
    expect(await resultText(admin, 'admin.loadVMs')).toBe('{"newVMs":{}}');
  });

  it('fails the whole scan on a file that names no VM, registering nothing', async () => {
    await plugin(SUBNET_EVM);
    await plugin('not-an-id');
    await expectError(admin, 'admin.loadVMs', undefined, 'invalid vmID: "not-an-id"');
    expect((await call(info, 'info.getVMs')).vms[SUBNET_EVM]).toBeUndefined();
    await rm(join(pluginDir, 'not-an-id'));
    expect(await call(admin, 'admin.loadVMs')).toEqual({ newVMs: { [SUBNET_EVM]: [] } });
  });

  it('skips hidden files and directories', async () => {
    await plugin('.DS_Store');
    await mkdir(join(pluginDir, 'not-an-id'));
    await mkdir(join(pluginDir, UNKNOWN_VM_1));
    expect(await resultText(admin, 'admin.loadVMs')).toBe('{"newVMs":{}}');
  });

  it("fails with Go's os.ReadDir error when the plugin dir has gone", async () => {
    await rm(pluginDir, { recursive: true });
    await expectError(admin, 'admin.loadVMs', undefined, `open ${pluginDir}: no such file or directory`);
  });

  it('recognises a plugin by its alias from the VM aliases file and reports the alias', async () => {
    const aliases = join(dir('emu-vm-aliases-'), 'aliases.json');
    await writeFile(aliases, JSON.stringify({ [SUBNET_EVM]: ['subnet-evm'] }));
    const plugins = dir('emu-plugins-');
    const other = await freshNode({ pluginDir: plugins, vmAliasesFile: aliases });
    await writeFile(join(plugins, 'subnet-evm'), 'x');
    expect(await resultText(adminOf(other), 'admin.loadVMs')).toBe(`{"newVMs":{"${SUBNET_EVM}":["subnet-evm"]}}`);
    expect((await call(infoOf(other), 'info.getVMs')).vms[SUBNET_EVM]).toEqual(['subnet-evm']);
    expect((await call(infoOf(other), 'info.getNodeVersion')).vmVersions['subnet-evm']).toBe('v0.8.0');
  });

  it('reports the alias for a plugin file named by ID too', async () => {
    const aliases = join(dir('emu-vm-aliases-'), 'aliases.json');
    await writeFile(aliases, JSON.stringify({ [SUBNET_EVM]: ['subnet-evm'] }));
    const plugins = dir('emu-plugins-');
    const other = await freshNode({ pluginDir: plugins, vmAliasesFile: aliases });
    await writeFile(join(plugins, SUBNET_EVM), 'x');
    expect(await call(adminOf(other), 'admin.loadVMs')).toEqual({ newVMs: { [SUBNET_EVM]: ['subnet-evm'] } });
  });
});

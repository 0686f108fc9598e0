// Health API: GET reports and JSON-RPC, tags, readiness, the scheduler and injected faults.
import { statfsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, post, startTestNode, type TestNode } from './helpers.js';

const PRIMARY = '11111111111111111111111111111111LpoYY';
// avalanchego's checks, and the emulator's own icm-relayer (--icm, on by default: the relayer can pay for deliveries).
const NODE_CHECKS = ['C', 'P', 'X', 'bls', 'bootstrapped', 'database', 'diskspace', 'futureupgrade', 'icm-relayer', 'network', 'router'];
const RFC3339_NANO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;

let node: TestNode;
let health: string;
beforeAll(async () => {
  node = await startTestNode({ healthCheckFrequency: '100ms' });
  health = `${node.uri}/ext/health`;
});
afterAll(() => node.stop());

const get = async (path: string) => {
  const res = await fetch(`${node.uri}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

describe('reports', () => {
  it('is healthy from the first request, with every check in Go map (sorted) order', async () => {
    const fresh = await startTestNode();
    try {
      const res = await fetch(`${fresh.uri}/ext/health`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { checks: Record<string, unknown>; healthy: boolean };
      expect(body.healthy).toBe(true);
      expect(Object.keys(body.checks)).toEqual(NODE_CHECKS);
    } finally {
      await fresh.stop();
    }
  });

  it('GET /ext/health: 200, application/json, compact with a trailing newline, checks then healthy', async () => {
    const r = await get('/ext/health');
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/json');
    expect(r.text.endsWith('},"healthy":true}\n')).toBe(true);
    expect(r.text.startsWith('{"checks":{"C":')).toBe(true);
  });

  it('each result has the real fields in the real order', async () => {
    const { checks } = JSON.parse((await get('/ext/health')).text);
    for (const name of NODE_CHECKS) {
      const keys = Object.keys(checks[name]);
      expect(keys.slice(-2)).toEqual(['timestamp', 'duration']);
      expect(checks[name].timestamp).toMatch(RFC3339_NANO);
      expect(Number.isInteger(checks[name].duration)).toBe(true);
    }
    expect(checks.database).not.toHaveProperty('message');
    expect(checks.bls.message).toBe('node has the correct BLS key');
    expect(checks.bootstrapped.message).toEqual([]);
    expect(checks.network.message).toEqual({ connectedPeers: 0, sendFailRate: 0 });
    expect(checks.router.message).toEqual({ longestRunningRequest: '0s', outstandingRequests: 0 });
    expect(checks.futureupgrade.message).toEqual({
      localUpgradeTime: '2020-12-05T05:00:00Z',
      modeUpgradeTime: '1970-01-01T00:00:00Z',
      modeUpgradeWeightPercentage: 0,
      numUpgradeTimes: 0,
    });
    expect(checks.X.message).toEqual({
      engine: {
        consensus: {
          lastAcceptedHeight: 0,
          lastAcceptedID: '2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst',
          longestProcessingBlock: '0s',
          processingBlocks: 0,
        },
        vm: null,
      },
      networking: { disconnectedValidators: [], percentConnected: 1 },
    });
  });

  it('diskspace reports the real free space of the data dir filesystem', async () => {
    const { checks } = JSON.parse((await get('/ext/health')).text);
    const fs = statfsSync(node.dataDir);
    const free = fs.bavail * fs.bsize;
    expect(Math.abs(checks.diskspace.message.availableDiskBytes - free)).toBeLessThan(512 * 1024 * 1024);
    expect(checks.diskspace.message.availableDiskPercentage).toBe(Math.floor((fs.bavail * 100) / fs.blocks));
  });

  it('/ext/health/health, /readiness and /liveness answer any method', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'HEAD']) {
      const res = await fetch(`${node.uri}/ext/health/liveness`, { method });
      expect(res.status).toBe(200);
      if (method !== 'HEAD') expect(await res.text()).toBe('{"checks":{},"healthy":true}\n');
    }
    const ready = JSON.parse((await get('/ext/health/readiness')).text);
    expect(Object.keys(ready.checks)).toEqual(['bootstrapped']);
    const full = JSON.parse((await get('/ext/health/health')).text);
    expect(Object.keys(full.checks)).toEqual(NODE_CHECKS);
  });

  it('tags: the tagged checks plus every application check; unknown tags add nothing', async () => {
    const tagged = JSON.parse((await get(`/ext/health?tag=${PRIMARY}`)).text);
    expect(Object.keys(tagged.checks)).toEqual(NODE_CHECKS);
    const unknown = JSON.parse((await get('/ext/health?tag=nope')).text);
    expect(Object.keys(unknown.checks)).toEqual(NODE_CHECKS.filter((c) => c !== 'X' && c !== 'C' && c !== 'P'));
    const two = JSON.parse((await get(`/ext/health?tag=nope&tag=${PRIMARY}`)).text);
    expect(Object.keys(two.checks)).toContain('X');
  });
});

describe('JSON-RPC', () => {
  it('health.health, health.readiness (tags) and health.liveness', async () => {
    const h = await call(health, 'health.health');
    expect(Object.keys(h.checks)).toEqual(NODE_CHECKS);
    expect(h.healthy).toBe(true);
    const tagged = await call(health, 'health.health', { tags: ['nope'] });
    expect(Object.keys(tagged.checks)).not.toContain('X');
    expect(Object.keys((await call(health, 'health.readiness')).checks)).toEqual(['bootstrapped']);
    expect(await call(health, 'health.liveness')).toEqual({ checks: {}, healthy: true });
  });

  it('other methods on /ext/health speak JSON-RPC: 405 for PUT', async () => {
    const res = await fetch(health, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(await res.text()).toBe('rpc: POST method required, received PUT');
  });
});

describe('scheduler and injected faults', () => {
  it('re-runs checks on --health-check-frequency', async () => {
    const first = (await call(health, 'health.health')).checks.database.timestamp;
    await new Promise((r) => setTimeout(r, 350));
    const later = (await call(health, 'health.health')).checks.database.timestamp;
    expect(later).not.toBe(first);
  });

  it('a failed check makes GET 503 and JSON-RPC 200, counts contiguous failures, and recovers', async () => {
    const emu = `${node.uri}/ext/emulator`;
    expect(await call(emu, 'emulator.failHealthCheck', { name: 'database', error: 'disk on fire' })).toEqual({ faults: { database: 'disk on fire' } });
    const r = await get('/ext/health');
    expect(r.status).toBe(503);
    const failing = JSON.parse(r.text);
    expect(failing.healthy).toBe(false);
    expect(failing.checks.database.error).toBe('disk on fire');
    expect(failing.checks.database.contiguousFailures).toBeGreaterThanOrEqual(1);
    expect(failing.checks.database.timeOfFirstFailure).toMatch(RFC3339_NANO);
    expect(Object.keys(failing.checks.database)).toEqual(['error', 'timestamp', 'duration', 'contiguousFailures', 'timeOfFirstFailure']);

    const rpcReply = await post(health, '{"jsonrpc":"2.0","id":1,"method":"health.health"}');
    expect(rpcReply.status).toBe(200);
    expect(rpcReply.json.result.healthy).toBe(false);

    await new Promise((resolve) => setTimeout(resolve, 350));
    const later = JSON.parse((await get('/ext/health')).text).checks.database;
    expect(later.contiguousFailures).toBeGreaterThan(failing.checks.database.contiguousFailures);
    expect(later.timeOfFirstFailure).toBe(failing.checks.database.timeOfFirstFailure);

    expect(await call(emu, 'emulator.recoverHealthCheck', { name: 'database' })).toEqual({ faults: {} });
    const healed = await get('/ext/health');
    expect(healed.status).toBe(200);
    const db = JSON.parse(healed.text).checks.database;
    expect(db).not.toHaveProperty('contiguousFailures');
    expect(db).not.toHaveProperty('timeOfFirstFailure');
  });

  it('a tag filter hides a failing chain check, as on a real node', async () => {
    const emu = `${node.uri}/ext/emulator`;
    await call(emu, 'emulator.failHealthCheck', { name: 'X', error: 'engine stalled' });
    try {
      expect((await get('/ext/health')).status).toBe(503);
      expect((await get('/ext/health?tag=other-subnet')).status).toBe(200);
    } finally {
      await call(emu, 'emulator.recoverHealthCheck', { name: 'X' });
    }
  });

  it('readiness is monotonic: once passed, a later fault does not un-ready it', async () => {
    const emu = `${node.uri}/ext/emulator`;
    await call(emu, 'emulator.failHealthCheck', { name: 'bootstrapped', error: 'subnets not bootstrapped' });
    try {
      expect((await get('/ext/health/readiness')).status).toBe(200);
      expect((await get('/ext/health')).status).toBe(503);
    } finally {
      await call(emu, 'emulator.recoverHealthCheck', { name: 'bootstrapped' });
    }
  });

  it('refuses an unknown check name and lists the known ones', async () => {
    const err = await callError(`${node.uri}/ext/emulator`, 'emulator.failHealthCheck', { name: 'nope' });
    expect(err.message).toMatch(/^no health check named "nope"; checks: C, P, X, bls, bootstrapped, database/);
    expect(await call(`${node.uri}/ext/emulator`, 'emulator.healthFaults')).toEqual({ faults: {} });
  });
});

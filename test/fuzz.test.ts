// A seeded, bounded fuzz of the node's HTTP/JSON-RPC surface (generator: test/support/fuzz.ts).
//
// The node is the CLI, spawned (its RSS is read from /proc), with the admin API, the index, memdb
// and a temporary profile dir. Every request must get an answer within the per-request timeout,
// never a 5xx (a 503 health report excepted), and a valid JSON-RPC 2.0 reply from a JSON-RPC route
// when it carries an id. Two real txs are issued first (so blocks, txs, an asset and index
// containers exist). Garbage must change nothing (ewoq's balances and UTXOs, the X height); every
// route must still serve its own API (admin aliases never take one over); a valid tx must still be
// accepted afterwards, and the node must report healthy.
//
//   npx vitest run test/fuzz.test.ts                     the bounded suite run (FUZZ_SUITE_REQUESTS, default 3000)
//   FUZZ_REQUESTS=100000 npx vitest run test/fuzz.test.ts a long run (npm run fuzz), timeout scaled
//   FUZZ_SEED=<n>                                         another seed (printed by every run)
//   FUZZ_SEED=<n> FUZZ_REPLAY=12,345                      replay requests by index, one at a time, printing each reply
//   FUZZ_CONCURRENCY (16), FUZZ_TIMEOUT_MS (10000 per request), FUZZ_MAX_RSS_MIB (unset: RSS is only printed)
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, call, spawnNode, tempDir, type SpawnedNode } from './helpers.js';
import {
  buildFixtures,
  EWOQ_ADDR,
  FAMILIES,
  FEE,
  generate,
  hexc,
  mib,
  OTHER,
  OTHER_ADDR,
  payment,
  probeRoutes,
  readMemory,
  runFuzz,
  seedFromEnv,
  setup,
  type Fixture,
  type Memory,
  type Problem,
  type RunStats,
} from './support/fuzz.js';
import { encodeCB58 } from '../src/encoding/cb58.js';

const envInt = (name: string, fallback: number): number => {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(text)}`);
  return n;
};

const LONG = process.env.FUZZ_REQUESTS !== undefined && process.env.FUZZ_REQUESTS !== '';
const REQUESTS = envInt('FUZZ_REQUESTS', envInt('FUZZ_SUITE_REQUESTS', 3000));
const SEED = seedFromEnv(process.env);
const REPLAY = (process.env.FUZZ_REPLAY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s !== '')
  .map(Number);
const CONCURRENCY = REPLAY.length > 0 ? 1 : Math.max(1, envInt('FUZZ_CONCURRENCY', 16));
const PER_REQUEST_MS = envInt('FUZZ_TIMEOUT_MS', 10_000);
const COUNT = REPLAY.length > 0 ? REPLAY.length : REQUESTS;
/** The run's budget: generous per request, so a slow machine still finishes; the loop stops 30 s before it. */
const RUN_TIMEOUT_MS = 60_000 + COUNT * (LONG ? 20 : 25);
const MAX_HANGS = 48;
/** Optional: fail when the node's RSS after the run exceeds this (unset: the figure is only printed). */
const MAX_RSS_MIB = envInt('FUZZ_MAX_RSS_MIB', 0);

const countBy = (keys: string[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The known bugs being fixed elsewhere, recognized by their signature, for the report. */
function knownBug(p: Problem): string | undefined {
  if (p.kind === '5xx' && p.detail.includes('Maximum call stack size exceeded')) return 'known bug 2: deep nesting under 64 KiB -> 500';
  if (p.note.includes('stacktrace') && p.detail.includes('ENOENT')) return 'known bug 6: concurrent admin.stacktrace';
  return undefined;
}

const describeProblem = (p: Problem): string => {
  const known = knownBug(p);
  return `#${p.index} [${p.kind}] ${p.family}: ${p.note.slice(0, 140)} -> ${p.detail.slice(0, 300)}${known ? `  (${known})` : ''}`;
};

interface Snapshot {
  height: string;
  allBalances: unknown;
  allBalancesPartial: unknown;
  balance: unknown;
  utxos: unknown;
  other: unknown;
}

async function snapshot(uri: string): Promise<Snapshot> {
  const x = `${uri}/ext/bc/X`;
  const get = (method: string, params?: unknown) => within(15_000, method, call(x, method, params));
  return {
    height: (await get('avm.getHeight')).height,
    allBalances: await get('avm.getAllBalances', { address: EWOQ_ADDR }),
    allBalancesPartial: await get('avm.getAllBalances', { address: EWOQ_ADDR, includePartial: true }),
    balance: await get('avm.getBalance', { address: EWOQ_ADDR, assetID: 'AVAX' }),
    utxos: await get('avm.getUTXOs', { addresses: [EWOQ_ADDR] }),
    other: await get('avm.getAllBalances', { address: OTHER_ADDR, includePartial: true }),
  };
}

describe(`fuzz of the HTTP/JSON-RPC surface (seed ${SEED}, ${COUNT} requests)`, () => {
  let dir: string;
  let node: SpawnedNode;
  let uri: string;
  let fixtures: Fixture[];
  let before: Snapshot;
  let memBefore: Memory | undefined;
  let stats: RunStats | undefined;
  let output = '';

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
    fixtures = buildFixtures();
    dir = tempDir('emu-fuzz-');
    mkdirSync(join(dir, 'plugins'));
    // admin.stacktrace writes stacktrace.txt in the node's working directory: make that the temp dir.
    const cwd = process.cwd();
    process.chdir(dir);
    let started: Promise<SpawnedNode>;
    try {
      started = spawnNode(
        [
          '--api-admin-enabled=true',
          '--index-enabled=true',
          '--db-type=memdb',
          `--profile-dir=${join(dir, 'profiles')}`,
          `--plugin-dir=${join(dir, 'plugins')}`,
          '--log-level=info',
          '--log-display-level=warn',
        ],
        dir,
      );
    } finally {
      process.chdir(cwd);
    }
    node = await started;
    uri = node.uri;
    // Keep only the tail of the node's output (the fuzz may turn its logging up).
    for (const stream of [node.child.stdout!, node.child.stderr!]) {
      stream.removeAllListeners('data');
      stream.on('data', (c: Buffer) => {
        output = (output + c.toString()).slice(-64 * 1024);
      });
    }
    // Blocks, txs, an asset and index containers for the fuzz to find: two real txs first.
    for (const tx of setup().txs) {
      const { txID } = await within(15_000, 'setup avm.issueTx', call(`${uri}/ext/bc/X`, 'avm.issueTx', { tx: hexc(tx.bytes) }));
      expect(txID).toBe(encodeCB58(tx.id));
    }
    before = await snapshot(uri);
    memBefore = readMemory(node.child.pid!);
    console.log(
      `fuzz: seed ${SEED} (FUZZ_SEED=${SEED}), ${COUNT} requests${REPLAY.length > 0 ? ` (replay ${REPLAY.join(',')})` : ''}, ${CONCURRENCY} in flight, ${PER_REQUEST_MS} ms per request; node pid ${node.child.pid} at ${uri}`,
    );
  }, 30_000);

  afterAll(async () => {
    if (node && node.child.exitCode === null) {
      node.child.kill('SIGTERM');
      const code = await Promise.race([node.exited, sleep(5_000).then(() => 'timeout' as const)]);
      if (code === 'timeout') node.child.kill('SIGKILL');
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'answers every request: no 5xx, no hang, a valid JSON-RPC 2.0 reply for every call with an id',
    async () => {
      const pid = node.child.pid!;
      let peakRss = memBefore?.rssKiB ?? 0;
      const sampler = setInterval(() => {
        const m = readMemory(pid);
        if (m && m.rssKiB > peakRss) peakRss = m.rssKiB;
      }, 200);
      let hangs = 0;
      const deadline = Date.now() + RUN_TIMEOUT_MS - 30_000;
      try {
        stats = await runFuzz({
          uri,
          seed: SEED,
          indices: REPLAY.length > 0 ? REPLAY : COUNT,
          concurrency: CONCURRENCY,
          timeoutMs: PER_REQUEST_MS,
          fixtures,
          shouldStop: () => {
            if (node.child.exitCode !== null || node.child.signalCode !== null) return `the node exited (${node.child.exitCode ?? node.child.signalCode})`;
            if (hangs >= MAX_HANGS) return `${hangs} hangs`;
            if (Date.now() > deadline) return 'out of time';
            return undefined;
          },
          onResult: (r, o, problems) => {
            if (problems.some((p) => p.kind === 'hang')) hangs++;
            if (REPLAY.length > 0) {
              console.log(
                `#${r.index} ${r.family}: ${r.note}\n  ${r.method} ${r.path} ${JSON.stringify(r.headers)} body ${r.body?.length ?? 0} bytes: ${r.body?.subarray(0, 300).toString('utf8')}`,
              );
              console.log(`  -> ${o.timedOut ? 'timeout' : (o.status ?? o.error)} in ${o.ms.toFixed(0)} ms: ${o.body?.subarray(0, 300).toString('utf8')}`);
              for (const p of problems) console.log(`  PROBLEM ${describeProblem(p)}`);
            }
          },
        });
      } finally {
        clearInterval(sampler);
      }
      const mem = readMemory(pid);
      if (mem && mem.rssKiB > peakRss) peakRss = mem.rssKiB;

      const s = stats;
      const perFamily = FAMILIES.map((f) => `${f} ${s.perFamily[f] ?? 0}`).join(', ');
      const statuses = Object.entries(s.statuses)
        .sort(([, a], [, b]) => b - a)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ');
      const lines = [
        `fuzz: ${s.sent} requests in ${(s.ms / 1000).toFixed(1)} s (${Math.round(s.sent / (s.ms / 1000))} req/s)${s.stoppedEarly ? `, STOPPED EARLY: ${s.stoppedEarly}` : ''}`,
        `fuzz: 5xx ${s.counts['5xx']}, hangs ${s.counts.hang}, invalid JSON-RPC replies ${s.counts['invalid-reply']} (of ${s.rpcReplies} judged, ${s.idsCompared} id echoes compared), connection errors ${s.counts.connection}, accepted mutated txs ${s.counts['tx-accepted']}`,
        `fuzz: keep-alive resets retried on a fresh connection: ${s.retried.length}${
          s.retried.length > 0
            ? ` (${Object.entries(countBy(s.retried.map((x) => `${x.family} ${x.error}`)))
                .map(([k, v]) => `${k}: ${v}`)
                .join(', ')})`
            : ''
        }; admin aliases accepted with an existing route's name: ${s.aliasesOnKnownRoutes.length}`,
        `fuzz: per family: ${perFamily}`,
        `fuzz: HTTP statuses: ${statuses}`,
        `fuzz: node RSS before ${memBefore ? mib(memBefore.rssKiB) : '?'}, peak ${mib(peakRss)} (VmHWM ${mem ? mib(mem.hwmKiB) : '?'}), after ${mem ? mib(mem.rssKiB) : '?'}`,
        `fuzz: slowest: ${s.slowest.map((x) => `#${x.index} ${x.ms.toFixed(0)} ms (${x.note})`).join('; ')}`,
      ];
      console.log(lines.join('\n'));
      if (s.problems.length > 0) {
        console.log(
          `fuzz: first problems (replay one with FUZZ_SEED=${SEED} FUZZ_REPLAY=<index>; state from earlier requests may matter):\n${s.problems
            .slice(0, 25)
            .map((p) => `  ${describeProblem(p)}`)
            .join('\n')}`,
        );
        const tail = output.trim().split('\n').slice(-15).join('\n');
        if (tail) console.log(`fuzz: node output (tail):\n${tail}`);
      }

      const summary = s.problems.slice(0, 10).map(describeProblem).join('\n');
      expect(s.stoppedEarly, `the run stopped early\n${summary}`).toBeUndefined();
      expect({ ...s.counts }, `requests failed (seed ${SEED}):\n${summary}`).toEqual({
        '5xx': 0,
        hang: 0,
        'invalid-reply': 0,
        connection: 0,
        'tx-accepted': 0,
      });
      expect(s.sent).toBe(COUNT);
      if (MAX_RSS_MIB > 0) expect(mem ? mem.rssKiB / 1024 : 0, `node RSS after the run over FUZZ_MAX_RSS_MIB=${MAX_RSS_MIB}`).toBeLessThan(MAX_RSS_MIB);
    },
    RUN_TIMEOUT_MS,
  );

  it("garbage changed nothing: ewoq's balances and UTXOs, the X-Chain height", async () => {
    expect(stats, 'the fuzz run did not complete').toBeDefined();
    // Put the node back as it was: stop a CPU profile still running, recover injected health faults.
    const admin = `${uri}/ext/admin`;
    await within(
      15_000,
      'admin.stopCPUProfiler',
      call(admin, 'admin.stopCPUProfiler').catch(() => undefined),
    );
    const after = await snapshot(uri);
    if (after.height !== before.height) {
      // Loud: something the fuzz sent was accepted. Show what.
      const blocks: string[] = [];
      for (let h = BigInt(before.height) + 1n; h <= BigInt(after.height) && blocks.length < 5; h++) {
        const b = await call(`${uri}/ext/bc/X`, 'avm.getBlockByHeight', { height: String(h), encoding: 'json' }).catch((e: Error) => e.message);
        blocks.push(JSON.stringify(b).slice(0, 2000));
      }
      console.log(`fuzz: THE X-CHAIN GREW from ${before.height} to ${after.height}; blocks:\n${blocks.join('\n')}`);
    }
    expect(after).toEqual(before);
    // Every wallet.issueTx the fuzz made that returned an ID stayed unaccepted.
    const ids = [...new Set(stats!.walletTxIDs)].slice(0, 50);
    for (const txID of ids) {
      const { status } = await within(10_000, 'avm.getTxStatus', call(`${uri}/ext/bc/X`, 'avm.getTxStatus', { txID }));
      expect(status, `wallet.issueTx ${txID}`).toBe('Unknown');
    }
  }, 60_000);

  it('every route still serves its own API: accepted admin aliases never took a path over', async () => {
    const failures = await probeRoutes(uri);
    const accepted = stats?.aliasesOnKnownRoutes ?? [];
    const hint =
      accepted.length > 0
        ? `\nadmin aliases accepted with these routes' names: ${accepted
            .slice(0, 10)
            .map((a) => `#${a.index} ${a.route}`)
            .join(', ')} (known bug 5 if a route changed hands)`
        : '';
    expect(failures, `routes no longer serving their API:${hint}`).toEqual([]);
  }, 60_000);

  it('a valid tx is still accepted afterwards: the X-Chain keeps building blocks', async () => {
    const tx = payment(setup().coin, 1_000_000_000n, OTHER, `fuzz seed ${SEED}: still alive`);
    const x = `${uri}/ext/bc/X`;
    const hint =
      (stats?.perFamily['tx-mutation'] ?? 0) > 0
        ? ' (known bug 1: after a failed wallet.issueTx and a second parseable tx the X-Chain stops building blocks)'
        : '';
    let reply: { txID: string };
    try {
      reply = await within(PER_REQUEST_MS, 'avm.issueTx of a valid tx', call(x, 'avm.issueTx', { tx: hexc(tx.bytes), encoding: 'hex' }));
    } catch (err) {
      throw new Error(`${(err as Error).message}${hint}`);
    }
    expect(reply.txID).toBe(encodeCB58(tx.id));
    expect((await call(x, 'avm.getTxStatus', { txID: reply.txID })).status).toBe('Accepted');
    expect((await call(x, 'avm.getHeight')).height).toBe(String(BigInt(before.height) + 1n));
    const was = BigInt((before.balance as { balance: string }).balance);
    expect((await call(x, 'avm.getBalance', { address: EWOQ_ADDR, assetID: 'AVAX' })).balance).toBe(String(was - 1_000_000_000n - FEE));
  }, 30_000);

  it('/ext/health is healthy once injected faults are recovered, and the node still runs', async () => {
    const emulator = `${uri}/ext/emulator`;
    const { faults } = await within(10_000, 'emulator.healthFaults', call(emulator, 'emulator.healthFaults'));
    for (const name of Object.keys(faults as Record<string, string>)) {
      await within(10_000, 'emulator.recoverHealthCheck', call(emulator, 'emulator.recoverHealthCheck', { name }));
    }
    const res = await within(10_000, 'GET /ext/health', fetch(`${uri}/ext/health`));
    const report = (await res.json()) as { healthy: boolean; checks: Record<string, unknown> };
    expect(report.healthy, JSON.stringify(report.checks)).toBe(true);
    expect(res.status).toBe(200);
    expect(node.child.exitCode).toBeNull();
  }, 30_000);
});

// The generator is a pure function of (seed, index): the same request comes back on replay.
describe('fuzz generator', () => {
  it('is deterministic per (seed, index) and covers every family', () => {
    const fixtures = buildFixtures();
    const families = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const a = generate(SEED, i, fixtures);
      const b = generate(SEED, i, fixtures);
      const digest = (r: typeof a) => JSON.stringify({ ...r, body: r.body && createHash('sha256').update(r.body).digest('hex') });
      expect(digest(b)).toBe(digest(a));
      families.add(a.family);
    }
    expect([...families].sort()).toEqual([...FAMILIES].sort());
  });
});

// RPC benchmark: throughput and latency of the emulator against a bare node:http server that
// answers the very same bytes, at 32 connections (pipelining 1), for two JSON-RPC requests:
// health.health (POST /ext/health) and info.getNetworkID (POST /ext/info).
//
// For each request, the emulator is spawned (`node dist/avalanche-emulator.js --http-port=0 --db-type=memdb
// --log-level=off`, temp --data-dir, uri read from process.json) and asked once; its response
// bytes and content-type are captured. A bare node:http server, run in a child process like the
// emulator, then reads and JSON.parse's every POST body and answers those captured bytes.
// autocannon (in this process) loads the servers in turn over ROUNDS rounds, after a short
// warm-up of each; the table shows medians over the rounds. A second emulator, started with
// --api-emulator-enabled=false --api-data-enabled=false, runs without the request journal (which
// those two APIs read): its row shows what journaling every request costs.
//
// Usage:  npm run build && npm run bench:rpc       (DURATION=5 s, ROUNDS=6, WARMUP=1 s by default)
//         e.g. DURATION=3 ROUNDS=1 npm run bench:rpc; PIN=0 to leave processes unpinned
// Always exits 0: it reports, it does not gate.
import { execFileSync, fork, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuSeconds, hasTaskset, serveBareReply } from './common.mjs';
import { fileURLToPath } from 'node:url';

// --- Child mode: the bare node:http server (started by the main mode below through fork()). ---
if (process.argv[2] === '--bare-server') {
  serveBareReply();
} else {
  await main();
}

async function main() {
  const SELF = fileURLToPath(import.meta.url);
  const CLI = path.resolve(path.dirname(SELF), '../../dist/avalanche-emulator.js');
  if (!existsSync(CLI)) {
    console.error(`bench:rpc: ${path.relative(process.cwd(), CLI)} is missing; run npm run build first`);
    process.exit(1);
  }
  const { default: autocannon } = await import('autocannon'); // CommonJS: its export is the default
  const DURATION = Math.max(1, Number(process.env.DURATION) || 5);
  const ROUNDS = Math.max(1, Number(process.env.ROUNDS) || 6);
  const WARMUP = Number(process.env.WARMUP ?? 1);
  const CONNECTIONS = 32;
  const TARGET = 0.7;
  // Pinning: with the load generator and the server under test on one core each, they stop
  // competing for the scheduler, which otherwise swings single rounds between 50 % and 90 %.
  const PIN = process.env.PIN !== '0' && os.cpus().length >= 2 && hasTaskset();
  const pin = (pid, cpu) => {
    if (PIN) execFileSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' });
  };
  pin(process.pid, 0);
  // The request journal is on when either API that reads it is.
  const NO_JOURNAL = ['--api-emulator-enabled=false', '--api-data-enabled=false'];
  const NO_JOURNAL_NAME = 'no journal';
  const REQUESTS = [
    { name: 'health.health', path: '/ext/health', body: '{"jsonrpc":"2.0","id":1,"method":"health.health"}' },
    { name: 'info.getNetworkID', path: '/ext/info', body: '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}' },
  ];

  const children = new Set(); // every child still running, killed on the way out
  const tempDirs = new Set();
  const track = (child) => {
    children.add(child);
    child.once('exit', () => children.delete(child));
    return child;
  };
  const exited = (child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r)));
  async function stop(child) {
    child.kill('SIGTERM');
    const hung = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited(child);
    clearTimeout(hung);
  }
  async function cleanup() {
    await Promise.all([...children].map(stop));
    await Promise.all([...tempDirs].map((d) => rm(d, { recursive: true, force: true })));
  }
  process.once('SIGINT', () => cleanup().finally(() => process.exit(130)));

  /** Spawns the emulator and resolves to its child process and uri (from <data-dir>/process.json). */
  async function startEmulator(flags = []) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'avax-bench-rpc-'));
    tempDirs.add(dataDir);
    const args = [CLI, '--http-port=0', `--data-dir=${dataDir}`, '--db-type=memdb', '--log-level=off', ...flags];
    const child = track(spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
    pin(child.pid, 1);
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(5)) {
      if (child.exitCode !== null) throw new Error(`emulator exited (${child.exitCode}):\n${output}`);
      try {
        const { uri } = JSON.parse(await readFile(path.join(dataDir, 'process.json'), 'utf8'));
        return { child, uri };
      } catch {
        /* not written yet */
      }
    }
    throw new Error(`emulator wrote no process.json within 30 s:\n${output}`);
  }

  /** Starts the bare server in a child process; resolves to its child process and uri. */
  async function startBare(body, contentType) {
    const child = track(
      fork(SELF, ['--bare-server'], {
        env: { ...process.env, BENCH_BODY: body.toString('base64'), BENCH_CONTENT_TYPE: contentType },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
    pin(child.pid, 1);
    const { port } = await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
    });
    return { child, uri: `http://127.0.0.1:${port}` };
  }

  /** Sends one request; resolves to the exact response bytes and content-type. */
  function capture(uri, req) {
    return new Promise((resolve, reject) => {
      const r = http.request(uri + req.path, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve({ body: Buffer.concat(chunks), contentType: res.headers['content-type'] })
            : reject(new Error(`${req.name}: HTTP ${res.statusCode}: ${Buffer.concat(chunks)}`)),
        );
      });
      r.once('error', reject);
      r.end(req.body);
    });
  }

  /** One autocannon run. autocannon's own latency histogram has 1 ms resolution, so p50/p99 are
   *  computed here from the per-response times (float ms) of the 2xx responses. */

  async function load(uri, req, duration, pid) {
    const cpuBefore = pid ? await cpuSeconds(pid) : NaN;
    const times = [];
    const run = autocannon({
      url: uri + req.path,
      connections: CONNECTIONS,
      pipelining: 1,
      duration,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: req.body,
    });
    run.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) times.push(ms);
    });
    const result = await run; // the returned tracker is also a promise of the result
    const cpuUs = pid ? (((await cpuSeconds(pid)) - cpuBefore) * 1e6) / Math.max(1, times.length) : NaN;
    times.sort((a, b) => a - b);
    const pct = (p) => (times.length ? times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)] : NaN);
    return { ...result, p50: pct(0.5), p99: pct(0.99), cpuUs };
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const summarize = (runs) => ({
    rps: median(runs.map((r) => r.requests.average)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUs: median(runs.map((r) => r.cpuUs)),
    errors: runs.reduce((n, r) => n + r.errors + r.timeouts, 0),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
  });

  console.log(
    `rpc benchmark: ${CONNECTIONS} connections, pipelining 1, ${ROUNDS} round(s) x ${DURATION} s per server, ` +
      `warm-up ${WARMUP} s, node ${process.version}, ${os.cpus().length} CPUs ${PIN ? '(load generator pinned to CPU 0, server under test to CPU 1)' : '(load generator and servers share them; PIN=0 or no taskset)'}`,
  );
  let allPass = true;
  try {
    for (const req of REQUESTS) {
      const emu = await startEmulator();
      const quiet = await startEmulator(NO_JOURNAL);
      const { body, contentType } = await capture(emu.uri, req);
      const bare = await startBare(body, contentType);
      const servers = [
        ['emulator', emu.uri, emu.child.pid],
        [NO_JOURNAL_NAME, quiet.uri, quiet.child.pid],
        ['bare node:http', bare.uri, bare.child.pid],
      ];
      if (WARMUP > 0) for (const [, uri] of servers) await load(uri, req, WARMUP);
      const runs = Object.fromEntries(servers.map(([name]) => [name, []]));
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate the servers (and which goes first) so that drift affects both alike.
        const order = round % 2 ? [...servers].reverse() : servers;
        for (const [name, uri, pid] of order) runs[name].push(await load(uri, req, DURATION, pid));
      }
      await Promise.all([stop(emu.child), stop(quiet.child), stop(bare.child)]);

      const e = summarize(runs.emulator);
      const q = summarize(runs[NO_JOURNAL_NAME]);
      const b = summarize(runs['bare node:http']);
      // Each round pairs two runs taken seconds apart; the median of those ratios resists the
      // machine's drift better than a ratio of medians taken minutes apart.
      const perRound = runs.emulator.map((r, i) => r.requests.average / runs['bare node:http'][i].requests.average);
      const ratio = median(perRound);
      const pass = ratio >= TARGET && e.errors === 0 && e.non2xx === 0;
      allPass &&= pass;
      const row = (name, s) =>
        `  ${name.padEnd(16)}${s.rps.toFixed(0).padStart(10)}${s.p50.toFixed(2).padStart(10)}${s.p99.toFixed(2).padStart(10)}` +
        `${s.cpuUs.toFixed(1).padStart(13)}${String(s.errors).padStart(8)}${String(s.non2xx).padStart(9)}`;
      console.log(`\n${req.name} (POST ${req.path}, response ${body.length} bytes)`);
      console.log(
        `  ${''.padEnd(16)}${'req/s'.padStart(10)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'CPU us/req'.padStart(13)}${'errors'.padStart(8)}${'non-2xx'.padStart(9)}`,
      );
      console.log(row('emulator', e));
      console.log(row(NO_JOURNAL_NAME, q));
      console.log(row('bare node:http', b));
      console.log(
        `  ratio emulator / bare (median of rounds): ${(ratio * 100).toFixed(1)}%  -> ${pass ? 'PASS' : 'FAIL'}` +
          `  (per round: ${perRound.map((r) => `${(100 * r).toFixed(1)}%`).join(', ')}; ratio of median req/s ${((100 * e.rps) / b.rps).toFixed(1)}%;` +
          ` server CPU per request ${((100 * b.cpuUs) / e.cpuUs).toFixed(1)}% of the emulator's)`,
      );
      const quietRatio = median(runs[NO_JOURNAL_NAME].map((r, i) => r.requests.average / runs['bare node:http'][i].requests.average));
      console.log(
        `  without the journal: ${(quietRatio * 100).toFixed(1)}% of bare (median of rounds); journaling costs ${(e.cpuUs - q.cpuUs).toFixed(1)} us of CPU per request`,
      );
    }
    console.log(`\ntarget: emulator >= ${TARGET * 100}% of bare node:http (req/s, no errors or non-2xx) -> ${allPass ? 'PASS' : 'FAIL'}`);
  } catch (err) {
    console.error(`bench:rpc failed: ${err.stack ?? err}`);
  } finally {
    await cleanup();
  }
}

// Startup benchmark: how long from spawn() of `node dist/avalanche-emulator.js` until the node answers
// GET /ext/health with HTTP 200.
//
// Each run gets a fresh temporary --data-dir (default leveldb database) and an --http-port picked
// beforehand, so /ext/health can be polled (every ~2 ms) right from the moment of the spawn. The
// node is then stopped with SIGTERM and awaited. As a baseline, the same number of `node -e 0`
// runs (spawn -> exit) shows what Node.js itself costs on this machine.
//
// Usage:  npm run build && npm run bench:startup      (RUNS=11 by default; e.g. RUNS=3 npm run bench:startup)
// Always exits 0: it reports, it does not gate.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { freePort } from './common.mjs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'dist', 'avalanche-emulator.js');
const RUNS = Math.max(1, Number(process.env.RUNS) || 11);
const TARGET_MS = 300;
const POLL_INTERVAL_MS = 2; // pause between two failed attempts
const ATTEMPT_TIMEOUT_MS = 100; // per-attempt limit
const GIVE_UP_MS = 30_000; // a node that is not healthy by then counts as a failed run

if (!existsSync(CLI)) {
  console.error(`bench:startup: ${path.relative(process.cwd(), CLI) || CLI} is missing; run npm run build first`);
  process.exit(1);
}

/** One GET /ext/health attempt: resolves to the status code, or 0 on any error or timeout. */
function probe(port) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/ext/health', agent: false, timeout: ATTEMPT_TIMEOUT_MS }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('timeout', () => {
      req.destroy();
      resolve(0);
    });
    req.once('error', () => resolve(0));
  });
}

/** Resolves when the child has exited (at once if it already has). */
function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', resolve));
}

/** One emulator run: milliseconds from spawn() to the first 200 from /ext/health. */
async function nodeRun() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'avax-bench-startup-'));
  const port = await freePort();
  let output = '';
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, `--http-port=${port}`, `--data-dir=${dataDir}`, '--log-level=off'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    while (true) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`node exited early (${child.exitCode ?? child.signalCode}):\n${output}`);
      if ((await probe(port)) === 200) return performance.now() - t0;
      if (performance.now() - t0 > GIVE_UP_MS) throw new Error(`no HTTP 200 from /ext/health within ${GIVE_UP_MS} ms:\n${output}`);
      await sleep(POLL_INTERVAL_MS);
    }
  } finally {
    // Stop the node gracefully and wait for it; SIGKILL only if it hangs.
    child.kill('SIGTERM');
    const hung = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited(child);
    clearTimeout(hung);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Baseline run: milliseconds from spawn() of `node -e 0` to its exit. */
async function baselineRun() {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await exited(child);
  return performance.now() - t0;
}

/** median, min, max and p90 (nearest rank) of a list of milliseconds. */
function stats(values) {
  const s = [...values].sort((a, b) => a - b);
  const rank = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { median, min: s[0], max: s[s.length - 1], p90: rank(0.9) };
}

const nodeTimes = [];
const baseTimes = [];
let failures = 0;
for (let i = 0; i < RUNS; i++) {
  // Interleave the two so that drift on the machine affects both alike.
  try {
    nodeTimes.push(await nodeRun());
  } catch (err) {
    failures++;
    console.error(`run ${i + 1}: ${err.message}`);
  }
  baseTimes.push(await baselineRun());
}

const fmt = (ms) => `${ms.toFixed(1)} ms`.padStart(10);
const row = (label, st) => `${label.padEnd(36)}${fmt(st.median)}${fmt(st.min)}${fmt(st.max)}${fmt(st.p90)}`;
console.log(`startup benchmark: ${RUNS} runs each, node ${process.version}, ${os.cpus().length} CPUs`);
console.log(`${''.padEnd(36)}${'median'.padStart(10)}${'min'.padStart(10)}${'max'.padStart(10)}${'p90'.padStart(10)}`);
if (nodeTimes.length) console.log(row('emulator spawn -> /ext/health 200', stats(nodeTimes)));
console.log(row('baseline `node -e 0` spawn -> exit', stats(baseTimes)));
if (failures) console.log(`${failures} of ${RUNS} emulator runs failed (see above)`);
if (nodeTimes.length) {
  const median = stats(nodeTimes).median;
  console.log(`target: median < ${TARGET_MS} ms -> ${median < TARGET_MS && !failures ? 'PASS' : 'FAIL'} (${median.toFixed(1)} ms)`);
} else {
  console.log(`target: median < ${TARGET_MS} ms -> FAIL (no successful run)`);
}

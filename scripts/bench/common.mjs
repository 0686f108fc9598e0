// What the benchmarks share: where the built emulator is (with a clear stop when it has not been
// built), integer settings from the environment, percentiles and a process's CPU time.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST = path.join(ROOT, 'dist');
export const CLI = path.join(DIST, 'avalanche-emulator.js');

/** The uri a started emulator writes to <data-dir>/process.json, once it has (polled every `pollMs`, for 30 s at most). */
export async function processUri(dataDir, pollMs = 20) {
  for (const deadline = Date.now() + 30_000; Date.now() <= deadline; await new Promise((r) => setTimeout(r, pollMs))) {
    try {
      return JSON.parse(await readFile(path.join(dataDir, 'process.json'), 'utf8')).uri;
    } catch {}
  }
  throw new Error('the emulator wrote no process.json');
}

/** Imports modules of dist/ (paths relative to it), after checking that the CLI and they exist. */
export async function loadDist(bench, ...relativePaths) {
  const files = relativePaths.map((p) => path.join(DIST, p));
  for (const file of [CLI, ...files]) {
    if (!existsSync(file)) {
      console.error(`${bench}: ${path.relative(process.cwd(), file) || file} is missing; run npm run build first`);
      process.exit(1);
    }
  }
  return Promise.all(files.map((file) => import(pathToFileURL(file).href)));
}

/**
 * The client tests' ERC-20 (test/fixtures/contracts/TestToken.sol) as the benchmarks deploy it:
 * compiled with the npm solc for Cancun, the optimizer on. solc is loaded here, when asked for.
 */
export function compileTestToken() {
  const solc = createRequire(import.meta.url)('solc');
  const input = {
    language: 'Solidity',
    sources: { 'TestToken.sol': { content: readFileSync(path.join(ROOT, 'test/fixtures/contracts/TestToken.sol'), 'utf8') } },
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`solc:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const c = out.contracts['TestToken.sol'].TestToken;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, deployedBytecode: `0x${c.evm.deployedBytecode.object}` };
}

/** Reads integer settings from the environment; a bad one stops the benchmark with its name. */
export function envIntOf(bench) {
  return (name, dflt, min = 1) => {
    const v = process.env[name];
    if (v === undefined || v === '') return dflt;
    const n = Math.floor(Number(v));
    if (!Number.isFinite(n) || n < min) {
      console.error(`${bench}: ${name}=${v} is not an integer >= ${min}`);
      process.exit(1);
    }
    return n;
  };
}

/** Command-line arguments from an environment variable (NODE_ARGS, EMULATOR_ARGS), split on whitespace. */
export function envArgs(name) {
  return (process.env[name] ?? '').split(/\s+/).filter(Boolean);
}

/** The p-quantile (0..1) of ascending samples, nearest rank. */
export function pct(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] : NaN;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux; NaN elsewhere). */
export async function cpuSeconds(pid) {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

/** Asks the OS for a free TCP port on 127.0.0.1 (the emulator's default --http-host), then frees it. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Child mode of the benchmarks that compare with bare node:http (run in a forked process): a server
 * that reads each POST body, JSON.parse's it and answers the fixed reply BENCH_BODY (base64) with
 * BENCH_CONTENT_TYPE, then reports its port to the parent.
 */
export function serveBareReply() {
  const body = Buffer.from(process.env.BENCH_BODY, 'base64');
  const contentType = process.env.BENCH_CONTENT_TYPE || 'application/json';
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405, { 'content-length': 0 }).end();
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return void res.writeHead(400, { 'content-length': 0 }).end();
      }
      res.writeHead(200, { 'content-type': contentType, 'content-length': body.length }).end(body);
    });
  });
  server.keepAliveTimeout = 120_000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('SIGTERM', () => process.exit(0));
}

/**
 * Signs an EIP-1559 tx as ethers' Wallet.signTransaction does (same bytes), with libsecp256k1 (the
 * `secp256k1` package's native addon): about 3x faster, which matters for a million txs.
 */
export async function nativeSigner(privateKey) {
  const [{ default: secp }, { getBytes, hexlify, Signature, Transaction }] = await Promise.all([import('secp256k1'), import('ethers')]);
  const key = getBytes(privateKey);
  return (fields) => {
    const tx = Transaction.from(fields);
    const { signature, recid } = secp.ecdsaSign(getBytes(tx.unsignedHash), key);
    tx.signature = Signature.from({ r: hexlify(signature.subarray(0, 32)), s: hexlify(signature.subarray(32)), yParity: recid });
    return tx.serialized;
  };
}

/** The Metrics API's 17 metrics. */
const METRICS = [
  'activeAddresses',
  'activeSenders',
  'txCount',
  'gasUsed',
  'cumulativeTxCount',
  'cumulativeAddresses',
  'cumulativeContracts',
  'cumulativeDeployers',
  'contracts',
  'deployers',
  'avgGps',
  'maxGps',
  'avgTps',
  'maxTps',
  'avgGasPrice',
  'maxGasPrice',
  'feesPaid',
];
/** The metrics that allow hour buckets besides days. */
const HOURLY = new Set(['activeAddresses', 'activeSenders', 'txCount', 'gasUsed']);

/**
 * Times `queries` sequential queries of every metric (day buckets, and hour buckets where allowed),
 * every point on one page; rows of [name, times in ms]. `request(url)` answers { status, body }.
 */
export async function timeMetricQueries(request, uri, chainId, queries) {
  const rows = [];
  for (const metric of METRICS) {
    for (const interval of HOURLY.has(metric) ? ['day', 'hour'] : ['day']) {
      const times = [];
      let points = 0;
      for (let i = 0; i < queries; i++) {
        const t = performance.now();
        const r = await request(`${uri}/v2/chains/${chainId}/metrics/${metric}?timeInterval=${interval}&pageSize=2160`);
        times.push(performance.now() - t);
        if (r.status !== 200) throw new Error(`${metric}: ${r.status} ${r.body.toString('utf8').slice(0, 200)}`);
        points = JSON.parse(r.body.toString('utf8')).results.length;
      }
      rows.push([`${metric} (${interval}, ${points} points)`, times]);
    }
  }
  return rows;
}

/** Whether taskset is there to pin the measured processes to their own cores. */
/** POSTs a JSON payload over `agent` (keep-alive); resolves to the parsed reply, rejects on a reply that is not JSON or none within `timeoutMs`. */
export function postJson(agent, url, payload, timeoutMs) {
  const body = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
          }
        });
        res.once('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no reply within ${timeoutMs / 1000} s`)));
    req.once('error', reject);
    req.end(body);
  });
}

export function hasTaskset() {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * What a benchmark starts (child processes, temp dirs, servers), killed, closed and removed by
 * `cleanup` at its end, or on SIGINT; `tempDir` makes a dir that cleanup removes.
 */
export function leftovers() {
  const children = new Set();
  const dirs = new Set();
  const servers = new Set();
  async function cleanup() {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    for (const s of servers) s.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
  async function tempDir(prefix) {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    dirs.add(dir);
    return dir;
  }
  return { children, dirs, servers, cleanup, tempDir };
}

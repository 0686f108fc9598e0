// EVM benchmark: the emulator's C-Chain (POST <uri>/ext/bc/C/rpc) beside Anvil 1.7.1, in one sitting,
// with the very same pre-signed txs. Both nodes are spawned here and stopped at the end (also on
// error or Ctrl-C):
//   - Anvil: node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil --chain-id 43112 --port <free>
//     --silent (automine: a block as soon as a tx arrives), HOME pointed at a temp dir that is
//     removed afterwards (Anvil writes old states to ~/.foundry/anvil/tmp); the ewoq key is funded
//     with anvil_setBalance (50M AVAX, as on the emulator).
//   - the emulator: node dist/avalanche-emulator.js --http-port=0 --db-type=<DB_TYPE> --log-level=off
//     on a temp --data-dir (uri read from process.json); its C-Chain funds ewoq at genesis.
// Every tx is an EIP-1559 (type 2) tx for chain ID 43112, maxFeePerGas 300 gwei, maxPriorityFeePerGas
// 1 wei, signed before any timing with ethers 6 Wallet.signTransaction, in worker threads. Each phase
// sends from its own fresh key (funded by ewoq at set-up), so every phase starts at nonce 0 on both
// nodes. Set-up: ewoq funds the phase keys (these few txs are signed per node, from ewoq's nonce
// there), then the `deploy` key deploys a tiny contract compiled here with solc 0.8.37 (evmVersion
// cancun, optimizer on): `uint256 public value = 42` and `tick(tag, n)` emitting
// `Tick(uint256 indexed tag, uint256 n)`.
// Fresh nodes: phases 1, 2, 3 and 5 each start on newly started nodes (funded and deployed again;
// phase 4 runs on phase 3's, phase 6 on phase 5's), so that no phase inherits the chain length or a
// stall of the one before: Anvil 1.7.1's CPU per block grows with the chain's length (measured
// here: ~1 ms per block near block 500, ~20 ms near block 8,000), and it was seen to stall under
// sustained sends (pipelined sequential sends past ~1,300-2,000 blocks, batches after that), hence
// also the modest SEQ_TXS and BATCH_TXS defaults.
// Stalls: "all mined" is polled with eth_getTransactionCount(sender, 'latest'); a phase that sees no
// new tx mined for STALL_TIMEOUT s is reported 'stalled'. The stalled node is then stopped at once
// (a stalled Anvil 1.7.1 keeps spinning at 100 % of its core, which would skew the other node's
// figures) and replaced by a new one.
//
//   1. Sequential eth_sendRawTransaction, each reply awaited: SEQ_TXS transfers; tx/s = SEQ_TXS /
//      (first send -> all mined). Target: emulator >= 1.0x Anvil.
//   2. JSON-RPC batches of BATCH_SIZE eth_sendRawTransaction, each batch reply awaited: BATCH_TXS
//      transfers; tx/s to all mined. Target: emulator >= 0.5x Anvil.
//   Phases 1 and 2 also print the rate of their last third alone (its first send to all mined):
//   without the JIT warm-up a freshly started emulator goes through in the first ~1,000 txs.
//   1b, 2b. With PIN (the default), phases 1 and 2 again on fresh nodes with nothing pinned, the
//   same targets: how users run both nodes, and how the issue's Anvil baselines (226 and 1,815
//   tx/s) were measured. Pinned to one core, Anvil mines some 60 blocks per 3,000 batched txs at
//   0.3 ms of CPU per tx; free, its miner races its RPC handler (1,128 blocks at 1.5 ms per tx in
//   one run). The emulator's V8 compiles and collects garbage on background threads, which
//   pinning puts on the one core its main thread has.
//   3. CONCURRENT sends from one account at once (nonces 0..CONCURRENT-1, one connection each, the
//      connections opened beforehand): all mined? time to all mined; the wait is capped at
//      CONC_TIMEOUT s and then printed 'stalled' (Anvil 1.7.1 is known to stall here), with the
//      'pending' nonce the node then reports (Anvil's is known to be stale).
//   4. HTTP load, CONNECTIONS connections (autocannon, pipelining 1, as bench:rpc): eth_call of
//      value() ('latest') and eth_blockNumber, beside a bare node:http server (child process) that
//      JSON.parse's each body and answers a fixed reply captured from a node (the ceiling). req/s
//      and p50/p99 ms, medians over ROUNDS rounds of DURATION s after WARMUP s per server.
//   5. eth_getLogs: LOGS_BLOCKS tick txs (one log each), each sent once the one before is mined, so
//      that each has a block of its own; tag = 1 for every LOGS_RARE-th tx, else 2 + n % 16. Then
//      LOGS_QUERIES queries of each kind (fewer if a kind passes LOGS_SECONDS s, at least 5), p50/p99
//      ms and logs per reply: the whole range by address + [Tick, tag 1] and by [Tick, tag 1] alone
//      (few matches), random LOGS_WINDOW-block windows by address alone and by [Tick] alone (one log
//      per block). Replies are checked against the expected number of logs.
//      Anvil builds LOGS_BLOCKS_ANVIL blocks (default min(LOGS_BLOCKS, 2000); 0 skips it): with
//      its CPU per block growing with the chain, 100,000 blocks would take hours there.
//   6. Node memory, on phase 5's node: transfers in batches of BATCH_SIZE, each batch mined before
//      the next, until the node holds TXS txs of this run (Anvil: TXS_ANVIL, default
//      min(TXS, 20000), for the same reason), then VmRSS / VmHWM from /proc/<pid>/status. VmRSS is
//      also printed at start and after each phase.
// Node CPU (utime + stime from /proc/<pid>/stat) is printed per phase. With PIN (default, needs
// taskset and 2+ CPUs) this process is pinned to CPU 0 and every server to CPU 1 once the txs are
// signed, as bench:rpc does: one core each, so Anvil's threads do not outnumber the emulator's one
// (except in phases 1b and 2b, above).
// The summary table puts both figures side by side with emulator / Anvil; whole-range getLogs and
// memory are only compared when both nodes hold as many blocks / txs.
//
// Usage:  npm run build && npm run bench:evm      (= node scripts/bench/evm.mjs)
//   TARGETS=anvil,emulator   which nodes to run (either alone works, e.g. TARGETS=anvil)
//   SEQ_TXS=1000  BATCH_TXS=3000  BATCH_SIZE=100  CONCURRENT=100  CONC_TIMEOUT=10 (s)
//   STALL_TIMEOUT=30 (s without a new tx mined before a phase is called stalled)
//   CONNECTIONS=32  DURATION=5  ROUNDS=2  WARMUP=1 (s)
//   LOGS_BLOCKS=100000  LOGS_BLOCKS_ANVIL=2000  LOGS_QUERIES=100  LOGS_WINDOW=1000  LOGS_RARE=10000
//   LOGS_SECONDS=30  LOGS_PROGRESS=10000 (a progress line every so many blocks built)
//   TXS=100000  TXS_ANVIL=20000  DB_TYPE=memdb|leveldb  PIN=0 (no pinning)  SIGN_WORKERS=<CPUs>
//   EMULATOR_ARGS='--flag=v ...', ANVIL_ARGS='--flag v ...' (extra command-line arguments)
//   CHAIN=C|l1   the C-Chain (default) or the Subnet-EVM L1 of fixtures/myl1.json (its figures beside the C-Chain's)
//   Quick run: SEQ_TXS=500 BATCH_TXS=1000 LOGS_BLOCKS=2000 TXS=5000 DURATION=2 ROUNDS=1 node scripts/bench/evm.mjs
// Always exits 0: it reports, it does not gate (a node that fails or is missing is reported as such).
import { execFileSync, fork, spawn } from 'node:child_process';
import { existsSync, writeSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { getCreateAddress, id as keccakText, keccak256, Wallet } from 'ethers';
import { CLI, cpuSeconds, envArgs, envIntOf, freePort, hasTaskset, pct, ROOT, serveBareReply, postJson } from './common.mjs';

const SELF = fileURLToPath(import.meta.url);
// CHAIN=C (default): the C-Chain; CHAIN=l1: the Subnet-EVM L1 of fixtures/myl1.json (chain ID 99999,
// Subnet-EVM's fee window instead of ACP-176), started with --l1; Anvil then runs with its chain ID.
const ON_L1 = (process.env.CHAIN ?? 'C').toLowerCase() === 'l1';
const CHAIN_ID = ON_L1 ? 99999n : 43112n;
const CHAIN_PATH = ON_L1 ? '/ext/bc/myl1/rpc' : '/ext/bc/C/rpc';
const CHAIN_ARGS = ON_L1 ? [`--l1=${path.join(ROOT, 'fixtures', 'myl1.json')}`] : [];
const MAX_FEE = 300_000_000_000n; // 300 gwei: above the emulator's 225 gwei genesis base fee
const TIP = 1n;
const SINK = '0x1111111111111111111111111111111111111111';
const TICK_SELECTOR = keccakText('tick(uint256,uint256)').slice(0, 10);
const VALUE_SELECTOR = keccakText('value()').slice(0, 10);
const TICK_TOPIC = keccakText('Tick(uint256,uint256)');
const word = (x) => BigInt(x).toString(16).padStart(64, '0');

/** The fields of tx `nonce` of a kind of tx (the same in the workers and in the main thread). */
function txRequest(kind, nonce, opts) {
  const base = { type: 2, chainId: CHAIN_ID, nonce, maxFeePerGas: MAX_FEE, maxPriorityFeePerGas: TIP };
  switch (kind) {
    case 'transfer':
      return { ...base, to: SINK, value: 1n, gasLimit: 21_000n, data: '0x' };
    case 'tick':
      return { ...base, to: opts.contract, value: 0n, gasLimit: 60_000n, data: `${TICK_SELECTOR}${word(tagOf(nonce, opts.rare))}${word(nonce)}` };
    case 'deploy':
      return { ...base, to: null, value: 0n, gasLimit: 500_000n, data: opts.bytecode };
    case 'fund':
      return { ...base, to: opts.to, value: opts.value, gasLimit: 21_000n, data: '0x' };
    default:
      throw new Error(`unknown tx kind ${kind}`);
  }
}
const tagOf = (n, rare) => (n % rare === 0 ? 1 : 2 + (n % 16));

if (!isMainThread) {
  await signWorker();
} else if (process.argv[2] === '--bare-server') {
  serveBareReply();
} else {
  await main();
}

// --- Worker mode: signs its share of every job ---------------------------------------------------
async function signWorker() {
  const out = [];
  for (const { key, kind, start, end, opts } of workerData.chunks) {
    const wallet = new Wallet(key);
    const txs = new Array(end - start);
    for (let n = start; n < end; n++) txs[n - start] = await wallet.signTransaction(txRequest(kind, n, opts));
    out.push(txs);
  }
  parentPort.postMessage(out);
}

// --- Main mode -----------------------------------------------------------------------------------
async function main() {
  const envInt = envIntOf('bench:evm');
  const TARGETS = (process.env.TARGETS || 'anvil,emulator')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const t of TARGETS) {
    if (t !== 'anvil' && t !== 'emulator') {
      console.error(`bench:evm: TARGETS=${process.env.TARGETS}: ${t} is neither anvil nor emulator`);
      process.exit(1);
    }
  }
  const SEQ_TXS = envInt('SEQ_TXS', 1000);
  const BATCH_SIZE = envInt('BATCH_SIZE', 100);
  const BATCH_TXS = envInt('BATCH_TXS', 3000);
  const CONCURRENT = envInt('CONCURRENT', 100);
  const CONC_TIMEOUT = envInt('CONC_TIMEOUT', 10);
  const STALL_TIMEOUT = envInt('STALL_TIMEOUT', 30);
  const CONNECTIONS = envInt('CONNECTIONS', 32);
  const DURATION = envInt('DURATION', 5);
  const ROUNDS = envInt('ROUNDS', 2);
  const WARMUP = envInt('WARMUP', 1, 0);
  const LOGS_BLOCKS = envInt('LOGS_BLOCKS', 100_000, 0);
  const LOGS_BLOCKS_ANVIL = envInt('LOGS_BLOCKS_ANVIL', Math.min(LOGS_BLOCKS, 2000), 0);
  const LOGS_PROGRESS = envInt('LOGS_PROGRESS', 10_000);
  const LOGS_QUERIES = envInt('LOGS_QUERIES', 100);
  const LOGS_WINDOW = envInt('LOGS_WINDOW', 1000);
  const LOGS_RARE = envInt('LOGS_RARE', 10_000);
  const LOGS_SECONDS = envInt('LOGS_SECONDS', 30);
  const TXS = envInt('TXS', 100_000, 0);
  const TXS_ANVIL = envInt('TXS_ANVIL', Math.min(TXS, 20_000), 0);
  const DB_TYPE = process.env.DB_TYPE || 'memdb';
  const SIGN_WORKERS = envInt('SIGN_WORKERS', Math.max(1, os.cpus().length));
  const EMULATOR_ARGS = envArgs('EMULATOR_ARGS');
  const ANVIL_ARGS = (process.env.ANVIL_ARGS || '').split(/\s+/).filter(Boolean);
  const ANVIL = path.join(ROOT, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil');
  const PIN = process.env.PIN !== '0' && os.cpus().length >= 2 && hasTaskset();
  if (DB_TYPE !== 'memdb' && DB_TYPE !== 'leveldb') {
    console.error(`bench:evm: DB_TYPE=${DB_TYPE} is neither memdb nor leveldb`);
    process.exit(1);
  }

  const EWOQ = new Wallet('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
  const EWOQ_BALANCE = 50_000_000n * 10n ** 18n;
  const FUND = 10_000n * 10n ** 18n;
  const PHASE_KEYS = ['deploy', 'seq', 'batch', 'conc', 'logs', 'rss'];
  const keys = Object.fromEntries(PHASE_KEYS.map((name) => [name, new Wallet(keccakText(`avalanche-emulator bench:evm ${name}`))]));
  const CONTRACT = getCreateAddress({ from: keys.deploy.address, nonce: 0 });

  // --- Formatting -----------------------------------------------------------------------------
  const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
  const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
  const int = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '-');
  const mib = (kb) => (Number.isFinite(kb) ? `${(kb / 1024).toFixed(0)} MiB` : '-');
  const stats = (ms) => {
    const s = [...ms].sort((a, b) => a - b);
    return { p50: pct(s, 0.5), p99: pct(s, 0.99), max: s[s.length - 1] };
  };
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const errText = (e) =>
    String(e?.message ?? e)
      .split('\n')[0]
      .slice(0, 200);

  // --- Children and clean-up ---------------------------------------------------------------------
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 }); // every JSON-RPC request goes through it
  const children = new Set();
  const tempDirs = new Set();
  const workers = new Set();
  let closing = false; // set once clean-up has begun: nothing new may be started after it
  const track = (child) => {
    children.add(child);
    child.once('exit', () => children.delete(child));
    if (closing) child.kill('SIGKILL');
    return child;
  };
  const making = new Set(); // mkdtemp calls under way, awaited by the clean-up
  async function tempDir(prefix) {
    if (closing) throw new Error('stopping');
    const made = mkdtemp(path.join(os.tmpdir(), prefix)).then((d) => {
      tempDirs.add(d);
      return d;
    });
    making.add(made);
    const dir = await made.finally(() => making.delete(made));
    if (closing) {
      await rm(dir, { recursive: true, force: true });
      throw new Error('stopping');
    }
    return dir;
  }
  const exited = (child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r)));
  async function stop(child, signal = 'SIGTERM') {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const hung = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited(child);
    clearTimeout(hung);
  }
  let cleaned;
  const cleanup = () => {
    closing = true;
    cleaned ??= (async () => {
      await Promise.all([...workers].map((w) => w.terminate()));
      await Promise.all([...children].map((c) => stop(c, c.stopSignal)));
      agent.destroy();
      await Promise.allSettled([...making]);
      await Promise.all([...tempDirs].map((d) => rm(d, { recursive: true, force: true })));
    })();
    return cleaned;
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => cleanup().finally(() => process.exit(130)));
  // Anything thrown outside the phases' own handling (or stdout closed under us, EPIPE) still stops
  // the nodes and removes the temp dirs.
  let bailed = false;
  const bail = (e) => {
    if (bailed) return;
    bailed = true;
    if (e?.code !== 'EPIPE') {
      try {
        writeSync(2, `bench:evm: ${e?.stack ?? e}\n`);
      } catch {
        /* stderr gone too */
      }
    }
    cleanup().finally(() => process.exit(0));
  };
  process.on('uncaughtException', bail);
  process.on('unhandledRejection', bail);
  process.stdout.on('error', bail);
  process.stderr.on('error', bail);
  /** Whether processes are pinned now: PIN, except while phases 1b and 2b run. */
  let pinning = PIN;
  const pin = (pid, cpu) => {
    if (pinning) execFileSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' });
  };
  const unpin = (pid) => execFileSync('taskset', ['-a', '-cp', `0-${os.cpus().length - 1}`, String(pid)], { stdio: 'ignore' });

  // --- JSON-RPC over HTTP keep-alive ----------------------------------------------------------------
  let rpcId = 0;
  const post = (url, payload, timeoutMs = 300_000) => postJson(agent, url, payload, timeoutMs);
  async function call(side, method, params = []) {
    const reply = await post(side.rpc, { jsonrpc: '2.0', id: ++rpcId, method, params });
    if (reply.error) throw new Error(`${method}: ${reply.error.message ?? JSON.stringify(reply.error)}`);
    return reply.result;
  }
  const nonceOf = async (side, address, tag = 'latest') => Number(await call(side, 'eth_getTransactionCount', [address, tag]));
  const blockNumber = async (side) => Number(await call(side, 'eth_blockNumber'));

  /**
   * Polls the sender's 'latest' nonce until it reaches `target`. Gives up ('stalled') after
   * STALL_TIMEOUT s without progress, or once `capMs` has passed since t0. ms is from t0.
   */
  async function waitMined(side, address, target, t0, { capMs = Infinity, pollMs = 5 } = {}) {
    let last = -1;
    let lastChange = performance.now();
    for (;;) {
      const n = await nonceOf(side, address);
      const now = performance.now();
      if (n >= target) return { ok: true, mined: n, ms: now - t0 };
      if (n !== last) {
        last = n;
        lastChange = now;
      }
      if (now - lastChange > STALL_TIMEOUT * 1000 || now - t0 > capMs) return { ok: false, mined: n, ms: now - t0 };
      await sleep(pollMs);
    }
  }

  async function procStatus(pid) {
    try {
      const text = await readFile(`/proc/${pid}/status`, 'utf8');
      const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
      return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
    } catch {
      return { rss: NaN, hwm: NaN };
    }
  }

  // --- Nodes -----------------------------------------------------------------------------------------
  function collect(child) {
    const out = { text: '' };
    const add = (d) => {
      out.text = (out.text + d).slice(-4000);
    };
    child.stdout?.on('data', add);
    child.stderr?.on('data', add);
    return out;
  }
  async function startAnvil() {
    if (!existsSync(ANVIL)) throw new Error(`${path.relative(ROOT, ANVIL)} is missing (npm install)`);
    const home = await tempDir('bench-evm-anvil-');
    const port = await freePort();
    const args = ['--chain-id', String(CHAIN_ID), '--port', String(port), '--silent', ...ANVIL_ARGS];
    const t0 = performance.now();
    const child = track(spawn(ANVIL, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: home } }));
    child.stopSignal = 'SIGINT'; // Anvil shuts down cleanly on Ctrl-C
    const out = collect(child);
    const side = { name: 'Anvil', label: 'Anvil 1.7.1', child, pid: child.pid, rpc: `http://127.0.0.1:${port}`, dir: home, results: {} };
    for (let ready = false; !ready; await sleep(20)) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`anvil exited (${child.exitCode ?? child.signalCode}): ${out.text}`);
      if (performance.now() - t0 > 30_000) throw new Error(`anvil did not answer eth_chainId within 30 s: ${out.text}`);
      try {
        ready = BigInt(await call(side, 'eth_chainId')) === CHAIN_ID;
      } catch {
        /* not listening yet */
      }
    }
    side.version = execFileSync(ANVIL, ['--version'], { encoding: 'utf8' }).split('\n')[0];
    side.startRss = (await procStatus(child.pid)).rss;
    await call(side, 'anvil_setBalance', [EWOQ.address, `0x${EWOQ_BALANCE.toString(16)}`]);
    return side;
  }
  async function startEmulator() {
    if (!existsSync(CLI)) throw new Error(`${path.relative(ROOT, CLI)} is missing; run npm run build first`);
    const dataDir = await tempDir('bench-evm-emulator-');
    const args = [CLI, '--http-port=0', `--db-type=${DB_TYPE}`, `--data-dir=${dataDir}`, '--log-level=off', ...CHAIN_ARGS, ...EMULATOR_ARGS];
    const child = track(spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
    const out = collect(child);
    let uri;
    for (const deadline = Date.now() + 30_000; !uri; await sleep(10)) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`emulator exited (${child.exitCode ?? child.signalCode}): ${out.text}`);
      if (Date.now() > deadline) throw new Error(`emulator wrote no process.json within 30 s: ${out.text}`);
      try {
        ({ uri } = JSON.parse(await readFile(path.join(dataDir, 'process.json'), 'utf8')));
      } catch {
        /* not written yet */
      }
    }
    const side = { name: 'emulator', label: `emulator (${DB_TYPE})`, child, pid: child.pid, rpc: `${uri}${CHAIN_PATH}`, dir: dataDir, results: {} };
    let chainId;
    try {
      chainId = BigInt(await call(side, 'eth_chainId'));
    } catch (e) {
      throw new Error(`its chain does not serve ${side.rpc} yet (eth_chainId: ${errText(e)})`);
    }
    if (chainId !== CHAIN_ID) throw new Error(`eth_chainId is ${chainId}, expected ${CHAIN_ID}`);
    side.version = 'dist/avalanche-emulator.js';
    side.startRss = (await procStatus(child.pid)).rss;
    return side;
  }

  // --- Signing ---------------------------------------------------------------------------------------
  /** Signs jobs [{ name, key, kind, count, from?, opts }] (nonces from..from+count-1) over SIGN_WORKERS threads: { name: [raw tx] }. */
  async function signAll(jobs) {
    const perWorker = Array.from({ length: SIGN_WORKERS }, () => []);
    for (const job of jobs) {
      const from = job.from ?? 0;
      const end = from + job.count;
      const step = Math.ceil(job.count / SIGN_WORKERS);
      for (let w = 0; w < SIGN_WORKERS; w++) {
        const start = Math.min(end, from + w * step);
        perWorker[w].push({ key: job.key, kind: job.kind, start, end: Math.min(end, start + step), opts: job.opts });
      }
    }
    const results = await Promise.all(
      perWorker.map(
        (chunks) =>
          new Promise((resolve, reject) => {
            const worker = new Worker(SELF, { workerData: { chunks } });
            workers.add(worker);
            worker.once('message', resolve);
            worker.once('error', reject);
            worker.once('exit', (code) => {
              workers.delete(worker);
              if (code !== 0) reject(new Error(`signing worker exited (${code})`));
            });
          }),
      ),
    );
    return Object.fromEntries(jobs.map((job, j) => [job.name, results.flatMap((r) => r[j])]));
  }

  function compileContract(solc) {
    const source = [
      '// SPDX-License-Identifier: MIT',
      'pragma solidity 0.8.37;',
      'contract Bench {',
      '    event Tick(uint256 indexed tag, uint256 n);',
      '    uint256 public value = 42;',
      '    function tick(uint256 tag, uint256 n) external { emit Tick(tag, n); }',
      '}',
    ].join('\n');
    const input = {
      language: 'Solidity',
      sources: { 'Bench.sol': { content: source } },
      settings: { evmVersion: 'cancun', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input)));
    const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
    if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
    return `0x${output.contracts['Bench.sol'].Bench.evm.bytecode.object}`;
  }

  // --- Phases ------------------------------------------------------------------------------------------
  let signed; // { name: [raw tx] }
  const sides = [];
  const live = () => sides.filter((s) => !s.dead);
  /**
   * Runs fn on every live node in turn; an error is recorded in that node's result. With `fresh`,
   * a node that has already run a phase is first replaced by a new one (funded, contract deployed).
   */
  async function onEach(phase, fn, { fresh = false, restartAfter = true } = {}) {
    for (const side of live()) {
      if (fresh && side.used) {
        const failed = await renew(side);
        if (failed) {
          side.results[phase] = { error: failed };
          continue;
        }
      }
      side.used = true;
      const cpu0 = await cpuSeconds(side.pid);
      try {
        side.results[phase] = await fn(side);
      } catch (e) {
        side.results[phase] = { error: errText(e) };
      }
      side.results[phase].cpu = (await cpuSeconds(side.pid)) - cpu0;
      side.results[phase].rssAfter = (await procStatus(side.pid)).rss;
      if (side.child.exitCode !== null || side.child.signalCode !== null) {
        side.dead = true;
        side.results[phase].note = `the node exited (${side.child.exitCode ?? side.child.signalCode}); it is left out from here on`;
      } else if (restartAfter && stalled(side.results[phase])) {
        // A stalled node may go on burning CPU (Anvil 1.7.1 spins at 100 % of its core), which would
        // skew the other node's figures; and its pool may stay blocked. Each phase sends from its own
        // fresh key, so a new node, funded and deployed again, runs the next phases unchanged.
        side.results[phase].note = await restart(side);
      }
    }
  }
  /** Stops a node and starts a new one of its kind, funded and deployed; an error text if that failed. */
  async function renew(side) {
    await stop(side.child, side.child.stopSignal);
    await rm(side.dir, { recursive: true, force: true });
    tempDirs.delete(side.dir);
    try {
      const fresh = side.name === 'Anvil' ? await startAnvil() : await startEmulator();
      pin(fresh.pid, 1);
      Object.assign(side, { child: fresh.child, pid: fresh.pid, rpc: fresh.rpc, dir: fresh.dir, startRss: fresh.startRss, used: false });
      sentPerSide.delete(side);
      await setup(side);
      return undefined;
    } catch (e) {
      side.dead = true;
      return `starting a new node failed, so it is left out from here on: ${errText(e)}`;
    }
  }
  const stalled = (r) => r.ok === false || r.build?.ok === false || (r.error !== undefined && !r.skipped);
  async function restart(side) {
    const cpu0 = await cpuSeconds(side.pid);
    await sleep(1000);
    const spin = (await cpuSeconds(side.pid)) - cpu0;
    side.restarts = (side.restarts ?? 0) + 1;
    const failed = await renew(side);
    return `-> node CPU ${f1(100 * spin)}% of a core in the 1 s after; the node was stopped${failed ? `; ${failed}` : ' and a new one runs the next phase'}`;
  }
  /** Prints a phase's result of every node: `line(side, r)` for a result without error, then any note. */
  function printResults(phase, line) {
    for (const side of sides) {
      const r = side.results[phase];
      if (!r) continue;
      if (r.error && !r.build) console.log(`   ${side.name.padEnd(9)} failed: ${r.error}`);
      else line(side, r);
      if (r.note) console.log(`   ${''.padEnd(9)} ${r.note}`);
    }
  }
  const sentPerSide = new Map(); // txs of this run each node has been sent
  const addSent = (side, n) => sentPerSide.set(side, (sentPerSide.get(side) ?? 0) + n);
  const cpuLine = (r, txs) =>
    (Number.isFinite(r.cpu) ? `node CPU ${f2(r.cpu)} s${txs ? ` (${f2((1000 * r.cpu) / txs)} ms per tx)` : ''}` : '') +
    (Number.isFinite(r.rssAfter) ? `; VmRSS after ${mib(r.rssAfter)}` : '');

  async function setup(side) {
    const n0 = await nonceOf(side, EWOQ.address);
    const names = PHASE_KEYS;
    const funding = [];
    for (let i = 0; i < names.length; i++) funding.push(await EWOQ.signTransaction(txRequest('fund', n0 + i, { to: keys[names[i]].address, value: FUND })));
    const t0 = performance.now();
    for (const tx of funding) await call(side, 'eth_sendRawTransaction', [tx]);
    const w = await waitMined(side, EWOQ.address, n0 + names.length, t0);
    if (!w.ok) throw new Error(`funding the phase keys stalled (${w.mined - n0}/${names.length} mined)`);
    await call(side, 'eth_sendRawTransaction', [signed.deploy[0]]);
    const d = await waitMined(side, keys.deploy.address, 1, performance.now());
    if (!d.ok) throw new Error('deploying the contract stalled');
    const receipt = await call(side, 'eth_getTransactionReceipt', [keccak256(signed.deploy[0])]);
    if (receipt?.status !== '0x1' || receipt.contractAddress?.toLowerCase() !== CONTRACT.toLowerCase())
      throw new Error(`deploy receipt: status ${receipt?.status}, contractAddress ${receipt?.contractAddress}`);
    const value = await call(side, 'eth_call', [{ to: CONTRACT, data: VALUE_SELECTOR }, 'latest']);
    if (BigInt(value) !== 42n) throw new Error(`eth_call value() returned ${value}, expected 42`);
    addSent(side, names.length + 1);
    return { ok: true };
  }

  // The last third of a phase's sends, for a figure beside the phase's: the rate from its first send
  // to all mined. A freshly started emulator spends its first thousand or so txs compiling (V8's
  // optimizing compiler shares the node's one pinned CPU), which the whole phase's rate includes;
  // Anvil is native code. Both nodes get the same computation; the phase's own rate is what the
  // target is checked against.
  const lateStart = (n, step) => Math.floor(Math.floor((2 * n) / 3) / step) * step;
  const late = (n, from, w, t0, lateT0) => {
    const ms = w.ms - (lateT0 - t0);
    return { lateN: n - from, lateRate: w.ok && ms > 0 ? (n - from) / (ms / 1000) : NaN };
  };

  /**
   * Phases 1 and 2: sends `txs` in steps of `step`, each step's reply awaited (`send` returns the
   * step's errors; a throw counts the whole step as failed), then waits for all of them mined.
   */
  async function sendPhase(side, txs, address, step, send) {
    const h0 = await blockNumber(side);
    const lat = [];
    let errors = 0;
    let firstError;
    const t0 = performance.now();
    const lateFrom = lateStart(txs.length, step);
    let lateT0 = NaN;
    for (let i = 0; i < txs.length; i += step) {
      const ts = performance.now();
      if (i === lateFrom) lateT0 = ts;
      const slice = txs.slice(i, i + step);
      try {
        const failed = await send(slice);
        errors += failed.errors;
        firstError ??= failed.firstError;
      } catch (e) {
        errors += slice.length;
        firstError ??= errText(e);
      }
      lat.push(performance.now() - ts);
    }
    const sendMs = performance.now() - t0;
    const w = await waitMined(side, address, txs.length, t0);
    addSent(side, txs.length);
    const blocks = (await blockNumber(side)) - h0;
    return {
      ...w,
      n: txs.length,
      rate: w.ok ? txs.length / (w.ms / 1000) : NaN,
      ...late(txs.length, lateFrom, w, t0, lateT0),
      sendMs,
      ...stats(lat),
      errors,
      firstError,
      blocks,
    };
  }

  function sequential(side) {
    return sendPhase(side, signed.seq, keys.seq.address, 1, async ([tx]) => {
      await call(side, 'eth_sendRawTransaction', [tx]);
      return { errors: 0 };
    });
  }

  function batched(side) {
    return sendPhase(side, signed.batch, keys.batch.address, BATCH_SIZE, async (txs) => {
      const payload = txs.map((tx) => ({ jsonrpc: '2.0', id: ++rpcId, method: 'eth_sendRawTransaction', params: [tx] }));
      const reply = await post(side.rpc, payload);
      if (!Array.isArray(reply)) throw new Error(`batch reply is not an array: ${JSON.stringify(reply).slice(0, 200)}`);
      const failed = reply.filter((r) => r.error);
      const first = failed[0]?.error;
      return {
        errors: failed.length + payload.length - reply.length,
        firstError: first && (first.message ?? JSON.stringify(first)),
      };
    });
  }

  async function concurrent(side) {
    const txs = signed.conc;
    await Promise.all(txs.map(() => call(side, 'eth_chainId'))); // opens the connections beforehand
    const h0 = await blockNumber(side);
    let errors = 0;
    let firstError;
    const t0 = performance.now();
    await Promise.all(
      txs.map((tx) =>
        call(side, 'eth_sendRawTransaction', [tx]).catch((e) => {
          errors++;
          firstError ??= errText(e);
        }),
      ),
    );
    const sendMs = performance.now() - t0;
    const w = await waitMined(side, keys.conc.address, txs.length, t0, { capMs: CONC_TIMEOUT * 1000, pollMs: 1 });
    addSent(side, txs.length);
    const pending = await nonceOf(side, keys.conc.address, 'pending');
    const blocks = (await blockNumber(side)) - h0;
    return { ...w, n: txs.length, sendMs, errors, firstError, pending, blocks };
  }

  function printTxPhase(title, phase) {
    console.log(`\n${title}`);
    printResults(phase, (side, r) => {
      const status = r.ok
        ? `${f1(r.rate)} tx/s (all ${int(r.n)} mined ${f1(r.ms)} ms after the first send)`
        : `stalled: ${int(r.mined)}/${int(r.n)} mined after ${f1(r.ms / 1000)} s`;
      console.log(
        `   ${side.name.padEnd(9)} ${status}; sends took ${f1(r.sendMs)} ms, reply p50 ${f2(r.p50)} ms, p99 ${f2(r.p99)} ms;` +
          (Number.isFinite(r.lateRate) ? ` the last ${int(r.lateN)} alone ${f1(r.lateRate)} tx/s;` : '') +
          ` ${int(r.blocks)} blocks; ${r.errors} errors${r.firstError ? ` (first: ${r.firstError})` : ''}; ${cpuLine(r, r.n)}`,
      );
    });
  }

  // Phase 4: HTTP load with autocannon.
  async function loadPhase(autocannon) {
    const requests = [
      {
        name: 'eth_call value()',
        key: 'call',
        body: { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: CONTRACT, data: VALUE_SELECTOR }, 'latest'] },
      },
      { name: 'eth_blockNumber', key: 'blockNumber', body: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] } },
    ];
    const load = async (url, body, duration, pid) => {
      const cpu0 = pid ? await cpuSeconds(pid) : NaN;
      const times = [];
      const run = autocannon({
        url,
        connections: CONNECTIONS,
        pipelining: 1,
        duration,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      run.on('response', (_client, status, _bytes, ms) => {
        if (status >= 200 && status < 300) times.push(ms);
      });
      const result = await run;
      const cpuUs = pid ? (((await cpuSeconds(pid)) - cpu0) * 1e6) / Math.max(1, times.length) : NaN;
      times.sort((a, b) => a - b);
      return {
        rps: result.requests.average,
        p50: pct(times, 0.5),
        p99: pct(times, 0.99),
        cpuUs,
        errors: result.errors + result.timeouts,
        non2xx: result.non2xx,
      };
    };
    console.log(
      `\n4. HTTP load: ${CONNECTIONS} connections, pipelining 1, ${ROUNDS} round(s) x ${DURATION} s per server after ${WARMUP} s warm-up (autocannon); medians over rounds`,
    );
    for (const req of requests) {
      const body = JSON.stringify(req.body);
      const targets = [];
      for (const side of live()) {
        try {
          const reply = await post(side.rpc, req.body);
          if (reply.error) throw new Error(reply.error.message);
          if (req.key === 'call' && BigInt(reply.result) !== 42n) throw new Error(`eth_call returned ${reply.result}`);
          targets.push({ name: side.name, url: side.rpc, pid: side.pid, side, reply });
        } catch (e) {
          side.results[req.key] = { error: errText(e) };
        }
      }
      if (targets.length === 0) continue;
      const bareBody = Buffer.from(JSON.stringify(targets[0].reply));
      const bare = track(
        fork(SELF, ['--bare-server'], { env: { ...process.env, BENCH_BODY: bareBody.toString('base64') }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
      );
      const { port } = await new Promise((resolve, reject) => {
        bare.once('message', resolve);
        bare.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
      });
      pin(bare.pid, 1);
      targets.push({ name: 'bare node:http', url: `http://127.0.0.1:${port}/`, pid: bare.pid });
      const runs = new Map(targets.map((t) => [t, []]));
      try {
        if (WARMUP > 0) for (const t of targets) await load(t.url, body, WARMUP);
        for (let round = 0; round < ROUNDS; round++) {
          const order = round % 2 ? [...targets].reverse() : targets;
          for (const t of order) runs.get(t).push(await load(t.url, body, DURATION, t.pid));
        }
      } finally {
        await stop(bare);
      }
      console.log(`   ${req.name} (reply ${bareBody.length} bytes)`);
      console.log(
        `     ${''.padEnd(16)}${'req/s'.padStart(10)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'CPU us/req'.padStart(13)}${'errors'.padStart(8)}${'non-2xx'.padStart(9)}`,
      );
      for (const t of targets) {
        const rs = runs.get(t);
        const s = {
          rps: median(rs.map((r) => r.rps)),
          p50: median(rs.map((r) => r.p50)),
          p99: median(rs.map((r) => r.p99)),
          cpuUs: median(rs.map((r) => r.cpuUs)),
          errors: rs.reduce((n, r) => n + r.errors, 0),
          non2xx: rs.reduce((n, r) => n + r.non2xx, 0),
        };
        if (t.side) t.side.results[req.key] = s;
        else bareResults[req.key] = s;
        console.log(
          `     ${t.name.padEnd(16)}${int(s.rps).padStart(10)}${f2(s.p50).padStart(10)}${f2(s.p99).padStart(10)}${f1(s.cpuUs).padStart(13)}` +
            `${String(s.errors).padStart(8)}${String(s.non2xx).padStart(9)}`,
        );
      }
    }
  }
  const bareResults = {};

  // Phase 5: eth_getLogs over many blocks.
  async function logsPhase(side) {
    const count = side.name === 'Anvil' ? LOGS_BLOCKS_ANVIL : LOGS_BLOCKS;
    if (count === 0) return { skipped: true };
    const txs = signed.logs.slice(0, count);
    let errors = 0;
    let firstError;
    const t0 = performance.now();
    let w = { ok: true, mined: 0 };
    let tp = t0;
    for (let i = 0; i < count && w.ok; i++) {
      try {
        await call(side, 'eth_sendRawTransaction', [txs[i]]);
      } catch (e) {
        errors++;
        firstError ??= errText(e);
      }
      // Each tx is mined before the next is sent, so that each gets a block of its own.
      w = await waitMined(side, keys.logs.address, i + 1, t0, { pollMs: 1 });
      if ((i + 1) % LOGS_PROGRESS === 0 && i + 1 < count) {
        const now = performance.now();
        console.log(`   ${side.name}: ${int(i + 1)}/${int(count)} built, ${f1(LOGS_PROGRESS / ((now - tp) / 1000))} tx/s lately`);
        tp = now;
      }
    }
    w.ms = performance.now() - t0;
    addSent(side, w.mined);
    const build = { ok: w.ok, mined: w.mined, ms: w.ms, rate: w.ok ? count / (w.ms / 1000) : NaN, errors, firstError, count };
    if (!w.ok) return { build };
    const first = await call(side, 'eth_getTransactionReceipt', [keccak256(txs[0])]);
    const last = await call(side, 'eth_getTransactionReceipt', [keccak256(txs[count - 1])]);
    if (first?.logs?.length !== 1 || last?.logs?.length !== 1) throw new Error('a tick tx has no log in its receipt');
    const from = Number(first.blockNumber);
    const to = Number(last.blockNumber);
    build.blocks = to - from + 1;
    const rareCount = Math.ceil(count / LOGS_RARE);
    const onePerBlock = build.blocks === count;
    let seed = 0x9e3779b9;
    const random = () => {
      seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
      return seed / 2 ** 32;
    };
    const window = () => {
      const size = Math.min(LOGS_WINDOW, build.blocks);
      const start = from + Math.floor(random() * (build.blocks - size + 1));
      return [start, start + size - 1];
    };
    const hex = (n) => `0x${n.toString(16)}`;
    const rareTopic = `0x${word(1)}`;
    const kinds = [
      {
        key: 'wholeAddrTopic',
        label: `whole range (${int(build.blocks)} blocks), address + [Tick, tag 1]`,
        range: () => [from, to],
        address: CONTRACT,
        topics: [TICK_TOPIC, rareTopic],
        expect: () => rareCount,
      },
      {
        key: 'wholeTopic',
        label: `whole range (${int(build.blocks)} blocks), [Tick, tag 1], no address`,
        range: () => [from, to],
        topics: [TICK_TOPIC, rareTopic],
        expect: () => rareCount,
      },
      {
        key: 'windowAddr',
        label: `random ${int(Math.min(LOGS_WINDOW, build.blocks))}-block windows, address only`,
        range: window,
        address: CONTRACT,
        expect: ([a, b]) => (onePerBlock ? b - a + 1 : undefined),
      },
      {
        key: 'windowTopic',
        label: `random ${int(Math.min(LOGS_WINDOW, build.blocks))}-block windows, [Tick] only`,
        range: window,
        topics: [TICK_TOPIC],
        expect: ([a, b]) => (onePerBlock ? b - a + 1 : undefined),
      },
    ];
    const queries = {};
    for (const k of kinds) {
      const filter = (r) => ({
        fromBlock: hex(r[0]),
        toBlock: hex(r[1]),
        ...(k.address ? { address: k.address } : {}),
        ...(k.topics ? { topics: k.topics } : {}),
      });
      await call(side, 'eth_getLogs', [filter(k.range())]); // warm-up
      const lat = [];
      let logs = 0;
      let wrong = 0;
      const started = performance.now();
      for (let i = 0; i < LOGS_QUERIES && (i < 5 || performance.now() - started < LOGS_SECONDS * 1000); i++) {
        const r = k.range();
        const ts = performance.now();
        const result = await call(side, 'eth_getLogs', [filter(r)]);
        lat.push(performance.now() - ts);
        logs += result.length;
        const expected = k.expect(r);
        if (expected !== undefined && result.length !== expected) wrong++;
      }
      queries[k.key] = { label: k.label, n: lat.length, ...stats(lat), logsPerQuery: logs / lat.length, wrong };
    }
    return { build, from, to, queries };
  }

  // Phase 6: memory after TXS txs.
  async function memoryPhase(side) {
    const before = sentPerSide.get(side) ?? 0;
    const target = side.name === 'Anvil' ? TXS_ANVIL : TXS;
    if (target === 0) return { skipped: true };
    const needed = Math.max(0, target - before);
    if (signed.rss.length < needed) {
      // More than signed up front (a node restarted after a stall holds fewer txs): sign the rest now.
      const more = await signAll([{ name: 'rss', key: keys.rss.privateKey, kind: 'transfer', from: signed.rss.length, count: needed - signed.rss.length }]);
      signed.rss = signed.rss.concat(more.rss);
    }
    const txs = signed.rss.slice(0, needed);
    const topUp = txs.length;
    let errors = 0;
    let firstError;
    const t0 = performance.now();
    let w = { ok: true, mined: 0, ms: 0 };
    for (let i = 0; i < txs.length && w.ok; i += BATCH_SIZE) {
      const payload = txs.slice(i, i + BATCH_SIZE).map((tx) => ({ jsonrpc: '2.0', id: ++rpcId, method: 'eth_sendRawTransaction', params: [tx] }));
      try {
        const reply = await post(side.rpc, payload);
        for (const r of Array.isArray(reply) ? reply : [reply]) {
          if (r.error) {
            errors++;
            firstError ??= r.error.message ?? JSON.stringify(r.error);
          }
        }
      } catch (e) {
        errors += payload.length;
        firstError ??= errText(e);
      }
      w = await waitMined(side, keys.rss.address, i + payload.length, t0); // mined before the next batch
    }
    addSent(side, w.mined);
    const mem = await procStatus(side.pid);
    return { ...mem, ok: w.ok, mined: w.mined, topUp, target, total: sentPerSide.get(side), ms: w.ms, errors, firstError, blocks: await blockNumber(side) };
  }

  // --- Run ------------------------------------------------------------------------------------------
  const started = performance.now();
  try {
    console.log(
      `EVM benchmark: ${TARGETS.join(' vs ')}, node ${process.version}, ${os.cpus().length} CPUs, JSON-RPC over HTTP keep-alive, chain ID ${CHAIN_ID}` +
        `${PIN ? ', this process pinned to CPU 0 and the servers to CPU 1 (after signing)' : ', unpinned'}`,
    );
    console.log(`load average at start: ${os.loadavg().map(f2).join(' ')} (other work on the machine skews every figure)`);
    console.log(
      `settings: SEQ_TXS=${SEQ_TXS} BATCH_TXS=${BATCH_TXS} BATCH_SIZE=${BATCH_SIZE} CONCURRENT=${CONCURRENT} CONC_TIMEOUT=${CONC_TIMEOUT} STALL_TIMEOUT=${STALL_TIMEOUT}` +
        ` CONNECTIONS=${CONNECTIONS} DURATION=${DURATION} ROUNDS=${ROUNDS} WARMUP=${WARMUP} LOGS_BLOCKS=${LOGS_BLOCKS} LOGS_BLOCKS_ANVIL=${LOGS_BLOCKS_ANVIL}` +
        ` LOGS_QUERIES=${LOGS_QUERIES} LOGS_WINDOW=${LOGS_WINDOW} LOGS_RARE=${LOGS_RARE} TXS=${TXS} TXS_ANVIL=${TXS_ANVIL} DB_TYPE=${DB_TYPE}`,
    );

    // Contract and signatures, before anything is timed.
    const { default: solc } = await import('solc');
    const bytecode = compileContract(solc);
    const logsCount = Math.max(TARGETS.includes('emulator') ? LOGS_BLOCKS : 0, TARGETS.includes('anvil') ? LOGS_BLOCKS_ANVIL : 0);
    const fixed = PHASE_KEYS.length + 1; // phase 6 runs on phase 5's node, which holds the set-up txs and the logs txs
    const rssCount = Math.max(
      TARGETS.includes('emulator') ? TXS - fixed - LOGS_BLOCKS : 0,
      TARGETS.includes('anvil') ? TXS_ANVIL - fixed - LOGS_BLOCKS_ANVIL : 0,
      0,
    );
    const jobs = [
      { name: 'deploy', key: keys.deploy.privateKey, kind: 'deploy', count: 1, opts: { bytecode } },
      { name: 'seq', key: keys.seq.privateKey, kind: 'transfer', count: SEQ_TXS },
      { name: 'batch', key: keys.batch.privateKey, kind: 'transfer', count: BATCH_TXS },
      { name: 'conc', key: keys.conc.privateKey, kind: 'transfer', count: CONCURRENT },
      { name: 'logs', key: keys.logs.privateKey, kind: 'tick', count: logsCount, opts: { contract: CONTRACT, rare: LOGS_RARE } },
      { name: 'rss', key: keys.rss.privateKey, kind: 'transfer', count: rssCount },
    ];
    const total = jobs.reduce((n, j) => n + j.count, 0);
    const s0 = performance.now();
    signed = await signAll(jobs);
    const signSeconds = (performance.now() - s0) / 1000;
    console.log(
      `signed ${int(total)} txs (ethers ${(await import('ethers')).version} Wallet.signTransaction, ${SIGN_WORKERS} worker threads) in ${f1(signSeconds)} s;` +
        ` contract ${CONTRACT} (solc ${solc.version().split('+')[0]}, cancun, ${(bytecode.length - 2) / 2} bytes of creation code)`,
    );

    // Nodes.
    for (const target of TARGETS) {
      try {
        const side = target === 'anvil' ? await startAnvil() : await startEmulator();
        sides.push(side);
      } catch (e) {
        console.log(`${target}: not run: ${errText(e)}`);
      }
    }
    pin(process.pid, 0);
    for (const side of sides) pin(side.pid, 1);
    for (const side of sides) {
      try {
        await setup(side);
        console.log(
          `${side.label}: ${side.rpc}, pid ${side.pid}, ${side.version}; VmRSS at start ${mib(side.startRss)}; phase keys funded, contract deployed, value() = 42`,
        );
      } catch (e) {
        side.dead = true;
        console.log(`${side.label}: set-up failed, left out: ${errText(e)}`);
      }
    }

    if (live().length > 0) {
      console.log('\n(each node in turn, in the order of TARGETS)');
      await onEach('seq', sequential, { fresh: true });
      printTxPhase(`1. eth_sendRawTransaction, one client, sequential (each reply awaited): ${int(SEQ_TXS)} transfers; tx/s to all mined`, 'seq');
      await onEach('batch', batched, { fresh: true });
      printTxPhase(`2. JSON-RPC batches of ${BATCH_SIZE} eth_sendRawTransaction, each batch awaited: ${int(BATCH_TXS)} transfers; tx/s to all mined`, 'batch');
      if (PIN) {
        // Phases 1 and 2 again with nothing pinned, as users run both nodes (and as the issue's
        // Anvil baselines were measured): each node's threads on both CPUs, beside this process.
        pinning = false;
        unpin(process.pid);
        await onEach('seqFree', sequential, { fresh: true });
        printTxPhase(`1b. as 1, nothing pinned: ${int(SEQ_TXS)} transfers; tx/s to all mined`, 'seqFree');
        await onEach('batchFree', batched, { fresh: true });
        printTxPhase(`2b. as 2, nothing pinned: ${int(BATCH_TXS)} transfers; tx/s to all mined`, 'batchFree');
        pinning = true;
        pin(process.pid, 0);
        for (const side of live()) pin(side.pid, 1);
      }

      await onEach('conc', concurrent, { fresh: true });
      console.log(
        `\n3. ${CONCURRENT} concurrent eth_sendRawTransaction from one account (nonces 0..${CONCURRENT - 1}, one connection each); wait capped at ${CONC_TIMEOUT} s`,
      );
      printResults('conc', (side, r) => {
        const status = r.ok ? `all mined in ${f1(r.ms)} ms` : `stalled: ${r.mined}/${r.n} mined after ${f1(r.ms / 1000)} s`;
        const pendingNote = r.pending === r.n ? `'pending' nonce ${r.pending} (right)` : `'pending' nonce ${r.pending} (stale: ${r.n} expected)`;
        console.log(
          `   ${side.name.padEnd(9)} ${status}; sends took ${f1(r.sendMs)} ms; ${r.errors} rejected${r.firstError ? ` (first: ${r.firstError})` : ''};` +
            ` ${pendingNote}; ${int(r.blocks)} blocks; ${cpuLine(r)}`,
        );
      });

      const { default: autocannon } = await import('autocannon');
      await loadPhase(autocannon);
      const rssLine = [];
      for (const side of live()) rssLine.push(`${side.name} ${mib((await procStatus(side.pid)).rss)}`);
      console.log(`   VmRSS after the load: ${rssLine.join(', ')}`);

      console.log(
        `\n5. eth_getLogs: ${int(LOGS_BLOCKS)} tick txs on the emulator, ${int(LOGS_BLOCKS_ANVIL)} on Anvil, each sent once the one before is mined (one log, one block each)`,
      );
      await onEach(
        'logs',
        async (side) => {
          const count = side.name === 'Anvil' ? LOGS_BLOCKS_ANVIL : LOGS_BLOCKS;
          if (count > 0) console.log(`   ${side.name}: building ${int(count)} blocks ...`);
          return logsPhase(side);
        },
        { fresh: true },
      );
      printResults('logs', (side, r) => {
        if (r.skipped) {
          console.log(`   ${side.name.padEnd(9)} skipped (LOGS_BLOCKS${side.name === 'Anvil' ? '_ANVIL' : ''}=0)`);
          return;
        }
        const b = r.build;
        console.log(
          `   ${side.name.padEnd(9)} build: ${b.ok ? `${int(b.count)} txs in ${int(b.blocks)} blocks (${r.from}..${r.to}) in ${f1(b.ms / 1000)} s = ${f1(b.rate)} tx/s` : `stalled: ${int(b.mined)}/${int(b.count)} mined after ${f1(b.ms / 1000)} s`}` +
            `; ${b.errors} errors${b.firstError ? ` (first: ${b.firstError})` : ''}; ${cpuLine(r, b.count)}`,
        );
        if (r.error) console.log(`   ${''.padEnd(9)} failed: ${r.error}`);
        if (!r.queries) return;
        console.log(
          `     ${'query'.padEnd(64)}${'n'.padStart(6)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'max ms'.padStart(10)}${'logs/reply'.padStart(12)}`,
        );
        for (const q of Object.values(r.queries))
          console.log(
            `     ${q.label.padEnd(64)}${String(q.n).padStart(6)}${f2(q.p50).padStart(10)}${f2(q.p99).padStart(10)}${f2(q.max).padStart(10)}${f1(q.logsPerQuery).padStart(12)}` +
              `${q.wrong ? `  ${q.wrong} WRONG counts` : ''}`,
          );
      });

      await onEach('rss', memoryPhase, { restartAfter: false });
      console.log(
        `\n6. Node memory (/proc/<pid>/status) once the node holds TXS=${int(TXS)} (Anvil: TXS_ANVIL=${int(TXS_ANVIL)}) txs of this run,` +
          ` topped up with transfers in batches of ${BATCH_SIZE}, each mined before the next`,
      );
      printResults('rss', (side, r) => {
        if (r.skipped) return void console.log(`   ${side.name.padEnd(9)} skipped (TXS${side.name === 'Anvil' ? '_ANVIL' : ''}=0)`);
        console.log(
          `   ${side.name.padEnd(9)} VmRSS ${mib(r.rss)}, VmHWM ${mib(r.hwm)} after ${int(r.total)} txs (${int(r.topUp)} top-up transfers in ${f1(r.ms / 1000)} s${r.ok ? '' : `, STALLED at ${int(r.mined)}`}), ` +
            `${int(r.blocks)} blocks; VmRSS at start ${mib(side.startRss)}; ${r.errors} errors${r.firstError ? ` (first: ${r.firstError})` : ''}`,
        );
      });
    }
  } catch (e) {
    console.error(`bench:evm failed: ${e.stack ?? e}`);
  } finally {
    try {
      printTable();
    } catch (e) {
      console.error(`bench:evm: summary failed: ${e.stack ?? e}`);
    }
    console.log(`\ntotal time ${f1((performance.now() - started) / 1000)} s; load average at end: ${os.loadavg().map(f2).join(' ')}`);
    await cleanup();
  }

  // --- Summary table ------------------------------------------------------------------------------------
  function printTable() {
    const anvil = sides.find((s) => s.name === 'Anvil');
    const emu = sides.find((s) => s.name === 'emulator');
    if (!anvil && !emu) return;
    const txCell = (r) => (!r ? '-' : r.error ? 'error' : r.ok ? f1(r.rate) : 'stalled');
    // Phases 1 and 2 (and 1b, 2b): their rates, with the issue's targets, and the batches' last third.
    const sendRows = (n, seq, batch, how) => [
      { label: `${n[0]}. sequential sends${how}, tx/s`, phase: seq, cell: (s) => txCell(s.results[seq]), value: (s) => s.results[seq]?.rate, target: 1.0 },
      {
        label: `${n[1]}. batches of ${BATCH_SIZE}${how}, tx/s`,
        phase: batch,
        cell: (s) => txCell(s.results[batch]),
        value: (s) => s.results[batch]?.rate,
        target: 0.5,
      },
      {
        label: '   the last third of those alone, tx/s',
        cell: (s) => (s.results[batch]?.ok ? f1(s.results[batch].lateRate) : '-'),
        value: (s) => (s.results[batch]?.ok ? s.results[batch].lateRate : NaN),
      },
    ];
    const rows = [
      ...sendRows(['1', '2'], 'seq', 'batch', ''),
      ...(PIN ? sendRows(['1b', '2b'], 'seqFree', 'batchFree', ', nothing pinned') : []),
      {
        label: `3. ${CONCURRENT} concurrent sends, ms to all mined`,
        cell: (s) => {
          const r = s.results.conc;
          return !r ? '-' : r.error ? 'error' : r.ok ? f1(r.ms) : `stalled ${r.mined}/${r.n}`;
        },
        value: (s) => (s.results.conc?.ok ? s.results.conc.ms : NaN),
      },
      {
        label: `3. ${CONCURRENT} concurrent: 'pending' nonce after`,
        cell: (s) => {
          const r = s.results.conc;
          return !r || r.error ? '-' : r.pending === r.n ? `${r.pending} ok` : `${r.pending} stale`;
        },
      },
    ];
    for (const [key, name] of [
      ['call', 'eth_call value()'],
      ['blockNumber', 'eth_blockNumber'],
    ]) {
      rows.push({
        label: `4. ${name}, req/s (bare ${int(bareResults[key]?.rps)})`,
        cell: (s) => (!s.results[key] ? '-' : s.results[key].error ? 'error' : int(s.results[key].rps)),
        value: (s) => s.results[key]?.rps,
      });
      rows.push({ label: `4. ${name}, p99 ms`, cell: (s) => f2(s.results[key]?.p99), value: (s) => s.results[key]?.p99 });
    }
    const buildCell = (s) => {
      const r = s.results.logs;
      return !r ? '-' : r.skipped ? 'skipped' : !r.build ? 'error' : r.build.ok ? f1(r.build.rate) : 'stalled';
    };
    rows.push({ label: '5. getLogs: build, tx/s (one tx per block)', cell: buildCell, value: (s) => s.results.logs?.build?.rate });
    rows.push({
      label: '5. getLogs: blocks built',
      cell: (s) => (Number.isFinite(s.results.logs?.build?.blocks) ? int(s.results.logs.build.blocks) : '-'),
    });
    for (const [key, name] of [
      ['wholeAddrTopic', 'whole range, addr+topic'],
      ['wholeTopic', 'whole range, topic only'],
      ['windowAddr', `${int(LOGS_WINDOW)}-block windows, addr`],
      ['windowTopic', `${int(LOGS_WINDOW)}-block windows, topic`],
    ]) {
      for (const p of ['p50', 'p99']) {
        const q = (s) => s.results.logs?.queries?.[key];
        rows.push({
          label: `5. getLogs ${name}, ${p} ms`,
          cell: (s) => (q(s) ? `${f2(q(s)[p])}${q(s).wrong ? '!' : ''}` : '-'),
          value: (s) => q(s)?.[p],
          // A whole-range query is compared only over as many blocks on both nodes.
          same: key.startsWith('whole') ? (a, e) => a.results.logs?.build?.blocks === e.results.logs?.build?.blocks : undefined,
        });
      }
    }
    const sameTxs = (a, e) => a.results.rss?.ok && e.results.rss?.ok && a.results.rss.total === e.results.rss.total;
    rows.push({
      label: '6. VmRSS after the txs below, MiB',
      cell: (s) => (s.results.rss?.rss ? `${f1(s.results.rss.rss / 1024)}${s.results.rss.ok ? '' : ' (stalled)'}` : '-'),
      value: (s) => s.results.rss?.rss,
      same: sameTxs,
    });
    rows.push({
      label: '6. VmHWM, MiB',
      cell: (s) => (s.results.rss?.hwm ? f1(s.results.rss.hwm / 1024) : '-'),
      value: (s) => s.results.rss?.hwm,
      same: sameTxs,
    });
    rows.push({ label: '6. txs the node holds (TXS / TXS_ANVIL)', cell: (s) => (s.results.rss?.total ? int(s.results.rss.total) : '-') });
    rows.push({ label: '   VmRSS at start, MiB', cell: (s) => f1(s.startRss / 1024), value: (s) => s.startRss });
    rows.push({ label: '   restarts after a stall or failure', cell: (s) => String(s.restarts ?? 0) });

    const W = 48;
    const C = 16;
    console.log(
      `\nSummary (emulator / Anvil: for tx/s and req/s higher is better for the emulator, for ms and MiB lower is)${anvil && emu ? '' : `; only ${(anvil ?? emu).label} ran`}`,
    );
    console.log(`   ${''.padEnd(W)}${'Anvil 1.7.1'.padStart(C)}${'emulator'.padStart(C)}${'emu / Anvil'.padStart(13)}   target`);
    for (const row of rows) {
      const a = anvil ? row.cell(anvil) : 'not run';
      const e = emu ? row.cell(emu) : 'not run';
      let ratio = '';
      let target = '';
      if (row.value && anvil && emu) {
        const va = row.value(anvil);
        const ve = row.value(emu);
        if (Number.isFinite(va) && Number.isFinite(ve) && va > 0 && (!row.same || row.same(anvil, emu))) ratio = `${f2(ve / va)}x`;
        if (row.target) {
          const pass = emu.results[row.phase]?.ok && Number.isFinite(ve) && (!Number.isFinite(va) || ve / va >= row.target);
          target = `>= ${f1(row.target)}x ${pass ? 'PASS' : 'FAIL'}`;
        }
      } else if (row.target) {
        target = `>= ${f1(row.target)}x`;
      }
      console.log(`   ${row.label.padEnd(W)}${a.padStart(C)}${e.padStart(C)}${ratio.padStart(13)}   ${target}`);
    }
    if (sides.some((s) => Object.values(s.results.logs?.queries ?? {}).some((q) => q.wrong)))
      console.log("   ('!' after a getLogs figure: some replies had the wrong number of logs; see section 5)");
  }
}

// Fork benchmark: a test suite run on a fork of a local coreth upstream, by (a) this node's C-Chain
// (--fork-url) and (b) Anvil 1.7.1 (--fork-url), each cold (nothing fetched yet) and warm (a second
// run that finds what the first one fetched). It is a benchmark, not a test: it prints its figures
// beside Anvil's, measured in the same run, and asserts none of them.
//
// The upstream: a child process of this project (node dist/avalanche-emulator.js --dev
// --test-accounts=2 --db-type=memdb), given history first: test account 0 deploys the client tests'
// ERC-20 (test/fixtures/contracts/TestToken.sol, compiled here with the npm solc, evmVersion cancun,
// optimizer on, as test/support/solc.ts does), then sends HOLDERS token transfers to distinct
// addresses and 1 AVAX to the first FUNDED of them, as signed raw txs, BATCH to a JSON-RPC batch.
// Its head is then the fork block.
//
// Between the upstream and each forker is a counting proxy (node:http, in this process): it forwards
// every POST to the upstream's /ext/bc/C/rpc and counts HTTP requests, JSON-RPC calls, batches and
// their sizes, calls by method, and the time the upstream took (summed over requests), so the
// upstream traffic of both forkers is measured the same way.
//
// The suite, the same for both forkers, through viem (package.json's version; the http transport with
// retryCount 0, cacheTime 0, pollingInterval 5 ms), every call awaited before the next, as a test
// file's calls are:
//   1. balanceOf of every holder (HOLDERS eth_calls: each touches a storage slot of the token first)
//   2. getBalance and getTransactionCount of the first ACCOUNTS holders (accounts touched first)
//   3. getCode of the token
//   4. anvil_impersonateAccount(holder 0), a token transfer sent as it (eth_sendTransaction: the
//      forker fills nonce, gas and fees) awaited to its receipt
//   5. balanceOf of every holder again (now in the forker's memory), checked against the transfer
// Every result is checked (balances, code, nonces, the receipt), so a forker that reads wrong fails.
//
// The forkers run one after the other, each a child process started here and stopped before the next
// starts (the machine may have two cores), each in turn cold then warm:
//   - this node: node dist/avalanche-emulator.js --dev --db-type=leveldb --http-port=<free>
//     --data-dir=<tmp> --log-level=off --fork-url=<proxy> --fork-block-number=<n>; its fork cache is
//     <data-dir>/db/fork-cache. Cold: a fresh data dir. Warm: a new process on another fresh data dir
//     whose db/fork-cache is a symlink to the cold run's fork cache (a new chain, the same cache).
//     The fork's other flags are left at their defaults (--compute-units-per-second=0: unpaced).
//   - Anvil: node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil --fork-url <proxy>
//     --fork-block-number <n> --port <free> --silent, HOME at a fresh temp dir. Cold: that HOME is
//     empty (its RPC cache, ~/.foundry/cache/rpc/<chain>/<block>/storage.json, is written when Anvil
//     stops). Warm: a new process with the same HOME, so it reads that storage cache.
// Each is stopped with SIGTERM and waited for (this node closes its LevelDB, Anvil writes its cache).
// Start-up is from spawn to the first eth_blockNumber that answers the fork block (polled every 5 ms
// on the port given), the suite from then to its end. Forker CPU is its process's user + system time
// (/proc) over its whole life; upstream CPU is what the upstream spent while that forker ran.
// ROUNDS rounds are run (the order node/Anvil alternates so neither always finds the upstream warmer)
// and the table shows the median of each timing; request counts are from the last round (they do not
// change from round to round unless a forker is nondeterministic, and the script says so if they do).
// Last, the same suite runs once on the upstream itself (this node, no fork, memdb): the column
// "upstream, no fork" is what the suite costs this node when nothing is forked, a floor for its forks
// (its CPU is the suite's only). Two more tables give the upstream requests and calls of each phase
// (start-up included) and by method.
//
// Then, where there is a forge (FORGE=/path/to/forge, else node_modules/@foundry-rs/forge-linux-amd64/
// bin/forge; otherwise one line says the phase was skipped and why), the same suite as a forge test:
// scripts/bench/forge (foundry.toml, offline; test/ForkBench.t.sol: balanceOf of every holder, the
// balance and nonce of ACCOUNTS, the token's code hash, a vm.prank transfer, the balances again; the
// addresses come in FORK_BENCH_* env vars). forge needs a solc: no native one is downloaded, the npm
// solc serves as one through scripts/bench/forge/solc.mjs (--version and --standard-json, behind a
// shell shim that forge runs with --use). The project is copied to a temp dir and built once (timed),
// then `forge test --fork-url <url> --fork-block-number <n> --json` runs on three targets: this node's
// fork, Anvil's fork (each a fresh forker on the proxy, then a second counting proxy between forge and
// it, so forge's own calls are counted too) and, for reference, the upstream itself through the proxy.
// On each, three runs, HOME at a fresh temp dir per target: cold (a fresh forker, forge's RPC cache
// empty), warm (the same forker, forge's cache off: --no-storage-caching) and cached (the same forker,
// forge's own cache from the cold run). forge 1.7.1 caches fork state for every endpoint by default,
// localhost included (rpc_storage_caching endpoints = "all"; only chain ids 99, 1337 and 31337 are
// never cached), in ~/.foundry/cache/rpc/<chain id>/<block>/storage.json: keyed by chain and block, not
// by URL, so one HOME shared by two forkers of the same block would hand the second the first one's
// cache. Timed: forge's process from spawn to exit and the test's own duration as forge reports it.
//
// Anvil forks a coreth upstream as it is (no --chain-id, --fork-chain-id or --no-storage-caching
// needed; coreth's extra header fields are ignored). It first asks eth_getAccountInfo, which coreth
// does not have (-32601), then falls back to eth_getBalance + eth_getTransactionCount + eth_getCode
// per account: both show in the by-method table.
//
// Usage:  npm run build && npm run bench:fork         (= node scripts/bench/fork.mjs)
//   HOLDERS=300  ACCOUNTS=50  FUNDED=20  BATCH=50  ROUNDS=3
//   ONLY=node,anvil (a subset of the forkers; ratios need both)
//   PROFILE_DIR=<dir> (this node runs with node --cpu-prof, writes a profile of each run there, and
//     the script prints each phase's heaviest frames by self time; <profile>.phases.json beside each
//     holds the phases' ends in CLOCK_MONOTONIC µs, the profile's clock; profiling slows the node down)
//   NODE_ARGS='--v8-flag ...' (node's own flags for this node's forks, before the emulator's script)
//   EMULATOR_CLI=<path> runs another build as the forker (e.g. a copy of dist/ from before a change),
//     for an A/B; the upstream stays dist/'s
//   TRACE=1 (the proxy prints each upstream request to stderr)
//   FORGE=/path/to/forge (forge 1.7.1's binary; FORGE=off skips the forge phase)
// Exits 1 when a forker failed or a check did not hold (the others still run and print).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import solc from 'solc';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  keccak256,
  parseGwei,
  http as viemHttp,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CLI, compileTestToken, cpuSeconds, envIntOf, freePort, leftovers, pct, ROOT } from './common.mjs';

const envInt = envIntOf('bench:fork');
const HOLDERS = envInt('HOLDERS', 300);
const ACCOUNTS = Math.min(envInt('ACCOUNTS', 50), HOLDERS);
const FUNDED = Math.min(envInt('FUNDED', 20), HOLDERS);
const BATCH = envInt('BATCH', 50);
const ROUNDS = envInt('ROUNDS', 3);
const NODE_ARGS = (process.env.NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
/** TRACE=1: the proxy prints every upstream request (its calls, params cut short) to stderr. */
const TRACE = process.env.TRACE === '1';
const PROFILE_DIR = process.env.PROFILE_DIR ? path.resolve(process.env.PROFILE_DIR) : '';
const ONLY = (process.env.ONLY || 'node,anvil')
  .split(',')
  .map((s) => s.trim().toLowerCase())
  .filter(Boolean);
const ANVIL = path.join(ROOT, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil');
const POLL_MS = 5;
/** The node's deterministic --test-accounts keys (vms/avm/testaccounts.ts): account 0 deploys and sends. */
const DEPLOYER = privateKeyToAccount(`0x${createHash('sha256').update('avalanche-emulator test account 0').digest('hex')}`);
const SUPPLY = 10n ** 24n;
const GAS_PRICE = parseGwei('100');
/** The holders: distinct addresses that hold nothing before the history below. */
const holders = Array.from({ length: HOLDERS }, (_, i) => `0x${(0xb0000 + i).toString(16).padStart(40, '0')}`);
const amountOf = (i) => 1000n + BigInt(i);
const ONE_AVAX = 10n ** 18n;

for (const k of ONLY) if (!['node', 'anvil'].includes(k)) fail(`ONLY=${process.env.ONLY}: ${k} is neither node nor anvil`);
if (!existsSync(CLI)) fail('dist/ is missing; run npm run build first');
const EMULATOR_CLI = process.env.EMULATOR_CLI ? path.resolve(process.env.EMULATOR_CLI) : CLI;
if (!existsSync(EMULATOR_CLI)) fail(`${EMULATOR_CLI} is missing`);

function fail(message) {
  console.error(`bench:fork: ${message}`);
  process.exit(1);
}

// --- Children and temp dirs ----------------------------------------------------------------------------
const { children, dirs, servers, cleanup, tempDir } = leftovers();

function spawnChild(cmd, args, env = process.env) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr = (stderr + c).slice(-2000);
  });
  child.stderrTail = () => stderr.trim().split('\n').slice(-3).join(' | ');
  children.add(child);
  return child;
}

/** Stops a child with SIGTERM (a clean stop: caches written, profiles too) and waits for it; SIGKILL after 20 s. */
async function stopChild(child) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
  children.delete(child);
}

// --- JSON-RPC -----------------------------------------------------------------------------------------
async function post(url, payload) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
  return res.json();
}

/** One bare JSON-RPC call (set-up only; the suite goes through viem). */
async function rpc(url, method, params = []) {
  const body = await post(url, { jsonrpc: '2.0', id: 1, method, params });
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

// --- The upstream and its history ---------------------------------------------------------------------------
async function startUpstream() {
  const dir = await tempDir('bench-fork-upstream-');
  const port = await freePort();
  const t0 = performance.now();
  const child = spawnChild(process.execPath, [
    CLI,
    '--dev',
    '--test-accounts=2',
    '--db-type=memdb',
    `--http-port=${port}`,
    `--data-dir=${dir}`,
    '--log-level=off',
  ]);
  const url = `http://127.0.0.1:${port}/ext/bc/C/rpc`;
  const startMs = await waitFor(url, child, 'the upstream', () => true, t0);
  return { child, dir, url, startMs };
}

/** Deploys the token and gives it HOLDERS holders (and FUNDED of them 1 AVAX): signed raw txs, BATCH a request. */
async function makeHistory(url, token) {
  const chainId = Number(await rpc(url, 'eth_chainId'));
  let nonce = Number(await rpc(url, 'eth_getTransactionCount', [DEPLOYER.address, 'pending']));
  const sign = (fields) => DEPLOYER.signTransaction({ type: 'legacy', chainId, nonce: nonce++, gasPrice: GAS_PRICE, ...fields });
  const txs = [await sign({ gas: 3_000_000n, data: encodeDeployData({ abi: token.abi, bytecode: token.bytecode, args: ['Fork Bench', 'FB', SUPPLY] }) })];
  // The token's address: the deployer's first contract at this nonce (CREATE).
  const deployNonce = nonce - 1;
  const address = getContractAddress({ from: DEPLOYER.address, nonce: BigInt(deployNonce) });
  for (const [i, h] of holders.entries()) {
    txs.push(await sign({ gas: 100_000n, to: address, data: encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [h, amountOf(i)] }) }));
  }
  for (const h of holders.slice(0, FUNDED)) txs.push(await sign({ gas: 21_000n, to: h, value: ONE_AVAX }));
  let last;
  for (let i = 0; i < txs.length; i += BATCH) {
    const replies = await post(
      url,
      txs.slice(i, i + BATCH).map((raw, j) => ({ jsonrpc: '2.0', id: i + j, method: 'eth_sendRawTransaction', params: [raw] })),
    );
    for (const r of replies) if (r.error) throw new Error(`eth_sendRawTransaction: ${r.error.message}`);
    last = replies.at(-1).result;
  }
  for (const deadline = Date.now() + 60_000; ; await sleep(20)) {
    const receipt = await rpc(url, 'eth_getTransactionReceipt', [last]);
    if (receipt) {
      if (receipt.status !== '0x1') throw new Error("the history's last tx failed");
      break;
    }
    if (Date.now() > deadline) throw new Error('the history was not mined within 60 s');
  }
  if ((await rpc(url, 'eth_getCode', [address, 'latest'])) !== token.deployedBytecode) throw new Error('the token was not deployed');
  return { address, txs: txs.length, forkBlock: BigInt(await rpc(url, 'eth_blockNumber')) };
}

// --- The counting proxy ------------------------------------------------------------------------------------
/** A proxy to `target` (every POST goes to its path) that counts what passes; `proxy.take()` answers and resets the counts. */
async function startProxy(target) {
  const to = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const fresh = () => ({ http: 0, calls: 0, batches: 0, maxBatch: 0, methods: new Map(), upstreamMs: 0, bytesIn: 0, bytesOut: 0, errors: 0 });
  let counts = fresh();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const c = counts;
      c.http++;
      c.bytesOut += body.length;
      try {
        const parsed = JSON.parse(body.toString('utf8'));
        const calls = Array.isArray(parsed) ? parsed : [parsed];
        c.calls += calls.length;
        if (Array.isArray(parsed)) {
          c.batches++;
          c.maxBatch = Math.max(c.maxBatch, calls.length);
        }
        for (const call of calls) c.methods.set(call?.method, (c.methods.get(call?.method) ?? 0) + 1);
        if (TRACE)
          console.error(
            `  upstream <- ${calls
              .map(
                (x) =>
                  `${x?.method}(${JSON.stringify(x?.params ?? [])
                    .slice(1, -1)
                    .slice(0, 90)})`,
              )
              .join(', ')}`,
          );
      } catch {
        c.errors++;
      }
      const t0 = performance.now();
      const out = http.request(
        to,
        { method: 'POST', agent, headers: { 'content-type': req.headers['content-type'] ?? 'application/json', 'content-length': body.length } },
        (up) => {
          const back = [];
          up.on('data', (b) => back.push(b));
          up.on('end', () => {
            const reply = Buffer.concat(back);
            c.upstreamMs += performance.now() - t0;
            c.bytesIn += reply.length;
            res.writeHead(up.statusCode ?? 502, { 'content-type': up.headers['content-type'] ?? 'application/json', 'content-length': reply.length });
            res.end(reply);
          });
        },
      );
      out.on('error', (err) => {
        c.errors++;
        res.writeHead(502, { 'content-type': 'text/plain' }).end(String(err));
      });
      out.end(body);
    });
  });
  server.keepAliveTimeout = 120_000;
  servers.add(server);
  const port = await freePort();
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${port}${to.pathname}`,
    /** HTTP requests and JSON-RPC calls so far. */
    peek: () => ({ http: counts.http, calls: counts.calls }),
    take() {
      const c = counts;
      counts = fresh();
      return c;
    },
    close: () => {
      server.close();
      servers.delete(server);
      agent.destroy();
    },
  };
}

// --- Forkers -------------------------------------------------------------------------------------------------
/** Polls eth_blockNumber until it answers as `ok` wants; the ms from `t0`. */
async function waitFor(url, child, name, ok, t0 = performance.now()) {
  for (const deadline = Date.now() + 60_000; ; await sleep(POLL_MS)) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}): ${child.stderrTail()}`);
    if (Date.now() > deadline) throw new Error(`${name} did not answer eth_blockNumber within 60 s`);
    try {
      const body = await post(url, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
      if (body.result !== undefined && ok(BigInt(body.result))) return performance.now() - t0;
    } catch {}
  }
}

/** This node forking `forkUrl`; `cacheFrom`: the data dir of a run whose fork cache to use (warm). */
async function startNodeFork({ forkUrl, forkBlock, cacheFrom, label }) {
  const dir = await tempDir('bench-fork-node-');
  if (cacheFrom) {
    await mkdir(path.join(dir, 'db'), { recursive: true });
    await symlink(path.join(cacheFrom, 'db', 'fork-cache'), path.join(dir, 'db', 'fork-cache'), 'dir');
  }
  const port = await freePort();
  const profileFile = PROFILE_DIR ? path.join(PROFILE_DIR, `node-${label}-${Date.now()}.cpuprofile`) : '';
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${path.basename(profileFile)}`] : [];
  const args = [
    ...profile,
    ...NODE_ARGS,
    EMULATOR_CLI,
    '--dev',
    '--db-type=leveldb',
    `--http-port=${port}`,
    `--data-dir=${dir}`,
    '--log-level=off',
    `--fork-url=${forkUrl}`,
    `--fork-block-number=${forkBlock}`,
  ];
  const marks = [['spawn', monotonicUs()]];
  const t0 = performance.now();
  const child = spawnChild(process.execPath, args);
  const url = `http://127.0.0.1:${port}/ext/bc/C/rpc`;
  const startMs = await waitFor(url, child, 'the node', (n) => n === forkBlock, t0);
  marks.push(['start-up', monotonicUs()]);
  return { child, dir, url, startMs, profileFile, marks };
}

/** Anvil forking `forkUrl`, its HOME (and so its RPC cache) at `home`. */
async function startAnvilFork({ forkUrl, forkBlock, home }) {
  if (!existsSync(ANVIL)) throw new Error(`${path.relative(ROOT, ANVIL)} is missing (npm install)`);
  const port = await freePort();
  const args = ['--fork-url', forkUrl, '--fork-block-number', String(forkBlock), '--port', String(port), '--silent'];
  const t0 = performance.now();
  const child = spawnChild(ANVIL, args, { ...process.env, HOME: home });
  const url = `http://127.0.0.1:${port}`;
  const startMs = await waitFor(url, child, 'anvil', (n) => n === forkBlock, t0);
  return { child, url, startMs };
}

// --- The suite ---------------------------------------------------------------------------------------------------
const PHASES = [
  ['slots', () => `balanceOf x${HOLDERS} (first touch)`],
  ['accounts', () => `getBalance + getTransactionCount x${ACCOUNTS}`],
  ['code', () => 'getCode of the token'],
  ['send', () => 'impersonated transfer to its receipt'],
  ['again', () => `balanceOf x${HOLDERS} again`],
];

function check(what, got, want) {
  if (String(got) !== String(want)) throw new Error(`check failed: ${what}: got ${got}, expected ${want}`);
}

/** The suite on a forker at `url`; the ms of each phase, the client's JSON-RPC requests. */
async function runSuite(url, chainId, token, tokenAddress, peek = () => undefined, marks = []) {
  let requests = 0;
  const chain = defineChain({
    id: chainId,
    name: `fork of ${chainId}`,
    nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  const transport = viemHttp(url, {
    retryCount: 0,
    onFetchRequest: () => {
      requests++;
    },
  });
  const client = createPublicClient({ chain, transport, cacheTime: 0, pollingInterval: POLL_MS });
  const balanceOf = (who) => client.readContract({ address: tokenAddress, abi: token.abi, functionName: 'balanceOf', args: [who] });
  const ms = {};
  /** Upstream requests and calls made in each phase (from the proxy); `start` is what came before the suite. */
  const upstream = { start: peek() };
  let t = performance.now();
  let before = upstream.start;
  const lap = (key) => {
    const now = performance.now();
    ms[key] = now - t;
    t = now;
    marks.push([key, monotonicUs()]);
    const counts = peek();
    if (counts && before) upstream[key] = { http: counts.http - before.http, calls: counts.calls - before.calls };
    before = counts;
  };

  for (const [i, h] of holders.entries()) check(`balanceOf(holder ${i})`, await balanceOf(h), amountOf(i));
  lap('slots');
  for (const [i, h] of holders.slice(0, ACCOUNTS).entries()) {
    check(`getBalance(holder ${i})`, await client.getBalance({ address: h }), i < FUNDED ? ONE_AVAX : 0n);
    check(`getTransactionCount(holder ${i})`, await client.getTransactionCount({ address: h }), 0);
  }
  lap('accounts');
  check('getCode(token)', await client.getCode({ address: tokenAddress }), token.deployedBytecode);
  lap('code');
  const whale = holders[0];
  const to = holders[1];
  await client.request({ method: 'anvil_impersonateAccount', params: [whale] });
  const wallet = createWalletClient({ account: whale, chain, transport, cacheTime: 0, pollingInterval: POLL_MS });
  const hash = await wallet.writeContract({ address: tokenAddress, abi: token.abi, functionName: 'transfer', args: [to, 100n] });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: POLL_MS });
  check('the impersonated transfer', receipt.status, 'success');
  lap('send');
  for (const [i, h] of holders.entries()) check(`balanceOf(holder ${i}) after`, await balanceOf(h), amountOf(i) + (i === 0 ? -100n : i === 1 ? 100n : 0n));
  lap('again');
  ms.total = Object.values(ms).reduce((a, b) => a + b, 0);
  return { ms, requests, upstream };
}

/** System CPU seconds a process has used so far, from /proc (NaN where there is none). */
async function sysSeconds(pid) {
  try {
    return Number((await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ')[12]) / 100;
  } catch {
    return NaN;
  }
}

// --- Runs ----------------------------------------------------------------------------------------------------------
/**
 * One forker's cold and warm runs: [{ run, startMs, ms, requests, proxy, cpu, upstreamCpu }] or { error }.
 * Each run starts a forker, runs the suite and stops the forker.
 */
async function runForker(key, ctx, round) {
  const results = [];
  const home = key === 'anvil' ? await tempDir('bench-fork-anvil-home-') : undefined;
  let coldDir;
  for (const run of ['cold', 'warm']) {
    ctx.proxy.take();
    const up0 = await cpuSeconds(ctx.upstream.child.pid);
    let side;
    try {
      side =
        key === 'node'
          ? await startNodeFork({ forkUrl: ctx.proxy.url, forkBlock: ctx.forkBlock, cacheFrom: run === 'warm' ? coldDir : undefined, label: `${run}-${round}` })
          : await startAnvilFork({ forkUrl: ctx.proxy.url, forkBlock: ctx.forkBlock, home });
      const suite = await runSuite(side.url, ctx.chainId, ctx.token, ctx.tokenAddress, ctx.proxy.peek, side.marks);
      const cpu = await cpuSeconds(side.child.pid);
      const sys = await sysSeconds(side.child.pid);
      await stopChild(side.child);
      if (side.profileFile) await writeFile(side.profileFile.replace(/\.cpuprofile$/, '.phases.json'), JSON.stringify(side.marks));
      if (side.profileFile) ctx.profiles.push({ label: `${LABELS[key]} ${run}, round ${round}`, file: side.profileFile, marks: side.marks });
      results.push({ run, startMs: side.startMs, ...suite, cpu, sys, upstreamCpu: (await cpuSeconds(ctx.upstream.child.pid)) - up0, proxy: ctx.proxy.take() });
      if (run === 'cold') coldDir = side.dir;
    } catch (e) {
      if (side) await stopChild(side.child);
      results.push({ run, error: String(e?.shortMessage ?? e?.message ?? e).split('\n')[0], proxy: ctx.proxy.take() });
      break;
    }
  }
  if (home) {
    await rm(home, { recursive: true, force: true });
    dirs.delete(home);
  }
  return results;
}

// --- forge test ----------------------------------------------------------------------------------------------------
const FORGE_PROJECT = path.join(ROOT, 'scripts/bench/forge');
const FORGE_SOLC = path.join(FORGE_PROJECT, 'solc.mjs');
const FORGE_SUITE = 'test/ForkBench.t.sol:ForkBenchTest';
const FORGE_TEST = 'testForkSuite()';
/** The forge runs on each target, in this order: [run, forge's RPC cache on, what it is]. */
const FORGE_RUNS = [
  ['cold', true, "nothing fetched yet: a fresh forker, forge's cache empty"],
  ['warm', false, "the same forker again, forge's cache off (--no-storage-caching)"],
  ['cached', true, "the same forker again, forge's own cache from the cold run"],
];
const FORGE_LABELS = { node: 'this node', anvil: 'Anvil', upstream: 'upstream' };

/** forge: FORGE=<path> (FORGE=off: none), else the npm package's binary; { bin, version } or { skip: why }. */
function findForge() {
  const env = process.env.FORGE ?? '';
  if (env === 'off' || env === '0') return { skip: 'FORGE=off' };
  const bin = env ? path.resolve(env) : path.join(ROOT, 'node_modules/@foundry-rs/forge-linux-amd64/bin/forge');
  if (!existsSync(bin)) {
    return {
      skip: env ? `FORGE=${env}: no such file` : `no forge at ${path.relative(ROOT, bin)} (install @foundry-rs/forge-linux-amd64, or set FORGE=/path/to/forge)`,
    };
  }
  try {
    return { bin, version: /\d+\.\d+\.\d+/.exec(execFileSync(bin, ['--version'], { encoding: 'utf8' }))?.[0] ?? '?' };
  } catch (e) {
    return { skip: `${bin} --version failed: ${String(e?.message ?? e).split('\n')[0]}` };
  }
}

/** A word of shell, single-quoted. */
const shellWord = (s) => `'${String(s).replaceAll("'", "'\\''")}'`;

/**
 * A copy of scripts/bench/forge in a temp dir (forge writes its out/ and cache/ there), a solc for
 * forge beside it (a shell shim: --version answered at once, in native solc's format, the rest by
 * solc.mjs: the npm solc), and the test compiled once with it (`forge build`, timed).
 */
async function prepareForge(forge) {
  const dir = await tempDir('bench-fork-forge-');
  await mkdir(path.join(dir, 'test'));
  await writeFile(path.join(dir, 'foundry.toml'), await readFile(path.join(FORGE_PROJECT, 'foundry.toml')));
  for (const name of await readdir(path.join(FORGE_PROJECT, 'test'))) {
    await writeFile(path.join(dir, 'test', name), await readFile(path.join(FORGE_PROJECT, 'test', name)));
  }
  const shim = path.join(dir, 'solc');
  await writeFile(
    shim,
    [
      '#!/bin/sh',
      `if [ "$1" = "--version" ] && [ $# -eq 1 ]; then printf '%s\\n' 'solc, the solidity compiler commandline interface' ${shellWord(`Version: ${solc.version()}`)}; exit 0; fi`,
      `exec ${shellWord(process.execPath)} ${shellWord(FORGE_SOLC)} "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const home = await tempDir('bench-fork-forge-home-');
  const t0 = performance.now();
  const out = await runForge(forge.bin, ['build', '--root', dir, '--use', shim], { cwd: dir, env: { ...process.env, HOME: home } });
  if (out.code !== 0) throw new Error(`forge build failed (${out.code}): ${(out.stderr || out.stdout).trim().split('\n').slice(-5).join(' | ')}`);
  return { dir, shim, compileMs: performance.now() - t0 };
}

/** Runs forge to its end: { code, stdout, stderr }. */
function runForge(bin, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const out = [];
    const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      children.delete(child);
      resolve({ code: code ?? signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** forge's durations ("1s 234ms 5µs 6ns", humantime's format) in ms. */
function durationMs(text) {
  const unit = { h: 3_600_000, m: 60_000, min: 60_000, s: 1000, ms: 1, µs: 1e-3, us: 1e-3, ns: 1e-6 };
  let ms = 0;
  for (const [, n, u] of String(text).matchAll(/(\d+(?:\.\d+)?)\s*(ns|µs|us|ms|min|s|m|h)\b/g)) ms += Number(n) * unit[u];
  return ms;
}

/** Sizes of the storage caches forge wrote under `home` (~/.foundry/cache/rpc/<chain>/<block>/storage.json): { files, bytes }. */
async function forgeCacheOf(home) {
  const root = path.join(home, '.foundry', 'cache', 'rpc');
  const found = { files: [], bytes: 0 };
  const walk = async (dir) => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else {
        found.files.push(path.relative(root, p));
        found.bytes += (await stat(p)).size;
      }
    }
  };
  await walk(root);
  return found;
}

/** One `forge test` of the bench's test on a fork of `url` at the fork block: { ms, testMs, suiteMs }; throws when the test failed. */
async function forgeTest(forge, project, ctx, { url, home, caching }) {
  const args = ['test', '--root', project.dir, '--use', project.shim, '--fork-url', url, '--fork-block-number', String(ctx.forkBlock), '--json'];
  if (!caching) args.push('--no-storage-caching');
  const env = {
    ...process.env,
    HOME: home,
    FORK_BENCH_TOKEN: ctx.tokenAddress,
    FORK_BENCH_HOLDERS: holders.join(','),
    FORK_BENCH_AMOUNT0: String(amountOf(0)),
    FORK_BENCH_ACCOUNTS: String(ACCOUNTS),
    FORK_BENCH_FUNDED: String(FUNDED),
    FORK_BENCH_CODEHASH: keccak256(ctx.token.deployedBytecode),
  };
  const t0 = performance.now();
  const out = await runForge(forge.bin, args, { cwd: project.dir, env });
  const ms = performance.now() - t0;
  let suite;
  try {
    suite = JSON.parse(out.stdout.slice(out.stdout.indexOf('{')))[FORGE_SUITE];
  } catch {}
  const test = suite?.test_results?.[FORGE_TEST];
  if (!test) throw new Error(`forge test (${out.code}) ran no ${FORGE_TEST}: ${(out.stderr || out.stdout).trim().split('\n').slice(-3).join(' | ')}`);
  if (test.status !== 'Success') throw new Error(`forge test: ${test.status}: ${test.reason ?? ''}`);
  return { ms, testMs: durationMs(test.duration), suiteMs: durationMs(suite.duration) };
}

/**
 * The forge runs on one target: `node` (this node forking the upstream, cold), `anvil` (likewise) or
 * `upstream` (forge forking the upstream itself, through the proxy). Between forge and a forker is a
 * second counting proxy, so forge's own requests are counted too (for the upstream they are the
 * upstream's). Answers [{ run, ms, testMs, client, upstream, cpu, upstreamCpu, cache }] (an { run, error } last on failure).
 */
async function runForgeTarget(key, ctx, forge, project, round) {
  const results = [];
  const home = await tempDir('bench-fork-forge-home-');
  const anvilHome = key === 'anvil' ? await tempDir('bench-fork-anvil-home-') : undefined;
  let side;
  let client;
  let run = 'start-up';
  try {
    ctx.proxy.take();
    if (key === 'node') side = await startNodeFork({ forkUrl: ctx.proxy.url, forkBlock: ctx.forkBlock, label: `forge-${round}` });
    if (key === 'anvil') side = await startAnvilFork({ forkUrl: ctx.proxy.url, forkBlock: ctx.forkBlock, home: anvilHome });
    if (side) client = await startProxy(side.url);
    const startup = ctx.proxy.take();
    for (const [name, caching] of FORGE_RUNS) {
      run = name;
      ctx.proxy.take();
      client?.take();
      const cpu0 = side ? await cpuSeconds(side.child.pid) : NaN;
      const up0 = await cpuSeconds(ctx.upstream.child.pid);
      const r = await forgeTest(forge, project, ctx, { url: client ? client.url : ctx.proxy.url, home, caching });
      const upstream = ctx.proxy.take();
      results.push({
        run,
        ...r,
        startup: run === 'cold' ? startup : undefined,
        upstream,
        client: client ? client.take() : upstream,
        cpu: side ? (await cpuSeconds(side.child.pid)) - cpu0 : NaN,
        upstreamCpu: (await cpuSeconds(ctx.upstream.child.pid)) - up0,
        cache: await forgeCacheOf(home),
      });
    }
  } catch (e) {
    results.push({ run, error: String(e?.shortMessage ?? e?.message ?? e).split('\n')[0] });
  } finally {
    client?.close();
    if (side) await stopChild(side.child);
    for (const d of [home, anvilHome, side?.dir]) {
      if (!d) continue;
      await rm(d, { recursive: true, force: true });
      dirs.delete(d);
    }
  }
  return results;
}

/** The forge phase's table: medians over rounds of the times, the last round's counts; then calls by method. */
function reportForge(forgeRounds, forge, project) {
  const all = byForker(forgeRounds);
  const keys = Object.keys(FORGE_LABELS).filter((k) => all[k]);
  const columns = keys.flatMap((k) =>
    FORGE_RUNS.map(([run]) => ({ key: k, run, label: `${FORGE_LABELS[k]} ${run}`, results: (all[k][run] ?? []).filter((r) => !r.error) })),
  );
  const anvilOf = (c) => columns.find((a) => a.key === 'anvil' && a.run === c.run);
  const cell = (c, f, digits = f0, ratio = true) => {
    if (!c.results.length) return all[c.key]?.[c.run]?.length ? 'error' : 'not run';
    const v = median(c.results.map(f));
    const a = ratio && c.key === 'node' && anvilOf(c)?.results.length ? median(anvilOf(c).results.map(f)) : NaN;
    return Number.isFinite(a) && a > 0 ? `${digits(v)} (${f2(v / a)}x)` : digits(v);
  };
  const count = (c, f) => (c.results.length ? String(f(c.results.at(-1))) : '-');
  console.log(
    `\nforge test on each fork: forge ${forge.version}, the test compiled once (forge build) with the npm solc ${solc.version()} through scripts/bench/forge/solc.mjs in ${f1(project.compileMs / 1000)} s.`,
  );
  console.log(
    `Median of ${ROUNDS} round(s); (x) = this node / Anvil, same run kind. Runs: ${FORGE_RUNS.map(([run, , what]) => `${run} = ${what}`).join('; ')}.`,
  );
  const lines = [['', ...columns.map((c) => c.label)]];
  lines.push(['forge test, ms (spawn to exit)', ...columns.map((c) => cell(c, (r) => r.ms))]);
  lines.push(["  the test's own duration, ms (forge's)", ...columns.map((c) => cell(c, (r) => r.testMs))]);
  lines.push(['forker CPU s in the run', ...columns.map((c) => (c.key === 'upstream' ? '-' : cell(c, (r) => r.cpu, f2, false)))]);
  lines.push(['upstream CPU s in the run', ...columns.map((c) => cell(c, (r) => r.upstreamCpu, f2, false))]);
  lines.push(["forge's HTTP requests / JSON-RPC calls", ...columns.map((c) => count(c, (r) => `${r.client.http} / ${r.client.calls}`))]);
  lines.push(['upstream HTTP requests / JSON-RPC calls', ...columns.map((c) => count(c, (r) => `${r.upstream.http} / ${r.upstream.calls}`))]);
  lines.push(['  upstream bytes received, kB', ...columns.map((c) => count(c, (r) => f0(r.upstream.bytesIn / 1024)))]);
  lines.push([
    '  before it: the forker start-up',
    ...columns.map((c) => count(c, (r) => (r.startup && c.key !== 'upstream' ? `${r.startup.http} / ${r.startup.calls}` : '-'))),
  ]);
  lines.push(["forge's RPC cache after the run, kB (files)", ...columns.map((c) => count(c, (r) => `${f1(r.cache.bytes / 1024)} (${r.cache.files.length})`))]);
  printLines(lines);
  const cacheFiles = [...new Set(columns.flatMap((c) => c.results.flatMap((r) => r.cache.files)))];
  if (cacheFiles.length) console.log(`  forge's RPC cache: ~/.foundry/cache/rpc/${cacheFiles.join(', ')}`);
  for (const [what, of] of [
    ["forge's JSON-RPC calls by method (last round)", (r) => r.client.methods],
    ['Upstream JSON-RPC calls by method in the forge runs (last round)', (r) => r.upstream.methods],
  ]) {
    const methods = [...new Set(columns.flatMap((c) => (c.results.length ? [...of(c.results.at(-1)).keys()] : [])))].sort();
    if (!methods.length) continue;
    console.log(`\n${what}`);
    const ml = [['', ...columns.map((c) => c.label)]];
    for (const m of methods) ml.push([String(m), ...columns.map((c) => count(c, (r) => of(r).get(m) ?? 0))]);
    printLines(ml);
  }
  for (const k of keys) {
    for (const r of Object.values(all[k]).flat()) if (r.error) console.log(`  forge on ${FORGE_LABELS[k]} failed (${r.run}): ${r.error}`);
  }
}

// --- Profiles --------------------------------------------------------------------------------------------------------
/** CLOCK_MONOTONIC in µs: the clock of V8's CPU profiles (startTime, endTime), so phases can be cut out of them. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** Where a profile frame's code is: a package, a file of dist/, a node: module, or V8's own (GC, idle, native). */
function whereOf(url) {
  if (!url) return '(V8: native, GC, idle)';
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  return url.replace(/^file:\/\//, '').replace(/.*\/dist\//, 'dist/');
}

/**
 * Prints, for each phase of a profiled run of this node, the ms sampled and the heaviest frames by self
 * time ("where" and function), from the profile node --cpu-prof wrote when the process stopped.
 */
async function printProfile({ label, file, marks }) {
  let profile;
  try {
    profile = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    console.log(`\n${label}: no profile at ${file}`);
    return;
  }
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const phases = marks.slice(1).map(([name], i) => ({ name, from: marks[i][1], to: marks[i + 1][1], total: 0, self: new Map() }));
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    const phase = phases.find((p) => at > p.from && at <= p.to);
    if (!phase) continue;
    const f = frames.get(profile.samples[i]);
    const key = f.url ? `${whereOf(f.url)} ${f.functionName || '(anonymous)'}` : f.functionName || '(anonymous)';
    phase.total += dt;
    phase.self.set(key, (phase.self.get(key) ?? 0) + dt);
  }
  console.log(`\n${label}: self time by phase (ms sampled; (idle) is waiting on I/O, the upstream included) — ${file}`);
  for (const p of phases) {
    const top = [...p.self].sort((a, b) => b[1] - a[1]).slice(0, 6);
    console.log(`  ${p.name}: ${f0(p.total / 1000)} ms; ${top.map(([k, v]) => `${k} ${f0(v / 1000)}`).join(', ')}`);
  }
}

// --- Report -------------------------------------------------------------------------------------------------------------
const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : '-');
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
const median = (xs) =>
  pct(
    xs.filter(Number.isFinite).sort((a, b) => a - b),
    0.5,
  );

function printLines(lines) {
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => String(l[i]).length)));
  for (const l of lines) console.log(`  ${l.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('   ')}`);
}

/** rounds[r][key] = [cold, warm]; answers { key: { run: [results over rounds] } }. */
function byForker(rounds) {
  const out = {};
  for (const round of rounds) {
    for (const [key, runs] of Object.entries(round)) {
      out[key] ??= {};
      for (const r of runs) {
        out[key][r.run] ??= [];
        out[key][r.run].push(r);
      }
    }
  }
  return out;
}

const LABELS = { node: 'this node', anvil: 'Anvil' };

function report(rounds, anvilVersion, reference) {
  const all = byForker(rounds);
  const keys = ONLY.filter((k) => all[k]);
  const columns = keys.flatMap((k) => ['cold', 'warm'].map((run) => ({ key: k, run, label: `${LABELS[k]} ${run}`, results: all[k][run] ?? [] })));
  const ok = (c) => c.results.filter((r) => !r.error);
  const med = (c, f) => median(ok(c).map(f));
  const anvilOf = (c) => columns.find((a) => a.key === 'anvil' && a.run === c.run);
  const cell = (c, f, digits = f0, ratio = true) => {
    if (c.key === 'upstream') return digits(f(c.results[0]));
    if (!ok(c).length) return c.results.length ? 'error' : 'not run';
    const v = med(c, f);
    const a = ratio && c.key === 'node' && anvilOf(c) && ok(anvilOf(c)).length ? med(anvilOf(c), f) : NaN;
    return Number.isFinite(a) && a > 0 ? `${digits(v)} (${f2(v / a)}x)` : digits(v);
  };
  const last = (c) => ok(c).at(-1);
  const count = (c, f) => (c.key !== 'upstream' && last(c) ? String(f(last(c))) : '-');
  if (reference) columns.push({ key: 'upstream', label: 'upstream, no fork', results: [reference] });

  console.log(`\nMedian of ${ROUNDS} round(s), ms; (x) = this node / Anvil, same run kind (lower is better). Anvil: ${anvilVersion}.`);
  const lines = [['', ...columns.map((c) => c.label)]];
  lines.push(['start-up to first answer, ms', ...columns.map((c) => cell(c, (r) => r.startMs))]);
  for (const [key, label] of PHASES) lines.push([`  ${label()}`, ...columns.map((c) => cell(c, (r) => r.ms[key]))]);
  lines.push(['suite, ms', ...columns.map((c) => cell(c, (r) => r.ms.total))]);
  lines.push(['start-up + suite, ms', ...columns.map((c) => cell(c, (r) => r.startMs + r.ms.total))]);
  lines.push(['forker CPU s (whole life)', ...columns.map((c) => cell(c, (r) => r.cpu, f2))]);
  lines.push(['  of it in the kernel (system)', ...columns.map((c) => cell(c, (r) => r.sys, f2, false))]);
  lines.push(['upstream CPU s while it ran', ...columns.map((c) => cell(c, (r) => r.upstreamCpu, f2, false))]);
  lines.push(['client JSON-RPC requests', ...columns.map((c) => (c.key === 'upstream' ? String(reference.requests) : count(c, (r) => r.requests)))]);
  lines.push(['upstream HTTP requests', ...columns.map((c) => count(c, (r) => r.proxy.http))]);
  lines.push(['upstream JSON-RPC calls', ...columns.map((c) => count(c, (r) => r.proxy.calls))]);
  lines.push([
    '  of them in batches (batches, largest)',
    ...columns.map((c) => count(c, (r) => `${batchCalls(r.proxy)} (${r.proxy.batches}, ${r.proxy.maxBatch})`)),
  ]);
  lines.push(['upstream time summed over requests, ms', ...columns.map((c) => count(c, (r) => f0(r.proxy.upstreamMs)))]);
  lines.push(['upstream bytes sent / received, kB', ...columns.map((c) => count(c, (r) => `${f0(r.proxy.bytesOut / 1024)} / ${f0(r.proxy.bytesIn / 1024)}`))]);
  printLines(lines);

  if (reference) columns.pop();
  console.log('\nUpstream HTTP requests / JSON-RPC calls by phase (last round)');
  const pl = [['', ...columns.map((c) => c.label)]];
  const phaseCount = (key) => (r) => (r.upstream[key] ? `${r.upstream[key].http} / ${r.upstream[key].calls}` : '-');
  pl.push(['start-up', ...columns.map((c) => count(c, phaseCount('start')))]);
  for (const [key, label] of PHASES) pl.push([label(), ...columns.map((c) => count(c, phaseCount(key)))]);
  printLines(pl);

  const methods = [...new Set(columns.flatMap((c) => (last(c) ? [...last(c).proxy.methods.keys()] : [])))].sort();
  if (methods.length) {
    console.log('\nUpstream JSON-RPC calls by method (last round)');
    const ml = [['', ...columns.map((c) => c.label)]];
    for (const m of methods) ml.push([String(m), ...columns.map((c) => count(c, (r) => r.proxy.methods.get(m) ?? 0))]);
    printLines(ml);
  }
  for (const c of columns) {
    const counts = new Set(ok(c).map((r) => `${r.proxy.http}/${r.proxy.calls}`));
    if (counts.size > 1) console.log(`  note: ${c.label}'s upstream requests/calls changed between rounds: ${[...counts].join(', ')}`);
    for (const r of c.results) if (r.error) console.log(`  ${c.label} failed: ${r.error}`);
  }
}

function batchCalls(p) {
  return p.calls - (p.http - p.batches);
}

function anvilVersion() {
  try {
    return /\d+\.\d+\.\d+/.exec(execFileSync(ANVIL, ['--version'], { encoding: 'utf8' }))?.[0] ?? '?';
  } catch {
    return 'missing';
  }
}

// --- Main --------------------------------------------------------------------------------------------------------------------
try {
  const started = performance.now();
  const token = compileTestToken();
  const upstream = await startUpstream();
  const t0 = performance.now();
  const history = await makeHistory(upstream.url, token);
  const chainId = Number(await rpc(upstream.url, 'eth_chainId'));
  console.log(
    `bench:fork: upstream ${upstream.url} (chain ${chainId}): ${history.txs} txs (token, ${HOLDERS} holders, ${FUNDED} funded) in ${f1((performance.now() - t0) / 1000)} s; fork block ${history.forkBlock}; ${os.cpus().length} CPUs`,
  );
  if (PROFILE_DIR) await mkdir(PROFILE_DIR, { recursive: true });
  const proxy = await startProxy(upstream.url);
  const ctx = { upstream, proxy, forkBlock: history.forkBlock, chainId, token, tokenAddress: history.address, profiles: [] };
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ONLY : [...ONLY].reverse();
    const results = {};
    for (const key of order) {
      process.stdout.write(`  round ${round + 1}/${ROUNDS}: ${LABELS[key]} cold + warm ...`);
      results[key] = await runForker(key, ctx, round + 1);
      console.log(
        results[key].map((r) => (r.error ? ` ${r.run}: error` : ` ${r.run} ${f0(r.startMs)} + ${f0(r.ms.total)} ms, ${r.proxy.http} requests`)).join(';'),
      );
    }
    rounds.push(results);
  }
  // forge test on each fork, where there is a forge (before the reference run below, which moves the
  // upstream past the fork block).
  const forge = findForge();
  let forgePhase;
  if (forge.skip) console.log(`bench:fork: forge phase skipped: ${forge.skip}`);
  else {
    let project;
    try {
      project = await prepareForge(forge);
    } catch (e) {
      console.log(`bench:fork: forge phase failed: ${String(e?.message ?? e).split('\n')[0]}`);
      process.exitCode = 1;
    }
    const targets = [...ONLY, 'upstream'];
    const forgeRounds = [];
    for (let round = 0; project && round < ROUNDS; round++) {
      const order = round % 2 === 0 ? targets : [...ONLY].reverse().concat('upstream');
      const results = {};
      for (const key of order) {
        process.stdout.write(`  forge round ${round + 1}/${ROUNDS}: ${FORGE_LABELS[key]} ...`);
        results[key] = await runForgeTarget(key, ctx, forge, project, round + 1);
        console.log(results[key].map((r) => (r.error ? ` ${r.run}: error` : ` ${r.run} ${f0(r.ms)} ms, ${r.upstream.http} upstream requests`)).join(';'));
      }
      forgeRounds.push(results);
    }
    if (project) forgePhase = { forgeRounds, forge, project };
  }
  // The same suite on the upstream itself (this node, not a fork, memdb, its state in memory): what
  // the suite costs on this node without forking, a floor for the forked runs. Run last: it changes
  // the upstream (the impersonated transfer).
  const up0 = await cpuSeconds(upstream.child.pid);
  const reference = { startMs: upstream.startMs, ...(await runSuite(upstream.url, chainId, token, history.address)) };
  reference.cpu = (await cpuSeconds(upstream.child.pid)) - up0;
  reference.sys = NaN;
  reference.upstreamCpu = NaN;
  report(rounds, anvilVersion(), reference);
  if (forgePhase) reportForge(forgePhase.forgeRounds, forgePhase.forge, forgePhase.project);
  for (const p of ctx.profiles) await printProfile(p);
  console.log(`\ntotal ${f1((performance.now() - started) / 1000)} s; load average at end: ${os.loadavg().map(f2).join(' ')}`);
  const failed = (rs) => rs.some((r) => Object.values(r).some((runs) => runs.some((x) => x.error)));
  if (failed(rounds) || (forgePhase && failed(forgePhase.forgeRounds))) process.exitCode = 1;
  proxy.close();
  await stopChild(upstream.child);
} finally {
  await cleanup();
}

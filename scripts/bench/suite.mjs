// Contract-test-suite benchmark: a Hardhat-style test suite driven through viem over HTTP, run
// against (a) Anvil 1.7.1, (b) the emulator's C-Chain and (c) an emulator L1 from fixtures/myl1.json,
// in one run. It is a benchmark, not a test: it prints tests/s and the time of each phase of a test
// (p50 and mean over TESTS tests) side by side, with each emulator chain's ratio to Anvil.
//
//   Mix 1 (ERC-20): a fixture deploys the client tests' ERC-20 (test/fixtures/contracts/TestToken.sol, compiled here with the
//   npm solc, evmVersion cancun, optimizer on) and takes evm_snapshot. Each test does what Hardhat's
//   loadFixture plus a typical token test do: evm_revert to the fixture's snapshot and evm_snapshot
//   again; two token txs (transfer to Alice, transfer to Bob), each writeContract awaited with
//   waitForTransactionReceipt; five readContract calls (balanceOf x2, totalSupply, allowance, name);
//   one getContractEvents for Transfer (from the fixture's block); one estimateContractGas.
//   Mix 2 (ERC-721): the fixture deploys a small ERC-721 and mints token 1; each test: revert and
//   snapshot, mint token 2 and transferFrom it to Alice (two txs to their receipts), five reads
//   (ownerOf, balanceOf x2, totalMinted, name), getContractEvents for Transfer, estimateContractGas.
//   Every test checks its results (balances, owners, number of logs), so a broken revert fails loudly.
//
// The servers run one after the other (never at once: the machine may have two cores), each started
// here and stopped before the next starts; children and temp dirs are removed on exit and Ctrl-C:
//   - Anvil: node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil --chain-id 43112 --port <free>
//     --silent (automine), HOME pointed at a temp dir; the ewoq key is funded with anvil_setBalance.
//   - C-Chain: node dist/avalanche-emulator.js --dev --http-port=0 --db-type=<DB_TYPE> --data-dir=<tmp>
//     --log-level=off; RPC <uri>/ext/bc/C/rpc (chain ID 43112; ewoq funded at genesis).
//   - L1: the same with --l1=fixtures/myl1.json; RPC <uri>/ext/bc/myl1/rpc (chain ID 99999; ewoq is
//     in the fixture's alloc). --dev automines on every EVM chain and turns on evm_snapshot/evm_revert.
//   - The floor, "Anvil's answers replayed": scripts/bench/replay-server.mjs, a node:http server that
//     does no work. First both mixes run on another Anvil through it as a recording proxy (not
//     measured); last, it answers a client, alone, with what Anvil answered (matched by method and
//     params, ids set to the client's). The client's own time is then nearly all of a test: what no
//     server can go below with this client, and how far ahead of Anvil a server can get at all.
// Each server gets a client of its own, a fresh process (this script, forked), the same for all:
// viem (package.json's version), one wallet client extended with the public actions, the `http`
// transport (Node's fetch, keep-alive) with retryCount 0, cacheTime 0 and pollingInterval 5 ms. The sender's balance is set with anvil_setBalance on every
// server. Its account, by ACCOUNT:
//   - local (default): privateKeyToAccount of the ewoq key: viem fills and signs each tx and sends
//     eth_sendRawTransaction. viem first tries eth_fillTransaction (one call: nonce, fees and gas),
//     which both servers answer; a server without it would get eth_getTransactionCount 'pending',
//     eth_getBlockByNumber, eth_maxPriorityFeePerGas and eth_estimateGas instead. estimateContractGas
//     prepares a whole tx for a local account, so it is an eth_fillTransaction too (three per test).
//   - node: a JSON-RPC account, the server's eth_accounts[0] (the emulator gets --test-accounts=1):
//     writeContract sends eth_sendTransaction and the server fills the tx; estimateContractGas is
//     a bare eth_estimateGas. This is how Hardhat's own viem wallet clients send.
// No nonce manager: viem's would carry nonces across evm_revert, which rolls them back. The
// servers mine each tx as it arrives (automine), so waitForTransactionReceipt's first
// eth_getTransactionReceipt nearly always finds the receipt (the emulator answers reads once the
// block is built; Anvil now and then answers a send just before, and viem then polls every 5 ms).
// The suite is sequential (Anvil 1.7.1 stalls on concurrent sends from one account anyway). Each
// mix runs WARMUP untimed tests on a server before its TESTS timed ones. After both mixes each
// server's VmRSS (/proc/<pid>/status) and CPU seconds (/proc/<pid>/stat, the suite alone and since
// start) are printed, with the JSON-RPC requests per test the client made. Each mix's table also
// gives the server's and the client's CPU per test, and, for the emulator, its own time per request
// of each JSON-RPC method, from its request journal (durationMs of the last 1,000 requests).
//
// Usage:  npm run build && npm run bench:suite       (= node scripts/bench/suite.mjs)
//   TESTS=100  WARMUP=10 (per mix and server)  DB_TYPE=memdb|leveldb (the emulator's)
//   ONLY=anvil,c,l1,floor (a subset of the servers; ratios need anvil)  ACCOUNT=local|node (see above)
//   PROFILE_DIR=<dir> (the emulator runs with node --cpu-prof and writes its profile there)
//   EMULATOR_ARGS='--flag=v ...' (more emulator flags)  NODE_ARGS='--v8-flag ...' (node's, before the emulator's script)
//   EMULATOR_CLI=<path> runs another build (e.g. a copy of dist/ from before a change), for an A/B
// Exits 1 when a server failed or a test's check did not hold (the others still run and print).
import { execFileSync, fork, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import solc from 'solc';
import { createWalletClient, defineChain, http, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CLI, cpuSeconds, envArgs, envIntOf, freePort, leftovers, pct, processUri, ROOT } from './common.mjs';

const envInt = envIntOf('bench:suite');
const TESTS = envInt('TESTS', 100);
const WARMUP = envInt('WARMUP', 10, 0);
const DB_TYPE = process.env.DB_TYPE || 'memdb';
/** Where the emulator writes a CPU profile (node --cpu-prof) of its whole run; none when unset. */
const PROFILE_DIR = process.env.PROFILE_DIR || '';
const ACCOUNT = process.env.ACCOUNT || 'local';
const ONLY = (process.env.ONLY || 'anvil,c,l1,floor')
  .split(',')
  .map((s) => s.trim().toLowerCase())
  .filter(Boolean);
const ANVIL = path.join(ROOT, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil');
const TOKEN_SOURCE = path.join(ROOT, 'test/fixtures/contracts/TestToken.sol');
const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const ALICE = '0x00000000000000000000000000000000000A11cE';
const BOB = '0x0000000000000000000000000000000000000B0b';
const SUPPLY = 1_000_000n * 10n ** 18n;
const POLL_MS = 5;

if (DB_TYPE !== 'memdb' && DB_TYPE !== 'leveldb') fail(`DB_TYPE=${DB_TYPE} is neither memdb nor leveldb`);
if (ACCOUNT !== 'local' && ACCOUNT !== 'node') fail(`ACCOUNT=${ACCOUNT} is neither local nor node`);
for (const k of ONLY) if (!['anvil', 'c', 'l1', 'floor'].includes(k)) fail(`ONLY=${process.env.ONLY}: ${k} is none of anvil, c, l1, floor`);

function fail(message) {
  console.error(`bench:suite: ${message}`);
  process.exit(1);
}

// --- Contracts -------------------------------------------------------------------------------------
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract SuiteNft {
  string public name = "Suite NFT";
  uint256 public totalMinted;
  mapping(address => uint256) public balanceOf;
  mapping(uint256 => address) private owners;
  mapping(uint256 => address) public getApproved;
  event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

  function ownerOf(uint256 id) external view returns (address owner) {
    owner = owners[id];
    require(owner != address(0), "no token");
  }
  function mint(address to) external returns (uint256 id) {
    id = ++totalMinted;
    owners[id] = to;
    balanceOf[to] += 1;
    emit Transfer(address(0), to, id);
  }
  function transferFrom(address from, address to, uint256 id) external {
    require(owners[id] == from, "owner");
    require(msg.sender == from || getApproved[id] == msg.sender, "auth");
    delete getApproved[id];
    balanceOf[from] -= 1;
    balanceOf[to] += 1;
    owners[id] = to;
    emit Transfer(from, to, id);
  }
}
`;

/** SOURCE compiled for Cancun with the optimizer: { name: { abi, bytecode } }. */
function compile() {
  const input = {
    language: 'Solidity',
    // The ERC-20 is the client tests' own (test/fixtures/contracts/TestToken.sol).
    sources: { 'Suite.sol': { content: SOURCE }, 'TestToken.sol': { content: readFileSync(TOKEN_SOURCE, 'utf8') } },
    settings: { evmVersion: 'cancun', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`solc:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const contracts = { ...out.contracts['Suite.sol'], ...out.contracts['TestToken.sol'] };
  return Object.fromEntries(Object.entries(contracts).map(([name, c]) => [name, { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }]));
}

// --- Mixes -----------------------------------------------------------------------------------------
// A mix: fixture(client) deploys and answers the fixture (contract, abi, block); writes/reads/estimate
// give the calls of one test; check(fx, reads, logs) throws when a result is not what it should be.
function erc20Mix(c) {
  const { abi } = c.TestToken;
  const call = (fx, functionName, args = []) => ({ address: fx.address, abi, functionName, args });
  return {
    name: 'Mix 1, ERC-20: transfer to Alice, transfer to Bob, balanceOf x2 + totalSupply + allowance + name, Transfer logs, estimateGas',
    fixture: (client) => deploy(client, c.TestToken, ['Suite Token', 'SUITE', SUPPLY]),
    writes: (fx) => [call(fx, 'transfer', [ALICE, 100n]), call(fx, 'transfer', [BOB, 50n])],
    reads: (fx) => [
      call(fx, 'balanceOf', [ALICE]),
      call(fx, 'balanceOf', [BOB]),
      call(fx, 'totalSupply'),
      call(fx, 'allowance', [ALICE, BOB]),
      call(fx, 'name'),
    ],
    estimate: (fx) => call(fx, 'transfer', [ALICE, 1n]),
    check: (_fx, reads, logs) => expect([reads[0], reads[1], reads[2], logs.length], [100n, 50n, SUPPLY, 3]),
  };
}

function erc721Mix(c) {
  const { abi } = c.SuiteNft;
  const call = (fx, functionName, args = []) => ({ address: fx.address, abi, functionName, args });
  return {
    name: 'Mix 2, ERC-721: mint, transferFrom to Alice, ownerOf + balanceOf x2 + totalMinted + name, Transfer logs, estimateGas',
    fixture: async (client) => {
      const fx = await deploy(client, c.SuiteNft, []);
      await send(client, call(fx, 'mint', [BOB]));
      return fx;
    },
    writes: (fx) => [call(fx, 'mint', [fx.sender]), call(fx, 'transferFrom', [fx.sender, ALICE, 2n])],
    reads: (fx) => [call(fx, 'ownerOf', [2n]), call(fx, 'balanceOf', [ALICE]), call(fx, 'balanceOf', [fx.sender]), call(fx, 'totalMinted'), call(fx, 'name')],
    estimate: (fx) => call(fx, 'mint', [BOB]),
    check: (_fx, reads, logs) => expect([reads[0].toLowerCase(), reads[1], reads[2], reads[3], logs.length], [ALICE.toLowerCase(), 1n, 0n, 2n, 3]),
  };
}

function expect(got, want) {
  const g = got.map(String).join(', ');
  const w = want.map(String).join(', ');
  if (g !== w) throw new Error(`check failed: got [${g}], expected [${w}] (did evm_revert revert?)`);
}

async function send(client, request) {
  const hash = await client.writeContract(request);
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: POLL_MS });
  if (receipt.status !== 'success') throw new Error(`${request.functionName}: tx ${hash} reverted`);
  return receipt;
}

async function deploy(client, { abi, bytecode }, args) {
  const hash = await client.deployContract({ abi, bytecode, args });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: POLL_MS });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploy: tx ${hash} failed`);
  return { address: receipt.contractAddress, abi, block: receipt.blockNumber, sender: client.account.address };
}

// --- One test and a suite ----------------------------------------------------------------------------
const PHASES = [
  ['revert', 'evm_revert + evm_snapshot'],
  ['sends', 'two sends to their receipts'],
  ['calls', 'five eth_calls'],
  ['estimate', 'eth_estimateGas'],
  ['logs', 'eth_getLogs'],
  ['total', 'whole test'],
];

async function loadFixture(client, fx) {
  const reverted = await client.request({ method: 'evm_revert', params: [fx.snapshot] });
  if (reverted !== true) throw new Error(`evm_revert(${fx.snapshot}) answered ${reverted}`);
  fx.snapshot = await client.request({ method: 'evm_snapshot', params: [] });
}

/** One test; answers the ms of each phase. */
async function runTest(client, mix, fx) {
  const t0 = performance.now();
  await loadFixture(client, fx);
  const t1 = performance.now();
  for (const w of mix.writes(fx)) await send(client, w);
  const t2 = performance.now();
  const reads = [];
  for (const r of mix.reads(fx)) reads.push(await client.readContract(r));
  const t3 = performance.now();
  const logs = await client.getContractEvents({ address: fx.address, abi: fx.abi, eventName: 'Transfer', fromBlock: fx.block, toBlock: 'latest' });
  const t4 = performance.now();
  await client.estimateContractGas(mix.estimate(fx));
  const t5 = performance.now();
  mix.check(fx, reads, logs);
  return { revert: t1 - t0, sends: t2 - t1, calls: t3 - t2, logs: t4 - t3, estimate: t5 - t4, total: t5 - t0 };
}

/** A mix on one server: fixture and snapshot, WARMUP tests, then TESTS timed ones. */
async function runMix(side, mix) {
  const fx = await mix.fixture(side.client);
  fx.snapshot = await side.client.request({ method: 'evm_snapshot', params: [] });
  for (let i = 0; i < WARMUP; i++) await runTest(side.client, mix, fx);
  const requests0 = side.requests;
  const samples = [];
  const serverCpu0 = await cpuSeconds(side.child.pid);
  const clientCpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < TESTS; i++) samples.push(await runTest(side.client, mix, fx));
  const seconds = (performance.now() - t0) / 1000;
  const clientCpu = process.cpuUsage(clientCpu0);
  const serverCpu = (await cpuSeconds(side.child.pid)) - serverCpu0;
  const perMethod = side.emulator ? await journalTimes(side.url) : undefined;
  return {
    perMethod,
    samples,
    testsPerSecond: TESTS / seconds,
    requestsPerTest: (side.requests - requests0) / TESTS,
    // What the wall time of a test is made of: the server's CPU and this process's (viem, signing, fetch).
    serverCpuMs: (serverCpu * 1000) / TESTS,
    clientCpuMs: (clientCpu.user + clientCpu.system) / 1000 / TESTS,
  };
}

/**
 * The emulator's own time for each JSON-RPC method of the last requests (at most 1,000, all of the
 * timed tests): the request journal's durationMs, arrival to reply, as { method: [mean ms, count] }.
 */
async function journalTimes(url) {
  const { origin, pathname } = new URL(url);
  const { entries } = await rpc(`${origin}/ext/emulator`, 'emulator.journal', { route: pathname, limit: 1000 });
  const times = {};
  for (const e of entries) {
    const method = e.calls?.[0]?.method ?? '?';
    times[method] ??= [];
    times[method].push(e.durationMs);
  }
  return Object.fromEntries(Object.entries(times).map(([m, ds]) => [m, [mean(ds), ds.length]]));
}

// --- Servers -----------------------------------------------------------------------------------------
const { children, dirs, cleanup, tempDir } = leftovers();

function spawnChild(cmd, args, env) {
  const child = spawn(cmd, args, { stdio: 'ignore', env });
  children.add(child);
  return child;
}

/** Stops a server and removes its temp dir. */
async function stopServer(side) {
  // With PROFILE_DIR the emulator stops cleanly, so that node writes its CPU profile.
  await stopChild(side.child, PROFILE_DIR && side.emulator ? 'SIGINT' : 'SIGKILL');
  await rm(side.dir, { recursive: true, force: true });
  dirs.delete(side.dir);
}

async function stopChild(child, signal) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }
  children.delete(child);
}

/** One bare JSON-RPC call (set-up only; the suite goes through viem). */
async function rpc(url, method, params = []) {
  // params: positional (an array) or, for the node's own APIs, named (an object).
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function waitReady(url, child, name) {
  for (const deadline = Date.now() + 30_000; ; await sleep(20)) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode})`);
    if (Date.now() > deadline) throw new Error(`${name} did not answer eth_chainId within 30 s`);
    try {
      if (await rpc(url, 'eth_chainId')) return;
    } catch {}
  }
}

async function startAnvil() {
  return makeSide({ ...(await spawnAnvil()), chainId: 43112 });
}

/** Anvil in a temp HOME on a free port, once it answers: { child, dir, url }. */
async function spawnAnvil() {
  if (!existsSync(ANVIL)) throw new Error(`${path.relative(ROOT, ANVIL)} is missing (npm install)`);
  const dir = await tempDir('bench-suite-anvil-');
  const port = await freePort();
  const child = spawnChild(ANVIL, ['--chain-id', '43112', '--port', String(port), '--silent'], { ...process.env, HOME: dir });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, child, 'anvil');
  return { child, dir, url };
}

/**
 * The floor's recording: every mix runs on Anvil through the recording server (replay-server.mjs),
 * unmeasured; the server writes Anvil's answers to `file` when it stops.
 */
async function recordAnvil(mixes, file) {
  const anvil = await spawnAnvil();
  const recorder = await forkReplayServer(['record', anvil.url, file]);
  try {
    const side = await makeSide({ child: recorder.child, dir: anvil.dir, url: recorder.url, chainId: 43112 });
    for (const mix of mixes) await runMix(side, mix);
  } finally {
    await stopChild(recorder.child, 'SIGTERM');
    await stopServer({ child: anvil.child, dir: anvil.dir });
  }
  return { file };
}

/**
 * The floor: a server that does no work (replay-server.mjs) answers the client what Anvil answered
 * it in the recording. Its tests/s bound what any server can reach with this client on this machine.
 */
async function startFloor(recording) {
  if (recording.error) throw new Error(`the recording failed: ${recording.error}`);
  const replayer = await forkReplayServer(['replay', recording.file]);
  return makeSide({ child: replayer.child, dir: await tempDir('bench-suite-replay-'), url: replayer.url, chainId: 43112 });
}

async function forkReplayServer(args) {
  const child = fork(path.join(ROOT, 'scripts/bench/replay-server.mjs'), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  const { port } = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the replay server exited (${code})`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

const EMULATOR_CLI = process.env.EMULATOR_CLI ? path.resolve(process.env.EMULATOR_CLI) : CLI;

async function startEmulator(chainArgs, chainPath, chainId) {
  if (!existsSync(EMULATOR_CLI)) throw new Error(`${EMULATOR_CLI} is missing; run npm run build first`);
  const dir = await tempDir('bench-suite-emulator-');
  const accounts = ACCOUNT === 'node' ? ['--test-accounts=1'] : [];
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const args = [
    ...envArgs('NODE_ARGS'),
    ...profile,
    EMULATOR_CLI,
    '--dev',
    '--http-port=0',
    `--db-type=${DB_TYPE}`,
    `--data-dir=${dir}`,
    '--log-level=off',
    ...accounts,
    ...envArgs('EMULATOR_ARGS'),
    ...chainArgs,
  ];
  const child = spawnChild(process.execPath, args, process.env);
  const url = `${await processUri(dir, 10)}${chainPath}`;
  await waitReady(url, child, 'the emulator');
  return makeSide({ child, dir, url, chainId, emulator: true });
}

/** Funds the sender (ACCOUNT) and adds side.client: viem wallet + public actions on side.url; side.requests counts the HTTP requests. */
async function makeSide(side) {
  const account = ACCOUNT === 'local' ? privateKeyToAccount(EWOQ_KEY) : (await rpc(side.url, 'eth_accounts'))[0];
  if (!account) throw new Error('eth_accounts is empty');
  await rpc(side.url, 'anvil_setBalance', [account.address ?? account, `0x${(10n ** 26n).toString(16)}`]);
  side.requests = 0;
  const chain = defineChain({
    id: side.chainId,
    name: `chain ${side.chainId}`,
    nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 },
    rpcUrls: { default: { http: [side.url] } },
  });
  const transport = http(side.url, {
    retryCount: 0,
    onFetchRequest: () => {
      side.requests++;
    },
  });
  side.client = createWalletClient({ account, chain, transport, cacheTime: 0, pollingInterval: POLL_MS }).extend(publicActions);
  return side;
}

const SERVERS = [
  { key: 'anvil', label: anvilLabel(), start: startAnvil },
  { key: 'c', label: `C-Chain (${DB_TYPE})`, start: () => startEmulator([], '/ext/bc/C/rpc', 43112) },
  { key: 'l1', label: `L1 myl1 (${DB_TYPE})`, start: () => startEmulator([`--l1=${path.join(ROOT, 'fixtures/myl1.json')}`], '/ext/bc/myl1/rpc', 99999) },
  { key: 'floor', label: "Anvil's answers replayed", start: startFloor },
];

function anvilLabel() {
  try {
    return `Anvil ${/\d+\.\d+\.\d+/.exec(execFileSync(ANVIL, ['--version'], { encoding: 'utf8' }))?.[0] ?? ''}`.trim();
  } catch {
    return 'Anvil';
  }
}

async function vmRssKb(pid) {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

/** Starts a server, runs every mix on it, measures it and stops it: { mixes, rssKb, cpuSuite, cpuTotal } or { error }. */
async function runServer(server, mixes, recording) {
  let side;
  try {
    side = await server.start(recording);
    const cpu0 = await cpuSeconds(side.child.pid);
    const results = [];
    for (const mix of mixes) results.push(await runMix(side, mix));
    const cpuTotal = await cpuSeconds(side.child.pid);
    return { mixes: results, rssKb: await vmRssKb(side.child.pid), cpuSuite: cpuTotal - cpu0, cpuTotal };
  } catch (e) {
    return { error: errorLine(e) };
  } finally {
    if (side) await stopServer(side);
  }
}

function errorLine(e) {
  return String(e?.shortMessage ?? e?.message ?? e).split('\n')[0];
}

// --- Report -----------------------------------------------------------------------------------------------
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const p50 = (xs) =>
  pct(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

/** Rows of [label, value of a mix result] for the table. */
function tableRows() {
  const rows = [];
  for (const [key, label] of PHASES) {
    rows.push([`${label}, p50 ms`, (m) => p50(m.samples.map((s) => s[key]))]);
    rows.push([`${label}, mean ms`, (m) => mean(m.samples.map((s) => s[key]))]);
  }
  rows.push(['tests/s', (m) => m.testsPerSecond]);
  rows.push(['JSON-RPC requests per test', (m) => m.requestsPerTest]);
  rows.push(['server CPU per test, ms', (m) => m.serverCpuMs]);
  rows.push(['client CPU per test, ms (viem)', (m) => m.clientCpuMs]);
  return rows;
}

function cell(result, mixIndex, value, anvil) {
  if (!result) return 'not run';
  if (result.error) return 'error';
  const v = value(result.mixes[mixIndex]);
  const a = anvil && !anvil.error ? value(anvil.mixes[mixIndex]) : NaN;
  return Number.isFinite(a) && a > 0 && result !== anvil ? `${f2(v)} (${f2(v / a)}x)` : f2(v);
}

function printTable(columns, mixName, mixIndex) {
  const anvil = columns.find((c) => c.server.key === 'anvil')?.result;
  const lines = [['', ...columns.map((c) => c.server.label)]];
  for (const [label, value] of tableRows()) lines.push([label, ...columns.map((c) => cell(c.result, mixIndex, value, anvil))]);
  console.log(`\n${mixName}\n(TESTS=${TESTS} timed tests after WARMUP=${WARMUP}; (x) = that server / Anvil: for ms lower is better, for tests/s higher)`);
  printLines(lines);
}

function printLines(lines) {
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  for (const l of lines) console.log(`  ${l.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('   ')}`);
}

/** Per JSON-RPC method, each emulator's mean time per request (its journal), for one mix. */
function printMethodTimes(columns, mixIndex) {
  const sides = columns.filter((c) => c.result?.mixes?.[mixIndex]?.perMethod);
  if (sides.length === 0) return;
  const methods = [...new Set(sides.flatMap((c) => Object.keys(c.result.mixes[mixIndex].perMethod)))].sort();
  const lines = [['server time per request (journal), mean ms', ...sides.map((c) => c.server.label)]];
  for (const m of methods) {
    lines.push([
      `  ${m}`,
      ...sides.map((c) => {
        const t = c.result.mixes[mixIndex].perMethod[m];
        return t ? `${f2(t[0])} (n=${t[1]})` : '-';
      }),
    ]);
  }
  printLines(lines);
}

function printServers(columns) {
  const lines = [['', 'VmRSS after the suite', 'CPU s in the suite', 'CPU s since start']];
  for (const { server, result } of columns) {
    if (!result || result.error) lines.push([server.label, '-', '-', '-']);
    else lines.push([server.label, `${f1(result.rssKb / 1024)} MiB`, f1(result.cpuSuite), f1(result.cpuTotal)]);
  }
  console.log('\nServers (both mixes, warm-up included)');
  printLines(lines);
  for (const { server, result } of columns) if (result?.error) console.log(`  ${server.label} failed: ${result.error}`);
}

// --- Main ---------------------------------------------------------------------------------------------------
// Each server's client is a fresh child process (this script with --client <key>): viem's own code
// warms up over thousands of requests, so a client shared by the servers in turn ran faster for
// each later one (Anvil, measured first, lost some 30 % of its tests/s to it). A fresh client for
// every server is how a test runner starts, and the same for all. The recording for the floor is a
// child too. The contracts are compiled once, here, and handed over in a file.
const SELF = fileURLToPath(import.meta.url);

if (process.argv[2] === '--client') await clientMain(process.argv[3]);
else await main();

/** Client mode: runs every mix on one server (or records the floor's answers) and sends the result to the parent. */
async function clientMain(key) {
  const { contractsFile, recording } = JSON.parse(process.env.BENCH_SUITE_CLIENT);
  const contracts = JSON.parse(readFileSync(contractsFile, 'utf8'));
  const mixes = [erc20Mix(contracts), erc721Mix(contracts)];
  try {
    if (key === 'record') process.send(await recordAnvil(mixes, recording.file));
    else
      process.send(
        await runServer(
          SERVERS.find((s) => s.key === key),
          mixes,
          recording,
        ),
      );
  } catch (e) {
    process.send({ error: errorLine(e) });
  } finally {
    await cleanup();
  }
}

/** Runs a client child for `key` and answers what it sent back. */
async function inClient(key, context) {
  const child = fork(SELF, ['--client', key], {
    env: { ...process.env, BENCH_SUITE_CLIENT: JSON.stringify(context) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  let result;
  child.on('message', (m) => {
    result = m;
  });
  const code = await new Promise((r) => child.once('exit', r));
  children.delete(child);
  return result ?? { error: `the client for ${key} exited (${code}) without a result` };
}

async function main() {
  try {
    const started = performance.now();
    const contractsFile = path.join(await tempDir('bench-suite-'), 'contracts.json');
    writeFileSync(contractsFile, JSON.stringify(compile()));
    const mixNames = [erc20Mix, erc721Mix].map((mix) => mix({ TestToken: {}, SuiteNft: {} }).name);
    console.log(
      `bench:suite: viem over HTTP, ACCOUNT=${ACCOUNT}; ${TESTS} tests per mix after ${WARMUP} warm-up; servers one after the other, each with a fresh client process; ${os.cpus().length} CPUs`,
    );
    const columns = [];
    let recording;
    if (ONLY.includes('floor')) {
      console.log("  recording Anvil's answers for the floor (not measured) ...");
      const file = path.join(path.dirname(contractsFile), 'answers.json');
      // A failed recording fails the floor's column only.
      const recorded = await inClient('record', { contractsFile, recording: { file } });
      recording = recorded.error ? recorded : { file };
    }
    for (const server of SERVERS.filter((s) => ONLY.includes(s.key))) {
      console.log(`  ${server.label} ...`);
      columns.push({ server, result: await inClient(server.key, { contractsFile, recording }) });
    }
    mixNames.forEach((name, i) => {
      printTable(columns, name, i);
      printMethodTimes(columns, i);
    });
    printServers(columns);
    console.log(`\ntotal ${f1((performance.now() - started) / 1000)} s; load average at end: ${os.loadavg().map(f2).join(' ')}`);
    if (columns.some((c) => c.result.error)) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

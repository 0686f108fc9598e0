// State-control benchmark: evm_snapshot and evm_revert on the emulator's C-Chain (--dev, the whole
// node: X, P, C, shared memory and the index) beside Anvil 1.7.1's, in one run. Each node first
// gets TXS transfers (so its state is not empty), then CYCLES times: evm_snapshot, one transfer
// mined, evm_revert, as Hardhat's loadFixture does around each test. Prints p50/p99 of each call
// and the cycle, side by side, with the emulator's dump size (anvil_dumpState).
//
//   npm run build && npm run bench:state          TXS=200 CYCLES=30 DB_TYPE=memdb|leveldb
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Wallet } from 'ethers';
import { CLI, envIntOf, freePort, pct, processUri, ROOT } from './common.mjs';

const envInt = envIntOf('bench:state');
const TXS = envInt('TXS', 200, 0);
const CYCLES = envInt('CYCLES', 30);
const DB_TYPE = process.env.DB_TYPE || 'memdb';
const ANVIL = path.join(ROOT, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil');
const EWOQ = new Wallet('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const TO = '0x000000000000000000000000000000000000dEaD';

const children = [];
const dirs = [];
async function cleanup() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs) await rm(d, { recursive: true, force: true });
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

let id = 0;
async function call(url, method, params = []) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function startAnvil() {
  if (!existsSync(ANVIL)) throw new Error('node_modules/@foundry-rs/anvil-linux-amd64 is missing (npm install)');
  const home = await mkdtemp(path.join(os.tmpdir(), 'bench-state-anvil-'));
  dirs.push(home);
  const port = await freePort();
  const child = spawn(ANVIL, ['--chain-id', '43112', '--port', String(port), '--silent'], { stdio: 'ignore', env: { ...process.env, HOME: home } });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ; await sleep(20)) {
    if (Date.now() > deadline) throw new Error('anvil did not start');
    try {
      await call(url, 'eth_chainId');
      break;
    } catch {}
  }
  await call(url, 'anvil_setBalance', [EWOQ.address, `0x${(10n ** 26n).toString(16)}`]);
  return { name: 'Anvil 1.7.1', url, pid: child.pid };
}

async function startEmulator() {
  if (!existsSync(CLI)) throw new Error('dist/ is missing; run npm run build first');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-state-emulator-'));
  dirs.push(dataDir);
  const child = spawn(
    process.execPath,
    [CLI, '--dev', '--http-port=0', `--db-type=${DB_TYPE}`, `--data-dir=${dataDir}`, '--log-level=off', '--test-accounts=2'],
    { stdio: 'ignore' },
  );
  children.push(child);
  const uri = await processUri(dataDir, 10);
  return { name: `emulator (${DB_TYPE})`, url: `${uri}/ext/bc/C/rpc`, pid: child.pid };
}

async function transfer(side, nonce) {
  const baseFee = BigInt((await call(side.url, 'eth_getBlockByNumber', ['latest', false])).baseFeePerGas);
  const raw = await EWOQ.signTransaction({
    type: 2,
    chainId: 43112,
    nonce,
    to: TO,
    value: 1n,
    gasLimit: 21_000n,
    maxFeePerGas: baseFee * 3n + 10n ** 9n,
    maxPriorityFeePerGas: 1n,
  });
  const hash = await call(side.url, 'eth_sendRawTransaction', [raw]);
  for (let i = 0; i < 500; i++) {
    if (await call(side.url, 'eth_getTransactionReceipt', [hash])) return;
    await sleep(2);
  }
  throw new Error(`${side.name}: tx ${hash} not mined`);
}

async function run(side) {
  const start = Number(await call(side.url, 'eth_getTransactionCount', [EWOQ.address, 'latest']));
  for (let i = 0; i < TXS; i++) await transfer(side, start + i);
  const snap = [];
  const revert = [];
  const cycle = [];
  for (let i = 0; i < CYCLES; i++) {
    const t0 = performance.now();
    const sid = await call(side.url, 'evm_snapshot');
    const t1 = performance.now();
    await transfer(side, start + TXS);
    const t2 = performance.now();
    if ((await call(side.url, 'evm_revert', [sid])) !== true) throw new Error(`${side.name}: evm_revert(${sid}) did not revert`);
    const t3 = performance.now();
    snap.push(t1 - t0);
    revert.push(t3 - t2);
    cycle.push(t3 - t0);
  }
  const height = Number(await call(side.url, 'eth_blockNumber'));
  if (height !== TXS + (await baseHeight(side))) throw new Error(`${side.name}: height ${height} after the reverts`);
  const dump = await call(side.url, 'anvil_dumpState').catch(() => undefined);
  return { snap, revert, cycle, dumpBytes: dump ? (dump.length - 2) / 2 : NaN };
}
const baseHeights = new Map();
async function baseHeight(side) {
  return baseHeights.get(side.name) ?? 0;
}

const f = (xs, p) =>
  pct(
    [...xs].sort((a, b) => a - b),
    p,
  ).toFixed(1);
try {
  console.log(`bench:state — TXS=${TXS} transfers, then ${CYCLES} × (evm_snapshot, 1 transfer, evm_revert); ms`);
  const sides = [];
  for (const start of [startAnvil, startEmulator]) {
    const side = await start();
    baseHeights.set(side.name, Number(await call(side.url, 'eth_blockNumber')));
    sides.push({ side, r: await run(side) });
  }
  const rows = [
    ['', ...sides.map((s) => s.side.name)],
    ['evm_snapshot p50 / p99', ...sides.map((s) => `${f(s.r.snap, 0.5)} / ${f(s.r.snap, 0.99)}`)],
    ['evm_revert p50 / p99', ...sides.map((s) => `${f(s.r.revert, 0.5)} / ${f(s.r.revert, 0.99)}`)],
    ['cycle p50 / p99', ...sides.map((s) => `${f(s.r.cycle, 0.5)} / ${f(s.r.cycle, 0.99)}`)],
    ['anvil_dumpState bytes', ...sides.map((s) => (Number.isFinite(s.r.dumpBytes) ? s.r.dumpBytes.toLocaleString('en-US') : '-'))],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
  console.log('The emulator snapshots and reverts the whole node (X, P, C, shared memory, the index); Anvil its one chain.');
} finally {
  await cleanup();
}

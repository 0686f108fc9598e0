// State-control benchmark: evm_snapshot and evm_revert on the emulator's C-Chain (--dev, the whole
// node: X, P, C, shared memory, the index and the Data API) beside Anvil 1.7.1's, in one run, the
// servers one after another (each stopped before the next starts), JSON-RPC over HTTP keep-alive.
// A "cycle" is what Hardhat's loadFixture does around each test: evm_snapshot, one 1-wei transfer
// (sent, its receipt polled), evm_revert. The transfer is signed once per node and phase: the
// revert brings the nonce back, so the very same bytes are sent in every cycle. Anvil 1.7.1 shows a
// receipt before its pool has dropped the tx, and a revert right then leaves the tx in its pool
// (the next send of it is refused as already imported, or the pool drops it later, the next send
// included): on Anvil the bench waits for txpool_status to be empty before each revert (DRAIN=1),
// a wait left out of the cycle's time; what still goes wrong is retried and counted ("stale").
//
//   1. Base (as before): TXS transfers, then CYCLES cycles: p50/p99 of each call and of the
//      cycle, and the size of anvil_dumpState.
//   2. State size: for each SIZE of SIZES (ascending), the state grows to SIZE storage slots AND
//      SIZE accounts, then SIZE_CYCLES cycles are timed (at most SIZE_SECONDS s of them, at least
//      10). The state grows by the same txs on every server: a contract (compiled here with solc,
//      evmVersion cancun, optimizer on) whose fill(start, n) writes 1 to n fresh slots and
//      spray(start, n) sends 1 wei to n fresh addresses (2^140 + i), in txs of at most GROW_TX_GAS
//      gas (~400 slots or ~260 accounts a tx).
//      The C-Chain: its block gas limit is 10M (ACP-176 at its 1M gas/s target; 100M in the
//      genesis block only) and its capacity refills at 2M gas/s, a block being built only once 8M
//      are back: measured with --dev, each 6.7M-gas tx waited 3.4-3.9 s, so 100,000 slots and
//      accounts (~5.6 billion gas) would take ~47 min of waiting. Before each growth tx the chain's
//      time is moved GROW_PACE s on (evm_increaseTime), which refills the capacity at once; the
//      emulator then runs one growth tx a block (~0.4 s each here: MPT updates).
//      Anvil: its block costs grow with its state (~1 s a block at 100,000), so its growth txs go
//      GROW_PACK to a block (anvil_setBlockGasLimit raised meanwhile, automine off, evm_mine):
//      the same txs and state in fewer blocks.
//      REUSE_STATE=1: the emulators after the first load the first's dump of that size
//      (emulator.dumpState / loadState in a shared --state-dir) instead of growing again; a dump
//      the node refuses (over 42.9 MB zipped: see the report of this bench's commit) is grown.
//      SETTLE=1: before timing (and dumping), the bench waits for the emulator's Data API to have
//      indexed the head (a Data API query that waits for it): its follower's work done while a
//      snapshot is held is undone by the revert.
//   3. Memory across cycles, at the last size: CYCLES_LONG cycles, VmRSS of the server
//      (/proc/<pid>/status) at the start, every LONG_EVERY cycles and at the end, and the cycle's
//      p50 over the first and the last 1,000. Between snapshot and revert: LONG_MODE on the
//      emulator (tx: a transfer mined, as above), LONG_MODE_ANVIL on Anvil (balance:
//      anvil_setBalance, since Anvil mines a block in ~1 s at 100,000); mine: evm_mine.
//   4. RSS after TXS_RSS txs (opt-in, default 0: it takes long): on newly started servers, TXS_RSS
//      transfers pre-signed here, from RSS_SENDERS keys (funded with anvil_setBalance), in JSON-RPC
//      batches of RSS_BATCH eth_sendRawTransaction sent one after another, each mined before the
//      next (the receipt of each sender's last tx in it polled; Anvil 1.7.1 stalls on concurrent
//      sends from one account), the chain's time moved GROW_PACE s on before each (ACP-176, as
//      above); then VmRSS and VmHWM. A tx not mined within STALL_TIMEOUT s stops the phase (STALLED).
//
//   npm run build && npm run bench:state          (= node scripts/bench/state.mjs)
//   TARGETS=anvil,emulator   DB_TYPES=memdb,leveldb (the emulator once per DB type)
//   TXS=200  CYCLES=30                                  phase 1
//   SIZES=1000,100000  SIZE_CYCLES=200  SIZE_SECONDS=30 phase 2 (SIZES=0 skips it)
//   GROW_TX_GAS=9000000  GROW_PACE=5 (s; 0: none)  GROW_PACK=32  REUSE_STATE=1  SETTLE=1
//   CYCLES_LONG=10000  LONG_EVERY=2000  LONG_MODE=tx  LONG_MODE_ANVIL=balance (tx|mine|balance)
//   LONG_SECONDS_ANVIL=60 (Anvil's phase 3 stops then: its snapshot costs ~50 ms at 100,000)   phase 3 (0 skips it)
//   TXS_RSS=0 (e.g. 100000)  RSS_BATCH=200  RSS_SENDERS=1  STALL_TIMEOUT=60 (s)   phase 4
//   DRAIN=1  NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof-state' (node flags for the emulator)
//   EMULATOR_ARGS='--api-data-enabled=false' (the emulator's own flags, added to its command line)
//   Quick run (~3 min): SIZES=1000,20000 SIZE_CYCLES=50 CYCLES_LONG=500 LONG_EVERY=250 node scripts/bench/state.mjs
// The default run takes ~15-20 min on a busy 2-core machine, most of it the emulators' growth to
// 100,000 (~5 min each) and their 10,000 cycles (~2 min each). Progress goes to stderr, the tables
// to stdout. Children and temp dirs are removed on exit and on Ctrl-C.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { id as keccakText, Interface, keccak256, Wallet } from 'ethers';
import { CLI, envIntOf, freePort, nativeSigner, pct, processUri, ROOT, postJson } from './common.mjs';

const envInt = envIntOf('bench:state');
const list = (name, dflt) =>
  (process.env[name] ?? dflt)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
const TARGETS = list('TARGETS', 'anvil,emulator');
const DB_TYPES = list('DB_TYPES', process.env.DB_TYPE || 'memdb,leveldb');
const TXS = envInt('TXS', 200, 0);
const CYCLES = envInt('CYCLES', 30);
const SIZES = list('SIZES', '1000,100000')
  .map(Number)
  .filter((n) => n > 0);
const SIZE_CYCLES = envInt('SIZE_CYCLES', 200);
const SIZE_SECONDS = envInt('SIZE_SECONDS', 30);
const GROW_PACK = envInt('GROW_PACK', 32);
const GROW_TX_GAS = envInt('GROW_TX_GAS', 9_000_000, 500_000);
const GROW_PACE = envInt('GROW_PACE', 5, 0);
const REUSE_STATE = envInt('REUSE_STATE', 1, 0) === 1;
const CYCLES_LONG = envInt('CYCLES_LONG', 10_000, 0);
const LONG_EVERY = envInt('LONG_EVERY', 2000);
const LONG_MODE = process.env.LONG_MODE || 'tx';
const LONG_MODE_ANVIL = process.env.LONG_MODE_ANVIL || 'balance';
const LONG_SECONDS_ANVIL = envInt('LONG_SECONDS_ANVIL', 60);
const TXS_RSS = envInt('TXS_RSS', 0, 0);
const RSS_BATCH = envInt('RSS_BATCH', 200);
const RSS_SENDERS = envInt('RSS_SENDERS', 1);
const STALL_TIMEOUT = envInt('STALL_TIMEOUT', 60);
const DRAIN = envInt('DRAIN', 1, 0) === 1;
const SETTLE = envInt('SETTLE', 1, 0) === 1;
const NODE_ARGS = list('NODE_ARGS', '')
  .flatMap((a) => a.split(' '))
  .filter(Boolean);
const EMULATOR_ARGS = list('EMULATOR_ARGS', '')
  .flatMap((a) => a.split(' '))
  .filter(Boolean);
for (const [name, bad] of [
  ['SIZES', SIZES.some((n, i) => !Number.isSafeInteger(n) || (i > 0 && n <= SIZES[i - 1]))],
  ['LONG_MODE', !['tx', 'mine', 'balance'].includes(LONG_MODE)],
  ['LONG_MODE_ANVIL', !['tx', 'mine', 'balance'].includes(LONG_MODE_ANVIL)],
  ['DB_TYPES', DB_TYPES.some((t) => t !== 'memdb' && t !== 'leveldb')],
  ['TARGETS', TARGETS.some((t) => t !== 'anvil' && t !== 'emulator')],
]) {
  if (bad) {
    console.error(`bench:state: ${name}=${process.env[name]} is not valid (see the header of scripts/bench/state.mjs)`);
    process.exit(1);
  }
}

const ANVIL = path.join(ROOT, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil');
const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const EWOQ = new Wallet(EWOQ_KEY).address;
const CHAIN_ID = 43112n;
const TO = '0x000000000000000000000000000000000000dEaD';
/** 300 gwei: above the emulator's 225 gwei genesis base fee and anything the bench drives the fees to. */
const MAX_FEE = 300_000_000_000n;
/** Gas of one fresh slot in fill (22,203 measured) and one fresh account in spray (34,450), with room. */
const FILL_GAS = 22_300;
const SPRAY_GAS = 34_600;
const TX_OVERHEAD_GAS = 60_000;
const log = (...a) => console.error(...a);

// --- Children, temp dirs, cleanup ------------------------------------------------------------------
const children = new Set();
const dirs = new Set();
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
/** Set once cleanup begins: nothing new is started or made after it. */
let closing = false;
async function tempDir(prefix) {
  if (closing) throw new Error('stopping');
  const d = await mkdtemp(path.join(os.tmpdir(), prefix));
  dirs.add(d);
  if (closing) {
    await rm(d, { recursive: true, force: true });
    throw new Error('stopping');
  }
  return d;
}
function track(child) {
  children.add(child);
  if (closing) child.kill('SIGKILL');
  return child;
}
const exited = (c) => (c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', r)));
async function stopChild(c) {
  if (c.exitCode === null && c.signalCode === null) {
    c.kill('SIGTERM');
    const hung = setTimeout(() => c.kill('SIGKILL'), 5_000);
    await exited(c);
    clearTimeout(hung);
  }
  children.delete(c);
}
let cleaned;
function cleanup() {
  closing = true;
  cleaned ??= (async () => {
    await Promise.all([...children].map(stopChild));
    agent.destroy();
    await Promise.all([...dirs].map((d) => rm(d, { recursive: true, force: true })));
  })();
  return cleaned;
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void cleanup().finally(() => process.exit(130)));

// --- JSON-RPC --------------------------------------------------------------------------------------
let rpcId = 0;
const post = (url, payload, timeoutMs = 600_000) => postJson(agent, url, payload, timeoutMs);
async function call(url, method, params = []) {
  const reply = await post(url, { jsonrpc: '2.0', id: ++rpcId, method, params });
  if (reply.error) throw new Error(`${method}: ${reply.error.message ?? JSON.stringify(reply.error)}`);
  return reply.result;
}
const hexQ = (n) => `0x${BigInt(n).toString(16)}`;
const nonceOf = async (side, address = EWOQ) => Number(await call(side.url, 'eth_getTransactionCount', [address, 'latest']));
const blockNumber = async (side) => Number(await call(side.url, 'eth_blockNumber'));
/** Polls a tx's receipt; with `lost`, undefined once `lost()` says so (asked after the first 200 ms). */
async function receipt(side, hash, { lost } = {}) {
  const t0 = performance.now();
  for (let asked = false; performance.now() - t0 < STALL_TIMEOUT * 1000; ) {
    const r = await call(side.url, 'eth_getTransactionReceipt', [hash]);
    if (r) return r;
    if (lost && !asked && performance.now() - t0 > 200) {
      asked = true;
      if (await lost()) return undefined;
    }
    await sleep(1);
  }
  throw new Error(`${side.name}: tx ${hash} not mined within ${STALL_TIMEOUT} s`);
}
async function vmStatus(pid) {
  try {
    const text = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return { rss: NaN, hwm: NaN };
  }
}

// --- Servers ---------------------------------------------------------------------------------------
function tail(child) {
  const out = { text: '' };
  child.stderr?.on('data', (d) => {
    out.text = (out.text + d).slice(-2000);
  });
  return out;
}
async function startAnvil() {
  if (!existsSync(ANVIL)) throw new Error('node_modules/@foundry-rs/anvil-linux-amd64 is missing (npm install)');
  const home = await tempDir('bench-state-anvil-');
  const port = await freePort();
  const child = spawn(ANVIL, ['--chain-id', String(CHAIN_ID), '--port', String(port), '--silent'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, HOME: home },
  });
  track(child);
  const err = tail(child);
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ; await sleep(20)) {
    if (child.exitCode !== null) throw new Error(`anvil exited (${child.exitCode}): ${err.text}`);
    if (Date.now() > deadline) throw new Error('anvil did not start');
    try {
      await call(url, 'eth_chainId');
      break;
    } catch {}
  }
  await call(url, 'anvil_setBalance', [EWOQ, hexQ(10n ** 26n)]);
  return { key: 'anvil', name: 'Anvil 1.7.1', url, child };
}

let stateDir;
async function startEmulator(dbType) {
  if (!existsSync(CLI)) throw new Error('dist/ is missing; run npm run build first');
  const dataDir = await tempDir('bench-state-emulator-');
  stateDir ??= await tempDir('bench-state-dumps-');
  const child = spawn(
    process.execPath,
    [
      ...NODE_ARGS,
      CLI,
      '--dev',
      '--http-port=0',
      `--db-type=${dbType}`,
      `--data-dir=${dataDir}`,
      `--state-dir=${stateDir}`,
      '--log-level=off',
      '--test-accounts=2',
      ...EMULATOR_ARGS,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  track(child);
  const err = tail(child);
  const uri = await Promise.race([
    processUri(dataDir, 10),
    exited(child).then(() => {
      throw new Error(`the emulator exited (${child.exitCode ?? child.signalCode}): ${err.text}`);
    }),
  ]);
  return { key: dbType, name: `emulator (${dbType})`, url: `${uri}/ext/bc/C/rpc`, api: `${uri}/ext/emulator`, uri, child };
}
const starters = () => [
  ...(TARGETS.includes('anvil') ? [{ name: 'Anvil 1.7.1', start: startAnvil }] : []),
  ...(TARGETS.includes('emulator') ? DB_TYPES.map((t) => ({ name: `emulator (${t})`, start: () => startEmulator(t) })) : []),
];

// --- Txs -------------------------------------------------------------------------------------------
let signEwoq;
async function sendSigned(side, fields) {
  const raw = signEwoq({ type: 2, chainId: CHAIN_ID, maxFeePerGas: MAX_FEE, maxPriorityFeePerGas: 1n, ...fields });
  return receipt(side, await call(side.url, 'eth_sendRawTransaction', [raw]));
}
const transferFields = (nonce) => ({ nonce, to: TO, value: 1n, gasLimit: 21_000n, data: '0x' });

/** `n` cycles (snapshot, `between`, revert) on `side`; `onEvery(i)` after every `every` cycles. */
async function cycles(side, n, { mode = 'tx', every = 0, onEvery, seconds = Infinity } = {}) {
  const started = performance.now();
  const nonce = await nonceOf(side);
  const raw = signEwoq({ type: 2, chainId: CHAIN_ID, maxFeePerGas: MAX_FEE, maxPriorityFeePerGas: 1n, ...transferFields(nonce) });
  const height = await blockNumber(side);
  const hash = keccak256(raw);
  const between = {
    tx: async () => {
      // Anvil 1.7.1 shows a tx's receipt before its pool has dropped it. Reverted right then, either
      // the tx stays in its pool (the next send of it is refused as already imported: it is mined
      // with evm_mine instead), or the pool drops it later, the next send of it included (it is
      // sent again once its receipt is late and the pool empty). Such cycles are counted.
      for (let attempt = 0; ; attempt++) {
        try {
          await call(side.url, 'eth_sendRawTransaction', [raw]);
        } catch (err) {
          if (!/already imported/.test(err.message)) throw err;
          side.stale = (side.stale ?? 0) + 1;
          await call(side.url, 'evm_mine');
        }
        const r = await receipt(side, hash, { lost: async () => Number((await call(side.url, 'txpool_status')).pending) === 0 });
        if (r) return r;
        side.stale = (side.stale ?? 0) + 1;
        if (attempt === 3) throw new Error(`${side.name}: tx ${hash} dropped 4 times`);
      }
    },
    mine: () => call(side.url, 'evm_mine'),
    balance: (i) => call(side.url, 'anvil_setBalance', [TO, hexQ(i + 1)]),
  }[mode];
  const snap = [];
  const revert = [];
  const cycle = [];
  const drain = mode === 'tx' && side.key === 'anvil' && DRAIN;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    let waited = 0;
    const sid = await call(side.url, 'evm_snapshot');
    const t1 = performance.now();
    try {
      await between(i);
    } catch (err) {
      throw new Error(
        `${side.name}: cycle ${i} of ${n}: ${err.message}; txpool_status ${JSON.stringify(await call(side.url, 'txpool_status').catch(() => '-'))}`,
      );
    }
    let t2 = performance.now();
    if (drain) {
      // Anvil: the revert waits for its pool to drop the mined tx (see above); the wait is not counted.
      while (Number((await call(side.url, 'txpool_status')).pending) !== 0) await sleep(0);
      waited = performance.now() - t2;
      t2 = performance.now();
    }
    if ((await call(side.url, 'evm_revert', [sid])) !== true) throw new Error(`${side.name}: evm_revert(${sid}) did not revert`);
    const t3 = performance.now();
    snap.push(t1 - t0);
    revert.push(t3 - t2);
    cycle.push(t3 - t0 - waited);
    if (every && (i + 1) % every === 0) await onEvery(i + 1);
    // A time cap (at least 10 cycles): Anvil's blocks take ~1 s each near 100,000 slots and accounts.
    if (i >= 9 && performance.now() - started > seconds * 1000) break;
  }
  const after = await blockNumber(side);
  if (after !== height) throw new Error(`${side.name}: height ${after} after the reverts, ${height} before`);
  return { snap, revert, cycle };
}

// --- State growth ----------------------------------------------------------------------------------
const GROW_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract Grow {
  /// Writes 1 to the n fresh slots start .. start+n-1.
  function fill(uint256 start, uint256 n) external {
    assembly { let end := add(start, n) for { let i := start } lt(i, end) { i := add(i, 1) } { sstore(i, 1) } }
  }
  /// Sends 1 wei to the n fresh addresses 2^140 + start .. 2^140 + start+n-1 (msg.value must be n).
  function spray(uint256 start, uint256 n) external payable {
    assembly {
      let end := add(start, n)
      let base := shl(140, 1)
      for { let i := start } lt(i, end) { i := add(i, 1) } { if iszero(call(0, add(base, i), 1, 0, 0, 0, 0)) { revert(0, 0) } }
    }
  }
}`;
let grow; // { bytecode, iface }
async function compileGrow() {
  const { default: solc } = await import('solc');
  const input = {
    language: 'Solidity',
    sources: { 'Grow.sol': { content: GROW_SOURCE } },
    settings: { evmVersion: 'cancun', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const c = output.contracts['Grow.sol'].Grow;
  return { bytecode: `0x${c.evm.bytecode.object}`, iface: new Interface(c.abi), version: solc.version().split('+')[0] };
}
const growAccount = (i) => `0x${((1n << 140n) + BigInt(i)).toString(16).padStart(40, '0')}`;

/** Grows `side`'s state from `from` to `to` slots and accounts; the contract is deployed first if need be. */
async function growState(side, from, to) {
  const pace = () => (GROW_PACE ? call(side.url, 'evm_increaseTime', [hexQ(GROW_PACE)]) : undefined);
  let nonce = await nonceOf(side);
  const gasLimit = BigInt((await call(side.url, 'eth_getBlockByNumber', ['latest', false])).gasLimit);
  if (!side.grow) {
    await pace();
    const r = await sendSigned(side, { nonce: nonce++, to: null, value: 0n, gasLimit: 300_000n, data: grow.bytecode });
    if (r.status !== '0x1') throw new Error(`${side.name}: the Grow contract's deployment failed`);
    side.grow = r.contractAddress;
  }
  const txs = [];
  const perFill = Math.floor((GROW_TX_GAS - TX_OVERHEAD_GAS) / FILL_GAS);
  const perSpray = Math.floor((GROW_TX_GAS - TX_OVERHEAD_GAS) / SPRAY_GAS);
  for (let i = from; i < to; i += perFill) {
    const n = Math.min(perFill, to - i);
    txs.push({ to: side.grow, value: 0n, gasLimit: BigInt(TX_OVERHEAD_GAS + n * FILL_GAS), data: grow.iface.encodeFunctionData('fill', [i, n]) });
  }
  for (let i = from; i < to; i += perSpray) {
    const n = Math.min(perSpray, to - i);
    txs.push({ to: side.grow, value: BigInt(n), gasLimit: BigInt(TX_OVERHEAD_GAS + n * SPRAY_GAS), data: grow.iface.encodeFunctionData('spray', [i, n]) });
  }
  // The block's gas limit: 10M on the C-Chain after its genesis (ACP-176), 30M on Anvil.
  if (txs.some((t) => t.gasLimit > gasLimit)) throw new Error(`${side.name}: GROW_TX_GAS=${GROW_TX_GAS} is over the block gas limit ${gasLimit}`);
  let gas = 0n;
  let blocks = 0;
  if (side.key === 'anvil' && GROW_PACK > 1) {
    // Anvil's block costs grow with its state (~1 s a block near 100,000 slots and accounts): the
    // same txs go GROW_PACK to a block (its gas limit raised for them, automine off meanwhile).
    await call(side.url, 'anvil_setBlockGasLimit', [hexQ(BigInt(GROW_PACK) * BigInt(GROW_TX_GAS) + 1_000_000n)]);
    await call(side.url, 'evm_setAutomine', [false]);
    try {
      for (let k = 0; k < txs.length; k += GROW_PACK) {
        const chunk = txs
          .slice(k, k + GROW_PACK)
          .map((tx) => signEwoq({ type: 2, chainId: CHAIN_ID, maxFeePerGas: MAX_FEE, maxPriorityFeePerGas: 1n, nonce: nonce++, ...tx }));
        const reply = await post(
          side.url,
          chunk.map((raw) => ({ jsonrpc: '2.0', id: ++rpcId, method: 'eth_sendRawTransaction', params: [raw] })),
        );
        const failed = reply.find((r) => r.error);
        if (failed) throw new Error(`${side.name}: growth tx refused: ${failed.error.message}`);
        await call(side.url, 'evm_mine');
        blocks++;
        for (const r of reply) {
          const rc = await receipt(side, r.result);
          if (rc.status !== '0x1') throw new Error(`${side.name}: growth tx ${r.result} failed`);
          gas += BigInt(rc.gasUsed);
        }
        log(`  ${side.name}: ${Math.min(k + GROW_PACK, txs.length)}/${txs.length} growth txs mined`);
      }
    } finally {
      await call(side.url, 'evm_setAutomine', [true]);
      await call(side.url, 'anvil_setBlockGasLimit', [hexQ(gasLimit)]);
    }
  } else {
    for (const [k, tx] of txs.entries()) {
      await pace();
      const r = await sendSigned(side, { nonce: nonce++, ...tx });
      if (r.status !== '0x1') throw new Error(`${side.name}: growth tx ${k} failed`);
      gas += BigInt(r.gasUsed);
      blocks++;
      if ((k + 1) % 100 === 0) log(`  ${side.name}: ${k + 1}/${txs.length} growth txs mined`);
    }
  }
  // The last slot and the last account are there.
  const slot = await call(side.url, 'eth_getStorageAt', [side.grow, hexQ(to - 1), 'latest']);
  const balance = await call(side.url, 'eth_getBalance', [growAccount(to - 1), 'latest']);
  if (BigInt(slot) !== 1n || BigInt(balance) !== 1n) throw new Error(`${side.name}: slot/account ${to - 1} missing after the growth`);
  return { txs: txs.length, blocks, gas, gasLimit };
}

/**
 * The emulator's Data API indexes each block a moment after it (FOLLOW_DELAY_MS), and a block it did
 * not see built (one of a loaded state) is run again under callTracer: a Data API query that must
 * see the head waits for that. With SETTLE, the bench waits so before dumping and before timing.
 */
async function settle(side) {
  if (!side.uri || !SETTLE) return;
  await new Promise((resolve, reject) => {
    http
      .get(`${side.uri}/v1/chains/${CHAIN_ID}/transactions?status=failed&pageSize=1`, { agent }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${side.name}: Data API ${res.statusCode}`))));
      })
      .once('error', reject);
  });
}

async function emulatorApi(side, method, params) {
  const reply = await post(side.api, { jsonrpc: '2.0', id: ++rpcId, method: `emulator.${method}`, params });
  if (reply.error) throw new Error(`emulator.${method}: ${reply.error.message ?? JSON.stringify(reply.error)}`);
  return reply.result;
}

// --- Phases ----------------------------------------------------------------------------------------
/** Phase 1: TXS transfers, then CYCLES cycles. */
async function basePhase(side) {
  const start = await nonceOf(side);
  for (let i = 0; i < TXS; i++) await sendSigned(side, transferFields(start + i));
  const r = await cycles(side, CYCLES);
  const dump = await call(side.url, 'anvil_dumpState').catch(() => undefined);
  return { ...r, dumpBytes: dump ? (dump.length - 2) / 2 : NaN };
}

/** The first emulator's dumps, by size (REUSE_STATE). */
const dumps = new Map();

/** Phase 2: for each size, grow (or load the first emulator's dump), then SIZE_CYCLES cycles. */
async function sizePhase(side) {
  const out = [];
  let have = 0;
  for (const size of SIZES) {
    const t0 = performance.now();
    let how;
    if (side.api && REUSE_STATE && dumps.has(size)) {
      try {
        await emulatorApi(side, 'loadState', { path: dumps.get(size).file });
        side.grow = dumps.get(size).grow;
        // evm_increaseTime moves the chain's own time, which a load does not carry: this chain catches up with the loaded head.
        const head = Number((await call(side.url, 'eth_getBlockByNumber', ['latest', false])).timestamp);
        const ahead = head - Math.floor(Date.now() / 1000);
        if (ahead > 0) await call(side.url, 'evm_increaseTime', [hexQ(ahead)]);
        how = `loaded (${((performance.now() - t0) / 1000).toFixed(1)} s)`;
      } catch (err) {
        // The node kept its own state: it grows instead (from what it has, if anything).
        log(`  ${side.name}: the dump of size ${int(size)} did not load (${err.message}); growing instead`);
        dumps.get(size).refused = err.message;
      }
    }
    if (!how) {
      const g = await growState(side, have, size);
      how = `${((performance.now() - t0) / 1000).toFixed(0)} s, ${g.txs} txs, ${g.blocks} blocks`;
      log(`  ${side.name}: grew to ${int(size)} in ${how} (${(Number(g.gas) / 1e9).toFixed(2)} G gas, block gas limit ${g.gasLimit})`);
      if (side.api && REUSE_STATE && !dumps.has(size)) {
        await settle(side);
        const file = `size-${size}.state`;
        const d = await emulatorApi(side, 'dumpState', { path: file });
        dumps.set(size, { file, grow: side.grow, bytes: Number(d.bytes) });
      }
    }
    have = size;
    // The growth used up the C-Chain's capacity: the first cycles would wait for it to refill.
    if (GROW_PACE) await call(side.url, 'evm_increaseTime', [hexQ(GROW_PACE)]);
    await settle(side);
    const { rss } = await vmStatus(side.child.pid);
    const r = await cycles(side, SIZE_CYCLES, { seconds: SIZE_SECONDS });
    log(`  ${side.name}: ${int(size)} measured (${r.cycle.length} cycles)`);
    out.push({ size, how, rss, ...r });
  }
  return out;
}

/** Phase 3: CYCLES_LONG cycles, VmRSS every LONG_EVERY. */
async function longPhase(side) {
  const rss = [[0, (await vmStatus(side.child.pid)).rss]];
  const t0 = performance.now();
  const mode = side.key === 'anvil' ? LONG_MODE_ANVIL : LONG_MODE;
  const r = await cycles(side, CYCLES_LONG, {
    mode,
    seconds: side.key === 'anvil' ? LONG_SECONDS_ANVIL : Infinity,
    every: LONG_EVERY,
    onEvery: async (i) => {
      rss.push([i, (await vmStatus(side.child.pid)).rss]);
      log(`  ${side.name}: ${i} long cycles`);
    },
  });
  if (rss.at(-1)[0] !== r.cycle.length) rss.push([r.cycle.length, (await vmStatus(side.child.pid)).rss]);
  return { mode, rss, seconds: (performance.now() - t0) / 1000, first: r.cycle.slice(0, 1000), last: r.cycle.slice(-1000), ...r };
}

/** Phase 4's txs: TXS_RSS transfers from RSS_SENDERS keys, interleaved, signed once for every server. */
async function signRssTxs() {
  const keys = Array.from({ length: RSS_SENDERS }, (_, i) => keccakText(`bench:state sender ${i}`));
  const signers = await Promise.all(keys.map((k) => nativeSigner(k)));
  const txs = [];
  for (let i = 0; i < TXS_RSS; i++) {
    const s = i % RSS_SENDERS;
    const nonce = Math.floor(i / RSS_SENDERS);
    txs.push({ sender: s, raw: signers[s]({ type: 2, chainId: CHAIN_ID, maxFeePerGas: MAX_FEE, maxPriorityFeePerGas: 1n, ...transferFields(nonce) }) });
  }
  return { addresses: keys.map((k) => new Wallet(k).address), txs };
}

async function rssPhase(side, { addresses, txs }) {
  const start = await vmStatus(side.child.pid);
  for (const a of addresses) await call(side.url, 'anvil_setBalance', [a, hexQ(10n ** 26n)]);
  const t0 = performance.now();
  let mined = 0;
  let errors = 0;
  let firstError;
  let stalled = false;
  for (let i = 0; i < txs.length && !stalled; i += RSS_BATCH) {
    const batch = txs.slice(i, i + RSS_BATCH);
    if (GROW_PACE) await call(side.url, 'evm_increaseTime', [hexQ(GROW_PACE)]);
    const reply = await post(
      side.url,
      batch.map((t) => ({ jsonrpc: '2.0', id: ++rpcId, method: 'eth_sendRawTransaction', params: [t.raw] })),
    );
    const hashes = new Map();
    for (const [k, r] of (Array.isArray(reply) ? reply : [reply]).entries()) {
      if (r.error) {
        errors++;
        firstError ??= r.error.message;
      } else hashes.set(batch[k].sender, r.result);
    }
    try {
      for (const h of hashes.values()) await receipt(side, h);
      mined = i + batch.length;
    } catch {
      stalled = true;
    }
    if (Math.floor(mined / 10_000) > Math.floor(i / 10_000)) log(`  ${side.name}: ${mined.toLocaleString('en-US')} txs mined`);
  }
  const end = await vmStatus(side.child.pid);
  return { start, end, mined, errors, firstError, stalled, seconds: (performance.now() - t0) / 1000, blocks: await blockNumber(side) };
}

// --- Output ----------------------------------------------------------------------------------------
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const q = (xs, p) => (xs.length ? pct(sorted(xs), p) : NaN);
const ms = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
const pp = (xs) => `${ms(q(xs, 0.5))} / ${ms(q(xs, 0.99))}`;
const mib = (kb) => (kb !== undefined && Number.isFinite(kb) ? `${(kb / 1024).toFixed(0)} MiB` : '-');
const int = (n) => n.toLocaleString('en-US');
function printTable(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i] ?? '').length)));
  for (const r of rows) console.log(r.map((c, i) => String(c ?? '').padEnd(widths[i])).join('  '));
}

// --- Run -------------------------------------------------------------------------------------------
try {
  signEwoq = await nativeSigner(EWOQ_KEY);
  if (SIZES.length) grow = await compileGrow();
  const plan = starters();
  console.log(
    `bench:state — ${plan.map((p) => p.name).join(', ')}; node ${process.version}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (others on the machine skew every figure)`,
  );
  console.log(
    `settings: TXS=${TXS} CYCLES=${CYCLES} SIZES=${SIZES.join(',') || '-'} SIZE_CYCLES=${SIZE_CYCLES} GROW_TX_GAS=${GROW_TX_GAS} GROW_PACE=${GROW_PACE}` +
      ` REUSE_STATE=${REUSE_STATE ? 1 : 0} CYCLES_LONG=${CYCLES_LONG} LONG_EVERY=${LONG_EVERY} LONG_MODE=${LONG_MODE} TXS_RSS=${TXS_RSS} RSS_BATCH=${RSS_BATCH}` +
      ` RSS_SENDERS=${RSS_SENDERS}`,
  );
  if (grow) console.log(`growth contract: Grow (solc ${grow.version}, cancun, optimizer on), ${(grow.bytecode.length - 2) / 2} bytes of creation code`);
  const results = [];
  for (const p of plan) {
    const t0 = performance.now();
    log(`${p.name}: starting`);
    const side = await p.start();
    const res = { name: side.name, startRss: (await vmStatus(side.child.pid)).rss };
    results.push(res);
    try {
      res.base = await basePhase(side);
      log(`  ${side.name}: base phase done`);
      if (SIZES.length) res.sizes = await sizePhase(side);
      if (CYCLES_LONG) res.long = await longPhase(side);
    } catch (err) {
      res.error = err.message;
      log(`  ${side.name}: FAILED: ${err.message}`);
    } finally {
      res.stale = side.stale ?? 0;
      await stopChild(side.child);
    }
    log(`${p.name}: done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }

  console.log(`\n1. TXS=${TXS} transfers, then CYCLES=${CYCLES} × (evm_snapshot, 1 transfer mined, evm_revert); ms p50 / p99`);
  const ok = (r, k) => r[k] ?? {};
  printTable([
    ['', ...results.map((r) => r.name)],
    ['evm_snapshot p50 / p99', ...results.map((r) => (r.base ? pp(r.base.snap) : r.error))],
    ['evm_revert p50 / p99', ...results.map((r) => (r.base ? pp(r.base.revert) : '-'))],
    ['cycle p50 / p99', ...results.map((r) => (r.base ? pp(r.base.cycle) : '-'))],
    ['anvil_dumpState bytes', ...results.map((r) => (Number.isFinite(ok(r, 'base').dumpBytes) ? int(r.base.dumpBytes) : '-'))],
  ]);
  console.log('The emulator snapshots and reverts the whole node (X, P, C, shared memory, the index); Anvil its one chain.');

  if (SIZES.length) {
    console.log(
      `\n2. State size: SIZE storage slots and SIZE accounts written, then SIZE_CYCLES=${SIZE_CYCLES} cycles (or SIZE_SECONDS=${SIZE_SECONDS} s); ms p50 / p99` +
        ' (target of issue 27: snapshot + revert p50 <= 2 ms, flat in size)',
    );
    const rows = [['size', '', ...results.map((r) => r.name)]];
    for (const [k, size] of SIZES.entries()) {
      const at = (r) => r.sizes?.[k];
      const cell = (f) => results.map((r) => (at(r) ? f(at(r)) : '-'));
      rows.push([int(size), 'evm_snapshot p50 / p99', ...cell((s) => pp(s.snap))]);
      rows.push(['', 'evm_revert p50 / p99', ...cell((s) => pp(s.revert))]);
      rows.push(['', 'snapshot + revert p50', ...cell((s) => ms(q(s.snap, 0.5) + q(s.revert, 0.5)))]);
      rows.push(['', 'cycle p50 / p99', ...cell((s) => pp(s.cycle))]);
      rows.push(['', 'cycles timed', ...cell((s) => int(s.cycle.length))]);
      rows.push(['', 'grown in', ...cell((s) => s.how)]);
      rows.push(['', 'VmRSS before the cycles', ...cell((s) => mib(s.rss))]);
    }
    printTable(rows);
    const d = [...dumps.entries()].map(
      ([size, x]) => `${int(size)}: ${int(x.bytes)} bytes${x.refused ? ` (refused by emulator.loadState: ${x.refused})` : ''}`,
    );
    if (d.length) console.log(`emulator.dumpState of the first emulator (what the later ones load): ${d.join(', ')}`);
  }

  if (CYCLES_LONG) {
    const between = { tx: '1 transfer mined', mine: 'evm_mine', balance: 'anvil_setBalance' };
    console.log(`\n3. Memory across CYCLES_LONG=${int(CYCLES_LONG)} × (evm_snapshot, X, evm_revert), at size ${int(SIZES.at(-1) ?? 0)}: VmRSS; cycle ms`);
    const rows = [['cycles', ...results.map((r) => r.name)]];
    rows.push(['X', ...results.map((r) => (r.long ? between[r.long.mode] : '-'))]);
    // VmRSS at each point any server reached (Anvil's phase stops after LONG_SECONDS_ANVIL s).
    const points = [...new Set(results.flatMap((r) => r.long?.rss.map(([i]) => i) ?? []))].sort((a, b) => a - b);
    for (const i of points) rows.push([`VmRSS after ${int(i)}`, ...results.map((r) => mib(r.long?.rss.find(([j]) => j === i)?.[1]))]);
    rows.push(['cycles done', ...results.map((r) => (r.long ? int(r.long.cycle.length) : '-'))]);
    rows.push(['cycle p50, first 1,000', ...results.map((r) => (r.long ? ms(q(r.long.first, 0.5)) : '-'))]);
    rows.push(['cycle p50, last 1,000', ...results.map((r) => (r.long ? ms(q(r.long.last, 0.5)) : '-'))]);
    rows.push(['snapshot p50 / p99', ...results.map((r) => (r.long ? pp(r.long.snap) : '-'))]);
    rows.push(['revert p50 / p99', ...results.map((r) => (r.long ? pp(r.long.revert) : '-'))]);
    rows.push(['seconds', ...results.map((r) => (r.long ? r.long.seconds.toFixed(0) : '-'))]);
    printTable(rows);
  }
  for (const r of results) {
    if (r.stale) console.log(`${r.name}: ${int(r.stale)} times a cycle's tx was refused as already imported or dropped by the pool (see stale in the header)`);
    if (r.error) console.log(`${r.name} FAILED: ${r.error}`);
  }

  if (TXS_RSS) {
    log(`signing ${int(TXS_RSS)} transfers`);
    const signed = await signRssTxs();
    const rss = [];
    for (const p of plan) {
      log(`${p.name}: starting (RSS after ${int(TXS_RSS)} txs)`);
      const side = await p.start();
      try {
        rss.push({ name: side.name, ...(await rssPhase(side, signed)) });
      } catch (err) {
        rss.push({ name: side.name, error: err.message });
      } finally {
        await stopChild(side.child);
      }
    }
    console.log(`\n4. RSS after TXS_RSS=${int(TXS_RSS)} transfers (newly started servers, batches of ${RSS_BATCH}, each mined before the next)`);
    printTable([
      ['', ...rss.map((r) => r.name)],
      ['VmRSS at start', ...rss.map((r) => (r.error ? r.error : mib(r.start.rss)))],
      ['VmRSS after', ...rss.map((r) => (r.error ? '-' : mib(r.end.rss)))],
      ['VmHWM after', ...rss.map((r) => (r.error ? '-' : mib(r.end.hwm)))],
      ['txs mined', ...rss.map((r) => (r.error ? '-' : `${int(r.mined)}${r.stalled ? ' (STALLED)' : ''}`))],
      ['blocks', ...rss.map((r) => (r.error ? '-' : int(r.blocks)))],
      ['seconds', ...rss.map((r) => (r.error ? '-' : r.seconds.toFixed(0)))],
      ['send errors', ...rss.map((r) => (r.error ? '-' : `${r.errors}${r.firstError ? ` (${r.firstError})` : ''}`))],
    ]);
  }
} finally {
  await cleanup();
}

// Read benchmark: what an indexer or an explorer asks of a chain's history, one request after the
// other over HTTP, on the emulator's C-Chain (--dev, memdb) beside Anvil 1.7.1 in the same run.
//
// Both get the same history: the client tests' ERC-20 (test/fixtures/contracts/TestToken.sol,
// compiled here with the npm solc for Cancun) and BLOCKS blocks of TXS transfers each (automine off,
// the transfers sent, then evm_mine), one Transfer log per tx. Then, for each read, REQUESTS
// requests spread over that history (a block, a tx, a window picked by a fixed stride, so both
// servers answer the same questions), after an untimed pass of every read (a quarter as many
// each) and a tenth as many of that read untimed:
//   eth_getBlockByNumber (hashes; full txs), eth_getTransactionByHash, eth_getTransactionReceipt,
//   eth_getBlockReceipts, eth_getLogs of the token over WINDOW blocks.
// Printed per read: the client's wall time per request (p50) and the server's CPU per request (from
// /proc, all its threads), each with the emulator / Anvil ratio.
//
// Usage:  npm run build && npm run bench:reads      BLOCKS=300 TXS=4 REQUESTS=2000 WINDOW=100
//         EMULATOR_CLI=<path> runs another build (e.g. a worktree's dist/avalanche-emulator.js from before a change)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeDeployData, encodeFunctionData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CLI, compileTestToken, cpuSeconds, envIntOf, freePort, leftovers, pct, postJson, processUri, ROOT } from './common.mjs';

const envInt = envIntOf('bench:reads');
const BLOCKS = envInt('BLOCKS', 300);
const TXS = envInt('TXS', 4);
const REQUESTS = envInt('REQUESTS', 2000);
const WINDOW = envInt('WINDOW', 100);
const EMULATOR_CLI = process.env.EMULATOR_CLI || CLI;
const ANVIL = path.join(ROOT, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil');
const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const account = privateKeyToAccount(EWOQ_KEY);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const { children, cleanup, tempDir } = leftovers();

async function rpc(url, method, params = []) {
  const reply = await postJson(agent, url, { jsonrpc: '2.0', id: 1, method, params }, 60_000);
  if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
  return reply.result;
}

async function start(kind) {
  const dir = await tempDir(`bench-reads-${kind}-`);
  let child;
  let url;
  if (kind === 'anvil') {
    if (!existsSync(ANVIL)) throw new Error(`${path.relative(ROOT, ANVIL)} is missing (npm install)`);
    const port = await freePort();
    child = spawn(ANVIL, ['--chain-id', '43112', '--port', String(port), '--silent'], { stdio: 'ignore', env: { ...process.env, HOME: dir } });
    children.add(child);
    url = `http://127.0.0.1:${port}`;
  } else {
    if (!existsSync(EMULATOR_CLI)) throw new Error(`${EMULATOR_CLI} is missing; run npm run build first`);
    child = spawn(process.execPath, [EMULATOR_CLI, '--dev', '--http-port=0', '--db-type=memdb', `--data-dir=${dir}`, '--log-level=off'], { stdio: 'ignore' });
    children.add(child);
    url = `${await processUri(dir, 10)}/ext/bc/C/rpc`;
  }
  for (const deadline = Date.now() + 30_000; ; await sleep(20)) {
    if (Date.now() > deadline) throw new Error(`${kind} did not answer within 30 s`);
    try {
      await rpc(url, 'eth_chainId');
      break;
    } catch {}
  }
  return { kind, child, url };
}

async function receiptOf(url, hash) {
  for (let tries = 0; tries < 2000; tries++) {
    const receipt = await rpc(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await sleep(5);
  }
  throw new Error(`${url}: no receipt for ${hash} within 10 s`);
}

/** The history both servers get; answers the token's address and every tx hash. */
async function makeHistory(side, contract) {
  const { url } = side;
  await rpc(url, 'anvil_setBalance', [account.address, `0x${(10n ** 26n).toString(16)}`]);
  const fees = { maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 1n, chainId: 43112, type: 'eip1559' };
  let nonce = Number(await rpc(url, 'eth_getTransactionCount', [account.address, 'latest']));
  const data = encodeDeployData({ abi: contract.abi, bytecode: contract.bytecode, args: ['Token', 'TKN', 10n ** 30n] });
  const deploy = await rpc(url, 'eth_sendRawTransaction', [await account.signTransaction({ ...fees, nonce: nonce++, gas: 3_000_000n, data })]);
  const address = (await receiptOf(url, deploy)).contractAddress;
  await rpc(url, 'evm_setAutomine', [false]);
  const hashes = [];
  for (let b = 0; b < BLOCKS; b++) {
    for (let t = 0; t < TXS; t++) {
      const to = `0x${(b * TXS + t + 1).toString(16).padStart(40, '0')}`;
      const input = encodeFunctionData({ abi: contract.abi, functionName: 'transfer', args: [to, 1n] });
      hashes.push(
        await rpc(url, 'eth_sendRawTransaction', [await account.signTransaction({ ...fees, nonce: nonce++, gas: 100_000n, to: address, data: input })]),
      );
    }
    await rpc(url, 'evm_mine');
  }
  await rpc(url, 'evm_setAutomine', [true]);
  const last = await receiptOf(url, hashes.at(-1));
  const top = Number(last.blockNumber);
  const history = { address, hashes, first: top - BLOCKS + 1, top };
  // Both servers must hold the same history: BLOCKS blocks of TXS transfers, a log each.
  const firstBlock = await rpc(url, 'eth_getBlockByNumber', [`0x${history.first.toString(16)}`, false]);
  if (firstBlock.transactions[0] !== hashes[0] || firstBlock.transactions.length !== TXS)
    throw new Error(`${side.kind}: block ${history.first} is not the first of the ${BLOCKS} blocks of ${TXS} transfers`);
  return history;
}

/** Checks that a window's logs are all there on `side` before they are timed. */
async function checkLogs(side, history) {
  const [, [filter]] = reads(history).at(-1)[1](0);
  const logs = await rpc(side.url, 'eth_getLogs', [filter]);
  const want = (Number(filter.toBlock) - Number(filter.fromBlock) + 1) * TXS;
  if (logs.length !== want) throw new Error(`${side.kind}: eth_getLogs answered ${logs.length} logs, not ${want}`);
}

/** The reads, each a function of the request's index: the same questions for both servers. */
function reads(h) {
  const block = (i) => `0x${(h.first + ((i * 7919) % BLOCKS)).toString(16)}`;
  const tx = (i) => h.hashes[(i * 7919) % h.hashes.length];
  const span = Math.min(WINDOW, BLOCKS);
  const window = (i) => {
    const from = h.first + ((i * 7919) % (BLOCKS - span + 1));
    return { address: h.address, fromBlock: `0x${from.toString(16)}`, toBlock: `0x${(from + span - 1).toString(16)}` };
  };
  return [
    ['eth_getBlockByNumber, hashes', (i) => ['eth_getBlockByNumber', [block(i), false]]],
    ['eth_getBlockByNumber, full txs', (i) => ['eth_getBlockByNumber', [block(i), true]]],
    ['eth_getTransactionByHash', (i) => ['eth_getTransactionByHash', [tx(i)]]],
    ['eth_getTransactionReceipt', (i) => ['eth_getTransactionReceipt', [tx(i)]]],
    ['eth_getBlockReceipts', (i) => ['eth_getBlockReceipts', [block(i)]]],
    [`eth_getLogs, ${span} blocks`, (i) => ['eth_getLogs', [window(i)]]],
  ];
}

async function measure(side, history) {
  const results = {};
  // One untimed pass of every read first (a quarter of REQUESTS each): the emulator's first reads
  // after the history's thousand sends ran cold code (its first read, eth_getBlockByNumber, cost two
  // to three times what it cost at the end of the run), which an indexer's long run does not see.
  for (const [, ask] of reads(history)) for (let i = 0; i < Math.ceil(REQUESTS / 4); i++) await rpc(side.url, ...ask(i + 2 * REQUESTS));
  for (const [label, ask] of reads(history)) {
    for (let i = 0; i < Math.ceil(REQUESTS / 10); i++) await rpc(side.url, ...ask(i + REQUESTS));
    const walls = [];
    const cpu0 = await cpuSeconds(side.child.pid);
    for (let i = 0; i < REQUESTS; i++) {
      const t = performance.now();
      const answer = await rpc(side.url, ...ask(i));
      walls.push(performance.now() - t);
      if (answer === null) throw new Error(`${side.kind}: ${label} #${i} answered null`);
    }
    const cpu = ((await cpuSeconds(side.child.pid)) - cpu0) / REQUESTS;
    walls.sort((a, b) => a - b);
    results[label] = { wallMs: pct(walls, 0.5), cpuUs: cpu * 1e6 };
  }
  return results;
}

function table(emulator, anvil) {
  const f = (v, d) => (Number.isFinite(v) ? v.toFixed(d) : '-');
  const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}x` : '-');
  const rows = [['read', 'emulator p50 ms', 'Anvil p50 ms', 'ratio', 'emulator CPU us', 'Anvil CPU us', 'ratio']];
  for (const label of Object.keys(emulator)) {
    const e = emulator[label];
    const a = anvil?.[label] ?? {};
    rows.push([label, f(e.wallMs, 3), f(a.wallMs, 3), ratio(e.wallMs, a.wallMs), f(e.cpuUs, 0), f(a.cpuUs, 0), ratio(e.cpuUs, a.cpuUs)]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
}

try {
  const contract = compileTestToken();
  const anvilVersion = existsSync(ANVIL) ? execFileSync(ANVIL, ['--version'], { encoding: 'utf8' }).split('\n')[0] : 'anvil missing';
  console.log(`bench:reads: ${BLOCKS} blocks of ${TXS} ERC-20 transfers; ${REQUESTS} sequential requests per read (server CPU from /proc); ${anvilVersion}`);
  const out = {};
  for (const kind of ['emulator', 'anvil']) {
    const side = await start(kind);
    const history = await makeHistory(side, contract);
    await checkLogs(side, history);
    out[kind] = await measure(side, history);
    side.child.kill('SIGKILL');
  }
  table(out.emulator, out.anvil);
} finally {
  agent.destroy();
  await cleanup();
}

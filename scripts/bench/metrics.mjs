// Metrics API benchmark: TXS native transfers on an L1 (fixtures/myl1.json) spread over DAYS days of
// block time (the node's clock is moved a day forward with emulator.advanceClock between days), then
// the p50/p99 of each of the 17 metrics' queries (day buckets; hour buckets too for the four that
// allow them), beside a bare node:http server answering the same bytes, in one run.
//
//   npm run build && npm run bench:metrics     TXS=90000 DAYS=90 SENDERS=20 RECIPIENTS=1000 QUERIES=50 DB_TYPE=memdb|leveldb
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { keccak256, toUtf8Bytes, Wallet } from 'ethers';
import { CLI, envIntOf, nativeSigner, pct, ROOT, timeMetricQueries } from './common.mjs';

// Worker mode: signs the transfers of its senders.
if (!isMainThread) {
  const { senders, perSender, recipients, fee, total, count } = workerData;
  const out = [];
  const signers = await Promise.all(senders.map((s) => nativeSigner(s.key)));
  const tx = { ...fee, gasLimit: BigInt(fee.gasLimit), maxFeePerGas: BigInt(fee.maxFeePerGas), maxPriorityFeePerGas: BigInt(fee.maxPriorityFeePerGas) };
  for (let n = 0; n < perSender; n++) {
    for (const [k, s] of senders.entries()) {
      const index = n * count + s.index;
      if (index >= total) continue;
      out.push([index, signers[k]({ ...tx, nonce: n, to: recipients[index % recipients.length], value: 1n })]);
    }
  }
  parentPort.postMessage(out);
  process.exit(0);
}

const envInt = envIntOf('bench:metrics');
const TXS = envInt('TXS', 90_000);
const DAYS = envInt('DAYS', 90);
const SENDERS = envInt('SENDERS', 20);
const RECIPIENTS = envInt('RECIPIENTS', 1000);
const QUERIES = envInt('QUERIES', 50);
const WORKERS = envInt('SIGN_WORKERS', Math.max(1, os.cpus().length));
const DB_TYPE = process.env.DB_TYPE || 'memdb';
const CHAIN_ID = 99999;
const EWOQ = new Wallet('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
function request(url, body) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: body ? 'POST' : 'GET',
        agent,
        headers: body ? { 'content-type': 'application/json' } : {},
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
const rpc = async (url, calls) => JSON.parse((await request(url, JSON.stringify(calls))).body.toString('utf8'));

let dataDir;
let child;
async function cleanup() {
  child?.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
const ms = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${pct(s, 0.5).toFixed(2)} / ${pct(s, 0.99).toFixed(2)}`;
};

try {
  if (!existsSync(CLI)) throw new Error('dist/ is missing; run npm run build first');
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-metrics-'));
  child = spawn(
    process.execPath,
    [CLI, '--http-port=0', `--db-type=${DB_TYPE}`, `--data-dir=${dataDir}`, '--log-level=off', `--l1=${path.join(ROOT, 'fixtures/myl1.json')}`],
    { stdio: 'ignore' },
  );
  let uri;
  for (const deadline = Date.now() + 30_000; !uri; await sleep(20)) {
    if (Date.now() > deadline) throw new Error('the emulator wrote no process.json');
    try {
      ({ uri } = JSON.parse(await readFile(path.join(dataDir, 'process.json'), 'utf8')));
    } catch {}
  }
  const url = `${uri}/ext/bc/myl1/rpc`;
  const senders = Array.from({ length: SENDERS }, (_, i) => new Wallet(keccak256(toUtf8Bytes(`bench:metrics sender ${i}`))));
  const recipients = Array.from({ length: RECIPIENTS }, (_, i) => new Wallet(keccak256(toUtf8Bytes(`bench:metrics recipient ${i}`))).address);
  const fee = { type: 2, chainId: CHAIN_ID, gasLimit: 21_000n, maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 1n };
  const send = async (raws) => {
    const replies = await rpc(
      url,
      raws.map((r, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_sendRawTransaction', params: [r] })),
    );
    const failed = replies.find((r) => r.error);
    if (failed) throw new Error(`eth_sendRawTransaction: ${failed.error.message}`);
    return replies.map((r) => r.result);
  };
  const mined = async (hash) => {
    for (let i = 0; i < 4000; i++) {
      const [r] = await rpc(url, [{ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [hash] }]);
      if (r.result) return r.result;
      await sleep(5);
    }
    throw new Error(`${hash} was not mined`);
  };
  const funding = await send(await Promise.all(senders.map((s, i) => EWOQ.signTransaction({ ...fee, nonce: i, to: s.address, value: 10n ** 22n }))));
  await mined(funding.at(-1));

  process.stdout.write(`bench:metrics — signing ${TXS.toLocaleString('en-US')} transfers on ${WORKERS} threads... `);
  const perSender = Math.ceil(TXS / SENDERS);
  const signed = new Array(TXS);
  const shares = Array.from({ length: WORKERS }, () => []);
  for (const [i, s] of senders.entries()) shares[i % WORKERS].push({ key: s.privateKey, index: i });
  const plainFee = { ...fee, gasLimit: String(fee.gasLimit), maxFeePerGas: String(fee.maxFeePerGas), maxPriorityFeePerGas: String(fee.maxPriorityFeePerGas) };
  await Promise.all(
    shares.map(
      (share) =>
        new Promise((resolve, reject) => {
          const w = new Worker(fileURLToPath(import.meta.url), {
            workerData: { senders: share, perSender, recipients, fee: plainFee, total: TXS, count: SENDERS },
          });
          w.once('message', (rows) => {
            for (const [index, raw] of rows) signed[index] = raw;
            resolve();
          });
          w.once('error', reject);
        }),
    ),
  );
  console.log('done');

  // The days: each day's share of the txs, then the node's clock a day forward.
  const perDay = Math.ceil(TXS / DAYS);
  const t0 = performance.now();
  for (let day = 0; day < DAYS; day++) {
    const list = signed.slice(day * perDay, (day + 1) * perDay);
    let last;
    for (let i = 0; i < list.length; i += 100) last = (await send(list.slice(i, i + 100))).at(-1);
    if (last) await mined(last);
    await request(`${uri}/ext/emulator`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'emulator.advanceClock', params: { seconds: '86400' } }));
  }
  const sendSeconds = (performance.now() - t0) / 1000;
  // The follower at the head before timing the queries.
  await request(`${uri}/v2/chains/${CHAIN_ID}/metrics/txCount`);

  const rows = await timeMetricQueries(request, uri, CHAIN_ID, QUERIES);
  const sample = (await request(`${uri}/v2/chains/${CHAIN_ID}/metrics/txCount?pageSize=2160`)).body;
  const bare = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': sample.length }).end(sample));
  await new Promise((r) => bare.listen(0, '127.0.0.1', r));
  const bareTimes = [];
  for (let i = 0; i < QUERIES; i++) {
    const t = performance.now();
    await request(`http://127.0.0.1:${bare.address().port}/`);
    bareTimes.push(performance.now() - t);
  }
  bare.close();

  console.log(`chain: ${TXS.toLocaleString('en-US')} txs over ${DAYS} days of block time, ${(TXS / sendSeconds).toFixed(0)} tx/s (${DB_TYPE})`);
  console.log(`latency, ms (p50 / p99), ${QUERIES} sequential queries each, every point on one page:`);
  const width = Math.max(...rows.map(([n]) => n.length), 'bare node:http, the same bytes'.length);
  for (const [name, xs] of rows) console.log(`  ${name.padEnd(width)}  ${ms(xs)}`);
  console.log(`  ${'bare node:http, the same bytes'.padEnd(width)}  ${ms(bareTimes)}   (reference)`);
  console.log('target (issue 14, at 1,000,000 txs over 90 days): p50 < 50 ms per metric query');
} finally {
  await cleanup();
  agent.destroy();
}

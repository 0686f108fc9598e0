// Data API benchmark: TXS native transfers on an L1 (fixtures/myl1.json: its fee window lets blocks
// fill, unlike the C-Chain's ACP-176 refill) from SENDERS keys to RECIPIENTS addresses, sent in
// JSON-RPC batches; how far the follower trails the chain; then the latency of the list endpoints
// and of a balance at a past block, beside a bare node:http server answering the same bytes (the
// floor of any answer over HTTP on this machine), in one run.
//
// With DAYS > 1 the txs are spread over that many days of block time (the node's clock moved a day
// forward with emulator.advanceClock between days), and with METRICS=1 the 17 Metrics API queries are
// timed too (as bench:metrics does): one chain of a million txs over 90 days then serves the
// targets of both issues.
//
//   npm run build && npm run bench:data     TXS=20000 SENDERS=20 RECIPIENTS=1000 QUERIES=200 DB_TYPE=memdb|leveldb DAYS=1 METRICS=0
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Wallet, keccak256, toUtf8Bytes } from 'ethers';
import { CLI, envIntOf, nativeSigner, pct, ROOT, timeMetricQueries } from './common.mjs';

// Worker mode: signs the transfers of its senders (signing a million txs on one thread takes minutes).
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

const envInt = envIntOf('bench:data');
const WORKERS = envInt('SIGN_WORKERS', Math.max(1, os.cpus().length));
const TXS = envInt('TXS', 20_000);
const SENDERS = envInt('SENDERS', 20);
const RECIPIENTS = envInt('RECIPIENTS', 1000);
const QUERIES = envInt('QUERIES', 200);
const DAYS = envInt('DAYS', 1);
const METRICS = process.env.METRICS === '1';
const METRIC_QUERIES = envInt('METRIC_QUERIES', 50);
const DB_TYPE = process.env.DB_TYPE || 'memdb';
const CHAIN_ID = 99999;
const EWOQ = new Wallet('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
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
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-data-'));
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
  const senders = Array.from({ length: SENDERS }, (_, i) => new Wallet(keccak256(toUtf8Bytes(`bench:data sender ${i}`))));
  const recipients = Array.from({ length: RECIPIENTS }, (_, i) => new Wallet(keccak256(toUtf8Bytes(`bench:data recipient ${i}`))).address);
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
    for (let i = 0; i < 2000; i++) {
      const [r] = await rpc(url, [{ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [hash] }]);
      if (r.result) return r.result;
      await sleep(5);
    }
    throw new Error(`${hash} was not mined`);
  };
  // Fund the senders from ewoq.
  const funding = await send(await Promise.all(senders.map((s, i) => EWOQ.signTransaction({ ...fee, nonce: i, to: s.address, value: 10n ** 22n }))));
  await mined(funding.at(-1));
  const startHeight = Number((await rpc(url, [{ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }]))[0].result);

  // The transfers, signed up front, sent in batches of 100 (one per sender per round).
  // Signed up front by worker threads (one sender's nonces in order), sent in batches of 100.
  process.stdout.write(`bench:data — signing ${TXS.toLocaleString('en-US')} transfers on ${WORKERS} threads... `);
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
  const lags = [];
  let sampling = true;
  const sampler = (async () => {
    // The follower's lag, as a client sees it: how long until an address query (which waits for
    // the follower to reach the head) answers, while the chain keeps growing.
    while (sampling) {
      const t0 = performance.now();
      await request(`${uri}/v1/chains/${CHAIN_ID}/addresses/${recipients[0]}/transactions?pageSize=1`);
      lags.push(performance.now() - t0);
      await sleep(200);
    }
  })();
  const t0 = performance.now();
  let last;
  const perDay = Math.ceil(signed.length / DAYS);
  for (let day = 0; day < DAYS; day++) {
    const list = signed.slice(day * perDay, (day + 1) * perDay);
    for (let i = 0; i < list.length; i += 100) {
      const hashes = await send(list.slice(i, i + 100));
      last = hashes.at(-1);
      if ((i / 100) % 10 === 9) await mined(last);
    }
    if (last) await mined(last);
    if (DAYS > 1 && day < DAYS - 1) {
      await request(`${uri}/ext/emulator`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'emulator.advanceClock', params: { seconds: '86400' } }));
    }
    if (DAYS > 1 && day % 10 === 9)
      console.log(`  day ${day + 1}: ${((day + 1) * perDay).toLocaleString('en-US')} txs sent, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const sendSeconds = (performance.now() - t0) / 1000;
  const head = Number((await rpc(url, [{ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }]))[0].result);
  const blockRate = (head - startHeight) / sendSeconds;
  const c0 = performance.now();
  await request(`${uri}/v1/chains/${CHAIN_ID}/addresses/${recipients[1]}/transactions?pageSize=1`);
  const catchUp = performance.now() - c0;
  sampling = false;
  await sampler;

  const time = async (paths) => {
    const out = [];
    for (let i = 0; i < QUERIES; i++) {
      const p = paths(i);
      const t = performance.now();
      const r = await request(`${uri}${p}`);
      out.push(performance.now() - t);
      if (r.status !== 200) throw new Error(`${p}: ${r.status} ${r.body.toString('utf8').slice(0, 200)}`);
    }
    return out;
  };
  const rows = [
    ['listLatestTransactions pageSize=10', await time(() => `/v1/chains/${CHAIN_ID}/transactions`)],
    ['listLatestTransactions pageSize=100', await time(() => `/v1/chains/${CHAIN_ID}/transactions?pageSize=100`)],
    ['listTransactions, a sender (busy)', await time((i) => `/v1/chains/${CHAIN_ID}/addresses/${senders[i % SENDERS].address}/transactions`)],
    ['listTransactions, a recipient', await time((i) => `/v1/chains/${CHAIN_ID}/addresses/${recipients[(i * 7) % RECIPIENTS]}/transactions`)],
    [
      'getNativeBalance at a past block',
      await time(
        (i) =>
          `/v1/chains/${CHAIN_ID}/addresses/${recipients[i % RECIPIENTS]}/balances:getNative?blockNumber=${startHeight + ((i * 31) % (head - startHeight))}`,
      ),
    ],
    ['getNativeBalance now', await time((i) => `/v1/chains/${CHAIN_ID}/addresses/${recipients[i % RECIPIENTS]}/balances:getNative`)],
  ];
  const metricRows = METRICS ? await timeMetricQueries(request, uri, CHAIN_ID, METRIC_QUERIES) : [];
  // The reference: node:http answering the bytes of a 10-item list, on this machine, now.
  const sample = (await request(`${uri}/v1/chains/${CHAIN_ID}/transactions`)).body;
  const bare = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': sample.length }).end(sample));
  await new Promise((r) => bare.listen(0, '127.0.0.1', r));
  const bareTimes = [];
  for (let i = 0; i < QUERIES; i++) {
    const t = performance.now();
    await request(`http://127.0.0.1:${bare.address().port}/`);
    bareTimes.push(performance.now() - t);
  }
  bare.close();

  console.log(
    `chain: ${TXS.toLocaleString('en-US')} txs in ${head - startHeight} blocks${DAYS > 1 ? ` over ${DAYS} days of block time` : ''}, ${(TXS / sendSeconds).toFixed(0)} tx/s (${DB_TYPE})`,
  );
  const lagSorted = [...lags].sort((a, b) => a - b);
  const blocks = (q) => ((pct(lagSorted, q) / 1000) * blockRate).toFixed(1);
  console.log(
    `follower: an address query during the load (it waits for the follower to reach the head) answered in p50/p99 ${ms(lags)} ms, about ${blocks(0.5)} / ${blocks(0.99)} blocks at ${blockRate.toFixed(1)} blocks/s; after the last block: ${catchUp.toFixed(1)} ms`,
  );
  console.log(`latency, ms (p50 / p99), ${QUERIES} sequential queries each:`);
  const width = Math.max(...rows.map(([n]) => n.length), 'bare node:http, the same bytes'.length);
  for (const [name, xs] of rows) console.log(`  ${name.padEnd(width)}  ${ms(xs)}`);
  console.log(`  ${'bare node:http, the same bytes'.padEnd(width)}  ${ms(bareTimes)}   (reference)`);
  console.log('target (issue 13, at 1,000,000 txs): list endpoints and a past balance p50 < 20 ms');
  if (METRICS) {
    console.log(`Metrics API, ms (p50 / p99), ${METRIC_QUERIES} sequential queries each, every point on one page:`);
    for (const [name, xs] of metricRows) console.log(`  ${name.padEnd(width)}  ${ms(xs)}`);
    console.log('target (issue 14, at 1,000,000 txs over 90 days): p50 < 50 ms per metric query');
  }
} finally {
  await cleanup();
  agent.destroy();
}

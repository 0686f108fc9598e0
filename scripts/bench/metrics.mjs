// Metrics API benchmark: TXS native transfers on an L1 (fixtures/myl1.json) spread over DAYS days of
// block time (the node's clock is moved a day forward with emulator.advanceClock between days), then
// the p50/p99 of each of the 17 metrics' queries (day buckets; hour buckets too for the four that
// allow them), beside a bare node:http server answering the same bytes, in one run.
//
//   npm run build && npm run bench:metrics     TXS=90000 DAYS=90 SENDERS=20 RECIPIENTS=1000 QUERIES=50 DB_TYPE=memdb|leveldb
import os from 'node:os';
import http from 'node:http';
import { envIntOf, pct, timeMetricQueries } from './common.mjs';
import { CHAIN_ID, fundSenders, httpClient, l1Accounts, l1Sender, signTransfers, startL1Node } from './l1.mjs';

const envInt = envIntOf('bench:metrics');
const TXS = envInt('TXS', 90_000);
const DAYS = envInt('DAYS', 90);
const SENDERS = envInt('SENDERS', 20);
const RECIPIENTS = envInt('RECIPIENTS', 1000);
const QUERIES = envInt('QUERIES', 50);
const WORKERS = envInt('SIGN_WORKERS', Math.max(1, os.cpus().length));
const DB_TYPE = process.env.DB_TYPE || 'memdb';
const client = httpClient(16);
const { request, rpc } = client;

const ms = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${pct(s, 0.5).toFixed(2)} / ${pct(s, 0.99).toFixed(2)}`;
};

let node;
try {
  node = await startL1Node('bench:metrics', DB_TYPE);
  const { uri, url } = node;
  const { senders, recipients } = l1Accounts('bench:metrics', SENDERS, RECIPIENTS);
  const { send, mined } = l1Sender(rpc, url, 4000);
  await fundSenders({ send, mined }, senders);
  process.stdout.write(`bench:metrics — signing ${TXS.toLocaleString('en-US')} transfers on ${WORKERS} threads... `);
  const signed = await signTransfers({ senders, recipients, total: TXS, workers: WORKERS });
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
  await node?.stop();
  client.close();
}

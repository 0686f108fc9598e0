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
import os from 'node:os';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { envIntOf, pct, timeMetricQueries } from './common.mjs';
import { CHAIN_ID, fundSenders, httpClient, l1Accounts, l1Sender, signTransfers, startL1Node } from './l1.mjs';

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
const client = httpClient(64);
const { request, rpc } = client;

const ms = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${pct(s, 0.5).toFixed(2)} / ${pct(s, 0.99).toFixed(2)}`;
};

let node;
try {
  node = await startL1Node('bench:data', DB_TYPE);
  const { uri, url } = node;
  const { senders, recipients } = l1Accounts('bench:data', SENDERS, RECIPIENTS);
  const { send, mined } = l1Sender(rpc, url, 2000);
  await fundSenders({ send, mined }, senders);
  const startHeight = Number((await rpc(url, [{ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }]))[0].result);
  // The transfers, signed up front by worker threads (one sender's nonces in order), sent in batches of 100.
  process.stdout.write(`bench:data — signing ${TXS.toLocaleString('en-US')} transfers on ${WORKERS} threads... `);
  const signed = await signTransfers({ senders, recipients, total: TXS, workers: WORKERS });
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
  await node?.stop();
  client.close();
}

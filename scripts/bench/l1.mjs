// What bench:data and bench:metrics share: an emulator running the L1 of fixtures/myl1.json on a
// temp data dir, an HTTP client, and transfers from SENDERS keys to RECIPIENTS addresses, funded by
// ewoq and signed up front on worker threads (this file is also the worker: signing a million txs
// on one thread takes minutes).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { keccak256, toUtf8Bytes, Wallet } from 'ethers';
import { CLI, nativeSigner, processUri, ROOT } from './common.mjs';

export const CHAIN_ID = 99999;
const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const FEE = { type: 2, chainId: CHAIN_ID, gasLimit: 21_000n, maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 1n };

// Worker mode: signs the transfers of its senders, each sender's nonces in order.
if (!isMainThread) {
  const { senders, perSender, recipients, total, count } = workerData;
  const out = [];
  const signers = await Promise.all(senders.map((s) => nativeSigner(s.key)));
  for (let n = 0; n < perSender; n++) {
    for (const [k, s] of senders.entries()) {
      const index = n * count + s.index;
      if (index >= total) continue;
      out.push([index, signers[k]({ ...FEE, nonce: n, to: recipients[index % recipients.length], value: 1n })]);
    }
  }
  parentPort.postMessage(out);
  process.exit(0);
}

/** An HTTP client with keep-alive: request(url, body?) answers { status, body }; rpc(url, calls) the parsed replies. */
export function httpClient(maxSockets) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const request = (url, body) =>
    new Promise((resolve, reject) => {
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
  const rpc = async (url, calls) => JSON.parse((await request(url, JSON.stringify(calls))).body.toString('utf8'));
  return { request, rpc, close: () => agent.destroy() };
}

/**
 * Starts the emulator with the L1 on a temp data dir (removed by stop, also on Ctrl-C); answers its
 * uri, the L1's RPC url and stop().
 */
export async function startL1Node(bench, dbType) {
  if (!existsSync(CLI)) throw new Error('dist/ is missing; run npm run build first');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${bench.replace(':', '-')}-`));
  const child = spawn(
    process.execPath,
    [CLI, '--http-port=0', `--db-type=${dbType}`, `--data-dir=${dataDir}`, '--log-level=off', `--l1=${path.join(ROOT, 'fixtures/myl1.json')}`],
    { stdio: 'ignore' },
  );
  const stop = async () => {
    child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  };
  process.on('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    const uri = await processUri(dataDir);
    return { uri, url: `${uri}/ext/bc/myl1/rpc`, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** eth_sendRawTransaction of `raws` in one batch (their hashes), and a wait for a hash's receipt (`tries` polls, 5 ms apart). */
export function l1Sender(rpc, url, tries) {
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
    for (let i = 0; i < tries; i++) {
      const [r] = await rpc(url, [{ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [hash] }]);
      if (r.result) return r.result;
      await sleep(5);
    }
    throw new Error(`${hash} was not mined`);
  };
  return { send, mined };
}

/** The bench's senders (keys derived from `bench`) and recipient addresses. */
export function l1Accounts(bench, senders, recipients) {
  return {
    senders: Array.from({ length: senders }, (_, i) => new Wallet(keccak256(toUtf8Bytes(`${bench} sender ${i}`)))),
    recipients: Array.from({ length: recipients }, (_, i) => new Wallet(keccak256(toUtf8Bytes(`${bench} recipient ${i}`))).address),
  };
}

/** Funds every sender with 10,000 AVAX from ewoq, and waits until it is mined. */
export async function fundSenders({ send, mined }, senders) {
  const ewoq = await nativeSigner(EWOQ_KEY);
  const hashes = await send(senders.map((s, i) => ewoq({ ...FEE, nonce: i, to: s.address, value: 10n ** 22n })));
  await mined(hashes.at(-1));
}

/** `total` transfers of 1 wei, round robin over the senders (nonces from 0), signed on `workers` threads. */
export async function signTransfers({ senders, recipients, total, workers }) {
  const perSender = Math.ceil(total / senders.length);
  const signed = new Array(total);
  const shares = Array.from({ length: workers }, () => []);
  for (const [i, s] of senders.entries()) shares[i % workers].push({ key: s.privateKey, index: i });
  await Promise.all(
    shares.map(
      (share) =>
        new Promise((resolve, reject) => {
          const w = new Worker(fileURLToPath(import.meta.url), { workerData: { senders: share, perSender, recipients, total, count: senders.length } });
          w.once('message', (rows) => {
            for (const [index, raw] of rows) signed[index] = raw;
            resolve();
          });
          w.once('error', reject);
        }),
    ),
  );
  return signed;
}

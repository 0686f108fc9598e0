// Watching the node while the fuzz runs, from a worker thread (its own event loop, so the fuzzer's
// work never shows up as the node's latency):
// - the longest event-loop stall: GET /ext/health/liveness every 50 ms on a connection of its own,
//   the latency of each (a request waits for the probe before it when one is slow: the max is what
//   a client saw);
// - a websocket client that keeps being answered: eth_blockNumber on /ext/bc/C/ws every 250 ms. A
//   call must be answered within the timeout unless the node closes the connection (whole-node
//   reverts and loads close every websocket); the canary then reconnects.
import { Worker } from 'node:worker_threads';

export interface ProbeReport {
  liveness: {
    sent: number;
    answered: number;
    failed: number;
    maxMs: number;
    p99Ms: number;
    slowest: Array<{ at: number; ms: number }>;
    errors: string[];
    /** Every probe: when it was sent (Date.now()) and how long its answer took (ms). */
    samples: Array<[number, number]>;
  };
  canary: {
    sent: number;
    answered: number;
    unanswered: number;
    reconnects: number;
    closeCodes: Record<string, number>;
    maxMs: number;
    connectFailures: number;
    errors: string[];
  };
}

const WORKER = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const net = require('node:net');
const { uri, timeoutMs } = workerData;
const base = new URL(uri);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const L = { sent: 0, answered: 0, failed: 0, maxMs: 0, lat: [], slowest: [], errors: [], samples: [] };
const W = { sent: 0, answered: 0, unanswered: 0, reconnects: 0, closeCodes: {}, maxMs: 0, connectFailures: 0, errors: [] };
let stopping = false;
const t0 = Date.now();

function liveness() {
  if (stopping) return;
  const start = performance.now();
  const sentAt = Date.now();
  L.sent++;
  let settled = false;
  const done = (ok, what) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    const ms = performance.now() - start;
    if (ok) { L.answered++; L.lat.push(ms); } else { L.failed++; if (L.errors.length < 10) L.errors.push(what); }
    if (ms > L.maxMs) L.maxMs = ms;
    L.samples.push([sentAt, Math.round(ms)]);
    L.slowest.push({ at: Math.round((Date.now() - t0) / 100) / 10, ms: Math.round(ms) });
    L.slowest.sort((a, b) => b.ms - a.ms); L.slowest.length = Math.min(L.slowest.length, 5);
    setTimeout(liveness, Math.max(0, 50 - ms));
  };
  const req = http.get({ host: base.hostname, port: base.port, path: '/ext/health/liveness', agent }, (res) => {
    res.resume();
    // A 503 is an answer (a health check may fail while faults are injected).
    res.on('end', () => done(res.statusCode === 200 || res.statusCode === 503, 'HTTP ' + res.statusCode));
    res.on('error', (e) => done(false, e.code || e.message));
  });
  req.on('error', (e) => done(false, e.code || e.message));
  const timer = setTimeout(() => { req.destroy(new Error('timeout')); done(false, 'no answer within ' + timeoutMs + ' ms'); }, timeoutMs);
}

function mask(payload) {
  const m = Buffer.from([1, 2, 3, 4]);
  const head = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0xfe, payload.length >> 8, payload.length & 255]);
  const body = Buffer.from(payload);
  for (let i = 0; i < body.length; i++) body[i] ^= m[i % 4];
  return Buffer.concat([head, m, body]);
}

let sock; let buf = Buffer.alloc(0); let upgraded = false; let gotClose = false; const pending = new Map(); let nextId = 1;
function connect() {
  if (stopping) return;
  upgraded = false; gotClose = false; buf = Buffer.alloc(0);
  sock = net.connect(Number(base.port), base.hostname);
  const s = sock;
  s.on('connect', () => s.write('GET /ext/bc/C/ws HTTP/1.1\r\nHost: ' + base.host + '\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n'));
  s.on('data', (c) => {
    buf = Buffer.concat([buf, c]);
    if (!upgraded) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const status = buf.subarray(0, 12).toString();
      if (!status.includes(' 101')) { W.connectFailures++; if (W.errors.length < 10) W.errors.push('handshake: ' + status); s.destroy(); return; }
      upgraded = true; buf = buf.subarray(end + 4);
    }
    for (;;) {
      if (buf.length < 2) break;
      let len = buf[1] & 0x7f; let h = 2;
      if (len === 126) { if (buf.length < 4) break; len = buf.readUInt16BE(2); h = 4; }
      else if (len === 127) { if (buf.length < 10) break; len = Number(buf.readBigUInt64BE(2)); h = 10; }
      if (buf.length < h + len) break;
      const op = buf[0] & 0x0f; const payload = buf.subarray(h, h + len);
      buf = buf.subarray(h + len);
      if (op === 8) { gotClose = true; const code = payload.length >= 2 ? String(payload.readUInt16BE(0)) : 'none'; W.closeCodes[code] = (W.closeCodes[code] || 0) + 1; }
      if (op === 1) {
        try {
          const v = JSON.parse(payload.toString());
          const p = pending.get(v.id);
          if (p) { pending.delete(v.id); W.answered++; const ms = performance.now() - p; if (ms > W.maxMs) W.maxMs = ms; }
        } catch (e) { if (W.errors.length < 10) W.errors.push('bad message: ' + payload.toString().slice(0, 80)); }
      }
    }
  });
  s.on('error', (e) => { if (W.errors.length < 10 && !stopping) W.errors.push(e.code || e.message); });
  s.on('close', () => {
    if (sock !== s) return;
    if (!upgraded && !stopping) W.connectFailures++;
    // Calls in flight when the node closed the connection are not counted as unanswered.
    pending.clear();
    if (!stopping) { W.reconnects++; if (upgraded && !gotClose) W.closeCodes.dropped = (W.closeCodes.dropped || 0) + 1; setTimeout(connect, 100); }
  });
}

function tick() {
  if (stopping) return;
  const now = performance.now();
  for (const [id, at] of pending) if (now - at > timeoutMs) { pending.delete(id); W.unanswered++; if (W.errors.length < 10) W.errors.push('call ' + id + ' unanswered for ' + timeoutMs + ' ms'); }
  if (upgraded && sock && !sock.destroyed) {
    const id = nextId++;
    pending.set(id, performance.now());
    W.sent++;
    sock.write(mask(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_blockNumber', params: [] })));
  }
  setTimeout(tick, 250);
}

parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  // Wait for the calls in flight, then report.
  const started = Date.now();
  const finish = () => {
    if (pending.size > 0 && Date.now() - started < timeoutMs) return setTimeout(finish, 50);
    for (const [id] of pending) { W.unanswered++; if (W.errors.length < 10) W.errors.push('call ' + id + ' unanswered at the end'); }
    stopping = true;
    if (sock) sock.destroy();
    agent.destroy();
    const lat = L.lat.sort((a, b) => a - b);
    const p99 = lat.length ? lat[Math.min(lat.length - 1, Math.floor(lat.length * 0.99))] : 0;
    parentPort.postMessage({
      liveness: { sent: L.sent, answered: L.answered, failed: L.failed, maxMs: Math.round(L.maxMs), p99Ms: Math.round(p99), slowest: L.slowest, errors: L.errors, samples: L.samples },
      canary: { ...W, maxMs: Math.round(W.maxMs) },
    });
  };
  finish();
});

liveness();
connect();
setTimeout(tick, 250);
`;

/** The longest probe latency that did not overlap any of `windows` (Date.now() from, to). */
export function longestStallOutside(samples: Array<[number, number]>, windows: Array<[number, number]>): number {
  let max = 0;
  for (const [at, ms] of samples) {
    if (windows.some(([from, to]) => at <= to && at + ms >= from)) continue;
    if (ms > max) max = ms;
  }
  return max;
}

export interface Probe {
  stop(): Promise<ProbeReport>;
}

export function startProbe(uri: string, timeoutMs: number): Probe {
  const worker = new Worker(WORKER, { eval: true, workerData: { uri, timeoutMs } });
  return {
    stop: () =>
      new Promise<ProbeReport>((resolve, reject) => {
        worker.once('message', (report: ProbeReport) => {
          void worker.terminate();
          resolve(report);
        });
        worker.once('error', reject);
        worker.postMessage('stop');
      }),
  };
}

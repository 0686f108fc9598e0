// A JSON-RPC server that does no work, for bench:suite's floor: it answers a client with the answers
// another server gave the same client before. Run as a child (child_process.fork), it reports
// { port } to its parent once it listens, on 127.0.0.1.
//
//   record <upstream URL> <file>: forwards every POST body to the upstream (node:http, keep-alive)
//     and answers what the upstream answered; on SIGTERM writes [request, answer] pairs to <file>.
//   replay <file>: answers each request with the answer recorded for the same request (its method
//     and params, byte for byte as the client sent them), the id set to the request's own. A
//     request asked more often than it was recorded (a receipt polled once more) gets the last
//     answer again; one never recorded is answered HTTP 500 `not recorded: <method>`, and the
//     client's check fails. Matching by content, not by position, keeps the replay right when the
//     client's polls interleave differently. Building the answer costs a JSON.parse of the request
//     and a string concatenation; a bare node:http server does the parse too.
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';

const [mode, ...args] = process.argv.slice(2);

/** The part of a single request that picks its answer: method and params, as sent. */
function keyOf(request) {
  return `${request.method} ${JSON.stringify(request.params ?? [])}`;
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function listen(handler) {
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405, { 'content-length': 0 }).end();
    readBody(req).then((body) => handler(body, res));
  });
  server.keepAliveTimeout = 120_000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
}

function reply(res, status, text) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

function record(upstream, file) {
  const url = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const pairs = [];
  const forward = (body) =>
    new Promise((resolve, reject) => {
      const r = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { 'content-type': 'application/json' } },
        (up) => readBody(up).then((text) => resolve({ status: up.statusCode, text }), reject),
      );
      r.on('error', reject);
      r.end(body);
    });
  listen(async (body, res) => {
    try {
      const { status, text } = await forward(body);
      pairs.push([body, text]);
      reply(res, status, text);
    } catch (e) {
      reply(res, 502, JSON.stringify({ error: String(e) }));
    }
  });
  process.on('SIGTERM', () => {
    writeFileSync(file, JSON.stringify(pairs));
    process.exit(0);
  });
}

function replay(file) {
  // Per request key, its answers in the order given, each without its id: `,"jsonrpc":…}` to follow `{"id":<id>`.
  const answers = new Map();
  for (const [body, text] of JSON.parse(readFileSync(file, 'utf8'))) {
    const { id, ...rest } = JSON.parse(text);
    const key = keyOf(JSON.parse(body));
    if (!answers.has(key)) answers.set(key, { next: 0, tails: [] });
    answers.get(key).tails.push(JSON.stringify(rest).slice(1));
  }
  listen((body, res) => {
    let request;
    try {
      request = JSON.parse(body);
    } catch {
      return reply(res, 400, JSON.stringify({ error: 'not JSON' }));
    }
    const recorded = Array.isArray(request) ? undefined : answers.get(keyOf(request));
    if (!recorded) return reply(res, 500, JSON.stringify({ error: `not recorded: ${Array.isArray(request) ? 'a batch' : request.method}` }));
    const tail = recorded.tails[Math.min(recorded.next++, recorded.tails.length - 1)];
    reply(res, 200, `{"id":${JSON.stringify(request.id ?? null)},${tail}`);
  });
  process.on('SIGTERM', () => process.exit(0));
}

if (mode === 'record') record(args[0], args[1]);
else if (mode === 'replay') replay(args[0]);
else throw new Error(`replay-server: mode ${mode} is neither record nor replay`);

// Large-body benchmark: what a stream of 4 MiB JSON-RPC bodies costs the node, and how long it
// stalls another client meanwhile, beside a bare node:http server that reads and JSON.parse's the
// same bodies (the floor of reading 4 MiB over HTTP on this machine), measured in the same run;
// then what the request journal's queries cost once it holds thousands of large requests.
//
// Five kinds of body, each just under the 4 MiB limit: valid JSON-RPC with one huge string param
// and the same body cut short (invalid JSON, found at its very end), to /ext/info (avalanchego's
// dialect) and /ext/bc/C/rpc (geth's); and params of a million small numbers (the worst shape for
// a JSON reader written in JavaScript: a value per 4 bytes). STREAMS clients send BODIES bodies of
// each kind, back to back; meanwhile one more client sends small info.getNetworkID requests one
// after the other, and its worst and p99 latencies are the stall the big bodies cause.
//
// Then JOURNAL_REQUESTS requests of 59 KiB (the journal's 20,000 in all, when the default) go to
// /ext/info, and emulator.journal is asked for its newest entry, a default page, a method filter
// and a route and status filter, each timed beside a small info.getNetworkID call at that moment,
// with the node's RSS before and after.
//
// Usage:  npm run build && node scripts/bench/bodies.mjs     BODIES=10 STREAMS=2 JOURNAL_REQUESTS=20000 PIN=1
//         NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the emulator (written on exit);
//         EMULATOR_CLI=<path> runs another build (e.g. a copy of dist/ from before a change)
// Always exits 0: it reports, it does not gate.
import { execFileSync, fork, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, cpuSeconds, envArgs, envIntOf, hasTaskset, loadDist, pct, processUri, serveBareReply } from './common.mjs';

if (process.argv[2] === '--bare-server') serveBareReply();
else await main();

async function main() {
  await loadDist('bench:bodies');
  const envInt = envIntOf('bench:bodies');
  const BODIES = envInt('BODIES', 10);
  const STREAMS = envInt('STREAMS', 2);
  const JOURNAL_REQUESTS = envInt('JOURNAL_REQUESTS', 20_000, 0);
  const PIN = process.env.PIN !== '0' && os.cpus().length >= 2 && hasTaskset();
  const pin = (pid, cpu) => PIN && execFileSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' });
  pin(process.pid, 0);
  const kinds = bodyKinds(4 * 1024 * 1024 - 256);
  const small = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID"}');
  const agent = new http.Agent({ keepAlive: true, maxSockets: STREAMS + 1 });

  const emulator = await startEmulator(pin);
  const bare = await startBare(pin);
  console.log(
    `bench:bodies — ${STREAMS} stream(s) x ${BODIES} bodies of ${(kinds[0].body.length / 1048576).toFixed(2)} MiB per kind, ` +
      `node ${process.version}${PIN ? ', load generator on CPU 0, servers on CPU 1' : ''}`,
  );
  console.log(
    `\n${'kind'.padEnd(22)}${'server'.padEnd(16)}${'ms/body p50'.padStart(12)}${'max'.padStart(9)}${'CPU ms/body'.padStart(13)}` +
      `${'other client: p99 ms'.padStart(22)}${'max ms'.padStart(9)}`,
  );
  try {
    for (const kind of kinds) {
      for (const [name, server] of [
        ['emulator', emulator],
        ['bare node:http', bare],
      ]) {
        const r = await stream(agent, server, kind, small, BODIES, STREAMS);
        console.log(
          `${kind.name.padEnd(22)}${name.padEnd(16)}${fmt(pct(r.times, 0.5), 12)}${fmt(r.times.at(-1), 9)}${fmt(r.cpuMs, 13)}` +
            `${fmt(pct(r.others, 0.99), 22)}${fmt(r.others.at(-1), 9)}`,
        );
        if (r.failures > 0) console.log(`  ${r.failures} request(s) failed: ${r.firstFailure}`);
      }
    }
    console.log(`\nemulator RSS after the stream: ${await rssMiB(emulator.child.pid)} MiB`);
    if (JOURNAL_REQUESTS > 0) await timeJournal(agent, emulator, small, JOURNAL_REQUESTS);
  } catch (err) {
    console.error(`bench:bodies failed: ${err.stack ?? err}`);
  } finally {
    agent.destroy();
    await Promise.all([stop(emulator.child), stop(bare.child)]);
    await rm(emulator.dataDir, { recursive: true, force: true });
  }
}

/** Each kind's body: a valid call with one huge string param, and the same cut short by one byte. */
function bodyKinds(size) {
  const make = (head, tail) => {
    const body = Buffer.alloc(size, 0x61); // 'a'
    body.write(head, 0, 'latin1');
    body.write(tail, size - tail.length, 'latin1');
    return body;
  };
  const info = make('{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","params":{"x":"', '"}}');
  const c = make('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":["', '"]}');
  const numbersHead = '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","params":{"x":[0';
  const numbers = Buffer.from(`${numbersHead}${',123'.repeat((size - numbersHead.length - 3) / 4)}]}}`);
  return [
    { name: 'info, valid', path: '/ext/info', body: info },
    { name: 'info, invalid JSON', path: '/ext/info', body: info.subarray(0, size - 1) },
    { name: 'C-Chain, valid', path: '/ext/bc/C/rpc', body: c },
    { name: 'C-Chain, invalid JSON', path: '/ext/bc/C/rpc', body: c.subarray(0, size - 1) },
    { name: 'info, 1M numbers', path: '/ext/info', body: numbers },
  ];
}

/** STREAMS clients each send `count` big bodies while one more sends small requests; times in ms, sorted. */
async function stream(agent, server, kind, small, count, streams) {
  const times = [];
  const others = [];
  const failures = { n: 0, first: '' };
  const fail = (what) => {
    if (failures.n++ === 0) failures.first = what;
  };
  const cpuBefore = await cpuSeconds(server.child.pid);
  let running = true;
  const other = (async () => {
    while (running) {
      const t = performance.now();
      const r = await post(agent, server.uri, '/ext/info', small);
      others.push(performance.now() - t);
      if (r.status !== 200) fail(`small request: HTTP ${r.status}`);
    }
  })();
  await Promise.all(
    Array.from({ length: streams }, async () => {
      for (let i = 0; i < count; i++) {
        const t = performance.now();
        const r = await post(agent, server.uri, kind.path, kind.body);
        times.push(performance.now() - t);
        if (r.status !== 200 && server.bare !== true) fail(`${kind.name}: HTTP ${r.status} ${r.body.subarray(0, 200)}`);
      }
    }),
  );
  running = false;
  await other;
  const cpuMs = (((await cpuSeconds(server.child.pid)) - cpuBefore) * 1000) / (count * streams);
  const sorted = (xs) => xs.sort((a, b) => a - b);
  return { times: sorted(times), others: sorted(others), cpuMs, failures: failures.n, firstFailure: failures.first };
}

/**
 * Fills the journal with `count` requests of 59 KiB, then times its queries, each beside a small
 * call at that moment; and the node's RSS before and after them.
 */
async function timeJournal(agent, server, small, count) {
  const head = '{"jsonrpc":"2.0","id":1,"method":"info.getNetworkID","params":{"pad":"';
  const body = Buffer.from(`${head}${'x'.repeat(59 * 1024 - head.length - 3)}"}}`);
  const routes = await bodyRoutes(agent, server);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) await post(agent, server.uri, routes[next++ % routes.length], body);
    }),
  );
  console.log(
    `\njournal: ${count.toLocaleString('en-US')} requests of 59 KiB over ${routes.length} routes in ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
      `emulator RSS ${await rssMiB(server.child.pid)} MiB`,
  );
  const timed = async (route, payload) => {
    const t = performance.now();
    const r = await post(agent, server.uri, route, payload);
    return { ms: performance.now() - t, body: r.body };
  };
  for (const params of [{ limit: 1 }, {}, { method: 'info.getNetworkID', limit: 10 }, { route: '/ext/info', status: 200, limit: 5 }]) {
    const q = await timed('/ext/emulator', Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'emulator.journal', params })));
    const reference = await timed('/ext/info', small);
    const entries = JSON.parse(q.body.toString('utf8')).result?.entries ?? [];
    console.log(
      `  emulator.journal(${JSON.stringify(params)}): ${q.ms.toFixed(1)} ms, ${entries.length} entries, ` +
        `${(q.body.length / 1048576).toFixed(2)} MiB reply (info.getNetworkID just after: ${reference.ms.toFixed(1)} ms)`,
    );
  }
  console.log(`  emulator RSS after the queries: ${await rssMiB(server.child.pid)} MiB`);
}

/**
 * The JSON-RPC routes, each of which the journal keeps 1,000 requests of: every chain's endpoints
 * by alias and by ID (the journal's routes are paths as requested). 22 of them hold its 20,000.
 */
async function bodyRoutes(agent, server) {
  const ids = {};
  for (const alias of ['X', 'P', 'C']) {
    const call = { jsonrpc: '2.0', id: 1, method: 'info.getBlockchainID', params: { alias } };
    ids[alias] = JSON.parse((await post(agent, server.uri, '/ext/info', Buffer.from(JSON.stringify(call)))).body.toString('utf8')).result.blockchainID;
  }
  const chains = (x, p, c) => [x, `${x}/wallet`, p, `${c}/rpc`, `${c}/avax`];
  return [
    '/ext/info',
    '/ext/health',
    ...chains('/ext/bc/X', '/ext/bc/P', '/ext/bc/C'),
    ...chains('/ext/X', '/ext/P', '/ext/C'),
    ...chains(`/ext/bc/${ids.X}`, `/ext/bc/${ids.P}`, `/ext/bc/${ids.C}`),
    ...chains('/ext/bc/avm', '/ext/bc/platform', '/ext/bc/evm'),
  ];
}

function post(agent, uri, route, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(uri + route, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
    });
    req.once('error', reject);
    req.end(body);
  });
}

async function startEmulator(pin) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'avax-bench-bodies-'));
  const nodeArgs = envArgs('NODE_ARGS');
  const child = spawn(
    process.execPath,
    [...nodeArgs, process.env.EMULATOR_CLI || CLI, '--http-port=0', `--data-dir=${dataDir}`, '--db-type=memdb', '--log-level=off'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  pin(child.pid, 1);
  return { child, dataDir, uri: await processUri(dataDir) };
}

async function startBare(pin) {
  const reply = Buffer.from('{"jsonrpc":"2.0","result":{"networkID":"12345"},"id":1}\n');
  const child = fork(fileURLToPath(import.meta.url), ['--bare-server'], {
    env: { ...process.env, BENCH_BODY: reply.toString('base64') },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  pin(child.pid, 1);
  const { port } = await new Promise((resolve) => child.once('message', resolve));
  // The bare server answers 400 to the invalid bodies: failures there are expected.
  return { child, uri: `http://127.0.0.1:${port}`, bare: true };
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const hung = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(hung);
}

async function rssMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return (kb / 1024).toFixed(0);
}

function fmt(x, width) {
  return (Number.isFinite(x) ? x.toFixed(1) : '-').padStart(width);
}

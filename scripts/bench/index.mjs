// Index API benchmark: look-ups in an X-Chain block index of N containers (default 1,000,000),
// through HTTP against a spawned node, and the same look-ups straight on the node's LevelDB.
//
//   0. Initialise: `node dist/avalanche-emulator.js --index-enabled=true --http-port=0 --log-level=off` on a temp
//      --data-dir (default leveldb), so the genesis, the chain state and the indexer's markers exist;
//      checked to answer index.getIndex on /ext/index/X/block; then stopped (SIGTERM).
//   1. Bulk fill (the documented path): <data-dir>/db/local is opened in this process with
//      dist/storage/db.js openDatabase('leveldb', ...) and filled through dist/indexer/index.js
//      ContainerIndex for the X-Chain (2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed), kind
//      'block', in the index's own database: the very code and keys the node's Indexer uses. The containers are real
//      proposervm outer blocks from dist/chains/proposervm.js encodeOuterBlock (a parent-linked
//      chain: the first a statelessBlock, then statelessGraniteBlocks with ACP-181 epochs,
//      timestamps 1 s apart) around random inner bytes, 320-400 bytes each; the ID is the sha256
//      of the unsigned bytes, as proposervm computes it. BATCH containers per WriteBatch (one
//      db.write each), into which accept adds its writes.
//      Note on accept: it numbers a container with the in-memory `next` counter, which only
//      accepted() moves, so adding several containers to one batch needs accepted(1n)
//      after each accept call (accepted(BATCH) after the batch would give all BATCH containers
//      the same index). Each accept call also reads the DB once (the duplicate check).
//      FILL=direct writes the same three keys per container without accept (no duplicate-check
//      read), and then sets the next-index key and calls nothing on ContainerIndex.
//      The fill rate is printed with its split: container encoding (sha256), accept, db.batch.
//   2. HTTP: the node is restarted on that data dir (--index-enabled=true); JSON-RPC to
//      http://127.0.0.1:<port>/ext/index/X/block, one keep-alive connection, sequential calls,
//      default encoding (hex): index.getContainerByIndex at CALLS random indices,
//      index.getIndex for CALLS random known IDs, index.getContainerRange (numToFetch 1024, random
//      start) RANGE_CALLS times; WARMUP calls of each first, not counted. Every reply is checked
//      (index, ID, count). Timing is from the request until the last byte of the reply (the
//      client's JSON.parse is outside it). Then the node's VmRSS / VmHWM (/proc/<pid>/status),
//      split into RssAnon (heap, native allocations) and RssFile, and of RssFile the resident
//      pages of .ldb tables (from /proc/<pid>/smaps): LevelDB (classic-level's bundled env_posix)
//      mmaps up to 1000 table files on 64-bit Linux, so every table page a look-up touches counts
//      in VmRSS as clean, reclaimable, file-backed memory; that part grows with the number of
//      distinct pages read, towards the DB's size on disk.
//   3. Raw: with the node stopped, the same DB is opened in this process (openDatabase; LevelDB
//      cannot be shared between processes) and the same look-ups are timed straight on it:
//      single db.get() one at a time (by index key, by ID key), and 1024-entry range reads with
//      Database.entries (what ContainerIndex.range does), plus the same through ContainerIndex
//      (byIndex / indexOf / range) to separate its own cost. The OS page cache is warm in both
//      phases (the whole DB fits in RAM here).
//   Targets (PASS/FAIL, printed, not gating): HTTP single look-ups p50 < 2 ms, 1024-range
//   p50 < 100 ms, node VmRSS < 300 MiB (the whole VmRSS, file-backed pages included). Reference (/work/shared/reference/baselines.md §2d, raw
//   classic-level, 1M x 300 B): 20,108 single gets/s, 1024-entry range p50 6.4 ms / p99 31.5 ms.
//
// Usage:  npm run build && npm run bench:index
//   N=1000000  BATCH=1000  CALLS=2000  RANGE_CALLS=200  WARMUP=50  RAW_GETS=20000
//   FILL=accept|direct   KEEP=1 keeps the temp data dir (its path is printed)
//   CPU_PROF=<dir>  runs the restarted node with --cpu-prof, the profile written to <dir>
// Exits 0 when every phase ran (it reports, it does not gate); 1 if dist/ is missing or a phase failed.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { existsSync } from 'node:fs';
import { CLI, cpuSeconds, envIntOf, loadDist, pct } from './common.mjs';

const [
  { openDatabase, WriteBatch },
  { indexDatabase },
  { ContainerIndex, containerIndexDatabase },
  { encodeOuterBlock, nextEpoch },
  { encodeCB58, idFromString },
] = await loadDist('bench:index', 'storage/db.js', 'storage/keys.js', 'indexer/index.js', 'chains/proposervm.js', 'encoding/cb58.js');

const envInt = envIntOf('bench:index');
const N = envInt('N', 1_000_000, 1025);
const BATCH = envInt('BATCH', 1000);
const CALLS = envInt('CALLS', 2000);
const RANGE_CALLS = envInt('RANGE_CALLS', 200);
const WARMUP = envInt('WARMUP', 50, 0);
const RAW_GETS = envInt('RAW_GETS', 20_000);
const FILL = (process.env.FILL || 'accept').toLowerCase();
if (FILL !== 'accept' && FILL !== 'direct') {
  console.error(`bench:index: FILL=${process.env.FILL} is neither accept nor direct`);
  process.exit(1);
}
const KEEP = process.env.KEEP === '1';
const CPU_PROF = process.env.CPU_PROF ? path.resolve(process.env.CPU_PROF) : '';
const RANGE = 1024;
const TARGETS = { singleP50Ms: 2, rangeP50Ms: 100, rssMiB: 300 };
const REFERENCE = { getsPerS: 20_108, rangeP50Ms: 6.4, rangeP99Ms: 31.5 };

const X_CHAIN_ID = idFromString('2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed');
const INNER_MIN = 230; // + 90 bytes of statelessGraniteBlock framing = 320..400-byte containers
const INNER_SPAN = 81;

// --- Measurement helpers -----------------------------------------------------------------------
const latencyStats = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: pct(s, 0.5), p99: pct(s, 0.99), max: s[s.length - 1], mean: s.reduce((a, b) => a + b, 0) / s.length };
};
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
const f3 = (x) => x.toFixed(3);
const int = (x) => Math.round(x).toLocaleString('en-US');
const randInt = (n) => Math.floor(Math.random() * n);
const u64 = (n) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
const verdict = (ok) => (ok ? 'PASS' : 'FAIL');

async function procStatus(pid) {
  const text = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  // Resident pages of LevelDB's mmap'ed .ldb tables, from the per-mapping Rss lines of smaps.
  let ldbMaps = 0;
  let ldbKb = 0;
  try {
    let inLdb = false;
    for (const line of (await readFile(`/proc/${pid}/smaps`, 'utf8')).split('\n')) {
      if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
        inLdb = line.endsWith('.ldb');
        if (inLdb) ldbMaps++;
      } else if (inLdb && line.startsWith('Rss:')) {
        ldbKb += Number(/(\d+) kB/.exec(line)[1]);
      }
    }
  } catch {
    ldbMaps = ldbKb = NaN;
  }
  return { rss: kb('VmRSS'), hwm: kb('VmHWM'), anon: kb('RssAnon'), file: kb('RssFile'), ldbMaps, ldbKb };
}
const du = (dir) => {
  try {
    return Number(execFileSync('du', ['-sk', dir]).toString().split('\t')[0]) / 1024;
  } catch {
    return NaN;
  }
};

// --- The node ---------------------------------------------------------------------------------
let child;
let dataDir;
let uri;
let agent;

async function startNode(label, nodeArgs = []) {
  await rm(path.join(dataDir, 'process.json'), { force: true });
  const args = [...nodeArgs, CLI, '--http-port=0', `--data-dir=${dataDir}`, '--log-level=off', '--index-enabled=true'];
  child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const t0 = performance.now();
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(5)) {
    if (child.exitCode !== null) throw new Error(`node (${label}) exited (${child.exitCode}):\n${output}`);
    try {
      ({ uri } = JSON.parse(await readFile(path.join(dataDir, 'process.json'), 'utf8')));
      agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      return performance.now() - t0;
    } catch {
      /* not written yet */
    }
  }
  throw new Error(`node (${label}) wrote no process.json within 60 s:\n${output}`);
}
async function stopNode() {
  agent?.destroy();
  agent = undefined;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const hung = setTimeout(() => child.kill('SIGKILL'), CPU_PROF ? 60_000 : 10_000);
    await exited;
    clearTimeout(hung);
  }
  child = undefined;
}
async function cleanup() {
  await stopNode();
  if (dataDir && !KEEP) await rm(dataDir, { recursive: true, force: true });
}
process.once('SIGINT', () => {
  cleanup().finally(() => process.exit(130));
});

let rpcId = 0;
/** One JSON-RPC call to /ext/index/X/block; resolves to { result, ms, bytes } (ms: request until last byte). */
function rpc(method, params) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params });
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      `${uri}/ext/index/X/block`,
      { method: 'POST', agent, timeout: 120_000, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - t0;
          const raw = Buffer.concat(chunks);
          let reply;
          try {
            reply = JSON.parse(raw.toString('utf8'));
          } catch {
            return reject(new Error(`${method}: HTTP ${res.statusCode}: ${raw.toString('utf8').slice(0, 300)}`));
          }
          if (reply.error) return reject(new Error(`${method}: ${reply.error.message}`));
          resolve({ result: reply.result, ms, bytes: raw.length });
        });
        res.once('error', reject);
      },
    );
    req.once('timeout', () => req.destroy(new Error(`${method}: no reply within 120 s`)));
    req.once('error', reject);
    req.end(body);
  });
}

// --- Phases -------------------------------------------------------------------------------------
let first = 0; // index of the first container this script writes (the chain may have indexed some)
let ids; // Buffer of N x 32-byte IDs, in index order from `first`
const idAt = (i) => ids.subarray(32 * i, 32 * (i + 1));
let containerBytes = 0;
let total = 0; // containers in the index after the fill

async function initialise() {
  const ms = await startNode('init');
  let before;
  try {
    before = (await rpc('index.getLastAccepted', {})).result.index;
  } catch (err) {
    if (!/no containers have been accepted/.test(err.message)) throw err;
    before = 'none';
  }
  await stopNode();
  console.log(`\n0. init: node with --index-enabled=true up in ${f1(ms)} ms, /ext/index/X/block answers (last accepted index: ${before}); stopped`);
}

async function fill() {
  const dbPath = path.join(dataDir, 'db', 'local');
  if (!existsSync(dbPath)) throw new Error(`${dbPath} does not exist after the first start`);
  const db = await openDatabase('leveldb', dbPath);
  const idb = containerIndexDatabase(indexDatabase(db), X_CHAIN_ID, 'block');
  const index = new ContainerIndex(idb, 'block');
  await index.open();
  first = Number(index.size);
  ids = Buffer.alloc(32 * N);
  const pool = randomBytes(1 << 20); // inner bytes are random slices of this (incompressible, like signed txs)
  const key = (...parts) => Buffer.concat(parts); // the direct path's keys, in the index's database (src/indexer/index.ts)

  let parent = { id: sha256Genesis(), timestamp: 1_700_000_000n, pChainHeight: 0n, epoch: undefined };
  let first_ = true;
  let encodeMs = 0;
  let opsMs = 0;
  let batchMs = 0;
  const t0 = performance.now();
  for (let i = 0; i < N; i += BATCH) {
    const end = Math.min(N, i + BATCH);
    const batch = new WriteBatch();
    for (let j = i; j < end; j++) {
      const t = performance.now();
      const timestamp = parent.timestamp + 1n;
      const epoch = first_ ? undefined : nextEpoch(parent);
      const off = randInt(pool.length - INNER_MIN - INNER_SPAN);
      const inner = pool.subarray(off, off + INNER_MIN + randInt(INNER_SPAN));
      const { id, bytes } = encodeOuterBlock(parent.id, timestamp, 0n, inner, epoch);
      parent = { id, timestamp, pChainHeight: 0n, epoch };
      first_ = false;
      ids.set(id, 32 * j);
      containerBytes += bytes.length;
      const tsNs = timestamp * 1_000_000_000n;
      const t1 = performance.now();
      encodeMs += t1 - t;
      if (FILL === 'accept') {
        if (!(await index.accept(batch, id, bytes, tsNs))) throw new Error(`container ${j} is already indexed`);
        index.accepted(1n); // see the header: accept numbers with `next`, which only accepted() moves
      } else {
        const n = u64(first + j);
        batch.put(idb, key(Uint8Array.of(1), n), Buffer.concat([id, u64(tsNs), bytes]));
        batch.put(idb, key(Uint8Array.of(2), id), n);
      }
      opsMs += performance.now() - t1;
    }
    if (FILL === 'direct') batch.put(idb, key(Uint8Array.of(0)), u64(first + end));
    const t2 = performance.now();
    await db.write(batch);
    batchMs += performance.now() - t2;
    if (process.stdout.isTTY && (end / BATCH) % 50 === 0) process.stdout.write(`\r   ${int(end)} / ${int(N)}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  if (process.stdout.isTTY) process.stdout.write('\r\x1b[K');
  const check = new ContainerIndex(idb, 'block');
  await check.open();
  total = Number(check.size);
  if (total !== first + N) throw new Error(`next index is ${total} after the fill, expected ${first + N}`);
  const t3 = performance.now();
  await db.close();
  const closeMs = performance.now() - t3;
  console.log(
    `\n1. fill (FILL=${FILL}): ${int(N)} containers (avg ${f1(containerBytes / N)} B, proposervm outer blocks) into <data-dir>/db/local, ${BATCH} per db.batch`,
  );
  console.log(
    `   ${int(N / seconds)} containers/s  (${f1(seconds)} s: encode+sha256 ${f1(encodeMs / 1000)} s, ${FILL === 'accept' ? 'accept (1 db.get each)' : 'building ops'} ${f1(opsMs / 1000)} s, db.batch ${f1(batchMs / 1000)} s; close ${f1(closeMs / 1000)} s)`,
  );
  console.log(`   index size now ${int(total)} (first filled index ${first}); DB on disk ${f1(du(dbPath))} MiB`);
}
// The X-Chain's inner genesis ID is not needed for look-ups; any 32 bytes serve as the first parent.
function sha256Genesis() {
  return Buffer.alloc(32, 0x11);
}

const randomIndex = () => randInt(N); // position in `ids`; the container's index is first + position
async function http_() {
  const nodeArgs = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
  const ms = await startNode('measure', nodeArgs);
  const last = await rpc('index.getLastAccepted', {});
  if (last.result.index !== String(total - 1)) throw new Error(`getLastAccepted index ${last.result.index}, expected ${total - 1}`);
  console.log(
    `\n2. HTTP, node restarted on the filled dir in ${f1(ms)} ms${CPU_PROF ? ` (--cpu-prof into ${CPU_PROF})` : ''}; one keep-alive connection, sequential calls, encoding hex`,
  );
  const cpu0 = await cpuSeconds(child.pid);
  const results = {};

  const byIndex = async () => {
    const p = randomIndex();
    const r = await rpc('index.getContainerByIndex', { index: String(first + p) });
    if (r.result.index !== String(first + p) || r.result.id !== encodeCB58(idAt(p))) throw new Error(`getContainerByIndex ${first + p}: wrong container`);
    return r;
  };
  const getIndex = async () => {
    const p = randomIndex();
    const r = await rpc('index.getIndex', { id: encodeCB58(idAt(p)) });
    if (r.result.index !== String(first + p)) throw new Error(`getIndex: ${r.result.index}, expected ${first + p}`);
    return r;
  };
  const range = async () => {
    const p = randInt(N - RANGE + 1);
    const r = await rpc('index.getContainerRange', { startIndex: String(first + p), numToFetch: String(RANGE) });
    const c = r.result.containers;
    if (c.length !== RANGE || c[0].index !== String(first + p) || c[RANGE - 1].id !== encodeCB58(idAt(p + RANGE - 1)))
      throw new Error(`getContainerRange ${first + p}: wrong containers`);
    return r;
  };
  for (const [name, fn, calls] of [
    ['index.getContainerByIndex', byIndex, CALLS],
    ['index.getIndex', getIndex, CALLS],
    [`index.getContainerRange (numToFetch ${RANGE})`, range, RANGE_CALLS],
  ]) {
    for (let i = 0; i < Math.min(WARMUP, calls); i++) await fn();
    const c0 = await cpuSeconds(child.pid);
    const lat = [];
    let bytes = 0;
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) {
      const r = await fn();
      lat.push(r.ms);
      bytes += r.bytes;
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = (await cpuSeconds(child.pid)) - c0;
    const s = latencyStats(lat);
    results[name] = s;
    console.log(
      `   ${name.padEnd(44)} ${String(calls).padStart(5)} calls  p50 ${f3(s.p50).padStart(8)} ms  p99 ${f3(s.p99).padStart(8)} ms  max ${f2(s.max).padStart(7)} ms  ${int(calls / seconds).padStart(6)} calls/s  reply ${int(bytes / calls)} B  node CPU ${f2((1000 * cpu) / calls)} ms/call`,
    );
  }
  const { rss, hwm, anon, file, ldbMaps, ldbKb } = await procStatus(child.pid);
  const nodeCpu = (await cpuSeconds(child.pid)) - cpu0;
  console.log(
    `   node after the measurements: VmRSS ${f1(rss / 1024)} MiB = RssAnon ${f1(anon / 1024)} MiB + RssFile ${f1(file / 1024)} MiB; VmHWM ${f1(hwm / 1024)} MiB; node CPU during them ${f1(nodeCpu)} s`,
  );
  console.log(
    `   of RssFile, ${f1(ldbKb / 1024)} MiB are resident pages of the ${ldbMaps} LevelDB .ldb tables mmap'ed by the node (the rest: node binary, libraries)`,
  );
  await stopNode();
  return { results, rssMiB: rss / 1024, anonMiB: anon / 1024, ldbMiB: ldbKb / 1024 };
}

async function raw() {
  const dbPath = path.join(dataDir, 'db', 'local');
  const db = await openDatabase('leveldb', dbPath);
  const idb = containerIndexDatabase(indexDatabase(db), X_CHAIN_ID, 'block');
  const index = new ContainerIndex(idb, 'block');
  await index.open();
  const indexKey = (p) => Buffer.concat([Uint8Array.of(1), u64(first + p)]);
  const idKey = (p) => Buffer.concat([Uint8Array.of(2), idAt(p)]);
  console.log(`\n3. raw, same DB opened in this process after the node stopped (openDatabase: classic-level via level, view encodings)`);
  const out = {};

  const gets = async (label, fn) => {
    const picks = Array.from({ length: RAW_GETS }, () => randomIndex());
    for (let i = 0; i < Math.min(1000, RAW_GETS); i++) await fn(picks[i]); // warm-up
    const lat = [];
    const t0 = performance.now();
    for (const p of picks) {
      const t = performance.now();
      await fn(p);
      lat.push(performance.now() - t);
    }
    const seconds = (performance.now() - t0) / 1000;
    const s = latencyStats(lat);
    out[label] = { perS: RAW_GETS / seconds, ...s };
    console.log(
      `   ${label.padEnd(44)} ${int(RAW_GETS / seconds).padStart(7)} /s   p50 ${f3(s.p50).padStart(7)} ms  p99 ${f3(s.p99).padStart(7)} ms   (${int(RAW_GETS)}, one at a time)`,
    );
  };
  // A record starts with its container's ID (src/indexer/index.ts); its length varies (container 0 is a shorter type-0 block).
  await gets('db.get(index key)', async (p) => {
    const v = await idb.get(indexKey(p));
    if (!v || !Buffer.from(v.subarray(0, 32)).equals(idAt(p))) throw new Error(`raw get by index ${first + p}`);
  });
  await gets('db.get(ID key)', async (p) => {
    const v = await idb.get(idKey(p));
    if (!v || Buffer.from(v).readBigUInt64BE(0) !== BigInt(first + p)) throw new Error('raw get by ID');
  });
  await gets('ContainerIndex.byIndex', async (p) => {
    if (!(await index.byIndex(BigInt(first + p)))) throw new Error('byIndex');
  });
  await gets('ContainerIndex.indexOf', async (p) => {
    if ((await index.indexOf(idAt(p))) !== BigInt(first + p)) throw new Error('indexOf');
  });

  const ranges = async (label, fn) => {
    const starts = Array.from({ length: RANGE_CALLS }, () => randInt(N - RANGE + 1));
    for (let i = 0; i < Math.min(WARMUP, RANGE_CALLS); i++) await fn(starts[i]);
    const lat = [];
    for (const p of starts) {
      const t = performance.now();
      const n = await fn(p);
      lat.push(performance.now() - t);
      if (n !== RANGE) throw new Error(`${label}: ${n} entries`);
    }
    const s = latencyStats(lat);
    out[label] = s;
    console.log(
      `   ${label.padEnd(44)} p50 ${f3(s.p50).padStart(7)} ms  p99 ${f3(s.p99).padStart(7)} ms  max ${f2(s.max).padStart(6)} ms   (${RANGE_CALLS} reads of ${RANGE})`,
    );
  };
  await ranges(`Database.entries, ${RANGE} entries`, async (p) => (await idb.entries({ gte: indexKey(p), lt: indexKey(p + RANGE), limit: RANGE })).length);
  await ranges(`ContainerIndex.range, ${RANGE} containers`, async (p) => (await index.range(BigInt(first + p), RANGE)).length);
  await db.close();
  return out;
}

// --- Main ---------------------------------------------------------------------------------------
console.log(`index benchmark: X-Chain block index of ${int(N)} containers, node ${process.version}, ${os.cpus().length} CPUs`);
let failed = false;
const tStart = performance.now();
try {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'avax-bench-index-'));
  if (KEEP) console.log(`   data dir (kept): ${dataDir}`);
  await initialise();
  await fill();
  const h = await http_();
  const r = await raw();

  const byIndex = h.results['index.getContainerByIndex'];
  const getIndex = h.results['index.getIndex'];
  const range = h.results[`index.getContainerRange (numToFetch ${RANGE})`];
  const rawRange = r[`Database.entries, ${RANGE} entries`];
  console.log(`\nTargets (HTTP, ${int(total)} containers in the index):`);
  console.log(`   ${verdict(byIndex.p50 < TARGETS.singleP50Ms)}  index.getContainerByIndex p50 ${f3(byIndex.p50)} ms < ${TARGETS.singleP50Ms} ms`);
  console.log(`   ${verdict(getIndex.p50 < TARGETS.singleP50Ms)}  index.getIndex p50 ${f3(getIndex.p50)} ms < ${TARGETS.singleP50Ms} ms`);
  console.log(`   ${verdict(range.p50 < TARGETS.rangeP50Ms)}  index.getContainerRange(${RANGE}) p50 ${f2(range.p50)} ms < ${TARGETS.rangeP50Ms} ms`);
  console.log(
    `   ${verdict(h.rssMiB < TARGETS.rssMiB)}  node VmRSS ${f1(h.rssMiB)} MiB < ${TARGETS.rssMiB} MiB   (RssAnon ${f1(h.anonMiB)} MiB; mmap'ed .ldb pages ${f1(h.ldbMiB)} MiB)`,
  );
  console.log(
    `Reference (baselines.md §2d, raw classic-level, 1M x 300 B, sha256 keys): ${int(REFERENCE.getsPerS)} single gets/s, 1024-entry range p50 ${REFERENCE.rangeP50Ms} ms / p99 ${REFERENCE.rangeP99Ms} ms`,
  );
  console.log(
    `   here, raw: ${int(r['db.get(index key)'].perS)} gets/s by index key, ${int(r['db.get(ID key)'].perS)} by ID key; range p50 ${f2(rawRange.p50)} ms / p99 ${f2(rawRange.p99)} ms`,
  );
} catch (err) {
  failed = true;
  console.error(`\nbench:index failed: ${err.stack ?? err}`);
} finally {
  await cleanup();
}
console.log(`\ntotal ${f1((performance.now() - tStart) / 1000)} s${KEEP ? '' : '; temp data dir removed'}`);
process.exitCode = failed ? 1 : 0;

// X-Chain benchmark: what the emulator's AVM sustains over JSON-RPC (POST /ext/bc/X), measured
// against a spawned node (`node dist/avalanche-emulator.js --http-port=0 --log-level=off`, default leveldb in a
// temporary --data-dir that is removed afterwards; default instant block building, so an
// avm.issueTx reply comes once the tx's block is accepted). All txs are real signed BaseTxs built
// here with the emulator's own codec (dist/vms/avm/codec) and signer (dist/vms/avm/verify),
// funded from the ewoq key's 300M AVAX genesis UTXO.
//
//   1. issueTx, one client, sequential: TXS BaseTxs (1 input, 1 output), each spending its own
//      UTXO of one key, pre-created by one fan-out tx. Accepted tx/s, p50/p99 latency.
//   2. issueTx, CLIENTS concurrent clients: each spends PER_CLIENT UTXOs of its own key (all
//      pre-funded by fan-out txs). Accepted tx/s, p50/p99, and blocks produced (avm.getHeight
//      delta) with txs per block, to show batching.
//   3. secp256k1 in this process, through the library the emulator verifies with (@noble/curves,
//      via recoverAddress / signHash from dist/vms/avm/verify): public-key recovery (what every
//      credential costs the node) and signing, ops/s over CRYPTO_SECONDS each.
//   4. avm.getUTXOs (limit 1024) for one address holding 1024 UTXOs, CALLS sequential calls:
//      (a) with ~SMALL UTXOs in the whole set, (b) with ~SIZE UTXOs spread over 10,000 addresses.
//      The set is filled through issueTx, with fan-out BaseTxs of FANOUT outputs each (one
//      pre-funded input per tx, FILL_CONCURRENCY txs in flight); the fill rate (UTXOs/s), node CPU
//      during the fill, and the node's RSS after it (VmRSS/VmHWM of the spawned node, from
//      /proc/<pid>/status) are printed. A look-up that does not grow with the set gives a ratio ~1.
// Node CPU (utime + stime of the spawned node, from /proc/<pid>/stat) is printed next to each
// rate: it tells "the node is saturated" from "the node waits". The machine's load average is
// printed too: anything else running on it skews every figure.
//
// With the defaults the whole run takes about 1.5 minutes on a 2-core machine (the 1M fill ~1 min).
//
// Usage:  npm run build && npm run bench:xchain
//   FULL=0       skip the large fill (4b)                  SIZE=1000000  UTXOs in the set for 4b
//   TXS=300  CLIENTS=32  PER_CLIENT=30  CALLS=200  SMALL=10000  FANOUT=780  FILL_CONCURRENCY=4
//   CRYPTO_SECONDS=2   CPU_PROF=<dir>  runs the node with --cpu-prof, the profile written to <dir>
// Exits 0 when every phase ran (it reports, it does not gate); 1 if dist/ is missing or a phase failed.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, cpuSeconds, envIntOf, loadDist, pct } from './common.mjs';

const [
  { buildTx, compareBytes, outputSortKey, parseUTXO },
  { signHash, txHash, addressOfPrivateKey, recoverAddress },
  { encodeCB58, idFromString },
  { formatAddress },
] = await loadDist('bench:xchain', 'vms/avm/codec/index.js', 'vms/avm/verify/index.js', 'encoding/cb58.js', 'vms/components/avax/address.js');

const envInt = envIntOf('bench:xchain');
const TXS = envInt('TXS', 300);
const CLIENTS = envInt('CLIENTS', 32);
const PER_CLIENT = envInt('PER_CLIENT', 30);
const CALLS = envInt('CALLS', 200);
const SMALL = envInt('SMALL', 10_000);
const FULL = process.env.FULL !== '0';
const SIZE = envInt('SIZE', 1_000_000);
const FANOUT = envInt('FANOUT', 780, 2);
const FILL_CONCURRENCY = envInt('FILL_CONCURRENCY', 4);
const CRYPTO_SECONDS = Math.max(0.1, Number(process.env.CRYPTO_SECONDS) || 2);
const CPU_PROF = process.env.CPU_PROF ? path.resolve(process.env.CPU_PROF) : '';
const FILL_ADDRESSES = 10_000;
const LOOKUP_UTXOS = 1024;

// --- Chain constants (local network) ---
const NETWORK_ID = 12345;
const HRP = 'local';
const X_CHAIN_ID = idFromString('2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed');
const AVAX = idFromString('2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe');
const TX_FEE = 1_000_000n;
const MAX_TX_SIZE = 64 * 1024;
const EWOQ_KEY = Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex');
const EWOQ = addressOfPrivateKey(EWOQ_KEY);
const GENESIS_UTXO = { utxoID: { txID: AVAX, outputIndex: 1 }, amount: 300_000_000_000_000_000n, address: EWOQ };
const GENESIS_UTXOS = 2; // the genesis CreateAssetTx has two outputs

const sha256 = (data) => createHash('sha256').update(data).digest();
const keyOf = (label) => sha256(`avalanche-emulator bench:xchain ${label}`);
const addressOfLabel = (label) => sha256(`avalanche-emulator bench:xchain address ${label}`).subarray(0, 20);

// --- Txs -----------------------------------------------------------------------------------
// A UTXO as this script tracks it: { utxoID: { txID, outputIndex }, amount, address }.

/**
 * A signed BaseTx. `inputs`: [{ utxo, key }] (single-owner UTXOs); `outputs`: [{ amount, address }].
 * Outputs are sorted by their codec bytes, inputs by (txID, outputIndex); one credential per input.
 * Returns the tx hex for issueTx (with checksum) and the UTXOs it creates, in output order.
 */
function baseTx(inputs, outputs) {
  const outs = outputs
    .map((o) => {
      const out = { type: 7, amount: o.amount, owners: { locktime: 0n, threshold: 1, addresses: [o.address] } };
      return { key: outputSortKey(out), value: { assetID: AVAX, out } };
    })
    .sort((a, b) => compareBytes(a.key, b.key))
    .map((o) => o.value);
  const ins = [...inputs].sort((a, b) => compareBytes(a.utxo.utxoID.txID, b.utxo.utxoID.txID) || a.utxo.utxoID.outputIndex - b.utxo.utxoID.outputIndex);
  const unsigned = {
    type: 0,
    base: {
      networkID: NETWORK_ID,
      blockchainID: X_CHAIN_ID,
      outputs: outs,
      inputs: ins.map(({ utxo }) => ({ utxoID: utxo.utxoID, assetID: AVAX, input: { type: 5, amount: utxo.amount, sigIndices: [0] } })),
      memo: new Uint8Array(),
    },
  };
  const hash = txHash(buildTx(unsigned, []).unsignedBytes);
  const tx = buildTx(
    unsigned,
    ins.map(({ key }) => ({ type: 9, signatures: [signHash(hash, key)] })),
  );
  if (tx.bytes.length > MAX_TX_SIZE) throw new Error(`tx of ${outputs.length} outputs is ${tx.bytes.length} bytes (> ${MAX_TX_SIZE})`);
  const bytes = Buffer.from(tx.bytes);
  const created = outs.map((o, i) => ({ utxoID: { txID: tx.id, outputIndex: i }, amount: o.out.amount, address: o.out.owners.addresses[0] }));
  return { id: tx.id, hex: `0x${bytes.toString('hex')}${sha256(bytes).subarray(28).toString('hex')}`, created, size: bytes.length, inputs: ins.length };
}

// --- JSON-RPC over HTTP ----------------------------------------------------------------------
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
let xUrl; // http://127.0.0.1:<port>/ext/bc/X
let rpcId = 0;

function rpc(method, params) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params });
  return new Promise((resolve, reject) => {
    const req = http.request(
      xUrl,
      { method: 'POST', agent, timeout: 300_000, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let reply;
          try {
            reply = JSON.parse(text);
          } catch {
            return reject(new Error(`${method}: HTTP ${res.statusCode}: ${text.slice(0, 300)}`));
          }
          if (reply.error) return reject(new Error(`${method}: ${reply.error.message}`));
          resolve(reply.result);
        });
        res.once('error', reject);
      },
    );
    req.once('timeout', () => req.destroy(new Error(`${method}: no reply within 300 s`)));
    req.once('error', reject);
    req.end(body);
  });
}

/** avm.issueTx; checks the returned ID; resolves to the latency in ms. */
async function issue(tx) {
  const t0 = performance.now();
  const { txID } = await rpc('avm.issueTx', { tx: tx.hex, encoding: 'hex' });
  const ms = performance.now() - t0;
  if (txID !== encodeCB58(tx.id)) throw new Error(`issueTx returned ${txID}, expected ${encodeCB58(tx.id)}`);
  return ms;
}
const height = async () => Number((await rpc('avm.getHeight', {})).height);

// --- Funding from ewoq -------------------------------------------------------------------------
let ewoqChange = GENESIS_UTXO;
let setSize = GENESIS_UTXOS; // UTXOs in the chain's whole set, as this script's txs change it
let txsIssued = 0;

/** Pays `targets` ([{ amount, address }]) from ewoq, FANOUT-1 per tx plus change, one tx after another. */
async function fund(targets) {
  const created = [];
  for (let i = 0; i < targets.length; i += FANOUT - 1) {
    const chunk = targets.slice(i, i + FANOUT - 1);
    const total = chunk.reduce((s, t) => s + t.amount, 0n);
    const change = ewoqChange.amount - total - TX_FEE;
    const tx = baseTx([{ utxo: ewoqChange, key: EWOQ_KEY }], [...chunk, { amount: change, address: EWOQ }]);
    await issue(tx);
    txsIssued++;
    setSize += tx.created.length - 1;
    const changeIndex = tx.created.findIndex((u) => u.amount === change && Buffer.from(u.address).equals(EWOQ));
    ewoqChange = tx.created[changeIndex];
    created.push(...tx.created.filter((_, j) => j !== changeIndex));
  }
  return created;
}

// --- Measurement helpers -----------------------------------------------------------------------
const latencyStats = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: pct(s, 0.5), p99: pct(s, 0.99), max: s[s.length - 1] };
};
const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);
const int = (x) => Math.round(x).toLocaleString('en-US');
const mib = (kb) => `${(kb / 1024).toFixed(0)} MiB`;

async function procStatus(pid) {
  const text = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}
/** CPU seconds (user + system) a process has used so far, from /proc (Linux, USER_HZ 100). */
const selfCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

// --- The node ---------------------------------------------------------------------------------
let child;
let dataDir;
async function startNode() {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'avax-bench-xchain-'));
  const nodeArgs = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
  const args = [...nodeArgs, CLI, '--http-port=0', `--data-dir=${dataDir}`, '--log-level=off'];
  child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(5)) {
    if (child.exitCode !== null) throw new Error(`node exited (${child.exitCode}):\n${output}`);
    try {
      const { uri } = JSON.parse(await readFile(path.join(dataDir, 'process.json'), 'utf8'));
      return uri;
    } catch {
      /* not written yet */
    }
  }
  throw new Error(`node wrote no process.json within 30 s:\n${output}`);
}
async function stopNode() {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const hung = setTimeout(() => child.kill('SIGKILL'), CPU_PROF ? 60_000 : 10_000);
    await exited;
    clearTimeout(hung);
  }
  agent.destroy();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
process.once('SIGINT', () => {
  stopNode().finally(() => process.exit(130));
});

// --- Phases -------------------------------------------------------------------------------------
async function sequentialIssue() {
  const key = keyOf('sequential');
  const address = addressOfPrivateKey(key);
  const utxos = await fund(Array.from({ length: TXS }, (_, i) => ({ amount: 1_000_000_000n + BigInt(i), address })));
  const txs = utxos.map((u) => baseTx([{ utxo: u, key }], [{ amount: u.amount - TX_FEE, address }]));
  // No separate warm-up: the first txs count too (any warm-up shows in the max).
  const h0 = await height();
  const cpu0 = await cpuSeconds(child.pid);
  const lat = [];
  const t0 = performance.now();
  for (const tx of txs) lat.push(await issue(tx));
  const seconds = (performance.now() - t0) / 1000;
  const nodeCpu = (await cpuSeconds(child.pid)) - cpu0;
  const blocks = (await height()) - h0;
  txsIssued += txs.length;
  const s = latencyStats(lat);
  console.log(`\n1. avm.issueTx, 1 client, sequential: ${TXS} BaseTxs (1 input, 1 output, ${txs[0].size} bytes), each on its own UTXO`);
  console.log(`   ${f1(TXS / seconds)} accepted tx/s   latency p50 ${f2(s.p50)} ms, p99 ${f2(s.p99)} ms, max ${f2(s.max)} ms   ${blocks} blocks`);
  console.log(`   node CPU ${f2(nodeCpu)} s = ${f1((100 * nodeCpu) / seconds)}% of one core, ${f2((1000 * nodeCpu) / TXS)} ms per tx`);
}

async function concurrentIssue() {
  const keys = Array.from({ length: CLIENTS }, (_, c) => keyOf(`client ${c}`));
  const addresses = keys.map((k) => addressOfPrivateKey(k));
  const targets = [];
  for (let c = 0; c < CLIENTS; c++)
    for (let i = 0; i < PER_CLIENT; i++) targets.push({ amount: 2_000_000_000n + BigInt(c * PER_CLIENT + i), address: addresses[c] });
  const utxos = await fund(targets);
  const perClient = keys.map((key, c) =>
    utxos
      .filter((u) => Buffer.from(u.address).equals(addresses[c]))
      .map((u) => baseTx([{ utxo: u, key }], [{ amount: u.amount - TX_FEE, address: addresses[c] }])),
  );
  const h0 = await height();
  const cpu0 = await cpuSeconds(child.pid);
  const lat = [];
  const t0 = performance.now();
  await Promise.all(
    perClient.map(async (txs) => {
      for (const tx of txs) lat.push(await issue(tx));
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const nodeCpu = (await cpuSeconds(child.pid)) - cpu0;
  const blocks = (await height()) - h0;
  const n = CLIENTS * PER_CLIENT;
  txsIssued += n;
  const s = latencyStats(lat);
  console.log(`\n2. avm.issueTx, ${CLIENTS} concurrent clients x ${PER_CLIENT} txs each (every client spends its own key's UTXOs)`);
  console.log(`   ${f1(n / seconds)} accepted tx/s   latency p50 ${f2(s.p50)} ms, p99 ${f2(s.p99)} ms, max ${f2(s.max)} ms`);
  console.log(`   ${blocks} blocks for ${n} txs (avm.getHeight ${h0} -> ${h0 + blocks}): ${f1(n / blocks)} txs per block on average`);
  console.log(`   node CPU ${f2(nodeCpu)} s = ${f1((100 * nodeCpu) / seconds)}% of one core, ${f2((1000 * nodeCpu) / n)} ms per tx`);
}

function crypto() {
  const keys = Array.from({ length: 16 }, (_, i) => keyOf(`crypto ${i}`));
  const hashes = Array.from({ length: 64 }, (_, i) => sha256(`message ${i}`));
  const sigs = hashes.map((h, i) => signHash(h, keys[i % keys.length]));
  const expected = keys.map((k) => Buffer.from(addressOfPrivateKey(k)).toString('hex'));
  for (let i = 0; i < sigs.length; i++) {
    if (Buffer.from(recoverAddress(hashes[i], sigs[i])).toString('hex') !== expected[i % keys.length])
      throw new Error('recoverAddress returned a wrong address');
  }
  const rate = (fn) => {
    for (let i = 0; i < 200; i++) fn(i); // warm-up (JIT, noble's precomputed tables)
    let ops = 0;
    const t0 = performance.now();
    const end = t0 + CRYPTO_SECONDS * 1000;
    while (performance.now() < end) for (let j = 0; j < 50; j++) fn(ops++);
    return ops / ((performance.now() - t0) / 1000);
  };
  const recover = rate((i) => recoverAddress(hashes[i & 63], sigs[i & 63]));
  const sign = rate((i) => signHash(hashes[i & 63], keys[i & 15]));
  console.log(`\n3. secp256k1 (@noble/curves, in this process, ${CRYPTO_SECONDS} s each)`);
  console.log(`   recoverAddress (public-key recovery + ripemd160(sha256)): ${int(recover)} ops/s (${f1(1e6 / recover)} us each)`);
  console.log(`   signHash (RFC 6979, low S, recoverable):                 ${int(sign)} ops/s (${f1(1e6 / sign)} us each)`);
  console.log(`   -> recovery alone bounds issueTx at ~${int(recover)} single-signature txs/s per core of the node`);
}

/**
 * Fills the set to `target` UTXOs with fan-out txs through avm.issueTx: tx k spends its own
 * pre-funded UTXO (funder key) and pays FANOUT outputs to FANOUT consecutive fill addresses.
 */
let fillCounter = 0; // outputs paid to fill addresses so far (round-robin over FILL_ADDRESSES)
async function fill(target) {
  const fanout = Math.min(FANOUT, FILL_ADDRESSES);
  const count = Math.ceil(Math.max(0, target - setSize) / (fanout - 1)); // each tx: +fanout outputs, -1 input
  if (count === 0) return { utxos: 0, seconds: 0, txs: 0, blocks: 0, nodeCpu: 0, clientCpu: 0 };
  const funderKey = keyOf('funder');
  const funder = addressOfPrivateKey(funderKey);
  const PER_OUTPUT = 1_000n;
  // Funding UTXOs: amount = fanout x PER_OUTPUT + fee + k (k keeps them distinct).
  const funding = await fund(Array.from({ length: count }, (_, k) => ({ amount: BigInt(fanout) * PER_OUTPUT + TX_FEE + BigInt(k), address: funder })));
  funding.sort((a, b) => Number(a.amount - b.amount));
  const h0 = await height();
  const cpu0 = await cpuSeconds(child.pid);
  const self0 = selfCpuSeconds();
  let next = 0;
  let created = 0;
  let bytes = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: FILL_CONCURRENCY }, async () => {
      while (next < count) {
        const k = next++;
        const outputs = Array.from({ length: fanout }, (_, j) => ({
          amount: PER_OUTPUT + (j === 0 ? BigInt(k) : 0n),
          address: fillAddresses[(fillCounter + k * fanout + j) % FILL_ADDRESSES],
        }));
        const tx = baseTx([{ utxo: funding[k], key: funderKey }], outputs);
        await issue(tx);
        created += fanout;
        bytes += tx.size;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  fillCounter += count * fanout;
  setSize += count * (fanout - 1);
  txsIssued += count;
  return {
    utxos: created,
    seconds,
    txs: count,
    bytes,
    blocks: (await height()) - h0,
    nodeCpu: (await cpuSeconds(child.pid)) - cpu0,
    clientCpu: selfCpuSeconds() - self0,
  };
}
let fillAddresses;

/** CALLS sequential avm.getUTXOs(lookup address, limit 1024): latencies; checks every page. */
async function lookups(address) {
  const params = { addresses: [formatAddress('X', HRP, address)], limit: LOOKUP_UTXOS, encoding: 'hex' };
  const check = (r) => {
    if (Number(r.numFetched) !== LOOKUP_UTXOS) throw new Error(`getUTXOs returned ${r.numFetched} UTXOs, expected ${LOOKUP_UTXOS}`);
  };
  const first = await rpc('avm.getUTXOs', params);
  check(first);
  const u = parseUTXO(Buffer.from(first.utxos[0].slice(2, -8), 'hex'));
  if (!Buffer.from(u.output.owners.addresses[0]).equals(address)) throw new Error('getUTXOs returned a UTXO of another address');
  for (let i = 0; i < 5; i++) check(await rpc('avm.getUTXOs', params)); // warm-up
  const lat = [];
  const cpu0 = await cpuSeconds(child.pid);
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    const r = await rpc('avm.getUTXOs', params);
    lat.push(performance.now() - t0);
    check(r);
  }
  return { ...latencyStats(lat), cpuMs: (1000 * ((await cpuSeconds(child.pid)) - cpu0)) / CALLS };
}

async function utxoLookups() {
  fillAddresses = Array.from({ length: FILL_ADDRESSES }, (_, i) => addressOfLabel(`fill ${i}`));
  const lookupAddress = addressOfLabel('lookup');
  await fund(Array.from({ length: LOOKUP_UTXOS }, (_, i) => ({ amount: 3_000_000_000n + BigInt(i), address: lookupAddress })));
  console.log(`\n4. avm.getUTXOs (limit ${LOOKUP_UTXOS}) of one address holding ${LOOKUP_UTXOS} UTXOs, ${CALLS} sequential calls per set size`);
  const rows = [];
  let rate = 0; // UTXOs/s of the fill so far
  const fillRow = async (target, label) => {
    if (rate > 0 && target > setSize) console.log(`   filling to ${label} (about ${int((target - setSize) / rate)} s at the rate so far) ...`);
    const f = await fill(target);
    if (f.txs > 0) rate = f.utxos / f.seconds;
    const mem = await procStatus(child.pid);
    if (f.txs > 0) {
      console.log(
        `   fill to ${label}: ${int(f.utxos)} UTXOs in ${f.txs} fan-out txs (${int(f.bytes / f.txs)} bytes each) in ${f1(f.seconds)} s` +
          ` = ${int(f.utxos / f.seconds)} UTXOs/s (${f1(f.txs / f.seconds)} tx/s, ${f.blocks} blocks, ${f1(f.txs / f.blocks)} txs per block);` +
          ` node CPU ${f1(f.nodeCpu)} s (${f1((100 * f.nodeCpu) / f.seconds)}% of one core), bench CPU ${f1(f.clientCpu)} s`,
      );
    }
    console.log(`   node memory with ${int(setSize)} UTXOs in the set: VmRSS ${mib(mem.rss)}, VmHWM ${mib(mem.hwm)} (spawned node, /proc/${child.pid}/status)`);
    const s = await lookups(lookupAddress);
    rows.push({ label, size: setSize, ...s });
  };
  await fillRow(SMALL, `~${int(SMALL)}`);
  if (FULL) await fillRow(SIZE, `~${int(SIZE)}`);
  console.log(`   ${'UTXOs in the set'.padEnd(20)}${'p50 ms'.padStart(10)}${'p99 ms'.padStart(10)}${'max ms'.padStart(10)}${'node CPU ms/call'.padStart(18)}`);
  for (const r of rows)
    console.log(`   ${int(r.size).padEnd(20)}${f2(r.p50).padStart(10)}${f2(r.p99).padStart(10)}${f2(r.max).padStart(10)}${f1(r.cpuMs).padStart(18)}`);
  if (rows.length === 2) {
    console.log(
      `   ratio large / small set: p50 x${f2(rows[1].p50 / rows[0].p50)}, p99 x${f2(rows[1].p99 / rows[0].p99)}, node CPU per call x${f2(rows[1].cpuMs / rows[0].cpuMs)}` +
        ` (${int(rows[0].size)} -> ${int(rows[1].size)} UTXOs, ${int(rows[1].size / rows[0].size)}x)`,
    );
  } else {
    console.log('   (large set skipped: FULL=0)');
  }
}

// --- Main --------------------------------------------------------------------------------------
const started = performance.now();
let failed = false;
try {
  const uri = await startNode();
  xUrl = `${uri}/ext/bc/X`;
  console.log(
    `X-Chain benchmark: node ${process.version}, ${os.cpus().length} CPUs, spawned \`node dist/avalanche-emulator.js\` (leveldb, instant block building),` +
      ` JSON-RPC over HTTP keep-alive${CPU_PROF ? `, node CPU profile -> ${CPU_PROF}` : ''}`,
  );
  console.log(`load average at start: ${os.loadavg().map(f2).join(' ')} (other work on the machine skews every figure)`);
  console.log(
    `settings: TXS=${TXS} CLIENTS=${CLIENTS} PER_CLIENT=${PER_CLIENT} CALLS=${CALLS} SMALL=${SMALL} FULL=${FULL ? 1 : 0} SIZE=${SIZE}` +
      ` FANOUT=${FANOUT} FILL_CONCURRENCY=${FILL_CONCURRENCY} CRYPTO_SECONDS=${CRYPTO_SECONDS}`,
  );
  await sequentialIssue();
  await concurrentIssue();
  crypto();
  await utxoLookups();
  console.log(
    `\n${int(txsIssued)} txs issued in all; total time ${f1((performance.now() - started) / 1000)} s; load average at end: ${os.loadavg().map(f2).join(' ')}`,
  );
} catch (err) {
  failed = true;
  console.error(`bench:xchain failed: ${err.stack ?? err}`);
} finally {
  await stopNode();
}
process.exitCode = failed ? 1 : 0;

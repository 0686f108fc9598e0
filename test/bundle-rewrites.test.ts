// The CLI runs a bundle in which scripts/slowpaths.mjs rewrites lines of @ethereumjs into faster
// code that computes the same thing (byte helpers, the interpreter's step, the gas handlers, object
// spreads); the in-process node runs the packages as published. Both run the same random EVM
// programs here and must answer alike to the byte: eth_call's result or error and eth_estimateGas's
// for each program as an account's code, and, for programs sent as contract creations in blocks of
// the same timestamps, the same receipts and the same block hashes (so the same state roots). A
// call that runs past coreth's 5 s RPCEVMTimeout is stopped in the bundle too, and the bundle's
// node answers others meanwhile (the pacer's points go through the rewritten step).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { privateKeyToAccount } from 'viem/accounts';
import { CLI, call, rpc, spawnNode, startTestNode, type SpawnedNode, type TestNode } from './helpers.js';
import { SPIN } from './support/programs.js';

const ewoq = privateKeyToAccount('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const PROGRAM_AT = '0x00000000000000000000000000000000000c0de0';

/** mulberry32: the same programs on every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cancun's opcodes, other than the PUSHes (written with their data) and a few bytes that are none. */
const OPCODES = [
  ...range(0x00, 0x0b),
  ...range(0x10, 0x1d),
  0x20,
  ...range(0x30, 0x4a),
  ...range(0x50, 0x5f),
  ...range(0x80, 0x9f),
  ...range(0xa0, 0xa4),
  ...range(0xf0, 0xf5),
  0xfa,
  0xfd,
  0xfe,
  0xff,
  // Not opcodes at Cancun: each fails the frame as an invalid opcode.
  0x0c,
  0x21,
  0xef,
];

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/**
 * A program of random opcodes: a stack of small values first, small values pushed often so that
 * memory offsets and sizes stay in reach, sometimes a PUSH of a full word, a JUMPDEST now and then,
 * and most often a RETURN of its memory at the end.
 */
function program(next: () => number): string {
  const bytes: number[] = [];
  const byte = () => Math.floor(next() * 256);
  const pushSmall = () => bytes.push(0x60, Math.floor(next() * 97));
  for (let i = 0; i < 10; i++) pushSmall();
  const length = 20 + Math.floor(next() * 80);
  for (let i = 0; i < length; i++) {
    const r = next();
    if (r < 0.4) pushSmall();
    else if (r < 0.45) bytes.push(0x7f, ...Array.from({ length: 32 }, byte));
    else if (r < 0.5) bytes.push(0x61, Math.floor(next() * 4), byte());
    else if (r < 0.55) bytes.push(0x5b);
    else bytes.push(OPCODES[Math.floor(next() * OPCODES.length)]!);
  }
  if (next() < 0.8) bytes.push(0x60, 0x40, 0x60, 0x00, 0xf3);
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

const cChain = (uri: string) => `${uri}/ext/bc/C/rpc`;

/** A call's answer, its result or its error, for comparing the two nodes' replies. */
async function eth(uri: string, method: string, params: unknown[]): Promise<{ result?: unknown; error?: unknown }> {
  const { json } = await rpc(cChain(uri), method, params);
  return { result: json.result, error: json.error };
}

describe('the bundle and the packages run EVM programs alike (scripts/slowpaths.mjs)', () => {
  let bundled: SpawnedNode;
  let plain: TestNode;
  let uris: string[];

  beforeAll(async () => {
    [bundled, plain] = await Promise.all([spawnNode(['--dev', '--db-type=memdb', '--log-level=off']), startTestNode({ dev: true, dbType: 'memdb' })]);
    uris = [bundled.uri, plain.uri];
  }, 60_000);

  afterAll(async () => {
    bundled?.child.kill('SIGKILL');
    await plain?.stop();
  });

  it('bundles the rewrites (else this suite would compare the packages with themselves)', () => {
    // The bundle is minified of whitespace and its names may carry a number (bytes4): the markers
    // are patterns over the bundle without its whitespace.
    const bundle = readFileSync(CLI.replace(/\.js$/, '.cjs'), 'utf8').replace(/\s+/g, '');
    const rewrites = [
      /this\.runStepFast\(opCodeObj/,
      /bytesToUnprefixedHex=\(?bytes\d*\)?=>bytes\d*instanceofUint8Array\?/,
      /newArray\(keyLen\d*\)/,
      /padded\(msg\d*,length\d*,0\)/,
      /runState:Object\.assign\(/,
      /returnBigInt\(bytes\d*\[0\]\*256\+bytes\d*\[1\]\)/,
    ];
    expect(rewrites.filter((r) => !r.test(bundle))).toEqual([]);
  });

  it('answers eth_call and eth_estimateGas alike for 400 random programs', async () => {
    const next = random(27);
    let returned = 0;
    for (let i = 0; i < 400; i++) {
      const code = program(next);
      const args = { from: ewoq.address, to: PROGRAM_AT, gas: '0x989680', value: i % 3 === 0 ? '0x1' : '0x0' };
      const overrides = { [PROGRAM_AT]: { code, balance: '0x3e8' } };
      const answers = await Promise.all(
        uris.map(async (uri) => ({
          call: await eth(uri, 'eth_call', [args, 'latest', overrides]),
          estimate: await eth(uri, 'eth_estimateGas', [args, 'latest', overrides]),
        })),
      );
      expect(answers[0], `program ${i}: ${code}`).toEqual(answers[1]);
      if (answers[0]!.call.result !== undefined) returned++;
    }
    // The programs reach their ends often enough for the comparison to cover whole runs.
    expect(returned).toBeGreaterThan(40);
  }, 120_000);

  it('refuses malformed raw txs with the same errors (RLP decoding)', async () => {
    const raw = Buffer.from(
      (
        await ewoq.signTransaction({
          chainId: 43112,
          type: 'eip1559',
          nonce: 0,
          gas: 21_000n,
          maxFeePerGas: 1n,
          maxPriorityFeePerGas: 1n,
          to: PROGRAM_AT,
          data: '0x1234',
        })
      ).slice(2),
      'hex',
    );
    const legacy = Buffer.from(
      (await ewoq.signTransaction({ chainId: 43112, type: 'legacy', nonce: 0, gas: 21_000n, gasPrice: 1n, to: PROGRAM_AT })).slice(2),
      'hex',
    );
    const malformed: Buffer[] = [];
    for (const tx of [raw, legacy]) {
      for (let cut = 1; cut < tx.length; cut += 3) malformed.push(tx.subarray(0, cut));
      malformed.push(Buffer.concat([tx, Buffer.from([0x80])]), Buffer.concat([tx, Buffer.from([0xc0, 0x01])]));
      // The list's length byte one off either way, and each item's first byte replaced by a long-string prefix.
      for (const delta of [-1, 1]) malformed.push(Buffer.from(tx.map((b, i) => (i === (tx[0]! < 0x7f ? 2 : 1) ? (b + delta) & 0xff : b))));
      for (let at = 3; at < 40; at += 5) malformed.push(Buffer.from(tx.map((b, i) => (i === at ? 0xb9 : b))));
    }
    // Lists inside lists whose stated length runs past their parent's (the one way a list's body can
    // be out of bounds), bare and as typed txs, and the 1559 tx's empty access list (c0) claiming more.
    const nested = ['c4c3c50102', 'c5c4c3c50102', 'c3c20101', 'c2c1c5', 'c7c1c2c3c4c50102'].map((h) => Buffer.from(h, 'hex'));
    for (const n of nested) malformed.push(n, Buffer.concat([Buffer.from([2]), n]), Buffer.concat([Buffer.from([1]), n]));
    const accessList = raw.indexOf(Buffer.from([0x82, 0x12, 0x34, 0xc0])) + 3;
    expect(raw[accessList]).toBe(0xc0);
    for (const claim of [0xc1, 0xc3, 0xc5, 0xf8]) malformed.push(Buffer.from(raw.map((b, i) => (i === accessList ? claim : b))));
    for (const bytes of malformed) {
      const replies = await Promise.all(uris.map((uri) => eth(uri, 'eth_sendRawTransaction', [`0x${bytes.toString('hex')}`])));
      expect(replies[0], bytes.toString('hex')).toEqual(replies[1]);
      expect(replies[0]!.error, bytes.toString('hex')).toBeDefined();
    }
  });

  it('stops an eth_call at 5 s in the bundle too, answering others meanwhile', { timeout: 60_000 }, async () => {
    const latencies: number[] = [];
    let spinning = true;
    const pings = (async () => {
      while (spinning) {
        const started = performance.now();
        expect(await call(cChain(bundled.uri), 'eth_chainId', [])).toBe('0xa868');
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const started = performance.now();
    const out = await eth(bundled.uri, 'eth_call', [
      { to: PROGRAM_AT, data: `0x${'77'.padStart(64, '0')}` },
      'latest',
      { [PROGRAM_AT]: { code: `0x${SPIN}` } },
    ]);
    const elapsed = performance.now() - started;
    spinning = false;
    await pings;
    expect(out).toEqual({ error: { code: -32000, message: 'execution aborted (timeout = 5s)' } });
    expect(elapsed).toBeGreaterThanOrEqual(4_900);
    expect(elapsed).toBeLessThan(8_000);
    expect(latencies.length).toBeGreaterThan(elapsed / 40);
    expect([...latencies].sort((a, b) => a - b)[latencies.length >> 1], 'median latency (ms)').toBeLessThan(100);
  });

  it('mines 60 random programs sent as creations into the same blocks', async () => {
    const next = random(29);
    const [head] = await Promise.all(uris.map((uri) => call(cChain(uri), 'eth_getBlockByNumber', ['latest', false])));
    let time = Number(BigInt(head.timestamp)) + 10;
    const gasPrice = BigInt(await call(cChain(uris[0]!), 'eth_gasPrice', [])) * 4n;
    let failed = 0;
    for (let nonce = 0; nonce < 60; nonce++) {
      const data = program(next) as `0x${string}`;
      const raw = await ewoq.signTransaction({
        chainId: 43112,
        type: 'eip1559',
        nonce,
        gas: 1_000_000n,
        maxFeePerGas: gasPrice,
        maxPriorityFeePerGas: 1n,
        data,
      });
      time += 2;
      const mined = await Promise.all(
        uris.map(async (uri) => {
          await call(cChain(uri), 'evm_setNextBlockTimestamp', [time]);
          const hash = await call(cChain(uri), 'eth_sendRawTransaction', [raw]);
          let receipt = await call(cChain(uri), 'eth_getTransactionReceipt', [hash]);
          while (!receipt) {
            await new Promise((r) => setTimeout(r, 5));
            receipt = await call(cChain(uri), 'eth_getTransactionReceipt', [hash]);
          }
          const block = await call(cChain(uri), 'eth_getBlockByHash', [receipt.blockHash, false]);
          return { receipt, stateRoot: block.stateRoot, hash: block.hash };
        }),
      );
      expect(mined[0], `tx ${nonce}: ${data}`).toEqual(mined[1]);
      if (mined[0]!.receipt.status === '0x0') failed++;
    }
    // Both kinds of outcome were compared.
    expect(failed).toBeGreaterThan(5);
    expect(failed).toBeLessThan(55);
  }, 120_000);
});

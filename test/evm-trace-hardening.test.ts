// One request must not stall the node, and a client's mistake is a JSON-RPC error, never HTTP 500
// (issue 25, items 4 and 9), through HTTP against a --dev node:
// - a trace of a tx that loops a million steps runs in slices of the event loop: the node never
//   holds its event loop for 100 ms of its own CPU time, a steady stream of other requests (from
//   another process) is answered meanwhile, and the struct log is still exact;
// - `timeout` stops the traced run when it passes (geth's "execution timeout"), coreth's default of
//   5 s applies without one, and the node traces and calls normally afterwards;
// - eth_call stops at coreth's RPCEVMTimeout (5 s) with its text, and the chain's reader, which
//   the aborted call ran on, keeps no trace of it (storage, transient storage);
// - trace configs of the wrong JSON types answer encoding/json's texts (coreth decodes TraceConfig
//   with Go 1.24), oversized init code and fees past 256 bits answer the state transition's texts.
import { spawn } from 'node:child_process';
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.js';
import { chainCommon } from '../src/vms/evm/rules.js';
import { post, startTestNode, tempDir, type TestNode } from './helpers.js';
import { deployer, LOOP, SPIN } from './support/programs.js';

const EWOQ_KEY = Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex');
const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const common = chainCommon(43112n);

/**
 * The other process of whileAnswering: a request every 20 ms on a fixed schedule, alternately
 * eth_blockNumber and info.getNetworkID, until its stdin ends; then the latencies (from each
 * scheduled time) of those after it said it was ready, and every result, as JSON.
 */
const PINGER = `
const [rpcUrl, infoUrl] = process.argv.slice(1);
const latencies = [], answers = [], inFlight = [];
let k = 0, stopping = false, warm = -1;
const start = performance.now();
const ask = (i, scheduled) => {
  const [url, body] = i % 2 === 0
    ? [rpcUrl, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }]
    : [infoUrl, { jsonrpc: '2.0', id: 1, method: 'info.getNetworkID' }];
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    .then((r) => r.json())
    .then((j) => {
      latencies[i] = performance.now() - scheduled;
      answers[i] = j.result ?? j.error;
      // Ready once this process has warmed up (its first fetches are slow): from the next request on.
      if (warm < 0 && answers.filter(Boolean).length >= 25) { warm = k; process.stdout.write('ready\\n'); }
    });
};
const tick = () => {
  if (stopping) return;
  const scheduled = start + k * 20;
  inFlight.push(ask(k++, scheduled));
  setTimeout(tick, Math.max(0, start + k * 20 - performance.now()));
};
tick();
process.stdin.resume();
process.stdin.on('end', async () => {
  stopping = true;
  await Promise.all(inFlight);
  process.stdout.write(JSON.stringify({ latencies: latencies.slice(warm), answers }));
  process.exit(0);
});
`;

const ITERATIONS = 100_000;
const LOOP_GAS = 4_100_000n;
const word = (n: number | bigint) => BigInt(n).toString(16).padStart(64, '0');

interface Reply {
  status: number;
  json: any;
}

describe('debug_trace* and eth_call on long executions (issue 25)', () => {
  let node: TestNode;
  let url: string;
  let nonce = 0n;
  let loop: `0x${string}`;
  let spin: string;
  let loopTx: any;
  let deployLoop: any;

  const rpc = async (method: string, params: unknown[]): Promise<Reply> => {
    const r = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
    return { status: r.status, json: r.json };
  };
  const result = async (method: string, params: unknown[]) => {
    const r = await rpc(method, params);
    if (r.json.error) throw new Error(`${method}: ${r.json.error.message}`);
    return r.json.result;
  };
  const send = async (data: string, to?: `0x${string}`, gasLimit = 300_000n) => {
    const tx = createFeeMarket1559Tx(
      { nonce: nonce++, to, data: Buffer.from(data, 'hex'), gasLimit, maxFeePerGas: 300_000_000_000n, maxPriorityFeePerGas: 1n },
      { common },
    ).sign(EWOQ_KEY);
    const hash = await result('eth_sendRawTransaction', [`0x${Buffer.from(tx.serialize()).toString('hex')}`]);
    return result('eth_getTransactionReceipt', [hash]);
  };

  /**
   * Runs `work` while another process asks the node for eth_blockNumber and info.getNetworkID every
   * 20 ms, each on time whatever the ones before it are doing (a client in this process would wait
   * for the same event loop), and while this process times its own event loop. The latencies run
   * from each request's scheduled time. `held` is the longest the loop went without a turn while
   * this process was on a CPU: on a machine shared with other work, a process can wait for a CPU
   * for a while, which no code of the node's can help and which says nothing about it; CPU time
   * spent between two turns of the loop is the node's own doing.
   */
  const whileAnswering = async <T>(work: () => Promise<T>) => {
    const child = spawn(process.execPath, ['-e', PINGER, url, `${node.uri}/ext/info`], { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8');
    const ready = new Promise<void>((resolve) =>
      child.stdout.on('data', (d: string) => {
        output += d;
        if (output.includes('ready\n')) resolve();
      }),
    );
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    await ready;
    let held = 0;
    let lastTurn = performance.now();
    let lastCpu = process.cpuUsage();
    const turns = setInterval(() => {
      const now = performance.now();
      const cpu = process.cpuUsage(lastCpu);
      held = Math.max(held, Math.min(now - lastTurn, (cpu.user + cpu.system) / 1000));
      lastTurn = now;
      lastCpu = process.cpuUsage();
    }, 5);
    const start = performance.now();
    const out = await work();
    const elapsed = performance.now() - start;
    clearInterval(turns);
    child.stdin.end();
    await exited;
    const { latencies, answers } = JSON.parse(output.slice(output.indexOf('\n') + 1)) as { latencies: number[]; answers: unknown[] };
    for (const [i, answer] of answers.entries()) expect(answer).toEqual(i % 2 === 0 ? expect.stringMatching(/^0x[0-9a-f]+$/) : { networkID: '12345' });
    const median = [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length / 2)]!;
    return { out, elapsed, latencies, median, held };
  };

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    url = `${node.uri}/ext/bc/C/rpc`;
    deployLoop = await send(deployer(LOOP));
    loop = deployLoop.contractAddress;
    spin = (await send(deployer(SPIN))).contractAddress;
    loopTx = await send(word(ITERATIONS), loop, LOOP_GAS);
    expect(loopTx.status).toBe('0x1');
    // 21,164 intrinsic (29 zero and 3 non-zero calldata bytes), 6 to read n, 40 a turn, 21 to leave.
    expect(BigInt(loopTx.gasUsed)).toBe(21_164n + 6n + 40n * BigInt(ITERATIONS) + 21n);
  });
  afterAll(() => node.stop());

  it('keeps answering while a million-step tx is traced, its loop never held 100 ms, and the struct log is exact', { timeout: 120_000 }, async () => {
    const { out, elapsed, latencies, median, held } = await whileAnswering(() =>
      rpc('debug_traceTransaction', [loopTx.transactionHash, { limit: 1000, timeout: '100s' }]),
    );
    expect(out.status).toBe(200);
    const trace = out.json.result;
    // The whole tx runs (a limit only caps the log) for over a second: long enough to have stalled the node.
    expect(elapsed).toBeGreaterThan(1000);
    // Every request of the stream was answered, and in well under 100 ms; the loop never waited 100 ms.
    expect(latencies.length).toBeGreaterThan(elapsed / 20 - 5);
    expect(median, 'median latency (ms)').toBeLessThan(100);
    expect(held, 'longest CPU time between turns of the event loop (ms)').toBeLessThan(100);
    expect(trace.gas).toBe(Number(BigInt(loopTx.gasUsed)));
    expect(trace.failed).toBe(false);
    expect(trace.returnValue).toBe('');
    expect(trace.structLogs).toHaveLength(1000);
    const start = Number(LOOP_GAS) - 21_164;
    const n = `0x${ITERATIONS.toString(16)}`;
    expect(trace.structLogs.slice(0, 5)).toEqual([
      { pc: 0, op: 'PUSH1', gas: start, gasCost: 3, depth: 1, stack: [] },
      { pc: 2, op: 'CALLDATALOAD', gas: start - 3, gasCost: 3, depth: 1, stack: ['0x0'] },
      { pc: 3, op: 'JUMPDEST', gas: start - 6, gasCost: 1, depth: 1, stack: [n] },
      { pc: 4, op: 'DUP1', gas: start - 7, gasCost: 3, depth: 1, stack: [n] },
      { pc: 5, op: 'ISZERO', gas: start - 10, gasCost: 3, depth: 1, stack: [n, n] },
    ]);
    // Entry 999: the SUB of turn 99 (entries 992..1001), after its first 26 gas (JUMPDEST to SWAP1).
    expect(trace.structLogs[999]).toEqual({
      pc: 12,
      op: 'SUB',
      gas: start - 6 - 99 * 40 - 26,
      gasCost: 3,
      depth: 1,
      stack: ['0x1', `0x${(ITERATIONS - 99).toString(16)}`],
    });
  });

  it('stops a trace at its timeout with "execution timeout", and traces and calls normally afterwards', { timeout: 60_000 }, async () => {
    const started = performance.now();
    const timedOut = await rpc('debug_traceTransaction', [loopTx.transactionHash, { tracer: 'callTracer', timeout: '100ms' }]);
    const took = performance.now() - started;
    expect(timedOut).toEqual({ status: 200, json: { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'execution timeout' } } });
    // A full callTracer run of this tx takes seconds; the stopped one ends soon after its 100 ms.
    expect(took).toBeLessThan(1000);
    // The tx's own trace, and a call on the state it ran in, are what they were.
    const frame = await result('debug_traceTransaction', [loopTx.transactionHash, { tracer: 'callTracer', timeout: '100s' }]);
    expect(frame).toEqual({
      from: EWOQ.toLowerCase(),
      gas: `0x${LOOP_GAS.toString(16)}`,
      gasUsed: loopTx.gasUsed,
      to: loop,
      input: `0x${word(ITERATIONS)}`,
      value: '0x0',
      type: 'CALL',
    });
    expect(await result('eth_call', [{ to: spin }, 'latest'])).toBe(`0x${word(0)}${word(0)}`);
    expect(await result('eth_getCode', [loop, 'latest'])).toBe(`0x${LOOP}`);
  });

  it("applies coreth's default trace timeout (5 s) when the config names none", { timeout: 60_000 }, async () => {
    const started = performance.now();
    // 50,000,000 gas of LOOP is 12.5 million steps: longer than 5 s under any tracer here.
    const r = await rpc('debug_traceCall', [{ to: loop, data: `0x${word(10n ** 9n)}` }, 'latest', { tracer: 'callTracer' }]);
    const took = performance.now() - started;
    expect(r).toEqual({ status: 200, json: { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'execution timeout' } } });
    expect(took).toBeGreaterThanOrEqual(4_900);
    expect(took).toBeLessThan(8_000);
  });

  it('stops eth_call at 5 s (RPCEVMTimeout) while answering others, and the reader keeps nothing of it', { timeout: 60_000 }, async () => {
    const { out, elapsed, latencies, median, held } = await whileAnswering(() => rpc('eth_call', [{ to: spin, data: `0x${word(0x77)}` }, 'latest']));
    expect(out).toEqual({ status: 200, json: { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'execution aborted (timeout = 5s)' } } });
    expect(elapsed).toBeGreaterThanOrEqual(4_900);
    expect(elapsed).toBeLessThan(8_000);
    expect(latencies.length).toBeGreaterThan(elapsed / 20 - 5);
    expect(median, 'median latency (ms)').toBeLessThan(100);
    expect(held, 'longest CPU time between turns of the event loop (ms)').toBeLessThan(100);
    // The aborted call wrote slot 0 and transient slot 0 before it spun: neither is seen by the next call.
    expect(await result('eth_call', [{ to: spin }, 'latest'])).toBe(`0x${word(0)}${word(0)}`);
    expect(await result('eth_getStorageAt', [spin, '0x0', 'latest'])).toBe(`0x${word(0)}`);
    // A call that ends in time still runs on the reader as before.
    expect(await rpc('eth_call', [{ to: spin, data: `0x${word(0x77)}`, gas: '0x30000' }, 'latest'])).toEqual({
      status: 200,
      json: { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'out of gas' } },
    });
    expect(await result('eth_call', [{ to: loop, data: `0x${word(3)}` }, 'latest'])).toBe('0x');
  });

  it('keeps each frame its own stack in a struct log across a call (debug_traceCall with state overrides)', async () => {
    const a = '0x00000000000000000000000000000000000000a0';
    const b = '0x00000000000000000000000000000000000000b0';
    // A keeps 0xaa under a CALL to B (which adds 1 and 2), pops the call's result and stops.
    const codeA = `0x60aa${'6000'.repeat(5)}73${b.slice(2)}61fffff15000`;
    const overrides = { [a]: { code: codeA }, [b]: { code: '0x6001600201' + '00' } };
    const trace = await result('debug_traceCall', [{ to: a }, 'latest', { stateOverrides: overrides }]);
    expect(trace.structLogs.map(({ pc, op, depth, stack }: any) => ({ pc, op, depth, stack }))).toEqual([
      { pc: 0, op: 'PUSH1', depth: 1, stack: [] },
      { pc: 2, op: 'PUSH1', depth: 1, stack: ['0xaa'] },
      { pc: 4, op: 'PUSH1', depth: 1, stack: ['0xaa', '0x0'] },
      { pc: 6, op: 'PUSH1', depth: 1, stack: ['0xaa', '0x0', '0x0'] },
      { pc: 8, op: 'PUSH1', depth: 1, stack: ['0xaa', '0x0', '0x0', '0x0'] },
      { pc: 10, op: 'PUSH1', depth: 1, stack: ['0xaa', '0x0', '0x0', '0x0', '0x0'] },
      { pc: 12, op: 'PUSH20', depth: 1, stack: ['0xaa', '0x0', '0x0', '0x0', '0x0', '0x0'] },
      { pc: 33, op: 'PUSH2', depth: 1, stack: ['0xaa', '0x0', '0x0', '0x0', '0x0', '0x0', '0xb0'] },
      { pc: 36, op: 'CALL', depth: 1, stack: ['0xaa', '0x0', '0x0', '0x0', '0x0', '0x0', '0xb0', '0xffff'] },
      { pc: 0, op: 'PUSH1', depth: 2, stack: [] },
      { pc: 2, op: 'PUSH1', depth: 2, stack: ['0x1'] },
      { pc: 4, op: 'ADD', depth: 2, stack: ['0x1', '0x2'] },
      { pc: 5, op: 'STOP', depth: 2, stack: ['0x3'] },
      { pc: 37, op: 'POP', depth: 1, stack: ['0xaa', '0x1'] },
      { pc: 38, op: 'STOP', depth: 1, stack: ['0xaa'] },
    ]);
  });

  it("runs debug_traceCall on the state before a block's tx (txIndex), or refuses an index the block has not", async () => {
    const block = deployLoop.blockNumber;
    // Before the deploy, LOOP has no code: the call is a plain 21,000; after it, 27 gas of code more.
    const before = await result('debug_traceCall', [{ to: loop }, block, { tracer: 'callTracer', txIndex: '0x0' }]);
    const after = await result('debug_traceCall', [{ to: loop }, block, { tracer: 'callTracer' }]);
    expect([before.gasUsed, after.gasUsed]).toEqual(['0x5208', '0x5223']);
    const blockHash = (await result('eth_getBlockByNumber', [block, false])).hash;
    expect(await rpc('debug_traceCall', [{ to: loop }, block, { txIndex: '0x1' }])).toEqual({
      status: 200,
      json: { jsonrpc: '2.0', id: 1, error: { code: -32000, message: `transaction index 1 out of range for block ${blockHash}` } },
    });
  });

  describe("client mistakes answer coreth's errors with status 200", () => {
    const F = `0x${'f'.repeat(64)}`;
    const tooLong = `0x${'00'.repeat(49_153)}`;
    const error = (code: number, message: string) => ({ status: 200, json: { jsonrpc: '2.0', id: 1, error: { code, message } } });
    const params = (m: string) => `invalid argument ${m === 'debug_traceCall' ? 2 : 1}`;
    const struct = (m: string) => (m === 'debug_traceCall' ? 'TraceCallConfig.TraceConfig' : 'TraceConfig');
    // Short txs and calls: a config the node takes traces them whole.
    const withConfig = (m: string, config: unknown): unknown[] =>
      m === 'debug_traceTransaction'
        ? [deployLoop.transactionHash, config]
        : m === 'debug_traceCall'
          ? [{ from: EWOQ, to: loop }, 'latest', config]
          : [deployLoop.blockNumber, config];

    for (const m of ['debug_traceTransaction', 'debug_traceCall', 'debug_traceBlockByNumber']) {
      it(`${m}: TraceConfig decoded as encoding/json does, with its texts`, async () => {
        const decode = (what: string) => error(-32602, `${params(m)}: json: cannot unmarshal ${what}`);
        const go = m === 'debug_traceCall' ? 'tracers.TraceCallConfig' : 'tracers.TraceConfig';
        const cases: Array<[unknown, ReturnType<typeof error>]> = [
          [{ timeout: 5 }, decode(`number into Go struct field ${struct(m)}.Timeout of type string`)],
          [{ timeout: true }, decode(`bool into Go struct field ${struct(m)}.Timeout of type string`)],
          [{ TIMEOUT: [] }, decode(`array into Go struct field ${struct(m)}.Timeout of type string`)],
          [{ tracer: {} }, decode(`object into Go struct field ${struct(m)}.Tracer of type string`)],
          [{ disableStack: 1 }, decode(`number into Go struct field ${struct(m)}.Config.DisableStack of type bool`)],
          [{ limit: 1.5 }, decode(`number 1.5 into Go struct field ${struct(m)}.Config.Limit of type int`)],
          [{ limit: 'x', reexec: -1 }, decode(`string into Go struct field ${struct(m)}.Config.Limit of type int`)],
          [{ reexec: -1 }, decode(`number -1 into Go struct field ${struct(m)}.Reexec of type uint64`)],
          [5, decode(`number into Go value of type ${go}`)],
          [[1], decode(`array into Go value of type ${go}`)],
          [
            { overrides: 'x' },
            error(
              -32602,
              `${params(m)}: decoding JSON into *params.ChainConfig: json: cannot unmarshal string into Go value of type params.chainConfigWithoutMethods`,
            ),
          ],
          [{ timeout: '' }, error(-32000, 'time: invalid duration ""')],
          [{ timeout: '1e400s' }, error(-32000, 'time: unknown unit "e" in duration "1e400s"')],
          [{ timeout: '9999999999h' }, error(-32000, 'time: invalid duration "9999999999h"')],
          [{ timeout: '-1s' }, error(-32000, 'execution timeout')],
          [{ tracer: 'callTracer', tracerConfig: 5 }, error(-32000, 'json: cannot unmarshal number into Go value of type native.callTracerConfig')],
          [{ tracer: 'callTracer', tracerConfig: 'x' }, error(-32000, 'json: cannot unmarshal string into Go value of type native.callTracerConfig')],
          [{ tracer: 'callTracer', tracerConfig: [[1]] }, error(-32000, 'json: cannot unmarshal array into Go value of type native.callTracerConfig')],
          [{ tracer: 'callTracer', tracerConfig: true }, error(-32000, 'json: cannot unmarshal bool into Go value of type native.callTracerConfig')],
          [
            { tracer: 'prestateTracer', tracerConfig: { diffMode: {} } },
            error(-32000, 'json: cannot unmarshal object into Go struct field prestateTracerConfig.diffMode of type bool'),
          ],
        ];
        for (const [config, expected] of cases) expect([config, await rpc(m, withConfig(m, config))]).toEqual([config, expected]);
        // null is unset, for the whole config and for each field; so is an unknown key.
        for (const config of [null, { timeout: null, tracer: null, limit: null, tracerConfig: null, unknown: [1] }]) {
          const r = await rpc(m, withConfig(m, config));
          expect(r.status).toBe(200);
          expect(r.json.error).toBeUndefined();
        }
      });
    }

    it('debug_traceCall: TraceCallConfig fields and "pending"', async () => {
      const call = { from: EWOQ, to: loop };
      expect(await rpc('debug_traceCall', [call, 'latest', { txIndex: 5 }])).toEqual(
        error(-32602, 'invalid argument 2: json: cannot unmarshal non-string into Go struct field TraceCallConfig.TxIndex of type hexutil.Uint'),
      );
      expect(await rpc('debug_traceCall', [call, 'latest', { txIndex: '5' }])).toEqual(
        error(
          -32602,
          'invalid argument 2: json: cannot unmarshal hex string without 0x prefix into Go struct field TraceCallConfig.TxIndex of type hexutil.Uint',
        ),
      );
      expect(await rpc('debug_traceCall', [call, 'latest', { stateOverrides: [] }])).toEqual(
        error(-32602, 'invalid argument 2: json: cannot unmarshal array into Go struct field TraceCallConfig.StateOverrides of type ethapi.StateOverride'),
      );
      expect(await rpc('debug_traceCall', [call, 'latest', { blockOverrides: 'x' }])).toEqual(
        error(-32602, 'invalid argument 2: json: cannot unmarshal string into Go struct field TraceCallConfig.BlockOverrides of type ethapi.BlockOverrides'),
      );
      expect(await rpc('debug_traceCall', [call, 'pending'])).toEqual(error(-32000, 'tracing on top of pending is not supported'));
      // Block overrides apply (test/geth-params.test.ts): the emulator refused them until 2026-11-27.
      const overridden = await rpc('debug_traceCall', [call, 'latest', { blockOverrides: { time: '0x1' } }]);
      expect(overridden.status).toBe(200);
      expect(overridden.json.error).toBeUndefined();
    });

    it('init code over 49,152 bytes: eth_call, eth_estimateGas and debug_traceCall answer the state transition', async () => {
      const gasLimit = BigInt((await result('eth_getBlockByNumber', ['latest', false])).gasLimit);
      const text = 'max initcode size exceeded: code size 49153 limit 49152';
      expect(await rpc('eth_call', [{ from: EWOQ, data: tooLong }, 'latest'])).toEqual(error(-32000, `err: ${text} (supplied gas 50000000)`));
      expect(await rpc('eth_estimateGas', [{ from: EWOQ, data: tooLong }])).toEqual(error(-32000, `failed with ${gasLimit} gas: ${text}`));
      expect(await rpc('debug_traceCall', [{ from: EWOQ, data: tooLong }, 'latest'])).toEqual(error(-32000, `tracing failed: ${text}`));
      // 49,152 bytes is within the limit: the (empty) init code runs.
      expect(await rpc('eth_call', [{ from: EWOQ, data: `0x${'00'.repeat(49_152)}` }, 'latest'])).toEqual({
        status: 200,
        json: { jsonrpc: '2.0', id: 1, result: '0x' },
      });
    });

    it("gas × price past 2^256 - 1: buyGas's text, for every way of asking", async () => {
      const past = (who: string) => `insufficient funds for gas * price + value: address ${who} required balance exceeds 256 bits`;
      const zero = '0x0000000000000000000000000000000000000000';
      expect(await rpc('eth_call', [{ from: EWOQ, to: loop, gas: '0x1000000', gasPrice: F }, 'latest'])).toEqual(
        error(-32000, `err: ${past(EWOQ)} (supplied gas 16777216)`),
      );
      expect(await rpc('eth_call', [{ to: loop, gas: '0x1000000', maxFeePerGas: F }, 'latest'])).toEqual(
        error(-32000, `err: ${past(zero)} (supplied gas 16777216)`),
      );
      // gas × price within 256 bits, the value taking it past them.
      expect(await rpc('eth_call', [{ from: EWOQ, to: loop, gas: '0x5208', gasPrice: '0x3b9aca00', value: F }, 'latest'])).toEqual(
        error(-32000, `err: ${past(EWOQ)} (supplied gas 21000)`),
      );
      expect(await rpc('debug_traceCall', [{ from: EWOQ, to: loop, gas: '0x1000000', gasPrice: F }, 'latest'])).toEqual(
        error(-32000, `tracing failed: ${past(EWOQ)}`),
      );
      // The estimator caps the gas by what the balance buys first: none at this price.
      expect(await rpc('eth_estimateGas', [{ from: EWOQ, to: loop, gasPrice: F }])).toEqual(error(-32000, 'gas required exceeds allowance (0)'));
      // A tracer's own error comes before the message's refusal, as traceTx makes the tracer first.
      expect(await rpc('debug_traceCall', [{ from: EWOQ, to: loop, gasPrice: F }, 'latest', { tracer: 'nope' }])).toEqual(
        error(-32000, 'ReferenceError: nope is not defined at <eval>:1:2(0)'),
      );
    });
  });
});

describe('a trace leaves nothing behind on the chain', () => {
  it("each trace's VMs are its own: none is kept by a listener on the chain's Common", async () => {
    const started = await startEmulator({ httpPort: 0, logLevel: 'off', dataDir: tempDir(), dbType: 'memdb', dev: true });
    try {
      const url = `${started.uri}/ext/bc/C/rpc`;
      const result = async (method: string, params: unknown[]) => {
        const r = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
        if (r.json.error) throw new Error(`${method}: ${r.json.error.message}`);
        return r.json.result;
      };
      const send = async (nonce: bigint, data: string, to?: `0x${string}`) => {
        const tx = createFeeMarket1559Tx(
          { nonce, to, data: Buffer.from(data, 'hex'), gasLimit: 300_000n, maxFeePerGas: 300_000_000_000n, maxPriorityFeePerGas: 1n },
          { common },
        ).sign(EWOQ_KEY);
        return result('eth_getTransactionReceipt', [await result('eth_sendRawTransaction', [`0x${Buffer.from(tx.serialize()).toString('hex')}`])]);
      };
      const loop = (await send(0n, deployer(LOOP))).contractAddress;
      const run = await send(1n, word(10), loop);
      expect(run.status).toBe('0x1');
      // ethereumjs's EVM listens to its Common's hardfork changes, and never stops: a VM made on
      // the chain's Common would stay reachable from it as long as the chain lives.
      const chainCommon = started.node.cChain.common;
      const listening = () => chainCommon.events.listenerCount('hardforkChanged');
      const before = listening();
      for (let i = 0; i < 5; i++) {
        expect((await result('debug_traceTransaction', [run.transactionHash, { tracer: 'callTracer' }])).to).toBe(loop);
        expect(await result('debug_traceBlockByNumber', [run.blockNumber, { tracer: 'prestateTracer' }])).toHaveLength(1);
        expect((await result('debug_traceCall', [{ from: EWOQ, to: loop, data: `0x${word(3)}` }, 'latest', { txIndex: '0x0' }])).failed).toBe(false);
      }
      expect(listening()).toBe(before);
    } finally {
      await started.stop();
    }
  });
});

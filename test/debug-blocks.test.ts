// The rest of coreth's debug-tracer API over HTTP: debug_traceBlock (a block's RLP, the chain's own
// or one it does not hold, its senders then recovered from the signatures), debug_traceBlockFromFile,
// debug_intermediateRoots (the state root after each tx) and debug_traceBadBlock, against
// debug_traceBlockByHash and the blocks' own state roots.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromRlp, type Hex, toHex, toRlp } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_NODE, evmClients, ewoq } from './support/evm.js';
import { call, callError, startTestNode, type TestNode } from './helpers.js';

const CALL_TRACER = { tracer: 'callTracer' };

describe('debug_traceBlock, debug_traceBlockFromFile, debug_intermediateRoots, debug_traceBadBlock', () => {
  let node: TestNode;
  let url: string;
  /** A block of two transfers (after one of one), and its RLP. */
  let block: { hash: Hex; number: Hex; stateRoot: Hex; transactions: Hex[] };
  let raw: Hex;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    url = `${node.uri}/ext/bc/C/rpc`;
    const { client, wallet } = evmClients(node.uri, 'C', 43112, ewoq, DEV_NODE);
    // A block of one tx, then one of two.
    await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: '0x3333333333333333333333333333333333333333', value: 3n }) });
    await call(url, 'evm_setAutomine', [false]);
    await wallet.sendTransaction({ to: '0x1111111111111111111111111111111111111111', value: 5n, nonce: 1 });
    await wallet.sendTransaction({ to: '0x2222222222222222222222222222222222222222', value: 7n, nonce: 2 });
    await call(url, 'evm_mine', []);
    await call(url, 'evm_setAutomine', [true]);
    block = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(block.transactions).toHaveLength(2);
    raw = await call(url, 'debug_getRawBlock', [block.number]);
  });
  afterAll(() => node.stop());

  /** The block's RLP with its header's field `i` set to `value`. */
  function withHeaderField(i: number, value: Hex): Hex {
    const fields = fromRlp(raw) as unknown as [Hex[], ...unknown[]];
    const header = [...fields[0]];
    header[i] = value;
    return toRlp([header, ...fields.slice(1)] as never);
  }

  it("traces a block's RLP as debug_traceBlockByHash traces the block", async () => {
    const byHash = await call(url, 'debug_traceBlockByHash', [block.hash, CALL_TRACER]);
    expect(byHash.map((t: { txHash: Hex }) => t.txHash)).toEqual(block.transactions);
    expect(await call(url, 'debug_traceBlock', [raw, CALL_TRACER])).toEqual(byHash);
    // The struct logger too (transfers: no steps).
    expect(await call(url, 'debug_traceBlock', [raw])).toEqual(await call(url, 'debug_traceBlockByHash', [block.hash]));
    // A block the chain does not hold (another extra): the same txs on the same parent, senders recovered.
    expect(await call(url, 'debug_traceBlock', [withHeaderField(12, '0x0102'), CALL_TRACER])).toEqual(byHash);
  });

  it('refuses what coreth refuses: bad RLP, the genesis, an unknown or unfinalized parent', async () => {
    expect((await callError(url, 'debug_traceBlock', ['0x1234'])).message).toMatch(/^could not decode block: /);
    const genesis = await call(url, 'debug_getRawBlock', ['0x0']);
    expect((await callError(url, 'debug_traceBlock', [genesis])).message).toBe('genesis is not traceable');
    const parent = `0x${'ab'.repeat(32)}` as Hex;
    expect((await callError(url, 'debug_traceBlock', [withHeaderField(0, parent)])).message).toBe(`block ${parent} not found`);
    const far = toHex(BigInt(block.number) + 5n);
    expect((await callError(url, 'debug_traceBlock', [withHeaderField(8, far)])).message).toBe('cannot query unfinalized data');
  });

  it('reads a block from a file, with Go’s errors for a file it cannot read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trace-file-'));
    const file = join(dir, 'block.rlp');
    writeFileSync(file, Buffer.from(raw.slice(2), 'hex'));
    expect(await call(url, 'debug_traceBlockFromFile', [file, CALL_TRACER])).toEqual(await call(url, 'debug_traceBlockByHash', [block.hash, CALL_TRACER]));
    const missing = join(dir, 'none.rlp');
    expect((await callError(url, 'debug_traceBlockFromFile', [missing])).message).toBe(`could not read file: open ${missing}: no such file or directory`);
    expect((await callError(url, 'debug_traceBlockFromFile', [dir])).message).toBe(`could not read file: read ${dir}: is a directory`);
    // Go's strerror text for any errno, as Node's message carries it.
    const under = join(file, 'x');
    expect((await callError(url, 'debug_traceBlockFromFile', [under])).message).toBe(`could not read file: open ${under}: not a directory`);
  });

  it('refuses a FIFO or a device at once, so no call holds a file thread waiting for a writer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trace-fifo-'));
    const fifo = join(dir, 'block.fifo');
    execFileSync('mkfifo', [fifo]);
    // More calls than libuv has threads (4): opened blocking, they would stall every file read after them.
    const refusals = await Promise.all(Array.from({ length: 6 }, () => callError(url, 'debug_traceBlockFromFile', [fifo])));
    for (const err of refusals) expect(err.message).toBe(`could not read file: read ${fifo}: not a regular file`);
    expect((await callError(url, 'debug_traceBlockFromFile', ['/dev/zero'])).message).toBe('could not read file: read /dev/zero: not a regular file');
    const file = join(dir, 'block.rlp');
    writeFileSync(file, Buffer.from(raw.slice(2), 'hex'));
    expect(await call(url, 'debug_traceBlockFromFile', [file, CALL_TRACER])).toEqual(await call(url, 'debug_traceBlockByHash', [block.hash, CALL_TRACER]));
  });

  it("debug_intermediateRoots: the state root after each tx, the last the block's", async () => {
    const roots: Hex[] = await call(url, 'debug_intermediateRoots', [block.hash]);
    expect(roots).toHaveLength(2);
    expect(roots[1]).toBe(block.stateRoot);
    expect(roots[0]).not.toBe(roots[1]);
    const parent = await call(url, 'eth_getBlockByNumber', [toHex(BigInt(block.number) - 1n), false]);
    expect(roots[0]).not.toBe(parent.stateRoot);
    // A block of one tx: its root is the block's.
    const one = await call(url, 'debug_intermediateRoots', [parent.hash]);
    expect(one).toEqual([parent.stateRoot]);
    const unknown = `0x${'cd'.repeat(32)}`;
    expect((await callError(url, 'debug_intermediateRoots', [unknown])).message).toBe(`block ${unknown} not found`);
    const genesis = await call(url, 'eth_getBlockByNumber', ['0x0', false]);
    expect((await callError(url, 'debug_intermediateRoots', [genesis.hash])).message).toBe('genesis is not traceable');
    // An empty block (evm_mine with nothing to mine): no roots, null as Go writes a nil slice.
    await call(url, 'evm_mine', []);
    const empty = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(empty.transactions).toEqual([]);
    expect(await call(url, 'debug_intermediateRoots', [empty.hash])).toBeNull();
  });

  it('debug_traceBadBlock and debug_standardTraceBadBlockToFile: the node never has one', async () => {
    for (const name of ['debug_traceBadBlock', 'debug_standardTraceBadBlockToFile'])
      expect((await callError(url, name, [block.hash])).message).toBe(`bad block ${block.hash} not found`);
    // Each with its own config struct: TraceConfig's tracer, StdTraceConfig's txHash.
    const bad = (name: string, config: unknown) => callError(url, name, [block.hash, config]);
    expect((await bad('debug_standardTraceBadBlockToFile', { tracer: 1, txHash: `0x${'00'.repeat(32)}` })).message).toBe(`bad block ${block.hash} not found`);
    expect(await bad('debug_standardTraceBadBlockToFile', { txHash: 1 })).toEqual({
      code: -32602,
      message: 'invalid argument 1: json: cannot unmarshal non-string into Go struct field StdTraceConfig.TxHash of type common.Hash',
    });
    expect((await bad('debug_standardTraceBadBlockToFile', { txHash: '0x12' })).message).toBe(
      'invalid argument 1: hex string has length 2, want 64 for common.Hash',
    );
    expect((await bad('debug_standardTraceBadBlockToFile', 'x')).message).toBe(
      'invalid argument 1: json: cannot unmarshal string into Go value of type tracers.StdTraceConfig',
    );
    expect((await bad('debug_traceBadBlock', { tracer: 1 })).message).toBe(
      'invalid argument 1: json: cannot unmarshal number into Go struct field TraceConfig.Tracer of type string',
    );
    expect((await bad('debug_traceBadBlock', { txHash: 1 })).message).toBe(`bad block ${block.hash} not found`);
  });
});

describe("the tracer APIs by eth-apis: debug-tracer's and debug-file-tracer's methods", () => {
  async function nodeWith(apis: string[]): Promise<TestNode> {
    const configDir = mkdtempSync(join(tmpdir(), 'trace-apis-'));
    mkdirSync(join(configDir, 'C'));
    writeFileSync(join(configDir, 'C', 'config.json'), JSON.stringify({ 'eth-apis': apis }));
    return startTestNode({ dbType: 'memdb', chainConfigDir: configDir });
  }

  it('serves debug_traceBlockFromFile with debug-file-tracer only, and debug_traceBlock with either', async () => {
    const zero = `0x${'00'.repeat(32)}`;
    const badBlock = `bad block ${zero} not found`;
    const readFile = 'could not read file: open /nonexistent: no such file or directory';
    // Each call with valid arguments: served, it answers as the method does; absent, -32601.
    const calls: Record<string, [string, unknown[], string]> = {
      intermediateRoots: ['debug_intermediateRoots', [zero], `block ${zero} not found`],
      traceBadBlock: ['debug_traceBadBlock', [zero], badBlock],
      fromFile: ['debug_traceBlockFromFile', ['/nonexistent'], readFile],
      badBlockToFile: ['debug_standardTraceBadBlockToFile', [zero], badBlock],
    };
    for (const [api, served, absent] of [
      ['debug-tracer', ['intermediateRoots', 'traceBadBlock'], ['fromFile', 'badBlockToFile']],
      ['debug-file-tracer', ['fromFile', 'badBlockToFile'], ['intermediateRoots', 'traceBadBlock']],
    ] as const) {
      const node = await nodeWith(['eth', api]);
      try {
        const url = `${node.uri}/ext/bc/C/rpc`;
        for (const key of served) {
          const [name, params, message] = calls[key]!;
          expect(await callError(url, name, params), name).toEqual({ code: -32000, message });
        }
        for (const key of absent) {
          const [name, params] = calls[key]!;
          expect((await callError(url, name, params)).code, name).toBe(-32601);
        }
        expect((await callError(url, 'debug_traceBlock', ['0x1234'])).message).toMatch(/^could not decode block: /);
      } finally {
        await node.stop();
      }
    }
  });
});

describe('on a Subnet-EVM L1 (its own header layout and four-field accounts)', () => {
  it('traces a block from its RLP, gives its intermediate roots, and dumps its state by address', async () => {
    const node = await startTestNode({ dbType: 'memdb', dev: true, l1: [new URL('../fixtures/myl1.json', import.meta.url).pathname] });
    try {
      const url = `${node.uri}/ext/bc/myl1/rpc`;
      const { client, wallet } = evmClients(node.uri, 'myl1', 99999, ewoq, DEV_NODE);
      const receipt = await client.waitForTransactionReceipt({
        hash: await wallet.sendTransaction({ to: '0x5555555555555555555555555555555555555555', value: 9n }),
      });
      const number = toHex(receipt.blockNumber);
      const block = await call(url, 'eth_getBlockByNumber', [number, false]);
      const raw = await call(url, 'debug_getRawBlock', [number]);
      expect(await call(url, 'debug_traceBlock', [raw, CALL_TRACER])).toEqual(await call(url, 'debug_traceBlockByHash', [block.hash, CALL_TRACER]));
      expect(await call(url, 'debug_intermediateRoots', [block.hash])).toEqual([block.stateRoot]);
      const dump = await call(url, 'debug_dumpBlock', [number]);
      expect(dump.root).toBe(block.stateRoot.slice(2));
      expect(dump.accounts['0x5555555555555555555555555555555555555555'].balance).toBe('9');
      expect(await call(url, 'debug_getModifiedAccountsByNumber', [Number(receipt.blockNumber)])).toEqual(
        expect.arrayContaining([ewoq.address.toLowerCase(), '0x5555555555555555555555555555555555555555']),
      );
    } finally {
      await node.stop();
    }
  });
});

// The interpreters' kept code analyses (src/vms/evm/jumpdests.ts): an analysis is reused only for the
// same bytes under the same opcode table, whether the code comes as the same object or as a copy,
// and what is kept is bounded by the bytes of code. Then, on a node: a loop's calls answer the same through the
// kept analyses, and code one byte off at the same address gets an analysis of its own.
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jumpAnalysesKept, keepJumpAnalyses } from '../src/vms/evm/jumpdests.js';
import { startTestNode, type TestNode } from './helpers.js';

describe('kept code analyses', () => {
  class FakeInterpreter {
    static analysed: Uint8Array[] = [];
    constructor(readonly _evm: { _opcodeMap: object }) {}
    _getValidJumpDestinations(code: Uint8Array) {
      FakeInterpreter.analysed.push(code);
      return { jumps: new Uint8Array(code.length), pushes: {}, opcodesCached: [this._evm._opcodeMap] };
    }
  }
  const tableA = {};
  const tableB = {};
  const a = new FakeInterpreter({ _opcodeMap: tableA });
  const b = new FakeInterpreter({ _opcodeMap: tableB });
  keepJumpAnalyses(a);

  it('analyses a code once per opcode table, by object and by bytes', () => {
    const code = Uint8Array.of(0x60, 0x01, 0x56, 0x5b);
    const first = a._getValidJumpDestinations(code);
    expect(a._getValidJumpDestinations(code)).toBe(first);
    // The same bytes in another object (a code read again), and as a view into a larger buffer.
    expect(a._getValidJumpDestinations(Uint8Array.from(code))).toBe(first);
    const view = Uint8Array.of(0xff, ...code, 0xff).subarray(1, 5);
    expect(a._getValidJumpDestinations(view)).toBe(first);
    expect(FakeInterpreter.analysed).toHaveLength(1);
    // Another table (another chain's VM, with handlers of its own): analysed again, kept apart.
    const other = b._getValidJumpDestinations(code);
    expect(other).not.toBe(first);
    expect(other.opcodesCached[0]).toBe(tableB);
    expect(a._getValidJumpDestinations(code)).toBe(first);
    // Other bytes, even one byte off, are other codes.
    a._getValidJumpDestinations(Uint8Array.of(0x60, 0x01, 0x56, 0x00));
    expect(FakeInterpreter.analysed).toHaveLength(3);
    expect(jumpAnalysesKept()).toBe(1);
  });

  it('keeps the analyses of the last 512 KB of code run per table', () => {
    FakeInterpreter.analysed = [];
    const code = (n: number) => Uint8Array.from({ length: 1024 }, (_, i) => (i === 0 ? n & 0xff : i === 1 ? n >> 8 : 0x5b));
    a._getValidJumpDestinations(code(0));
    for (let n = 1; n < 512; n++) a._getValidJumpDestinations(code(n));
    // 512 KB of code: the first is still kept, and asking for it makes it the most recently used.
    a._getValidJumpDestinations(code(0));
    expect(FakeInterpreter.analysed).toHaveLength(512);
    // One more code pushes out the least recently used (code 1), not code 0.
    a._getValidJumpDestinations(code(512));
    a._getValidJumpDestinations(code(0));
    expect(FakeInterpreter.analysed).toHaveLength(513);
    a._getValidJumpDestinations(code(1));
    expect(FakeInterpreter.analysed).toHaveLength(514);
    // A code larger than the whole bound is kept until the next one comes.
    const huge = new Uint8Array(600 * 1024).fill(0x5b);
    const kept = a._getValidJumpDestinations(huge);
    expect(a._getValidJumpDestinations(Uint8Array.from(huge))).toBe(kept);
    expect(FakeInterpreter.analysed).toHaveLength(515);
  });
});

describe('calls through kept analyses on a node', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
  }, 60_000);
  afterAll(() => node?.stop());

  it('a loop contract answers the same call after call, and its state override sees other code', async () => {
    const client = createPublicClient({ transport: http(`${node.uri}/ext/bc/C/rpc`), cacheTime: 0 });
    const to = `0x${'42'.repeat(20)}` as const;
    // Runtime code: sum = 0; for (i = calldata[0]; i > 0; i--) sum += i; return sum (JUMPs and a JUMPDEST after a PUSH).
    const loop = '0x60003560005b811560165781019060019003906005565b60005260206000f3';
    const sum = (n: number) => BigInt((n * (n + 1)) / 2);
    for (const n of [3, 10, 100, 3]) {
      const data = `0x${n.toString(16).padStart(64, '0')}` as const;
      const { data: out } = await client.call({ to, data, stateOverride: [{ address: to, code: loop }] });
      expect(BigInt(out!)).toBe(sum(n));
    }
    // The fake interpreter's class above keeps its analyses, and ethereumjs's since the first JUMP run.
    expect(jumpAnalysesKept()).toBe(2);
    // The same address with code one byte off (PUSH2 for the second PUSH1): the loop's JUMPDEST is
    // then push data, and the jump to it is refused with geth's text (ethereumjs's own names the place).
    const broken: `0x${string}` = `0x${loop.slice(2, 8)}61${loop.slice(10)}`;
    await expect(client.call({ to, data: `0x${(3).toString(16).padStart(64, '0')}`, stateOverride: [{ address: to, code: broken }] })).rejects.toThrow(
      'invalid jump destination',
    );
  });
});

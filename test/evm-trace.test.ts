// The C-Chain tracers against geth's output for hand-assembled contracts on a plain Cancun VM:
// exact struct logs (gas, costs, stack, memory, storage, a stack error), callTracer frames (nested
// CALL, revert reason, logs with their positions), prestateTracer in both modes (including geth
// 1.13's nonce 1 for a created account), and coreth's texts for a bad tracer request. Expected
// gas figures are worked out by hand from the Cancun gas schedule, not read back from a run.
import { createBlock } from '@ethereumjs/block';
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { createLegacyTx } from '@ethereumjs/tx';
import { Account, Address, bytesToHex, generateAddress, privateToAddress } from '@ethereumjs/util';
import { createVM, runTx, type VM } from '@ethereumjs/vm';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTracer, gethError, type StateReader, type TraceConfig } from '../src/vms/evm/trace/index.js';

const common = createCustomCommon({ chainId: 43112 }, Mainnet, { hardfork: Hardfork.Cancun });
const KEY = Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex');
const SENDER = privateToAddress(KEY);
const COINBASE = Buffer.from('0100000000000000000000000000000000000000', 'hex');
const addr = (n: number) => Buffer.from(n.toString(16).padStart(40, '0'), 'hex');
const h = (b: Uint8Array) => bytesToHex(b);
const word = (n: number | bigint) => n.toString(16).padStart(64, '0');
const code = (asm: string) => Buffer.from(asm.replace(/\s+/g, ''), 'hex');

// Contracts. B returns the word 0x2a; A calls B with 0xffff gas and returns what it got.
const B = addr(0xb0);
const A = addr(0xa0);
const R = addr(0xbad);
const L = addr(0x1010);
const S = addr(0x5e5e);
const X = addr(0x77);
const P = addr(0xde1e);
const CONTRACTS: Array<[Uint8Array, string]> = [
  [addr(0xc1), '6001 6002 01 00'],
  [addr(0xc2), '602a 6000 52 6007 6001 55 6001 54 50 01'],
  [B, '602a 6000 52 6020 6000 f3'],
  [A, `6020 6000 6000 6000 6000 73${h(B).slice(2)} 61ffff f1 50 6020 6000 f3`],
  // Error("nope"): selector, offset 0x20, length 4, "nope"
  [R, `7f08c379a0${'0'.repeat(56)} 6000 52 6020 6004 52 6004 6024 52 7f6e6f7065${'0'.repeat(56)} 6044 52 6064 6000 fd`],
  // LOG1(topic 0x11, data = word 0x2a), CALL B, LOG0 of nothing
  [L, `602a 6000 52 6011 6020 6000 a1 6000 6000 6000 6000 6000 73${h(B).slice(2)} 61ffff f1 50 6000 6000 a0 00`],
  // DELEGATECALL B, STATICCALL B, CREATE with empty init code
  [P, `6020 6000 6000 6000 73${h(B).slice(2)} 61ffff f4 50 6020 6000 6000 6000 73${h(B).slice(2)} 61ffff fa 50 6000 6000 6000 f0 50 00`],
  // SLOAD slot 0, SSTORE slot 1 = 2, BALANCE of X
  [S, `6000 54 50 6002 6001 55 73${h(X).slice(2)} 31 00`],
];

let vm: VM;
let nonce: bigint;

beforeEach(async () => {
  vm = await createVM({ common });
  nonce = 0n;
  await vm.stateManager.putAccount(new Address(SENDER), new Account(0n, 10n ** 18n));
  await vm.stateManager.putAccount(new Address(X), new Account(0n, 12345n));
  for (const [address, asm] of CONTRACTS) {
    await vm.stateManager.putAccount(new Address(address), new Account());
    await vm.stateManager.putCode(new Address(address), code(asm));
  }
  await vm.stateManager.putStorage(new Address(S), Buffer.from(word(0), 'hex'), Uint8Array.of(9));
});

const reader = (sm: MerkleStateManager): StateReader => ({
  getAccount: async (a) => sm.getAccount(new Address(a)),
  getCode: (a) => sm.getCode(new Address(a)),
  getStorage: (a, k) => sm.getStorage(new Address(a), k),
});

/** Runs one tx from SENDER (gas price 1, base fee 0: the coinbase gets the whole fee) under a tracer. */
async function trace(config: TraceConfig | undefined, to: Uint8Array | undefined, opts: { value?: bigint; data?: Uint8Array; gasLimit?: bigint } = {}) {
  const gasLimit = opts.gasLimit ?? 100_000n;
  const tx = createLegacyTx({ nonce, gasPrice: 1n, gasLimit, to, value: opts.value ?? 0n, data: opts.data }, { common }).sign(KEY);
  const block = createBlock(
    {
      header: {
        number: 1n,
        gasLimit: 30_000_000n,
        baseFeePerGas: 0n,
        coinbase: new Address(COINBASE),
        excessBlobGas: 0n,
        blobGasUsed: 0n,
        parentBeaconBlockRoot: new Uint8Array(32),
      },
    },
    { common, skipConsensusFormatValidation: true },
  );
  const sm = vm.stateManager as MerkleStateManager;
  const root = await sm.getStateRoot();
  const created = to ? undefined : generateAddress(SENDER, nonce === 0n ? new Uint8Array() : Uint8Array.of(Number(nonce)));
  const tracer = createTracer(config, { from: SENDER, to, value: tx.value, gasLimit, gasPrice: 1n, input: tx.data, created, coinbase: COINBASE });
  tracer.attach(vm.evm);
  const res = await runTx(vm, { tx, block, skipHardForkValidation: true });
  tracer.detach(vm.evm);
  nonce++;
  const pre = sm.shallowCopy();
  await pre.setStateRoot(root);
  const err = res.execResult.exceptionError;
  const result = { gasUsed: res.totalGasSpent, returnValue: res.execResult.returnValue, error: err && gethError(err).text };
  return { out: (await tracer.finish(result, reader(pre), reader(sm))) as any, created };
}

describe('struct logger', () => {
  it('logs PUSH1 1 PUSH1 2 ADD STOP as geth does', async () => {
    const { out } = await trace(undefined, addr(0xc1));
    // 100000 - 21000 intrinsic; PUSH1 and ADD cost 3, STOP 0. JSON text so the key order counts too.
    expect(JSON.stringify(out)).toBe(
      JSON.stringify({
        gas: 21009,
        failed: false,
        returnValue: '',
        structLogs: [
          { pc: 0, op: 'PUSH1', gas: 79000, gasCost: 3, depth: 1, stack: [] },
          { pc: 2, op: 'PUSH1', gas: 78997, gasCost: 3, depth: 1, stack: ['0x1'] },
          { pc: 4, op: 'ADD', gas: 78994, gasCost: 3, depth: 1, stack: ['0x1', '0x2'] },
          { pc: 5, op: 'STOP', gas: 78991, gasCost: 0, depth: 1, stack: ['0x3'] },
        ],
      }),
    );
  });

  it('shows memory before expansion, storage as touched so far, and the stack error on the failing op', async () => {
    const { out } = await trace({ enableMemory: true }, addr(0xc2));
    const mem = [word(0x2a)];
    const storage = { [word(1)]: word(7) };
    expect(out.failed).toBe(true);
    expect(out.gas).toBe(100_000); // an exceptional halt burns all the gas
    expect(out.returnValue).toBe('');
    expect(JSON.stringify(out.structLogs)).toBe(
      JSON.stringify([
        { pc: 0, op: 'PUSH1', gas: 79000, gasCost: 3, depth: 1, stack: [], memory: [] },
        { pc: 2, op: 'PUSH1', gas: 78997, gasCost: 3, depth: 1, stack: ['0x2a'], memory: [] },
        { pc: 4, op: 'MSTORE', gas: 78994, gasCost: 6, depth: 1, stack: ['0x2a', '0x0'], memory: [] },
        { pc: 5, op: 'PUSH1', gas: 78988, gasCost: 3, depth: 1, stack: [], memory: mem },
        { pc: 7, op: 'PUSH1', gas: 78985, gasCost: 3, depth: 1, stack: ['0x7'], memory: mem },
        // cold slot set from zero: 2100 + 20000
        { pc: 9, op: 'SSTORE', gas: 78982, gasCost: 22100, depth: 1, stack: ['0x7', '0x1'], memory: mem, storage },
        { pc: 10, op: 'PUSH1', gas: 56882, gasCost: 3, depth: 1, stack: [], memory: mem },
        // warm SLOAD reads the value the tx wrote
        { pc: 12, op: 'SLOAD', gas: 56879, gasCost: 100, depth: 1, stack: ['0x1'], memory: mem, storage },
        { pc: 13, op: 'POP', gas: 56779, gasCost: 2, depth: 1, stack: ['0x7'], memory: mem },
        { pc: 14, op: 'ADD', gas: 56777, gasCost: 3, depth: 1, error: 'stack underflow (0 <=> 2)', stack: [], memory: mem },
      ]),
    );
  });

  it('adds the gas handed to the callee to CALL, counts depth from 1, and keeps a revert reason as returnValue', async () => {
    const { out } = await trace({ disableStack: true, limit: 12 }, A);
    expect(out.structLogs).toHaveLength(12);
    expect(out.structLogs.every((l: any) => l.stack === undefined)).toBe(true);
    const call = out.structLogs[7];
    // 79000 - 5×3 PUSH1 - PUSH20 - PUSH2 = 78979 left; cold CALL 2600 + one memory word 3, then 0xffff for B
    expect(call).toEqual({ pc: 34, op: 'CALL', gas: 78979, gasCost: 2603 + 0xffff, depth: 1 });
    expect(out.structLogs[8]).toEqual({ pc: 0, op: 'PUSH1', gas: 0xffff, gasCost: 3, depth: 2 });
    const reverted = await trace(undefined, R);
    expect(reverted.out.failed).toBe(true);
    expect(reverted.out.returnValue).toBe(`08c379a0${word(0x20)}${word(4)}6e6f7065${'0'.repeat(56)}`);
  });
});

describe('callTracer', () => {
  it('nests the CALL frame, in geth key order with type last', async () => {
    const { out } = await trace({ tracer: 'callTracer' }, A);
    // B: 4×PUSH1, MSTORE with a new word, RETURN = 18 gas. A: 21000 + 5×3 + 3 + 3 + 2603 + 18 + POP 2 + 2×3.
    expect(JSON.stringify(out)).toBe(
      JSON.stringify({
        from: h(SENDER),
        gas: '0x186a0',
        gasUsed: `0x${(21000 + 15 + 6 + 2603 + 18 + 2 + 6).toString(16)}`,
        to: h(A),
        input: '0x',
        output: `0x${word(0x2a)}`,
        calls: [{ from: h(A), gas: '0xffff', gasUsed: '0x12', to: h(B), input: '0x', output: `0x${word(0x2a)}`, value: '0x0', type: 'CALL' }],
        value: '0x0',
        type: 'CALL',
      }),
    );
  });

  it('decodes an Error(string) revert reason', async () => {
    const { out } = await trace({ tracer: 'callTracer' }, R, { value: 7n });
    expect(out.error).toBe('execution reverted');
    expect(out.revertReason).toBe('nope');
    expect(out.output).toBe(`0x08c379a0${word(0x20)}${word(4)}6e6f7065${'0'.repeat(56)}`);
    expect(out.value).toBe('0x7');
    expect(Object.keys(out)).toEqual(['from', 'gas', 'gasUsed', 'to', 'input', 'output', 'error', 'revertReason', 'value', 'type']);
  });

  it('collects logs with their position among the calls (withLog), and nothing below the top with onlyTopCall', async () => {
    const { out } = await trace({ tracer: 'callTracer', tracerConfig: { withLog: true } }, L);
    expect(out.logs).toEqual([
      { address: h(L), topics: [`0x${word(0x11)}`], data: `0x${word(0x2a)}`, position: '0x0' },
      { address: h(L), topics: [], data: '0x', position: '0x1' },
    ]);
    expect(out.calls).toHaveLength(1);
    const top = await trace({ tracer: 'callTracer', tracerConfig: { onlyTopCall: true } }, L);
    expect(top.out.calls).toBeUndefined();
    expect(top.out.logs).toBeUndefined();
  });

  it("maps ethereumjs's delegated and create messages onto geth's from, to and value", async () => {
    const { out } = await trace({ tracer: 'callTracer' }, P, { value: 4n });
    expect(out.calls.map((c: any) => c.type)).toEqual(['DELEGATECALL', 'STATICCALL', 'CREATE']);
    const [delegate, stat, create] = out.calls;
    expect([delegate.from, delegate.to, delegate.value]).toEqual([h(P), h(B), '0x4']); // the value it inherits
    expect(Object.keys(stat)).toEqual(['from', 'gas', 'gasUsed', 'to', 'input', 'output', 'type']); // no value
    expect(create).toEqual({
      from: h(P),
      gas: create.gas,
      gasUsed: '0x0',
      to: h(generateAddress(P, new Uint8Array())),
      input: '0x',
      value: '0x0',
      type: 'CREATE',
    });
  });
});

describe('prestateTracer', () => {
  const fee = 21000 + 3 + 2100 + 2 + 3 + 3 + 22100 + 3 + 2600; // gas used at price 1

  it('lists every touched account and slot as it was before the tx', async () => {
    const { out } = await trace({ tracer: 'prestateTracer' }, S, { value: 5n });
    expect(JSON.stringify(out)).toBe(
      JSON.stringify({
        [h(X)]: { balance: '0x3039' },
        [h(S)]: { balance: '0x0', code: h(code(CONTRACTS[7][1])), storage: { [`0x${word(0)}`]: `0x${word(9)}`, [`0x${word(1)}`]: `0x${word(0)}` } },
        [h(COINBASE)]: { balance: '0x0' },
        [h(SENDER)]: { balance: '0xde0b6b3a7640000' },
      }),
    );
  });

  it('diffMode shows what changed, post before pre', async () => {
    const { out } = await trace({ tracer: 'prestateTracer', tracerConfig: { diffMode: true } }, S, { value: 5n });
    const start = 10n ** 18n;
    expect(JSON.stringify(out)).toBe(
      JSON.stringify({
        post: {
          [h(S)]: { balance: '0x5', storage: { [`0x${word(1)}`]: `0x${word(2)}` } },
          [h(COINBASE)]: { balance: `0x${fee.toString(16)}` },
          [h(SENDER)]: { balance: `0x${(start - 5n - BigInt(fee)).toString(16)}`, nonce: 1 },
        },
        pre: {
          [h(S)]: { balance: '0x0', code: h(code(CONTRACTS[7][1])) },
          [h(COINBASE)]: { balance: '0x0' },
          [h(SENDER)]: { balance: `0x${start.toString(16)}` },
        },
      }),
    );
  });

  it("shows a create tx's new account with geth 1.13's nonce 1", async () => {
    const init = code('6001 6000 55 00'); // SSTORE slot 0 = 1, deploy no code
    const plain = await trace({ tracer: 'prestateTracer' }, undefined, { data: init });
    expect(plain.out[h(plain.created!)]).toEqual({ balance: '0x0', nonce: 1, storage: { [`0x${word(0)}`]: `0x${word(0)}` } });
    const diff = await trace({ tracer: 'prestateTracer', tracerConfig: { diffMode: true } }, undefined, { data: init });
    expect(diff.out.pre[h(diff.created!)]).toEqual({ balance: '0x0', nonce: 1 });
    expect(diff.out.post[h(diff.created!)]).toEqual({ storage: { [`0x${word(0)}`]: `0x${word(1)}` } });
  });
});

describe('tracer requests coreth refuses', () => {
  const tx = { from: SENDER, value: 0n, gasLimit: 0n, gasPrice: 0n, input: new Uint8Array(), coinbase: COINBASE };
  it('gives goja, encoding/json and time.ParseDuration texts', () => {
    expect(() => createTracer({ tracer: 'fooTracer' }, tx)).toThrow('ReferenceError: fooTracer is not defined at <eval>:1:2(0)');
    expect(() => createTracer({ tracer: 'callTracer', tracerConfig: { onlyTopCall: 'yes' } }, tx)).toThrow(
      'json: cannot unmarshal string into Go struct field callTracerConfig.onlyTopCall of type bool',
    );
    expect(() => createTracer({ tracer: 'callTracer', timeout: '10' }, tx)).toThrow('time: missing unit in duration "10"');
    expect(() => createTracer({ timeout: '1x' }, tx)).toThrow('time: unknown unit "x" in duration "1x"');
    expect(createTracer({ tracer: 'prestateTracer', timeout: '1.5s' }, tx)).toBeDefined();
  });

  it('fails a trace that outlives its timeout with "execution timeout"', async () => {
    await expect(trace({ timeout: '-1s' }, addr(0xc1))).rejects.toThrow('execution timeout');
  });
});

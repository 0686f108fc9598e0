// eth_call and eth_estimateGas on the reader (src/vms/evm/calls.ts, execution.ts ReaderStateManager)
// through HTTP, on a --dev C-Chain: what a call writes is read back within it and never seen by
// the next; answers kept for calls asked again follow every change of state (a block, a dev edit)
// and never carry a state override over to a plain call; calls asked at once get each its own
// answer; and the estimator's optimistic limit adds geth's RefundedGas, which coreth leaves at 0
// since Apricot Phase 1, not ethereumjs's refund counter.
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { encodeFunctionData, parseAbi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainCommon } from '../src/vms/evm/rules.js';
import { call, callError, rpc, startTestNode, type TestNode } from './helpers.js';
import { compileSources } from './support/solc.js';

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Slots {
  uint256 public a = 1;
  uint256 public b = 2;
  mapping(uint256 => uint256) public m;
  function bump(uint256 x) external returns (uint256) { a += x; m[x] = a; return a * 1000 + m[x]; }
  function clear() external { b = 0; }
  function clearAndWork(uint256 n) external returns (uint256 acc) { b = 0; for (uint256 i = 0; i < n; i++) acc += i * i; }
  function number() external view returns (uint256) { return block.number; }
  function fail() external pure { revert("nope"); }
  function above(uint256 floor) external { require(gasleft() > floor, "low"); b = 3; }
  // Given b's value, its last SSTORE costs 100 (warm, unchanged) but wants more than 2,300 left at the sentry check.
  function sentryLast(uint256 v) external { a = v + b; b = v; }
  function viaCall() external returns (uint256) { b = 5; return this.a(); }
}`;

const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const EWOQ_KEY = Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex');
const abi = parseAbi([
  'function a() view returns (uint256)',
  'function b() view returns (uint256)',
  'function bump(uint256 x) returns (uint256)',
  'function clear()',
  'function clearAndWork(uint256 n) returns (uint256)',
  'function number() view returns (uint256)',
  'function fail()',
  'function above(uint256 floor)',
  'function sentryLast(uint256 v)',
  'function viaCall() returns (uint256)',
  'function m(uint256) view returns (uint256)',
]);
const data = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]);
const word = (n: number | bigint) => `0x${BigInt(n).toString(16).padStart(64, '0')}`;

describe('eth_call and eth_estimateGas on the reader (C-Chain, --dev)', () => {
  let node: TestNode;
  let url: string;
  let slots: string;
  const ethCall = (input: string, ...rest: unknown[]) => call(url, 'eth_call', [{ from: EWOQ, to: slots, data: input }, 'latest', ...rest]);

  let bytecode: string;

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    url = `${node.uri}/ext/bc/C/rpc`;
    const compiled = compileSources({ 'Slots.sol': SOURCE })['Slots.sol']!.Slots!;
    const tx = createFeeMarket1559Tx(
      { nonce: 0n, data: Buffer.from(compiled.bytecode.slice(2), 'hex'), gasLimit: 2_000_000n, maxFeePerGas: 300_000_000_000n, maxPriorityFeePerGas: 1n },
      { common: chainCommon(43112n) },
    ).sign(EWOQ_KEY);
    const hash = await call(url, 'eth_sendRawTransaction', [`0x${Buffer.from(tx.serialize()).toString('hex')}`]);
    const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
    expect(receipt.status).toBe('0x1');
    slots = receipt.contractAddress;
    bytecode = compiled.bytecode;
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
  });

  it('reads back what a call wrote within it, and the next call sees none of it', async () => {
    // a = 1 + 5, m[5] = 6: 6 * 1000 + 6, twice: the first call's writes are gone.
    expect(BigInt(await ethCall(data('bump', [5n])))).toBe(6006n);
    expect(BigInt(await ethCall(data('bump', [5n])))).toBe(6006n);
    expect(BigInt(await ethCall(data('bump', [7n])))).toBe(8008n);
    expect(BigInt(await ethCall(data('a')))).toBe(1n);
    const estimates = new Set<string>();
    for (let i = 0; i < 3; i++) estimates.add(await call(url, 'eth_estimateGas', [{ from: EWOQ, to: slots, data: data('bump', [5n]) }]));
    expect(estimates.size).toBe(1);
  });

  it('answers a call asked again after each change of state: a dev edit, a block, an override that stays its own', async () => {
    expect(BigInt(await ethCall(data('a')))).toBe(1n);
    await call(url, 'anvil_setStorageAt', [slots, word(0), word(41)]);
    expect(BigInt(await ethCall(data('a')))).toBe(41n);
    expect(BigInt(await ethCall(data('a'), { [slots]: { stateDiff: { [word(0)]: word(99) } } }))).toBe(99n);
    expect(BigInt(await ethCall(data('a')))).toBe(41n);
    const before = BigInt(await ethCall(data('number')));
    await call(url, 'evm_mine', []);
    expect(BigInt(await ethCall(data('number')))).toBe(before + 1n);
    await call(url, 'anvil_setStorageAt', [slots, word(0), word(1)]);
    expect(BigInt(await ethCall(data('a')))).toBe(1n);
    // A revert asked again is the same revert.
    for (let i = 0; i < 2; i++) {
      const err = await callError(url, 'eth_call', [{ to: slots, data: data('fail') }, 'latest']);
      expect(err.message).toBe('execution reverted: nope');
      expect(err.code).toBe(3);
    }
  });

  it('gives each of many calls asked at once its own answer, with and without overrides', async () => {
    const asks = Array.from({ length: 60 }, (_, i) => {
      const x = BigInt(i % 6);
      const override = i % 3 === 0 ? { [slots]: { stateDiff: { [word(0)]: word(100) } } } : undefined;
      const want = override ? (100n + x) * 1000n + 100n + x : (1n + x) * 1000n + 1n + x;
      return { input: data('bump', [x]), override, want };
    });
    const answers = await Promise.all(asks.map((a) => (a.override ? ethCall(a.input, a.override) : ethCall(a.input))));
    expect(answers.map((r) => BigInt(r))).toEqual(asks.map((a) => a.want));
  });

  // gasestimator.Estimate, its runs asked through eth_call (a limit fails or not), for a refund counter.
  const reference = async (args: Record<string, string>, refunded = 0n, oracle?: (gas: bigint, usedGas: bigint) => boolean) => {
    const usedGas = BigInt((await call(url, 'debug_traceCall', [args, 'latest'])).gas);
    const latest = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    const cap = 50_000_000n;
    const fails = async (gas: bigint) =>
      oracle ? oracle(gas, usedGas) : (await rpc(url, 'eth_call', [{ ...args, gas: `0x${gas.toString(16)}` }, 'latest'])).json.error !== undefined;
    let hi = BigInt(latest.gasLimit) < cap ? BigInt(latest.gasLimit) : cap;
    let lo = usedGas - 1n;
    const optimistic = ((usedGas + refunded + 2300n) * 64n) / 63n;
    if (optimistic < hi) {
      if (await fails(optimistic)) lo = optimistic;
      else hi = optimistic;
    }
    while (lo + 1n < hi) {
      if (Number(hi - lo) / Number(hi) < 0.015) break;
      let mid = (hi + lo) / 2n;
      if (mid > lo * 2n) mid = lo * 2n;
      if (await fails(mid)) lo = mid;
      else hi = mid;
    }
    return hi;
  };

  it("estimates with geth's optimistic limit (UsedGas + RefundedGas + 2300) * 64 / 63, RefundedGas 0 as in coreth", async () => {
    const args = { from: EWOQ, to: slots, data: data('clearAndWork', [40n]) };
    const coreth = await reference(args);
    // ethereumjs's refund counter for clearing the slot (EIP-3529's 4,800), which coreth never pays.
    const withCounter = await reference(args, 4800n);
    expect(coreth).not.toBe(withCounter);
    expect(BigInt(await call(url, 'eth_estimateGas', [args]))).toBe(coreth);
  });

  it("answers gasestimator's limit when a call needs more gas than it uses (the search run for real)", async () => {
    // Uses ~30,000 but needs more than 200,000 left at the check: the limit the search reaches
    // without running fails, so the estimator searches as gasestimator does.
    const args = { from: EWOQ, to: slots, data: data('above', [200_000n]) };
    const want = await reference(args);
    expect(want).toBeGreaterThan(200_000n);
    expect(BigInt(await call(url, 'eth_estimateGas', [args]))).toBe(want);
    for (const n of [1n, 7n, 300n]) {
      const work = { from: EWOQ, to: slots, data: data('clearAndWork', [n]) };
      expect(BigInt(await call(url, 'eth_estimateGas', [work]))).toBe(await reference(work));
    }
  });

  it("answers gasestimator's limit for runs blind to their limit, an SSTORE's sentry included, without running the search", async () => {
    // Estimated from one run (gaswatch.ts): a call that only stores, one whose last SSTORE is bound by
    // the 2,300-gas sentry, a deployment, and, run for real, calls that pass gas on or read it.
    const shapes: Array<Record<string, string>> = [
      { from: EWOQ, to: slots, data: data('bump', [9n]) },
      { from: EWOQ, to: slots, data: data('sentryLast', [BigInt(await ethCall(data('b')))]) },
      { from: EWOQ, data: bytecode },
      { from: EWOQ, to: slots, data: data('viaCall') },
      { from: EWOQ, to: slots, data: data('above', [50_000n]) },
    ];
    for (const args of shapes) expect(BigInt(await call(url, 'eth_estimateGas', [args]))).toBe(await reference(args));
    // The sentry matters: a search that took every limit from the gas used up to succeed ends lower.
    const sentry = shapes[1]!;
    const naive = await reference(sentry, 0n, (gas, usedGas) => gas < usedGas);
    expect(naive).toBeLessThan(await reference(sentry));
  });
  it("reads a contract's storage at block after block, in any order, on the one reader", async () => {
    // Each bump is a block that changes the contract's storage root; the reader keeps one storage
    // trie for the contract and moves it to the root of the block each call reads.
    const blocks: Array<{ number: string; a: bigint }> = [];
    const nonce = BigInt(await call(url, 'eth_getTransactionCount', [EWOQ, 'latest']));
    for (const [i, x] of [11n, 12n, 13n].entries()) {
      const tx = createFeeMarket1559Tx(
        {
          nonce: nonce + BigInt(i),
          to: slots as `0x${string}`,
          data: Buffer.from(data('bump', [x]).slice(2), 'hex'),
          gasLimit: 200_000n,
          maxFeePerGas: 300_000_000_000n,
          maxPriorityFeePerGas: 1n,
        },
        { common: chainCommon(43112n) },
      ).sign(EWOQ_KEY);
      const hash = await call(url, 'eth_sendRawTransaction', [`0x${Buffer.from(tx.serialize()).toString('hex')}`]);
      const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
      expect(receipt.status).toBe('0x1');
      blocks.push({ number: receipt.blockNumber, a: BigInt(await call(url, 'eth_getStorageAt', [slots, word(0), receipt.blockNumber])) });
    }
    expect(blocks[1]!.a - blocks[0]!.a).toBe(12n);
    expect(blocks[2]!.a - blocks[1]!.a).toBe(13n);
    // A caller of its own per read: no answer kept for another read serves it.
    let caller = 0x1000n;
    const readAt = async (i: number, input: string, overrides?: unknown) =>
      BigInt(
        await call(url, 'eth_call', [
          { from: `0x${(caller++).toString(16).padStart(40, '0')}`, to: slots, data: input },
          blocks[i]!.number,
          ...(overrides ? [overrides] : []),
        ]),
      );
    const roots = new Set<string>();
    for (const i of [2, 0, 1, 0, 2, 1, 2, 0, 1]) {
      expect(await readAt(i, data('a'))).toBe(blocks[i]!.a);
      // m[x] is set by the bump of x: 0 at the blocks before it.
      for (const [j, x] of [11n, 12n, 13n].entries()) expect(await readAt(i, data('m', [x]))).toBe(j <= i ? blocks[j]!.a : 0n);
      // A `state` override empties the contract's storage for that call alone (its trie moved to the
      // empty root), and the next read at the same block finds it whole again.
      expect(await readAt(i, data('a'), { [slots]: { state: {} } })).toBe(0n);
      expect(await readAt(i, data('a'))).toBe(blocks[i]!.a);
      expect(await readAt(i, data('a'), { [slots]: { stateDiff: { [word(0)]: word(7) } } })).toBe(7n);
      expect(await readAt(i, data('m', [11n]))).toBe(blocks[0]!.a);
      // eth_getProof reads through the same trie: its storage hash is the block's root of the contract.
      const proof = await call(url, 'eth_getProof', [slots, [word(0)], blocks[i]!.number]);
      expect(BigInt(proof.storageProof[0].value)).toBe(blocks[i]!.a);
      roots.add(`${i}:${proof.storageHash}`);
    }
    expect(new Set([...roots].map((r) => r.split(':')[1])).size).toBe(3);
    expect(roots.size).toBe(3);
  });
});

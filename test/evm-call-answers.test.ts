// eth_call's and eth_estimateGas's kept answers: an answer on the head is carried to the next heads
// while no account or slot its runs read changes, and never when their code reads the block
// (timestamp, number, hashes, gas limit) or creates. Every answer the node gives from what it kept
// is checked here against a fresh run of the same call or estimate (with an empty state override,
// which is never kept), unpriced and priced,
// after each kind of change a block or a dev control makes: storage written by a tx, another
// contract's storage, balances moved by a transfer and by fees, a dev edit of storage, code and
// balance in the head, empty blocks, snapshots reverted and other branches built at their heights,
// another coinbase (warm in its block). On the C-Chain and on an L1.
import { type Abi, encodeDeployData, encodeFunctionData, encodePacked, keccak256, pad, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type RpcReply, rpc, startTestNode, type TestNode } from './helpers.js';
import { fixture } from './support/solc.js';

const MYL1 = new URL('../fixtures/myl1.json', import.meta.url).pathname;
const stateProbe = fixture('StateProbe');
const contextProbe = fixture('ContextProbe');
const A = `0x${'a7'.repeat(20)}`;
const X = `0x${'c0de'.repeat(10)}`;
const data = (abi: unknown, functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: abi as Abi, functionName, args });
/** StateProbe's `slot` mapping (storage slot 0): where key `k` lives. */
const slotOf = (k: bigint) => keccak256(encodePacked(['uint256', 'uint256'], [k, 0n]));
/** What is asked: a call's target and data, or a transfer's value. */
type Ask = { to: string; data?: string; value?: string };
/** An estimate's fees: priced, its runs pay the block's base fee. */
const PRICED = { maxFeePerGas: '0x174876e800', maxPriorityFeePerGas: '0x1' };
/** A reply's result, or its error: either is an answer to compare. */
const answerOf = (r: RpcReply): unknown => {
  expect(r.json).toBeDefined();
  return r.json.error ? { error: r.json.error } : r.json.result;
};

describe.each([
  ['the C-Chain', 'C', {}],
  ['an L1', 'myl1', { l1: [MYL1] }],
])("eth_call's kept answers on %s", (_name, chainAlias, options) => {
  let node: TestNode;
  let url: string;
  let from: string;
  let s1: string;
  let s2: string;
  let ctx: string;
  /** Asked after every change. */
  let often: Ask[];
  /** Asked after every third change: carried over several blocks at once. */
  let seldom: Ask[];
  let step = 0;

  async function send(params: Record<string, unknown>): Promise<any> {
    const r = await call(url, 'eth_sendTransactionSync', [{ from, ...params }]);
    expect(r.status).toBe('0x1');
    return r;
  }

  /**
   * Each call, and its estimates unpriced and priced from the test account, twice as a client asks
   * them (kept, carried or run) and once fresh: the three agree.
   */
  async function agree(calls: Ask[], what: string): Promise<void> {
    for (const c of calls) {
      const asked = (c.data ?? `value ${c.value}`).slice(0, 10);
      const asks: Array<[string, object]> = [
        ['eth_call', c],
        ['eth_estimateGas', { from, ...c }],
        ['eth_estimateGas', { from, ...c, ...PRICED }],
      ];
      for (const [method, args] of asks) {
        const first = answerOf(await rpc(url, method, [args, 'latest']));
        const again = answerOf(await rpc(url, method, [args, 'latest']));
        const fresh = answerOf(await rpc(url, method, [args, 'latest', {}]));
        expect({ what, method, asked, args, answer: first }).toEqual({ what, method, asked, args, answer: fresh });
        expect(again).toEqual(fresh);
      }
    }
  }

  /** From a snapshot: `writes` (probe, key, value) sent, the answers checked, the snapshot reverted. */
  async function branch(what: string, ...writes: Array<[string, bigint, bigint]>): Promise<void> {
    const snapshot = await call(url, 'evm_snapshot', []);
    for (const [probe, k, v] of writes) await send({ to: probe, data: data(stateProbe.abi, 'set', [k, v]) });
    await checkAfter(what);
    expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
  }

  async function checkAfter(what: string): Promise<void> {
    step++;
    await agree(often, what);
    if (step % 3 === 0) await agree(seldom, what);
  }

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1, ...options });
    url = `${node.uri}/ext/bc/${chainAlias}/rpc`;
    from = (await call(url, 'eth_accounts', []))[0].toLowerCase();
    await call(url, 'anvil_setBalance', [from, toHex(10n ** 22n)]);
    s1 = (await send({ data: encodeDeployData({ abi: stateProbe.abi as Abi, bytecode: stateProbe.bytecode }) })).contractAddress;
    s2 = (await send({ data: encodeDeployData({ abi: stateProbe.abi as Abi, bytecode: stateProbe.bytecode }) })).contractAddress;
    ctx = (await send({ data: encodeDeployData({ abi: contextProbe.abi as Abi, bytecode: contextProbe.bytecode }) })).contractAddress;
    const S = stateProbe.abi;
    const C = contextProbe.abi;
    often = [
      { to: s1, data: data(S, 'slot', [1n]) },
      { to: s1, data: data(S, 'slot', [2n]) },
      { to: s1, data: data(S, 'sum', [1n, 3n]) },
      { to: s1, data: data(S, 'balanceAt', [A]) },
      { to: s1, data: data(S, 'balanceAt', [s2]) },
      { to: s1, data: data(S, 'burned') },
      { to: s1, data: data(S, 'codeSize', [X]) },
      { to: s1, data: data(S, 'warmth', [X]) },
      { to: s1, data: data(S, 'other', [s2, 1n]) },
      { to: s1, data: data(S, 'relay', [s2, data(S, 'slot', [1n])]) },
      { to: s1, data: data(S, 'relay', [ctx, data(C, 'stamp')]) },
      { to: s1, data: data(S, 'bump', [1n]) },
      { to: ctx, data: data(C, 'stamp') },
      { to: ctx, data: data(C, 'height') },
      { to: ctx, data: data(C, 'parentHash') },
      { to: ctx, data: data(C, 'limit') },
      { to: ctx, data: data(C, 'made') },
      { to: s1, data: data(S, 'set', [1n, 5n]) },
      { to: A, value: '0x1' },
      { to: X, value: '0x1' },
    ];
    seldom = [
      { to: s1, data: data(S, 'slot', [3n]) },
      { to: s2, data: data(S, 'sum', [1n, 2n]) },
      { to: s2, data: data(S, 'balanceAt', [A]) },
      { to: ctx, data: data(C, 'height') },
    ];
    await agree([...often, ...seldom], 'deployed');
  });
  afterAll(() => node?.stop());

  it('agree with a fresh run after blocks, txs and dev edits', async () => {
    const S = stateProbe.abi;
    await call(url, 'evm_mine', []);
    await checkAfter('an empty block');
    await send({ to: s1, data: data(S, 'set', [1n, 5n]) });
    await checkAfter('a write to s1 slot 1');
    await send({ to: s2, data: data(S, 'set', [1n, 7n]) });
    await checkAfter('a write to s2 slot 1');
    await send({ to: A, value: '0x3e8' });
    await checkAfter('a transfer to A');
    await call(url, 'anvil_setStorageAt', [s1, slotOf(2n), pad('0x09')]);
    await checkAfter('s1 slot 2 edited in the head');
    await call(url, 'anvil_setCode', [X, '0x6000']);
    await checkAfter('code set at X');
    await call(url, 'anvil_setBalance', [A, '0x7b']);
    await checkAfter("A's balance set");
    // Branches at the same heights, each reverted: answers kept on one must not leak into another.
    await branch('writes after a snapshot', [s1, 3n, 11n], [s2, 2n, 4n]);
    await checkAfter('the snapshot reverted');
    await branch('another branch after the revert', [s1, 3n, 12n], [s2, 1n, 8n]);
    await branch('a third branch, one write as in the second', [s1, 3n, 12n], [s2, 1n, 7n]);
    await checkAfter('reverted again');
    await call(url, 'anvil_mine', ['0x3']);
    await checkAfter('three empty blocks');
    await send({ to: s1, data: data(S, 'set', [4n, 1n]) });
    await checkAfter('a write no call reads');
    await call(url, 'anvil_setBalance', [s2, '0x1']);
    await checkAfter("s2's balance set");
    // The coinbase is warm in its block (EIP-3651): X's balance read costs less while X is the coinbase.
    const coinbase = (await call(url, 'eth_getBlockByNumber', ['latest', false])).miner;
    await call(url, 'anvil_setCoinbase', [X]);
    await call(url, 'evm_mine', []);
    await checkAfter('X the coinbase');
    await call(url, 'anvil_setCoinbase', [coinbase]);
    await send({ to: A, value: '0x1' });
    await checkAfter('the coinbase back');
    expect(step).toBe(17);
  });

  it('answers as they are: the slot written, the others kept, the block read anew', async () => {
    const S = stateProbe.abi;
    const C = contextProbe.abi;
    const read = async (to: string, d: string) => BigInt(await call(url, 'eth_call', [{ to, data: d }, 'latest']));
    expect(await read(s1, data(S, 'slot', [1n]))).toBe(5n);
    expect(await read(s1, data(S, 'slot', [2n]))).toBe(9n);
    await send({ to: s1, data: data(S, 'set', [1n, 6n]) });
    expect(await read(s1, data(S, 'slot', [1n]))).toBe(6n);
    expect(await read(s1, data(S, 'slot', [2n]))).toBe(9n);
    const head = BigInt(await call(url, 'eth_blockNumber', []));
    expect(await read(ctx, data(C, 'height'))).toBe(head);
    await call(url, 'evm_mine', []);
    expect(await read(ctx, data(C, 'height'))).toBe(head + 1n);
  });
});

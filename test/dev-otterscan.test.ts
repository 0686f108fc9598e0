// Otterscan's API (ots_*, erigon_getHeaderByNumber) with --dev, as Anvil 1.7.1 answers it (shapes
// and rules read off its binary): a factory's history of creates, internal transfers, a static call,
// a revert and a selfdestruct, then what Otterscan asks of it. Each internal fact is checked against
// what the factory did, not against the node's own traces.
import { type Abi, encodeDeployData, encodeFunctionData, getContractAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, startTestNode, type TestNode } from './helpers.js';
import { fixture } from './support/solc.js';

const factory = fixture('OtsFactory');
const abi = factory.abi as Abi;
const A1 = `0x${'a1'.repeat(20)}`;
const A3 = `0x${'a3'.repeat(20)}`;
const A4 = `0x${'a4'.repeat(20)}`;
const data = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi, functionName, args });

describe("Otterscan's API (--dev)", () => {
  let node: TestNode;
  let url: string;
  let from: string;
  let F: string;
  const tx: Record<string, string> = {};
  const receipt: Record<string, any> = {};

  async function send(name: string, params: Record<string, unknown>): Promise<void> {
    const r = await call(url, 'eth_sendTransactionSync', [{ from, ...params }]);
    tx[name] = r.transactionHash;
    receipt[name] = r;
  }

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1 });
    url = `${node.uri}/ext/bc/C/rpc`;
    from = (await call(url, 'eth_accounts', []))[0].toLowerCase();
    await send('deploy', { data: encodeDeployData({ abi, bytecode: factory.bytecode }), value: '0xa' });
    F = receipt.deploy.contractAddress;
    await send('make', { to: F, data: data('make', [A3]), value: '0x5' });
    await send('boom', { to: F, data: data('boom'), gas: '0x20000' });
    await send('doom', { to: F, data: data('doom', [A4]) });
    await send('transfer', { to: A1, value: '0x64' });
    await send('failCreate', { to: F, data: data('failCreate'), gas: '0x100000' });
    await send('makeKill', { to: F, data: data('makeKill', [A4]) });
  });
  afterAll(() => node.stop());

  const childA = () => getContractAddress({ from: F as `0x${string}`, nonce: 1n }).toLowerCase();
  const doomed = () => getContractAddress({ from: F as `0x${string}`, nonce: 3n }).toLowerCase();
  const bad = () => getContractAddress({ from: F as `0x${string}`, nonce: 4n }).toLowerCase();
  const killed = () => getContractAddress({ from: F as `0x${string}`, nonce: 5n }).toLowerCase();

  it('ots_getApiLevel, ots_hasCode and erigon_getHeaderByNumber', async () => {
    expect(await call(url, 'ots_getApiLevel', [])).toBe(8);
    const at = Number(receipt.deploy.blockNumber);
    expect(await call(url, 'ots_hasCode', [F, at - 1])).toBe(false);
    expect(await call(url, 'ots_hasCode', [F, `0x${at.toString(16)}`])).toBe(true);
    expect(await call(url, 'ots_hasCode', [F])).toBe(true);
    expect(await call(url, 'ots_hasCode', [A1, 'latest'])).toBe(false);
    const head = Number(await call(url, 'eth_blockNumber', []));
    expect(await callError(url, 'ots_hasCode', [F, head + 10])).toEqual({
      code: -32602,
      message: `BlockOutOfRangeError: block height is ${head} but requested was ${head + 10}`,
    });
    expect(await call(url, 'erigon_getHeaderByNumber', [at])).toEqual(await call(url, 'eth_getBlockByNumber', [`0x${at.toString(16)}`, false]));
    expect(await call(url, 'erigon_getHeaderByNumber', ['pending'])).toBeNull();
    expect(await call(url, 'erigon_getHeaderByNumber', [head + 10])).toBeNull();
  });

  it('ots_getInternalOperations: value moved, contracts created, selfdestructs', async () => {
    expect(await call(url, 'ots_getInternalOperations', [tx.transfer])).toEqual([{ type: 0, from, to: A1, value: '0x64' }]);
    expect(await call(url, 'ots_getInternalOperations', [tx.deploy])).toEqual([{ type: 2, from, to: F.toLowerCase(), value: '0xa' }]);
    const made = await call(url, 'ots_getInternalOperations', [tx.make]);
    expect(made.map((o: any) => [o.type, o.from, o.value])).toEqual([
      [0, from, '0x5'],
      [2, F.toLowerCase(), '0x0'],
      [3, F.toLowerCase(), '0x0'],
      [0, F.toLowerCase(), '0x2'],
    ]);
    expect(made[1].to).toBe(childA());
    expect(made[3].to).toBe(A3);
    expect(await call(url, 'ots_getInternalOperations', [tx.boom])).toEqual([]);
    expect(await call(url, 'ots_getInternalOperations', [tx.doom])).toEqual([
      { type: 2, from: F.toLowerCase(), to: doomed(), value: '0x3' },
      { type: 1, from: doomed(), to: A4, value: '0x3' },
    ]);
    // A failed create is listed with the address it would have had.
    expect(await call(url, 'ots_getInternalOperations', [tx.failCreate])).toEqual([{ type: 2, from: F.toLowerCase(), to: bad(), value: '0x0' }]);
    expect(await callError(url, 'ots_getInternalOperations', [`0x${'00'.repeat(32)}`])).toEqual({ code: -32603, message: 'Required data unavailable' });
  });

  it('ots_traceTransaction and ots_getTransactionError', async () => {
    const entries = await call(url, 'ots_traceTransaction', [tx.make]);
    expect(entries.map((e: any) => [e.type, e.depth, e.from, e.value])).toEqual([
      ['CALL', 0, from, '0x5'],
      ['CALL', 1, F.toLowerCase(), '0x2'],
      ['STATICCALL', 1, F.toLowerCase(), '0x0'],
    ]);
    const ping = encodeFunctionData({ abi: fixture('OtsChild').abi as Abi, functionName: 'ping' });
    expect(entries[2]).toMatchObject({ input: ping, output: `0x${'0'.repeat(63)}7` });
    expect(await call(url, 'ots_traceTransaction', [tx.deploy])).toEqual([]);
    expect(await call(url, 'ots_traceTransaction', [`0x${'00'.repeat(32)}`])).toEqual([]);
    const reason = await callError(url, 'eth_call', [{ to: F, data: data('boom') }, 'latest']);
    expect(await call(url, 'ots_getTransactionError', [tx.boom])).toBe(reason.data);
    expect((await call(url, 'ots_traceTransaction', [tx.boom]))[0].output).toBe(reason.data);
    expect(await call(url, 'ots_getTransactionError', [tx.transfer])).toBe('0x');
  });

  it('ots_getBlockDetails and ots_getBlockTransactions', async () => {
    const n = Number(receipt.make.blockNumber);
    const block = await call(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
    const details = await call(url, 'ots_getBlockDetails', [n]);
    const { transactions: _, ...fields } = block;
    expect(details).toEqual({
      block: { ...fields, transactionCount: 1 },
      issuance: { blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' },
      totalFees: `0x${(BigInt(receipt.make.gasUsed) * BigInt(receipt.make.effectiveGasPrice)).toString(16)}`,
    });
    expect(await call(url, 'ots_getBlockDetailsByHash', [block.hash])).toEqual(details);
    for (const b of ['pending', 99_999]) expect(await callError(url, 'ots_getBlockDetails', [b])).toEqual({ code: -32001, message: 'Resource not found' });

    const page = await call(url, 'ots_getBlockTransactions', [n, 0, 10]);
    expect(page.fullblock.transactionCount).toBe(1);
    expect(page.fullblock.transactions[0]).toMatchObject({ hash: tx.make, input: data('make', [A3]).slice(0, 10) });
    expect(page.receipts).toEqual([{ ...(await call(url, 'eth_getTransactionReceipt', [tx.make])), timestamp: block.timestamp }]);
    const past = await call(url, 'ots_getBlockTransactions', [n, 1, 10]);
    expect([past.fullblock.transactions, past.receipts, past.fullblock.transactionCount]).toEqual([[], [], 0]);
    expect((await callError(url, 'ots_getBlockTransactions', [`0x${n.toString(16)}`, 0, 10])).code).toBe(-32602);
  });

  it('ots_searchTransactionsBefore/After: the txs that touch an address, internal ones included', async () => {
    const hashes = (r: any) => r.txs.map((t: any) => t.hash);
    const mine = [tx.makeKill, tx.failCreate, tx.transfer, tx.doom, tx.boom, tx.make, tx.deploy];
    const all = await call(url, 'ots_searchTransactionsBefore', [from, 0, 100]);
    expect(hashes(all).slice(0, 7)).toEqual(mine);
    expect([all.firstPage, all.lastPage]).toEqual([true, true]);
    expect(all.receipts[0]).toMatchObject({ transactionHash: tx.makeKill, timestamp: expect.stringMatching(/^0x/) });
    // Whole blocks until the page is full: one tx per block here.
    const two = await call(url, 'ots_searchTransactionsBefore', [from, 0, 2]);
    expect([hashes(two), two.firstPage, two.lastPage]).toEqual([mine.slice(0, 2), true, false]);
    const after = await call(url, 'ots_searchTransactionsAfter', [from, 0, 100]);
    expect(hashes(after)).toEqual(hashes(all));
    // An internal transfer's recipient, a contract created inside a call, one destroyed; not a refund's target.
    expect(hashes(await call(url, 'ots_searchTransactionsBefore', [A3, 0, 10]))).toEqual([tx.make]);
    expect(hashes(await call(url, 'ots_searchTransactionsBefore', [childA(), 0, 10]))).toEqual([tx.make]);
    expect(hashes(await call(url, 'ots_searchTransactionsBefore', [doomed(), 0, 10]))).toEqual([tx.doom]);
    expect(hashes(await call(url, 'ots_searchTransactionsBefore', [A4, 0, 10]))).toEqual([]);
    // A failed create's address was never a contract: not touched.
    expect(hashes(await call(url, 'ots_searchTransactionsBefore', [bad(), 0, 10]))).toEqual([]);
    // A block number past the head searches from the head, and never hangs.
    expect(hashes(await call(url, 'ots_searchTransactionsBefore', [A3, 2 ** 53, 10]))).toEqual([tx.make]);
  });

  it("evm_mine_detailed: a failed tx's revertReason as Anvil decodes it", async () => {
    await call(url, 'evm_setAutomine', [false]);
    let mined: any[];
    try {
      for (const fn of ['boom', 'panicky', 'rawRevert']) {
        await call(url, 'eth_sendTransaction', [{ from, to: F, data: data(fn, fn === 'panicky' ? [5n] : []), gas: '0x20000' }]);
      }
      mined = await call(url, 'evm_mine_detailed', []);
    } finally {
      await call(url, 'evm_setAutomine', [true]);
    }
    expect(mined[0].transactions.map((t: any) => t.revertReason)).toEqual(['nope', 'panic: array out-of-bounds access (0x32)', 'hello!']);
  });

  it('ots_getTransactionBySenderAndNonce and ots_getContractCreator', async () => {
    const deployed = await call(url, 'eth_getTransactionByHash', [tx.deploy]);
    expect(await call(url, 'ots_getTransactionBySenderAndNonce', [from, deployed.nonce])).toBe(tx.deploy);
    expect(await call(url, 'ots_getTransactionBySenderAndNonce', [from, 1_000])).toBeNull();
    expect(await call(url, 'ots_getContractCreator', [F])).toEqual({ hash: tx.deploy, creator: from });
    expect(await call(url, 'ots_getContractCreator', [childA()])).toEqual({ hash: tx.make, creator: F.toLowerCase() });
    expect(await call(url, 'ots_getContractCreator', [A1])).toBeNull();
    // Created and destroyed in one tx: found block by block.
    expect(await call(url, 'ots_getContractCreator', [killed()])).toEqual({ hash: tx.makeKill, creator: F.toLowerCase() });
  });
});

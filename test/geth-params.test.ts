// Client mistakes in the C-Chain's params, answered as coreth answers them: go-ethereum's rpc
// package and encoding/json, coreth's rpc.BlockNumber ("accepted"), BlockNumberOrHash and
// FilterCriteria, hexutil's type errors, and what its API methods check themselves (eth_feeHistory's
// percentiles, eth_getStorageAt's key, eth_getLogs' ranges, eth_call's block overrides). Each
// expectation was read in coreth's source (internal/ethapi, eth/filters, eth/gasprice, rpc) and
// libevm's common/hexutil.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, post, rpc, startTestNode, type TestNode } from './helpers.js';

const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const A = `0x${'12'.repeat(20)}`;
const IDENTITY = `0x${'00'.repeat(19)}04`;
const invalid = (message: string) => ({ code: -32602, message });
const failed = (message: string) => ({ code: -32000, message });

describe('params coreth decodes its own way', () => {
  let node: TestNode;
  let url: string;
  let head: number;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    url = `${node.uri}/ext/bc/C/rpc`;
    // A few blocks, so that ranges have room.
    for (let i = 0; i < 3; i++) await call(url, 'evm_mine', []);
    head = Number(await call(url, 'eth_blockNumber', []));
  });
  afterAll(() => node.stop());

  it('"accepted" is a block tag, as "finalized"', async () => {
    expect(await call(url, 'eth_getBalance', [EWOQ, 'accepted'])).toBe(await call(url, 'eth_getBalance', [EWOQ, 'latest']));
    expect((await call(url, 'eth_getBlockByNumber', ['accepted', false])).number).toBe(`0x${head.toString(16)}`);
    expect(await call(url, 'eth_getLogs', [{ fromBlock: 'accepted' }])).toEqual([]);
    expect((await call(url, 'eth_feeHistory', [1, 'accepted', []])).oldestBlock).toBe(`0x${head.toString(16)}`);
  });

  it("eth_feeHistory: the percentiles are required, checked in the oracle's order and words", async () => {
    expect(await callError(url, 'eth_feeHistory', [1, 'latest'])).toEqual(invalid('missing value for required argument 2'));
    expect((await call(url, 'eth_feeHistory', [1, 'latest', null])).reward).toBeUndefined();
    expect(await callError(url, 'eth_feeHistory', [1, 'latest', 'x'])).toEqual(
      invalid('invalid argument 2: json: cannot unmarshal string into Go value of type []float64'),
    );
    expect(await callError(url, 'eth_feeHistory', [1, 'latest', [10, 10]])).toEqual(failed('invalid reward percentile: #0:10.000000 >= #1:10.000000'));
    expect(await callError(url, 'eth_feeHistory', [1, 'latest', [20, 10]])).toEqual(failed('invalid reward percentile: #0:20.000000 >= #1:10.000000'));
    expect(await callError(url, 'eth_feeHistory', [1, 'latest', [101]])).toEqual(failed('invalid reward percentile: 101.000000'));
    expect(await callError(url, 'eth_feeHistory', [1, 'latest', [-1]])).toEqual(failed('invalid reward percentile: -1.000000'));
    const many = Array.from({ length: 101 }, (_, i) => i / 2);
    expect(await callError(url, 'eth_feeHistory', [1, 'latest', many])).toEqual(failed('invalid reward percentile: over the query limit 100'));
    // No block asked: no data, and nothing checked.
    expect(await call(url, 'eth_feeHistory', [0, 'latest', [101]])).toEqual({ oldestBlock: '0x0', gasUsedRatio: null });
  });

  it('eth_call takes "input" over a different "data", and block overrides as its fourth argument', async () => {
    // The identity precompile answers its input.
    expect(await call(url, 'eth_call', [{ to: IDENTITY, data: '0x12', input: '0x34' }, 'latest'])).toBe('0x34');
    expect(await call(url, 'eth_estimateGas', [{ to: IDENTITY, data: '0x12', input: '0x34' }])).toMatch(/^0x[0-9a-f]+$/);
    // Sending still refuses them (setDefaults).
    expect(await callError(url, 'eth_fillTransaction', [{ from: EWOQ, to: IDENTITY, data: '0x12', input: '0x34' }])).toEqual(
      failed('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data'),
    );
    // NUMBER TIMESTAMP COINBASE GASLIMIT BASEFEE PREVRANDAO BLOBBASEFEE, one word each.
    const code = '0x435f52426020524160405245606052486080524460a0524a60c05260e05ff3';
    const probe = `0x${'77'.repeat(20)}`;
    const state = { [probe]: { code } };
    const words = (hex: string) => Array.from({ length: 7 }, (_, i) => BigInt(`0x${hex.slice(2 + 64 * i, 66 + 64 * i)}`));
    const coinbase = `0x${'ab'.repeat(20)}`;
    const overrides = { number: '0x1234', time: '0x5678', coinbase, gasLimit: '0x989680', baseFee: '0x7', difficulty: '0x9', blobBaseFee: '0x3' };
    // A call that pays a gas price sees the base fee (NoBaseFee lowers it to 0 for one that pays none).
    const args = { from: EWOQ, to: probe, gasPrice: '0x7', gas: '0x186a0' };
    const got = words(await call(url, 'eth_call', [args, 'latest', state, overrides]));
    expect(got).toEqual([0x1234n, 0x5678n, BigInt(coinbase), 10_000_000n, 7n, 9n, 3n]);
    // Keys match any case, as encoding/json matches Go field names.
    expect(words(await call(url, 'eth_call', [args, 'latest', state, { NUMBER: '0x5' }]))[0]).toBe(5n);
    // A call without them is not answered from the one with them.
    const plain = words(await call(url, 'eth_call', [{ to: probe }, 'latest', state]));
    expect(plain[0]).toBe(BigInt(head));
    expect(plain[4]).toBe(0n);
    expect(plain[6]).toBe(1n);
    expect(await callError(url, 'eth_call', [args, 'latest', state, { time: 5 }])).toEqual(
      invalid('invalid argument 3: json: cannot unmarshal non-string into Go struct field BlockOverrides.Time of type hexutil.Uint64'),
    );
    expect(await callError(url, 'eth_call', [args, 'latest', state, {}, {}])).toEqual(invalid('too many arguments, want at most 4'));
  });

  it("debug_traceCall applies TraceCallConfig's block overrides as eth_call does (avalanchego 1.14.2's coreth)", async () => {
    const code = '0x435f52426020524160405245606052486080524460a0524a60c05260e05ff3';
    const probe = `0x${'77'.repeat(20)}`;
    const stateOverrides = { [probe]: { code } };
    const coinbase = `0x${'ab'.repeat(20)}`;
    const blockOverrides = { number: '0x1234', time: '0x5678', coinbase, gasLimit: '0x989680', baseFee: '0x7', difficulty: '0x9', blobBaseFee: '0x3' };
    const args = { from: EWOQ, to: probe, gasPrice: '0x7', gas: '0x186a0' };
    const traced = await call(url, 'debug_traceCall', [args, 'latest', { tracer: 'callTracer', stateOverrides, blockOverrides }]);
    expect(traced.output).toBe(await call(url, 'eth_call', [args, 'latest', stateOverrides, blockOverrides]));
    // NoBaseFee: a call that pays no gas price sees a zero base fee, overridden or not.
    const free = await call(url, 'debug_traceCall', [{ to: probe }, 'latest', { tracer: 'callTracer', stateOverrides, blockOverrides }]);
    expect(BigInt(`0x${free.output.slice(2 + 64 * 4, 66 + 64 * 4)}`)).toBe(0n);
    // The message is priced at the overridden base fee.
    expect(await callError(url, 'debug_traceCall', [args, 'latest', { blockOverrides: { baseFee: '0x8' } }])).toEqual(
      failed(`tracing failed: max fee per gas less than block base fee: address ${EWOQ}, maxFeePerGas: 7, baseFee: 8`),
    );
    // BLOCKHASH: coreth's GetHashFn keeps the real header as its reference, moved to n+1 only by
    // debug_traceCall when the overrides name exactly n+1 (eth/tracers/api.go, core/evm.go).
    const asker = `0x${'88'.repeat(20)}`;
    const hashes = { [asker]: { code: '0x5f35405f5260205ff3' } };
    const n = BigInt(await call(url, 'eth_blockNumber', []));
    const nHash = (await call(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).hash;
    const ask = `0x${n.toString(16).padStart(64, '0')}`;
    const zero = `0x${'00'.repeat(32)}`;
    const at = (k: bigint) => ({ number: `0x${k.toString(16)}` });
    expect(await call(url, 'eth_call', [{ to: asker, data: ask }, 'latest', hashes, at(n + 1n)])).toBe(zero);
    const traceAt = async (k: bigint) =>
      (await call(url, 'debug_traceCall', [{ to: asker, data: ask }, 'latest', { tracer: 'callTracer', stateOverrides: hashes, blockOverrides: at(k) }]))
        .output;
    expect(await traceAt(n + 1n)).toBe(nHash);
    expect(await traceAt(n + 5n)).toBe(zero);
    // Nested, a type error names the inner struct and the path from the outer one (encoding/json's
    // errorContext), and hexutil's error stops the decoding before a type error saved earlier.
    expect(await callError(url, 'debug_traceCall', [args, 'latest', { blockOverrides: { time: 5 } }])).toEqual(
      invalid('invalid argument 2: json: cannot unmarshal non-string into Go struct field BlockOverrides.BlockOverrides.Time of type hexutil.Uint64'),
    );
    expect(await callError(url, 'debug_traceCall', [args, 'latest', { enableMemory: 1, blockOverrides: { number: 1 } }])).toEqual(
      invalid('invalid argument 2: json: cannot unmarshal non-string into Go struct field BlockOverrides.BlockOverrides.Number of type *hexutil.Big'),
    );
    expect(await callError(url, 'debug_traceCall', [args, 'latest', { blockOverrides: { coinbase: '0x12' } }])).toEqual(
      invalid('invalid argument 2: hex string has length 2, want 40 for common.Address'),
    );
  });

  it('eth_getStorageAt decodes its key after the block, as decodeHash', async () => {
    const zero = `0x${'00'.repeat(32)}`;
    expect(await call(url, 'eth_getStorageAt', [A, '1', 'latest'])).toBe(zero);
    expect(await call(url, 'eth_getStorageAt', [A, '0x1', 'latest'])).toBe(zero);
    expect(await callError(url, 'eth_getStorageAt', [A, `0x${'00'.repeat(33)}`, 'latest'])).toEqual(
      failed('unable to decode storage key: hex string too long, want at most 32 bytes'),
    );
    expect(await callError(url, 'eth_getStorageAt', [A, '0xzz', 'latest'])).toEqual(failed('unable to decode storage key: hex string invalid'));
    expect(await callError(url, 'eth_getStorageAt', [A, 'zz', '0x1000'])).toEqual(failed('cannot query unfinalized data'));
    expect(await callError(url, 'eth_getStorageAt', [A, 1, 'latest'])).toEqual(
      invalid('invalid argument 1: json: cannot unmarshal number into Go value of type string'),
    );
  });

  it("eth_getLogs: FilterCriteria's own texts, GetLogs' and the filter's range checks", async () => {
    const logsError = (c: unknown) => callError(url, 'eth_getLogs', [c]);
    const hex = (n: number) => `0x${n.toString(16)}`;
    expect(await logsError({ fromBlock: '0x2', toBlock: '0x1' })).toEqual(failed('invalid block range params'));
    expect(await logsError({ FromBlock: '0x2', ToBlock: '0x1' })).toEqual(failed('invalid block range params'));
    expect(await logsError({ fromBlock: '0x0', toBlock: hex(head + 1) })).toEqual(failed(`requested to block ${head + 1} after last accepted block ${head}`));
    expect(await logsError({ fromBlock: hex(head + 1) })).toEqual(failed(`requested from block ${head + 1} after last accepted block ${head}`));
    expect(await logsError({ fromBlock: 'pending' })).toEqual(failed('invalid block range params'));
    expect(await call(url, 'eth_getLogs', [{ fromBlock: 'pending', toBlock: 'pending' }])).toEqual([]);
    expect(await logsError({ fromBlock: 'latest', toBlock: '0x0' })).toEqual(failed(`begin block ${head} is greater than end block 0`));
    expect(await logsError({ topics: [null, null, null, null, null] })).toEqual(failed('exceed max topics'));
    expect(await call(url, 'eth_getLogs', [null])).toEqual([]);
    for (const [criteria, message] of [
      [7, 'json: cannot unmarshal number into Go value of type filters.input'],
      [{ fromBlock: 5 }, 'hex string without 0x prefix'],
      [{ topics: ['0x1234'] }, 'hex has invalid length 2 after decoding; expected 32 for topic'],
      [{ topics: [5] }, 'invalid topic(s)'],
      [{ topics: [['0x12']] }, 'hex has invalid length 1 after decoding; expected 32 for topic'],
      [{ topics: '0x1234' }, 'json: cannot unmarshal string into Go struct field input.topics of type []interface {}'],
      [{ address: '0x12' }, 'invalid address: hex has invalid length 1 after decoding; expected 20 for address'],
      [{ address: ['0x12'] }, 'invalid address at index 0: hex has invalid length 1 after decoding; expected 20 for address'],
      [{ address: '0x123' }, 'invalid address: hex string of odd length'],
      [{ address: [5] }, 'non-string address at index 0'],
      [{ address: 5 }, 'invalid addresses in query'],
    ] as const) {
      expect(await logsError(criteria)).toEqual(invalid(`invalid argument 0: ${message}`));
    }
  });

  it('eth_newFilter refuses the ranges it cannot follow as blocks are accepted', async () => {
    const combination = failed('invalid from and to block combination: from > to');
    for (const c of [
      { fromBlock: '0x2', toBlock: '0x1' },
      { fromBlock: 'pending', toBlock: 'latest' },
      { fromBlock: 'finalized' },
      { fromBlock: 'latest', toBlock: '0x0' },
    ]) {
      expect(await callError(url, 'eth_newFilter', [c])).toEqual(combination);
    }
    for (const c of [{}, { fromBlock: 'earliest' }, { fromBlock: '0x1', toBlock: '0x2' }, { topics: [null, null, null, null, null] }]) {
      expect(await call(url, 'eth_newFilter', [c])).toMatch(/^0x[0-9a-f]+$/);
    }
    expect(await callError(url, 'eth_getFilterChanges', [1234])).toEqual(
      invalid('invalid argument 0: json: cannot unmarshal number into Go value of type rpc.ID'),
    );
  });

  it('a block number or hash: an object naming neither reaches the backend; nulls go to each type', async () => {
    const neither = failed('invalid arguments; neither block nor hash specified');
    expect(await callError(url, 'eth_getBalance', [A, {}])).toEqual(neither);
    expect(await callError(url, 'eth_getBalance', [A, null])).toEqual(neither);
    expect(await callError(url, 'eth_getCode', [A, {}])).toEqual(neither);
    expect(await call(url, 'eth_getBlockReceipts', [{}])).toBeNull();
    expect(await call(url, 'eth_getBalance', [A, { BlockNumber: '0x0' }])).toBe('0x0');
    expect(await callError(url, 'eth_getBalance', [A, { blockNumber: 'foo' }])).toEqual(
      invalid('invalid argument 1: json: cannot unmarshal object into Go value of type string'),
    );
    expect(await callError(url, 'eth_getBalance', [A, '0x8000000000000000'])).toEqual(invalid('invalid argument 1: blocknumber too high'));
    expect(await callError(url, 'eth_getBlockByNumber', ['0x8000000000000000', false])).toEqual(invalid('invalid argument 0: block number larger than int64'));
    expect(await callError(url, 'eth_getBlockByNumber', [5, false])).toEqual(invalid('invalid argument 0: hex string without 0x prefix'));
    expect(await callError(url, 'eth_getBlockByNumber', [null, false])).toEqual(invalid('invalid argument 0: hex string without 0x prefix'));
    expect((await call(url, 'eth_getBlockByNumber', ['latest', null])).transactions).toEqual([]);
    expect(await callError(url, 'eth_getBlockByNumber', ['latest', 1])).toEqual(
      invalid('invalid argument 1: json: cannot unmarshal number into Go value of type bool'),
    );
    expect(await callError(url, 'eth_getBalance', [null, 'latest'])).toEqual(
      invalid('invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Address'),
    );
    expect(await call(url, 'eth_call', [null])).toBe('0x');
  });

  it("hexutil's errors are encoding/json type errors naming the Go type; a fixed type's length is not", async () => {
    expect(await callError(url, 'eth_getBalance', ['12'.repeat(20), 'latest'])).toEqual(
      invalid('invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Address'),
    );
    expect(await callError(url, 'eth_getBalance', ['0x123', 'latest'])).toEqual(
      invalid('invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type common.Address'),
    );
    expect(await callError(url, 'eth_getBalance', [`0xzz${'12'.repeat(19)}`, 'latest'])).toEqual(
      invalid('invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type common.Address'),
    );
    expect(await callError(url, 'eth_getBalance', ['', 'latest'])).toEqual(invalid('invalid argument 0: hex string has length 0, want 40 for common.Address'));
    expect(await callError(url, 'eth_sendRawTransaction', ['12'])).toEqual(
      invalid('invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes'),
    );
    expect(await callError(url, 'eth_getTransactionByBlockNumberAndIndex', ['latest', '0x01'])).toEqual(
      invalid('invalid argument 1: json: cannot unmarshal hex number with leading zero digits into Go value of type hexutil.Uint'),
    );
    expect(await callError(url, 'eth_call', [{ to: A, gas: 21000 }])).toEqual(
      invalid('invalid argument 0: json: cannot unmarshal non-string into Go struct field TransactionArgs.gas of type hexutil.Uint64'),
    );
    expect(await callError(url, 'eth_call', [{ to: A, gas: '21000' }])).toEqual(
      invalid('invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go struct field TransactionArgs.gas of type hexutil.Uint64'),
    );
    // An empty quantity is zero.
    expect(await call(url, 'eth_call', [{ to: A, value: '' }])).toBe('0x');
  });

  it("what a reviewer found: traceCall's block, dev methods' nulls, hexutil's orders, overrides' structs", async () => {
    // TraceCall takes its block by value.
    expect(await callError(url, 'debug_traceCall', [{ to: A }])).toEqual(invalid('missing value for required argument 1'));
    expect(await callError(url, 'debug_traceCall', [{ to: A }, null])).toEqual(failed('invalid arguments; neither block nor hash specified'));
    // Anvil's and Hardhat's methods refuse a null they need.
    expect(await callError(url, 'evm_revert', [null])).toEqual(invalid('missing value for required argument 0'));
    expect(await callError(url, 'anvil_setBalance', [A, null])).toEqual(invalid('missing value for required argument 1'));
    // hexutil.Decode reports a bad digit before an odd length; DecodeUint64 a leading zero or a 17th digit first.
    expect(await callError(url, 'eth_getLogs', [{ address: '0xzzz' }])).toEqual(invalid('invalid argument 0: invalid address: invalid hex string'));
    expect(await callError(url, 'eth_getBlockByNumber', ['0x0g', false])).toEqual(invalid('invalid argument 0: hex number with leading zero digits'));
    expect(await callError(url, 'eth_getBlockByNumber', [`0x${'1'.repeat(17)}g`, false])).toEqual(invalid('invalid argument 0: hex number > 64 bits'));
    // A key of another case is the field: a block past the head says so.
    expect(await callError(url, 'eth_getBalance', [A, { BlockNumber: '0x1000' }])).toEqual(failed('cannot query unfinalized data'));
    expect(await callError(url, 'eth_getBalance', [A, { blockHash: `0x${'00'.repeat(32)}`, requireCanonical: 1 }])).toEqual(
      invalid('invalid argument 1: json: cannot unmarshal object into Go value of type string'),
    );
    // A filter with five topics is GetLogs' refusal only.
    const id = await call(url, 'eth_newFilter', [{ topics: [null, null, null, null, null] }]);
    expect(await call(url, 'eth_getFilterLogs', [id])).toEqual([]);
    // math.HexOrDecimal64 reads "" as 0 and any other value by its JSON text.
    expect(await call(url, 'eth_feeHistory', ['', 'latest', []])).toEqual({ oldestBlock: '0x0', gasUsedRatio: null });
    expect(await callError(url, 'eth_feeHistory', [true, 'latest', []])).toEqual(invalid('invalid argument 0: invalid hex or decimal integer "true"'));
    expect(await callError(url, 'eth_feeHistory', [1, 'latest', [true]])).toEqual(
      invalid('invalid argument 2: json: cannot unmarshal bool into Go value of type float64'),
    );
    // State overrides: a null account is an empty one; their fields name OverrideAccount.
    expect(await call(url, 'eth_call', [{ to: A }, 'latest', { [A]: null }])).toBe('0x');
    expect(await callError(url, 'eth_call', [{ to: A }, 'latest', { [A]: { nonce: 1 } }])).toEqual(
      invalid('invalid argument 2: json: cannot unmarshal non-string into Go struct field OverrideAccount.nonce of type hexutil.Uint64'),
    );
    expect(await callError(url, 'eth_call', [{ to: A }, 'latest', { [A]: { state: 5 } }])).toEqual(
      invalid('invalid argument 2: json: cannot unmarshal number into Go struct field OverrideAccount.state of type map[common.Hash]common.Hash'),
    );
    expect(await callError(url, 'eth_call', [{ to: A }, 'latest', { '0x12': {} }])).toEqual(
      invalid('invalid argument 2: hex string has length 2, want 40 for Address'),
    );
  });

  it('the envelope: an object or array id is no id, a null id is one, an empty body is no request', async () => {
    const chainId = await call(url, 'eth_chainId', []);
    expect((await rpc(url, 'eth_chainId', [], { a: 1 })).json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } });
    expect((await rpc(url, 'eth_chainId', [], [1])).json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request' } });
    expect((await rpc(url, 'eth_chainId', [], null)).text).toBe(`{"jsonrpc":"2.0","id":null,"result":"${chainId}"}\n`);
    expect((await post(url, '{"jsonrpc":"2.0","method":"eth_chainId","params":[]}')).text).toBe('');
    expect((await post(url, '{"jsonrpc":"2.0","id":3,"method":"","params":[]}')).json).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32600, message: 'invalid request' },
    });
    const empty = await post(url, ' \n');
    expect([empty.status, empty.text]).toEqual([200, '']);
  });
});

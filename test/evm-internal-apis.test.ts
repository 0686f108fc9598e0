// The methods coreth and Subnet-EVM serve beside Ethereum's in their default namespaces
// (internal-blockchain, internal-transaction: eth_callDetailed, eth_getBadBlocks,
// eth_pendingTransactions, eth_resend) and ethapi's internal-debug raw getters
// (debug_getRawHeader, _getRawBlock, _getRawReceipts, _getRawTransaction). Each answer is checked against something the node did not
// write for it: the block hash is the raw header's keccak, the receipts' trie root is the header's,
// a call's gas is what the same tx used once sent.
import { createMPT } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { type Abi, encodeFunctionData, keccak256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, startTestNode, type TestNode } from './helpers.js';
import { fixture } from './support/solc.js';

const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const POOR = '0x000000000000000000000000000000000000dead';
const MYL1 = new URL('../fixtures/myl1.json', import.meta.url).pathname;
const probe = fixture('Probe');
const probeAbi = probe.abi as Abi;
const data = (functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: probeAbi, functionName, args });
const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const bytes = (h: string) => new Uint8Array(Buffer.from(h.slice(2), 'hex'));

let node: TestNode;
let plain: TestNode;
beforeAll(async () => {
  [node, plain] = await Promise.all([
    startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1, l1: [MYL1] }),
    startTestNode({ dbType: 'memdb', l1: [MYL1] }),
  ]);
});
afterAll(async () => {
  await Promise.all([node?.stop(), plain?.stop()]);
});

async function receiptOf(url: string, hash: string): Promise<any> {
  for (;;) {
    const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe.each([
  { name: 'the C-Chain', alias: 'C' },
  { name: 'a Subnet-EVM L1', alias: 'myl1' },
])('$name', ({ alias }) => {
  let url: string;
  let sender: string;
  let target: string;
  beforeAll(async () => {
    url = `${node.uri}/ext/bc/${alias}/rpc`;
    [sender] = await call(url, 'eth_accounts', []);
    // The test accounts are funded on the C-Chain only.
    await call(url, 'anvil_setBalance', [sender, '0x3635c9adc5dea00000']);
    const deploy = await call(url, 'eth_sendTransaction', [{ from: sender, data: probe.bytecode }]);
    target = (await receiptOf(url, deploy)).contractAddress;
  });

  it("eth_callDetailed: a call's gas as sent, and its failure in the answer", async () => {
    const block = await call(url, 'eth_blockNumber', []);
    const store = { from: sender, to: target, data: data('store', [77n]) };
    const ok = await call(url, 'eth_callDetailed', [store, block]);
    const sent = await receiptOf(url, await call(url, 'eth_sendTransaction', [store]));
    // DetailedExecutionResult's numbers are plain JSON numbers.
    expect(ok).toEqual({ gas: Number(sent.gasUsed), errCode: 0, err: '', returnData: '0x' });

    const add = await call(url, 'eth_callDetailed', [{ to: target, data: data('add', [2n, 3n]) }, 'latest']);
    expect(add.returnData).toBe(await call(url, 'eth_call', [{ to: target, data: data('add', [2n, 3n]) }, 'latest']));
    expect(add.err).toBe('');

    // A revert with data: revertError's code and text, as eth_call answers it, and the data.
    for (const [fn, args] of [
      ['failReason', []],
      ['failPanic', [0n]],
      ['failCustom', [7n]],
    ] as const) {
      const tx = { to: target, data: data(fn, [...args]) };
      const detailed = await call(url, 'eth_callDetailed', [tx, 'latest']);
      const refused = await callError(url, 'eth_call', [tx, 'latest']);
      expect(detailed.errCode).toBe(3);
      expect(detailed.err).toBe(refused.message);
      expect(detailed.returnData).toBe(refused.data);
      expect(detailed.gas).toBeGreaterThan(21_000);
    }
    // A revert without data and an EVM failure have no rpc.Error code.
    const empty = await call(url, 'eth_callDetailed', [{ to: target, data: data('failEmpty') }, 'latest']);
    expect(empty).toMatchObject({ errCode: 0, err: 'execution reverted', returnData: '0x' });
    const starved = await call(url, 'eth_callDetailed', [{ to: target, data: data('store', [5n]), gas: '0x5500' }, 'latest']);
    expect(starved).toEqual({ gas: 0x5500, errCode: 0, err: 'out of gas', returnData: '0x' });

    // Failures whose geth text names the failing op (core/vm's errors), in every call path.
    const BAD = `0x${'0b'.repeat(20)}`;
    for (const [code, text] of [
      ['0x08', 'stack underflow (0 <=> 3)'],
      ['0x6001fe', 'invalid opcode: INVALID'],
      ['0x600160015b8056', 'invalid jump destination'],
    ]) {
      const over = { [BAD]: { code } };
      expect((await call(url, 'eth_callDetailed', [{ to: BAD }, 'latest', over])).err).toBe(text);
      expect(await callError(url, 'eth_call', [{ to: BAD }, 'latest', over])).toEqual({ code: -32000, message: text });
      expect(await callError(url, 'eth_estimateGas', [{ to: BAD }, 'latest', over])).toEqual({ code: -32000, message: text });
    }
    // What the state transition refuses fails the request, as eth_call's does.
    const poor = { from: POOR, to: target, value: '0x1' };
    expect(await callError(url, 'eth_callDetailed', [poor, 'latest'])).toEqual(await callError(url, 'eth_call', [poor, 'latest']));
    // Its block is taken by value: required.
    expect(await callError(url, 'eth_callDetailed', [{ to: target }])).toEqual({ code: -32602, message: 'missing value for required argument 1' });
  });

  it('eth_getBadBlocks and debug_getBadBlocks: none', async () => {
    expect(await call(url, 'eth_getBadBlocks', [])).toEqual([]);
    expect(await call(url, 'debug_getBadBlocks', [])).toEqual([]);
    expect(await call(`${plain.uri}/ext/bc/${alias}/rpc`, 'eth_getBadBlocks', [])).toEqual([]);
  });

  it("eth_pendingTransactions: the pool's pending txs from the node's own accounts", async () => {
    await call(url, 'evm_setAutomine', [false]);
    try {
      const mine = await call(url, 'eth_sendTransaction', [{ from: sender, to: POOR, value: '0x1' }]);
      // The ewoq key is not one of the node's accounts: its tx is pending, and not listed.
      await call(url, 'anvil_impersonateAccount', [EWOQ]);
      await call(url, 'eth_sendTransaction', [{ from: EWOQ, to: POOR, value: '0x2' }]);
      const listed = await call(url, 'eth_pendingTransactions', []);
      expect(listed).toEqual([await call(url, 'eth_getTransactionByHash', [mine])]);
      expect(listed[0]).toMatchObject({ hash: mine, blockHash: null, blockNumber: null, transactionIndex: null });
      // Without --dev the node has no accounts.
      expect(await call(`${plain.uri}/ext/bc/${alias}/rpc`, 'eth_pendingTransactions', [])).toEqual([]);
    } finally {
      await call(url, 'evm_setAutomine', [true]);
      await call(url, 'anvil_stopImpersonatingAccount', [EWOQ]);
    }
    expect(await call(url, 'eth_pendingTransactions', [])).toEqual([]);
  });

  it('eth_resend: a pending tx of the node signed again with a new gas price and limit', async () => {
    expect(await callError(url, 'eth_resend', [{ from: sender, to: POOR }])).toEqual({
      code: -32000,
      message: 'missing transaction nonce in transaction spec',
    });
    const price = BigInt(await call(url, 'eth_gasPrice', []));
    const nonce = await call(url, 'eth_getTransactionCount', [sender, 'latest']);
    const spec = { from: sender, to: POOR, value: '0x7', nonce, gas: '0x5208', gasPrice: `0x${price.toString(16)}` };
    // Nothing pending matches: its unsigned hash, as eth_fillTransaction's tx has it.
    const { tx } = await call(url, 'eth_fillTransaction', [spec]);
    expect(await callError(url, 'eth_resend', [spec, `0x${(price * 2n).toString(16)}`])).toEqual({ code: -32000, message: `transaction ${tx.hash} not found` });
    await call(url, 'evm_setAutomine', [false]);
    try {
      const first = await call(url, 'eth_sendTransaction', [spec]);
      const second = await call(url, 'eth_resend', [spec, `0x${(price * 2n).toString(16)}`, '0x6000']);
      expect(second).not.toBe(first);
      expect(await call(url, 'eth_getTransactionByHash', [first])).toBeNull();
      expect(await call(url, 'eth_getTransactionByHash', [second])).toMatchObject({ nonce, gas: '0x6000', gasPrice: `0x${(price * 2n).toString(16)}` });
      // A dynamic-fee tx keeps its fee cap (toTransaction reads maxFeePerGas first): the same tx again.
      const dynamic = {
        from: sender,
        to: POOR,
        value: '0x8',
        nonce: `0x${(Number(nonce) + 1).toString(16)}`,
        maxFeePerGas: `0x${(price * 3n).toString(16)}`,
        maxPriorityFeePerGas: '0x1',
      };
      await call(url, 'eth_sendTransaction', [dynamic]);
      expect(await callError(url, 'eth_resend', [dynamic, `0x${(price * 5n).toString(16)}`])).toEqual({ code: -32000, message: 'already known' });
      // Without the sender's key (a node without --dev) a match cannot be signed; here, none matches.
      expect((await callError(`${plain.uri}/ext/bc/${alias}/rpc`, 'eth_resend', [spec])).message).toMatch(/^transaction 0x[0-9a-f]{64} not found$/);
    } finally {
      await call(url, 'evm_setAutomine', [true]);
    }
    await call(url, 'evm_mine', []);
    expect(await call(url, 'eth_pendingTransactions', [])).toEqual([]);
  });

  it("debug_getRaw*: the block's consensus encodings", async () => {
    // A block of three txs: a legacy one, a dynamic-fee one with a log-less revert, one with a log-making call.
    await call(url, 'evm_setAutomine', [false]);
    const hashes = [
      await call(url, 'eth_sendTransaction', [{ from: sender, to: target, data: data('store', [1n]), gasPrice: await call(url, 'eth_gasPrice', []) }]),
      await call(url, 'eth_sendTransaction', [{ from: sender, to: target, data: data('failReason'), gas: '0x20000' }]),
      await call(url, 'eth_sendTransaction', [{ from: sender, to: target, data: data('recordBlockValues') }]),
    ];
    await call(url, 'evm_setAutomine', [true]);
    await call(url, 'evm_mine', []);
    const receipts = await Promise.all(hashes.map((h) => receiptOf(url, h)));
    const number = receipts[0].blockNumber;
    expect(receipts.map((r) => r.blockNumber)).toEqual([number, number, number]);
    expect(receipts.map((r) => r.status)).toEqual(['0x1', '0x0', '0x1']);
    const block = await call(url, 'eth_getBlockByNumber', [number, false]);

    const header = await call(url, 'debug_getRawHeader', [number]);
    expect(keccak256(header)).toBe(block.hash);
    expect(await call(url, 'debug_getRawHeader', [block.hash])).toBe(header);
    expect(await call(url, 'debug_getRawHeader', [{ blockHash: block.hash }])).toBe(header);

    const raw = await call(url, 'debug_getRawBlock', [number]);
    expect((raw.length - 2) / 2).toBe(Number(block.size));
    const [rawHeader, txs] = RLP.decode(bytes(raw)) as unknown as [Uint8Array, Array<Uint8Array | Uint8Array[]>];
    expect(hex(RLP.encode(rawHeader))).toBe(header);
    const rawTxs = await Promise.all(hashes.map((h) => call(url, 'eth_getRawTransactionByHash', [h])));
    expect(txs.map((t) => (Array.isArray(t) ? hex(RLP.encode(t)) : hex(t)))).toEqual(rawTxs);
    for (const [i, h] of hashes.entries()) expect(await call(url, 'debug_getRawTransaction', [h])).toBe(rawTxs[i]);

    // The receipts' trie (keys: RLP of the index) has the header's root, and each decodes to its receipt.
    const rawReceipts: string[] = await call(url, 'debug_getRawReceipts', [block.hash]);
    expect(rawReceipts).toHaveLength(3);
    const trie = await createMPT();
    for (const [i, r] of rawReceipts.entries()) await trie.put(RLP.encode(i), bytes(r));
    expect(hex(trie.root())).toBe(block.receiptsRoot);
    for (const [i, r] of rawReceipts.entries()) {
      const typed = bytes(r)[0]! < 0x7f;
      const [status, cumulative, bloom, logs] = RLP.decode(typed ? bytes(r).subarray(1) : bytes(r)) as unknown as [
        Uint8Array,
        Uint8Array,
        Uint8Array,
        Uint8Array[][],
      ];
      expect(typed ? `0x${bytes(r)[0]}` : '0x0').toBe(receipts[i].type);
      expect(status.length === 0 ? '0x0' : '0x1').toBe(receipts[i].status);
      expect(BigInt(hex(cumulative))).toBe(BigInt(receipts[i].cumulativeGasUsed));
      expect(hex(bloom)).toBe(receipts[i].logsBloom);
      expect(
        logs.map(([address, topics, d]) => ({
          address: hex(address as Uint8Array),
          topics: (topics as unknown as Uint8Array[]).map(hex),
          data: hex(d as Uint8Array),
        })),
      ).toEqual(receipts[i].logs.map((l: any) => ({ address: l.address, topics: l.topics, data: l.data })));
    }
    expect(await call(url, 'debug_getRawReceipts', [number])).toEqual(rawReceipts);
  });

  it("debug_getRaw*: what is not there, in coreth's words", async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    const decimal = `[${Array(32).fill(171).join(' ')}]`;
    expect(await callError(url, 'debug_getRawHeader', [unknown])).toEqual({ code: -32000, message: `header #${decimal} not found` });
    expect(await callError(url, 'debug_getRawBlock', [unknown])).toEqual({ code: -32000, message: `block #${decimal} not found` });
    expect(await call(url, 'debug_getRawReceipts', [unknown])).toEqual([]);
    // hexutil.Bytes, a value: none encodes as "0x" (eth_getRawTransactionByHash's too).
    expect(await call(url, 'debug_getRawTransaction', [unknown])).toBe('0x');
    expect(await call(url, 'eth_getRawTransactionByHash', [unknown])).toBe('0x');
    expect(await call(url, 'eth_getRawTransactionByBlockNumberAndIndex', ['0x0', '0x5'])).toBe('0x');
    const past = `0x${(Number(await call(url, 'eth_blockNumber', [])) + 5).toString(16)}`;
    expect(await callError(url, 'debug_getRawHeader', [past])).toEqual({ code: -32000, message: 'cannot query unfinalized data' });
    expect(await callError(url, 'debug_getRawHeader', [])).toEqual({ code: -32602, message: 'missing value for required argument 0' });
    // A pooled tx's encoding.
    await call(url, 'evm_setAutomine', [false]);
    try {
      const pooled = await call(url, 'eth_sendTransaction', [{ from: sender, to: POOR, value: '0x3' }]);
      expect(await call(url, 'debug_getRawTransaction', [pooled])).toBe(await call(url, 'eth_getRawTransactionByHash', [pooled]));
    } finally {
      await call(url, 'evm_setAutomine', [true]);
    }
  });
});

it('debug_getRawBlock: a coreth block carries its version and extData after the uncles', async () => {
  const url = `${node.uri}/ext/bc/C/rpc`;
  const raw = await call(url, 'debug_getRawBlock', ['0x0']);
  const fields = RLP.decode(bytes(raw)) as unknown as Uint8Array[];
  expect(fields).toHaveLength(5);
  const l1 = RLP.decode(bytes(await call(`${node.uri}/ext/bc/myl1/rpc`, 'debug_getRawBlock', ['0x0']))) as unknown as Uint8Array[];
  expect(l1).toHaveLength(3);
});

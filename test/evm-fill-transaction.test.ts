// eth_fillTransaction as coreth and Subnet-EVM serve it (internal/ethapi TransactionAPI.FillTransaction):
// setDefaults (the pool nonce, the estimate, the oracle's tip and a fee cap of tip + 2 × the head's
// base fee, the chain ID), toTransaction, and the unsigned tx as {raw, tx}. viem 2 asks for it first
// when a local account sends or estimates; answered, one request replaces four.
import { RLP } from '@ethereumjs/rlp';
import {
  type Abi,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  keccak256,
  parseTransaction,
  publicActions,
  type TransactionSerializable,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, rpc, startTestNode, type TestNode } from './helpers.js';
import { fixture } from './support/solc.js';

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const POOR = '0x000000000000000000000000000000000000dead';
const MYL1 = new URL('../fixtures/myl1.json', import.meta.url).pathname;
const probe = fixture('Probe');
const probeAbi = probe.abi as Abi;
const account = privateKeyToAccount(EWOQ_KEY);
const bytesHex = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;
const quantity = (b: Uint8Array) => toHex(b.length === 0 ? 0n : BigInt(bytesHex(b)));

/** types.Transaction.MarshalJSON's keys, in its txJSON struct's order. */
const DYNAMIC_KEYS = [
  'type',
  'chainId',
  'nonce',
  'to',
  'gas',
  'gasPrice',
  'maxPriorityFeePerGas',
  'maxFeePerGas',
  'value',
  'input',
  'accessList',
  'v',
  'r',
  's',
  'yParity',
  'hash',
];

const chains = [
  { name: 'the C-Chain', alias: 'C', id: 43112 },
  { name: 'a Subnet-EVM L1', alias: 'myl1', id: 99999 },
];

let node: TestNode;
beforeAll(async () => {
  // --dev for evm_setAutomine (a tx left in the pool shows the pool nonce) and a test account for eth_sendTransaction.
  node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1, l1: [MYL1] });
});
afterAll(() => node.stop());

const urlOf = (alias: string) => `${node.uri}/ext/bc/${alias}/rpc`;

/** eth_fillTransaction's raw tx, signed by the ewoq key. */
function sign(raw: Hex): Promise<Hex> {
  const { r: _r, s: _s, v: _v, yParity: _y, ...unsigned } = parseTransaction(raw);
  return account.signTransaction(unsigned as TransactionSerializable);
}

/** Sends a signed tx and waits for its receipt. */
async function mine(url: string, raw: Hex): Promise<{ status: string }> {
  const hash = await call(url, 'eth_sendRawTransaction', [raw]);
  for (;;) {
    const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(chains)('eth_fillTransaction on $name', ({ alias, id }) => {
  let url: string;
  let probeAddress: Hex;
  beforeAll(async () => {
    url = urlOf(alias);
    const viemChain = defineChain({ id, name: alias, nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    const wallet = createWalletClient({ account, chain: viemChain, transport: http(url) });
    const client = createPublicClient({ chain: viemChain, transport: http(url), cacheTime: 0 });
    const hash = await wallet.deployContract({ abi: probeAbi, bytecode: probe.bytecode });
    probeAddress = (await client.waitForTransactionReceipt({ hash })).contractAddress!;
  });

  it("fills {from, to, value} with the pool nonce, the estimate, the oracle's tip, tip + 2 × the head's base fee and the chain ID", async () => {
    // A tx left in the pool: the nonce is the pool's, one past the state's.
    await call(url, 'evm_setAutomine', [false]);
    const stateNonce = BigInt(await call(url, 'eth_getTransactionCount', [EWOQ, 'latest']));
    const head = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    const tip = BigInt(await call(url, 'eth_maxPriorityFeePerGas', []));
    const feeCap = tip + 2n * BigInt(head.baseFeePerGas);
    const waiting = await account.signTransaction({
      chainId: id,
      nonce: Number(stateNonce),
      to: OTHER,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: feeCap,
      maxPriorityFeePerGas: tip,
    });
    const waitingHash = await call(url, 'eth_sendRawTransaction', [waiting]);
    const args = { from: EWOQ, to: OTHER, value: '0x2' };
    const { raw, tx } = await call(url, 'eth_fillTransaction', [args]);
    expect(Object.keys(tx)).toEqual(DYNAMIC_KEYS);
    expect(tx).toEqual({
      type: '0x2',
      chainId: toHex(id),
      nonce: toHex(stateNonce + 1n),
      to: OTHER,
      gas: await call(url, 'eth_estimateGas', [args]),
      gasPrice: null,
      maxPriorityFeePerGas: toHex(tip),
      maxFeePerGas: toHex(feeCap),
      value: '0x2',
      input: '0x',
      accessList: [],
      v: '0x0',
      r: '0x0',
      s: '0x0',
      yParity: '0x0',
      hash: keccak256(raw),
    });
    expect(tx.gas).toBe('0x5208');
    expect(tx.nonce).toBe(await call(url, 'eth_getTransactionCount', [EWOQ, 'pending']));
    // raw is 0x02 || rlp([chainId, nonce, tip, feeCap, gas, to, value, data, accessList, 0, 0, 0]).
    expect(raw.slice(0, 4)).toBe('0x02');
    const fields = RLP.decode(Buffer.from(raw.slice(4), 'hex')) as Array<Uint8Array | Uint8Array[]>;
    expect(fields.length).toBe(12);
    const [chainId, nonce, tipField, capField, gas, to, value, data, list, v, r, s] = fields as Uint8Array[];
    expect([chainId, nonce, tipField, capField, gas].map((f) => quantity(f!))).toEqual([
      tx.chainId,
      tx.nonce,
      tx.maxPriorityFeePerGas,
      tx.maxFeePerGas,
      tx.gas,
    ]);
    expect([bytesHex(to!), quantity(value!), bytesHex(data!), list]).toEqual([OTHER, '0x2', '0x', []]);
    expect([v, r, s].map((f) => f!.length)).toEqual([0, 0, 0]);
    // Signed as it stands and sent, it is mined after the tx before it.
    const parsed = parseTransaction(raw as Hex);
    expect(parsed).toMatchObject({
      type: 'eip1559',
      chainId: id,
      nonce: Number(stateNonce + 1n),
      to: OTHER,
      value: 2n,
      gas: 21_000n,
      maxFeePerGas: feeCap,
      maxPriorityFeePerGas: tip,
    });
    const signedHash = await call(url, 'eth_sendRawTransaction', [await sign(raw)]);
    await call(url, 'evm_setAutomine', [true]);
    for (const hash of [waitingHash, signedHash]) {
      let receipt = null;
      while (!receipt) receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
      expect(receipt.status).toBe('0x1');
    }
  });

  it('fills a create with its estimate; with no from, the zero address is the sender (its nonce, its balance)', async () => {
    const created = await call(url, 'eth_fillTransaction', [{ from: EWOQ, input: probe.bytecode }]);
    expect(created.tx.to).toBeNull();
    expect(created.tx.input).toBe(probe.bytecode);
    expect(created.tx.gas).toBe(
      await call(url, 'eth_estimateGas', [
        { from: EWOQ, input: probe.bytecode, maxFeePerGas: created.tx.maxFeePerGas, maxPriorityFeePerGas: created.tx.maxPriorityFeePerGas },
      ]),
    );
    expect((await mine(url, await sign(created.raw))).status).toBe('0x1');
    // The zero address holds nothing: the fee cap leaves it no gas.
    expect(await callError(url, 'eth_fillTransaction', [{ to: OTHER }])).toEqual({ code: -32000, message: 'gas required exceeds allowance (0)' });
    // With a gas limit, nothing is estimated: the zero address's nonce is 0.
    const { tx } = await call(url, 'eth_fillTransaction', [{ to: OTHER, gas: '0x5208' }]);
    expect([tx.nonce, tx.gas]).toEqual(['0x0', '0x5208']);
  });

  it('keeps a gas price: a legacy tx without a chain ID and V = 0 (Anvil answers an EIP-155 V), a 2930 tx with an access list', async () => {
    const gasPrice = toHex(BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).baseFeePerGas) * 3n);
    const nonce = await call(url, 'eth_getTransactionCount', [EWOQ, 'pending']);
    const legacy = await call(url, 'eth_fillTransaction', [{ from: EWOQ, to: OTHER, gasPrice }]);
    expect(legacy.tx).toEqual({
      type: '0x0',
      nonce,
      to: OTHER,
      gas: '0x5208',
      gasPrice,
      maxPriorityFeePerGas: null,
      maxFeePerGas: null,
      value: '0x0',
      input: '0x',
      v: '0x0',
      r: '0x0',
      s: '0x0',
      hash: keccak256(legacy.raw),
    });
    // rlp([nonce, gasPrice, gas, to, value, data, 0, 0, 0]): V is 0, not chainId × 2 + 35.
    const fields = RLP.decode(Buffer.from(legacy.raw.slice(2), 'hex')) as Uint8Array[];
    expect(fields.map((f) => (f.length === 20 ? bytesHex(f) : quantity(f)))).toEqual([nonce, gasPrice, '0x5208', OTHER, '0x0', '0x0', '0x0', '0x0', '0x0']);
    const slot = `0x${'00'.repeat(31)}01`;
    const typed = await call(url, 'eth_fillTransaction', [{ from: EWOQ, to: OTHER, gasPrice, accessList: [{ address: probeAddress, storageKeys: [slot] }] }]);
    expect(Object.keys(typed.tx)).toEqual(DYNAMIC_KEYS);
    expect(typed.tx).toMatchObject({
      type: '0x1',
      chainId: toHex(id),
      gasPrice,
      maxPriorityFeePerGas: null,
      maxFeePerGas: null,
      accessList: [{ address: probeAddress, storageKeys: [slot] }],
    });
    expect(typed.raw.slice(0, 4)).toBe('0x01');
    // The estimate's (not exact: a transfer with a list is no plain transfer, so it is searched for).
    const estimated = BigInt(await call(url, 'eth_estimateGas', [{ from: EWOQ, to: OTHER, gasPrice, accessList: typed.tx.accessList }]));
    expect(BigInt(typed.tx.gas)).toBe(estimated);
    expect(estimated).toBeGreaterThanOrEqual(21_000n + 2_400n + 1_900n);
    expect((await mine(url, await sign(typed.raw))).status).toBe('0x1');
  });

  it("keeps given fees, nonce and gas as they are; a chain ID equal to the node's is taken", async () => {
    const { tx } = await call(url, 'eth_fillTransaction', [
      {
        from: EWOQ,
        to: OTHER,
        nonce: '0x7',
        gas: '0x6000',
        maxFeePerGas: '0x77359400',
        maxPriorityFeePerGas: '0x2',
        chainId: toHex(id),
        data: '0x01',
        input: '0x01',
      },
    ]);
    expect(tx).toMatchObject({ nonce: '0x7', gas: '0x6000', maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x2', chainId: toHex(id), input: '0x01' });
    // A tip alone: the fee cap is the tip + 2 × the head's base fee.
    const baseFee = BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).baseFeePerGas);
    const tipped = await call(url, 'eth_fillTransaction', [{ from: EWOQ, to: OTHER, maxPriorityFeePerGas: '0x5' }]);
    expect(tipped.tx.maxFeePerGas).toBe(toHex(5n + 2n * baseFee));
  });

  it.each([
    [{ from: EWOQ, to: OTHER, gasPrice: '0x1', maxFeePerGas: '0x2' }, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified'],
    [{ from: EWOQ, to: OTHER, gasPrice: '0x1', maxPriorityFeePerGas: '0x2' }, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified'],
    [{ from: EWOQ, to: OTHER, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }, 'maxFeePerGas (0x1) < maxPriorityFeePerGas (0x2)'],
    [{ from: EWOQ, to: OTHER, maxFeePerGas: '0x0', maxPriorityFeePerGas: '0x0' }, 'maxFeePerGas must be non-zero'],
    [{ from: EWOQ, to: OTHER, gasPrice: '0x0' }, 'gasPrice must be non-zero after london fork'],
    [{ from: EWOQ, to: OTHER, chainId: '0x5' }, "chainId does not match node's (have=5, want=ID)"],
    [{ from: EWOQ }, 'contract creation without any data provided'],
    [{ from: EWOQ, to: OTHER, data: '0x01', input: '0x02' }, 'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data'],
    // The estimate runs with the filled fee cap, so its balance checks apply.
    [{ from: POOR, to: OTHER, value: '0x1' }, 'insufficient funds for transfer'],
    [{ from: POOR, to: OTHER }, 'gas required exceeds allowance (0)'],
  ])('refuses %j: -32000 %s', async (args, message) => {
    expect(await callError(url, 'eth_fillTransaction', [args])).toEqual({ code: -32000, message: message.replace('ID', String(id)) });
  });

  it('a revert in the estimate is the estimate’s: code 3, the reason and the data', async () => {
    const failReason = `0x${probe.methodIdentifiers['failReason()']}`;
    const error = await callError(url, 'eth_fillTransaction', [{ from: EWOQ, to: probeAddress, input: failReason }]);
    expect(error).toEqual(await callError(url, 'eth_estimateGas', [{ from: EWOQ, to: probeAddress, input: failReason }]));
    expect(error).toMatchObject({ code: 3, message: 'execution reverted: Probe: reason' });
  });

  it('eth_sendTransaction and eth_createAccessList complete their txs with the same setDefaults', async () => {
    const [from] = await call(url, 'eth_accounts', []);
    await call(url, 'anvil_setBalance', [from, toHex(10n ** 20n)]);
    const gasPrice = toHex(BigInt((await call(url, 'eth_getBlockByNumber', ['latest', false])).baseFeePerGas) * 3n);
    // toTransaction: a gas price with an access list is a 2930 tx.
    const hash = await call(url, 'eth_sendTransaction', [{ from, to: OTHER, gasPrice, accessList: [] }]);
    let mined = null;
    while (!mined) mined = await call(url, 'eth_getTransactionReceipt', [hash]);
    expect((await call(url, 'eth_getTransactionByHash', [hash])).type).toBe('0x1');
    for (const method of ['eth_sendTransaction', 'eth_createAccessList']) {
      expect(await callError(url, method, [{ from, to: OTHER, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }])).toEqual({
        code: -32000,
        message: 'maxFeePerGas (0x1) < maxPriorityFeePerGas (0x2)',
      });
      expect(await callError(url, method, [{ from, to: OTHER, chainId: '0x5' }])).toEqual({
        code: -32000,
        message: `chainId does not match node's (have=5, want=${id})`,
      });
    }
  });

  it.each([
    [[], 'missing value for required argument 0'],
    [[{}, {}], 'too many arguments, want at most 1'],
    // encoding/json's type errors name the JSON kind, and inside a struct the field (Go 1.20 and later):
    // hexutil's own errors are such type errors (wrapTypeError), a fixed type's wrong length is not.
    [[1], 'invalid argument 0: json: cannot unmarshal number into Go value of type ethapi.TransactionArgs'],
    [[{ from: '0x1' }], 'invalid argument 0: json: cannot unmarshal hex string of odd length into Go struct field TransactionArgs.from of type common.Address'],
    [[{ from: '0x12' }], 'invalid argument 0: hex string has length 2, want 40 for common.Address'],
    [[{ to: OTHER, chainId: 5 }], 'invalid argument 0: json: cannot unmarshal non-string into Go struct field TransactionArgs.chainId of type *hexutil.Big'],
    [
      [{ to: OTHER, value: '0x01' }],
      'invalid argument 0: json: cannot unmarshal hex number with leading zero digits into Go struct field TransactionArgs.value of type *hexutil.Big',
    ],
    [[{ to: OTHER, accessList: [{ address: OTHER }] }], "invalid argument 0: missing required field 'storageKeys' for AccessTuple"],
    [[{ to: OTHER, accessList: [{ storageKeys: [] }] }], "invalid argument 0: missing required field 'address' for AccessTuple"],
  ])('params %j: -32602 %s', async (params, message) => {
    expect((await rpc(url, 'eth_fillTransaction', params)).json.error).toEqual({ code: -32602, message });
  });
});

describe.each(chains)('viem with a local account on $name', ({ alias, id }) => {
  /** A wallet client whose requests are counted; `unsupported` answers eth_fillTransaction as the emulator did before (-32601). */
  function counted(unsupported: boolean) {
    const url = urlOf(alias);
    const methods: string[] = [];
    const viemChain = defineChain({ id, name: alias, nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    const transport = http(url, {
      fetchFn: async (input, init) => {
        const body = JSON.parse(String(init?.body));
        methods.push(body.method);
        if (unsupported && body.method === 'eth_fillTransaction') {
          const error = { code: -32601, message: 'the method eth_fillTransaction does not exist/is not available' };
          return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, error }), { headers: { 'content-type': 'application/json' } });
        }
        return fetch(input, init);
      },
    });
    const wallet = createWalletClient({ account, chain: viemChain, transport }).extend(publicActions);
    const client = createPublicClient({ chain: viemChain, transport: http(url), cacheTime: 0 });
    return { wallet, client, methods };
  }

  it('sendTransaction, deployContract, writeContract and estimateContractGas take one eth_fillTransaction instead of four requests', async () => {
    const before = counted(true);
    const after = counted(false);
    const results: Record<string, string[][]> = {};
    for (const [label, c] of [
      ['before', before],
      ['after', after],
    ] as const) {
      const runs: string[][] = [];
      const step = async (f: () => Promise<unknown>) => {
        c.methods.length = 0;
        const out = await f();
        runs.push([...c.methods]);
        return out;
      };
      const sent = (await step(() => c.wallet.sendTransaction({ to: OTHER, value: 1n }))) as Hex;
      expect((await c.client.waitForTransactionReceipt({ hash: sent })).status).toBe('success');
      const deployed = (await step(() => c.wallet.deployContract({ abi: probeAbi, bytecode: probe.bytecode }))) as Hex;
      const address = (await c.client.waitForTransactionReceipt({ hash: deployed })).contractAddress!;
      const written = (await step(() => c.wallet.writeContract({ address, abi: probeAbi, functionName: 'store', args: [42n] }))) as Hex;
      expect((await c.client.waitForTransactionReceipt({ hash: written })).status).toBe('success');
      expect(await c.client.readContract({ address, abi: probeAbi, functionName: 'stored' })).toBe(42n);
      const gas = (await step(() => c.wallet.estimateContractGas({ account, address, abi: probeAbi, functionName: 'store', args: [7n] }))) as bigint;
      expect(gas).toBeGreaterThan(21_000n);
      results[label] = runs;
    }
    const fallback = ['eth_getTransactionCount', 'eth_getBlockByNumber', 'eth_maxPriorityFeePerGas', 'eth_estimateGas'];
    // Before: the first send asks for eth_fillTransaction and, told it is not there, falls back for good.
    expect(results.before!.map((r) => [...r].sort())).toEqual([
      ['eth_fillTransaction', ...fallback, 'eth_sendRawTransaction'].sort(),
      [...fallback, 'eth_sendRawTransaction'].sort(),
      [...fallback, 'eth_sendRawTransaction'].sort(),
      [...fallback].sort(),
    ]);
    expect(results.after).toEqual([
      ['eth_fillTransaction', 'eth_sendRawTransaction'],
      ['eth_fillTransaction', 'eth_sendRawTransaction'],
      ['eth_fillTransaction', 'eth_sendRawTransaction'],
      ['eth_fillTransaction'],
    ]);
  });
});

// eth_sendRawTransaction with bytes coreth cannot take: geth's own texts (types.Transaction's
// UnmarshalBinary and its rlp package, then the pool), not the decoder's the emulator runs on.
import { parseTransaction, serializeTransaction, type TransactionSerializableEIP1559 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, startTestNode, type TestNode } from './helpers.js';

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const MYL1 = new URL('../fixtures/myl1.json', import.meta.url).pathname;

/** Raw bytes and geth's answer, worked out from go-ethereum's rlp.Stream and the tx structs. */
const MALFORMED: Array<[string, string]> = [
  // UnmarshalBinary: a first byte under 0x80 is a type; one byte alone is too short.
  ['0x', 'typed transaction too short'],
  ['0x02', 'typed transaction too short'],
  ['0x04c0', 'transaction type not supported'],
  // Type 0 is no typed tx, even with a legacy tx's list after it.
  ['0x00c0', 'transaction type not supported'],
  ['0x00c9808080808080808080', 'transaction type not supported'],
  // A blob tx: rlp.SplitList and rlp.Split first (the network form has its blobs after the tx),
  // then the struct; one that decodes is refused by the pool, which takes no blob txs.
  ['0x03c0', 'unexpected EOF'],
  ['0x0380', 'rlp: expected List'],
  ['0x03c180', 'rlp: too few elements for types.BlobTx'],
  ['0x03c2c0c0', 'rlp: too few elements for types.BlobTx, decoding into (types.blobTxWithBlobs).BlobTx'],
  [`0x03${rlpList([`a1${'01'.repeat(33)}`])}`, 'rlp: value too large for uint256'],
  [`0x03${rlpList(Array(14).fill('80'))}`, 'rlp: input string too short for common.Address, decoding into (types.BlobTx).To'],
  [`0x03${rlpList([...Array(5).fill('80'), `94${'11'.repeat(20)}`, '80', '80', 'c0', '80', 'c0', '80', '80', '80'])}`, 'transaction type not supported'],
  ['0x7fc0', 'transaction type not supported'],
  // Not a list where the struct is.
  ['0x80', 'rlp: expected input list for types.LegacyTx'],
  ['0x0201', 'rlp: expected input list for types.DynamicFeeTx'],
  // The list ends before the struct's fields do (an unsigned tx), or goes on after them.
  ['0xc0', 'rlp: too few elements for types.LegacyTx'],
  ['0x01c0', 'rlp: too few elements for types.AccessListTx'],
  ['0xca80808080808080808080', 'rlp: input list has too many elements for types.LegacyTx'],
  // Sizes past the input or the enclosing list, trailing bytes.
  ['0xf8', 'rlp: value size exceeds available input length'],
  ['0xc98080808080808080', 'rlp: value size exceeds available input length'],
  ['0xc480940000', 'rlp: element is larger than containing list'],
  ['0xc9808080808080808080c0', 'rlp: input contains more than one value'],
  // A value's size is held against what its list had left before its header (the header counts too).
  ['0xc181', 'rlp: value size exceeds available input length'],
  [`0xc98901${'00'.repeat(8)}`, 'rlp: input string too long for uint64, decoding into (types.LegacyTx).Nonce'],
  [`0x01c9${'80'.repeat(7)}c2c0c0`, 'rlp: too few elements for types.AccessTuple, decoding into (types.AccessListTx).AccessList[0]'],
  [`0xf809${'80'.repeat(9)}`, 'rlp: non-canonical size information for types.LegacyTx'],
  // A field of the wrong kind or form, named with its Go type and place.
  ['0xc9008080808080808080', 'rlp: non-canonical integer (leading zero bytes) for uint64, decoding into (types.LegacyTx).Nonce'],
  [`0xca8105${'80'.repeat(8)}`, 'rlp: non-canonical size information for uint64, decoding into (types.LegacyTx).Nonce'],
  [`0x${rlpList([`8901${'00'.repeat(8)}`, ...Array(8).fill('80')])}`, 'rlp: input string too long for uint64, decoding into (types.LegacyTx).Nonce'],
  ['0xca80820001808080808080', 'rlp: non-canonical integer (leading zero bytes) for *big.Int, decoding into (types.LegacyTx).GasPrice'],
  ['0xc4c3808080', 'rlp: expected input string or byte for uint64, decoding into (types.LegacyTx).Nonce'],
  ['0xc9808080c08080808080', 'rlp: wrong kind of empty value (got List, want String) for *common.Address, decoding into (types.LegacyTx).To'],
  ['0xcb8080808201028080808080', 'rlp: input string too short for common.Address, decoding into (types.LegacyTx).To'],
  [
    `0x${rlpList(['80', '80', '80', `95${'11'.repeat(21)}`, '80', '80', '80', '80', '80'])}`,
    'rlp: input string too long for common.Address, decoding into (types.LegacyTx).To',
  ],
  [
    `0x02${rlpList(['80', '80', '80', '80', '80', '80', '80', '80', rlpList([rlpList([`94${'22'.repeat(20)}`, rlpList([`a0${'33'.repeat(32)}`, `9f${'44'.repeat(31)}`])])]), '80', '80', '80'])}`,
    'rlp: input string too short for common.Hash, decoding into (types.DynamicFeeTx).AccessList[0].StorageKeys[1]',
  ],
  [
    `0x01${rlpList(['80', '80', '80', '80', '80', '80', '80', rlpList([rlpList([`94${'22'.repeat(20)}`])]), '80', '80', '80'])}`,
    'rlp: too few elements for types.AccessTuple, decoding into (types.AccessListTx).AccessList[0]',
  ],
];

/** An RLP list of already-encoded items (hex without 0x), short or long form. */
function rlpList(items: string[]): string {
  const body = items.join('');
  const n = body.length / 2;
  if (n < 56) return (0xc0 + n).toString(16) + body;
  const len = n.toString(16).padStart(n.toString(16).length + (n.toString(16).length % 2), '0');
  return (0xf7 + len.length / 2).toString(16) + len + body;
}

describe('eth_sendRawTransaction: bytes geth cannot decode get its rlp errors', () => {
  let node: TestNode;
  let cUrl: string;
  let l1Url: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, l1: [MYL1] });
    cUrl = `${node.uri}/ext/bc/C/rpc`;
    l1Url = `${node.uri}/ext/bc/myl1/rpc`;
  });
  afterAll(() => node.stop());

  it.each(MALFORMED)('%s', async (raw, message) => {
    for (const url of [cUrl, l1Url]) expect(await callError(url, 'eth_sendRawTransaction', [raw])).toEqual({ code: -32000, message });
  });

  /** An EIP-1559 tx on the C-Chain from `nonce`: a transfer of 1 wei, or a creation with `data`. */
  const tx = (nonce: number, more: Partial<TransactionSerializableEIP1559> = {}): TransactionSerializableEIP1559 => ({
    type: 'eip1559',
    chainId: 43112,
    nonce,
    maxFeePerGas: 10n ** 12n,
    maxPriorityFeePerGas: 1n,
    gas: 21_000n,
    ...(more.data ? {} : { to: `0x${'11'.repeat(20)}`, value: 1n }),
    ...more,
  });

  it('an unsigned EIP-1559 tx is too few elements; an unsigned EIP-155 legacy tx decodes and has no sender', async () => {
    expect(await callError(cUrl, 'eth_sendRawTransaction', [serializeTransaction(tx(0))])).toEqual({
      code: -32000,
      message: 'rlp: too few elements for types.DynamicFeeTx',
    });
    // [nonce, gasPrice, gas, to, value, data, chainId, 0, 0]: nine fields, V the chain ID, R = S = 0.
    const legacy = serializeTransaction({ type: 'legacy', chainId: 43112, nonce: 0, gasPrice: 10n ** 11n, gas: 21_000n, to: `0x${'11'.repeat(20)}` });
    expect(await callError(cUrl, 'eth_sendRawTransaction', [legacy])).toEqual({ code: -32000, message: 'invalid sender' });
  });

  it('a signature with s above n/2 decodes and fails sender recovery in the pool', async () => {
    const signed = await privateKeyToAccount(EWOQ_KEY).signTransaction(tx(0));
    const sig = parseTransaction(signed) as TransactionSerializableEIP1559 & { r: `0x${string}`; s: `0x${string}`; yParity: number };
    const highS = serializeTransaction(sig, { r: sig.r, s: `0x${(SECP256K1_N - BigInt(sig.s)).toString(16).padStart(64, '0')}`, yParity: 1 - sig.yParity });
    expect(await callError(cUrl, 'eth_sendRawTransaction', [highS])).toEqual({ code: -32000, message: 'invalid sender' });
    // The tx as signed is taken.
    expect(await call(cUrl, 'eth_sendRawTransaction', [signed])).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("a fee over the RPC's cap of 100 AVAX is checkTxFee's error: the fee in ether as a float64, in Go's %.2f", async () => {
    // An account that holds nothing: a tx that passes the cap is then refused for its funds.
    const account = privateKeyToAccount(`0x${'42'.repeat(32)}`);
    const send = async (maxFeePerGas: bigint, gas: bigint) =>
      callError(cUrl, 'eth_sendRawTransaction', [await account.signTransaction(tx(0, { maxFeePerGas, gas }))]);
    const capped = (fee: string) => ({ code: -32000, message: `tx fee (${fee} ether) exceeds the configured cap (100.00 ether)` });
    // 100.125 ether exactly: Go rounds the tie to even (toFixed would write 100.13).
    expect(await send(4_005_000_000_000_000n, 25_000n)).toEqual(capped('100.12'));
    // Past 1e21 ether Go still writes every digit of the float64 (toFixed would write 3e+26).
    expect(await send(10n ** 40n, 30_000n)).toEqual(capped('299999999999999997114318848.00'));
    // 2,000 wei over the cap is 100.0 as a float64, not over it: the pool then looks at the funds.
    const cost = 4_761_904_761_904_762n * 21_000n + 1n;
    expect(await send(4_761_904_761_904_762n, 21_000n)).toEqual({
      code: -32000,
      message: `insufficient funds for gas * price + value: balance 0, tx cost ${cost}, overshot ${cost}`,
    });
  });

  it("initcode over EIP-3860's limit is the pool's error, raw or sent from an account", async () => {
    const account = privateKeyToAccount(EWOQ_KEY);
    const data = `0x${'00'.repeat(49_153)}` as const;
    const nonce = Number(await call(cUrl, 'eth_getTransactionCount', [account.address, 'pending']));
    // Over the block's gas limit too: the initcode check comes first, as in coreth's pool.
    const raw = await account.signTransaction(tx(nonce, { data, gas: 15_000_000n }));
    const message = 'max initcode size exceeded: code size 49153, limit 49152';
    expect(await callError(cUrl, 'eth_sendRawTransaction', [raw])).toEqual({ code: -32000, message });
    await call(cUrl, 'anvil_impersonateAccount', [account.address]);
    expect(await callError(cUrl, 'eth_sendTransaction', [{ from: account.address, data, gas: '0xe4e1c0' }])).toEqual({ code: -32000, message });
    // At the limit it is taken.
    const atLimit = await account.signTransaction(tx(nonce, { data: `0x${'00'.repeat(49_152)}`, gas: 1_000_000n }));
    expect(await call(cUrl, 'eth_sendRawTransaction', [atLimit])).toMatch(/^0x[0-9a-f]{64}$/);
  });
});

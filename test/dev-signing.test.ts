// Signing with the node's test accounts (--dev --test-accounts), through the clients that ask a node
// to sign: ethers' JsonRpcSigner and viem's wallet client with a JSON-RPC account. Each signature is
// checked by recovering its signer; the bytes match Anvil 1.7.1's for the same key and message (its
// eth_sign of 0xdeadbeef and eth_signTypedData_v4 of the Mail below, read off its binary with
// Anvil's first key, are what micro-eth-signer and viem make for that key: RFC 6979, v 27/28).
// Without --dev, coreth's answers: eth_sign is `unknown account`, eth_signTransaction checks first.
import { JsonRpcProvider, verifyMessage, verifyTypedData } from 'ethers';
import {
  bytesToHex,
  createWalletClient,
  defineChain,
  http,
  parseTransaction,
  recoverMessageAddress,
  recoverTransactionAddress,
  recoverTypedDataAddress,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src/vms/avm/index.js';
import { call, callError, startTestNode, type TestNode } from './helpers.js';

const MAIL = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Mail: [
      { name: 'contents', type: 'string' },
      { name: 'n', type: 'uint256' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'X', chainId: 43112 },
  message: { contents: 'hi', n: 5 },
} as const;

describe('signing with the test accounts (--dev)', () => {
  let node: TestNode;
  let url: string;
  let account: `0x${string}`;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 2 });
    url = `${node.uri}/ext/bc/C/rpc`;
    account = (await call(url, 'eth_accounts', []))[0];
  });
  afterAll(() => node.stop());

  it("ethers' JsonRpcSigner signs messages and typed data (eth_sign / personal_sign, eth_signTypedData_v4)", async () => {
    const provider = new JsonRpcProvider(url, 43112, { staticNetwork: true });
    const signer = await provider.getSigner(account);
    const signature = await signer.signMessage('hello');
    expect(verifyMessage('hello', signature).toLowerCase()).toBe(account);
    // ethers takes the types without the domain's, as mutable arrays.
    const types = { Mail: MAIL.types.Mail.map((f) => ({ ...f })) };
    const typed = await signer.signTypedData(MAIL.domain, types, MAIL.message);
    expect(verifyTypedData(MAIL.domain, types, MAIL.message, typed).toLowerCase()).toBe(account);
    // eth_sign and personal_sign sign the same EIP-191 message.
    expect(await call(url, 'eth_sign', [account, '0xdeadbeef'])).toBe(await call(url, 'personal_sign', ['0xdeadbeef', account]));
    provider.destroy();
  });

  it("viem's wallet client with a JSON-RPC account signs messages, typed data and txs", async () => {
    const chain = defineChain({ id: 43112, name: 'C', nativeCurrency: { name: 'AVAX', symbol: 'AVAX', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    const wallet = createWalletClient({ account, chain, transport: http(url), cacheTime: 0 });
    const signature = await wallet.signMessage({ message: 'hello' });
    expect((await recoverMessageAddress({ message: 'hello', signature })).toLowerCase()).toBe(account);
    const mail = { ...MAIL, domain: { name: 'X', chainId: 43112n }, message: { contents: 'hi', n: 5n } };
    const typed = await wallet.signTypedData(mail);
    expect((await recoverTypedDataAddress({ ...mail, signature: typed })).toLowerCase()).toBe(account);
    const raw = await call(url, 'eth_signTransaction', [{ from: account, to: `0x${'0b'.repeat(20)}`, value: '0x1' }]);
    const tx = parseTransaction(raw);
    expect([tx.chainId, tx.value, tx.nonce, tx.gas]).toEqual([43112, 1n, 0, 21000n]);
    expect((await recoverTransactionAddress({ serializedTransaction: raw })).toLowerCase()).toBe(account);
    // Without `from`, Anvil signs for its first account.
    const second = await call(url, 'eth_signTransaction', [{ to: `0x${'0b'.repeat(20)}`, value: '0x2' }]);
    expect((await recoverTransactionAddress({ serializedTransaction: second })).toLowerCase()).toBe(account);
    // Signed, not sent: the nonce is still free.
    expect(await call(url, 'eth_getTransactionCount', [account, 'pending'])).toBe('0x0');
  });

  it("signs txs as geth's and Anvil's signers do (RFC 6979, no added entropy): viem's bytes for the key, every time", async () => {
    const signer = privateKeyToAccount(bytesToHex(testAccounts(1)[0]!.privateKey));
    expect(signer.address.toLowerCase()).toBe(account);
    const to = `0x${'0c'.repeat(20)}` as const;
    const fields = { to, value: 3n, gas: 21_000n, nonce: 7, chainId: 43112 };
    const asked = { from: account, to, value: '0x3', gas: '0x5208', nonce: '0x7' };
    const fees = { maxFeePerGas: '0x6fc23ac00', maxPriorityFeePerGas: '0x1' };
    const raw = await call(url, 'eth_signTransaction', [{ ...asked, ...fees }]);
    expect(await call(url, 'eth_signTransaction', [{ ...asked, ...fees }])).toBe(raw);
    expect(await signer.signTransaction({ ...fields, maxFeePerGas: 30_000_000_000n, maxPriorityFeePerGas: 1n, type: 'eip1559' })).toBe(raw);
    const legacy = await call(url, 'eth_signTransaction', [{ ...asked, gasPrice: '0x6fc23ac00' }]);
    expect(await signer.signTransaction({ ...fields, gasPrice: 30_000_000_000n, type: 'legacy' })).toBe(legacy);
    const accessList = [{ address: to, storageKeys: [`0x${'01'.repeat(32)}`] }] as const;
    const listed = await call(url, 'eth_signTransaction', [{ ...asked, gasPrice: '0x6fc23ac00', accessList }]);
    expect(await signer.signTransaction({ ...fields, gasPrice: 30_000_000_000n, accessList, type: 'eip2930' })).toBe(listed);
  });

  it("an address without a key: coreth's text for its methods, Anvil's for its own", async () => {
    const stranger = `0x${'01'.repeat(20)}`;
    expect(await callError(url, 'eth_sign', [stranger, '0xdeadbeef'])).toEqual({ code: -32000, message: 'unknown account' });
    expect(await callError(url, 'personal_sign', ['0xdeadbeef', stranger])).toEqual({ code: -32602, message: 'No Signer available' });
    expect(await callError(url, 'eth_signTypedData_v4', [stranger, MAIL])).toEqual({ code: -32602, message: 'No Signer available' });
    expect(await callError(url, 'eth_signTransaction', [{ from: stranger, to: stranger }])).toEqual({ code: -32602, message: 'No Signer available' });
  });
});

describe('signing without --dev: coreth has no keys', () => {
  let node: TestNode;
  let url: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb' });
    url = `${node.uri}/ext/bc/C/rpc`;
  });
  afterAll(() => node.stop());

  it("eth_sign is unknown account; eth_signTransaction checks as geth's SignTransaction first", async () => {
    const from = `0x${'01'.repeat(20)}`;
    const to = `0x${'0b'.repeat(20)}`;
    expect(await callError(url, 'eth_sign', [from, '0xdeadbeef'])).toEqual({ code: -32000, message: 'unknown account' });
    expect(await callError(url, 'eth_signTransaction', [{ from, to }])).toEqual({ code: -32000, message: 'gas not specified' });
    expect(await callError(url, 'eth_signTransaction', [{ from, to, gas: '0x5208' }])).toEqual({
      code: -32000,
      message: 'missing gasPrice or maxFeePerGas/maxPriorityFeePerGas',
    });
    expect(await callError(url, 'eth_signTransaction', [{ from, to, gas: '0x5208', gasPrice: '0x1' }])).toEqual({
      code: -32000,
      message: 'nonce not specified',
    });
    // checkTxFee after the defaults: 21,000 gas at 10^16 wei is 210 AVAX, over RPCTxFeeCap's 100.
    expect(await callError(url, 'eth_signTransaction', [{ from, to, gas: '0x5208', gasPrice: '0x2386f26fc10000', nonce: '0x0' }])).toEqual({
      code: -32000,
      message: 'tx fee (210.00 ether) exceeds the configured cap (100.00 ether)',
    });
    expect(await callError(url, 'eth_signTransaction', [{ from, to, gas: '0x5208', gasPrice: '0x1', nonce: '0x0' }])).toEqual({
      code: -32000,
      message: 'unknown account',
    });
    expect((await callError(url, 'personal_sign', ['0xdeadbeef', from])).code).toBe(-32601);
  });
});

describe('signing with --dev and no test accounts', () => {
  let node: TestNode;
  let url: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 0 });
    url = `${node.uri}/ext/bc/C/rpc`;
  });
  afterAll(() => node.stop());

  it("eth_signTransaction without `from` is Anvil's No Signer available, not an internal error", async () => {
    expect(await callError(url, 'eth_signTransaction', [{ to: `0x${'0b'.repeat(20)}` }])).toEqual({ code: -32602, message: 'No Signer available' });
    expect(await callError(url, 'eth_sendUnsignedTransaction', [{ to: `0x${'0b'.repeat(20)}` }])).toEqual({ code: -32602, message: 'No Signer available' });
  });
});

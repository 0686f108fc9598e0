// A test suite that reverts to its fixture sends the same signed txs again: the nonce is the
// fixture's and signatures are deterministic, so the bytes (and the hash) are the same. The pool
// keeps the senders it recovered by tx hash (RecoveredSenders); these checks hold whether a sender
// is recovered or kept: a tx sent again is its signer's, another signer's tx with the same fields
// is that signer's, and a tx whose signature was altered is refused as geth refuses it.
import { parseEther, parseTransaction, serializeTransaction } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, startTestNode, type TestNode } from './helpers.js';
import { EWOQ } from './support/states.js';

const OTHER = '0x0d1a3b5f16b43ae05d0a4ba3ad3e8cde8c5fe5fc2b0a3f8e53a0f8e8f3f6a1b2';
const TO = '0x5555555555555555555555555555555555555555';

describe('a signed tx sent again after evm_revert', () => {
  let node: TestNode;
  let url: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1 });
    url = `${node.uri}/ext/bc/C/rpc`;
  });
  afterAll(() => node.stop());

  async function signed(key: `0x${string}`, nonce: number) {
    const gasPrice = BigInt(await call(url, 'eth_gasPrice', []));
    return privateKeyToAccount(key).signTransaction({
      chainId: 43112,
      type: 'eip1559',
      nonce,
      to: TO,
      value: parseEther('0.001'),
      gas: 21000n,
      maxFeePerGas: gasPrice * 4n,
      maxPriorityFeePerGas: gasPrice,
    });
  }

  async function mined(raw: string) {
    const hash = (await call(url, 'eth_sendRawTransaction', [raw])) as string;
    for (;;) {
      const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
      if (receipt) return receipt as { from: string; status: string; transactionHash: string };
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  it('is mined from its signer each time; another signer and an altered signature are told apart', async () => {
    const ewoq = privateKeyToAccount(EWOQ).address.toLowerCase();
    const other = privateKeyToAccount(OTHER).address.toLowerCase();
    await call(url, 'anvil_setBalance', [other, '0xde0b6b3a7640000']);
    const nonce = Number(await call(url, 'eth_getTransactionCount', [ewoq, 'latest']));
    const raw = await signed(EWOQ, nonce);
    for (let round = 0; round < 3; round++) {
      const snapshot = await call(url, 'evm_snapshot', []);
      const receipt = await mined(raw);
      expect(receipt.from).toBe(ewoq);
      expect(receipt.status).toBe('0x1');
      expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
    }
    // The same fields signed by another key: another hash, its own sender.
    const otherNonce = Number(await call(url, 'eth_getTransactionCount', [other, 'latest']));
    const otherRaw = await signed(OTHER, otherNonce);
    expect((await mined(otherRaw)).from).toBe(other);
    // The first tx with s changed: other bytes, so recovered again, and it names nobody funded
    // (or no one at all): never the sender kept for the original.
    const { r, s, yParity, ...fields } = parseTransaction(raw as `0x${string}`);
    const altered = serializeTransaction(fields as Parameters<typeof serializeTransaction>[0], {
      r: r!,
      s: `0x${(BigInt(s!) - 1n).toString(16).padStart(64, '0')}`,
      yParity: yParity!,
    });
    const refused = await callError(url, 'eth_sendRawTransaction', [altered]);
    expect(refused.message).toMatch(/^(insufficient funds|invalid sender)/);
    // And the original still goes through as its signer's.
    expect((await mined(raw)).from).toBe(ewoq);
  });
});

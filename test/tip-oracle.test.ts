// The suggested tip (coreth's oracle: the 40th percentile of the effective tips of the last 40
// blocks, none older than 80 s) follows the head's own ancestors. The oracle keeps what it read of
// each block by the block's hash and walks the window by parent hash, so after a revert to a
// snapshot the blocks of the branch the revert left are no longer in it, and the blocks built after
// the revert, at the same heights, are.
import { createWalletClient, type Hex, http, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startTestNode, type TestNode } from './helpers.js';

const EWOQ_KEY = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';

describe('the suggested tip across a revert', () => {
  let node: TestNode;
  let url: string;
  const rpc = async (method: string, params: unknown[] = []) => {
    const { json } = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
    if (json.error) throw new Error(`${method}: ${json.error.message}`);
    return json.result;
  };
  /** One transfer in a block of its own with this tip (the fee cap well above base fee + tip). */
  const mineWithTip = async (tip: bigint) => {
    const ewoq = privateKeyToAccount(EWOQ_KEY);
    const wallet = createWalletClient({ transport: http(url), account: ewoq });
    const hash = await wallet.sendTransaction({
      to: '0x4444444444444444444444444444444444444444',
      value: 1n,
      chain: null,
      maxPriorityFeePerGas: tip,
      maxFeePerGas: parseGwei('500'),
    });
    for (;;) {
      if (await rpc('eth_getTransactionReceipt', [hash])) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const tipNow = async () => BigInt((await rpc('eth_maxPriorityFeePerGas')) as Hex);

  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    url = `${node.uri}/ext/bc/C/rpc`;
  });
  afterAll(() => node.stop());

  it("reads the tips of the head's branch only", async () => {
    // No tx in the window yet: the oracle's floor, 1 wei.
    expect(await tipNow()).toBe(1n);
    const id = await rpc('evm_snapshot');
    for (let i = 0; i < 3; i++) await mineWithTip(parseGwei('50'));
    expect(await tipNow()).toBe(parseGwei('50'));
    expect(await rpc('evm_revert', [id])).toBe(true);
    // The head is the snapshot's again: the 50 gwei blocks went with the revert. The oracle answers
    // the last tip it suggested when its window holds no tx, as coreth's does.
    expect(await tipNow()).toBe(parseGwei('50'));
    for (let i = 0; i < 2; i++) await mineWithTip(parseGwei('7'));
    // Two blocks of 7 gwei at the heights the reverted ones had: none of the 50 gwei tips remain.
    expect(await tipNow()).toBe(parseGwei('7'));
    await mineWithTip(parseGwei('60'));
    // [7, 7, 60] gwei: the 40th percentile is the second.
    expect(await tipNow()).toBe(parseGwei('7'));
  });
});

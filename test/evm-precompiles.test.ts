// Ethereum's precompiles on the C-Chain as coreth runs them. Point evaluation (0x0a, EIP-4844) is
// active since Cancun: with too little gas it runs out of gas, a valid proof returns
// FIELD_ELEMENTS_PER_BLOB and the BLS modulus, and bad input fails with geth's texts. Before the
// engine had a KZG, a transfer to 0x0a threw out of @ethereumjs's EVM, left a checkpoint open, and
// the block's state never reached the store: every read after it answered 500.
import { sha256 } from '@noble/hashes/sha2.js';
import { type Hex, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startTestNode, type TestNode } from './helpers.js';

const ewoq = privateKeyToAccount('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const POINT_EVALUATION = '0x000000000000000000000000000000000000000a';
/** FIELD_ELEMENTS_PER_BLOB (4096) and the BLS12-381 scalar field modulus, as the precompile returns them. */
const EVALUATION_RESULT = `0x${(4096).toString(16).padStart(64, '0')}73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001`;

/** A KZG commitment or proof: the point at infinity (compressed), which commits to the zero polynomial. */
const INFINITY = `c0${'00'.repeat(47)}`;
const versionedHash = (commitment: string) => {
  const h = sha256(Buffer.from(commitment, 'hex'));
  h[0] = 1;
  return Buffer.from(h).toString('hex');
};
/** versioned hash ‖ z ‖ y ‖ commitment ‖ proof: the zero polynomial is 0 at z = 0, and y says `y`. */
const evaluation = (y: number, hash = versionedHash(INFINITY)): Hex => `0x${hash}${'00'.repeat(32)}${y.toString(16).padStart(64, '0')}${INFINITY}${INFINITY}`;

async function eth(node: TestNode, method: string, params: unknown[] = []) {
  return (await post(`${node.uri}/ext/bc/C/rpc`, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).json;
}

describe("Ethereum's precompiles on the C-Chain", () => {
  let node: TestNode;
  let nonce = 0;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb' });
  });
  afterAll(() => node.stop());

  async function send(to: Hex, gas: bigint, data: Hex = '0x') {
    const raw = await ewoq.signTransaction({
      chainId: 43112,
      nonce: nonce++,
      to,
      value: 1n,
      data,
      gas,
      maxFeePerGas: 300_000_000_000n,
      maxPriorityFeePerGas: 1n,
    });
    const sent = await eth(node, 'eth_sendRawTransaction', [raw]);
    expect(sent.error).toBeUndefined();
    const receipt = (await eth(node, 'eth_getTransactionReceipt', [sent.result])).result;
    expect(receipt).not.toBeNull();
    return receipt;
  }

  it('mines a value transfer to each of 0x01-0x0a as geth does (out of gas at 21,000 gas), and the chain serves reads after them', async () => {
    for (let i = 1; i <= 10; i++) {
      const receipt = await send(toHex(i, { size: 20 }), 21_000n);
      expect(receipt.status, `to 0x${i.toString(16)}`).toBe('0x0');
      expect(receipt.gasUsed).toBe('0x5208');
    }
    // With gas enough, bad input to 0x0a fails the call and takes all the gas.
    const receipt = await send(POINT_EVALUATION, 100_000n);
    expect(receipt.status).toBe('0x0');
    expect(BigInt(receipt.gasUsed)).toBe(100_000n);
    expect(await eth(node, 'eth_getBalance', [POINT_EVALUATION, 'latest'])).toMatchObject({ result: '0x0' });
    expect(await eth(node, 'eth_getTransactionCount', [ewoq.address, 'latest'])).toMatchObject({ result: toHex(nonce) });
    expect(await eth(node, 'eth_blockNumber')).toMatchObject({ result: toHex(nonce) });
    // A later tx still runs on the state the failed ones left.
    expect((await send('0x1111111111111111111111111111111111111111', 21_000n)).status).toBe('0x1');
  });

  it('verifies a KZG point evaluation, and refuses bad input with geth texts', async () => {
    expect(await eth(node, 'eth_call', [{ to: POINT_EVALUATION, data: evaluation(0) }, 'latest'])).toMatchObject({ result: EVALUATION_RESULT });
    const failure = async (data: Hex) => (await eth(node, 'eth_call', [{ to: POINT_EVALUATION, data }, 'latest'])).error;
    expect(await failure('0x00')).toEqual({ code: -32000, message: 'invalid input length' });
    expect(await failure(evaluation(0, '01'.repeat(32)))).toEqual({ code: -32000, message: 'mismatched versioned hash' });
    expect(await failure(evaluation(1))).toEqual({ code: -32000, message: "error verifying kzg proof: can't verify opening proof" });
    // 21,000 + calldata + the precompile's 50,000.
    const gas = BigInt((await eth(node, 'eth_estimateGas', [{ to: POINT_EVALUATION, data: evaluation(0) }])).result);
    expect(gas).toBeGreaterThan(71_000n);
    expect((await send(POINT_EVALUATION, gas, evaluation(0))).status).toBe('0x1');
  });
});

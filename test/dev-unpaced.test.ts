// Issue 27: with --dev the C-Chain is not paced by ACP-176's capacity. A block short of capacity is
// built at once, at a time just late enough for the capacity to have refilled (time travel, as
// Anvil's automine gives each tx its block at once), so every header stays valid by coreth's rules:
// its hash, its fee state (extraData) advanced from the parent's to its own millisecond time, its
// base fee and gas limit, gasUsed within the capacity, and coreth's build floor met. Without --dev
// the builder still waits for the capacity to refill, in real time.
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeGas, feeStateBytes, parseFeeState } from '../src/vms/evm/acp176.js';
import { blockFees, canBuild } from '../src/vms/evm/fees.js';
import type { CorethHeader } from '../src/vms/evm/header.js';
import { chainCommon } from '../src/vms/evm/rules.js';
import { post, startTestNode, type TestNode } from './helpers.js';
import { corethHeaderHash } from './support/headers.js';

const EWOQ_KEY = Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex');
const EWOQ = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';
const common = chainCommon(43112n);
/** 60,000 bytes of non-zero calldata: 981,000 gas, so the third block in a row leaves capacity under coreth's 8M build floor. */
const HEAVY_GAS = 21_000n + 60_000n * 16n;

async function eth(uri: string, method: string, params: unknown[] = []): Promise<any> {
  const r = await post(`${uri}/ext/bc/C/rpc`, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  if (r.json.error) throw new Error(`${method}: ${r.json.error.message}`);
  return r.json.result;
}

const heavy = (nonce: bigint) =>
  `0x${Buffer.from(
    createFeeMarket1559Tx(
      {
        nonce,
        to: new Address(Buffer.from(EWOQ.slice(2), 'hex')),
        gasLimit: 1_000_000n,
        data: new Uint8Array(60_000).fill(0xff),
        maxFeePerGas: 10n ** 12n,
        maxPriorityFeePerGas: 1n,
      },
      { common },
    )
      .sign(EWOQ_KEY)
      .serialize(),
  ).toString('hex')}`;

/** Sends `count` heavy txs one after another, each once the one before is mined; their receipts. */
async function sendSequentially(uri: string, count: number): Promise<any[]> {
  let nonce = BigInt(await eth(uri, 'eth_getTransactionCount', [EWOQ, 'latest']));
  const receipts: any[] = [];
  for (let i = 0; i < count; i++) {
    const hash = await eth(uri, 'eth_sendRawTransaction', [heavy(nonce++)]);
    let receipt = await eth(uri, 'eth_getTransactionReceipt', [hash]);
    for (let tries = 0; !receipt && tries < 200; tries++) {
      await new Promise((r) => setTimeout(r, 50));
      receipt = await eth(uri, 'eth_getTransactionReceipt', [hash]);
    }
    expect(receipt?.status, `tx ${i} mined`).toBe('0x1');
    receipts.push(receipt);
  }
  return receipts;
}

const x = (h: string) => Buffer.from(h.slice(2), 'hex');
const rehash = corethHeaderHash;

/** What the ACP-176 rules read of a header. */
const feeHeader = (b: any): CorethHeader =>
  ({
    number: BigInt(b.number),
    extra: new Uint8Array(x(b.extraData)),
    time: BigInt(b.timestamp),
    timeMilliseconds: BigInt(b.timestampMilliseconds),
  }) as unknown as CorethHeader;

/**
 * Checks `b` against its parent as coreth verifies a block and its builder builds one: the hash, the
 * time (never before the parent's; seconds = milliseconds / 1000), the fee state advanced to the
 * block's time then consumed by its gas, the base fee and gas limit of that state, gasUsed within
 * the capacity, and the build floor (miner/worker.go). Returns the capacity before the block.
 */
function checkBlock(b: any, parent: any): bigint {
  expect(rehash(b)).toBe(b.hash);
  expect(b.parentHash).toBe(parent.hash);
  const ms = BigInt(b.timestampMilliseconds);
  expect(ms).toBeGreaterThanOrEqual(BigInt(parent.timestampMilliseconds));
  expect(BigInt(b.timestamp)).toBe(ms / 1000n);
  const fees = blockFees(feeHeader(parent), ms);
  expect(BigInt(b.baseFeePerGas)).toBe(fees.baseFee);
  expect(BigInt(b.gasLimit)).toBe(fees.gasLimit);
  expect(BigInt(b.gasUsed)).toBeLessThanOrEqual(fees.state.capacity);
  expect(canBuild(fees)).toBe(true);
  const after = consumeGas(fees.state, BigInt(b.gasUsed), BigInt(b.extDataGasUsed));
  expect(parseFeeState(x(b.extraData))).toEqual(after);
  expect(Buffer.from(x(b.extraData).subarray(0, 24)).equals(Buffer.from(feeStateBytes(after)))).toBe(true);
  return fees.state.capacity;
}

async function blocks(uri: string, from: number, to: number): Promise<any[]> {
  const out: any[] = [];
  for (let n = from; n <= to; n++) out.push(await eth(uri, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false]));
  return out;
}

describe('--dev: the C-Chain is not paced by ACP-176', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
  });
  afterAll(() => node.stop());

  it('50 sequential sends of 981,000 gas are each mined at once in their own valid block, the block time running ahead of the clock', async () => {
    const start = Number(await eth(node.uri, 'eth_blockNumber'));
    const started = Date.now();
    const receipts = await sendSequentially(node.uri, 50);
    const elapsedMs = Date.now() - started;
    // Each tx in its own block, one after the other.
    expect(receipts.map((r) => Number(r.blockNumber))).toEqual(Array.from({ length: 50 }, (_, i) => start + 1 + i));
    expect(receipts.every((r) => BigInt(r.gasUsed) === HEAVY_GAS)).toBe(true);
    const chain = await blocks(node.uri, start, start + 50);
    let short = 0;
    for (let i = 1; i < chain.length; i++) {
      const capacity = checkBlock(chain[i], chain[i - 1]);
      // Right at the floor: the block was built as soon as the capacity had refilled to it.
      if (capacity < 8_000_000n + HEAVY_GAS) short++;
    }
    // Past the first few blocks, every block needed the capacity to refill (981,000 gas at 2,000 gas/ms:
    // 490 ms each): paced, these 50 would take over 20 s; their block time says so, the clock does not.
    expect(short).toBeGreaterThan(40);
    const chainMs = Number(BigInt(chain[50].timestampMilliseconds) - BigInt(chain[0].timestampMilliseconds));
    expect(chainMs).toBeGreaterThan(20_000);
    expect(elapsedMs).toBeLessThan(chainMs);
    expect(BigInt(chain[50].timestamp)).toBeGreaterThan(BigInt(Math.floor(Date.now() / 1000)));
  }, 120_000);

  it('evm_setNextBlockTimestamp keeps its time when the capacity is short: the build floor is waived, not the capacity', async () => {
    const head = await eth(node.uri, 'eth_getBlockByNumber', ['latest', false]);
    // The head's own second: no time for the capacity to refill (the last test left it under the floor).
    expect(await eth(node.uri, 'evm_setNextBlockTimestamp', [head.timestamp])).toBeNull();
    const [receipt] = await sendSequentially(node.uri, 1);
    const block = await eth(node.uri, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
    expect(block.timestamp).toBe(head.timestamp);
    expect(block.timestampMilliseconds).toBe(head.timestampMilliseconds);
    const fees = blockFees(feeHeader(head), BigInt(block.timestampMilliseconds));
    expect(canBuild(fees)).toBe(false);
    expect(BigInt(block.gasUsed)).toBeLessThanOrEqual(fees.state.capacity);
    expect(rehash(block)).toBe(block.hash);
    // The next block travels again: valid, at the floor.
    const [next] = await sendSequentially(node.uri, 1);
    const after = await eth(node.uri, 'eth_getBlockByNumber', [next.blockNumber, false]);
    checkBlock(after, block);
  }, 60_000);
});

describe('without --dev: ACP-176 paces the C-Chain as on a real node', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb' });
  });
  afterAll(() => node.stop());

  it('a block short of the build floor waits for the capacity to refill in real time, its time never ahead of the clock', async () => {
    const start = Number(await eth(node.uri, 'eth_blockNumber'));
    const started = Date.now();
    const receipts = await sendSequentially(node.uri, 6);
    const elapsedMs = Date.now() - started;
    const chain = await blocks(node.uri, start, Number(receipts[5].blockNumber));
    expect(chain.length).toBe(7);
    for (let i = 1; i < chain.length; i++) checkBlock(chain[i], chain[i - 1]);
    // Block 1 starts from a full 10M; the sixth needs 8M after five blocks of 981,000 gas: 2,905,000
    // gas refilled at 2,000 gas/ms, so at least 1,452 ms of block time, which the clock had to pass.
    const ms = (b: any) => Number(BigInt(b.timestampMilliseconds));
    expect(ms(chain[6]) - ms(chain[1])).toBeGreaterThanOrEqual(1_452);
    expect(ms(chain[6])).toBeLessThanOrEqual(Date.now());
    expect(elapsedMs).toBeGreaterThanOrEqual(1_452);
  }, 60_000);
});

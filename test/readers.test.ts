// Reads of past state side by side on LevelDB (src/vms/evm/readers.ts): there a read waits on the
// store's I/O, so several reader VMs serve reads at once, each set to the root of the block it
// reads. Many reads at once, each at another block, while blocks are being built and the node
// reverts, must each answer its own block's state.
import { privateKeyToAccount } from 'viem/accounts';
import { parseGwei } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, startTestNode, type TestNode } from './helpers.js';

const ewoq = privateKeyToAccount('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const SINK = '0x00000000000000000000000000000000000c0ffe';
const BLOCKS = 12;

let node: TestNode;
let C: string;
/** The block each transfer to the sink was mined in, in order (the k-th leaves k+1 wei there). */
const mined: bigint[] = [];
const qty = (n: bigint) => `0x${n.toString(16)}`;

async function transfer(nonce: number): Promise<bigint> {
  const raw = await ewoq.signTransaction({ type: 'legacy', chainId: 43112, nonce, gas: 21_000n, gasPrice: parseGwei('100'), to: SINK, value: 1n });
  const receipt = await call(C, 'eth_getTransactionReceipt', [await call(C, 'eth_sendRawTransaction', [raw])]);
  expect(receipt.status).toBe('0x1');
  return BigInt(receipt.blockNumber);
}

/** The sink's balance and ewoq's nonce as block `n` left them. */
function expected(n: bigint): { balance: string; nonce: string } {
  const transfers = mined.filter((b) => b <= n).length;
  return { balance: qty(BigInt(transfers)), nonce: qty(BigInt(transfers) + ewoqNonceBefore) };
}
let ewoqNonceBefore = 0n;

beforeAll(async () => {
  node = await startTestNode({ dbType: 'leveldb', dev: true });
  C = `${node.uri}/ext/bc/C/rpc`;
  ewoqNonceBefore = BigInt(await call(C, 'eth_getTransactionCount', [ewoq.address, 'latest']));
  for (let i = 0; i < BLOCKS; i++) mined.push(await transfer(Number(ewoqNonceBefore) + i));
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

/** 48 reads at once, each at a block of the history, checked against what that block holds. */
async function readAll(): Promise<void> {
  const reads = Array.from({ length: 48 }, (_, i) => mined[i % BLOCKS]! - BigInt(i % 2));
  const answers = await Promise.all(
    reads.map(async (n) => ({
      n,
      balance: await call(C, 'eth_getBalance', [SINK, qty(n)]),
      nonce: await call(C, 'eth_getTransactionCount', [ewoq.address, qty(n)]),
      called: await call(C, 'eth_call', [{ from: ewoq.address, to: SINK, value: '0x0' }, qty(n)]),
    })),
  );
  for (const { n, balance, nonce, called } of answers) {
    expect({ n, balance, nonce }).toEqual({ n, ...expected(n) });
    expect(called).toBe('0x');
  }
}

it('answers many reads at once, each at its own block', async () => {
  await readAll();
});

it('keeps each read at its block while blocks are built and the node reverts', async () => {
  const snapshot = await call(C, 'evm_snapshot');
  const nonce = Number(ewoqNonceBefore) + BLOCKS;
  const building = (async () => {
    for (let i = 0; i < 4; i++) await transfer(nonce + i);
  })();
  await Promise.all([readAll(), building]);
  const head = BigInt(await call(C, 'eth_blockNumber'));
  expect(head).toBe(mined.at(-1)! + 4n);
  // The revert drops the four blocks while reads of the history are under way.
  const during = readAll();
  expect(await call(C, 'evm_revert', [snapshot])).toBe(true);
  await during;
  expect(BigInt(await call(C, 'eth_blockNumber'))).toBe(mined.at(-1)!);
  expect(await call(C, 'eth_getBalance', [SINK, 'latest'])).toBe(qty(BigInt(BLOCKS)));
  await readAll();
}, 60_000);

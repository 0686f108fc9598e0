// A fork whose upstream fails while a block is built. Emptying a slot merges its branch into the
// slot's sibling, a node only the upstream has, and the fork asks for it when the block's writes
// reach the storage trie (the flush that closes the block's checkpoint). With the upstream failing
// there, the round fails and is tried again: the node answers meanwhile, the tx stays pending, and
// once the upstream is back the block is built with the upstream's state root. (@ethereumjs's
// storage write swallowed that failure, and the round never ended: every read after it waited.)
// A dev edit that fails so is refused and leaves nothing behind.
import { createHash } from 'node:crypto';
import { type Hex, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.js';
import { rpc, startTestNode, tempDir, type TestNode } from './helpers.js';
import { until } from './support/evm.js';
import { rpcProxy, type RpcProxy } from './support/rpcproxy.js';

// The node's deterministic --test-accounts (vms/avm/testaccounts.ts).
const key = `0x${createHash('sha256').update('avalanche-emulator test account 0').digest('hex')}` as Hex;
const sender = privateKeyToAccount(key);
// Constructor: sstore(1, 1), sstore(2, 2) (two leaves under the root branch); runtime: sstore(1, 0).
const TWO_SLOTS_INIT: Hex = '0x600160015560026002556006601660003960066000f3600060015500';
// Constructor: sstore(1, 1), sstore(2, 3) (slot 2's leaf is not TWO_SLOTS's, which the first test
// fetched); runtime: sstore(3, sload(1)).
const COPY_SLOT_INIT: Hex = '0x600160015560036002556007601660003960076000f360015460035500';
const C = (uri: string) => `${uri}/ext/bc/C/rpc`;

async function call<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const { json } = await rpc(url, method, params);
  if (json.error) throw new Error(`${method}: ${json.error.message}`);
  return json.result as T;
}

/** A legacy tx (a fixed gas price: the same fee on any chain), signed once to be sent to both chains. */
async function signed(chainId: number, nonce: number, to: Hex | undefined, data: Hex, value = 0n): Promise<Hex> {
  return sender.signTransaction({ type: 'legacy', chainId, nonce, gas: 300_000n, gasPrice: parseGwei('100'), ...(to ? { to } : {}), data, value });
}

async function receiptOf(url: string, raw: Hex): Promise<any> {
  const hash = await call<Hex>(url, 'eth_sendRawTransaction', [raw]);
  return call(url, 'eth_getTransactionReceipt', [hash]);
}

describe('a fork whose upstream fails while a block is built', () => {
  let upstream: TestNode;
  let proxy: RpcProxy;
  let fork: Awaited<ReturnType<typeof startEmulator>>;
  let U: string;
  let F: string;
  /** While set, every call the fork makes upstream is answered with an error. */
  let failing = false;
  let chainId: number;
  let twoSlots: Hex;
  let copySlot: Hex;

  beforeAll(async () => {
    upstream = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1 });
    U = C(upstream.uri);
    chainId = Number(await call(U, 'eth_chainId'));
    twoSlots = (await receiptOf(U, await signed(chainId, 0, undefined, TWO_SLOTS_INIT))).contractAddress;
    copySlot = (await receiptOf(U, await signed(chainId, 1, undefined, COPY_SLOT_INIT))).contractAddress;
    proxy = await rpcProxy(U, {
      request: (calls) => (failing ? calls.map((c) => ({ ...c, method: 'test_upstreamDown' })) : calls),
    });
    fork = await startEmulator({
      httpPort: 0,
      logLevel: 'off',
      dataDir: tempDir('fork-failed-'),
      dbType: 'memdb',
      dev: true,
      forkUrl: proxy.url,
      forkRetries: 0,
      forkRetryBackoff: 10,
    });
    F = C(fork.uri);
  }, 60_000);

  afterAll(async () => {
    await fork?.stop().catch(() => undefined);
    proxy?.close();
    await upstream?.stop().catch(() => undefined);
  });

  it('answers while the round fails, keeps the tx, and builds it with the upstream state root once the upstream is back', async () => {
    // What the block will need besides the sibling is fetched first: the sender, the coinbase, the
    // contract's code and the path to slot 1.
    const warm = await signed(chainId, 2, sender.address, '0x', 1n);
    expect((await receiptOf(F, warm)).status).toBe('0x1');
    expect((await receiptOf(U, warm)).status).toBe('0x1');
    expect(await call(F, 'eth_getCode', [twoSlots, 'latest'])).toBe('0x600060015500');
    expect(BigInt(await call(F, 'eth_getStorageAt', [twoSlots, '0x1', 'latest']))).toBe(1n);
    const head = BigInt(await call(F, 'eth_blockNumber'));

    failing = true;
    const empty = await signed(chainId, 3, twoSlots, '0x');
    const hash = await call<Hex>(F, 'eth_sendRawTransaction', [empty]);
    // Reads wait for the round, which fails: they answer with the head it leaves, not a hang. (A
    // receipt the fork does not have is asked of the upstream, which fails.)
    expect(BigInt(await call(F, 'eth_blockNumber'))).toBe(head);
    expect(BigInt(await call(F, 'eth_getStorageAt', [twoSlots, '0x1', 'latest']))).toBe(1n);
    expect(Number(await call(F, 'eth_getTransactionCount', [sender.address, 'pending']))).toBe(4);
    expect(Number(await call(F, 'eth_getTransactionCount', [sender.address, 'latest']))).toBe(3);

    failing = false;
    // The round is tried again a second after it failed.
    const receipt = await until(
      () => call(F, 'eth_getTransactionReceipt', [hash]),
      (r) => r !== null,
    );
    expect(receipt?.status).toBe('0x1');
    expect(BigInt(receipt.blockNumber)).toBe(head + 1n);
    const theirs = await receiptOf(U, empty);
    const [mine, upstreamBlock] = await Promise.all([
      call(F, 'eth_getBlockByNumber', [receipt.blockNumber, false]),
      call(U, 'eth_getBlockByNumber', [theirs.blockNumber, false]),
    ]);
    expect(mine.stateRoot).toBe(upstreamBlock.stateRoot);
    expect(BigInt(await call(F, 'eth_getStorageAt', [twoSlots, '0x1', 'latest']))).toBe(0n);
    expect(BigInt(await call(F, 'eth_getStorageAt', [twoSlots, '0x2', 'latest']))).toBe(2n);
  }, 60_000);

  it('refuses a dev edit that needs the failing upstream, and builds the next block as the upstream does', async () => {
    // The edit empties slot 1, which merges its branch into slot 2's leaf: a node only the upstream has.
    expect(BigInt(await call(F, 'eth_getStorageAt', [copySlot, '0x1', 'latest']))).toBe(1n);
    expect(await call(F, 'eth_getCode', [copySlot, 'latest'])).toBe('0x60015460035500');
    failing = true;
    const { json } = await rpc(F, 'anvil_setStorageAt', [copySlot, '0x1', `0x${'0'.repeat(64)}`]);
    expect(json.error?.message).toMatch(/fork upstream .*eth_getProof failed/);
    failing = false;
    // The edit left nothing behind: the slot is still 1, and a block writing the contract's storage
    // is built (its storage trie's lock was kept by the failed write: the block waited for good).
    expect(BigInt(await call(F, 'eth_getStorageAt', [copySlot, '0x1', 'latest']))).toBe(1n);
    const copy = await signed(chainId, 4, copySlot, '0x');
    const [mine, theirs] = [await receiptOf(F, copy), await receiptOf(U, copy)];
    expect(mine.status).toBe('0x1');
    const [block, upstreamBlock] = await Promise.all([
      call(F, 'eth_getBlockByNumber', [mine.blockNumber, false]),
      call(U, 'eth_getBlockByNumber', [theirs.blockNumber, false]),
    ]);
    expect(block.stateRoot).toBe(upstreamBlock.stateRoot);
    expect(BigInt(await call(F, 'eth_getStorageAt', [copySlot, '0x3', 'latest']))).toBe(1n);
  }, 60_000);
});

// evm_snapshot/evm_revert without rebuilding the node: the store's undo log puts back what changed
// since the snapshot, and the chains, the index and the Data API reload what they keep in memory.
// Each test checks the in-place path was the one taken (the node's chain objects and an eth filter
// outlive the revert, as in Anvil) and that the node is exactly as it was: C, an L1, the index, the
// Data API, the pool, state edits; nested snapshots; a revert while requests are in flight; LevelDB
// across a restart. A revert that X, P or shared memory took part in rebuilds the core instead: also
// checked here across a LevelDB restart.
import { getAddress, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.js';
import type { RunningNode } from '../src/node/index.js';
import { call, rpc, tempDir } from './helpers.js';
import { activity, EWOQ, evmClients, FIXTURE, view as wholeView } from './support/states.js';

const TO = '0x4444444444444444444444444444444444444444';

async function start(options: Record<string, unknown> = {}) {
  const dataDir = (options.dataDir as string | undefined) ?? tempDir();
  const started = await startEmulator({ httpPort: 0, logLevel: 'off', dataDir, dev: true, testAccounts: 1, l1: [FIXTURE], indexEnabled: true, ...options });
  return { ...started, dataDir };
}

/** What C, the L1, the C-Chain's index and the Data API show. */
async function view(uri: string, node: RunningNode) {
  const c = evmClients(`${uri}/ext/bc/C/rpc`, 43112).client;
  const l1 = evmClients(`${uri}/ext/bc/myl1/rpc`, 99999).client;
  // The Data API answers once its followers reached the heads.
  const latest = await fetch(`${uri}/v1/chains/43112/transactions?pageSize=1&status=success`).then((r) => r.json() as Promise<any>);
  const mine = await fetch(`${uri}/v1/chains/43112/addresses/${TO}/transactions?pageSize=50`).then((r) => r.json() as Promise<any>);
  const head = await c.getBlock();
  return {
    cHeight: head.number,
    cHash: head.hash,
    cBalance: await c.getBalance({ address: TO }),
    cNonce: await c.getTransactionCount({ address: privateKeyToAccount(EWOQ).address, blockTag: 'pending' }),
    l1Height: await l1.getBlockNumber(),
    l1Balance: await l1.getBalance({ address: TO }),
    cIndexed: (await call(`${uri}/ext/index/C/block`, 'index.getLastAccepted', { encoding: 'hex' })).index as string,
    dataLatest: latest.transactions[0]?.txHash as string | undefined,
    dataToTxs: mine.transactions.length as number,
    pending: node.cChain.pool.size,
  };
}

async function send(uri: string, path: string, id: number, value: bigint) {
  const { wallet, client } = evmClients(`${uri}/ext/bc/${path}/rpc`, id);
  await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: TO, value }) });
}

describe('evm_revert in place', () => {
  let emu: Awaited<ReturnType<typeof start>>;
  let uri: string;
  beforeAll(async () => {
    emu = await start();
    uri = emu.uri;
  });
  afterAll(() => emu.stop());

  it('takes C, the L1, the index, the Data API, state edits and the pool back, and keeps the chains and filters', async () => {
    const { test } = evmClients(`${uri}/ext/bc/C/rpc`, 43112);
    const chain = emu.node.cChain;
    const filter = (await rpc(`${uri}/ext/bc/C/rpc`, 'eth_newBlockFilter', [])).json.result;
    const before = await view(uri, emu.node);
    const id = await test.snapshot();
    await send(uri, 'C', 43112, 5n);
    await send(uri, 'myl1', 99999, 6n);
    await test.setBalance({ address: '0x6666666666666666666666666666666666666666', value: 10n });
    // A tx that cannot run yet (a nonce gap) waits in the pool.
    const { wallet } = evmClients(`${uri}/ext/bc/C/rpc`, 43112);
    await wallet.sendTransaction({ to: TO, value: 1n, nonce: before.cNonce + 5 });
    const after = await view(uri, emu.node);
    expect(after.cHeight).toBe(before.cHeight + 1n);
    expect(after.l1Height).toBe(before.l1Height + 1n);
    expect(after.cIndexed).not.toBe(before.cIndexed);
    expect(after.pending).toBe(1);
    expect(after.dataToTxs).toBe(before.dataToTxs + 1);
    expect(after.dataLatest).not.toBe(before.dataLatest);

    await test.revert({ id });
    expect(await view(uri, emu.node)).toEqual(before);
    expect(await evmClients(`${uri}/ext/bc/C/rpc`, 43112).client.getBalance({ address: '0x6666666666666666666666666666666666666666' })).toBe(0n);
    // In place: the same chain object, and the filter made before the snapshot still answers.
    expect(emu.node.cChain).toBe(chain);
    expect((await rpc(`${uri}/ext/bc/C/rpc`, 'eth_getFilterChanges', [filter])).json.result).toEqual(expect.any(Array));
    // The reverted chain goes on: the same tx again gets the same block number, with the restored head as parent.
    await send(uri, 'C', 43112, 5n);
    const next = await evmClients(`${uri}/ext/bc/C/rpc`, 43112).client.getBlock();
    expect(next.number).toBe(before.cHeight + 1n);
    expect(next.parentHash).toBe(before.cHash);
    expect((await call(`${uri}/ext/index/C/block`, 'index.getLastAccepted', { encoding: 'hex' })).index).toBe(String(Number(before.cIndexed) + 1));
  });

  it('lists the internal transactions of a block built after a revert at the height of one it took back', async () => {
    const url = `${uri}/ext/bc/C/rpc`;
    const { client, test, wallet } = evmClients(url, 43112);
    // FORWARD sends its call value on to the address in its calldata: an internal transaction.
    // call(gas, calldataload(0), callvalue, 0, 0, 0, 0); stop. Its init code returns it.
    const FORWARD = '6000600060006000346000355af100';
    const init = `0x600f600c600039600f6000f3${FORWARD}` as const;
    const deployed = await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ data: init }) });
    const forwarder = deployed.contractAddress!;
    const forward = async (to: string, value: bigint) => {
      const hash = await wallet.sendTransaction({ to: forwarder, data: `0x${to.slice(2).padStart(64, '0')}`, value });
      return client.waitForTransactionReceipt({ hash });
    };
    const id = await test.snapshot();
    const gone = await forward('0x00000000000000000000000000000000000000aa', 5n);
    expect(gone.status).toBe('success');
    await test.revert({ id });
    const kept = await forward('0x00000000000000000000000000000000000000bb', 7n);
    expect(kept.blockNumber).toBe(gone.blockNumber);
    const listed = await fetch(`${uri}/v1/chains/43112/addresses/${forwarder}/transactions?pageSize=10`).then((r) => r.json() as Promise<any>);
    expect(listed.transactions.map((t: any) => t.nativeTransaction.txHash)).toEqual([kept.transactionHash, deployed.transactionHash]);
    expect(listed.transactions[0].internalTransactions).toMatchObject([
      { from: { address: getAddress(forwarder) }, to: { address: '0x00000000000000000000000000000000000000bb' }, internalTxType: 'CALL', value: '7' },
    ]);
  });

  it('the Data API indexes the block built after a revert at the height of one it had indexed', async () => {
    const url = `${uri}/ext/bc/C/rpc`;
    const { client, test, wallet } = evmClients(url, 43112);
    const listed = async (address: string) => {
      const page = await fetch(`${uri}/v1/chains/43112/addresses/${address}/transactions?pageSize=10`).then((r) => r.json() as Promise<any>);
      return page.transactions.map((t: any) => t.nativeTransaction.txHash);
    };
    const id = await test.snapshot();
    const gone = await client.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ to: '0x00000000000000000000000000000000000000cc', value: 1n }),
    });
    // The query waits for the follower to index the block: its cursor moves past the snapshot's.
    expect(await listed('0x00000000000000000000000000000000000000cc')).toEqual([gone.transactionHash]);
    await test.revert({ id });
    const kept = await client.waitForTransactionReceipt({
      hash: await wallet.sendTransaction({ to: '0x00000000000000000000000000000000000000dd', value: 1n }),
    });
    expect(kept.blockNumber).toBe(gone.blockNumber);
    expect(await listed('0x00000000000000000000000000000000000000dd')).toEqual([kept.transactionHash]);
    expect(await listed('0x00000000000000000000000000000000000000cc')).toEqual([]);
  });

  it('nested snapshots: ids are one-shot, and a revert uses up every later one', async () => {
    const { test, client } = evmClients(`${uri}/ext/bc/C/rpc`, 43112);
    const start = await client.getBalance({ address: TO });
    const s0 = await test.snapshot();
    await send(uri, 'C', 43112, 1n);
    const s1 = await test.snapshot();
    await send(uri, 'C', 43112, 2n);
    const s2 = await test.snapshot();
    await send(uri, 'C', 43112, 4n);
    expect(await client.getBalance({ address: TO })).toBe(start + 7n);
    await test.revert({ id: s1 });
    expect(await client.getBalance({ address: TO })).toBe(start + 1n);
    expect((await rpc(`${uri}/ext/bc/C/rpc`, 'evm_revert', [s2])).json.result).toBe(false);
    expect((await rpc(`${uri}/ext/bc/C/rpc`, 'evm_revert', [s1])).json.result).toBe(false);
    await send(uri, 'C', 43112, 8n);
    await test.revert({ id: s0 });
    expect(await client.getBalance({ address: TO })).toBe(start);
    // loadFixture's loop: revert, snapshot again, change, many times over.
    let id = await test.snapshot();
    for (let i = 0; i < 20; i++) {
      await send(uri, 'C', 43112, 1n);
      await test.revert({ id });
      id = await test.snapshot();
    }
    expect(await client.getBalance({ address: TO })).toBe(start);
  });

  it('the pool comes back as the snapshot had it: empty after a tx mined since, or with the tx a block took since', async () => {
    const url = `${uri}/ext/bc/C/rpc`;
    const { test, client, wallet } = evmClients(url, 43112);
    const me = privateKeyToAccount(EWOQ).address;
    const signed = async (nonce: number) => wallet.signTransaction(await wallet.prepareTransactionRequest({ to: TO, value: 3n, nonce }));
    const nonce = await client.getTransactionCount({ address: me, blockTag: 'pending' });
    const first = await signed(nonce);
    // Empty at the snapshot and at the revert, a tx mined between: the very same tx is new again.
    let id = await test.snapshot();
    const hash = await client.sendRawTransaction({ serializedTransaction: first });
    const mined = await client.waitForTransactionReceipt({ hash });
    await test.revert({ id });
    expect(emu.node.cChain.pool.size).toBe(0);
    expect(await client.getTransactionCount({ address: me })).toBe(nonce);
    expect(await client.sendRawTransaction({ serializedTransaction: first })).toBe(hash);
    expect((await client.waitForTransactionReceipt({ hash })).blockNumber).toBe(mined.blockNumber);
    // A tx waiting at the snapshot (a nonce gap), mined since with the tx that filled the gap: the
    // pool is empty at the revert, and the waiting tx is back in it.
    const waiting = await signed(nonce + 2);
    const waitingHash = await client.sendRawTransaction({ serializedTransaction: waiting });
    expect(emu.node.cChain.pool.size).toBe(1);
    id = await test.snapshot();
    await client.waitForTransactionReceipt({ hash: await client.sendRawTransaction({ serializedTransaction: await signed(nonce + 1) }) });
    await client.waitForTransactionReceipt({ hash: waitingHash });
    expect(emu.node.cChain.pool.size).toBe(0);
    await test.revert({ id });
    expect(emu.node.cChain.pool.size).toBe(1);
    expect((await rpc(url, 'eth_getTransactionByHash', [waitingHash])).json.result).toMatchObject({ hash: waitingHash, blockHash: null });
    // Its gap filled again, it is mined.
    await client.sendRawTransaction({ serializedTransaction: await signed(nonce + 1) });
    expect((await client.waitForTransactionReceipt({ hash: waitingHash })).status).toBe('success');
  });

  it('a block that fails to build after the pool dropped an expired tx drops it from the journal too', async () => {
    const url = `${uri}/ext/bc/C/rpc`;
    const { client, test, wallet } = evmClients(url, 43112);
    const me = privateKeyToAccount(EWOQ).address;
    const nonce = await client.getTransactionCount({ address: me, blockTag: 'pending' });
    const queued = await wallet.sendTransaction({ to: TO, value: 1n, nonce: nonce + 1 });
    // A read waits for the round the send asked for: none is left to expire the tx on its own.
    await client.getBlockNumber();
    expect(emu.node.cChain.pool.size).toBe(1);
    // Past the pool's lifetime of a queued tx (geth's 10 minutes): the next round's reset drops it.
    await call(`${uri}/ext/emulator`, 'emulator.advanceClock', { seconds: 660 });
    // A block that fails after the pool's reset dropped it (as when a fork's upstream fails
    // mid-block), built here at once: a round would expire it first, on its own.
    const builder = (emu.node.cChain as unknown as { blocks: { build(): Promise<void>; runQueues: unknown } }).blocks;
    builder.runQueues = async () => {
      throw new Error('a block that fails');
    };
    await expect(builder.build()).rejects.toThrow('a block that fails');
    expect(emu.node.cChain.pool.size).toBe(0);
    delete (builder as { runQueues?: unknown }).runQueues;
    const hash = await wallet.sendTransaction({ to: TO, value: 1n, nonce });
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
    // The pool and its journal agree. A tx waiting at the revert (a nonce gap) has the revert read the
    // pool back from the journal: the expired tx is not in it (it would run now: its nonce is next).
    const id = await test.snapshot();
    await wallet.sendTransaction({ to: TO, value: 1n, nonce: nonce + 5 });
    await test.revert({ id });
    expect(emu.node.cChain.pool.size).toBe(0);
    expect((await rpc(url, 'eth_getTransactionByHash', [queued])).json.result).toBeNull();
  });

  it('a revert while sends, reads and mining are in flight: all answered, and the node is back at the snapshot', async () => {
    const url = `${uri}/ext/bc/C/rpc`;
    const { test, client } = evmClients(url, 43112);
    const before = await view(uri, emu.node);
    const id = await test.snapshot();
    const { wallet } = evmClients(url, 43112);
    let nonce = before.cNonce;
    const sends = Array.from({ length: 10 }, () => wallet.sendTransaction({ to: TO, value: 1n, nonce: nonce++ }));
    const reads = Array.from({ length: 20 }, (_, i) => (i % 2 ? client.getBalance({ address: TO }) : client.getBlockNumber()));
    const mining = test.mine({ blocks: 3 });
    await Promise.allSettled([...sends, ...reads, mining]);
    const later = await test.snapshot();
    const racing = [
      ...Array.from({ length: 10 }, () => client.getBlockNumber()),
      ...Array.from({ length: 5 }, () => wallet.sendTransaction({ to: TO, value: 1n, nonce: nonce++ }).catch((e: Error) => e)),
    ];
    expect(await test.revert({ id: later }).then(() => true)).toBe(true);
    const answered = await Promise.all(racing.map((p) => Promise.race([p.then(() => 'answered'), new Promise((r) => setTimeout(() => r('hung'), 10_000))])));
    expect(answered.every((a) => a === 'answered')).toBe(true);
    await test.revert({ id });
    expect(await view(uri, emu.node)).toEqual(before);
    // Every block up to the head links to its parent.
    const head = await client.getBlock();
    expect((await client.getBlock({ blockNumber: head.number - 1n })).hash).toBe(head.parentHash);
  });
});

describe('evm_revert in place on LevelDB', () => {
  it('is written to disk: a restart finds the reverted C-Chain, L1 and index', async () => {
    const dataDir = tempDir();
    const first = await start({ dataDir, dbType: 'leveldb' });
    let before: Awaited<ReturnType<typeof view>>;
    try {
      before = await view(first.uri, first.node);
      const { test } = evmClients(`${first.uri}/ext/bc/C/rpc`, 43112);
      const id = await test.snapshot();
      const chain = first.node.cChain;
      await send(first.uri, 'C', 43112, parseEther('1'));
      await send(first.uri, 'myl1', 99999, parseEther('1'));
      await test.revert({ id });
      expect(first.node.cChain).toBe(chain);
      expect(await view(first.uri, first.node)).toEqual(before);
    } finally {
      await first.stop();
    }
    const again = await start({ dataDir, dbType: 'leveldb' });
    try {
      expect(await view(again.uri, again.node)).toEqual(before);
    } finally {
      await again.stop();
    }
  });
});

describe('a revert that X, P and shared memory took part in, on LevelDB', () => {
  it('rebuilds the node on the restored store; a restart finds X, P, C, the L1, shared memory and the index as at the snapshot', async () => {
    const dataDir = tempDir();
    const first = await start({ dataDir, dbType: 'leveldb' });
    let before: Awaited<ReturnType<typeof wholeView>>;
    try {
      before = await wholeView(first.uri);
      const { id } = await call(`${first.uri}/ext/emulator`, 'emulator.snapshot', {});
      await activity(first.uri);
      const after = await wholeView(first.uri);
      expect(after.atomic).toBe(1);
      expect(after.xIndexed).not.toBe(before.xIndexed);
      expect(await call(`${first.uri}/ext/emulator`, 'emulator.revert', { id })).toEqual({ reverted: true });
      expect(await wholeView(first.uri)).toEqual(before);
    } finally {
      await first.stop();
    }
    const again = await start({ dataDir, dbType: 'leveldb' });
    try {
      expect(await wholeView(again.uri)).toEqual(before);
    } finally {
      await again.stop();
    }
  });
});

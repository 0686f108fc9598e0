// Regressions from a hostile-input run against the X-Chain: block building must never stop (the
// builder's "running" marker once stuck after a build with nothing to do), a chain that stops making
// progress must fail its health check, and wallet.issueTx must not hold unbounded memory.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTx } from '../src/vms/avm/codec/index.js';
import type { SignedTx } from '../src/vms/avm/types.js';
import type { XChain } from '../src/vms/avm/vm.js';
import { primaryNetworkChains } from '../src/genesis/primary.js';
import { SharedMemory } from '../src/chains/sharedmemory.js';
import { chainCheck } from '../src/chains/manager.js';
import { avmFactory } from '../src/vms/avm/factory.js';
import { Aliaser } from '../src/chains/aliases.js';
import { LogFactory } from '../src/logging/logger.js';
import { encodeCB58 } from '../src/encoding/cb58.js';
import { openDatabase, type Database } from '../src/storage/db.js';
import { call, rpc, startTestNode, tempDir, type TestNode } from './helpers.js';
import { base, baseTx, Ewoq, EWOQ_KEY, GENESIS_UTXO, height, OTHER, out, owners, sleep, status, txHex, utf8 } from './support/xwallet.js';

const walletIssue = (url: string, tx: SignedTx) => rpc(`${url}/wallet`, 'wallet.issueTx', { tx: txHex(tx.bytes) });

/** Resolves to the value, or to 'timed out' when `ms` pass first: a hang must fail, not stall the suite. */
const within = <T>(p: Promise<T>, ms: number): Promise<T | 'timed out'> => Promise.race([p, sleep(ms).then(() => 'timed out' as const)]);

/** A parseable, unsigned BaseTx of `size` bytes or a little more, its memo (unchecked until verification) tagged to make it unique. */
function bulkyTx(tag: string, size: number): SignedTx {
  const memo = new Uint8Array(Math.max(tag.length, size - 90));
  memo.set(utf8(tag));
  return buildTx({ type: 0, base: base({ memo }) }, []);
}

describe('item 1: block building never stops (default flags)', () => {
  let node: TestNode;
  let url: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb' });
    url = `${node.uri}/ext/bc/X`;
  });
  afterAll(() => node.stop());

  it('after a wallet tx that fails verification and a second wallet tx, avm.issueTx still gets its block', async () => {
    const ewoq = new Ewoq(url);
    await ewoq.pay([out(1_000_000n, owners([OTHER]))]); // the genesis UTXO is now spent
    const h = await height(url);
    // ewoq re-spends its already spent genesis UTXO: parseable, and fails verification when built.
    const respend = baseTx([{ utxo: GENESIS_UTXO, keys: [EWOQ_KEY] }], [out(1_000_000n, owners([OTHER]))]);
    expect((await walletIssue(url, respend)).json.result.txID).toBe(encodeCB58(respend.id));
    const second = bulkyTx('second', 200);
    expect((await walletIssue(url, second)).json.result.txID).toBe(encodeCB58(second.id));
    await sleep(50);

    for (let k = 0; k < 3; k++) {
      const { tx, change } = ewoq.build([out(2_000_000n + BigInt(k), owners([OTHER]))]);
      const reply = await within(call(url, 'avm.issueTx', { tx: txHex(tx.bytes) }), 5000);
      expect(reply, `payment ${k}`).toEqual({ txID: encodeCB58(tx.id) });
      ewoq.coin = change;
      expect(await status(url, encodeCB58(tx.id))).toBe('Accepted');
    }
    expect(await height(url)).toBe(h + 3n);
    const health = await fetch(`${node.uri}/ext/health`);
    expect(health.status).toBe(200);
  });
});

describe('item 1: block building never stops (--x-block-interval=1s)', () => {
  let node: TestNode;
  let url: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', xBlockInterval: '1s' });
    url = `${node.uri}/ext/bc/X`;
  });
  afterAll(() => node.stop());

  it('a tx issued after ticks that found an empty mempool is accepted within the next ticks', async () => {
    await sleep(2500); // two ticks with nothing to build
    const ewoq = new Ewoq(url);
    const { tx } = await ewoq.pay([out(1_000_000n, owners([OTHER]))]);
    const end = Date.now() + 3000;
    while ((await status(url, encodeCB58(tx.id))) !== 'Accepted' && Date.now() < end) await sleep(50);
    expect(await status(url, encodeCB58(tx.id))).toBe('Accepted');
    expect(await height(url)).toBe(1n);
  });
});

describe('item 3: wallet.issueTx holds a bounded queue', () => {
  let node: TestNode;
  let url: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb' });
    url = `${node.uri}/ext/bc/X`;
    // A head that fails verification is dropped and never accepted: everything after it queues.
    const respend = baseTx([{ utxo: { ...GENESIS_UTXO, utxoID: { ...GENESIS_UTXO.utxoID, outputIndex: 7 } }, keys: [EWOQ_KEY] }], [out(1n)]);
    expect((await walletIssue(url, respend)).json.result.txID).toBe(encodeCB58(respend.id));
  });
  afterAll(() => node.stop());

  it('refuses a queued tx over 64 KiB with the mempool\'s "tx too large" error', async () => {
    const big = bulkyTx('big', 200 * 1024);
    const err = (await walletIssue(url, big)).json.error;
    expect(err.message).toBe(`tx too large: ${encodeCB58(big.id)} size (${big.bytes.length}) > max size (65536)`);
  });

  it('holds at most 64 MiB of queued txs, then answers "mempool is full"; a duplicate still returns its ID', async () => {
    const size = 63 * 1024;
    let queued = 0;
    const refusals: string[] = [];
    let last: SignedTx | undefined;
    // 1041 txs of 63 KiB would be over 64 MiB: 16 at a time, the last ones must be refused.
    for (let n = 0; n < 1060; n += 16) {
      const txs = Array.from({ length: 16 }, (_, k) => bulkyTx(`fill ${n + k}`, size));
      const replies = await Promise.all(txs.map(async (tx) => (await walletIssue(url, tx)).json));
      for (const [k, reply] of replies.entries()) {
        const tx = txs[k]!;
        if (reply.error) {
          expect(reply.error.message).toMatch(new RegExp(`^mempool is full: ${encodeCB58(tx.id)} size \\(${tx.bytes.length}\\) > available space \\(\\d+\\)$`));
          refusals.push(reply.error.message);
        } else {
          queued++;
          last = tx;
        }
      }
    }
    const refusal = refusals[0];
    expect(refusal).toBeDefined();
    expect(queued * size).toBeLessThanOrEqual(64 * 1024 * 1024);
    expect(queued * size).toBeGreaterThan(63 * 1024 * 1024);
    expect((await walletIssue(url, last!)).json.result.txID).toBe(encodeCB58(last!.id));
    // avm.issueTx has a mempool of its own and is not held up by the wallet queue.
    const { tx } = await new Ewoq(url).pay([out(1_000_000n, owners([OTHER]))]);
    expect(await status(url, encodeCB58(tx.id))).toBe('Accepted');
  });

  it('holds at most 4096 queued txs however small', async () => {
    const node2 = await startTestNode({ dbType: 'memdb' });
    try {
      const url2 = `${node2.uri}/ext/bc/X`;
      const head = baseTx([{ utxo: { ...GENESIS_UTXO, utxoID: { ...GENESIS_UTXO.utxoID, outputIndex: 9 } }, keys: [EWOQ_KEY] }], [out(1n)]);
      await walletIssue(url2, head);
      const replies = [];
      for (let n = 0; n < 4097; n += 64) {
        const batch = Array.from({ length: Math.min(64, 4097 - n) }, (_, k) => bulkyTx(`tiny ${n + k}`, 0));
        replies.push(...(await Promise.all(batch.map(async (tx) => ({ tx, reply: (await walletIssue(url2, tx)).json })))));
      }
      const refused = replies.filter((r) => r.reply.error);
      expect(refused).toHaveLength(1);
      expect(refused[0]!.reply.error.message).toBe(`mempool is full: ${encodeCB58(refused[0]!.tx.id)} count (4096) >= max count (4096)`);
    } finally {
      await node2.stop();
    }
  });
});

describe('the X health check sees a chain that stops making progress', () => {
  /** The node's store, with writes that can be made to fail as a full or broken disk would. */
  function flaky(store: Database): Database & { failing: boolean } {
    const db = Object.assign(Object.create(store) as Database, { failing: false });
    db.write = (batch) => (db.failing ? Promise.reject(new Error('IO error: No space left on device')) : store.write(batch));
    return db;
  }

  let vm: XChain | undefined;
  afterEach(async () => {
    await vm?.close();
  });

  it('reports a failed block commit, then the time pending txs wait past 30 s, and recovers once a block lands', async () => {
    const store = await openDatabase('memdb', '');
    const db = flaky(store);
    let clock = 1_000_000;
    const x = primaryNetworkChains(12345)[1]!;
    const chain = await avmFactory({ hrp: 'local', txFee: 1_000_000n, createAssetTxFee: 1_000_000n, blockIntervalMs: 0, serve: () => ({}) }).create({
      networkID: 12345,
      subnetID: new Uint8Array(32),
      chainID: x.chainID,
      genesis: x.genesis,
      config: undefined,
      upgrade: undefined,
      db,
      shared: new SharedMemory(db),
      aliases: new Aliaser(),
      subnetOf: () => undefined,
      log: new LogFactory({ logLevel: 'OFF', displayLevel: 'OFF' }, tempDir()).make('X'),
      clock: { nowNs: () => BigInt(clock) * 1_000_000n },
      acceptance: { prepare: async () => () => {} },
    });
    const xvm = chain.xChain;
    vm = xvm;
    const check = chainCheck(chain);
    const consensus = async () => ((await check()).details as { engine: { consensus: Record<string, unknown> } }).engine.consensus;
    expect((await check()).error).toBeUndefined();

    db.failing = true;
    const failures: string[] = [];
    xvm.on('buildFailed', (err) => failures.push(err.message));
    const ewoq = new Ewoq('');
    const { tx } = ewoq.build([out(1_000_000n, owners([OTHER]))]);
    let accepted = false;
    const issued = xvm.issueTx(tx.bytes).then(() => {
      accepted = true;
    });
    await sleep(50);
    expect(failures).toEqual(['IO error: No space left on device']);
    expect(accepted).toBe(false);
    expect((await check()).error).toBe('failed to accept block: IO error: No space left on device');
    expect(await consensus()).toMatchObject({ processingBlocks: 1, lastAcceptedHeight: 0, longestProcessingBlock: '0s' });

    clock += 31_500;
    expect((await check()).error).toBe('vm: failed to accept block: IO error: No space left on device ; consensus: block processing too long: 31.5s > 30s');
    expect(await consensus()).toMatchObject({ longestProcessingBlock: '31.5s' });

    db.failing = false; // the disk recovers: the builder's retry lands the block with the waiting tx
    expect(await within(issued, 3000)).not.toBe('timed out');
    expect(accepted).toBe(true);
    expect(xvm.lastAccepted().height).toBe(1n);
    expect((await check()).error).toBeUndefined();
    expect(await consensus()).toMatchObject({ processingBlocks: 0, lastAcceptedHeight: 1, longestProcessingBlock: '0s' });
    await xvm.close();
    await store.close();
    vm = undefined;
  });

  it('over HTTP, a node that keeps building reports its chain healthy with nothing processing', async () => {
    const node = await startTestNode({ dbType: 'memdb' });
    try {
      await new Ewoq(`${node.uri}/ext/bc/X`).pay([out(1_000_000n, owners([OTHER]))]);
      const report = await call(`${node.uri}/ext/health`, 'health.health');
      expect(report.checks.X.error).toBeUndefined();
      // The checks ran at start; the X check's details are those of its last run.
      expect(report.checks.X.message.engine.consensus.processingBlocks).toBe(0);
    } finally {
      await node.stop();
    }
  });
});

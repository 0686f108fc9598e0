// The EVM pool's limits, as coreth's legacypool (geth's, with coreth's settings: 64 queued txs a
// sender, 1024 queued in all, 5120 + 1024 slots, a 10-minute lifetime for an idle sender's queued
// txs), through HTTP on the C-Chain and an L1: one sender cannot fill the pool for everyone, a full
// pool evicts its cheapest tx for a better one and the journal follows (checked across a restart on
// LevelDB), idle queued txs expire on the node's clock, a fee cap under the next base fee waits as
// geth's pending, and a 0 tip is admitted and mined as coreth's and Subnet-EVM's pools admit it.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { privateToAddress, toChecksumAddress } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, callError, post, rpc, startTestNode, type TestNode, tempDir } from './helpers.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'myl1.json');
const EWOQ_KEY = Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex');
const EWOQ = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
const SINK: `0x${string}` = '0x000000000000000000000000000000000000dEaD';
const GWEI = 10n ** 9n;
const hex = (b: Uint8Array): `0x${string}` => `0x${Buffer.from(b).toString('hex')}`;
const q = (n: bigint | number) => `0x${n.toString(16)}`;

/** A test key of its own for each name. */
const keyOf = (name: string) => keccak_256(new TextEncoder().encode(`evm-pool-limits ${name}`));
const addressOf = (key: Uint8Array) => toChecksumAddress(hex(privateToAddress(key))) as `0x${string}`;

// libsecp256k1 signs a few thousand txs in a second (the @ethereumjs/tx signer takes about 1 ms a tx).
const native = (() => {
  try {
    return createRequire(import.meta.url)('secp256k1/bindings') as { ecdsaSign(msg: Uint8Array, key: Uint8Array): { signature: Uint8Array; recid: number } };
  } catch {
    return undefined;
  }
})();

function sign(tx: TypedTransaction, key: Uint8Array): string {
  // A legacy tx's v carries the chain ID (EIP-155): its own signer sets it.
  if (!native || tx.type === 0) return hex(tx.sign(key).serialize());
  const { signature, recid } = native.ecdsaSign(tx.getHashedMessageToSign(), key);
  return hex(tx.addSignature(BigInt(recid), signature.slice(0, 32), signature.slice(32)).serialize());
}

interface Transfer {
  nonce: bigint | number;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  value?: bigint;
  to?: `0x${string}`;
}

/** A signer of EIP-1559 transfers on one chain: 21,000 gas, 1 wei to SINK unless told otherwise. */
function signer(chainId: number) {
  const common = createCustomCommon({ chainId }, Mainnet, { hardfork: Hardfork.Cancun });
  return (key: Uint8Array, t: Transfer) =>
    sign(
      createFeeMarket1559Tx(
        {
          nonce: BigInt(t.nonce),
          gasLimit: 21_000n,
          to: t.to ?? SINK,
          value: t.value ?? 1n,
          maxFeePerGas: t.maxFeePerGas ?? 25n * GWEI,
          maxPriorityFeePerGas: t.maxPriorityFeePerGas ?? GWEI,
        },
        { common },
      ),
      key,
    );
}

/** Sends raw txs in JSON-RPC batches of 1000; each reply's hash, or its error's message prefixed with `error: `. */
async function sendAll(url: string, raws: string[]): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < raws.length; i += 1000) {
    const batch = raws.slice(i, i + 1000).map((raw, j) => ({ jsonrpc: '2.0', id: i + j, method: 'eth_sendRawTransaction', params: [raw] }));
    const replies = (await post(url, JSON.stringify(batch))).json as Array<{ id: number; result?: string; error?: { message: string } }>;
    for (const r of replies.sort((a, b) => a.id - b.id)) out.push(r.result ?? `error: ${r.error!.message}`);
  }
  return out;
}

/** ewoq sends `value` to each key's address, and the transfers are mined. */
async function fund(url: string, chainId: number, keys: Uint8Array[], value: bigint): Promise<void> {
  const nonce = BigInt(await call(url, 'eth_getTransactionCount', [EWOQ, 'latest']));
  const raws = keys.map((k, i) => signer(chainId)(EWOQ_KEY, { nonce: nonce + BigInt(i), to: addressOf(k), value, maxFeePerGas: 300n * GWEI }));
  const hashes = await sendAll(url, raws);
  for (const h of hashes) {
    let receipt = await call(url, 'eth_getTransactionReceipt', [h]);
    for (let i = 0; !receipt && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      receipt = await call(url, 'eth_getTransactionReceipt', [h]);
    }
    expect(receipt.status).toBe('0x1');
  }
}

const nonces = (byNonce: Record<string, unknown>) => Object.keys(byNonce).map(Number);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function receiptOf(url: string, hash: string): Promise<{ status: string; effectiveGasPrice: string; blockNumber: string }> {
  for (let i = 0; i < 100; i++) {
    const receipt = await call(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${hash} was not mined`);
}

describe("the pool's queue caps on the C-Chain (64 a sender, 1024 in all)", () => {
  let node: TestNode;
  let url: string;
  const sign43112 = signer(43112);
  const flooder = keyOf('flooder');
  const honest = keyOf('honest');
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    url = `${node.uri}/ext/bc/C/rpc`;
    // The flooder holds 1 AVAX: each of its txs alone costs less, and queued txs are not summed.
    await fund(url, 43112, [flooder], 10n ** 18n);
    await fund(url, 43112, [honest], 10n ** 18n);
  });
  afterAll(() => node.stop());

  it('keeps 64 queued txs of one sender: the 6,136 sends past them answer their hashes, as geth does, and leave the pool', async () => {
    const raws = range(1, 6200).map((nonce) => sign43112(flooder, { nonce }));
    const replies = await sendAll(url, raws);
    expect(replies.filter((r) => r.startsWith('error'))).toEqual([]);
    const from = await call(url, 'txpool_contentFrom', [addressOf(flooder)]);
    expect(from.pending).toEqual({});
    expect(nonces(from.queued)).toEqual(range(1, 64));
    expect(from.queued['64'].hash).toBe(replies[63]);
    expect(await call(url, 'txpool_status', [])).toEqual({ pending: '0x0', queued: '0x40' });
    expect(await call(url, 'eth_getTransactionByHash', [replies[63]])).toMatchObject({ hash: replies[63], blockHash: null });
    expect(await call(url, 'eth_getTransactionByHash', [replies[64]])).toBeNull();
    expect(await call(url, 'eth_getTransactionByHash', [replies[6198]])).toBeNull();
    // Everyone else's txs still get in, and are mined.
    const [hash] = await sendAll(url, [sign43112(honest, { nonce: 0 })]);
    expect((await receiptOf(url, hash!)).status).toBe('0x1');
  });

  it("caps the queue at 1024 across senders: the longest-idle sender's highest nonces go first; runnable txs still get in", async () => {
    const keys = range(1, 15).map((i) => keyOf(`queued ${i}`));
    await fund(url, 43112, [...keys, keyOf('late')], 10n ** 18n);
    const replies = await sendAll(
      url,
      keys.flatMap((k) => range(1, 64).map((nonce) => sign43112(k, { nonce }))),
    );
    expect(replies.filter((r) => r.startsWith('error'))).toEqual([]);
    expect(await call(url, 'txpool_status', [])).toEqual({ pending: '0x0', queued: '0x400' });
    // The 1025th queued tx gets in; the flooder, whose queue is the oldest, loses its nonce 64.
    const [late] = await sendAll(url, [sign43112(keyOf('late'), { nonce: 1 })]);
    expect(late).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await call(url, 'txpool_status', [])).toEqual({ pending: '0x0', queued: '0x400' });
    expect(nonces((await call(url, 'txpool_contentFrom', [addressOf(flooder)])).queued)).toEqual(range(1, 63));
    expect(nonces((await call(url, 'txpool_contentFrom', [addressOf(keyOf('late'))])).queued)).toEqual([1]);
    for (const k of keys) expect(nonces((await call(url, 'txpool_contentFrom', [addressOf(k)])).queued)).toEqual(range(1, 64));
    const [hash] = await sendAll(url, [sign43112(honest, { nonce: 1 })]);
    expect((await receiptOf(url, hash!)).status).toBe('0x1');
  });
});

describe('a full pool (5120 + 1024 slots) on LevelDB, and the journal across a restart', () => {
  const dataDir = tempDir();
  let node: TestNode;
  let url: string;
  const sign43112 = signer(43112);
  const pendingKey = keyOf('pending');
  const queuedKeys = range(0, 15).map((i) => keyOf(`full ${i}`));
  const [better, gapped, gapped2] = [keyOf('better'), keyOf('gapped'), keyOf('gapped 2')];
  const price = { maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: 2n * GWEI };
  const start = async () => {
    node = await startTestNode({ dataDir, dbType: 'leveldb', dev: true });
    url = `${node.uri}/ext/bc/C/rpc`;
  };
  beforeAll(async () => {
    await start();
    await fund(url, 43112, [pendingKey, ...queuedKeys, better, gapped, gapped2], 10n ** 19n);
  });
  afterAll(() => node.stop());

  it('refuses a tx no better than the cheapest, evicts the cheapest for a better one, and the evicted tx leaves the journal', async () => {
    // Nothing is mined meanwhile: 5120 pending txs of one sender and 16 × 64 queued take every slot.
    await call(url, 'evm_setAutomine', [false]);
    const pendingTxs = range(0, 5119).map((nonce) => sign43112(pendingKey, { nonce, ...price }));
    const queuedTxs = queuedKeys.flatMap((k, i) =>
      range(1, 64).map((nonce) =>
        // The cheapest tx of the pool: the last sender's nonce 64 tips 1 gwei.
        sign43112(k, { nonce, ...price, ...(i === 15 && nonce === 64 ? { maxPriorityFeePerGas: GWEI } : {}) }),
      ),
    );
    const replies = await sendAll(url, [...pendingTxs, ...queuedTxs]);
    expect(replies.filter((r) => r.startsWith('error'))).toEqual([]);
    expect(await call(url, 'txpool_status', [])).toEqual({ pending: '0x1400', queued: '0x400' });
    const cheapest = replies.at(-1)!;

    // As cheap as the cheapest: refused with geth's bare text.
    const same = await rpc(url, 'eth_sendRawTransaction', [sign43112(better, { nonce: 0, ...price, maxPriorityFeePerGas: GWEI })]);
    expect(same.json.error).toEqual({ code: -32000, message: 'transaction underpriced' });
    // One wei more: it gets in, the cheapest goes. Pending is then over the 5120 global slots, and the
    // sender with the most pending txs loses its last (geth's truncatePending).
    const [admitted] = await sendAll(url, [sign43112(better, { nonce: 0, ...price, maxPriorityFeePerGas: GWEI + 1n })]);
    expect(admitted).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await call(url, 'eth_getTransactionByHash', [cheapest])).toBeNull();
    expect(await call(url, 'eth_getTransactionByHash', [replies[5119]])).toBeNull();
    expect(await call(url, 'txpool_status', [])).toEqual({ pending: '0x1400', queued: '0x3ff' });
    expect(nonces((await call(url, 'txpool_contentFrom', [addressOf(queuedKeys[15]!)])).queued)).toEqual(range(1, 63));

    // The free slot taken by a gapped tx; then a gapped tx may not evict a pending one.
    const [queued] = await sendAll(url, [sign43112(gapped, { nonce: 1, ...price, maxPriorityFeePerGas: 3n * GWEI })]);
    expect(queued).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await call(url, 'txpool_status', [])).toEqual({ pending: '0x1400', queued: '0x400' });
    const future = await rpc(url, 'eth_sendRawTransaction', [sign43112(gapped2, { nonce: 1, ...price, maxPriorityFeePerGas: 3n * GWEI })]);
    expect(future.json.error).toEqual({ code: -32000, message: 'future transaction tries to replace pending' });
    expect(await call(url, 'txpool_status', [])).toEqual({ pending: '0x1400', queued: '0x400' });

    // Room for the evicted tx, had its journal entry stayed: the last 200 pending txs dropped (each the
    // last of its sender's, so none behind it moves to the queue).
    const dropped = range(4919, 5118)
      .reverse()
      .map((i) => replies[i]!);
    const drops = dropped.map((hash, id) => ({ jsonrpc: '2.0', id, method: 'anvil_dropTransaction', params: [hash] }));
    const answers = ((await post(url, JSON.stringify(drops))).json as Array<{ id: number; result: string }>).sort((a, b) => a.id - b.id);
    expect(answers.map((a) => a.result)).toEqual(dropped);
    expect(await call(url, 'txpool_status', [])).toEqual({ pending: '0x1338', queued: '0x400' });

    // After a restart, the journal brings back what the pool held and nothing it let go.
    await node.stop();
    await start();
    expect(await call(url, 'eth_getTransactionByHash', [cheapest])).toBeNull();
    expect(await call(url, 'eth_getTransactionByHash', [replies[5119]])).toBeNull();
    expect(await call(url, 'eth_getTransactionByHash', [admitted])).toMatchObject({ hash: admitted });
    expect(await call(url, 'eth_getTransactionByHash', [queued])).toMatchObject({ hash: queued, blockHash: null });
    // Queued txs wait for their gaps whatever is mined meanwhile (automine is back on after a restart).
    expect((await call(url, 'txpool_status', [])).queued).toBe('0x400');
    expect(nonces((await call(url, 'txpool_contentFrom', [addressOf(queuedKeys[15]!)])).queued)).toEqual(range(1, 63));
    expect(nonces((await call(url, 'txpool_contentFrom', [addressOf(gapped)])).queued)).toEqual([1]);
  });
});

describe("queued txs' lifetime (10 minutes without activity, on the node's clock)", () => {
  const dataDir = tempDir();
  let node: TestNode;
  let url: string;
  const sign43112 = signer(43112);
  const [idle, later, active] = [keyOf('idle'), keyOf('later'), keyOf('active')];
  const advance = (seconds: number) => call(`${node.uri}/ext/emulator`, 'emulator.advanceClock', { seconds: String(seconds) });
  const queuedOf = async (key: Uint8Array) => nonces((await call(url, 'txpool_contentFrom', [addressOf(key)])).queued);
  const start = async () => {
    node = await startTestNode({ dataDir, dbType: 'leveldb', dev: true, healthCheckFrequency: '50ms' });
    url = `${node.uri}/ext/bc/C/rpc`;
  };
  beforeAll(async () => {
    await start();
    await fund(url, 43112, [idle, later, active], 10n ** 18n);
  });
  afterAll(() => node.stop());

  it("drops a sender's queued txs once it has been idle for more than 10 minutes; a promotion is activity; the journal follows", async () => {
    const [idleTx] = await sendAll(url, [sign43112(idle, { nonce: 1 })]);
    await sendAll(url, [sign43112(active, { nonce: 2 })]);
    await advance(300);
    // The active sender's nonce 0 is promoted (and mined): its queue's clock starts again.
    const [mined] = await sendAll(url, [sign43112(active, { nonce: 0 })]);
    expect((await receiptOf(url, mined!)).status).toBe('0x1');
    // Queued txs wait for their gaps, not for a block: the chain's health counts no block processing.
    const height = Number(await call(url, 'eth_blockNumber', []));
    let consensus: { lastAcceptedHeight: number; processingBlocks: number } | undefined;
    for (let i = 0; i < 100 && consensus?.lastAcceptedHeight !== height; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      consensus = (await call(`${node.uri}/ext/health`, 'health.health', {})).checks.C.message.engine.consensus;
    }
    expect(consensus).toMatchObject({ lastAcceptedHeight: height, processingBlocks: 0 });
    await sendAll(url, [sign43112(later, { nonce: 1 })]);
    await advance(299);
    expect(await queuedOf(idle)).toEqual([1]);
    await advance(2);
    expect(await queuedOf(idle)).toEqual([]);
    expect(await call(url, 'eth_getTransactionByHash', [idleTx])).toBeNull();
    expect(await queuedOf(active)).toEqual([2]);
    expect(await queuedOf(later)).toEqual([1]);
    expect(await call(url, 'txpool_status', [])).toEqual({ pending: '0x0', queued: '0x2' });
    await node.stop();
    await start();
    expect(await queuedOf(idle)).toEqual([]);
    expect(await call(url, 'eth_getTransactionByHash', [idleTx])).toBeNull();
    expect(await call(url, 'txpool_status', [])).toEqual({ pending: '0x0', queued: '0x2' });
  });
});

describe('a fee cap under the next base fee, and a 0 tip (coreth: tx-pool-price-limit 1, then SetGasTip(0))', () => {
  let node: TestNode;
  let c: string;
  let l1: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1, l1: [FIXTURE] });
    c = `${node.uri}/ext/bc/C/rpc`;
    l1 = `${node.uri}/ext/bc/myl1/rpc`;
  });
  afterAll(() => node.stop());

  it('lists a tx whose fee cap is under the next base fee as pending, as geth does, and mines it once the fee falls', async () => {
    await call(c, 'anvil_setNextBlockBaseFeePerGas', [q(50n * GWEI)]);
    const nonce = Number(await call(c, 'eth_getTransactionCount', [EWOQ, 'latest']));
    const hash = await call(c, 'eth_sendRawTransaction', [signer(43112)(EWOQ_KEY, { nonce, maxFeePerGas: 30n * GWEI })]);
    expect(await call(c, 'txpool_status', [])).toEqual({ pending: '0x1', queued: '0x0' });
    const content = await call(c, 'txpool_content', []);
    expect(content.queued).toEqual({});
    expect(Object.keys(content.pending)).toEqual([EWOQ]);
    expect(content.pending[EWOQ][String(nonce)]).toMatchObject({ hash, blockHash: null, maxFeePerGas: q(30n * GWEI) });
    expect(await call(c, 'txpool_inspect', [])).toEqual({
      pending: { [EWOQ]: { [String(nonce)]: `${SINK}: 1 wei + 21000 gas × 30000000000 wei` } },
      queued: {},
    });
    expect(await call(c, 'eth_getTransactionReceipt', [hash])).toBeNull();
    // The block at 50 gwei leaves it out; the next one's base fee is ACP-176's again, and takes it.
    await call(c, 'evm_mine', []);
    const forced = await call(c, 'eth_getBlockByNumber', ['latest', false]);
    expect(forced.baseFeePerGas).toBe(q(50n * GWEI));
    expect(forced.transactions).toEqual([]);
    const receipt = await receiptOf(c, hash);
    expect(receipt.status).toBe('0x1');
    expect(BigInt(receipt.effectiveGasPrice)).toBeLessThan(30n * GWEI);
  });

  it('announces a queued tx on newPendingTransactions once its gap is filled, after the tx that filled it, as geth does', async () => {
    const ws = new WebSocket(`${node.uri.replace('http', 'ws')}/ext/bc/C/ws`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const announced: string[] = [];
    let subscribed: (() => void) | undefined;
    ws.on('message', (m) => {
      const msg = JSON.parse(m.toString());
      if (msg.id === 1) subscribed?.();
      else if (msg.params?.result) announced.push(msg.params.result);
    });
    await new Promise<void>((resolve) => {
      subscribed = resolve;
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newPendingTransactions'] }));
    });
    const nonce = Number(await call(c, 'eth_getTransactionCount', [EWOQ, 'latest']));
    const queued = await call(c, 'eth_sendRawTransaction', [signer(43112)(EWOQ_KEY, { nonce: nonce + 1 })]);
    expect((await call(c, 'txpool_status', [])).queued).toBe('0x1');
    const filler = await call(c, 'eth_sendRawTransaction', [signer(43112)(EWOQ_KEY, { nonce })]);
    for (let i = 0; i < 100 && announced.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    ws.close();
    expect(announced).toEqual([filler, queued]);
    expect((await receiptOf(c, queued)).status).toBe('0x1');
  });

  it('admits and mines a 0-tip tx on the C-Chain (eth_sendRawTransaction and eth_sendTransaction); a 0 gas price is under the minimum fee cap', async () => {
    const nonce = Number(await call(c, 'eth_getTransactionCount', [EWOQ, 'latest']));
    const raw = await call(c, 'eth_sendRawTransaction', [signer(43112)(EWOQ_KEY, { nonce, maxPriorityFeePerGas: 0n })]);
    const [account] = await call(c, 'eth_accounts', []);
    const sent = await call(c, 'eth_sendTransaction', [{ from: account, to: SINK, value: '0x1', maxPriorityFeePerGas: '0x0' }]);
    for (const hash of [raw, sent]) {
      const receipt = await receiptOf(c, hash);
      expect(receipt.status).toBe('0x1');
      // A 0 tip pays the base fee alone.
      const block = await call(c, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
      expect(receipt.effectiveGasPrice).toBe(block.baseFeePerGas);
      expect((await call(c, 'eth_getTransactionByHash', [hash])).maxPriorityFeePerGas).toBe('0x0');
    }
    const legacy = createLegacyTx(
      { nonce: nonce + 1, gasLimit: 21_000n, to: SINK, value: 1n, gasPrice: 0n },
      { common: createCustomCommon({ chainId: 43112 }, Mainnet, { hardfork: Hardfork.Cancun }) },
    );
    expect(await callError(c, 'eth_sendRawTransaction', [sign(legacy, EWOQ_KEY)])).toEqual({
      code: -32000,
      message: `transaction underpriced: address ${EWOQ} have gas fee cap (0) < pool minimum fee cap (1)`,
    });
    // eth_sendTransaction never gets that far: setDefaults refuses a 0 gas price after London.
    expect(await callError(c, 'eth_sendTransaction', [{ from: account, to: SINK, value: '0x1', gasPrice: '0x0' }])).toEqual({
      code: -32000,
      message: 'gasPrice must be non-zero after london fork',
    });
  });

  it("admits and mines a 0-tip tx on an L1 (Subnet-EVM's pool also sets its minimum tip to 0); a fee cap under minBaseFee is refused", async () => {
    const nonce = Number(await call(l1, 'eth_getTransactionCount', [EWOQ, 'latest']));
    const raw = await call(l1, 'eth_sendRawTransaction', [signer(99999)(EWOQ_KEY, { nonce, maxPriorityFeePerGas: 0n })]);
    await call(l1, 'anvil_impersonateAccount', [EWOQ]);
    const sent = await call(l1, 'eth_sendTransaction', [{ from: EWOQ, to: SINK, value: '0x1', maxPriorityFeePerGas: '0x0' }]);
    for (const hash of [raw, sent]) {
      const receipt = await receiptOf(l1, hash);
      expect(receipt.status).toBe('0x1');
      const block = await call(l1, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
      expect(receipt.effectiveGasPrice).toBe(block.baseFeePerGas);
    }
    const legacy = createLegacyTx(
      { nonce: nonce + 2, gasLimit: 21_000n, to: SINK, value: 1n, gasPrice: 0n },
      { common: createCustomCommon({ chainId: 99999 }, Mainnet, { hardfork: Hardfork.Cancun }) },
    );
    expect(await callError(l1, 'eth_sendRawTransaction', [sign(legacy, EWOQ_KEY)])).toEqual({
      code: -32000,
      message: `transaction underpriced: address ${EWOQ} have gas fee cap (0) < pool minimum fee cap (1000000000)`,
    });
  });

  it("keeps 64 queued txs of a sender on an L1 too (the pool is the C-Chain's)", async () => {
    const key = keyOf('l1 flooder');
    await fund(l1, 99999, [key], 10n ** 18n);
    const replies = await sendAll(
      l1,
      range(1, 70).map((nonce) => signer(99999)(key, { nonce })),
    );
    expect(replies.filter((r) => r.startsWith('error'))).toEqual([]);
    expect(nonces((await call(l1, 'txpool_contentFrom', [addressOf(key)])).queued)).toEqual(range(1, 64));
    expect(await call(l1, 'eth_getTransactionByHash', [replies[64]])).toBeNull();
  });
});

// The Index API across restarts of one data dir, through the spawned CLI: the --index-enabled /
// --index-allow-incomplete table of docs/research/index-and-proposervm.md §4 (FATAL line, exit code 0,
// never serving), and the durability of the index under kill -9 (§1.7 layout, §2-3 contents).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, watch } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { buildTx, parseUTXO, txOutputs } from '../src/vms/avm/codec/index.js';
import { addressOfPrivateKey, signHash, txHash } from '../src/vms/avm/verify/index.js';
import { testAccounts } from '../src/vms/avm/testaccounts.js';
import { formatAddress } from '../src/vms/components/avax/address.js';
import type { SignedTx, UnsignedTx, UTXO } from '../src/vms/avm/types.js';
import { encodeCB58, idFromString } from '../src/encoding/cb58.js';
import { decodeHex, encodeHex } from '../src/encoding/hex.js';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { CLI, call, callError, post, rpc, runCli, spawnNode, tempDir, type SpawnedNode } from './helpers.js';

// ---------------------------------------------------------------------------------------------
// Local network constants and a minimal wallet.

const X_ID = '2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed';
const X = idFromString(X_ID);
const AVAX = idFromString('2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe');
const X_GENESIS = '2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst';
const EWOQ_KEY = new Uint8Array(Buffer.from('56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027', 'hex'));
const FEE = 1_000_000n;
const GENESIS_UTXO = (): UTXO => ({
  utxoID: { txID: AVAX, outputIndex: 1 },
  assetID: AVAX,
  output: { type: 7, amount: 300_000_000_000_000_000n, owners: { locktime: 0n, threshold: 1, addresses: [addressOfPrivateKey(EWOQ_KEY)] } },
});
const INDEXES = ['X/block', 'X/vtx', 'X/tx', 'P/block', 'C/block'];
const L1_FIXTURE = new URL('../fixtures/myl1.json', import.meta.url).pathname;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const xURL = (uri: string) => `${uri}/ext/bc/X`;
const indexURL = (uri: string, name = 'X/block') => `${uri}/ext/index/${name}`;

/** One key and its single UTXO: each payment sends the whole UTXO back to the key, less the fee. */
class Coin {
  readonly address: Uint8Array;
  constructor(
    readonly key: Uint8Array,
    public utxo: UTXO,
  ) {
    this.address = addressOfPrivateKey(key);
  }

  next(): SignedTx {
    const amount = this.utxo.output.type === 7 ? this.utxo.output.amount : 0n;
    const unsigned: UnsignedTx = {
      type: 0,
      base: {
        networkID: 12345,
        blockchainID: X,
        outputs: [{ assetID: AVAX, out: { type: 7, amount: amount - FEE, owners: { locktime: 0n, threshold: 1, addresses: [this.address] } } }],
        inputs: [{ utxoID: this.utxo.utxoID, assetID: AVAX, input: { type: 5, amount, sigIndices: [0] } }],
        memo: new Uint8Array(),
      },
    };
    const signature = signHash(txHash(buildTx(unsigned, []).unsignedBytes), this.key);
    return buildTx(unsigned, [{ type: 9, signatures: [signature] }]);
  }

  /** Moves to the output of `tx`, once it is known to be accepted. */
  advance(tx: SignedTx): void {
    this.utxo = txOutputs(tx).utxos[0]!;
  }
}

async function issue(uri: string, tx: SignedTx): Promise<string> {
  const { txID } = await call(xURL(uri), 'avm.issueTx', { tx: encodeHex(tx.bytes, 'hex') });
  expect(txID).toBe(encodeCB58(tx.id));
  return txID;
}

/** Issues `n` payments from `coin`, one block each (issueTx replies once the block is accepted). */
async function pay(uri: string, coin: Coin, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const tx = coin.next();
    ids.push(await issue(uri, tx));
    coin.advance(tx);
  }
  return ids;
}

/**
 * One EVM account sending transfers with eth_sendRawTransaction: an acknowledged hash must be mined
 * after any kill (the pool's journal), the tx in flight at the kill may be or not.
 */
class EvmSender {
  readonly account: PrivateKeyAccount;
  nonce = 0;
  readonly acknowledged: string[] = [];
  constructor(
    key: Uint8Array,
    readonly path: string,
    readonly chainId: number,
  ) {
    this.account = privateKeyToAccount(`0x${Buffer.from(key).toString('hex')}`);
  }

  url(uri: string): string {
    return `${uri}/ext/bc/${this.path}/rpc`;
  }

  /** The next nonce, as the restarted node counts it (pending included). */
  async sync(uri: string): Promise<void> {
    const r = await rpc(this.url(uri), 'eth_getTransactionCount', [this.account.address, 'pending']);
    this.nonce = Number(r.json.result);
  }

  /** Sends until `stopped()`; only a dropped connection (the kill) may end it. */
  async run(uri: string, stopped: () => boolean, rpcErrors: string[]): Promise<void> {
    while (!stopped()) {
      const raw = await this.account.signTransaction({
        chainId: this.chainId,
        type: 'eip1559',
        nonce: this.nonce,
        to: '0x4444444444444444444444444444444444444444',
        value: 1n,
        gas: 21_000n,
        maxFeePerGas: 500_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
      });
      let reply: Awaited<ReturnType<typeof rpc>>;
      try {
        reply = await rpc(this.url(uri), 'eth_sendRawTransaction', [raw]);
      } catch {
        return;
      }
      if (reply.json?.error) {
        rpcErrors.push(`${this.path} nonce ${this.nonce}: ${reply.json.error.message}`);
        return;
      }
      this.acknowledged.push(reply.json.result);
      this.nonce++;
    }
  }

  /** Acknowledged hashes that have no successful receipt. */
  async lost(uri: string): Promise<string[]> {
    const receipts = await Promise.all(this.acknowledged.map((h) => rpc(this.url(uri), 'eth_getTransactionReceipt', [h])));
    return this.acknowledged.filter((_, i) => receipts[i]!.json?.result?.status !== '0x1');
  }
}

const height = async (uri: string): Promise<number> => Number((await call(xURL(uri), 'avm.getHeight')).height);
const txStatus = async (uri: string, id: string): Promise<string> => (await call(xURL(uri), 'avm.getTxStatus', { txID: id })).status;

interface InnerBlock {
  id: string;
  parentID: string;
  height: number;
  txs: Array<{ id: string }> | null;
}
const blockAt = async (uri: string, h: number): Promise<InnerBlock> => (await call(xURL(uri), 'avm.getBlockByHeight', { height: h, encoding: 'json' })).block;

// ---------------------------------------------------------------------------------------------
// Processes.

/** Every node this file spawns: a failed assertion must not leave one running. */
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

const ARGS = (dir: string) => [`--data-dir=${dir}`, '--http-port=0'];
const mainLog = (dir: string) => (existsSync(join(dir, 'logs', 'main.log')) ? readFileSync(join(dir, 'logs', 'main.log'), 'utf8') : '');
const count = (text: string, re: RegExp) => (text.match(new RegExp(re.source, 'g')) ?? []).length;

/**
 * Spawns the CLI and waits for its banner's last line as well as the process context file: the
 * emulator writes the file before it installs its SIGTERM handler (see the test on that below).
 */
async function start(dir: string, args: string[]): Promise<SpawnedNode> {
  const node = await spawnNode(args, dir);
  children.add(node.child);
  const deadline = Date.now() + 10_000;
  while (!node.output().includes('Listening on') && node.child.exitCode === null && Date.now() < deadline) await sleep(5);
  return node;
}

async function stop(node: SpawnedNode): Promise<void> {
  node.child.kill('SIGTERM');
  expect(await node.exited).toBe(0);
}

const FATAL_A = /FATAL +running would cause index to become incomplete but incomplete indices are disabled \{"chainName": ?"P"\}/;
const FATAL_B = /FATAL +index is incomplete but incomplete indices are disabled\. Shutting down \{"chainName": ?"P"\}/;

/** A start that must end at the indexer: one FATAL line naming P, exit code 0, never serving. */
async function expectFatal(dir: string, args: string[], line: RegExp): Promise<string> {
  const logged = count(mainLog(dir), line);
  const t0 = Date.now();
  const r = await runCli([...ARGS(dir), ...args]);
  const out = r.stdout + r.stderr;
  expect(r.code, out).toBe(0);
  expect(out).toMatch(line);
  expect(count(out, /FATAL/), 'only the first chain (P) is refused').toBe(1);
  expect(out).toMatch(/shutting down node \{"exitCode": ?0\}/);
  expect(out).not.toMatch(/node started|Listening on/);
  expect(existsSync(join(dir, 'process.json'))).toBe(false);
  expect(count(mainLog(dir), line)).toBe(logged + 1);
  expect(Date.now() - t0).toBeLessThan(5000);
  return out;
}

/** Every index route answers (an empty index fails with its own error), or none exists (404). */
async function expectRoutes(uri: string, present: boolean): Promise<void> {
  for (const name of INDEXES) {
    const reply = await rpc(indexURL(uri, name), 'index.isAccepted', { id: X_GENESIS });
    if (present) expect([name, reply.status, reply.json?.result]).toEqual([name, 200, { isAccepted: false }]);
    else expect([name, reply.status]).toEqual([name, 404]);
  }
  // Routes exist only under the alias.
  expect((await post(`${uri}/ext/index/${X_ID}/block`, '{"jsonrpc":"2.0","id":1,"method":"index.getLastAccepted","params":{}}')).status).toBe(404);
}

/** The "created new index" lines of the last start, in route order (X/block is the second). */
function createdIndexes(out: string): number[] {
  return [...out.matchAll(/created new index \{"nextAcceptedIndex": ?(\d+)\}/g)].map((m) => Number(m[1]));
}

// ---------------------------------------------------------------------------------------------
// Reading and checking the X block index.

interface Epoch {
  pChainHeight: bigint;
  number: bigint;
  startTime: bigint;
}
interface Entry {
  index: number;
  id: string;
  bytes: Uint8Array;
  timestamp: string;
  type: number;
  parentID: string;
  time: bigint;
  pChainHeight: bigint;
  inner: Uint8Array;
  epoch: Epoch | undefined;
}

/** Decodes an unsigned proposervm container per §1.7, checking the layout and its outer ID (§1.6). */
function decodeContainer(c: { id: string; bytes: string; timestamp: string; index: string; encoding: string }): Entry {
  expect(c.encoding).toBe('hex');
  const b = Buffer.from(decodeHex(c.bytes, 'hex'));
  const where = `container ${c.index}`;
  expect(b.readUInt16BE(0), where).toBe(0);
  const type = b.readUInt32BE(2);
  expect([0, 2], where).toContain(type);
  expect(b.readUInt32BE(54), `${where}: certificate length`).toBe(0);
  const n = b.readUInt32BE(58);
  const inner = new Uint8Array(b.subarray(62, 62 + n));
  let epoch: Epoch | undefined;
  let end = 62 + n;
  if (type === 2) {
    epoch = { pChainHeight: b.readBigUInt64BE(end), number: b.readBigUInt64BE(end + 8), startTime: b.readBigInt64BE(end + 16) };
    expect(epoch.number, `${where}: a type-2 block carries a non-zero epoch`).toBeGreaterThan(0n);
    end += 24;
  }
  expect(b.readUInt32BE(end), `${where}: signature length`).toBe(0);
  expect(b.length, `${where}: no trailing bytes`).toBe(end + 4);
  expect(encodeCB58(sha256(b.subarray(0, end))), `${where}: outer ID = sha256 of all but the signature length`).toBe(c.id);
  return {
    index: Number(c.index),
    id: c.id,
    bytes: new Uint8Array(b),
    timestamp: c.timestamp,
    type,
    parentID: encodeCB58(b.subarray(6, 38)),
    time: b.readBigInt64BE(38),
    pChainHeight: b.readBigUInt64BE(46),
    inner,
    epoch,
  };
}

/** acp181.NewEpoch, written independently of src (§1.5). */
function childEpoch(parent: Entry): Epoch {
  if (!parent.epoch) return { pChainHeight: parent.pChainHeight, number: 1n, startTime: parent.time };
  if (parent.time < parent.epoch.startTime + 30n) return parent.epoch;
  return { pChainHeight: parent.pChainHeight, number: parent.epoch.number + 1n, startTime: parent.time };
}

/**
 * The whole X block index through getContainerRange, which must hold indices 0..n-1 with no gap and
 * end at getLastAccepted; getIndex and getContainerByIndex agree with every container.
 */
async function readIndex(uri: string): Promise<Entry[]> {
  const url = indexURL(uri);
  const last = await rpc(url, 'index.getLastAccepted', { encoding: 'hex' });
  if (last.json.error) {
    expect(last.json.error.message).toBe('no containers have been accepted');
    return [];
  }
  const lastIndex = Number(last.json.result.index);
  const raw: any[] = [];
  for (let startIndex = 0; startIndex <= lastIndex; startIndex += 1024) {
    raw.push(...(await call(url, 'index.getContainerRange', { startIndex, numToFetch: 1024, encoding: 'hex' })).containers);
  }
  expect(
    raw.map((c) => c.index),
    'contiguous indices from 0',
  ).toEqual(Array.from({ length: lastIndex + 1 }, (_, i) => String(i)));
  expect(raw.at(-1)).toEqual(last.json.result);
  const entries = raw.map(decodeContainer);
  for (const e of entries) {
    expect([e.index, (await call(url, 'index.getIndex', { id: e.id })).index]).toEqual([e.index, String(e.index)]);
  }
  const probe = entries[Math.floor(entries.length / 2)]!;
  expect(await call(url, 'index.getContainerByIndex', { index: probe.index, encoding: 'hex' })).toEqual(raw[probe.index]);
  expect(await call(url, 'index.getContainerByID', { id: probe.id, encoding: 'hex' })).toEqual(raw[probe.index]);
  await expect(callError(url, 'index.getContainerByIndex', { index: lastIndex + 1 })).resolves.toMatchObject({
    message: `no container at index ${lastIndex + 1}`,
  });
  return entries;
}

/**
 * Container i holds the X block at height firstHeight+i: its inner bytes hash to that block's avm
 * ID. With `fromGenesis` the index is complete: container 0 is the type-0 child of the inner genesis,
 * every outer parent is the previous container, timestamps 1 s apart, epochs by §1.5, and the
 * last index is the chain height - 1. Returns txID -> height.
 */
async function checkAgainstChain(uri: string, entries: Entry[], firstHeight: number, fromGenesis: boolean): Promise<Map<string, number>> {
  const txHeights = new Map<string, number>();
  const blocks = await Promise.all(entries.map((_, i) => blockAt(uri, firstHeight + i)));
  // proposervm carries the P-Chain's height, which only moves forward (an --l1 issues P-Chain txs at start-up).
  const pHeight = BigInt((await call(`${uri}/ext/bc/P`, 'platform.getHeight', {})).height);
  for (const [i, e] of entries.entries()) {
    const block = blocks[i]!;
    expect([i, Number(block.height), encodeCB58(sha256(e.inner))], 'inner block = avm block at height').toEqual([i, firstHeight + i, block.id]);
    for (const tx of block.txs ?? []) txHeights.set(tx.id, firstHeight + i);
    expect(e.pChainHeight).toBeLessThanOrEqual(pHeight);
    if (i > 0) {
      const parent = entries[i - 1]!;
      expect(e.pChainHeight, `container ${i}: P-Chain height`).toBeGreaterThanOrEqual(parent.pChainHeight);
      expect([i, e.type, e.parentID], 'outer parent = previous container').toEqual([i, 2, parent.id]);
      expect(e.time, `container ${i}: at least 1 s after its parent`).toBeGreaterThanOrEqual(parent.time + 1n);
      expect(e.epoch, `container ${i}: epoch`).toEqual(childEpoch(parent));
    }
  }
  if (fromGenesis) {
    const h = await height(uri);
    expect(entries.length, 'index.getLastAccepted index = avm.getHeight - 1').toBe(h);
    if (entries.length > 0) {
      expect(entries[0]!.type, 'X height 1 is a type-0 block').toBe(0);
      expect(entries[0]!.epoch).toBeUndefined();
      expect(entries[0]!.parentID, 'parent of X height 1 = inner genesis ID').toBe(X_GENESIS);
    }
  }
  return txHeights;
}

// =============================================================================================
// §4: the restart table, one data dir per row.

// Rows run concurrently, each on its own data dir; every row spawns several processes.
describe.concurrent('--index-enabled / --index-allow-incomplete across restarts (leveldb)', { timeout: 60_000 }, () => {
  it('(a) first run on: all five routes, empty indexes from 0; on → on continues at the stored next index', async () => {
    const dir = tempDir();
    const ewoq = new Coin(EWOQ_KEY, GENESIS_UTXO());
    let node = await start(dir, ['--index-enabled=true']);
    await expectRoutes(node.uri, true);
    expect(createdIndexes(node.output())).toEqual([0, 0, 0, 0, 0]);
    for (const name of INDEXES) {
      expect((await callError(indexURL(node.uri, name), 'index.getLastAccepted', {})).message).toBe('no containers have been accepted');
    }
    await pay(node.uri, ewoq, 3);
    const first = await readIndex(node.uri);
    expect(first.map((e) => e.index)).toEqual([0, 1, 2]);
    await checkAgainstChain(node.uri, first, 1, true);
    await stop(node);

    node = await start(dir, ['--index-enabled=true']);
    expect(createdIndexes(node.output()), 'P/block, X/block, X/vtx, X/tx, C/block').toEqual([0, 3, 0, 0, 0]);
    expect((await call(indexURL(node.uri), 'index.getLastAccepted', {})).index).toBe('2');
    await pay(node.uri, ewoq, 2);
    const second = await readIndex(node.uri);
    expect(second.map((e) => e.index)).toEqual([0, 1, 2, 3, 4]);
    expect(second.slice(0, 3)).toEqual(first);
    await checkAgainstChain(node.uri, second, 1, true);
    for (const name of ['X/vtx', 'X/tx', 'P/block', 'C/block']) {
      expect((await callError(indexURL(node.uri, name), 'index.getLastAccepted', {})).message).toBe('no containers have been accepted');
    }
    await stop(node);
  });

  it('(b) on → off without allow-incomplete: FATAL for P, exit 0, never serves, on every such start; nothing else is written', async () => {
    const dir = tempDir();
    const ewoq = new Coin(EWOQ_KEY, GENESIS_UTXO());
    let node = await start(dir, ['--index-enabled=true']);
    await pay(node.uri, ewoq, 2);
    await stop(node);

    await expectFatal(dir, [], FATAL_A);
    await expectFatal(dir, ['--index-enabled=false', '--index-allow-incomplete=false'], FATAL_A);
    expect(mainLog(dir)).toMatch(FATAL_A);

    // No incomplete marker was written: indexing on, without allow-incomplete, still runs and continues.
    node = await start(dir, ['--index-enabled=true']);
    expect(await height(node.uri)).toBe(2);
    await pay(node.uri, ewoq, 1);
    const entries = await readIndex(node.uri);
    expect(entries.map((e) => e.index)).toEqual([0, 1, 2]);
    await checkAgainstChain(node.uri, entries, 1, true);
    await stop(node);
  });

  it('(b) the refused start logs its shutdown as avalanchego does: shutting down node {"exitCode": 0} … finished node shutdown', async () => {
    const dir = tempDir();
    await stop(await start(dir, ['--index-enabled=true']));
    const out = await expectFatal(dir, [], FATAL_A);
    const lines = out.trimEnd().split('\n');
    const fatalAt = lines.findIndex((l) => FATAL_A.test(l));
    const shutdownAt = lines.findIndex((l) => /INFO +shutting down node \{"exitCode": ?0\}/.test(l));
    expect(fatalAt).toBeGreaterThanOrEqual(0);
    expect(shutdownAt).toBeGreaterThan(fatalAt);
    expect(lines.at(-1)).toMatch(/INFO +finished node shutdown$/);
  });

  it('(c) on → off with allow-incomplete runs without routes; then on: FATAL unless allowed, and an allowed index continues with a gap', async () => {
    const dir = tempDir();
    const ewoq = new Coin(EWOQ_KEY, GENESIS_UTXO());
    let node = await start(dir, ['--index-enabled=true']);
    await pay(node.uri, ewoq, 2); // heights 1, 2 -> indices 0, 1
    const before = await readIndex(node.uri);
    await stop(node);

    node = await start(dir, ['--index-enabled=false', '--index-allow-incomplete=true']);
    await expectRoutes(node.uri, false);
    expect(createdIndexes(node.output())).toEqual([]);
    const unindexed = await pay(node.uri, ewoq, 2); // heights 3, 4: never indexed
    expect(await height(node.uri)).toBe(4);
    await stop(node);

    await expectFatal(dir, ['--index-enabled=true'], FATAL_B);
    await expectFatal(dir, ['--index-enabled=true', '--index-allow-incomplete=false'], FATAL_B);

    node = await start(dir, ['--index-enabled=true', '--index-allow-incomplete=true']);
    await expectRoutes(node.uri, true);
    expect(createdIndexes(node.output())).toEqual([0, 2, 0, 0, 0]);
    expect(await height(node.uri)).toBe(4);
    await pay(node.uri, ewoq, 2); // heights 5, 6 -> indices 2, 3
    const after = await readIndex(node.uri);
    expect(after.map((e) => e.index)).toEqual([0, 1, 2, 3]);
    expect(after.slice(0, 2)).toEqual(before);
    await checkAgainstChain(node.uri, after.slice(0, 2), 1, false);
    await checkAgainstChain(node.uri, after.slice(2), 5, false);
    // The gap: heights 3 and 4 are nowhere, and container 2's outer parent (height 4) is not container 1.
    expect(after.map((e) => e.id)).not.toContain(after[2]!.parentID);
    expect(after[3]!.parentID).toBe(after[2]!.id);
    for (const id of unindexed) expect(await txStatus(node.uri, id)).toBe('Accepted');
    const gapBlocks = await Promise.all([3, 4].map((h) => blockAt(node.uri, h)));
    for (const b of gapBlocks) {
      expect(after.some((e) => encodeCB58(sha256(e.inner)) === b.id)).toBe(false);
    }
    await stop(node);

    // The incomplete marker is never deleted; and the chain was indexed, so off without allow is refused.
    await expectFatal(dir, ['--index-enabled=true'], FATAL_B);
    await expectFatal(dir, ['--index-enabled=false'], FATAL_A);
  });

  it('(d) first run off; then on: FATAL unless allowed; allowed, a new index starts at 0 with the first block accepted now', async () => {
    const dir = tempDir();
    const ewoq = new Coin(EWOQ_KEY, GENESIS_UTXO());
    let node = await start(dir, ['--index-enabled=false']);
    await expectRoutes(node.uri, false);
    await pay(node.uri, ewoq, 2); // heights 1, 2: never indexed
    await stop(node);

    await expectFatal(dir, ['--index-enabled=true'], FATAL_B);

    node = await start(dir, ['--index-enabled=true', '--index-allow-incomplete=true']);
    await expectRoutes(node.uri, true);
    expect(createdIndexes(node.output())).toEqual([0, 0, 0, 0, 0]);
    expect((await callError(indexURL(node.uri), 'index.getLastAccepted', {})).message).toBe('no containers have been accepted');
    await pay(node.uri, ewoq, 2); // heights 3, 4 -> indices 0, 1
    const entries = await readIndex(node.uri);
    expect(entries.map((e) => e.index)).toEqual([0, 1]);
    await checkAgainstChain(node.uri, entries, 3, false);
    // Height 3 is not the first post-fork block: type 2, its parent the (unindexed) outer block at height 2.
    expect(entries[0]!.type).toBe(2);
    expect(entries[0]!.parentID).not.toBe(X_GENESIS);
    await stop(node);

    await expectFatal(dir, ['--index-enabled=true'], FATAL_B);
    // Allowed again: the index continues where it was.
    node = await start(dir, ['--index-enabled=true', '--index-allow-incomplete=true']);
    expect(createdIndexes(node.output())).toEqual([0, 2, 0, 0, 0]);
    await stop(node);
  });

  it('(d) the first run may be off with allow-incomplete too: the next start with indexing on is still refused', async () => {
    const dir = tempDir();
    await stop(await start(dir, ['--index-enabled=false', '--index-allow-incomplete=true']));
    await expectFatal(dir, ['--index-enabled=true'], FATAL_B);
  });

  it('(a) a first run on with allow-incomplete marks nothing incomplete: a later start on without it runs', async () => {
    const dir = tempDir();
    await stop(await start(dir, ['--index-enabled=true', '--index-allow-incomplete=true']));
    const node = await start(dir, ['--index-enabled=true']);
    await expectRoutes(node.uri, true);
    await stop(node);
  });

  it('(e) memdb is never refused: every start is a fresh database, whatever the leveldb in the same dir says', async () => {
    const dir = tempDir();
    const ewoq = new Coin(EWOQ_KEY, GENESIS_UTXO());
    // The dir's leveldb has been indexed: a leveldb start with indexing off is refused …
    await stop(await start(dir, ['--index-enabled=true']));
    let node = await start(dir, ['--db-type=memdb', '--index-enabled=true']);
    await expectRoutes(node.uri, true);
    await pay(node.uri, ewoq, 1);
    expect((await call(indexURL(node.uri), 'index.getLastAccepted', {})).index).toBe('0');
    await stop(node);
    // … but memdb, off without allow-incomplete, runs.
    node = await start(dir, ['--db-type=memdb', '--index-enabled=false']);
    await expectRoutes(node.uri, false);
    await stop(node);
    node = await start(dir, ['--db-type=memdb', '--index-enabled=true']);
    expect(await height(node.uri), 'the chain restarts from genesis').toBe(0);
    expect(createdIndexes(node.output())).toEqual([0, 0, 0, 0, 0]);
    expect((await callError(indexURL(node.uri), 'index.getLastAccepted', {})).message).toBe('no containers have been accepted');
    await stop(node);
    expect(count(mainLog(dir), /FATAL/)).toBe(0);
    await expectFatal(dir, ['--index-enabled=false'], FATAL_A);
  });
});

// =============================================================================================
// Stopping a node that has just started (alone: the window is short, and load on this process hides it).

describe('SIGTERM right after start', () => {
  it('a node stopped by SIGTERM as soon as its process context file appears shuts down cleanly (exit 0, file removed)', async () => {
    // avalanchego registers its SIGINT/SIGTERM handler as soon as it starts running, while Dispatch
    // writes the process context file in a goroutine; a supervisor may signal the node the moment it
    // finds that file. Five attempts, since the emulator's window is a race.
    const results: Array<{ code: number | null; signal: string | null; contextFileLeftBehind: boolean }> = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const dir = tempDir();
      const contextFile = join(dir, 'process.json');
      const child = spawn(process.execPath, [CLI, ...ARGS(dir), '--index-enabled=true'], { stdio: 'ignore' });
      children.add(child);
      const exited = new Promise<{ code: number | null; signal: string | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
      const watcher = watch(dir, () => check());
      let poll: NodeJS.Timeout | undefined;
      let check = () => {};
      await Promise.race([
        exited,
        new Promise<void>((found) => {
          check = () => {
            if (existsSync(contextFile)) found();
          };
          poll = setInterval(check, 1);
        }),
      ]);
      watcher.close();
      clearInterval(poll);
      child.kill('SIGTERM');
      const { code, signal } = await exited;
      results.push({ code, signal, contextFileLeftBehind: existsSync(contextFile) });
    }
    expect(results).toEqual(Array(5).fill({ code: 0, signal: null, contextFileLeftBehind: false }));
  });
});

// =============================================================================================
// Durability: the index commits with the block, so kill -9 at any moment loses neither. The suite
// kills a few times; `npm run crash` runs the same test with CRASH_KILLS (20 by default) kills.
const CRASH_KILLS = Math.max(1, Number(process.env.CRASH_KILLS ?? 4) || 4);

describe('kill -9 while txs stream in (leveldb, --index-enabled=true)', () => {
  it(
    'keeps every acknowledged tx accepted and its block indexed, the index contiguous and chained, over several kills',
    async () => {
      const seed = Number(process.env.INDEX_RESTART_SEED ?? Date.now() % 1_000_000);
      let state = seed;
      const random = () => {
        state = (state * 1103515245 + 12345) % 2147483648;
        return state / 2147483648;
      };
      const ctx = `seed ${seed}`;
      const dir = tempDir();
      const KILLS = CRASH_KILLS;
      const accounts = testAccounts(3);

      // The C-Chain (two test accounts) and an L1 (ewoq) take sends too: their pool journals replay at each restart.
      const nodeArgs = ['--index-enabled=true', '--test-accounts=3', `--l1=${L1_FIXTURE}`];
      let node = await start(dir, nodeArgs);
      const evm = [
        new EvmSender(accounts[0]!.privateKey, 'C', 43112),
        new EvmSender(accounts[1]!.privateKey, 'C', 43112),
        new EvmSender(EWOQ_KEY, 'myl1', 99999),
      ];
      const coins: Coin[] = [];
      for (const a of [...accounts.map((t) => t.privateKey), EWOQ_KEY]) {
        const { utxos } = await call(xURL(node.uri), 'avm.getUTXOs', { addresses: [formatAddress('X', 'local', addressOfPrivateKey(a))] });
        expect(utxos, ctx).toHaveLength(1);
        coins.push(new Coin(a, parseUTXO(decodeHex(utxos[0], 'hex'))));
      }

      const acknowledged: string[] = [];
      let unacknowledgedAccepted = 0;
      let previous: Entry[] = [];
      const cycles: string[] = [];

      const verify = async (uri: string) => {
        const entries = await readIndex(uri);
        const txHeights = await checkAgainstChain(uri, entries, 1, true);
        expect(entries.slice(0, previous.length), `${ctx}: containers indexed before a kill are unchanged`).toEqual(previous);
        const statuses = await Promise.all(acknowledged.map((id) => txStatus(uri, id)));
        const lost = acknowledged.filter((_, i) => statuses[i] !== 'Accepted');
        expect(lost, `${ctx}: acknowledged txs not Accepted after restart`).toEqual([]);
        const unindexed = acknowledged.filter((id) => !txHeights.has(id));
        expect(unindexed, `${ctx}: acknowledged txs whose block is not in the index`).toEqual([]);
        for (const sender of evm) {
          expect(await sender.lost(uri), `${ctx}: acknowledged ${sender.path} txs not mined after restart`).toEqual([]);
          await sender.sync(uri);
        }
        // Every C-Chain block is indexed, the one built at start-up from the replayed journal too.
        const cHeight = Number((await rpc(`${uri}/ext/bc/C/rpc`, 'eth_blockNumber', [])).json.result);
        const cLast = await rpc(indexURL(uri, 'C/block'), 'index.getLastAccepted', { encoding: 'hex' });
        expect(cHeight === 0 ? cLast.json.error?.message : Number(cLast.json.result?.index) + 1, `${ctx}: C blocks indexed`).toBe(
          cHeight === 0 ? 'no containers have been accepted' : cHeight,
        );
        previous = entries;
        return entries.length;
      };

      for (let cycle = 0; cycle <= KILLS; cycle++) {
        const t0 = Date.now();
        const containers = await verify(node.uri);
        if (cycle === KILLS) {
          cycles.push(`final: ${containers} containers`);
          break;
        }
        const uri = node.uri;
        const inflight: Array<SignedTx | undefined> = coins.map(() => undefined);
        const rpcErrors: string[] = [];
        let killed = false;
        const workers = coins.map(async (coin, w) => {
          while (!killed) {
            const tx = coin.next();
            inflight[w] = tx;
            try {
              acknowledged.push(await issue(uri, tx));
            } catch (err) {
              // Only the kill may stop a worker: a connection error, never a JSON-RPC error.
              if (/^avm\.issueTx:/.test((err as Error).message)) rpcErrors.push((err as Error).message);
              return;
            }
            coin.advance(tx);
            inflight[w] = undefined;
          }
        });
        const evmRuns = evm.map((sender) => sender.run(uri, () => killed, rpcErrors));
        const before = acknowledged.length;
        const evmBefore = evm.reduce((n, e) => n + e.acknowledged.length, 0);
        const delay = 150 + Math.floor(random() * 900);
        await sleep(delay);
        killed = true;
        node.child.kill('SIGKILL');
        expect(await node.exited, ctx).toBe(null);
        await Promise.all([...workers, ...evmRuns]);
        expect(rpcErrors, ctx).toEqual([]);
        const t1 = Date.now();

        // A killed node leaves its process context file behind (as avalanchego does): spawnNode must wait for the new one.
        expect(existsSync(join(dir, 'process.json')), ctx).toBe(true);
        rmSync(join(dir, 'process.json'));
        node = await start(dir, nodeArgs);
        // A tx in flight at the kill either made it into a committed block or is gone with the mempool.
        for (const [w, tx] of inflight.entries()) {
          if (!tx) continue;
          const status = await txStatus(node.uri, encodeCB58(tx.id));
          expect(['Accepted', 'Unknown'], ctx).toContain(status);
          if (status === 'Accepted') {
            coins[w]!.advance(tx);
            unacknowledgedAccepted++;
          }
        }
        cycles.push(
          `cycle ${cycle + 1}: ${containers} containers at start, killed after ${delay} ms with ${acknowledged.length - before} X txs and ${evm.reduce((n, e) => n + e.acknowledged.length, 0) - evmBefore} EVM txs acknowledged and ${inflight.filter(Boolean).length} X txs in flight; restart ${Date.now() - t1} ms; cycle ${Date.now() - t0} ms`,
        );
      }
      const last = previous.at(-1);
      const drift = last ? Number(last.time) - Math.floor(Date.now() / 1000) : 0;
      console.log(
        [
          `kill -9 durability (${ctx}): ${acknowledged.length} acknowledged X txs, ${unacknowledgedAccepted} in-flight txs accepted anyway, ${previous.length} X blocks indexed; ${evm.map((e) => `${e.acknowledged.length} ${e.path} txs`).join(', ')} acknowledged, all mined`,
          ...cycles,
          `last outer timestamp - wall clock = ${drift} s`,
        ].join('\n'),
      );
      expect(acknowledged.length, ctx).toBeGreaterThan(0);
      for (const sender of evm) expect(sender.acknowledged.length, `${ctx}: ${sender.path} sends`).toBeGreaterThan(0);
      await stop(node);
    },
    20_000 + CRASH_KILLS * 15_000,
  );
});

// The whole node's state with --dev: emulator.snapshot/revert spanning X, C, an L1, shared memory
// and the index (an X→C export in between is undone on both sides), a dump/load round trip into a
// fresh node, a reset to genesis, and Anvil's evm_snapshot/evm_revert/anvil_dumpState/anvil_reset
// through viem's test client, which act on the whole node too.
import { constants } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, rpc, startTestNode, type TestNode, tempDir } from './helpers.js';
import { activity, evmClients, FIXTURE, OPTIONS, view } from './support/states.js';

describe('whole-node state (--dev)', () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode(OPTIONS);
  });
  afterAll(() => node.stop());

  it('snapshot and revert take X, C, the L1, shared memory and the index back together', async () => {
    const before = await view(node.uri);
    expect(before.atomic).toBe(0);
    const { id } = await call(`${node.uri}/ext/emulator`, 'emulator.snapshot', {});
    await activity(node.uri);
    const after = await view(node.uri);
    expect(after.cHeight).toBeGreaterThan(before.cHeight);
    expect(after.l1Height).toBeGreaterThan(before.l1Height);
    expect(after.atomic).toBe(1);
    expect(BigInt(after.xBalance)).toBeLessThan(BigInt(before.xBalance));
    expect(after.xIndexed).not.toBe(before.xIndexed);

    expect(await call(`${node.uri}/ext/emulator`, 'emulator.revert', { id })).toEqual({ reverted: true });
    expect(await view(node.uri)).toEqual(before);
    // One-shot: the snapshot is used up.
    expect(await call(`${node.uri}/ext/emulator`, 'emulator.revert', { id })).toEqual({ reverted: false });
    // The reverted node goes on: the same activity again lands.
    await activity(node.uri);
    expect((await view(node.uri)).atomic).toBe(1);
  });

  it('dumps the state to a file that a fresh node loads; a bad file is refused and changes nothing', async () => {
    // State files live in --state-dir (the data dir's states/ by default): the fresh node reads this node's.
    const stateDir = join(node.dataDir, 'states');
    const dumped = await call(`${node.uri}/ext/emulator`, 'emulator.dumpState', { path: 'state.bin' });
    const path = join(stateDir, 'state.bin');
    expect(dumped.path).toBe(path);
    expect(Number(dumped.bytes)).toBeGreaterThan(1000);
    const fresh = await startTestNode({ ...OPTIONS, stateDir });
    try {
      const empty = await view(fresh.uri);
      expect(await view(fresh.uri)).not.toEqual(await view(node.uri));
      expect(await callError(`${fresh.uri}/ext/emulator`, 'emulator.loadState', { path: `${path}.missing` })).toMatchObject({
        message: expect.stringMatching(/^couldn't read state file .*: ENOENT/),
      });
      writeFileSync(join(stateDir, 'myl1.json'), readFileSync(FIXTURE));
      expect(await callError(`${fresh.uri}/ext/emulator`, 'emulator.loadState', { path: 'myl1.json' })).toMatchObject({
        message: "couldn't load state: not a state dumped by the emulator: not gzip data",
      });
      expect(await view(fresh.uri)).toEqual(empty);
      expect(await call(`${fresh.uri}/ext/emulator`, 'emulator.loadState', { path })).toEqual({});
      expect(await view(fresh.uri)).toEqual(await view(node.uri));
      // The loaded node builds on what it loaded.
      await activity(fresh.uri);
      expect((await view(fresh.uri)).cHeight).toBeGreaterThan((await view(node.uri)).cHeight);
    } finally {
      await fresh.stop();
    }
  });

  it('resets to genesis and the start-up work of its flags', async () => {
    const fresh = await startTestNode(OPTIONS);
    const genesis = await view(fresh.uri);
    await fresh.stop();
    expect(await call(`${node.uri}/ext/emulator`, 'emulator.reset', {})).toEqual({});
    const reset = await view(node.uri);
    // The P-Chain's start-up blocks (the L1's subnet, chain and conversion) are the same; the X index differs only by time.
    expect({ ...reset, xIndexed: undefined }).toEqual({ ...genesis, xIndexed: undefined });
  });
});

describe("Anvil's state methods (--dev, viem's test client)", () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode(OPTIONS);
  });
  afterAll(() => node.stop());

  it('evm_snapshot/evm_revert undo txs and state edits, on every chain at once', async () => {
    const { test, client, wallet } = evmClients(`${node.uri}/ext/bc/C/rpc`, 43112);
    const l1 = evmClients(`${node.uri}/ext/bc/myl1/rpc`, 99999);
    const id = await test.snapshot();
    expect(id).toMatch(/^0x[0-9a-f]+$/);
    const start = await client.getBlockNumber();
    await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: '0x5555555555555555555555555555555555555555', value: 3n }) });
    await test.setBalance({ address: '0x6666666666666666666666666666666666666666', value: 10n });
    await l1.test.mine({ blocks: 2 });
    const l1Height = await l1.client.getBlockNumber();
    expect(await client.getBalance({ address: '0x5555555555555555555555555555555555555555' })).toBe(3n);
    await test.revert({ id });
    expect(await client.getBlockNumber()).toBe(start);
    expect(await client.getBalance({ address: '0x5555555555555555555555555555555555555555' })).toBe(0n);
    expect(await client.getBalance({ address: '0x6666666666666666666666666666666666666666' })).toBe(0n);
    expect(await l1.client.getBlockNumber()).toBe(l1Height - 2n);
    expect((await rpc(`${node.uri}/ext/bc/C/rpc`, 'evm_revert', [id])).json.result).toBe(false);
  });

  it('anvil_dumpState/anvil_loadState round-trip through hex; anvil_reset goes back to genesis; forking an upstream that does not answer is refused', async () => {
    const { test, client, wallet } = evmClients(`${node.uri}/ext/bc/C/rpc`, 43112);
    await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: '0x7777777777777777777777777777777777777777', value: 9n }) });
    const state = await test.dumpState();
    expect(state).toMatch(/^0x1f8b/);
    const height = await client.getBlockNumber();
    await test.reset();
    expect(await client.getBlockNumber()).toBeLessThan(height);
    expect(await client.getBalance({ address: '0x7777777777777777777777777777777777777777' })).toBe(0n);
    await test.loadState({ state });
    expect(await client.getBlockNumber()).toBe(height);
    expect(await client.getBalance({ address: '0x7777777777777777777777777777777777777777' })).toBe(9n);
    // (test/fork.test.ts forks a live upstream; here none answers, and nothing is reset.)
    const forking = await rpc(`${node.uri}/ext/bc/C/rpc`, 'anvil_reset', [{ forking: { jsonRpcUrl: 'http://127.0.0.1:1', blockNumber: 5 } }]);
    expect(forking.json.error.message).toMatch(/^fork upstream http:\/\/127\.0\.0\.1:1: eth_blockNumber failed: connect ECONNREFUSED/);
    const bad = await rpc(`${node.uri}/ext/bc/C/rpc`, 'anvil_loadState', ['0x1234']);
    expect(bad.json.error.message).toBe('failed to load state: not a state dumped by the emulator: not gzip data');
  });
});

describe('reverts over a websocket, and a dump the node cannot run on', () => {
  it('answers evm_revert on the websocket that asked, then ends the old connections; keeps its state when a load fails', async () => {
    const node = await startTestNode({ dbType: 'memdb', dev: true });
    try {
      const { WebSocket } = await import('ws');
      const ws = new WebSocket(`${node.uri.replace('http', 'ws')}/ext/bc/C/ws`);
      await new Promise((r) => ws.once('open', r));
      const ask = (id: number, method: string, params: unknown[]) =>
        new Promise<any>((resolve) => {
          ws.once('message', (m) => resolve(JSON.parse(String(m))));
          ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
        });
      const snap = await ask(1, 'evm_snapshot', []);
      expect(snap.result).toMatch(/^0x[0-9a-f]+$/);
      const closed = new Promise((r) => ws.once('close', r));
      expect(await ask(2, 'evm_revert', [snap.result])).toEqual({ jsonrpc: '2.0', id: 2, result: true });
      await closed;

      // A dump whose P-Chain records are garbage: the node cannot start on it, says so, and goes on as it was.
      const { test, client, wallet } = evmClients(`${node.uri}/ext/bc/C/rpc`, 43112);
      await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: '0x5555555555555555555555555555555555555555', value: 4n }) });
      const height = await client.getBlockNumber();
      const { decodeState, encodeState } = await import('../src/storage/state.js');
      const state = decodeState(Buffer.from((await test.dumpState()).slice(2), 'hex'));
      const pPrefix = createHash('sha256').update(new Uint8Array(32)).digest();
      const broken = encodeState({
        ...state,
        entries: state.entries.map(([k, v]) => [k, Buffer.from(k).subarray(0, 32).equals(pPrefix) ? Uint8Array.of(1, 2, 3) : v]),
      });
      // Its chains' dev settings stay as they were too (automine, the instanceId).
      const cRpc = `${node.uri}/ext/bc/C/rpc`;
      const instance = (await rpc(cRpc, 'hardhat_metadata', [])).json.result.instanceId;
      await rpc(cRpc, 'evm_setAutomine', [false]);
      const refused = await rpc(cRpc, 'anvil_loadState', [`0x${Buffer.from(broken).toString('hex')}`]);
      expect(refused.json.error.message).toMatch(/^failed to load state: the node cannot run on it \(.*\); it kept its own state$/);
      expect((await rpc(cRpc, 'hardhat_metadata', [])).json.result.instanceId).toBe(instance);
      expect((await rpc(cRpc, 'anvil_getAutomine', [])).json.result).toBe(false);
      await rpc(cRpc, 'evm_setAutomine', [true]);
      expect(await client.getBlockNumber()).toBe(height);
      expect(await client.getBalance({ address: '0x5555555555555555555555555555555555555555' })).toBe(4n);
    } finally {
      await node.stop();
    }
  });
});

describe('on LevelDB', () => {
  it('a revert is written to disk: a restart finds the reverted state', async () => {
    const dataDir = tempDir();
    const first = await startTestNode({ dataDir, dev: true });
    let height: bigint;
    try {
      const { test, client, wallet } = evmClients(`${first.uri}/ext/bc/C/rpc`, 43112);
      height = await client.getBlockNumber();
      const id = await test.snapshot();
      await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: '0x5555555555555555555555555555555555555555', value: 3n }) });
      await test.revert({ id });
      expect(await client.getBlockNumber()).toBe(height);
    } finally {
      await first.stop();
    }
    const again = await startTestNode({ dataDir, dev: true });
    try {
      const { client } = evmClients(`${again.uri}/ext/bc/C/rpc`, 43112);
      expect(await client.getBlockNumber()).toBe(height);
      expect(await client.getBalance({ address: '0x5555555555555555555555555555555555555555' })).toBe(0n);
    } finally {
      await again.stop();
    }
  });
});

describe('without --dev', () => {
  it('has no state methods', async () => {
    const node = await startTestNode({ dbType: 'memdb' });
    try {
      expect((await callError(`${node.uri}/ext/emulator`, 'emulator.snapshot', {})).message).toBe('rpc: can\'t find method "emulator.Snapshot"');
      expect((await rpc(`${node.uri}/ext/bc/C/rpc`, 'evm_snapshot', [])).json.error.code).toBe(-32601);
    } finally {
      await node.stop();
    }
  });
});

describe('a dumped state over 43 MB zipped (decoded directly: through HTTP it is a 90 MB hex body)', () => {
  it('is unzipped within the largest Buffer, not refused as "not gzip data"', async () => {
    const { decodeState, encodeState, maxUnzipped } = await import('../src/storage/state.js');
    // A valid dump of 45 MB zipped: its gzip stored, not compressed (level 0), made in a moment.
    const state = { networkId: 12345, clockOffsetNs: -7n, entries: [[Uint8Array.of(1, 2), new Uint8Array(45_000_000).fill(9)] as [Uint8Array, Uint8Array]] };
    const stored = gzipSync(gunzipSync(encodeState(state)), { level: 0 });
    expect(stored.length).toBeGreaterThan(constants.MAX_LENGTH / 100);
    const back = decodeState(stored);
    expect(back.networkId).toBe(12345);
    expect(back.clockOffsetNs).toBe(-7n);
    expect(back.entries).toHaveLength(1);
    expect(Buffer.from(back.entries[0]![1]).equals(Buffer.from(state.entries[0]![1]))).toBe(true);
    // 100 times the zipped size would pass 4 GiB, a limit zlib refuses outright.
    expect(maxUnzipped(50_000_000)).toBe(constants.MAX_LENGTH);
    expect(maxUnzipped(1_000_000)).toBe(100_000_000);
  });
});

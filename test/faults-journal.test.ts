// Emulator controls for client resilience tests: injected API faults (latency, an error in the
// endpoint's own dialect, an HTTP status, a dropped connection; seeded probabilities and counts),
// listed and cleared with the health-check faults in one call; and the request journal.
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, post, rpc, startTestNode, type TestNode } from './helpers.js';
import { A, Wallet } from './support/pvm.js';

let node: TestNode;
let E: string;
beforeAll(async () => {
  node = await startTestNode({ dbType: 'memdb' });
  E = `${node.uri}/ext/emulator`;
});
afterAll(() => node.stop());

describe('the request journal', () => {
  it('keeps each route’s requests and replies: calls, status, user agent, duration; filters and clears', async () => {
    await call(E, 'emulator.clearJournal', {});
    await post(`${node.uri}/ext/info`, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'info.getNetworkID', params: {} }), {
      'content-type': 'application/json',
      'user-agent': 'my-client/1.0',
    });
    const viem = createPublicClient({ transport: http(`${node.uri}/ext/bc/C/rpc`, { batch: true }), cacheTime: 0 });
    await Promise.all([viem.getChainId(), viem.getBlockNumber()]);
    const { entries } = await call(E, 'emulator.journal', { route: '/ext/info' });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      route: '/ext/info',
      httpMethod: 'POST',
      status: 200,
      userAgent: 'my-client/1.0',
      calls: [{ method: 'info.getNetworkID', params: {}, id: 7 }],
      truncated: false,
    });
    expect(JSON.parse(entries[0].response)).toEqual({ jsonrpc: '2.0', result: { networkID: '12345' }, id: 7 });
    expect(entries[0].durationMs).toBeGreaterThanOrEqual(0);
    // viem's batch is one request with two calls.
    const c = (await call(E, 'emulator.journal', { route: '/ext/bc/C/rpc' })).entries;
    expect(c).toHaveLength(1);
    expect(c[0].calls.map((x: any) => x.method).sort()).toEqual(['eth_blockNumber', 'eth_chainId']);
    expect((await call(E, 'emulator.journal', { method: 'eth_chainId' })).entries).toHaveLength(1);
    const after = entries[0].seq;
    expect((await call(E, 'emulator.journal', { after })).entries.every((e: any) => e.seq > after)).toBe(true);
    await call(E, 'emulator.clearJournal', { route: '/ext/info' });
    expect((await call(E, 'emulator.journal', { route: '/ext/info' })).entries).toEqual([]);
    expect((await call(E, 'emulator.journal', { route: '/ext/bc/C/rpc' })).entries).toHaveLength(1);
  });
});

describe('injected API faults', () => {
  it('an error in the route’s own dialect: geth’s code and message on the C-Chain, -32000 on avalanchego’s APIs', async () => {
    await call(E, 'emulator.addFault', { method: 'eth_chainId', kind: 'error', code: -32005, message: 'limit exceeded' });
    await call(E, 'emulator.addFault', { method: 'avm.getHeight', kind: 'error', message: 'database closed' });
    const geth = await rpc(`${node.uri}/ext/bc/C/rpc`, 'eth_chainId', []);
    expect(geth.json.error).toEqual({ code: -32005, message: 'limit exceeded' });
    expect((await callError(`${node.uri}/ext/bc/X`, 'avm.getHeight')).message).toBe('database closed');
    // viem sees it as the node's error.
    const viem = createPublicClient({ transport: http(`${node.uri}/ext/bc/C/rpc`, { retryCount: 0 }), cacheTime: 0 });
    await expect(viem.getChainId()).rejects.toThrow('limit exceeded');
    // Other methods of the route are untouched.
    expect((await rpc(`${node.uri}/ext/bc/C/rpc`, 'eth_blockNumber', [])).json.result).toBe('0x0');
    await call(E, 'emulator.clearFaults');
    expect((await rpc(`${node.uri}/ext/bc/C/rpc`, 'eth_chainId', [])).json.result).toBe('0xa868');
  });

  it('an HTTP status, a dropped connection and a latency on a route', async () => {
    await call(E, 'emulator.addFault', { route: '/ext/bc/C/rpc', kind: 'status', status: 503, body: 'upstream down' });
    const res = await fetch(`${node.uri}/ext/bc/C/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(503);
    expect(await res.text()).toBe('upstream down');
    await call(E, 'emulator.clearFaults');

    await call(E, 'emulator.addFault', { route: '/ext/info', kind: 'drop' });
    await expect(fetch(`${node.uri}/ext/info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).rejects.toThrow();
    await call(E, 'emulator.clearFaults');

    await call(E, 'emulator.addFault', { route: '/ext/info', kind: 'latency', latencyMs: 300 });
    const t = performance.now();
    await call(`${node.uri}/ext/info`, 'info.getNetworkID');
    expect(performance.now() - t).toBeGreaterThanOrEqual(290);
    await call(E, 'emulator.clearFaults');
  });

  it('fires by a seeded probability (the same seed, the same sequence) and clears itself after `count`', async () => {
    const pattern = async () => {
      await call(E, 'emulator.addFault', { method: 'info.getNetworkID', kind: 'error', message: 'flaky', probability: 0.5, seed: 42 });
      const out: boolean[] = [];
      for (let i = 0; i < 20; i++) out.push((await rpc(`${node.uri}/ext/info`, 'info.getNetworkID')).json.error !== undefined);
      await call(E, 'emulator.clearFaults');
      return out;
    };
    const first = await pattern();
    expect(first.some((x) => x)).toBe(true);
    expect(first.some((x) => !x)).toBe(true);
    expect(await pattern()).toEqual(first);

    await call(E, 'emulator.addFault', { method: 'info.getNetworkID', kind: 'error', message: 'twice', count: 2 });
    const replies = [];
    for (let i = 0; i < 3; i++) replies.push((await rpc(`${node.uri}/ext/info`, 'info.getNetworkID')).json.error?.message ?? 'ok');
    expect(replies).toEqual(['twice', 'twice', 'ok']);
    expect((await call(E, 'emulator.faults')).faults).toEqual([]);
  });

  it('lists API and health-check faults together and clears both in one call; the emulator route is never faulted', async () => {
    await call(E, 'emulator.failHealthCheck', { name: 'database', error: 'disk on fire' });
    const { id, faults } = await call(E, 'emulator.addFault', { route: '/ext/health', kind: 'latency', latencyMs: 10 });
    expect(faults).toEqual([{ id, route: '/ext/health', kind: 'latency', latencyMs: 10, probability: 1, seed: 1, fired: 0 }]);
    expect((await call(E, 'emulator.faults')).healthFaults).toEqual({ database: 'disk on fire' });
    expect(await call(E, 'emulator.clearFaults')).toEqual({ faults: [], healthFaults: {}, stalledChains: [] });
    expect((await callError(E, 'emulator.addFault', { route: '/ext/emulator', kind: 'drop' })).message).toBe('/ext/emulator cannot be faulted');
    expect((await callError(E, 'emulator.addFault', { kind: 'drop' })).message).toBe('a fault needs a route, a method, or both');
    expect((await callError(E, 'emulator.addFault', { route: '/ext/info', kind: 'explode' })).message).toBe(
      'unknown fault kind "explode": latency, error, status or drop',
    );
  });

  it('stalled block production: txs are admitted, no block comes until the fault is cleared', async () => {
    const key = '0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027';
    const { privateKeyToAccount } = await import('viem/accounts');
    const ewoq = privateKeyToAccount(key);
    const C = `${node.uri}/ext/bc/C/rpc`;
    const { stalledChains } = await call(E, 'emulator.addFault', { kind: 'stall', chain: 'C' });
    expect(stalledChains).toEqual(['2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC']);
    const height = (await rpc(C, 'eth_blockNumber', [])).json.result;
    const nonce = Number((await rpc(C, 'eth_getTransactionCount', [ewoq.address, 'latest'])).json.result);
    const raw = await ewoq.signTransaction({
      chainId: 43112,
      nonce,
      to: '0x3333333333333333333333333333333333333333',
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: 300_000_000_000n,
      maxPriorityFeePerGas: 1n,
    });
    const hash = (await rpc(C, 'eth_sendRawTransaction', [raw])).json.result;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await rpc(C, 'eth_getTransactionReceipt', [hash])).json.result).toBeNull();
    expect((await rpc(C, 'eth_blockNumber', [])).json.result).toBe(height);
    expect((await callError(E, 'emulator.addFault', { kind: 'stall', chain: 'Q' })).message).toBe(
      'a stall needs "chain": a chain the node runs (P, X, C or an L1), by ID or alias',
    );
    // The X-Chain alike: issueTx answers on admission to the mempool, and the tx waits there.
    await call(E, 'emulator.addFault', { kind: 'stall', chain: 'X' });
    const w = await new Wallet(node.uri).init();
    const xTx = A.avm.newBaseTx(w.ctx, [w.addr], await w.xUTXOs(), [A.TransferableOutput.fromNative(w.ctx.avaxAssetID, 1_000n, [w.addr])]);
    const xID = await w.issueX(xTx);
    expect(await call(`${node.uri}/ext/bc/X`, 'avm.getTxStatus', { txID: xID })).toEqual({ status: 'Unknown' });
    // The P-Chain too: a verified tx waits (Processing), no block is built; the same tx again answers its
    // ID, as avalanchego's issueTxFromRPC ignores the mempool's ErrDuplicateTx.
    await call(E, 'emulator.addFault', { kind: 'stall', chain: 'P' });
    const P = `${node.uri}/ext/bc/P`;
    const pHeight = (await call(P, 'platform.getHeight')).height;
    const pTx = A.pvm.e.newBaseTx({ ...(await w.common()), outputs: [A.TransferableOutput.fromNative(w.ctx.avaxAssetID, 4_321n, [w.addr])] }, w.ctx);
    const pID = await w.issueP(pTx);
    expect(await call(P, 'platform.getTxStatus', { txID: pID })).toEqual({ status: 'Processing' });
    expect((await call(P, 'platform.getHeight')).height).toBe(pHeight);
    expect(await call(P, 'platform.issueTx', { tx: await w.sign(pTx), encoding: 'hex' })).toEqual({ txID: pID });
    expect((await call(P, 'platform.getHeight')).height).toBe(pHeight);
    await call(E, 'emulator.clearFaults');
    for (let i = 0; i < 100 && (await call(P, 'platform.getTxStatus', { txID: pID })).status !== 'Committed'; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await call(P, 'platform.getTxStatus', { txID: pID })).toEqual({ status: 'Committed' });
    expect(BigInt((await call(P, 'platform.getHeight')).height)).toBe(BigInt(pHeight) + 1n);
    for (let i = 0; i < 100 && !(await rpc(C, 'eth_getTransactionReceipt', [hash])).json.result; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await rpc(C, 'eth_getTransactionReceipt', [hash])).json.result.status).toBe('0x1');
    for (let i = 0; i < 100 && (await call(`${node.uri}/ext/bc/X`, 'avm.getTxStatus', { txID: xID })).status !== 'Accepted'; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await call(`${node.uri}/ext/bc/X`, 'avm.getTxStatus', { txID: xID })).toEqual({ status: 'Accepted' });
  });
});

// The chain manager: chains created while the node runs appear at once in every place a chain lives
// (routes, aliases, health check tagged with its subnet, logger, accepted-block stream) and, as in
// avalanchego, only the primary network's are indexed.
import { sha256 } from '@noble/hashes/sha2.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcceptedBlock } from '../src/chains/acceptance.js';
import { xGenesisBytes } from '../src/genesis/primary.js';
import { VM_IDS } from '../src/chains/ids.js';
import { encodeCB58 } from '../src/encoding/cb58.js';
import { startEmulator } from '../src/index.js';
import type { RunningNode } from '../src/node/index.js';
import { call, callError, rpc, tempDir } from './helpers.js';
import { Ewoq, OTHER, out, owners, utf8 } from './support/xwallet.js';

const PRIMARY = new Uint8Array(32);
const SUBNET = sha256(utf8('an L1 subnet'));

let node: RunningNode;
let uri: string;
let stop: () => Promise<void>;
const accepted: AcceptedBlock[] = [];

beforeAll(async () => {
  const started = await startEmulator({
    httpPort: 0,
    dbType: 'memdb',
    dataDir: tempDir(),
    logLevel: 'off',
    apiAdminEnabled: true,
    indexEnabled: true,
    healthCheckFrequency: '100ms',
  });
  ({ node, uri, stop } = started);
  node.chains.stream.on('accepted', (b) => accepted.push(b));
});
afterAll(() => stop());

/** A second AVM chain: the local AVAX genesis under another chain ID, so ewoq's genesis UTXO exists there too. */
async function createAvmChain(subnetID: Uint8Array, label: string) {
  const chainID = sha256(utf8(`run-time chain ${label}`));
  const chain = await node.chains.createChain({ subnetID, chainID, vmID: VM_IDS.avm, genesis: xGenesisBytes(12345) });
  return { chainID, id: encodeCB58(chainID), chain };
}

/** The health report once the check `name` has run with the chain at `height` (checks run every 100 ms here). */
const healthOf = async (name: string, height: number, tags: string[] = []) => {
  let report: any;
  for (let k = 0; k < 50; k++) {
    report = await call(`${uri}/ext/health`, 'health.health', { tags });
    if (report.checks[name]?.message?.engine.consensus.lastAcceptedHeight === height) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return report;
};

describe('a chain of another subnet created at run time', () => {
  let id: string;
  let chainID: Uint8Array;
  beforeAll(async () => {
    ({ id, chainID } = await createAvmChain(SUBNET, 'L1'));
  });

  it('serves its API at /ext/bc/<id> and /wallet, and its blocks go through the accepted-block stream', async () => {
    expect(await call(`${uri}/ext/bc/${id}`, 'avm.getHeight')).toEqual({ height: '0' });
    expect((await callError(`${uri}/ext/bc/${id}/wallet`, 'wallet.issueTx', { tx: '0x00' })).message).toMatch(/^problem decoding transaction/);
    const ewoq = new Ewoq(`${uri}/ext/bc/${id}`);
    const { tx } = await ewoq.pay([out(1_000_000n, owners([OTHER]))], { blockchainID: chainID });
    expect(await call(`${uri}/ext/bc/${id}`, 'avm.getTxStatus', { txID: encodeCB58(tx.id) })).toEqual({ status: 'Accepted' });
    expect(await call(`${uri}/ext/bc/${id}`, 'avm.getHeight')).toEqual({ height: '1' });
    // The X-Chain has its own state: the same genesis UTXO is still unspent there.
    expect(await call(`${uri}/ext/bc/X`, 'avm.getHeight')).toEqual({ height: '0' });
    const mine = accepted.filter((b) => encodeCB58(b.chainID) === id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.height).toBe(1n);
    expect(encodeCB58(mine[0]!.subnetID)).toBe(encodeCB58(SUBNET));
  });

  it('is known by its ID as its alias, and admin.aliasChain gives it a route alias', async () => {
    expect(await call(`${uri}/ext/info`, 'info.getBlockchainID', { alias: id })).toEqual({ blockchainID: id });
    expect(await call(`${uri}/ext/info`, 'info.isBootstrapped', { chain: id })).toEqual({ isBootstrapped: true });
    expect(await call(`${uri}/ext/admin`, 'admin.aliasChain', { chain: id, alias: 'myL1' })).toEqual({});
    expect(await call(`${uri}/ext/bc/myL1`, 'avm.getHeight')).toEqual({ height: '1' });
    expect(await call(`${uri}/ext/admin`, 'admin.getChainAliases', { chain: id })).toEqual({ aliases: [id, 'myL1'] });
  });

  it('has a health check named by its primary alias and tagged with its subnet', async () => {
    const report = await healthOf(id, 1, [encodeCB58(SUBNET)]);
    expect(report.checks[id].message.engine.consensus).toMatchObject({ lastAcceptedHeight: 1, processingBlocks: 0 });
    expect(report.checks[id].error).toBeUndefined();
    // Tagged with its subnet: the primary network's tag leaves it out.
    const primary = await call(`${uri}/ext/health`, 'health.health', { tags: [encodeCB58(PRIMARY)] });
    expect(Object.keys(primary.checks)).toContain('X');
    expect(Object.keys(primary.checks)).not.toContain(id);
  });

  it('has a logger of its own', async () => {
    const { loggerLevels } = await call(`${uri}/ext/admin`, 'admin.getLoggerLevel', { loggerName: '' });
    expect(Object.keys(loggerLevels)).toContain(id);
  });

  it('is not indexed: only primary-network chains are', async () => {
    expect((await fetch(`${uri}/ext/index/${id}/block`, { method: 'POST' })).status).toBe(404);
  });

  it("cannot be created twice, and an unknown VM is refused with avalanchego's lookup error", async () => {
    await expect(node.chains.createChain({ subnetID: SUBNET, chainID, vmID: VM_IDS.avm, genesis: xGenesisBytes(12345) })).rejects.toThrow(
      `chain ${id} is already created`,
    );
    await expect(node.chains.createChain({ subnetID: SUBNET, chainID: sha256(utf8('other')), vmID: 'nope', genesis: new Uint8Array() })).rejects.toThrow(
      'error while looking up VM: there is no ID with alias: nope',
    );
  });
});

describe('a primary-network chain created at run time', () => {
  it('gets its block index (and, as a DAG VM, its vtx and tx indexes) the moment it is created', async () => {
    const { id, chainID } = await createAvmChain(PRIMARY, 'primary');
    for (const kind of ['block', 'vtx', 'tx']) {
      expect((await rpc(`${uri}/ext/index/${id}/${kind}`, 'index.getIndex', { id: id })).json.error.message).toBe('not found');
    }
    await new Ewoq(`${uri}/ext/bc/${id}`).pay([out(2_000_000n, owners([OTHER]))], { blockchainID: chainID });
    const last = await call(`${uri}/ext/index/${id}/block`, 'index.getLastAccepted', { encoding: 'hex' });
    expect(last.index).toBe('0');
    const streamed = accepted.filter((b) => encodeCB58(b.chainID) === id);
    expect(streamed).toHaveLength(1);
    // The index holds what consensus accepted: the proposervm block, with the stream's outer ID.
    expect(last.id).toBe(encodeCB58(streamed[0]!.id));
  });
});

describe('per-chain storage', () => {
  it('refuses a database written by the earlier single-chain layout, naming it and the data dir, and changes nothing in it', async () => {
    const { Level } = await import('level');
    const { join } = await import('node:path');
    const { runCli } = await import('./helpers.js');
    const dataDir = tempDir();
    const path = join(dataDir, 'db', 'local');
    const old = new Level<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view' });
    // The old layout's X-Chain "last accepted" record, at the root of the store.
    await old.put(Uint8Array.of(0x15, ...utf8('last')), new Uint8Array(56));
    await old.close();
    const r = await runCli([`--data-dir=${dataDir}`, '--http-port=0']);
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(
      `couldn't start node: database ${path} was written by an earlier version of the emulator (single-chain layout) and cannot be read by this one; remove ${path} or use another --data-dir than ${dataDir}`,
    );
    const after = new Level<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view' });
    const keys = await after.keys().all();
    await after.close();
    expect(keys.map((k) => Buffer.from(k).toString('hex'))).toEqual([Buffer.from(Uint8Array.of(0x15, ...utf8('last'))).toString('hex')]);
  });

  it("keeps each chain in its own prefixed database: two chains on one store never see each other's keys", async () => {
    const a = await createAvmChain(SUBNET, 'isolation A');
    const b = await createAvmChain(SUBNET, 'isolation B');
    await new Ewoq(`${uri}/ext/bc/${a.id}`).pay([out(3_000_000n, owners([OTHER]))], { blockchainID: a.chainID });
    expect(await call(`${uri}/ext/bc/${a.id}`, 'avm.getHeight')).toEqual({ height: '1' });
    expect(await call(`${uri}/ext/bc/${b.id}`, 'avm.getHeight')).toEqual({ height: '0' });
    const balance = async (chain: string) =>
      (await call(`${uri}/ext/bc/${chain}`, 'avm.getBalance', { address: `${chain}-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u`, assetID: 'AVAX' })).balance;
    expect(BigInt(await balance(b.id)) - BigInt(await balance(a.id))).toBe(3_000_000n + 1_000_000n);
  });
});

describe('an AVM chain whose genesis holds several assets', () => {
  it('creates every genesis asset with its UTXOs, and pays fees in the one aliased AVAX', async () => {
    const { avaxGenesisTx } = await import('../src/genesis/primary.js');
    const { marshalUnsignedTx, buildTx } = await import('../src/vms/avm/codec/index.js');
    const { EWOQ } = await import('./support/xwallet.js');
    const avax = avaxGenesisTx(12345);
    const token = {
      ...avax,
      name: utf8('Test Token'),
      symbol: utf8('TEST'),
      denomination: 2,
      initialStates: [{ fxIndex: 0, outputs: [{ type: 7 as const, amount: 5_000n, owners: { locktime: 0n, threshold: 1, addresses: [EWOQ] } }] }],
    };
    // The AVM genesis format: codec version, asset count, then each asset's alias and CreateAssetTx fields.
    const asset = (alias: string, tx: typeof avax) => Buffer.concat([Buffer.from([0, alias.length]), Buffer.from(alias), marshalUnsignedTx(tx).subarray(6)]);
    const genesis = Buffer.concat([Buffer.from([0, 0, 0, 0, 0, 2]), asset('TEST', token), asset('AVAX', avax)]);
    const chainID = sha256(utf8('run-time chain with two assets'));
    const id = encodeCB58(chainID);
    await node.chains.createChain({ subnetID: SUBNET, chainID, vmID: VM_IDS.avm, genesis });
    const tokenID = encodeCB58(buildTx(token, []).id);
    const address = `${id}-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u`;
    expect(await call(`${uri}/ext/bc/${id}`, 'avm.getAssetDescription', { assetID: tokenID })).toEqual({
      assetID: tokenID,
      name: 'Test Token',
      symbol: 'TEST',
      denomination: '2',
    });
    expect((await call(`${uri}/ext/bc/${id}`, 'avm.getBalance', { address, assetID: tokenID })).balance).toBe('5000');
    // Fees are paid in AVAX: a payment moves ewoq's AVAX by amount + fee and leaves the token alone.
    const before = BigInt((await call(`${uri}/ext/bc/${id}`, 'avm.getBalance', { address, assetID: 'AVAX' })).balance);
    await new Ewoq(`${uri}/ext/bc/${id}`).pay([out(1_000_000n, owners([OTHER]))], { blockchainID: chainID });
    expect(BigInt((await call(`${uri}/ext/bc/${id}`, 'avm.getBalance', { address, assetID: 'AVAX' })).balance)).toBe(before - 2_000_000n);
    expect((await call(`${uri}/ext/bc/${id}`, 'avm.getBalance', { address, assetID: tokenID })).balance).toBe('5000');
  });
});

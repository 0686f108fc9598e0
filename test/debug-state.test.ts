// coreth's `debug` API over HTTP (eth/api_debug.go): a state walked by hashed key, named by the
// preimages the chain keeps (on with --dev or preimages-enabled), checked against what the node
// answers otherwise (eth_getProof, eth_getStorageAt, eth_getCode, the blocks' state roots); the
// accounts blocks modified; and, with coreth's default (no preimages), coreth's own answers: a range
// names no account, and debug_getModifiedAccountsBy* fails on the first one.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeFunctionData, getAddress, type Hex, keccak256, pad, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSources } from './support/solc.js';
import { DEV_NODE, evmClients, ewoq } from './support/evm.js';
import { call, callError, startTestNode, type TestNode, tempDir } from './helpers.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Slots {
  mapping(uint256 => uint256) public m;
  function set(uint256 from, uint256 n, uint256 v) external { for (uint256 i = from; i < from + n; i++) m[i] = v + i; }
}
`;
const { abi, bytecode } = compileSources({ 'Slots.sol': SOURCE })['Slots.sol']!.Slots!;

/** The slot of m[k]: keccak(k . 0). */
const slotOf = (k: bigint) => keccak256(`0x${pad(toHex(k)).slice(2)}${'0'.repeat(64)}`);

interface Dump {
  root: string;
  accounts: Record<
    string,
    { balance: string; nonce: number; root: string; codeHash: string; code?: string; storage?: Record<string, string>; address?: string; key: string }
  >;
  next?: string;
}

describe('debug_* state dumps with preimages (--dev)', () => {
  let node: TestNode;
  let url: string;
  let contract: Hex;
  /** The blocks of the two set txs. */
  let first: bigint;
  let second: bigint;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true });
    const { client, wallet } = evmClients(node.uri, 'C', 43112, ewoq, DEV_NODE);
    url = `${node.uri}/ext/bc/C/rpc`;
    contract = (await client.waitForTransactionReceipt({ hash: await wallet.deployContract({ abi, bytecode }) })).contractAddress!;
    const set = async (from: bigint, n: bigint, v: bigint) =>
      (
        await client.waitForTransactionReceipt({
          hash: await wallet.sendTransaction({ to: contract, data: encodeFunctionData({ abi, functionName: 'set', args: [from, n, v] }) }),
        })
      ).blockNumber;
    first = await set(0n, 5n, 100n);
    second = await set(3n, 4n, 1000n);
  });
  afterAll(() => node.stop());

  it('debug_accountRange pages through every account in hashed-key order, each as eth_getProof has it', async () => {
    const head = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    const whole: Dump = await call(url, 'debug_accountRange', ['latest', '0x', 0, true, true, false]);
    expect(whole.root).toBe(head.stateRoot.slice(2));
    expect(whole.next).toBeUndefined();
    const names = Object.keys(whole.accounts);
    expect(names).toEqual([...names].sort());
    expect(names).toContain(getAddress(ewoq.address));
    expect(names).toContain(getAddress(contract));
    // Named by address (Go's map keys, sorted), walked by key.
    const keys = Object.values(whole.accounts)
      .map((a) => a.key)
      .sort();
    for (const [name, a] of Object.entries(whole.accounts)) {
      expect(a.address).toBe(name.toLowerCase());
      expect(a.key).toBe(keccak256(a.address as Hex));
      expect(a.code).toBeUndefined();
      expect(a.storage).toBeUndefined();
      const proof = await call(url, 'eth_getProof', [a.address, [], 'latest']);
      expect([BigInt(a.balance), BigInt(a.nonce), a.root, a.codeHash]).toEqual([BigInt(proof.balance), BigInt(proof.nonce), proof.storageHash, proof.codeHash]);
    }
    // Two at a time: `next` is the first key of the page after (base64, as encoding/json writes []byte).
    const paged: string[] = [];
    let start = '0x';
    for (let pages = 0; pages < 100; pages++) {
      const page: Dump = await call(url, 'debug_accountRange', ['latest', start, 2, true, true, false]);
      paged.push(...Object.values(page.accounts).map((a) => a.key));
      if (!page.next) break;
      start = `0x${Buffer.from(page.next, 'base64').toString('hex')}`;
      expect(keys).toContain(start);
    }
    expect(paged.sort()).toEqual(keys);
  });

  it('debug_dumpBlock writes code and storage by slot, as eth_getCode and eth_getStorageAt read them', async () => {
    const dump: Dump = await call(url, 'debug_dumpBlock', [toHex(second)]);
    const block = await call(url, 'eth_getBlockByNumber', [toHex(second), false]);
    expect(dump.root).toBe(block.stateRoot.slice(2));
    const a = dump.accounts[getAddress(contract)]!;
    expect(a.code).toBe(await call(url, 'eth_getCode', [contract, toHex(second)]));
    const slots = Object.keys(a.storage!);
    expect(slots).toEqual([...slots].sort());
    expect(slots).toHaveLength(7);
    for (let k = 0n; k < 7n; k++) {
      const value = await call(url, 'eth_getStorageAt', [contract, slotOf(k), toHex(second)]);
      // Values as the trie stores them (no leading zero bytes), in hex without 0x (common.Bytes2Hex).
      const hex = BigInt(value).toString(16);
      expect(a.storage![slotOf(k)]).toBe(hex.length % 2 === 0 ? hex : `0${hex}`);
    }
    // debug_dumpBlock skips an account without a preimage: here every key was written by this node,
    // so it dumps as many as a range that keeps those too (incompletes), and names them all.
    const incomplete: Dump = await call(url, 'debug_accountRange', [toHex(second), '0x', 256, true, true, true]);
    expect(Object.keys(dump.accounts)).toHaveLength(Object.keys(incomplete.accounts).length);
    expect(Object.keys(incomplete.accounts).filter((k) => k.startsWith('pre('))).toEqual([]);
    expect((await callError(url, 'debug_dumpBlock', ['0x10000'])).message).toBe('block #65536 not found');
  });

  it("debug_storageRangeAt reads the account's storage as the block began, by hashed key, and pages with nextKey", async () => {
    const block = await call(url, 'eth_getBlockByNumber', [toHex(second), false]);
    // The block's only tx finds m[0..4] = 100..104 (its parent's), not what it writes.
    const range = await call(url, 'debug_storageRangeAt', [block.hash, 0, contract, '0x', 100]);
    expect(range.nextKey).toBeNull();
    const entries = Object.entries(range.storage as Record<string, { key: string; value: string }>);
    expect(entries.map(([h]) => h)).toEqual(entries.map(([h]) => h).sort());
    expect(Object.fromEntries(entries.map(([, e]) => [e.key, BigInt(e.value)]))).toEqual(
      Object.fromEntries([0n, 1n, 2n, 3n, 4n].map((k) => [slotOf(k), 100n + k])),
    );
    for (const [h, e] of entries) expect(h).toBe(keccak256(e.key as Hex));
    const firstTwo = await call(url, 'debug_storageRangeAt', [block.hash, 0, contract, '0x', 2]);
    expect(Object.keys(firstTwo.storage)).toEqual(entries.slice(0, 2).map(([h]) => h));
    expect(firstTwo.nextKey).toBe(entries[2]![0]);
    const rest = await call(url, 'debug_storageRangeAt', [block.hash, 0, contract, firstTwo.nextKey, 100]);
    expect(Object.keys(rest.storage)).toEqual(entries.slice(2).map(([h]) => h));
    // An account with no storage, and none at all: coreth's empty result.
    expect(await call(url, 'debug_storageRangeAt', [block.hash, 0, ewoq.address, '0x', 10])).toEqual({ storage: null, nextKey: null });
    expect((await callError(url, 'debug_storageRangeAt', [block.hash, 1, contract, '0x', 10])).message).toBe(
      `transaction index 1 out of range for block ${block.hash}`,
    );
    expect((await callError(url, 'debug_storageRangeAt', ['0x0', 0, contract, '0x', 10])).message).toBe('no transaction in genesis');
  });

  it('debug_getModifiedAccountsBy* lists the accounts whose leaf changed, in hashed-key order', async () => {
    const modified: Hex[] = await call(url, 'debug_getModifiedAccountsByNumber', [Number(second)]);
    expect(modified).toContain(ewoq.address.toLowerCase());
    expect(modified).toContain(contract.toLowerCase());
    const keys = modified.map((a) => keccak256(a));
    expect(keys).toEqual([...keys].sort());
    for (const a of modified) {
      const [before, after] = await Promise.all([toHex(second - 1n), toHex(second)].map((b) => call(url, 'eth_getProof', [a, [], b])));
      const fields = (p: { balance: string; nonce: string; storageHash: string; codeHash: string }) => [p.balance, p.nonce, p.storageHash, p.codeHash];
      expect(fields(after)).not.toEqual(fields(before));
    }
    const hash = (await call(url, 'eth_getBlockByNumber', [toHex(second), false])).hash;
    expect(await call(url, 'debug_getModifiedAccountsByHash', [hash])).toEqual(modified);
    const both: Hex[] = await call(url, 'debug_getModifiedAccountsByNumber', [Number(first) - 1, Number(second)]);
    expect(both).toEqual(expect.arrayContaining(modified));
    expect((await callError(url, 'debug_getModifiedAccountsByNumber', [0])).message).toBe('block 0 has no parent');
    expect((await callError(url, 'debug_getModifiedAccountsByNumber', [Number(second), Number(first)])).message).toBe(
      `start block height (${second}) must be less than end block height (${first})`,
    );
    expect((await callError(url, 'debug_getModifiedAccountsByNumber', [1000])).message).toBe('start block 3e8 not found');
    expect((await callError(url, 'debug_getModifiedAccountsByNumber', [1, 1000])).message).toBe('end block 1000 not found');
    expect((await callError(url, 'debug_getModifiedAccountsByNumber', ['0x1'])).message).toBe(
      'invalid argument 0: json: cannot unmarshal string into Go value of type uint64',
    );
  });

  it("reads a two-tx block's storage as it began at any txIndex; a start past a key's end; dev edits' preimages; a range by hash", async () => {
    const { client, wallet } = evmClients(node.uri, 'C', 43112, ewoq, DEV_NODE);
    let nonce = await client.getTransactionCount({ address: ewoq.address });
    await call(url, 'evm_setAutomine', [false]);
    for (const args of [
      [0n, 2n, 5000n],
      [1n, 2n, 6000n],
    ] as const) {
      await wallet.sendTransaction({ to: contract, data: encodeFunctionData({ abi, functionName: 'set', args }), nonce: nonce++ });
    }
    await call(url, 'evm_mine', []);
    await call(url, 'evm_setAutomine', [true]);
    const block = await call(url, 'eth_getBlockByNumber', ['latest', false]);
    expect(block.transactions).toHaveLength(2);
    const values = async (txIndex: number) => {
      const range = await call(url, 'debug_storageRangeAt', [block.hash, txIndex, contract, '0x', 100]);
      return Object.fromEntries(Object.values(range.storage as Record<string, { key: string; value: string }>).map((e) => [e.key, BigInt(e.value)]));
    };
    // m[0] was 100 before the block, 5000 after its first tx: coreth reads the block's start at both.
    expect((await values(0))[slotOf(0n)]).toBe(100n);
    expect((await values(1))[slotOf(0n)]).toBe(100n);
    expect(await values(1)).toEqual(await values(0));
    for (const bad of [-1, 2]) {
      expect((await callError(url, 'debug_storageRangeAt', [block.hash, bad, contract, '0x', 1])).message).toBe(
        `transaction index ${bad} out of range for block ${block.hash}`,
      );
    }
    expect((await callError(url, 'debug_storageRangeAt', [block.hash, 1.5, contract, '0x', 1])).message).toBe(
      'invalid argument 1: json: cannot unmarshal number 1.5 into Go value of type int',
    );
    // A start that runs past a key's end: geth's paths end in a terminator after every nibble, so that key comes first.
    const all: Dump = await call(url, 'debug_accountRange', ['latest', '0x', 0, true, true, false]);
    const keys = Object.values(all.accounts)
      .map((a) => a.key)
      .sort();
    const longer: Dump = await call(url, 'debug_accountRange', ['latest', `${keys[1]}00`, 1, true, true, false]);
    expect(Object.values(longer.accounts).map((a) => a.key)).toEqual([keys[1]]);
    expect(Buffer.from(longer.next!, 'base64').toString('hex')).toBe(keys[2]!.slice(2));
    // A range by block hash, and a dev edit's key kept with its write.
    expect(await call(url, 'debug_accountRange', [{ blockHash: block.hash }, '0x', 0, true, true, false])).toEqual(all);
    const slot = pad(toHex(0x77n));
    await call(url, 'anvil_setStorageAt', [contract, slot, pad(toHex(1n))]);
    expect(await call(url, 'debug_preimage', [keccak256(slot)])).toBe(slot);
  });

  it('debug_preimage and debug_getAccessibleState', async () => {
    expect(await call(url, 'debug_preimage', [keccak256(contract)])).toBe(contract.toLowerCase());
    // A storage trie's key is the slot's keccak: its preimage is the slot.
    expect(await call(url, 'debug_preimage', [keccak256(slotOf(6n))])).toBe(slotOf(6n));
    expect((await callError(url, 'debug_preimage', [keccak256('0x1234')])).message).toBe('unknown preimage');
    expect(await call(url, 'debug_getAccessibleState', ['0x0', 'latest'])).toBe(0);
    expect(await call(url, 'debug_getAccessibleState', ['latest', '0x0'])).toBe(Number(await call(url, 'eth_blockNumber', [])));
    expect((await callError(url, 'debug_getAccessibleState', ['latest', 'pending'])).message).toBe('from and to needs to be different');
    expect((await callError(url, 'debug_accountRange', ['latest', '0x'])).message).toBe('missing value for required argument 2');
  });
});

describe("debug_* state dumps with coreth's default chain config (no preimages)", () => {
  /** A node whose C-Chain config turns the debug API on, and preimages on or off. */
  async function nodeWith(preimages: boolean): Promise<{ node: TestNode; url: string }> {
    const configDir = tempDir();
    mkdirSync(join(configDir, 'C'));
    writeFileSync(join(configDir, 'C', 'config.json'), JSON.stringify({ 'eth-apis': ['eth', 'debug'], 'preimages-enabled': preimages }));
    const node = await startTestNode({ dbType: 'memdb', chainConfigDir: configDir });
    const { client, wallet } = evmClients(node.uri, 'C', 43112, ewoq, DEV_NODE);
    await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: '0x1111111111111111111111111111111111111111', value: 1n }) });
    return { node, url: `${node.uri}/ext/bc/C/rpc` };
  }

  it('names no account, writes pre(key) for incompletes, and cannot list modified accounts', async () => {
    const { node, url } = await nodeWith(false);
    try {
      expect((await call(url, 'debug_accountRange', ['latest', '0x', 10, true, true, false])).accounts).toEqual({});
      const incomplete: Dump = await call(url, 'debug_accountRange', ['latest', '0x', 10, true, true, true]);
      const names = Object.keys(incomplete.accounts);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(name).toBe(`pre(${incomplete.accounts[name]!.key})`);
      expect(Object.values(incomplete.accounts).every((a) => a.address === undefined)).toBe(true);
      const error = await callError(url, 'debug_getModifiedAccountsByNumber', [1]);
      expect(error.message).toMatch(/^no preimage found for hash [0-9a-f]{64}$/);
      expect((await callError(url, 'debug_preimage', [keccak256(ewoq.address)])).message).toBe('unknown preimage');
    } finally {
      await node.stop();
    }
  });

  it('names them with preimages-enabled, the genesis alloc included', async () => {
    const { node, url } = await nodeWith(true);
    try {
      const genesis: Dump = await call(url, 'debug_dumpBlock', ['0x0']);
      expect(Object.keys(genesis.accounts)).toContain(getAddress(ewoq.address));
      expect(await call(url, 'debug_getModifiedAccountsByNumber', [1])).toEqual(
        expect.arrayContaining([ewoq.address.toLowerCase(), '0x1111111111111111111111111111111111111111']),
      );
    } finally {
      await node.stop();
    }
  });
});

describe('preimages on LevelDB', () => {
  it('are kept with their blocks across a restart, and a revert takes back those of the blocks it drops', async () => {
    const dataDir = tempDir();
    let node = await startTestNode({ dataDir, dev: true });
    const send = async (to: Hex) => {
      const { client, wallet } = evmClients(node.uri, 'C', 43112, ewoq, DEV_NODE);
      return (await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to, value: 1n }) })).blockNumber;
    };
    try {
      const kept = '0x2222222222222222222222222222222222222222';
      const block = await send(kept);
      await node.stop();
      node = await startTestNode({ dataDir, dev: true });
      const url = `${node.uri}/ext/bc/C/rpc`;
      expect(await call(url, 'debug_preimage', [keccak256(kept)])).toBe(kept);
      expect(await call(url, 'debug_getModifiedAccountsByNumber', [Number(block)])).toContain(kept);
      const snapshot = await call(url, 'evm_snapshot', []);
      const dropped = '0x3333333333333333333333333333333333333333';
      await send(dropped);
      expect(await call(url, 'debug_preimage', [keccak256(dropped)])).toBe(dropped);
      expect(await call(url, 'evm_revert', [snapshot])).toBe(true);
      expect((await callError(url, 'debug_preimage', [keccak256(dropped)])).message).toBe('unknown preimage');
      expect(await call(url, 'debug_preimage', [keccak256(kept)])).toBe(kept);
    } finally {
      await node.stop();
    }
  });
});

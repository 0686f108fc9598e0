// Forking the C-Chain (--fork-url, --fork-block-number): a second node started here is the upstream,
// with history before the fork block and after it. The fork serves the upstream's blocks, txs,
// receipts and logs up to the fork block as the upstream does, reads its state there lazily, builds
// on top of it with true state roots (the same tx on both makes the same root), leaves the upstream
// alone, restarts from its cache with the upstream gone, and refuses a bad fork at start in one line.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type Hex, encodeDeployData, encodeFunctionData, decodeFunctionResult, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startEmulator } from '../src/index.js';
import { rpc, startTestNode, tempDir, type TestNode } from './helpers.js';
import { rpcProxy } from './support/rpcproxy.js';
import { fixture } from './support/solc.js';

const token = fixture('TestToken');
// The node's deterministic --test-accounts (vms/avm/testaccounts.ts).
const keys = [0, 1].map((i) => `0x${createHash('sha256').update(`avalanche-emulator test account ${i}`).digest('hex')}` as Hex);
const [deployer, holder] = keys.map((k) => privateKeyToAccount(k));
const HOLDERS = Array.from({ length: 40 }, (_, i) => `0x${(0xa000 + i).toString(16).padStart(40, '0')}` as Hex);

let upstream: TestNode;
let U: string;
let tokenAddress: Hex;
/** A contract with two storage slots (1 and 2), each a leaf under the root branch; any call clears slot 1. */
let twoSlots: Hex;
// Constructor: sstore(1, 1), sstore(2, 2), return the runtime sstore(1, 0).
const TWO_SLOTS_INIT: Hex = '0x600160015560026002556006601660003960066000f3600060015500';
let forkBlock: bigint;
const forkDir = tempDir('fork-');

async function call<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const { json } = await rpc(url, method, params);
  if (json.error) throw new Error(`${method}: ${json.error.message}`);
  return json.result as T;
}

/** Signs and sends a legacy tx (a fixed gas price: the same fee on any chain) and waits for its receipt. */
async function send(url: string, from: (typeof keys)[number], to: Hex | undefined, data: Hex, nonce?: number): Promise<any> {
  const account = privateKeyToAccount(from);
  const chainId = Number(await call(url, 'eth_chainId'));
  const n = nonce ?? Number(await call(url, 'eth_getTransactionCount', [account.address, 'pending']));
  const raw = await account.signTransaction({ type: 'legacy', chainId, nonce: n, gas: 3_000_000n, gasPrice: parseGwei('100'), ...(to ? { to } : {}), data });
  const hash = await call(url, 'eth_sendRawTransaction', [raw]);
  return call(url, 'eth_getTransactionReceipt', [hash]);
}

const transfer = (to: Hex, amount: bigint) => encodeFunctionData({ abi: token.abi, functionName: 'transfer', args: [to, amount] });

async function balanceOf(url: string, who: Hex, block = 'latest'): Promise<bigint> {
  const data = encodeFunctionData({ abi: token.abi, functionName: 'balanceOf', args: [who] });
  return decodeFunctionResult({ abi: token.abi, functionName: 'balanceOf', data: await call(url, 'eth_call', [{ to: tokenAddress, data }, block]) }) as bigint;
}

const qty = (n: bigint) => `0x${n.toString(16)}`;
const C = (uri: string) => `${uri}/ext/bc/C/rpc`;

beforeAll(async () => {
  upstream = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 2 });
  U = C(upstream.uri);
  const deployed = await send(U, keys[0]!, undefined, encodeDeployData({ abi: token.abi, bytecode: token.bytecode, args: ['Fork', 'FRK', 10n ** 24n] }));
  tokenAddress = deployed.contractAddress;
  // Holders enough for the token's storage trie to branch: a transfer that empties a slot then
  // merges a branch with a sibling on no path the fork read.
  for (const [i, h] of HOLDERS.entries()) await send(U, keys[0]!, tokenAddress, transfer(h, 1000n + BigInt(i)));
  await send(U, keys[0]!, tokenAddress, transfer(holder!.address, 5000n));
  twoSlots = (await send(U, keys[0]!, undefined, TWO_SLOTS_INIT)).contractAddress;
  forkBlock = BigInt(await call(U, 'eth_blockNumber'));
}, 120_000);

afterAll(async () => {
  await upstream?.stop().catch(() => undefined);
});

describe("Anvil's fork controls", () => {
  let fork: Awaited<ReturnType<typeof startEmulator>>;
  let F: string;

  beforeAll(async () => {
    fork = await startEmulator({
      httpPort: 0,
      logLevel: 'off',
      dataDir: tempDir('fork-reset-'),
      dbType: 'memdb',
      dev: true,
      forkUrl: U,
      forkBlockNumber: String(forkBlock - 5n),
    });
    F = C(fork.uri);
  }, 60_000);

  afterAll(async () => {
    await fork?.stop().catch(() => undefined);
  });

  it('anvil_nodeInfo names the fork; anvil_reset({forking}) forks another block, dropping local blocks', async () => {
    expect((await call(F, 'anvil_nodeInfo')).forkConfig).toEqual({ forkUrl: U, forkBlockNumber: Number(forkBlock - 5n), forkRetryBackoff: 1000 });
    await call(F, 'anvil_setBalance', [HOLDERS[0], '0x1']);
    await call(F, 'evm_mine');
    expect(BigInt(await call(F, 'eth_blockNumber'))).toBe(forkBlock - 4n);
    expect(await call(F, 'anvil_reset', [{ forking: { jsonRpcUrl: U, blockNumber: Number(forkBlock) } }])).toBeNull();
    expect(BigInt(await call(F, 'eth_blockNumber'))).toBe(forkBlock);
    expect(await call(F, 'eth_getBlockByNumber', ['latest', false])).toEqual(await call(U, 'eth_getBlockByNumber', [qty(forkBlock), false]));
    expect(await call(F, 'eth_getBalance', [HOLDERS[0], 'latest'])).toBe(await call(U, 'eth_getBalance', [HOLDERS[0], qty(forkBlock)]));
    expect(await balanceOf(F, holder!.address)).toBe(5000n);
    // A block past the upstream's head is refused, and the fork stays as it was.
    const { json } = await rpc(F, 'anvil_reset', [{ forking: { blockNumber: Number(forkBlock) + 1000 } }]);
    expect(json.error.message).toBe(`forking block ${forkBlock + 1000n} is past the upstream's head ${forkBlock}`);
    expect(BigInt(await call(F, 'eth_blockNumber'))).toBe(forkBlock);
  });

  it('anvil_setRpcUrl reads the same chain from another endpoint, and refuses another chain', async () => {
    const other = U.replace('127.0.0.1', 'localhost');
    expect(await call(F, 'anvil_setRpcUrl', [other])).toBeNull();
    expect((await call(F, 'anvil_nodeInfo')).forkConfig.forkUrl).toBe(other);
    expect(await balanceOf(F, HOLDERS[9]!)).toBe(1009n);
    const { json } = await rpc(F, 'anvil_setRpcUrl', ['http://127.0.0.1:1/']);
    expect(json.error.message).toMatch(/^fork upstream http:\/\/127\.0\.0\.1:1: eth_chainId failed/);
    expect((await call(F, 'anvil_nodeInfo')).forkConfig.forkUrl).toBe(other);
  });

  it("keeps a URL's credentials out of the node's dumps, and refuses what is no URL", async () => {
    const secret = U.replace('http://', 'http://user:s3cret@');
    expect(await call(F, 'anvil_setRpcUrl', [secret])).toBeNull();
    const dump: string = await call(F, 'anvil_dumpState');
    expect(gunzipSync(Buffer.from(dump.slice(2), 'hex')).includes('s3cret')).toBe(false);
    const { status, json } = await rpc(F, 'anvil_setRpcUrl', ['notaurl']);
    expect(status).toBe(200);
    expect(json.error.message).toMatch(/^not a fork upstream: /);
    expect(await call(F, 'anvil_setRpcUrl', [U])).toBeNull();
  });

  it('anvil_reset without forking leaves the fork (as Anvil), and with forking forks again', async () => {
    expect(await call(F, 'anvil_reset', [])).toBeNull();
    expect((await call(F, 'anvil_nodeInfo')).forkConfig.forkUrl).toBeNull();
    expect(BigInt(await call(F, 'eth_blockNumber'))).toBe(0n);
    expect(await call(F, 'eth_getCode', [tokenAddress, 'latest'])).toBe('0x');
    // viem's reset() sends {forking: {}}: on a chain that is no fork, a plain reset.
    expect(await call(F, 'anvil_reset', [{ forking: {} }])).toBeNull();
    expect(BigInt(await call(F, 'eth_blockNumber'))).toBe(0n);
    expect(await call(F, 'hardhat_reset', [{ forking: { jsonRpcUrl: U, blockNumber: Number(forkBlock - 1n) } }])).toBe(null);
    expect(BigInt(await call(F, 'eth_blockNumber'))).toBe(forkBlock - 1n);
    expect(await call(F, 'eth_getCode', [tokenAddress, 'latest'])).toBe(await call(U, 'eth_getCode', [tokenAddress, 'latest']));
  });

  it("forks another upstream of the same chain ID at a height it already fetched, with that upstream's blocks", async () => {
    // Another local network: chain 43112 too, another history at the same heights.
    const other = await startTestNode({ dbType: 'memdb', dev: true });
    try {
      const O = C(other.uri);
      const height = forkBlock - 1n;
      await call(O, 'anvil_mine', [qty(height)]);
      expect(await call(F, 'anvil_reset', [{ forking: { jsonRpcUrl: O, blockNumber: Number(height) } }])).toBeNull();
      const theirs = await call(O, 'eth_getBlockByNumber', [qty(height), false]);
      expect(await call(F, 'eth_getBlockByNumber', ['latest', false])).toEqual(theirs);
      expect(theirs.hash).not.toBe((await call(U, 'eth_getBlockByNumber', [qty(height), false])).hash);
    } finally {
      await other.stop();
    }
  });

  it('a revert across a load of another fork block goes back to the fork the store records', async () => {
    const at = async (n: bigint, holds: bigint) => {
      expect((await call(F, 'anvil_nodeInfo')).forkConfig.forkBlockNumber).toBe(Number(n));
      expect(await call(F, 'eth_getBlockByNumber', ['latest', false])).toEqual(await call(U, 'eth_getBlockByNumber', [qty(n), false]));
      expect(await balanceOf(F, holder!.address)).toBe(holds);
    };
    expect(await call(F, 'anvil_reset', [{ forking: { jsonRpcUrl: U, blockNumber: Number(forkBlock - 2n) } }])).toBeNull();
    const dump = await call(F, 'anvil_dumpState');
    expect(await call(F, 'anvil_reset', [{ forking: { blockNumber: Number(forkBlock - 1n) } }])).toBeNull();
    const snapshot = await call(F, 'evm_snapshot');
    expect(await call(F, 'anvil_loadState', [dump])).toBe(true);
    await at(forkBlock - 2n, 0n);
    expect(await call(F, 'evm_revert', [snapshot])).toBe(true);
    await at(forkBlock - 1n, 5000n);
  });
});

describe('a fork of the C-Chain', () => {
  let fork: Awaited<ReturnType<typeof startEmulator>>;
  let F: string;
  const options = { httpPort: 0, logLevel: 'off', dataDir: forkDir, dev: true, forkRetries: 0, forkRetryBackoff: 10 } as const;

  beforeAll(async () => {
    fork = await startEmulator({ ...options, forkUrl: U, forkBlockNumber: String(forkBlock) });
    F = C(fork.uri);
  }, 60_000);

  afterAll(async () => {
    await fork?.stop().catch(() => undefined);
  });

  it("takes the upstream's chain ID and its fork block as its head, with the upstream's hash", async () => {
    expect(await call(F, 'eth_chainId')).toBe(await call(U, 'eth_chainId'));
    expect(BigInt(await call(F, 'eth_blockNumber'))).toBe(forkBlock);
    for (const n of [0n, 1n, forkBlock - 1n, forkBlock]) {
      expect(await call(F, 'eth_getBlockByNumber', [qty(n), true])).toEqual(await call(U, 'eth_getBlockByNumber', [qty(n), true]));
    }
    const head = await call(U, 'eth_getBlockByNumber', [qty(forkBlock), false]);
    expect(await call(F, 'eth_getBlockByHash', [head.hash, false])).toEqual(head);
    expect(await call(F, 'eth_getBlockByNumber', ['earliest', false])).toEqual(await call(U, 'eth_getBlockByNumber', ['0x0', false]));
  });

  it("serves the upstream's txs, receipts and logs up to the fork block", async () => {
    const block = await call(U, 'eth_getBlockByNumber', [qty(forkBlock - 3n), false]);
    const txHash = block.transactions[0];
    expect(await call(F, 'eth_getTransactionByHash', [txHash])).toEqual(await call(U, 'eth_getTransactionByHash', [txHash]));
    expect(await call(F, 'eth_getTransactionReceipt', [txHash])).toEqual(await call(U, 'eth_getTransactionReceipt', [txHash]));
    // A pre-fork tx runs again on the upstream's state before its block, read at that block.
    const tracer = { tracer: 'callTracer' };
    expect(await call(F, 'debug_traceTransaction', [txHash, tracer])).toEqual(await call(U, 'debug_traceTransaction', [txHash, tracer]));
    // Re-running the fork block itself recomputes its state root: the head's state stays readable.
    expect(await call(F, 'debug_traceBlockByNumber', [qty(forkBlock), tracer])).toEqual(await call(U, 'debug_traceBlockByNumber', [qty(forkBlock), tracer]));
    expect(await balanceOf(F, HOLDERS[11]!)).toBe(1011n);
    const filter = { address: tokenAddress, fromBlock: '0x0', toBlock: qty(forkBlock) };
    const logs = await call(F, 'eth_getLogs', [filter]);
    expect(logs).toHaveLength(HOLDERS.length + 2);
    expect(logs).toEqual(await call(U, 'eth_getLogs', [filter]));
  });

  it('reads the state at the fork block: code, storage, balances, nonces', async () => {
    const at = qty(forkBlock);
    expect(await call(F, 'eth_getCode', [tokenAddress, 'latest'])).toBe(await call(U, 'eth_getCode', [tokenAddress, at]));
    expect(await call(F, 'eth_getStorageAt', [tokenAddress, '0x3', 'latest'])).toBe(await call(U, 'eth_getStorageAt', [tokenAddress, '0x3', at]));
    for (const who of [deployer!.address, holder!.address]) {
      expect(await call(F, 'eth_getBalance', [who, 'latest'])).toBe(await call(U, 'eth_getBalance', [who, at]));
      expect(await call(F, 'eth_getTransactionCount', [who, 'latest'])).toBe(await call(U, 'eth_getTransactionCount', [who, at]));
    }
    for (const h of HOLDERS.slice(0, 5)) expect(await balanceOf(F, h)).toBe(await balanceOf(U, h, at));
  });

  it('builds on the fork block: the same tx makes the same state root as on the upstream', async () => {
    // The holder empties its balance (its slot is deleted from the token's storage trie), on both.
    const nonce = Number(await call(U, 'eth_getTransactionCount', [holder!.address, 'latest']));
    const onFork = await send(F, keys[1]!, tokenAddress, transfer(HOLDERS[7]!, 5000n), nonce);
    const onUpstream = await send(U, keys[1]!, tokenAddress, transfer(HOLDERS[7]!, 5000n), nonce);
    expect(onFork.status).toBe('0x1');
    expect(BigInt(onFork.blockNumber)).toBe(forkBlock + 1n);
    const [mine, theirs] = await Promise.all([
      call(F, 'eth_getBlockByNumber', [onFork.blockNumber, false]),
      call(U, 'eth_getBlockByNumber', [onUpstream.blockNumber, false]),
    ]);
    expect(mine.parentHash).toBe((await call(U, 'eth_getBlockByNumber', [qty(forkBlock), false])).hash);
    expect(mine.stateRoot).toBe(theirs.stateRoot);
    expect(mine.receiptsRoot).toBe(theirs.receiptsRoot);
    expect(await balanceOf(F, holder!.address)).toBe(0n);
    expect(await balanceOf(F, HOLDERS[7]!)).toBe(5000n + 1007n);
  });

  it("empties a slot whose sibling leaf it never read, and gets the upstream's state root", async () => {
    // Deleting slot 1 merges the root branch into slot 2's leaf, which is on no path the fork read:
    // the fork finds a key leading to it and fetches its proof.
    expect(await call(F, 'eth_getStorageAt', [twoSlots, '0x1', 'latest'])).toBe(`0x${'0'.repeat(63)}1`);
    const nonce = Number(await call(U, 'eth_getTransactionCount', [deployer!.address, 'latest']));
    const onFork = await send(F, keys[0]!, twoSlots, '0x', nonce);
    const onUpstream = await send(U, keys[0]!, twoSlots, '0x', nonce);
    expect(onFork.status).toBe('0x1');
    const [mine, theirs] = await Promise.all([
      call(F, 'eth_getBlockByNumber', [onFork.blockNumber, false]),
      call(U, 'eth_getBlockByNumber', [onUpstream.blockNumber, false]),
    ]);
    expect(mine.stateRoot).toBe(theirs.stateRoot);
    expect(await call(F, 'eth_getStorageAt', [twoSlots, '0x2', 'latest'])).toBe(`0x${'0'.repeat(63)}2`);
  });

  it('lets a test send as an account that holds tokens upstream (impersonation), and leaves the upstream alone', async () => {
    const whale = HOLDERS[3]!;
    await call(F, 'anvil_impersonateAccount', [whale]);
    await call(F, 'anvil_setBalance', [whale, qty(10n ** 20n)]);
    const hash = await call(F, 'eth_sendTransaction', [{ from: whale, to: tokenAddress, data: transfer(HOLDERS[4]!, 1003n) }]);
    expect((await call(F, 'eth_getTransactionReceipt', [hash])).status).toBe('0x1');
    expect(await balanceOf(F, whale)).toBe(0n);
    expect(await balanceOf(U, whale)).toBe(1003n);
    expect(await call(U, 'eth_getTransactionByHash', [hash])).toBeNull();
  });

  it("runs a contract deployed on the fork (its code is the chain's own, not the upstream's)", async () => {
    const deployed = await send(F, keys[0]!, undefined, TWO_SLOTS_INIT);
    expect(await call(F, 'eth_getCode', [deployed.contractAddress, 'latest'])).toBe('0x600060015500');
    expect((await send(F, keys[0]!, deployed.contractAddress, '0x')).status).toBe('0x1');
    expect(BigInt(await call(F, 'eth_getStorageAt', [deployed.contractAddress, '0x1', 'latest']))).toBe(0n);
    expect(BigInt(await call(F, 'eth_getStorageAt', [deployed.contractAddress, '0x2', 'latest']))).toBe(2n);
  });

  it('restarts from its cache with the upstream gone', async () => {
    const head = await call(F, 'eth_getBlockByNumber', ['latest', false]);
    const before = await call(F, 'eth_getBlockByNumber', [qty(forkBlock), true]);
    // Logs over the history, asked once: the answer is kept (fork/logcache.ts), as Anvil keeps it.
    const history = { address: tokenAddress, fromBlock: '0x0', toBlock: qty(forkBlock) };
    const logs = await call(F, 'eth_getLogs', [history]);
    expect(logs.length).toBeGreaterThan(5);
    await fork.stop();
    await upstream.stop();
    fork = await startEmulator(options);
    F = C(fork.uri);
    expect(await call(F, 'eth_getBlockByNumber', ['latest', false])).toEqual(head);
    expect(await call(F, 'eth_getBlockByNumber', [qty(forkBlock), true])).toEqual(before);
    expect(await call(F, 'eth_getLogs', [history])).toEqual(logs);
    expect(await balanceOf(F, HOLDERS[4]!)).toBe(1004n + 1003n);
    // What was never fetched is a JSON-RPC error naming the upstream, not a hang or a 500.
    const { status, json } = await rpc(F, 'eth_getBlockByNumber', ['0x2', false]);
    expect(status).toBe(200);
    expect(json.error.message).toMatch(/fork upstream http:\/\/127\.0\.0\.1:\d+: eth_getBlockByNumber failed/);
    // --offline: the upstream is never asked, and says so.
    await fork.stop();
    fork = await startEmulator({ ...options, offline: true });
    F = C(fork.uri);
    expect(await call(F, 'eth_getBlockByNumber', ['latest', false])).toEqual(head);
    expect(await call(F, 'eth_getLogs', [history])).toEqual(logs);
    expect((await rpc(F, 'eth_getLogs', [{ ...history, fromBlock: '0x1' }])).json.error.message).toBe('--offline: eth_getLogs is not in the fork cache');
    expect((await rpc(F, 'eth_getBlockByNumber', ['0x2', false])).json.error.message).toBe('--offline: eth_getBlockByNumber is not in the fork cache');
  }, 60_000);
});

describe('a fork that cannot start', () => {
  const start = (extra: Record<string, unknown>) =>
    startEmulator({ httpPort: 0, logLevel: 'off', dataDir: tempDir('fork-bad-'), dbType: 'memdb', forkRetries: 0, ...extra });

  it('refuses a fork block past the upstream head, an unreachable upstream and one that is not coreth', async () => {
    const up = await startTestNode({ dbType: 'memdb', l1: [`${import.meta.dirname}/../fixtures/myl1.json`] });
    try {
      const url = C(up.uri);
      await expect(start({ forkUrl: url, forkBlockNumber: '1000' })).rejects.toThrow(/^--fork-block-number=1000 is past the upstream's head 0$/);
      await expect(start({ forkUrl: `${up.uri}/ext/bc/myl1/rpc` })).rejects.toThrow(/no extDataHash, which every coreth header has/);
    } finally {
      await up.stop();
    }
    await expect(start({ forkUrl: 'http://127.0.0.1:1/' })).rejects.toThrow(/^fork upstream http:\/\/127\.0\.0\.1:1: eth_chainId failed/);
  }, 60_000);

  it('leaves no fork cache behind when it cannot start', async () => {
    const dataDir = tempDir('fork-nocache-');
    await expect(startEmulator({ httpPort: 0, logLevel: 'off', dataDir, dbType: 'leveldb', forkRetries: 0, forkUrl: 'http://127.0.0.1:1/' })).rejects.toThrow(
      /eth_chainId failed/,
    );
    expect(existsSync(join(dataDir, 'db', 'fork-cache'))).toBe(false);
    expect(existsSync(join(dataDir, 'db'))).toBe(true);
  }, 60_000);

  it('refuses an upstream that does not serve eth_getProof, at start', async () => {
    const up = await startTestNode({ dbType: 'memdb' });
    // A proxy to the upstream's C-Chain that answers eth_getProof as a node without it does.
    const proxy = await rpcProxy(C(up.uri), {
      reply: (answer, sent) =>
        sent?.method === 'eth_getProof'
          ? { jsonrpc: '2.0', id: answer.id, error: { code: -32601, message: 'the method eth_getProof does not exist/is not available' } }
          : answer,
    });
    try {
      const url = proxy.url;
      await expect(start({ forkUrl: url })).rejects.toThrow(
        /^the fork's upstream cannot prove its state at block 0 with eth_getProof, .*: fork upstream http:\/\/127\.0\.0\.1:\d+: eth_getProof failed: the method eth_getProof does not exist\/is not available$/,
      );
      // The same upstream, unproxied, forks.
      const fork = await start({ forkUrl: C(up.uri) });
      await fork.stop();
    } finally {
      proxy.close();
      await up.stop();
    }
  }, 60_000);
});

describe("a fork's start", () => {
  it('asks its upstream what it starts from in one round trip when the block is given, two when not', async () => {
    const up = await startTestNode({ dbType: 'memdb' });
    // A proxy that records the methods of each HTTP request, in the order they come.
    const requests: string[][] = [];
    const proxy = await rpcProxy(C(up.uri), {
      request: (calls) => {
        requests.push(calls.map((c) => c.method).sort());
        return calls;
      },
    });
    const start = (extra: Record<string, unknown>) =>
      startEmulator({ httpPort: 0, logLevel: 'off', dataDir: tempDir('fork-start-'), dbType: 'memdb', forkUrl: proxy.url, ...extra });
    try {
      await (await start({ forkBlockNumber: '0' })).stop();
      expect(requests[0]).toEqual(['eth_blockNumber', 'eth_chainId', 'eth_getBlockByNumber', 'eth_getProof']);
      requests.length = 0;
      await (await start({})).stop();
      expect(requests.slice(0, 2)).toEqual([
        ['eth_blockNumber', 'eth_chainId'],
        ['eth_getBlockByNumber', 'eth_getProof'],
      ]);
    } finally {
      proxy.close();
      await up.stop();
    }
  }, 60_000);
});

describe('reads on a fork', () => {
  it('run side by side: a read waiting on the upstream holds no other read', async () => {
    const up = await startTestNode({ dbType: 'memdb', testAccounts: 2 });
    const [x, y] = [deployer!.address.toLowerCase(), holder!.address.toLowerCase()];
    // A proxy to the upstream's C-Chain that holds the proofs of x until the test lets them go.
    let letGo!: () => void;
    const held = new Promise<void>((r) => {
      letGo = r;
    });
    let holding = 0;
    const proxy = await rpcProxy(C(up.uri), {
      request: async (calls) => {
        if (calls.some((c) => c.method === 'eth_getProof' && String(c.params?.[0]).toLowerCase() === x)) {
          holding++;
          await held;
        }
        return calls;
      },
    });
    const fork = await startEmulator({
      httpPort: 0,
      logLevel: 'off',
      dataDir: tempDir('fork-readers-'),
      dbType: 'memdb',
      forkUrl: proxy.url,
    });
    try {
      const F = C(fork.uri);
      const want = async (who: string) => call<string>(C(up.uri), 'eth_getBalance', [who, 'latest']);
      // y's account is fetched once; x's fetch then waits on the upstream.
      expect(await call(F, 'eth_getBalance', [y, 'latest'])).toBe(await want(y));
      const slow = call<string>(F, 'eth_getBalance', [x, 'latest']);
      for (let i = 0; i < 200 && holding === 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(holding).toBe(1);
      // Reads of what the fork holds go on meanwhile: a call, a balance, the nonce.
      const others = Promise.all([
        call(F, 'eth_getBalance', [y, 'latest']),
        call(F, 'eth_getTransactionCount', [y, 'latest']),
        call(F, 'eth_call', [{ from: y, to: y, value: '0x1' }, 'latest']),
      ]);
      const first = await Promise.race([others.then(() => 'others'), slow.then(() => 'slow'), new Promise((r) => setTimeout(r, 5_000, 'timeout'))]);
      expect(first).toBe('others');
      expect((await others)[0]).toBe(await want(y));
      letGo();
      expect(await slow).toBe(await want(x));
    } finally {
      letGo();
      await fork.stop();
      proxy.close();
      await up.stop();
    }
  }, 60_000);
});

describe('the debug API on a fork', () => {
  it('looks for state at no block below the fork block, names the upstream nodes a walk has not fetched, records a failed read in traceChain', async () => {
    // An upstream of its own (the file's is stopped by a test above), with a block past its genesis.
    const up = await startTestNode({ dbType: 'memdb', testAccounts: 2 });
    await send(C(up.uri), keys[0]!, holder!.address, '0x');
    const requests: string[] = [];
    let down = false;
    const proxy = await rpcProxy(C(up.uri), {
      request: (calls) => {
        requests.push(...calls.map((c) => c.method));
        return calls;
      },
      // Once `down`, every upstream answer is an error.
      reply: (answer) => (down ? { jsonrpc: '2.0', id: answer.id, error: { code: -32000, message: 'upstream is down' } } : answer),
    });
    const fork = await startEmulator({ httpPort: 0, logLevel: 'off', dataDir: tempDir('fork-debug-'), dbType: 'memdb', dev: true, forkUrl: proxy.url });
    try {
      const F = C(fork.uri);
      const base = BigInt(await call(F, 'eth_blockNumber'));
      expect(base).toBeGreaterThan(0n);
      const before = requests.length;
      // Below the fork block the state is the upstream's, read key by key: a walk up starts at the fork
      // block (`to` is not included: from 0 to the head, the fork block, nothing is found).
      expect((await rpc(F, 'debug_getAccessibleState', ['0x0', 'latest'])).json.error.message).toBe('no state found');
      expect(await call(F, 'debug_getAccessibleState', ['0x0', qty(base + 1n)])).toBe(Number(base));
      expect(await call(F, 'debug_getAccessibleState', ['latest', '0x0'])).toBe(Number(base));
      expect(requests.slice(before)).toEqual([]);
      const walk = await rpc(F, 'debug_accountRange', ['latest', '0x', 10, true, true, true]);
      expect(walk.json.error.message).toMatch(/^missing trie node: /);

      // traceChain over the upstream's block 1 (the test accounts' two transfers), whose state the
      // fork has not read: with the upstream failing, the first tx's trace is that failure (coreth
      // records any traceTx error, not only a tracer's), the next null, and the chain goes on.
      // The blocks themselves are read (and kept) before the upstream goes down; their state is not.
      const block1 = await call(F, 'eth_getBlockByNumber', ['0x1', false]);
      await call(F, 'eth_getBlockByNumber', ['0x0', false]);
      for (const tx of block1.transactions) await call(F, 'eth_getTransactionReceipt', [tx]);
      down = true;
      const ws = new WebSocket(`${fork.uri.replace('http', 'ws')}/ext/bc/C/ws`);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const pushed = new Promise<{ block: string; traces: Array<{ txHash?: string; error?: string } | null> }>((resolve) =>
        ws.on('message', (d) => {
          const m = JSON.parse(d.toString());
          if (m.method === 'debug_subscription') resolve(m.params.result);
        }),
      );
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_subscribe', params: ['traceChain', '0x0', '0x1'] }));
      const first = await pushed;
      ws.close();
      expect(first.block).toBe('0x1');
      expect(first.traces).toHaveLength(2);
      expect(first.traces[0]).toEqual({ txHash: block1.transactions[0], error: expect.stringMatching(/upstream is down/) });
      expect(first.traces[1]).toBeNull();
    } finally {
      await fork.stop();
      proxy.close();
      await up.stop();
    }
  }, 60_000);
});

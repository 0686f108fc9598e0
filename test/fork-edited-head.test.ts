// Forking a head whose state was edited without a block: an upstream started with --dev has its head's
// state changed by anvil_setBalance and by this node's own ICM placement, so the state it serves (and
// proves with eth_getProof) at its head is not the one the head's header names. The fork takes those
// edits as its own head's, as Anvil forking a node does: reads see them, the next block includes them
// and replays from them, reads of the fork block still see them once it is below the head, a restart
// keeps them, anvil_reset takes a later edited head the same way; once the upstream has built on its
// edits, a read of one the fork never fetched says why it fails. A fork block below the head must be proven against the block's own state root,
// and an empty proof of a state with accounts is no proof: either way the fork refuses to start.
import { type Hex, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.js';
import { rpc, startTestNode, tempDir, type TestNode } from './helpers.js';
import { rpcProxy } from './support/rpcproxy.js';

const C = (uri: string) => `${uri}/ext/bc/C/rpc`;
const qty = (n: bigint) => `0x${n.toString(16)}`;
/** ICM's messenger, which the upstream places by a state edit at its first head. */
const MESSENGER = '0x253b2784c75e510dd0ff1da844684a1aC0aa5fcf';
/** A key nothing funds but the edit: its balance exists only in the upstream's edited head. */
const edited = privateKeyToAccount('0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba');
const EDITED_WEI = 7n * 10n ** 18n;
/** Edited with it, and read on the fork only after the upstream has moved on. */
const UNREAD = '0x00000000000000000000000000000000000e0172';
/** Edited on the upstream's next head, for anvil_reset to fork. */
const LATER = '0x00000000000000000000000000000000000e0173';

async function call<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const { json } = await rpc(url, method, params);
  if (json.error) throw new Error(`${method}: ${json.error.message}`);
  return json.result as T;
}

/** A signed legacy transfer from the edited account (a fixed gas price: the same tx on any chain). */
async function transferFromEdited(chainId: number, nonce: number): Promise<Hex> {
  return edited.signTransaction({
    type: 'legacy',
    chainId,
    nonce,
    gas: 21_000n,
    gasPrice: parseGwei('100'),
    to: '0x00000000000000000000000000000000000beef1',
    value: 10n ** 18n,
  });
}

async function receiptOf(url: string, raw: Hex): Promise<any> {
  return call(url, 'eth_getTransactionReceipt', [await call(url, 'eth_sendRawTransaction', [raw])]);
}

let upstream: TestNode;
let U: string;
let head: bigint;

beforeAll(async () => {
  upstream = await startTestNode({ dbType: 'memdb', dev: true });
  U = C(upstream.uri);
  await call(U, 'anvil_setBalance', [edited.address, qty(EDITED_WEI)]);
  await call(U, 'anvil_setBalance', [UNREAD, qty(3n)]);
  head = BigInt(await call(U, 'eth_blockNumber'));
}, 60_000);

afterAll(async () => {
  await upstream?.stop().catch(() => undefined);
});

describe('a fork of a head whose state has edits', () => {
  const dataDir = tempDir('fork-edited-');
  const options = { httpPort: 0, logLevel: 'off', dataDir, dev: true, forkRetries: 0 } as const;
  let fork: Awaited<ReturnType<typeof startEmulator>>;
  let F: string;

  afterAll(async () => {
    await fork?.stop().catch(() => undefined);
  });

  it("serves the upstream's head block and, as its state, the upstream's edited one", async () => {
    const block = await call(U, 'eth_getBlockByNumber', [qty(head), false]);
    // The premise: the upstream proves a state that is not its head header's.
    const proof = await call(U, 'eth_getProof', [edited.address, [], qty(head)]);
    expect(proof.balance).toBe(qty(EDITED_WEI));
    fork = await startEmulator({ ...options, forkUrl: U });
    F = C(fork.uri);
    expect(BigInt(await call(F, 'eth_blockNumber'))).toBe(head);
    expect(await call(F, 'eth_getBlockByNumber', [qty(head), false])).toEqual(block);
    expect(BigInt(await call(F, 'eth_getBalance', [edited.address, 'latest']))).toBe(EDITED_WEI);
    expect(await call(F, 'eth_getCode', [MESSENGER, 'latest'])).toBe(await call(U, 'eth_getCode', [MESSENGER, 'latest']));
    expect(await call(F, 'eth_getProof', [edited.address, [], 'latest'])).toEqual(proof);
  }, 60_000);

  it('keeps the edits across a restart, then builds on them the state root the upstream builds', async () => {
    await fork.stop();
    fork = await startEmulator(options);
    F = C(fork.uri);
    expect(BigInt(await call(F, 'eth_getBalance', [edited.address, 'latest']))).toBe(EDITED_WEI);
    const raw = await transferFromEdited(Number(await call(U, 'eth_chainId')), 0);
    const onFork = await receiptOf(F, raw);
    expect(onFork.status).toBe('0x1');
    expect(BigInt(onFork.blockNumber)).toBe(head + 1n);
    const mine = await call(F, 'eth_getBlockByNumber', [onFork.blockNumber, false]);
    expect(mine.parentHash).toBe((await call(U, 'eth_getBlockByNumber', [qty(head), false])).hash);
    // Below the new head, the fork block keeps the state the fork began from: the upstream proves no other.
    expect(BigInt(await call(F, 'eth_getBalance', [edited.address, qty(head)]))).toBe(EDITED_WEI);
    expect(await call(F, 'eth_getProof', [edited.address, [], qty(head)])).toEqual(await call(U, 'eth_getProof', [edited.address, [], qty(head)]));
    expect(await call(F, 'eth_getCode', [MESSENGER, qty(head)])).toBe(await call(U, 'eth_getCode', [MESSENGER, qty(head)]));
    // The same tx on the upstream, on the same edited state: the same state root.
    const onUpstream = await receiptOf(U, raw);
    const theirs = await call(U, 'eth_getBlockByNumber', [onUpstream.blockNumber, false]);
    expect(mine.stateRoot).toBe(theirs.stateRoot);
    expect(BigInt(await call(F, 'eth_getBalance', [edited.address, 'latest']))).toBe(BigInt(await call(U, 'eth_getBalance', [edited.address, 'latest'])));
    // The block replays from the edited state it was built on.
    const traces = await call(F, 'debug_traceBlockByNumber', [onFork.blockNumber, { tracer: 'callTracer' }]);
    expect(traces).toHaveLength(1);
    expect(traces[0].result.from).toBe(edited.address.toLowerCase());
  }, 60_000);

  it('says why it cannot read an edit it never fetched once the upstream has built on its edits', async () => {
    // The upstream took the same tx (above): its state at the fork block is now the header's.
    expect(BigInt(await call(U, 'eth_blockNumber'))).toBe(head + 1n);
    const { status, json } = await rpc(F, 'eth_getBalance', [UNREAD, 'latest']);
    expect(status).toBe(200);
    expect(json.error.code).toBe(-32000);
    expect(json.error.message).toMatch(
      new RegExp(
        `is on no path the fork can fetch: the fork began from the edits the upstream's head \\(block ${head}\\) had, which the upstream proves only while`,
      ),
    );
  }, 60_000);

  it("anvil_reset forks the upstream's new edited head, its edits with it", async () => {
    await call(U, 'anvil_setBalance', [LATER, qty(5n)]);
    const upstreamHead = BigInt(await call(U, 'eth_blockNumber'));
    await call(F, 'anvil_reset', [{ forking: { jsonRpcUrl: U } }]);
    expect(BigInt(await call(F, 'eth_blockNumber'))).toBe(upstreamHead);
    expect(BigInt(await call(F, 'eth_getBalance', [LATER, 'latest']))).toBe(5n);
    expect(BigInt(await call(F, 'eth_getBalance', [edited.address, 'latest']))).toBe(BigInt(await call(U, 'eth_getBalance', [edited.address, 'latest'])));
  }, 60_000);
});

describe('a fork block below the head', () => {
  it("is refused at start when the upstream proves it against another root than the block's, as is an empty proof", async () => {
    const up = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1 });
    // A proxy that answers eth_getProof with the head's state whatever block is asked: an upstream
    // that does not serve the state of the block it names; or, `empty`, with no account proof at all.
    let empty = false;
    const proxy = await rpcProxy(C(up.uri), {
      request: (calls) => calls.map((c) => (c.method === 'eth_getProof' ? { ...c, params: [c.params?.[0], c.params?.[1], 'latest'] } : c)),
      reply: (answer) => {
        if (empty && answer.result?.accountProof) answer.result.accountProof = [];
        return answer;
      },
    });
    try {
      expect(BigInt(await call(C(up.uri), 'eth_blockNumber'))).toBeGreaterThan(0n);
      const url = proxy.url;
      const start = (forkBlockNumber?: string) =>
        startEmulator({
          httpPort: 0,
          logLevel: 'off',
          dataDir: tempDir('fork-bad-root-'),
          dbType: 'memdb',
          forkRetries: 0,
          forkUrl: url,
          ...(forkBlockNumber ? { forkBlockNumber } : {}),
        });
      await expect(start('0')).rejects.toThrow(
        /^the fork's upstream proves a state at block 0 whose root 0x[0-9a-f]{64} is not the block's state root 0x[0-9a-f]{64}$/,
      );
      // Through the same proxy, its head forks (its edits taken as the fork's).
      const fork = await start();
      await fork.stop();
      // An empty proof of a state that has accounts is no state at all: refused, even at the head.
      empty = true;
      await expect(start()).rejects.toThrow(
        /^the fork's upstream proves a state at block \d+ whose root 0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421 is not/,
      );
    } finally {
      proxy.close();
      await up.stop();
    }
  }, 60_000);
});

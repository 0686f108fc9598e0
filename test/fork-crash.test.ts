// A fork run as the command a user runs (the CLI, LevelDB): killed with SIGKILL after local txs were
// acknowledged, it comes back with every one of them, its fork block and its cache, without the fork
// flags (the data dir's record says what it forks); a fork that cannot start exits 1 in one line.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runCli, spawnNode, startTestNode, tempDir, type TestNode } from './helpers.js';

const TO = '0x00000000000000000000000000000000000c0ffe';
let upstream: TestNode;
let U: string;

beforeAll(async () => {
  upstream = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1 });
  U = `${upstream.uri}/ext/bc/C/rpc`;
});

afterAll(async () => {
  await upstream?.stop();
});

describe('a forked C-Chain killed with SIGKILL', () => {
  it('loses nothing it acknowledged, and restarts from its record without the fork flags', async () => {
    const dataDir = tempDir('fork-kill-');
    const [from] = await call(U, 'eth_accounts');
    const forkBlock = await call(U, 'eth_blockNumber');
    let node = await spawnNode([`--fork-url=${U}`, '--dev', '--fork-retries=0'], dataDir);
    const C = () => `${node.uri}/ext/bc/C/rpc`;
    await call(C(), 'anvil_impersonateAccount', [from]);
    const receipts = [];
    for (let i = 1; i <= 5; i++) {
      const hash = await call(C(), 'eth_sendTransaction', [{ from, to: TO, value: `0x${i.toString(16)}` }]);
      receipts.push(await call(C(), 'eth_getTransactionReceipt', [hash]));
    }
    const head = await call(C(), 'eth_getBlockByNumber', ['latest', false]);
    node.child.kill('SIGKILL');
    await node.exited;
    // SIGKILL leaves the process context file behind; the next start writes its own.
    rmSync(node.contextFile);
    node = await spawnNode(['--dev'], dataDir);
    try {
      expect(await call(C(), 'eth_getBlockByNumber', ['latest', false])).toEqual(head);
      for (const r of receipts) expect(await call(C(), 'eth_getTransactionReceipt', [r.transactionHash])).toEqual(r);
      expect(await call(C(), 'eth_getBalance', [TO, 'latest'])).toBe('0xf');
      expect((await call(C(), 'anvil_nodeInfo')).forkConfig).toMatchObject({ forkUrl: U, forkBlockNumber: Number(BigInt(forkBlock)) });
      // The upstream never saw them.
      expect(await call(U, 'eth_getBalance', [TO, 'latest'])).toBe('0x0');
    } finally {
      node.child.kill('SIGTERM');
      await node.exited;
    }
  }, 90_000);

  it('exits 1 in one line when the fork cannot start', async () => {
    const { code, stdout } = await runCli([`--data-dir=${tempDir('fork-fail-')}`, '--http-port=0', '--fork-url=http://127.0.0.1:1/', '--fork-retries=0']);
    expect(code).toBe(1);
    // As any start-up failure: avalanchego's "couldn't start node: " and the cause, the last line.
    expect(stdout.trim().split('\n').at(-1)).toMatch(
      /^couldn't start node: fork upstream http:\/\/127\.0\.0\.1:1: eth_chainId failed: connect ECONNREFUSED 127\.0\.0\.1:1$/,
    );
  }, 30_000);
});

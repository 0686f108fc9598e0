// Foundry's forge against the node, as users run it (test/fixtures/foundry): `forge script
// --broadcast` deploys a contract and calls it on the C-Chain and on an L1 of a --dev node, signing
// with a test account's key, and `forge test --fork-url` runs tests against a fork of the chain the
// script wrote to (forge reads coreth's and Subnet-EVM's blocks and the contract's state).
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src/vms/avm/index.js';
import { call, startTestNode, tempDir, type TestNode } from './helpers.js';
import { type Finished, runToEnd } from './support/run.js';

const FORGE = join(dirname(createRequire(import.meta.url).resolve('@foundry-rs/forge-linux-amd64/package.json')), 'bin', 'forge');
const PROJECT = new URL('./fixtures/foundry/', import.meta.url).pathname;
const MYL1 = new URL('../fixtures/myl1.json', import.meta.url).pathname;

/** forge in `dir` (a copy of the project: forge writes out/, cache/ and broadcast/ there), to its end: exit code and output. */
function forge(dir: string, args: string[], env: Record<string, string> = {}): Promise<Finished> {
  return runToEnd(FORGE, [...args, '--root', dir, '--use', join(PROJECT, 'solc')], {
    cwd: dir,
    env: { ...process.env, HOME: join(dir, 'home'), PATH: `${dirname(process.execPath)}:${process.env.PATH}`, NO_COLOR: '1', ...env },
    timeoutMs: 100_000,
  });
}

// The forge of npm's @foundry-rs/forge-linux-amd64: Linux on x86-64 only.
describe.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('forge script and forge test --fork-url against a --dev node', () => {
  let node: TestNode;
  let dir: string;
  let key: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 1, l1: [MYL1] });
    key = `0x${Buffer.from(testAccounts(1)[0]!.privateKey).toString('hex')}`;
    dir = tempDir('foundry-');
    cpSync(PROJECT, dir, { recursive: true });
  });
  afterAll(async () => {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [chain, alias, chainId] of [
    ['the C-Chain', 'C', 43112],
    ['an L1', 'myl1', 99999],
  ] as const) {
    it(`deploys and calls with forge script --broadcast on ${chain}, then tests the contract on a fork of it`, async () => {
      const rpcUrl = `${node.uri}/ext/bc/${alias}/rpc`;
      const script = await forge(dir, ['script', 'script/Deploy.s.sol:Deploy', '--rpc-url', rpcUrl, '--broadcast'], { DEPLOYER_KEY: key });
      expect(script.output, script.output).toMatch(/ONCHAIN EXECUTION COMPLETE & SUCCESSFUL/);
      expect(script.code, script.output).toBe(0);
      // What forge wrote of the run, checked against the chain.
      const run = JSON.parse(readFileSync(join(dir, 'broadcast', 'Deploy.s.sol', String(chainId), 'run-latest.json'), 'utf8'));
      expect(run.receipts.map((r: { status: string }) => r.status)).toEqual(['0x1', '0x1', '0x1']);
      const counter: string = run.transactions[0].contractAddress;
      for (const r of run.receipts) expect((await call(rpcUrl, 'eth_getTransactionReceipt', [r.transactionHash])).blockHash).toBe(r.blockHash);
      // number() is 42.
      expect(BigInt(await call(rpcUrl, 'eth_call', [{ to: counter, data: '0x8381f58a' }, 'latest']))).toBe(42n);

      const tests = await forge(dir, ['test', '--fork-url', rpcUrl], { COUNTER: counter });
      expect(tests.output, tests.output).toMatch(/2 tests passed, 0 failed/);
      expect(tests.code, tests.output).toBe(0);
      // The fork's changes stay in forge: the chain's counter is still 42.
      expect(BigInt(await call(rpcUrl, 'eth_call', [{ to: counter, data: '0x8381f58a' }, 'latest']))).toBe(42n);
    }, 120_000);
  }
});

// Hardhat 2 itself against the node: a project as users write one (test/fixtures/hardhat: hardhat-
// ethers, the chai matchers, the network helpers, a contract compiled by Hardhat through npm's
// solc) run by `hardhat test --network emulator` on the C-Chain and on an L1 of a --dev node, with
// the node's --test-accounts as Hardhat's remote signers. The same project passes on Anvil 1.7.1.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, tempDir, type TestNode } from './helpers.js';
import { type Finished, runToEnd } from './support/run.js';

const PROJECT = new URL('./fixtures/hardhat/', import.meta.url).pathname;
const HARDHAT = createRequire(import.meta.url).resolve('hardhat/internal/cli/bootstrap.js');
const MYL1 = new URL('../fixtures/myl1.json', import.meta.url).pathname;

/**
 * Runs hardhat in the project (`args` after its config) against `rpc`. HOME and the XDG folders are
 * temp ones: Hardhat keeps its telemetry consent, analytics and vars there.
 */
function hardhat(args: string[], rpc: string, out: string): Promise<Finished> {
  const home = join(out, 'home');
  return runToEnd(process.execPath, [HARDHAT, '--config', join(PROJECT, 'hardhat.config.cjs'), ...args], {
    cwd: PROJECT,
    env: {
      ...process.env,
      EMULATOR_RPC: rpc,
      HARDHAT_OUT: out,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
      FORCE_COLOR: '0',
      NO_COLOR: '1',
    },
    timeoutMs: 100_000,
  });
}

describe('Hardhat 2 (hardhat test --network) against a --dev node', () => {
  let node: TestNode;
  let out: string;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb', dev: true, testAccounts: 10, l1: [MYL1] });
    out = tempDir('hardhat-out-');
    // Compiled once, for both chains (as `hardhat test` would compile it first).
    const compiled = await hardhat(['compile'], '', out);
    expect(compiled.code, compiled.output).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await node.stop();
    rmSync(out, { recursive: true, force: true });
  });

  for (const [chain, path] of [
    ['the C-Chain', 'C'],
    ['an L1', 'myl1'],
  ] as const) {
    it(`passes the project's tests on ${chain}`, async () => {
      const { code, output } = await hardhat(['test', '--network', 'emulator', '--no-compile'], `${node.uri}/ext/bc/${path}/rpc`, out);
      expect(output, output).toMatch(/\b7 passing\b/);
      expect(output).not.toMatch(/failing/);
      expect(code, output).toBe(0);
    }, 120_000);
  }
});

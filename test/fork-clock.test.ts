// A fork's block time, as Anvil's: it goes on from the fork block's timestamp (Anvil's TimeManager
// starts there, and anvil_reset with forking starts it again at the new fork block), not from
// today's clock, so a fork of an old block does not jump months ahead at its first block. Here the
// upstream's genesis is 2020-12-05 (the local network's), and a later upstream block is pinned a
// day ahead of the clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/index.js';
import { sendTipped } from './support/tips.js';
import { call, startTestNode, tempDir, type TestNode } from './helpers.js';

const DAY = 86_400n;
const now = () => BigInt(Math.floor(Date.now() / 1000));
const blockTime = async (url: string, tag: string) => BigInt((await call(url, 'eth_getBlockByNumber', [tag, false])).timestamp);

describe("a fork's block time goes on from its fork block's (--dev)", () => {
  let upstream: TestNode;
  let fork: Awaited<ReturnType<typeof startEmulator>> | undefined;
  let U: string;
  beforeAll(async () => {
    upstream = await startTestNode({ dbType: 'memdb', dev: true });
    U = `${upstream.uri}/ext/bc/C/rpc`;
  });
  afterAll(async () => {
    await fork?.stop().catch(() => undefined);
    await upstream?.stop().catch(() => undefined);
  });

  it('from the fork block at start, and from the new fork block after anvil_reset', async () => {
    const genesisTime = await blockTime(U, '0x0');
    expect(genesisTime < now() - 365n * DAY).toBe(true);
    fork = await startEmulator({ httpPort: 0, logLevel: 'off', dataDir: tempDir('fork-clock-'), dbType: 'memdb', dev: true, forkUrl: U, forkBlockNumber: '0' });
    const F = `${fork.uri}/ext/bc/C/rpc`;
    await call(F, 'evm_mine', []);
    const first = await blockTime(F, 'latest');
    expect(first >= genesisTime && first < genesisTime + 600n, `first local block at ${first}, fork block at ${genesisTime}`).toBe(true);
    // evm_increaseTime still moves it on from there (the fork's clock, not today's).
    await call(F, 'evm_increaseTime', [3600]);
    await call(F, 'evm_mine', []);
    const later = await blockTime(F, 'latest');
    expect(later >= genesisTime + 3600n && later < genesisTime + 4200n, `${first} then ${later}`).toBe(true);

    // A revert undoes a day moved on since the snapshot, and keeps the fork's clock (not today's).
    const id = await call(F, 'evm_snapshot', []);
    await call(F, 'evm_increaseTime', [Number(DAY)]);
    await call(F, 'evm_mine', []);
    expect(await call(F, 'evm_revert', [id])).toBe(true);
    await call(F, 'evm_mine', []);
    const reverted = await blockTime(F, 'latest');
    expect(reverted >= later && reverted < later + 600n, `after the revert ${reverted}, before it ${later}`).toBe(true);

    // The fee oracle reads the fork's time too: its own blocks, years behind the wall clock, are recent.
    const tip = 50_000_000_000n;
    await sendTipped(F, tip);
    expect(BigInt(await call(F, 'eth_maxPriorityFeePerGas', []))).toBe(tip);

    // Upstream: a block a day ahead of the clock; the fork resets to it.
    const ahead = now() + DAY;
    await call(U, 'evm_mine', [Number(ahead)]);
    const block = await call(U, 'eth_blockNumber', []);
    expect(await call(F, 'anvil_reset', [{ forking: { jsonRpcUrl: U, blockNumber: block } }])).toBeNull();
    await call(F, 'evm_mine', []);
    const after = await blockTime(F, 'latest');
    expect(after >= ahead && after < ahead + 600n, `first block after the reset at ${after}, fork block at ${ahead}`).toBe(true);
  }, 60_000);
});

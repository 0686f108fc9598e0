// Blocks from before Granite, which this node does not build. Subnet-EVM takes a genesis that
// schedules Granite later than the network does (verifyWithDefault) and builds the blocks before it
// under the earlier rules: a block gas cost that tips must cover (customheader.BlockGasCost,
// VerifyBlockFee), headers without timestampMilliseconds and minDelayExcess (miner/worker.go,
// customheader.MinDelayExcess). This node builds every block under Granite's rules, so it refuses
// what would make it build earlier blocks, rather than building them with Granite's fields and fees:
// a genesis scheduling Durango, Etna or Granite after the chain starts, and a fork of a block from
// before Granite (a fork's clock goes on from its fork block's time).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Hex, parseGwei } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callError, startTestNode, type TestNode, tempDir } from './helpers.js';

const MYL1 = join(import.meta.dirname, '..', 'fixtures', 'myl1.json');
const ewoq = privateKeyToAccount('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027');
const now = () => Math.floor(Date.now() / 1000);

/** fixtures/myl1.json with `config` and top-level fields changed, written as <dir>/<name>.json (the L1's alias is <name>). */
function genesisFile(name: string, config: Record<string, unknown>, top: Record<string, unknown> = {}): string {
  const g = JSON.parse(readFileSync(MYL1, 'utf8'));
  Object.assign(g.config, config);
  Object.assign(g, top);
  const file = join(tempDir('granite-'), `${name}.json`);
  writeFileSync(file, JSON.stringify(g));
  return file;
}

/** ewoq sends 1 wei to itself (a legacy tx at a fixed price); its receipt. */
async function send(url: string): Promise<any> {
  const nonce = Number(await call(url, 'eth_getTransactionCount', [ewoq.address, 'latest']));
  const raw = await ewoq.signTransaction({ type: 'legacy', chainId: 99999, nonce, gas: 21_000n, gasPrice: parseGwei('50'), to: ewoq.address, value: 1n });
  const hash = await call(url, 'eth_sendRawTransaction', [raw]);
  return call(url, 'eth_getTransactionReceipt', [hash]);
}

describe('a genesis that schedules an upgrade after the chain starts (--l1)', () => {
  it('is refused for Granite, Etna and Durango, with the key and the time', async () => {
    const order = ['durangoTimestamp', 'etnaTimestamp', 'graniteTimestamp'];
    for (const key of order) {
      const later = now() + 3600;
      // The upgrades after it as late (Subnet-EVM refuses them out of order), and no warp (refused before Durango).
      const upgrades = Object.fromEntries(order.slice(order.indexOf(key)).map((k) => [k, later]));
      const started = startTestNode({ dbType: 'memdb', l1: [genesisFile('later', { ...upgrades, warpConfig: undefined })] });
      await expect(started, key).rejects.toThrow(
        new RegExp(`${key} ${later} is later than now \\(\\d+\\): the emulator builds every block under the upgrades through Granite`),
      );
    }
  });

  describe('Granite an hour ago, after the genesis time', () => {
    let node: TestNode;
    let L: string;
    const granite = now() - 3600;
    beforeAll(async () => {
      node = await startTestNode({ dbType: 'memdb', dev: true, l1: [genesisFile('recent', { graniteTimestamp: granite })] });
      L = `${node.uri}/ext/bc/recent/rpc`;
    });
    afterAll(() => node?.stop());

    it('starts: its genesis header is pre-Granite, the blocks it builds are Granite blocks', async () => {
      expect((await call(L, 'eth_getChainConfig')).graniteTimestamp).toBe(granite);
      const genesis = await call(L, 'eth_getBlockByNumber', ['0x0', false]);
      expect(genesis.timestampMilliseconds).toBeUndefined();
      expect(genesis.minDelayExcess).toBeUndefined();
      const receipt = await send(L);
      expect(receipt.status).toBe('0x1');
      const block = await call(L, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
      expect(BigInt(block.timestampMilliseconds) / 1000n).toBe(BigInt(block.timestamp));
      expect(block.minDelayExcess).toBeDefined();
    });

    it('builds no block before Granite, whatever the time controls say (its head the genesis)', async () => {
      const fresh = await startTestNode({ dbType: 'memdb', dev: true, l1: [genesisFile('recent', { graniteTimestamp: granite })] });
      const L = `${fresh.uri}/ext/bc/recent/rpc`;
      const error = await callError(L, 'evm_setNextBlockTimestamp', [granite - 60]);
      expect(error).toMatchObject({
        code: -32602,
        message: `Timestamp error: ${granite - 60} is before the upgrades through Granite on this chain (${granite}): this node builds blocks under their rules only`,
      });
      // The clock set back to the genesis's time: the next block is made at Granite's, with its fields.
      expect(await call(L, 'anvil_setTime', [0x5fcb13d0 + 100])).toBe(0);
      await call(L, 'evm_mine', []);
      const block = await call(L, 'eth_getBlockByNumber', ['latest', false]);
      expect(BigInt(block.timestamp)).toBe(BigInt(granite));
      expect(BigInt(block.timestampMilliseconds)).toBe(BigInt(granite) * 1000n);
      await fresh.stop();
    });
  });
});

describe('a fork of a block from before Granite', () => {
  let upstream: TestNode;
  let U: string;
  let fork: TestNode | undefined;
  beforeAll(async () => {
    // Its genesis is from 1970, before the local network's Granite (2020-12-05); its blocks are built now.
    upstream = await startTestNode({ dbType: 'memdb', dev: true, l1: [genesisFile('early', {}, { timestamp: '0x0' })] });
    U = `${upstream.uri}/ext/bc/early/rpc`;
    expect((await send(U)).status).toBe('0x1');
    expect((await call(U, 'eth_getBlockByNumber', ['0x0', false])).timestampMilliseconds).toBeUndefined();
  });
  afterAll(async () => {
    await fork?.stop();
    await upstream?.stop();
  });

  it('is refused at start, naming the block and its time', async () => {
    const started = startTestNode({ dbType: 'memdb', dev: true, forkL1: [`early=${U}@0`], forkRetries: 0 });
    await expect(started).rejects.toThrow(
      "the fork block 0 (1970-01-01T00:00:00Z) is from before the upstream's Granite upgrade (its header has no timestampMilliseconds): this node builds blocks under Granite's rules only, so fork a block from Granite on",
    );
  });

  it('is refused by anvil_reset, the fork of a Granite block left as it was', async () => {
    fork = await startTestNode({ dbType: 'memdb', dev: true, forkL1: [`early=${U}@1`], forkRetries: 0 });
    const F = `${fork.uri}/ext/bc/early/rpc`;
    const head = await call(F, 'eth_getBlockByNumber', ['0x1', false]);
    expect(head.hash).toBe((await call(U, 'eth_getBlockByNumber', ['0x1', false])).hash);
    const error = await callError(F, 'anvil_reset', [{ forking: { jsonRpcUrl: U, blockNumber: 0 } }]);
    expect(error.message).toMatch(/^the fork block 0 \(1970-01-01T00:00:00Z\) is from before the upstream's Granite upgrade/);
    expect((await call(F, 'eth_getBlockByNumber', ['latest', false])).hash).toBe(head.hash);
    // It goes on building on its Granite fork block.
    const receipt = await send(F);
    expect(receipt.status).toBe('0x1');
    expect((await call(F, 'eth_getBlockByNumber', [receipt.blockNumber, false])).parentHash).toBe(head.hash as Hex);
  });
});

// The Metrics API over the node's own chains: known activity across several days (the node's clock
// moved with emulator.advanceClock), and every metric at every interval it allows checked against
// values computed here from the chain's own blocks and receipts; the contract (popsicle.json, and
// the usage guide's shape for /v1/avg_tps) holds for every answer, errors included.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Contract, ContractFactory, JsonRpcProvider, NonceManager, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVG_TPS, METRICS_OPERATIONS, trim } from '../scripts/contracts/trim.mjs';
import { call, startTestNode, type TestNode } from './helpers.js';
import { EWOQ_KEY } from './support/data.js';
import { fixture } from './support/solc.js';

const ROOT = new URL('..', import.meta.url).pathname;
const POPSICLE = JSON.parse(readFileSync(`${ROOT}contracts/popsicle.json`, 'utf8'));
const CUT = JSON.parse(readFileSync(`${ROOT}contracts/metrics-api.json`, 'utf8'));
const Ajv2020 = createRequire(import.meta.url)('ajv/dist/2020').default;
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'popsicle', components: POPSICLE.components });
ajv.addSchema({ $id: 'cut', components: CUT.components });
const schemaOf = (doc: any, id: string, path: string, status: number) =>
  JSON.parse(
    JSON.stringify(doc.paths[path].get.responses[String(status)].content['application/json'].schema).replaceAll('"#/components/', `"${id}#/components/`),
  );

async function get(uri: string, path: string, status = 200): Promise<any> {
  const res = await fetch(`${uri}${path}`);
  const body = await res.json();
  expect({ path, status: res.status, body: res.status === status ? undefined : body }).toEqual({ path, status, body: undefined });
  const schema = path.startsWith('/v1/avg_tps')
    ? schemaOf(CUT, 'cut', '/v1/avg_tps/{chainId}', status)
    : schemaOf(POPSICLE, 'popsicle', '/v2/chains/{chainId}/metrics/{metric}', status);
  const validate = ajv.compile(schema);
  expect(validate(body) ? [] : validate.errors).toEqual([]);
  return body;
}

const DAY = 86_400;
const bucketOf = (t: number, interval: string) => {
  if (interval === 'hour') return t - (t % 3600);
  if (interval === 'day') return t - (t % DAY);
  if (interval === 'week') {
    const d = t - (t % DAY);
    return d - ((new Date(d * 1000).getUTCDay() + 6) % 7) * DAY;
  }
  const date = new Date(t * 1000);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) / 1000;
};

interface Tx {
  blockMs: number;
  parentMs: number;
  gasUsed: bigint;
  price: bigint;
  addresses: string[];
  senders: string[];
  /** The from of each contract creation (top-level or internal). */
  creations: string[];
}

describe('the Metrics API', () => {
  let node: TestNode;
  const txs: Tx[] = [];
  let genesisMs = 0;
  beforeAll(async () => {
    node = await startTestNode({ dbType: 'memdb' });
    const url = `${node.uri}/ext/bc/C/rpc`;
    const provider = new JsonRpcProvider(url, 43112, { staticNetwork: true, cacheTimeout: -1 });
    const ewoq = new NonceManager(new Wallet(EWOQ_KEY, provider));
    const bWallet = new Wallet(`0x${'b0'.repeat(32)}`, provider);
    const b = new NonceManager(bWallet);
    const X = '0x000000000000000000000000000000000000aaaa';
    const Y = '0x000000000000000000000000000000000000BbBB';
    const lower = (a: string) => a.toLowerCase();
    const record = async (hash: string, addresses: string[], senders: string[], creations: string[] = []) => {
      const receipt = (await provider.getTransactionReceipt(hash))!;
      const block = await provider.send('eth_getBlockByNumber', [`0x${receipt.blockNumber.toString(16)}`, false]);
      const parent = await provider.send('eth_getBlockByNumber', [
        block.parentHash === undefined ? '0x0' : `0x${(receipt.blockNumber - 1).toString(16)}`,
        false,
      ]);
      const ms = (bl: any) => Number(BigInt(bl.timestampMilliseconds ?? BigInt(bl.timestamp) * 1000n));
      txs.push({
        blockMs: ms(block),
        parentMs: ms(parent),
        gasUsed: receipt.gasUsed,
        price: receipt.gasPrice,
        addresses: addresses.map(lower),
        senders: senders.map(lower),
        creations: creations.map(lower),
      });
    };
    const genesis = await provider.send('eth_getBlockByNumber', ['0x0', false]);
    genesisMs = Number(BigInt(genesis.timestampMilliseconds ?? BigInt(genesis.timestamp) * 1000n));
    const E = await ewoq.getAddress();
    const B = bWallet.address;
    // Day 1, one hour after its start: all of it in one hour.
    const now = Math.floor(Date.now() / 1000);
    await call(`${node.uri}/ext/emulator`, 'emulator.advanceClock', { seconds: String(bucketOf(now, 'day') + DAY + 3600 - now) });
    const send = async (signer: NonceManager, to: string, value: bigint) => (await signer.sendTransaction({ to, value })).wait();
    await record((await send(ewoq, B, 10n ** 19n))!.hash, [E, B], [E]);
    await record((await send(ewoq, X, 1n))!.hash, [E, X], [E]);
    const tf = fixture('TestToken');
    const token = (await new ContractFactory(tf.abi, tf.bytecode, ewoq).deploy('T', 'T', 1000n)) as Contract;
    await token.waitForDeployment();
    const tokenAddress = await token.getAddress();
    // The mint's Transfer is from the zero address: the definition counts it.
    const zero = '0x0000000000000000000000000000000000000000';
    await record(token.deploymentTransaction()!.hash, [E, tokenAddress, zero], [E, zero], [E]);
    await record((await (await token.getFunction('transfer')(Y, 5n)).wait()).hash, [E, tokenAddress, Y], [E]);
    // Day 2.
    await call(`${node.uri}/ext/emulator`, 'emulator.advanceClock', { seconds: String(DAY) });
    await record((await send(b, X, 1n))!.hash, [B, X], [B]);
    const ff = fixture('Forwarder');
    const forwarder = (await new ContractFactory(ff.abi, ff.bytecode, b).deploy()) as Contract;
    await forwarder.waitForDeployment();
    const forwarderAddress = await forwarder.getAddress();
    await record(forwarder.deploymentTransaction()!.hash, [B, forwarderAddress], [B], [B]);
    await record((await (await forwarder.getFunction('deployChild')()).wait()).hash, [B, forwarderAddress], [B], [forwarderAddress]);
    // Day 4.
    await call(`${node.uri}/ext/emulator`, 'emulator.advanceClock', { seconds: String(2 * DAY) });
    await record((await send(ewoq, X, 1n))!.hash, [E, X], [E]);
    provider.destroy();
  }, 120_000);
  afterAll(() => node.stop());

  /** What each metric must be, computed from the txs recorded above. */
  function expected(metric: string, interval: string): Array<{ timestamp: number; value: number }> {
    const buckets = new Map<number, Tx[]>();
    for (const t of txs) {
      const k = bucketOf(Math.floor(t.blockMs / 1000), interval);
      buckets.set(k, [...(buckets.get(k) ?? []), t]);
    }
    const keys = [...buckets.keys()].sort((a, b) => a - b);
    const seenAddresses = new Set<string>();
    const seenDeployers = new Set<string>();
    let txCount = 0;
    let contractsBefore = 0;
    let lastMs = genesisMs;
    const out = keys.map((k) => {
      const list = buckets.get(k)!;
      txCount += list.length;
      for (const t of list) for (const a of t.addresses) seenAddresses.add(a);
      for (const t of list) for (const d of t.creations) seenDeployers.add(d);
      const gas = list.reduce((s, t) => s + t.gasUsed, 0n);
      const last = Math.max(...list.map((t) => t.blockMs));
      const elapsed = (last - lastMs) / 1000;
      const creations = list.flatMap((t) => t.creations);
      const value = (() => {
        switch (metric) {
          case 'activeAddresses':
            return new Set(list.flatMap((t) => t.addresses)).size;
          case 'activeSenders':
            return new Set(list.flatMap((t) => t.senders)).size;
          case 'txCount':
            return list.length;
          case 'gasUsed':
            return Number(gas);
          case 'contracts':
            return creations.length;
          case 'deployers':
            return new Set(creations).size;
          case 'cumulativeTxCount':
            return txCount;
          case 'cumulativeAddresses':
            return seenAddresses.size;
          case 'cumulativeDeployers':
            return seenDeployers.size;
          case 'cumulativeContracts':
            return contractsBefore;
          case 'avgTps':
            return list.length / elapsed;
          case 'avgGps':
            return Number(gas) / elapsed;
          case 'maxTps':
            return Math.max(...list.map((t) => 1 / ((t.blockMs - t.parentMs) / 1000)));
          case 'maxGps':
            return Math.max(...list.map((t) => Number(t.gasUsed) / ((t.blockMs - t.parentMs) / 1000)));
          case 'avgGasPrice':
            return Number(list.reduce((s, t) => s + t.price, 0n) / BigInt(list.length));
          case 'maxGasPrice':
            return Number(list.reduce((m, t) => (t.price > m ? t.price : m), 0n));
          case 'feesPaid':
            return Number(list.reduce((s, t) => s + t.gasUsed * t.price, 0n));
        }
        throw new Error(metric);
      })();
      contractsBefore += creations.length;
      lastMs = last;
      return { timestamp: k, value };
    });
    return out.reverse();
  }

  const ANY_INTERVAL = ['activeAddresses', 'activeSenders', 'txCount', 'gasUsed'];
  const DAY_ONLY = [
    'cumulativeTxCount',
    'cumulativeAddresses',
    'cumulativeContracts',
    'cumulativeDeployers',
    'contracts',
    'deployers',
    'avgGps',
    'maxGps',
    'avgTps',
    'maxTps',
    'avgGasPrice',
    'maxGasPrice',
    'feesPaid',
  ];

  it('is served from the cut of popsicle.json the node ships, with /v1/avg_tps from the usage guide', () => {
    expect(CUT).toEqual(trim(POPSICLE, METRICS_OPERATIONS, AVG_TPS));
  });

  it('every metric at every interval it allows, newest first, as computed from the blocks and receipts', async () => {
    expect(txs).toHaveLength(8);
    for (const metric of ANY_INTERVAL) {
      for (const interval of ['hour', 'day', 'week', 'month']) {
        const body = await get(node.uri, `/v2/chains/43112/metrics/${metric}?timeInterval=${interval}`);
        expect({ metric, interval, results: body.results }).toEqual({ metric, interval, results: expected(metric, interval) });
      }
    }
    for (const metric of DAY_ONLY) {
      const body = await get(node.uri, `/v2/chains/43112/metrics/${metric}`);
      const want = expected(metric, 'day');
      expect(body.results.map((p: any) => p.timestamp)).toEqual(want.map((p) => p.timestamp));
      for (const [i, p] of body.results.entries()) expect({ metric, i, value: p.value }).toEqual({ metric, i, value: expect.closeTo(want[i]!.value, 6) });
      await get(node.uri, `/v2/chains/43112/metrics/${metric}?timeInterval=hour`, 400);
    }
    // The hand-computed figures the definitions give this activity.
    const byDay = (metric: string) => expected(metric, 'day').map((p) => p.value);
    expect(byDay('txCount')).toEqual([1, 3, 4]);
    expect(byDay('activeAddresses')).toEqual([2, 3, 6]);
    expect(byDay('activeSenders')).toEqual([1, 1, 2]);
    expect(byDay('cumulativeTxCount')).toEqual([8, 7, 4]);
    expect(byDay('cumulativeAddresses')).toEqual([7, 7, 6]);
    expect(byDay('contracts')).toEqual([0, 2, 1]);
    expect(byDay('deployers')).toEqual([0, 2, 1]);
    expect(byDay('cumulativeContracts')).toEqual([3, 1, 0]);
    expect(byDay('cumulativeDeployers')).toEqual([3, 3, 1]);
  });

  it('filters by timestamp, pages, adds up chains for total and testnet, and answers /v1/avg_tps', async () => {
    const days = expected('txCount', 'day');
    const first = await get(node.uri, '/v2/chains/43112/metrics/txCount?pageSize=2');
    expect(first.results).toEqual(days.slice(0, 2));
    const rest = await get(node.uri, `/v2/chains/43112/metrics/txCount?pageSize=2&pageToken=${first.nextPageToken}`);
    expect(rest.results).toEqual(days.slice(2));
    expect(rest.nextPageToken).toBeUndefined();
    const ranged = await get(node.uri, `/v2/chains/43112/metrics/txCount?startTimestamp=${days[1]!.timestamp}&endTimestamp=${days[1]!.timestamp}`);
    expect(ranged.results).toEqual([days[1]]);
    expect((await get(node.uri, '/v2/chains/total/metrics/txCount')).results).toEqual(days);
    expect((await get(node.uri, '/v2/chains/testnet/metrics/txCount')).results).toEqual(days);
    const avg = await get(node.uri, '/v1/avg_tps/43112');
    expect(avg).toMatchObject({ status: 200, lastRun: Math.floor(Math.max(...txs.map((t) => t.blockMs)) / 1000) });
    expect(avg.results.map((p: any) => p.timestamp)).toEqual(days.map((p) => p.timestamp));
    for (const [i, p] of avg.results.entries()) expect(p.value).toBeCloseTo(expected('avgTps', 'day')[i]!.value, 6);
  });

  it("@avalanche-sdk/chainkit's metrics.chains.getMetrics reads the same series, every page passing its validation", async () => {
    const { Avalanche } = await import('@avalanche-sdk/chainkit');
    const sdk = new Avalanche({ enableTelemetry: false });
    const points: Array<{ timestamp: number; value: number }> = [];
    const first = await sdk.metrics.chains.getMetrics(
      { chainId: '43112', metric: 'activeAddresses', timeInterval: 'hour', pageSize: 1 },
      { serverURL: node.uri, retries: { strategy: 'none' } },
    );
    for await (const page of first) points.push(...page.result.results.map((p) => ({ timestamp: p.timestamp!, value: p.value! })));
    expect(points).toEqual(expected('activeAddresses', 'hour'));
    for (const metric of [...ANY_INTERVAL, ...DAY_ONLY]) {
      const page = await sdk.metrics.chains.getMetrics(
        { chainId: '43112', metric: metric as 'txCount', timeInterval: 'day' },
        { serverURL: node.uri, retries: { strategy: 'none' } },
      );
      const want = expected(metric, 'day');
      expect(page.result.results.map((p) => p.timestamp)).toEqual(want.map((p) => p.timestamp));
      for (const [i, p] of page.result.results.entries()) expect(p.value).toBeCloseTo(want[i]!.value, 6);
    }
  });

  it('refuses what the contract refuses, with the error body', async () => {
    expect((await get(node.uri, '/v2/chains/43112/metrics/avgTps?timeInterval=week', 400)).message).toEqual([
      'timeInterval week is not supported for avgTps: day only',
    ]);
    expect((await get(node.uri, '/v2/chains/43112/metrics/txCount?pageSize=2161', 400)).message).toEqual(['pageSize must not be greater than 2160']);
    expect((await get(node.uri, '/v2/chains/43112/metrics/volume', 400)).message).toEqual([
      expect.stringMatching(/^metric must be one of the following values: activeAddresses/),
    ]);
    expect((await get(node.uri, '/v2/chains/43112/metrics/txCount?timeInterval=year', 400)).message).toEqual([
      'timeInterval must be one of the following values: hour, day, week, month',
    ]);
    expect((await get(node.uri, '/v2/chains/777/metrics/txCount', 404)).message).toBe('chain 777 is not a chain of this node');
    expect((await get(node.uri, '/v2/chains/mainnet/metrics/txCount', 404)).message).toMatch(/mainnet is not served/);
    expect((await get(node.uri, '/v1/avg_tps/777', 404)).message).toBe('chain 777 is not a chain of this node');
  });
});

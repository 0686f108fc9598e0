// The Metrics API over the node's EVM chains: GET /v2/chains/{chainId}/metrics/{metric} (the 17
// metrics, by the definitions of the hosted API's contract applied literally to the index the
// followers keep) and GET /v1/avg_tps/{chainId}. `total` and `testnet` add up every EVM chain of
// the node (the local network presents itself as the test network); `mainnet` is not served.
import { badRequest, notFound } from '../errors.js';
import type { DataHandler } from '../http.js';
import type { PageTokens } from '../pages.js';
import { type EvmSource, findChain } from '../evm/chains.js';
import type { Interval } from './buckets.js';
import { type Bucket, bucketRange, decodeBucket } from './index.js';

/** Metrics the contract gives for days only. */
const DAY_ONLY = /^(cumulative|avg|max)|^(contracts|deployers|feesPaid)$/;

interface Point {
  timestamp: number;
  bucket: Bucket;
}

async function series(s: EvmSource, interval: Interval): Promise<Point[]> {
  await s.follower.settled();
  const entries = await s.follower.metrics.entries(bucketRange(interval));
  return entries.map(([k, v]) => ({ timestamp: Number(Buffer.from(k).readBigUInt64BE(2)), bucket: decodeBucket(v) }));
}

const num = (s: string) => Number(BigInt(s));

/** One chain's values of `metric`, oldest first, from its buckets (days for the day-only metrics). */
function values(metric: string, points: Point[], genesisMs: number): Array<{ timestamp: number; value: number }> {
  let txs = 0;
  let addresses = 0;
  let deployers = 0;
  let contractsBefore = 0;
  let previousLastMs = genesisMs;
  return points.map(({ timestamp, bucket: b }) => {
    txs += b.txCount;
    addresses += b.newAddresses;
    deployers += b.newDeployers;
    const elapsed = (b.lastBlockMs - previousLastMs) / 1000;
    let value: number;
    switch (metric) {
      case 'activeAddresses':
        value = b.activeAddresses;
        break;
      case 'activeSenders':
        value = b.activeSenders;
        break;
      case 'txCount':
        value = b.txCount;
        break;
      case 'gasUsed':
        value = num(b.gasUsed);
        break;
      case 'contracts':
        value = b.contracts;
        break;
      case 'deployers':
        value = b.deployers;
        break;
      // From genesis to 24 hours after the timestamp: through the end of this day.
      case 'cumulativeTxCount':
        value = txs;
        break;
      case 'cumulativeAddresses':
        value = addresses;
        break;
      case 'cumulativeDeployers':
        value = deployers;
        break;
      // From genesis to the timestamp: the days before this one.
      case 'cumulativeContracts':
        value = contractsBefore;
        break;
      // The day's sum over the time from the previous day's last block (the genesis, for the first) to this day's last.
      case 'avgTps':
        value = elapsed > 0 ? b.txCount / elapsed : 0;
        break;
      case 'avgGps':
        value = elapsed > 0 ? num(b.gasUsed) / elapsed : 0;
        break;
      case 'maxTps':
        value = b.maxTps;
        break;
      case 'maxGps':
        value = b.maxGps;
        break;
      case 'avgGasPrice':
        value = b.txCount > 0 ? Number(BigInt(b.priceSum) / BigInt(b.txCount)) : 0;
        break;
      case 'maxGasPrice':
        value = num(b.priceMax);
        break;
      case 'feesPaid':
        value = num(b.fees);
        break;
      default:
        throw badRequest([`metric ${metric} is not a metric`]);
    }
    contractsBefore += b.contracts;
    previousLastMs = b.lastBlockMs;
    return { timestamp, value };
  });
}

/** Several chains' series, added up per timestamp (maxima: the largest). */
function combine(metric: string, all: Array<Array<{ timestamp: number; value: number }>>): Array<{ timestamp: number; value: number }> {
  const at = new Map<number, number>();
  for (const list of all) {
    for (const { timestamp, value } of list) {
      const prev = at.get(timestamp);
      at.set(timestamp, prev === undefined ? value : metric.startsWith('max') ? Math.max(prev, value) : prev + value);
    }
  }
  return [...at.entries()].sort(([a], [b]) => a - b).map(([timestamp, value]) => ({ timestamp, value }));
}

export function metricsHandlers(sources: () => EvmSource[], pages: () => Promise<PageTokens>): Record<string, DataHandler> {
  const chainsOf = (chainId: string): EvmSource[] => {
    if (chainId === 'mainnet') throw notFound('this node runs the local network, which the Metrics API presents as testnet; mainnet is not served');
    if (chainId === 'total' || chainId === 'testnet') return sources();
    return [findChain(sources(), chainId)];
  };
  const compute = async (chainId: string, metric: string, interval: Interval) => {
    const lists = [];
    for (const s of chainsOf(chainId)) {
      const genesisMs = Number(s.evm.genesis.header.timeMilliseconds ?? s.evm.genesis.header.time * 1000n);
      lists.push(values(metric, await series(s, interval), genesisMs));
    }
    return combine(metric, lists);
  };
  /** Newest first, from after the cursor, one page. */
  const paged = async (scope: string, token: unknown, size: number, all: Array<{ timestamp: number; value: number }>) => {
    const tokens = await pages();
    const below = typeof token === 'string' ? tokens.read<number>(scope, token) : Number.POSITIVE_INFINITY;
    const newest = all.filter((p) => p.timestamp < below).reverse();
    const results = newest.slice(0, size);
    const last = results.at(-1);
    return { ...(newest.length > size && last ? { nextPageToken: tokens.issue(scope, last.timestamp) } : {}), results };
  };

  return {
    getEvmChainMetrics: async ({ params }) => {
      const metric = String(params.metric);
      const interval = (params.timeInterval ?? 'day') as Interval;
      if (DAY_ONLY.test(metric) && interval !== 'day') throw badRequest([`timeInterval ${interval} is not supported for ${metric}: day only`]);
      const start = params.startTimestamp === undefined ? undefined : Number(params.startTimestamp);
      const end = params.endTimestamp === undefined ? undefined : Number(params.endTimestamp);
      if (start !== undefined && end !== undefined && start > end) throw badRequest('startTimestamp must not be after endTimestamp');
      const all = (await compute(String(params.chainId), metric, interval)).filter(
        (p) => (start === undefined || p.timestamp >= start) && (end === undefined || p.timestamp <= end),
      );
      const scope = `metrics:${params.chainId}:${metric}:${interval}:${start ?? ''}:${end ?? ''}`;
      return paged(scope, params.pageToken, Number(params.pageSize), all);
    },

    getAvgTps: async ({ params }) => {
      const chains = chainsOf(String(params.chainId));
      const all = await compute(String(params.chainId), 'avgTps', 'day');
      const lastRun = Math.max(0, ...chains.map((s) => Number(s.evm.head.header.time)));
      const page = await paged(`avgtps:${params.chainId}`, params.pageToken, 100, all);
      return { ...page, status: 200, lastRun };
    },
  };
}

// The Data API's usage analytics over the requests this node really served (the request journal:
// the last 1,000 of each route, 20,000 in all): getPrimaryNetworkRpcUsageMetrics over its RPC
// routes (/ext/..., the emulator's own controls aside) and getApiLogs over every request.
// There are no API credits on a local node (0), and no geolocation (country and continent `XX`).
import { type JournalRecord, Journal } from '../rpc/journal.js';
import { badRequest } from './errors.js';
import type { DataHandler } from './http.js';
import type { PageTokens } from './pages.js';
import { checkNetwork } from './primary/handlers.js';
import { monthStart, weekStart } from '../encoding/time.js';

type Rec = JournalRecord;

const DAY = 86_400;
const INTERVALS: Record<string, { seconds: number; label: string }> = {
  hourly: { seconds: 3600, label: '1 hour' },
  daily: { seconds: DAY, label: '1 day' },
  weekly: { seconds: 7 * DAY, label: '1 week' },
  monthly: { seconds: 30 * DAY, label: '1 month' },
};

const seconds = (r: Rec) => Number(r.time / 1_000_000_000n);
/** Rounded down to 0:00 UTC of its day, as the contract says of both bounds. */
const dayStart = (t: number) => t - (t % DAY);
const isRpc = (r: Rec) => r.route.startsWith('/ext/') && !r.route.startsWith('/ext/emulator');

/** The start of the bucket `t` falls in: hours and days from 0:00 UTC, weeks from Monday, months from the 1st. */
function bucket(t: number, interval: string): number {
  if (interval === 'hourly') return t - (t % 3600);
  if (interval === 'daily') return dayStart(t);
  if (interval === 'weekly') return weekStart(t);
  return monthStart(t);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return 0;
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** The chain a request addressed (/ext/bc/<chain>/...), as its path names it. */
const chainOf = (route: string) => /^\/ext\/bc\/([^/]+)/.exec(route)?.[1];

/** What the hosted API groups by, for one record (a JSON-RPC batch counts once per call for rpcMethod). */
function groupValues(r: Rec, by: string | undefined): Array<string | number> {
  switch (by) {
    case 'rpcMethod': {
      const methods = Journal.methods(r);
      return methods.length > 0 ? [...methods] : [''];
    }
    case 'requestPath':
      return [r.route];
    case 'responseCode':
      return [r.status];
    case 'country':
    case 'continent':
      return ['XX'];
    case 'userAgent':
      return [r.userAgent];
    default:
      return ['None'];
  }
}

export function usageHandlers(journal: Journal, pages: () => Promise<PageTokens>): Record<string, DataHandler> {
  return {
    getPrimaryNetworkRpcUsageMetrics: async ({ params }) => {
      checkNetwork(params.network);
      const interval = String(params.timeInterval ?? 'daily');
      const { seconds: span, label } = INTERVALS[interval]!;
      const start = params.startTimestamp === undefined ? undefined : dayStart(Number(params.startTimestamp));
      const end = params.endTimestamp === undefined ? undefined : dayStart(Number(params.endTimestamp));
      if (start !== undefined && end !== undefined && start > end) throw badRequest('startTimestamp must not be after endTimestamp');
      const by = params.groupBy as string | undefined;
      const method = params.rpcMethod as string | undefined;
      const records = journal.records().filter((r) => {
        const t = seconds(r);
        if (!isRpc(r)) return false;
        if (start !== undefined && t < start) return false;
        if (end !== undefined && t >= end + DAY) return false;
        if (params.responseCode !== undefined && String(r.status) !== params.responseCode) return false;
        if (params.requestPath !== undefined && r.route !== params.requestPath) return false;
        if (params.userAgent !== undefined && r.userAgent !== params.userAgent) return false;
        if ((params.country !== undefined && params.country !== 'XX') || (params.continent !== undefined && params.continent !== 'XX')) return false;
        if (method !== undefined && !Journal.methods(r).includes(method)) return false;
        return true;
      });
      const buckets = new Map<number, Map<string, { value: string | number; recs: Rec[] }>>();
      for (const r of records) {
        const b = bucket(seconds(r), interval);
        const groups = buckets.get(b) ?? new Map();
        buckets.set(b, groups);
        for (const v of groupValues(r, by)) {
          if (by === 'rpcMethod' && method !== undefined && v !== method) continue;
          const g = groups.get(String(v)) ?? { value: v, recs: [] };
          groups.set(String(v), g);
          g.recs.push(r);
        }
      }
      // The node's clock (the journal's times follow it, time travel included), not the wall clock.
      const all = journal.records();
      const now = all.length > 0 ? seconds(all[all.length - 1]!) : Date.now() / 1000;
      const metrics = [...buckets.entries()]
        .sort(([a], [b]) => b - a)
        .map(([timestamp, groups]) => ({
          timestamp,
          values: [...groups.values()].map(({ value, recs }) => {
            const ok = recs.filter((r) => r.status >= 200 && r.status < 300).length;
            // The current bucket has run only until now.
            const elapsed = Math.max(1, Math.min(span, now - timestamp));
            return {
              totalRequests: recs.length,
              apiCreditsUsed: 0,
              requestsPerSecond: recs.length / elapsed,
              successRatePercent: (100 * ok) / recs.length,
              medianResponseTimeMsecs: median(recs.map((r) => r.durationMs)),
              invalidRequests: recs.filter((r) => r.status >= 400 && r.status < 500).length,
              apiCreditsWasted: 0,
              groupedBy: by ?? 'None',
              ...(by ? { groupValue: value } : {}),
            };
          }),
        }));
      return { aggregateDuration: label, metrics, network: 'testnet' };
    },

    getApiLogs: async ({ params }) => {
      const orgId = String(params.orgId ?? 'local');
      const start = params.startTimestamp === undefined ? undefined : dayStart(Number(params.startTimestamp));
      const end = params.endTimestamp === undefined ? undefined : dayStart(Number(params.endTimestamp));
      const size = Number(params.pageSize);
      const scope = `logs:${JSON.stringify([orgId, start, end, params.chainId, params.responseCode, params.requestType, params.apiKeyId, params.requestPath])}`;
      const tokens = await pages();
      const below = typeof params.pageToken === 'string' ? tokens.read<number>(scope, params.pageToken) : Number.POSITIVE_INFINITY;
      const matching = journal
        .records()
        .filter((r) => {
          const t = seconds(r);
          const type = isRpc(r) ? 'rpc' : 'data';
          if (r.seq >= below) return false;
          if (start !== undefined && t < start) return false;
          if (end !== undefined && t >= end + DAY) return false;
          if (params.chainId !== undefined && chainOf(r.route) !== params.chainId) return false;
          if (params.responseCode !== undefined && String(r.status) !== params.responseCode) return false;
          if (params.requestType !== undefined && type !== params.requestType) return false;
          if (params.apiKeyId !== undefined && params.apiKeyId !== '') return false;
          if (params.requestPath !== undefined && r.route !== params.requestPath) return false;
          return true;
        })
        .reverse();
      const logs = matching.slice(0, size).map((r) => {
        const chain = chainOf(r.route);
        const method = Journal.methods(r)[0];
        return {
          orgId,
          logId: String(r.seq),
          eventTimestamp: seconds(r),
          apiKeyId: '',
          apiKeyAlias: '',
          hostRegion: 'local',
          requestType: isRpc(r) ? 'rpc' : 'data',
          requestPath: r.route,
          apiCreditsConsumed: 0,
          requestDurationMsecs: r.durationMs,
          responseCode: r.status,
          ...(chain ? { chainId: chain } : {}),
          ...(method ? { rpcMethod: method } : {}),
          metadata: { ipAddress: r.ipAddress ?? '', host: r.host ?? '', userAgent: r.userAgent },
        };
      });
      const last = matching[size - 1];
      return { ...(matching.length > size && last ? { nextPageToken: tokens.issue(scope, last.seq) } : {}), orgId, logs };
    },
  };
}

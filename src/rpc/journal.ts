// The request journal (emulator controls): the last requests and replies of each route, as the node
// served them, so that a test can assert what its client sent. Bodies are kept up to a cap; the
// JSON-RPC calls in a body (method, params, id; each of a batch) are read when the journal is asked.
import { formatRFC3339Nano } from '../encoding/time.js';

/** Per route, the entries kept (oldest dropped first). */
export const JOURNAL_PER_ROUTE = 1000;
/** In all, the entries kept: paths with IDs or addresses in them (the Data API's) make routes without bound. */
export const JOURNAL_TOTAL = 20_000;
/** What of each body is kept. */
export const JOURNAL_BODY_BYTES = 64 * 1024;

/** Where a JSON-RPC endpoint leaves the body it read, for the journal (requests are read once). */
export const REQUEST_BODY = Symbol('request body');

export interface JournalRecord {
  time: bigint;
  route: string;
  httpMethod: string;
  status: number;
  durationMs: number;
  userAgent: string;
  /** The client's address and the Host it asked for (the Data API's request logs). */
  ipAddress?: string;
  host?: string;
  /** The bodies as they were (up to JOURNAL_BODY_BYTES each), decoded only when the journal is read. */
  request: Uint8Array;
  response: Uint8Array;
}

export interface JournalCall {
  method: string;
  params: unknown;
  id: unknown;
}

export interface JournalEntry {
  seq: number;
  time: string;
  route: string;
  httpMethod: string;
  status: number;
  durationMs: number;
  userAgent: string;
  calls: JournalCall[];
  request: string;
  response: string;
  truncated: boolean;
}

export interface JournalQuery {
  route?: string;
  method?: string;
  status?: number;
  /** Entries after this sequence number only. */
  after?: number;
  limit?: number;
}

function callsOf(body: string): JournalCall[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list
    .filter((c): c is Record<string, unknown> => typeof c === 'object' && c !== null && typeof (c as { method?: unknown }).method === 'string')
    .map((c) => ({ method: c.method as string, params: c.params ?? null, id: c.id ?? null }));
}

export class Journal {
  private readonly routes = new Map<string, Array<JournalRecord & { seq: number }>>();
  private seq = 0;
  /** Every record's route in arrival order (some already dropped by their route's cap): the total cap's queue. */
  private readonly order: Array<{ route: string; seq: number }> = [];

  record(r: JournalRecord): void {
    const list = this.routes.get(r.route) ?? [];
    this.routes.set(r.route, list);
    const seq = ++this.seq;
    list.push({ ...r, seq });
    this.order.push({ route: r.route, seq });
    if (list.length > JOURNAL_PER_ROUTE) list.shift();
    while (this.order.length > JOURNAL_TOTAL) {
      const oldest = this.order.shift()!;
      const l = this.routes.get(oldest.route);
      if (l?.[0]?.seq === oldest.seq) l.shift();
      if (l?.length === 0) this.routes.delete(oldest.route);
    }
  }

  /** Newest last, at most `limit` (default 100) of the newest that match. */
  query(q: JournalQuery): JournalEntry[] {
    const records = q.route !== undefined ? (this.routes.get(q.route) ?? []) : [...this.routes.values()].flat().sort((a, b) => a.seq - b.seq);
    const out: JournalEntry[] = [];
    for (const r of records) {
      if (q.after !== undefined && r.seq <= q.after) continue;
      if (q.status !== undefined && r.status !== q.status) continue;
      const request = Buffer.from(r.request).toString('utf8');
      const response = Buffer.from(r.response).toString('utf8');
      const calls = callsOf(request);
      if (q.method !== undefined && !calls.some((c) => c.method === q.method)) continue;
      out.push({
        seq: r.seq,
        time: formatRFC3339Nano(r.time),
        route: r.route,
        httpMethod: r.httpMethod,
        status: r.status,
        durationMs: r.durationMs,
        userAgent: r.userAgent,
        calls,
        request,
        response,
        truncated: r.request.length >= JOURNAL_BODY_BYTES || r.response.length >= JOURNAL_BODY_BYTES,
      });
    }
    return out.slice(-(q.limit ?? 100));
  }

  /** Every record kept, oldest first: what the Data API's usage metrics and request logs read. */
  records(): ReadonlyArray<JournalRecord & { seq: number }> {
    return [...this.routes.values()].flat().sort((a, b) => a.seq - b.seq);
  }

  /** The JSON-RPC calls a recorded request body holds. */
  static calls(r: JournalRecord): JournalCall[] {
    return callsOf(Buffer.from(r.request).toString('utf8'));
  }

  clear(route?: string): void {
    if (route === undefined) {
      this.routes.clear();
      this.order.length = 0;
    } else this.routes.delete(route);
  }
}

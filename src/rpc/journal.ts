// The request journal (emulator controls): the last requests and replies of each route, as the node
// served them, so that a test can assert what its client sent. Bodies are kept up to a cap; the
// JSON-RPC calls in a body (method, params, id; each of a batch) are read when the journal is asked.
import { formatRFC3339Nano } from '../encoding/time.js';

/** Per route, the entries kept (oldest dropped first). */
export const JOURNAL_PER_ROUTE = 1000;
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

  record(r: JournalRecord): void {
    const list = this.routes.get(r.route) ?? [];
    this.routes.set(r.route, list);
    list.push({ ...r, seq: ++this.seq });
    if (list.length > JOURNAL_PER_ROUTE) list.shift();
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

  clear(route?: string): void {
    if (route === undefined) this.routes.clear();
    else this.routes.delete(route);
  }
}

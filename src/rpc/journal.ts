// The request journal (emulator controls): the last requests and replies of each route, as the node
// served them, so that a test can assert what its client sent. Bodies are kept up to a cap; the
// JSON-RPC calls in a body (method, params, id; each of a batch) are read when the journal is asked.
//
// Recording runs on every request the node serves, so it does O(1) work and copies nothing it need
// not: the records sit in ring buffers (all of them in arrival order, and each route's), and a body
// is kept by reference when it fits the cap and owns its memory. A query walks the records newest
// first and stops at its limit or at its reply's size bound, reading only the bodies it examines.
import { formatRFC3339Nano } from '../encoding/time.js';

/** Per route, the entries kept (oldest dropped first). */
export const JOURNAL_PER_ROUTE = 1000;
/** In all, the entries kept: paths with IDs or addresses in them (the Data API's) make routes without bound. */
export const JOURNAL_TOTAL = 20_000;
/** What of each body is kept. */
export const JOURNAL_BODY_BYTES = 64 * 1024;
/**
 * What the kept bodies may hold in all: past it, the oldest records go (20,000 requests of 64 KiB
 * would be 2.5 GiB). Small bodies never reach it: 20,000 of 3 KiB fit.
 */
export const JOURNAL_BODY_BUDGET = 64 * 1024 * 1024;
/** The entries a query returns when it names no limit. */
export const JOURNAL_DEFAULT_LIMIT = 100;
/**
 * What the bodies of one query's entries may hold in all (the request counted twice: as text and as
 * its calls); past it, older entries are left out. At least one entry is always returned.
 */
export const JOURNAL_REPLY_BYTES = 4 * 1024 * 1024;

const EMPTY = new Uint8Array();

/** Where the server keeps the draft of a journaled request, on its response. */
export const JOURNAL_DRAFT = Symbol('journal draft');

/** Hands the body an endpoint read to the journal, when the request is journaled (requests are read once). */
export function noteRequestBody(res: object, body: Uint8Array): void {
  const draft = (res as { [JOURNAL_DRAFT]?: JournalDraft })[JOURNAL_DRAFT];
  if (draft !== undefined) draft.request = body;
}

/** Hands the body of a reply to the journal, when the request is journaled. */
export function noteResponseBody(res: object, body: string | Uint8Array | readonly Uint8Array[]): void {
  const draft = (res as { [JOURNAL_DRAFT]?: JournalDraft })[JOURNAL_DRAFT];
  if (draft !== undefined) draft.response = Array.isArray(body) ? firstBytes(body) : (body as string | Uint8Array);
}

/**
 * The head of a body written in pieces: what the journal keeps of it, and a byte more when there is
 * more (so that the record says it was cut). Copied, at most that: a piece may be megabytes.
 */
function firstBytes(pieces: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of pieces) total += p.length;
  const head = Buffer.allocUnsafe(Math.min(total, JOURNAL_BODY_BYTES + 1));
  let at = 0;
  for (let i = 0; i < pieces.length && at < head.length; i++) {
    const p = pieces[i]!;
    const n = Math.min(p.length, head.length - at);
    head.set(n === p.length ? p : p.subarray(0, n), at);
    at += n;
  }
  return head;
}

/** What the journal records of every request: the request line and how it was answered. */
interface RequestFacts {
  time: bigint;
  route: string;
  httpMethod: string;
  status: number;
  durationMs: number;
  userAgent: string;
}

/** A request as the server saw it, with its bodies whole: the journal keeps what it needs of them. */
export interface JournalInput extends RequestFacts {
  /** The client's address and the Host it asked for (the Data API's request logs). */
  ipAddress?: string;
  host?: string;
  request: Uint8Array | undefined;
  response: string | Uint8Array | undefined;
}

/** A kept record: the bodies up to JOURNAL_BODY_BYTES each, decoded only when the journal is read. */
export interface JournalRecord extends RequestFacts {
  seq: number;
  ipAddress: string;
  host: string;
  request: Uint8Array;
  response: string | Uint8Array;
  /** Whether either body was longer than the cap. */
  truncated: boolean;
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
  /** Entries before this sequence number only (to page back past a reply's bounds). */
  before?: number;
  limit?: number;
}

export interface JournalPage {
  /** Oldest first, the newest that match. */
  entries: JournalEntry[];
  /** Whether older entries that match were left out, by the limit or the reply's size bound. */
  more: boolean;
}

interface Kept extends JournalRecord {
  /** Dropped by its route's cap or a clear, while still in the arrival ring. */
  dropped: boolean;
  /** The calls' method names, read once when a filter or the Data API first asks. */
  methods: string[] | undefined;
  /** What its kept bodies hold, counted against JOURNAL_BODY_BUDGET while it is kept. */
  bytes: number;
}

/**
 * A request being served: opened when it arrives, filled in by the server as it answers (the
 * bodies as read and written, left undefined when there were none), then committed. It lives as
 * long as the request: the record the journal keeps is made at commit, from one object literal,
 * which V8 learns to allocate in the old generation (records outlive many scavenges; a record made
 * by a constructor was copied by two of them, a third of the journal's cost).
 */
export class JournalDraft {
  status = 0;
  userAgent = '';
  ipAddress = '';
  host = '';
  request: Uint8Array | undefined = undefined;
  response: string | Uint8Array | undefined = undefined;
  /** performance.now() when the request arrived. */
  readonly started = performance.now();

  constructor(
    readonly time: bigint,
    readonly route: string,
    readonly httpMethod: string,
  ) {}
}

/**
 * A ring buffer, oldest to newest, that grows up to its capacity (a route with a single request
 * holds a small array, not a thousand slots); pushing past the capacity drops the oldest.
 */
class Ring<T> {
  private items: Array<T | undefined>;
  private head = 0;
  size = 0;

  constructor(
    private readonly capacity: number,
    initial = 8,
  ) {
    this.items = new Array<T | undefined>(Math.min(initial, capacity));
  }

  /** Adds `item` as the newest; answers the oldest it dropped to make room, if any. */
  push(item: T): T | undefined {
    if (this.size === this.items.length && this.size < this.capacity) this.grow();
    if (this.size === this.capacity) {
      const oldest = this.items[this.head];
      this.items[this.head] = item;
      this.head = (this.head + 1) % this.capacity;
      return oldest;
    }
    this.items[(this.head + this.size) % this.items.length] = item;
    this.size++;
    return undefined;
  }

  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const oldest = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.items.length;
    this.size--;
    return oldest;
  }

  /** The i-th newest (0: the newest). */
  newest(i: number): T {
    return this.items[(this.head + this.size - 1 - i) % this.items.length]!;
  }

  private grow(): void {
    const items = new Array<T | undefined>(Math.min(this.capacity, this.items.length * 2));
    for (let i = 0; i < this.size; i++) items[i] = this.items[(this.head + i) % this.items.length];
    this.items = items;
    this.head = 0;
  }
}

/** A route's ring, which holds the route's path once for all its records. */
class RouteRing extends Ring<Kept> {
  constructor(readonly route: string) {
    super(JOURNAL_PER_ROUTE);
  }
}

/**
 * What the journal keeps of a body: the body itself when it fits the cap and is all of its memory
 * (a request read in one piece, a concatenated body); otherwise a copy of its first bytes, as a view
 * would keep the rest of its buffer alive (a 4 MiB body, or Buffer's shared 8 KiB pool).
 */
function keptBytes(body: Uint8Array): Uint8Array {
  const part = body.length > JOURNAL_BODY_BYTES ? body.subarray(0, JOURNAL_BODY_BYTES) : body;
  return part.byteOffset === 0 && part.byteLength === part.buffer.byteLength ? part : new Uint8Array(part);
}

/** A reply written as a string is kept as it is (strings are immutable); a longer one's head is copied. */
function keptResponse(body: string | Uint8Array | undefined): string | Uint8Array {
  if (body === undefined) return '';
  if (typeof body !== 'string') return keptBytes(body);
  return body.length <= JOURNAL_BODY_BYTES ? body : keptBytes(Buffer.from(body.slice(0, JOURNAL_BODY_BYTES)));
}

const textOf = (body: string | Uint8Array): string =>
  typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');

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

/** The calls' method names of a kept record, read once. */
function methodsOf(r: JournalRecord): string[] {
  const kept = r as Kept;
  kept.methods ??= callsOf(textOf(r.request)).map((c) => c.method);
  return kept.methods;
}

/** A method filter: the name, and its bytes to look for in a body before parsing it. */
interface MethodFilter {
  name: string;
  bytes: Buffer;
}

/**
 * Whether a request holds a call of the filter's method. A body without the name's bytes and
 * without a backslash (which might escape a letter of it) holds none, and is not parsed.
 */
function calls(r: JournalRecord, method: MethodFilter): boolean {
  const body = Buffer.from(r.request.buffer, r.request.byteOffset, r.request.byteLength);
  if (!body.includes(method.bytes) && !body.includes(0x5c)) return false;
  return methodsOf(r).includes(method.name);
}

function entryOf(r: JournalRecord): JournalEntry {
  const request = textOf(r.request);
  return {
    seq: r.seq,
    time: formatRFC3339Nano(r.time),
    route: r.route,
    httpMethod: r.httpMethod,
    status: r.status,
    durationMs: r.durationMs,
    userAgent: r.userAgent,
    calls: callsOf(request),
    request,
    response: textOf(r.response),
    truncated: r.truncated,
  };
}

/** What an entry adds to a reply, roughly: its request twice (as text and as its calls), its response once. */
const replyBytes = (r: JournalRecord) => 2 * r.request.byteLength + (typeof r.response === 'string' ? r.response.length : r.response.byteLength);

export class Journal {
  /** Every record among the last JOURNAL_TOTAL, in arrival order (some already dropped): the total cap. */
  private all = new Ring<Kept>(JOURNAL_TOTAL, 1024);
  private readonly routes = new Map<string, RouteRing>();
  /** The strings of the last record (see keep). */
  private lastHost = '';
  private lastUserAgent = '';
  private lastIpAddress = '';
  private seq = 0;
  /** The bytes of the kept records' bodies (JOURNAL_BODY_BUDGET). */
  private bodyBytes = 0;

  /**
   * Marks a record dropped (by its route's cap, the body budget or a clear) and lets its bodies go:
   * it may stay in the arrival ring until its turn to leave, and its bodies with it would be 20,000
   * of them, not the 1,000 a route keeps.
   */
  private drop(r: Kept): void {
    if (r.dropped) return;
    this.bodyBytes -= r.bytes;
    r.dropped = true;
    r.request = EMPTY;
    r.response = '';
    r.methods = undefined;
  }

  record(r: JournalInput): void {
    this.keep(r, r.durationMs, r.ipAddress ?? '', r.host ?? '', r.request, r.response);
  }

  /** A request that arrived now (`time` on the node's clock): the server fills in the draft as it answers, then commits it. */
  open(time: bigint, route: string, httpMethod: string): JournalDraft {
    return new JournalDraft(time, route, httpMethod);
  }

  /** Records an opened request, answered (or its connection gone) now. */
  commit(d: JournalDraft): void {
    this.keep(d, Math.round((performance.now() - d.started) * 1000) / 1000, d.ipAddress, d.host, d.request, d.response);
  }

  private keep(
    r: Omit<RequestFacts, 'durationMs'>,
    durationMs: number,
    ipAddress: string,
    host: string,
    body: Uint8Array | undefined,
    reply: string | Uint8Array | undefined,
  ): void {
    const request = body === undefined ? EMPTY : keptBytes(body);
    const response = keptResponse(reply);
    let route = this.routes.get(r.route);
    if (route === undefined) {
      route = new RouteRing(r.route);
      this.routes.set(r.route, route);
    }
    // Each request brings its own copies of these strings; the record keeps one shared by the
    // records before it, and the request's copies die young instead of living on in the journal.
    let userAgent = r.userAgent;
    if (userAgent === this.lastUserAgent) userAgent = this.lastUserAgent;
    else this.lastUserAgent = userAgent;
    if (ipAddress === this.lastIpAddress) ipAddress = this.lastIpAddress;
    else this.lastIpAddress = ipAddress;
    if (host === this.lastHost) host = this.lastHost;
    else this.lastHost = host;
    const kept: Kept = {
      seq: ++this.seq,
      time: r.time,
      route: route.route,
      httpMethod: r.httpMethod,
      status: r.status,
      durationMs,
      userAgent,
      ipAddress,
      host,
      request,
      response,
      truncated: (body?.length ?? 0) > JOURNAL_BODY_BYTES || (reply?.length ?? 0) > JOURNAL_BODY_BYTES,
      dropped: false,
      methods: undefined,
      bytes: request.byteLength + (typeof response === 'string' ? response.length : response.byteLength),
    };
    const pushedOut = route.push(kept);
    if (pushedOut) this.drop(pushedOut);
    this.bodyBytes += kept.bytes;
    const oldest = this.all.push(kept);
    if (oldest && !oldest.dropped) this.forget(oldest);
    // Past the body budget, the oldest records go (the newest always stays).
    while (this.bodyBytes > JOURNAL_BODY_BUDGET && this.all.size > 1) {
      const r = this.all.shift()!;
      if (!r.dropped) this.forget(r);
    }
  }

  /**
   * Takes a record that left the arrival ring out of its route, where it is the oldest: every older
   * record of the route left that ring before it, or was dropped by the route's cap.
   */
  private forget(r: Kept): void {
    this.drop(r);
    const route = this.routes.get(r.route);
    if (route?.newest(route.size - 1) !== r) return;
    route.shift();
    if (route.size === 0) this.routes.delete(r.route);
  }

  /** Newest last, at most `limit` (default JOURNAL_DEFAULT_LIMIT) of the newest that match, within JOURNAL_REPLY_BYTES. */
  query(q: JournalQuery): JournalPage {
    const limit = q.limit ?? JOURNAL_DEFAULT_LIMIT;
    const method = q.method === undefined ? undefined : { name: q.method, bytes: Buffer.from(q.method) };
    const picked: JournalRecord[] = [];
    let bytes = 0;
    let more = false;
    for (const r of this.newestFirst(q.route)) {
      if (q.after !== undefined && r.seq <= q.after) break;
      if (q.before !== undefined && r.seq >= q.before) continue;
      if (q.status !== undefined && r.status !== q.status) continue;
      if (method !== undefined && !calls(r, method)) continue;
      if (picked.length >= limit || (picked.length > 0 && bytes + replyBytes(r) > JOURNAL_REPLY_BYTES)) {
        more = true;
        break;
      }
      picked.push(r);
      bytes += replyBytes(r);
    }
    return { entries: picked.reverse().map(entryOf), more };
  }

  /** The kept records of a route, or of every route, newest first. */
  private *newestFirst(route: string | undefined): Generator<Kept> {
    const ring = route === undefined ? this.all : this.routes.get(route);
    if (ring === undefined) return;
    for (let i = 0; i < ring.size; i++) {
      const r = ring.newest(i);
      if (!r.dropped) yield r;
    }
  }

  /** Every record kept, oldest first: what the Data API's usage metrics and request logs read. */
  records(): ReadonlyArray<JournalRecord> {
    const out: JournalRecord[] = [];
    for (let i = this.all.size - 1; i >= 0; i--) {
      const r = this.all.newest(i);
      if (!r.dropped) out.push(r);
    }
    return out;
  }

  /** The method names of the JSON-RPC calls a recorded request body holds (read once per record). */
  static methods(r: JournalRecord): readonly string[] {
    return methodsOf(r);
  }

  clear(route?: string): void {
    if (route === undefined) {
      this.routes.clear();
      this.all = new Ring<Kept>(JOURNAL_TOTAL, 1024);
      this.bodyBytes = 0;
      return;
    }
    const ring = this.routes.get(route);
    if (ring === undefined) return;
    for (let i = 0; i < ring.size; i++) this.drop(ring.newest(i));
    this.routes.delete(route);
  }
}

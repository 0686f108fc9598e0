// The request journal's bounds: a query touches what it returns (the newest entry of thousands of
// large requests, a default page, a reply bounded in size that pages back with `before`), and the
// per-route and total caps hold once the journal's rings have wrapped, with every filter still
// right. All through HTTP against an in-process node.
import http from 'node:http';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestNode, type TestNode } from './helpers.js';

const JOURNAL_PER_ROUTE = 1000;
const JOURNAL_TOTAL = 20_000;
const JOURNAL_BODY_BYTES = 64 * 1024;

let node: TestNode;
let E: string;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
beforeAll(async () => {
  node = await startTestNode({ dbType: 'memdb' });
  E = `${node.uri}/ext/emulator`;
});
afterAll(async () => {
  agent.destroy();
  await node.stop();
});

interface Sent {
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
}

/** One request over the keep-alive agent; resolves to its status and body. */
function send(r: Sent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${node.uri}${r.path}`,
      { method: r.method ?? 'POST', agent, headers: { 'content-type': 'application/json', ...r.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.once('error', reject);
    req.end(r.body);
  });
}

/** Sends every request, 16 at a time, in order of start. */
async function sendAll(requests: Sent[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < requests.length) await send(requests[next++]!);
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/**
 * The MiB the process's ArrayBuffers hold after full collections. The node runs in this process, so
 * it is what the node keeps. Backing stores are freed by V8's sweeper after a collection, not within
 * it (one collection read at once varied by 20 MiB between runs): collect, let the loop turn, collect.
 */
async function held(): Promise<number> {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  await new Promise((r) => setTimeout(r, 20));
  gc();
  return process.memoryUsage().arrayBuffers / 2 ** 20;
}

const rpcBody = (id: number, method: string, params: unknown = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
/** A JSON-RPC call of info.getNetworkID whose body is `bytes` long, padded by a string param. */
const largeBody = (id: number, bytes: number) => {
  const head = rpcBody(id, 'info.getNetworkID', { pad: '' });
  return head.replace('"pad":""', `"pad":"${'x'.repeat(bytes - head.length)}"`);
};

/** The journal's newest sequence number: that of the last request before this query. */
async function newestSeq(): Promise<number> {
  const { entries } = await call(E, 'emulator.journal', { limit: 1 });
  return entries[0].seq;
}

/** The sequence number the next request will get (the query asking is journaled too). */
const nextSeq = async () => (await newestSeq()) + 2;

describe('a journal query costs what it returns', () => {
  it('limit 1 answers the newest entry of many large requests, with its fields', async () => {
    const n = 300;
    await sendAll(Array.from({ length: n }, (_, i) => ({ path: '/ext/info', body: largeBody(i, 59 * 1024), headers: { 'user-agent': `client-${i}` } })));
    const last = largeBody(n, 59 * 1024);
    await send({ path: '/ext/info', body: last, headers: { 'user-agent': 'the-last-one' } });
    const page = await call(E, 'emulator.journal', { route: '/ext/info', limit: 1 });
    expect(page.entries).toHaveLength(1);
    expect(page.more).toBe(true);
    const [entry] = page.entries;
    expect(entry).toMatchObject({
      route: '/ext/info',
      httpMethod: 'POST',
      status: 200,
      userAgent: 'the-last-one',
      request: last,
      truncated: false,
      calls: [{ method: 'info.getNetworkID', id: n }],
    });
    expect(entry.calls[0].params.pad).toHaveLength(59 * 1024 - rpcBody(n, 'info.getNetworkID', { pad: '' }).length);
    expect(JSON.parse(entry.response)).toEqual({ jsonrpc: '2.0', result: { networkID: '12345' }, id: n });
    expect(Date.parse(entry.time)).toBeGreaterThan(0);
    // The newest before the query that asked for it.
    expect(entry.seq).toBe((await newestSeq()) - 1);
  });

  it('keeps the head of a body longer than the cap, and says so', async () => {
    const body = largeBody(1, 100 * 1024);
    await send({ path: '/ext/info', body });
    const [entry] = (await call(E, 'emulator.journal', { route: '/ext/info', limit: 1 })).entries;
    expect(entry.truncated).toBe(true);
    expect(entry.request).toBe(body.slice(0, JOURNAL_BODY_BYTES));
    // The head of a body is not JSON: its calls cannot be read, but its reply is whole.
    expect(entry.calls).toEqual([]);
    expect(JSON.parse(entry.response).result).toEqual({ networkID: '12345' });
  });

  it('answers 100 entries by default, the newest, oldest first', async () => {
    const first = await nextSeq();
    await sendAll(Array.from({ length: 150 }, (_, i) => ({ path: '/ext/health', body: rpcBody(i, 'health.liveness') })));
    const page = await call(E, 'emulator.journal', { route: '/ext/health' });
    expect(page.entries).toHaveLength(100);
    expect(page.more).toBe(true);
    const seqs = page.entries.map((e: { seq: number }) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(seqs.at(-1)).toBe(first + 149);
    expect(seqs[0]).toBe(first + 50);
    const all = await call(E, 'emulator.journal', { route: '/ext/health', limit: 1000 });
    expect(all.entries).toHaveLength(150);
    expect(all.more).toBe(false);
  });

  it('bounds a reply in size; `before` pages back through the rest', async () => {
    const first = await nextSeq();
    const bodies = Array.from({ length: 120 }, (_, i) => largeBody(i, 59 * 1024));
    for (const body of bodies) await send({ path: '/ext/bc/X', body: body.replace('info.getNetworkID', 'avm.getHeight') });
    const pages: Array<{ seq: number; request: string }[]> = [];
    let before: number | undefined;
    for (;;) {
      const reply = await fetch(E, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: rpcBody(1, 'emulator.journal', { route: '/ext/bc/X', limit: 1000, after: first - 1, ...(before ? { before } : {}) }),
      });
      const text = await reply.text();
      // 4 MiB of bodies (each request counted twice, as text and as its calls), JSON-escaped.
      expect(text.length).toBeLessThan(6 * 1024 * 1024);
      const { result } = JSON.parse(text);
      pages.push(result.entries);
      if (!result.more) break;
      before = result.entries[0].seq;
    }
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]!.length).toBeLessThan(120);
    const seen = pages.reverse().flat();
    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: 120 }, (_, i) => first + i));
    expect(seen.map((e) => e.request)).toEqual(bodies.map((b) => b.replace('info.getNetworkID', 'avm.getHeight')));
  });
});

describe('the caps and filters once the rings have wrapped', () => {
  it('keeps the newest 1,000 of a route, and filters them by method, status and sequence', async () => {
    const first = await nextSeq();
    const n = JOURNAL_PER_ROUTE + 234;
    // Every third call is info.getNodeID; every seventh request has the wrong content type (415).
    const sent = Array.from({ length: n }, (_, i) => ({
      seq: first + i,
      method: i % 3 === 0 ? 'info.getNodeID' : 'info.getNetworkID',
      status: i % 7 === 0 ? 415 : 200,
    }));
    for (const [i, s] of sent.entries()) {
      await send({ path: '/ext/info', body: rpcBody(i, s.method), headers: s.status === 415 ? { 'content-type': 'text/plain' } : {} });
    }
    const kept = sent.slice(-JOURNAL_PER_ROUTE);
    const query = async (q: Record<string, unknown>) =>
      (await call(E, 'emulator.journal', { route: '/ext/info', limit: 5000, ...q })).entries.map((e: { seq: number }) => e.seq);
    expect(await query({})).toEqual(kept.map((s) => s.seq));
    // A refused request's body is never read: it holds no calls.
    const calls = (s: (typeof kept)[number], method: string) => s.status === 200 && s.method === method;
    expect(await query({ method: 'info.getNodeID' })).toEqual(kept.filter((s) => calls(s, 'info.getNodeID')).map((s) => s.seq));
    expect(await query({ status: 415 })).toEqual(kept.filter((s) => s.status === 415).map((s) => s.seq));
    const after = kept[600]!.seq;
    expect(await query({ after, status: 200, method: 'info.getNetworkID' })).toEqual(
      kept.filter((s) => s.seq > after && calls(s, 'info.getNetworkID')).map((s) => s.seq),
    );
    expect(await query({ limit: 3, method: 'info.getNodeID' })).toEqual(
      kept
        .filter((s) => calls(s, 'info.getNodeID'))
        .slice(-3)
        .map((s) => s.seq),
    );
    // A method name written with an escape is found too (its bytes are not in the body).
    await send({ path: '/ext/info', body: '{"jsonrpc":"2.0","id":9,"method":"info.getNetwork\\u0049D"}' });
    const escaped = await call(E, 'emulator.journal', { route: '/ext/info', method: 'info.getNetworkID', limit: 1 });
    expect(escaped.entries[0].calls).toEqual([{ method: 'info.getNetworkID', params: null, id: 9 }]);
  });

  it('lets go of the bodies of the records a route drops', async () => {
    const body = largeBody(1, 59 * 1024);
    // From an empty journal: what the earlier tests left (and the body budget would drop) is not measured.
    await call(E, 'emulator.clearJournal', {});
    const before = await held();
    await sendAll(Array.from({ length: 3 * JOURNAL_PER_ROUTE }, () => ({ path: '/ext/bc/P', body: body.replace('info.getNetworkID', 'platform.getHeight') })));
    // 1,000 bodies of 59 KiB are kept (58 MiB); all 3,000 would be 173 MiB (the 64 MiB body budget
    // bounds it too; the margin is for buffers of requests not collected yet).
    expect((await held()) - before).toBeLessThan(110);
    // The route's newest 1,000 are still there: paging back from the newest ends at the 1,000th.
    const newest = (await call(E, 'emulator.journal', { route: '/ext/bc/P', limit: 1 })).entries[0].seq;
    const oldest = await call(E, 'emulator.journal', { route: '/ext/bc/P', before: newest - (JOURNAL_PER_ROUTE - 2), limit: 5 });
    expect(oldest.entries.map((e: { seq: number }) => e.seq)).toEqual([newest - (JOURNAL_PER_ROUTE - 1)]);
    expect(oldest.more).toBe(false);
  });

  it('keeps at most 64 MiB of bodies in all: past it the oldest records go, the newest stay', async () => {
    await call(E, 'emulator.clearJournal', {});
    const before = await held();
    const first = await nextSeq();
    const body = largeBody(1, 60 * 1024);
    // 2,000 bodies of 60 KiB over four routes, each under its cap: 117 MiB without a budget.
    await sendAll(Array.from({ length: 2000 }, (_, i) => ({ path: `/ext/bc/${['X', 'P', 'C/avax', 'X/wallet'][i % 4]}`, body })));
    expect((await held()) - before).toBeLessThan(80);
    const newest = await newestSeq();
    expect(newest).toBeGreaterThanOrEqual(first + 1999);
    // The first of them are gone, the last are kept.
    expect((await call(E, 'emulator.journal', { route: '/ext/bc/X', before: first + 40 })).entries).toEqual([]);
    expect((await call(E, 'emulator.journal', { route: '/ext/bc/X', limit: 1 })).entries).toHaveLength(1);
  });

  it(`keeps ${JOURNAL_TOTAL.toLocaleString('en-US')} requests in all, the newest, whatever their routes`, { timeout: 180_000 }, async () => {
    const first = await nextSeq();
    const routes = 25;
    const each = 850; // below the route cap: only the total cap drops these
    const requests = Array.from({ length: routes * each }, (_, i) => ({ path: `/journal-test/${i % routes}`, method: 'GET' as const }));
    await sendAll(requests);
    const last = first + requests.length - 1;
    const page = await call(E, 'emulator.journal', { limit: JOURNAL_TOTAL + 1000 });
    expect(page.more).toBe(false);
    expect(page.entries).toHaveLength(JOURNAL_TOTAL);
    expect(page.entries[0].seq).toBe(last - JOURNAL_TOTAL + 1);
    expect(page.entries.at(-1).seq).toBe(last);
    expect(page.entries.every((e: { status: number; route: string }) => e.status === 404 && e.route.startsWith('/journal-test/'))).toBe(true);
    // The earlier tests' routes left with their oldest records.
    for (const route of ['/ext/info', '/ext/health', '/ext/bc/X']) expect((await call(E, 'emulator.journal', { route })).entries).toEqual([]);
    // A route filled past its cap within the total: its newest 1,000, and the total still holds.
    const busy = Array.from({ length: JOURNAL_PER_ROUTE + 100 }, () => ({ path: '/journal-test/busy', method: 'GET' as const }));
    await sendAll(busy);
    const busyPage = await call(E, 'emulator.journal', { route: '/journal-test/busy', limit: 5000 });
    expect(busyPage.entries).toHaveLength(JOURNAL_PER_ROUTE);
    expect(busyPage.entries.at(-1).seq - busyPage.entries[0].seq).toBe(JOURNAL_PER_ROUTE - 1);
    const everything = await call(E, 'emulator.journal', { limit: JOURNAL_TOTAL + 1000 });
    // The last 20,000 arrivals, less the busy route's 100 dropped by its cap; each route within its cap.
    expect(everything.entries).toHaveLength(JOURNAL_TOTAL - 100);
    const perRoute = new Map<string, number>();
    for (const e of everything.entries as { route: string }[]) perRoute.set(e.route, (perRoute.get(e.route) ?? 0) + 1);
    expect(Math.max(...perRoute.values())).toBeLessThanOrEqual(JOURNAL_PER_ROUTE);
    // Clearing one route leaves the others.
    await call(E, 'emulator.clearJournal', { route: '/journal-test/busy' });
    expect((await call(E, 'emulator.journal', { route: '/journal-test/busy' })).entries).toEqual([]);
    expect((await call(E, 'emulator.journal', { route: '/journal-test/3', limit: 1 })).entries).toHaveLength(1);
  });
});

// The fork's upstream client against local node:http servers that batch, refuse batches, throttle,
// fail, hang and echo credentials: what a public RPC does to a fork, without the network.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/storage/db.js';
import { LogAnswers } from '../src/vms/evm/fork/logcache.js';
import { tempDir } from './helpers.js';
import { Upstream, UpstreamError, type UpstreamOptions } from '../src/vms/evm/fork/upstream.js';
import { passing } from '../src/vms/evm/fork/upstreamhttp.js';
import { backoffMs, isRateLimited, parseRetryAfter } from '../src/vms/evm/fork/upstreamretry.js';

interface Seen {
  body: any;
  headers: http.IncomingHttpHeaders;
  path: string;
  at: number;
}
type Handler = (body: any, res: http.ServerResponse, n: number) => void | Promise<void>;
interface TestServer {
  url: string;
  seen: Seen[];
  maxActive: number;
  close(): Promise<void>;
}

const servers: TestServer[] = [];
const clients: Upstream[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server that records each request (body, headers, time) and how many it handled at once. */
async function serve(handler: Handler): Promise<TestServer> {
  let active = 0;
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => {
      text += c.toString();
    });
    req.on('end', () => {
      active++;
      srv.maxActive = Math.max(srv.maxActive, active);
      res.on('close', () => active--);
      const body = JSON.parse(text);
      srv.seen.push({ body, headers: req.headers, path: req.url!, at: performance.now() });
      void handler(body, res, srv.seen.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const srv: TestServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen: [],
    maxActive: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(srv);
  return srv;
}

const send = (res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof value === 'string' ? value : JSON.stringify(value));
};
const echoOne = (req: any) => ({ jsonrpc: '2.0', id: req.id, result: `${req.method}:${JSON.stringify(req.params)}` });
const echo = (body: any): any => (Array.isArray(body) ? body.map(echoOne) : echoOne(body));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function client(url: string, opts: Partial<UpstreamOptions> = {}): Upstream {
  const c = new Upstream({ url, retryBackoffMs: 10, timeoutMs: 2_000, computeUnitsPerSecond: 0, ...opts });
  clients.push(c);
  return c;
}

/** The UpstreamError a call rejects with. */
async function failure(p: Promise<unknown>): Promise<UpstreamError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  return err as UpstreamError;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

describe('batching', () => {
  it('sends calls made together as one batch and matches replies by id, in any order', async () => {
    const srv = await serve((body, res) => send(res, 200, echo(body).reverse()));
    const up = client(srv.url);
    const results = await Promise.all([0, 1, 2, 3, 4].map((i) => up.call('eth_getBalance', [`0x${i}`, 'latest'])));
    expect(results).toEqual([0, 1, 2, 3, 4].map((i) => `eth_getBalance:["0x${i}","latest"]`));
    expect(srv.seen).toHaveLength(1);
    expect(srv.seen[0]!.body).toHaveLength(5);
    expect(up.stats).toEqual({ httpRequests: 1, calls: 5, retries: 0, batches: 1 });
  });

  it('sends a lone call as a single request, not a batch of one', async () => {
    const srv = await serve((body, res) => send(res, 200, echo(body)));
    const up = client(srv.url);
    expect(await up.call('eth_chainId', [])).toBe('eth_chainId:[]');
    expect(Array.isArray(srv.seen[0]!.body)).toBe(false);
    expect(up.stats.batches).toBe(0);
  });

  it('splits more than maxBatch calls into several batches', async () => {
    const srv = await serve((body, res) => send(res, 200, echo(body)));
    const up = client(srv.url, { maxBatch: 4 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => up.call('eth_getCode', [i])));
    expect(srv.seen.map((s) => (Array.isArray(s.body) ? s.body.length : 1))).toEqual([4, 4, 2]);
  });

  it('rejects only the call whose batch element is an error', async () => {
    const srv = await serve((body, res) => {
      const replies = echo(body);
      replies[1] = { jsonrpc: '2.0', id: body[1].id, error: { code: -32000, message: 'missing trie node 0xabc', data: '0x01' } };
      send(res, 200, replies);
    });
    const up = client(srv.url);
    const [a, b, c] = [up.call('eth_getBalance', [1]), up.call('eth_getProof', [2]), up.call('eth_getBalance', [3])];
    expect(await a).toBe('eth_getBalance:[1]');
    expect(await c).toBe('eth_getBalance:[3]');
    const err = await failure(b);
    expect(err.kind).toBe('rpc');
    expect(err.code).toBe(-32000);
    expect(err.data).toBe('0x01');
    expect(err.message).toBe(`fork upstream ${srv.url}: eth_getProof failed: missing trie node 0xabc`);
    expect(srv.seen).toHaveLength(1);
  });

  it('falls back to single requests for good when a batch gets HTTP 400, and loses no call', async () => {
    const srv = await serve((body, res) => (Array.isArray(body) ? send(res, 400, 'batch requests are not allowed') : send(res, 200, echo(body))));
    const up = client(srv.url);
    const results = await Promise.all([1, 2, 3, 4].map((i) => up.call('eth_getStorageAt', [i])));
    expect(results).toEqual([1, 2, 3, 4].map((i) => `eth_getStorageAt:[${i}]`));
    expect(up.batchSize).toBe(1);
    await Promise.all([up.call('a', []), up.call('b', [])]);
    expect(srv.seen.filter((s) => Array.isArray(s.body))).toHaveLength(1);
    expect(srv.seen).toHaveLength(7);
    expect(up.stats.retries).toBe(0);
  });

  it('falls back when a batch is answered with one JSON-RPC error object', async () => {
    const refusal = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not supported' } };
    const srv = await serve((body, res) => send(res, 200, Array.isArray(body) ? refusal : echo(body)));
    const up = client(srv.url);
    expect(await Promise.all([up.call('x', [1]), up.call('y', [2]), up.call('z', [3])])).toEqual(['x:[1]', 'y:[2]', 'z:[3]']);
    expect(up.batchSize).toBe(1);
    expect(srv.seen).toHaveLength(4);
  });

  it("halves the batch on coreth's `batch too large` until it fits", async () => {
    const srv = await serve((body, res) => {
      if (Array.isArray(body) && body.length > 4)
        return send(res, 200, [{ jsonrpc: '2.0', id: body[0].id, error: { code: -32600, message: 'batch too large' } }]);
      send(res, 200, echo(body));
    });
    const up = client(srv.url);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => up.call('eth_getBalance', [i])));
    expect(results).toEqual(Array.from({ length: 10 }, (_, i) => `eth_getBalance:[${i}]`));
    expect(up.batchSize).toBe(2);
    expect(up.stats.retries).toBe(0);
  });

  it('sends alone, at no retry cost, a call coreth cut off with `response too large`', async () => {
    const srv = await serve((body, res) => {
      if (!Array.isArray(body)) return send(res, 200, echo(body));
      send(res, 200, [
        echoOne(body[0]),
        ...body.slice(1).map((r: any) => ({ jsonrpc: '2.0', id: r.id, error: { code: -32003, message: 'response too large' } })),
      ]);
    });
    const up = client(srv.url, { retries: 0 });
    expect(await Promise.all([up.call('a', []), up.call('b', []), up.call('c', [])])).toEqual(['a:[]', 'b:[]', 'c:[]']);
    expect(srv.seen.map((s) => (Array.isArray(s.body) ? s.body.length : 1))).toEqual([3, 1, 1]);
    expect(up.batchSize).toBe(50);
  });

  it('retries a call the batch reply left out', async () => {
    const srv = await serve((body, res, n) => send(res, 200, n === 0 ? echo(body).slice(0, 2) : echo(body)));
    const up = client(srv.url);
    expect(await Promise.all([up.call('a', []), up.call('b', []), up.call('c', [])])).toEqual(['a:[]', 'b:[]', 'c:[]']);
    expect(up.stats.retries).toBe(1);
  });
});

describe('concurrency and queue', () => {
  it('never has more than maxConcurrent requests in flight', async () => {
    const srv = await serve(async (body, res) => {
      await sleep(30);
      send(res, 200, echo(body));
    });
    const up = client(srv.url, { maxConcurrent: 3, maxBatch: 1 });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => up.call('eth_getCode', [i])));
    expect(results).toHaveLength(12);
    expect(srv.seen).toHaveLength(12);
    expect(srv.maxActive).toBe(3);
  });

  it('rejects a call past maxQueue waiting calls, and answers the others', async () => {
    const srv = await serve((body, res) => send(res, 200, echo(body)));
    const up = client(srv.url, { maxQueue: 3 });
    const calls = [1, 2, 3, 4].map((i) => up.call('eth_getBalance', [i]));
    const err = await failure(calls[3]!);
    expect(err.kind).toBe('unreachable');
    expect(err.message).toBe(`fork upstream ${srv.url}: eth_getBalance failed: 3 calls are already waiting; the upstream cannot keep up`);
    expect(await Promise.all(calls.slice(0, 3))).toHaveLength(3);
  });
});

describe('retries', () => {
  it('retries HTTP 429 with a doubling backoff, then answers', async () => {
    const srv = await serve((body, res, n) => (n < 2 ? send(res, 429, 'Too Many Requests') : send(res, 200, echo(body))));
    const up = client(srv.url, { retryBackoffMs: 20 });
    expect(await up.call('eth_blockNumber', [])).toBe('eth_blockNumber:[]');
    expect(up.stats).toMatchObject({ httpRequests: 3, retries: 2 });
    const [t0, t1, t2] = srv.seen.map((s) => s.at);
    expect(t1! - t0!).toBeGreaterThanOrEqual(18);
    expect(t2! - t1!).toBeGreaterThanOrEqual(38);
  });

  it('retries 500, 502 and 503', async () => {
    const statuses = [500, 502, 503];
    const srv = await serve((body, res, n) => (n < 3 ? send(res, statuses[n]!, '<html>bad gateway</html>') : send(res, 200, echo(body))));
    const up = client(srv.url);
    expect(await up.call('eth_getBalance', ['0x1', '0x10'])).toBe('eth_getBalance:["0x1","0x10"]');
    expect(srv.seen).toHaveLength(4);
  });

  it('waits as long as Retry-After asks', async () => {
    const srv = await serve((body, res, n) => (n === 0 ? send(res, 429, '', { 'retry-after': '1' }) : send(res, 200, echo(body))));
    const up = client(srv.url);
    await up.call('eth_chainId', []);
    expect(srv.seen[1]!.at - srv.seen[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it('caps what Retry-After asks at maxBackoffMs', async () => {
    const srv = await serve((body, res, n) => (n === 0 ? send(res, 503, '', { 'retry-after': '3600' }) : send(res, 200, echo(body))));
    const up = client(srv.url, { maxBackoffMs: 50 });
    await up.call('eth_chainId', []);
    const gap = srv.seen[1]!.at - srv.seen[0]!.at;
    expect(gap).toBeGreaterThanOrEqual(45);
    expect(gap).toBeLessThan(1_000);
  });

  it('holds back other calls while one waits out a rate limit', async () => {
    const srv = await serve((body, res, n) => (n === 0 ? send(res, 429, '', { 'retry-after': '0.2' }) : send(res, 200, echo(body))));
    const up = client(srv.url);
    const first = up.call('a', []);
    await sleep(50);
    await Promise.all([first, up.call('b', [])]);
    expect(srv.seen.slice(1).every((s) => s.at - srv.seen[0]!.at >= 190)).toBe(true);
  });

  it('retries a JSON-RPC rate-limit error, waiting what it names', async () => {
    const limited = (id: number) => ({ jsonrpc: '2.0', id, error: { code: -32005, message: 'rate limit exceeded, try again in 60ms' } });
    const srv = await serve((body, res, n) => send(res, 200, n === 0 ? limited(body.id) : echo(body)));
    const up = client(srv.url);
    expect(await up.call('eth_call', [{}])).toBe('eth_call:[{}]');
    expect(srv.seen[1]!.at - srv.seen[0]!.at).toBeGreaterThanOrEqual(55);
  });

  it("gives up after `retries` retries with a one-line 'http' error", async () => {
    const srv = await serve((_body, res) => send(res, 429, '<html>\n<body>Too many\nrequests</body>\n</html>'));
    const up = client(srv.url, { retries: 2 });
    const err = await failure(up.call('eth_getBalance', ['0x1']));
    expect(err.kind).toBe('http');
    expect(err.code).toBe(429);
    expect(err.message).toBe(
      `fork upstream ${srv.url}: eth_getBalance failed: HTTP 429 Too Many Requests: <html> <body>Too many requests</body> </html> (gave up after 2 retries)`,
    );
    expect(srv.seen).toHaveLength(3);
  });

  it('does not retry `header not found`: one request, the upstream code and message', async () => {
    const srv = await serve((body, res) => send(res, 200, { jsonrpc: '2.0', id: body.id, error: { code: -32000, message: 'header not found' } }));
    const up = client(srv.url);
    const err = await failure(up.call('eth_getProof', ['0x1', [], '0x5']));
    expect(err.kind).toBe('rpc');
    expect(err.code).toBe(-32000);
    expect(err.message).toBe(`fork upstream ${srv.url}: eth_getProof failed: header not found`);
    expect(srv.seen).toHaveLength(1);
    expect(up.stats.retries).toBe(0);
  });

  it('does not retry an HTTP status that will not change (401)', async () => {
    const srv = await serve((_body, res) => send(res, 401, 'unauthorized'));
    const up = client(srv.url);
    const err = await failure(up.call('eth_chainId', []));
    expect(err.kind).toBe('http');
    expect(err.message).toBe(`fork upstream ${srv.url}: eth_chainId failed: HTTP 401 Unauthorized: unauthorized`);
    expect(srv.seen).toHaveLength(1);
  });

  it('rejects alone a call whose params do not serialise, and sends its batch-mates', async () => {
    const srv = await serve((body, res) => send(res, 200, echo(body)));
    const up = client(srv.url);
    const [bad, good] = [up.call('eth_getBalance', [1n]), up.call('eth_getBalance', [1])];
    await expect(bad).rejects.toThrow(TypeError);
    expect(await good).toBe('eth_getBalance:[1]');
  });

  it("fails with 'invalid', unretried, on a reply that is not JSON-RPC", async () => {
    const srv = await serve((_body, res) => send(res, 200, '<html>captive portal</html>'));
    const up = client(srv.url);
    const err = await failure(up.call('eth_chainId', []));
    expect(err.kind).toBe('invalid');
    expect(err.message).toBe(`fork upstream ${srv.url}: eth_chainId failed: the reply is not JSON-RPC: <html>captive portal</html>`);
    expect(srv.seen).toHaveLength(1);
  });

  it("times out a request after timeoutMs, retries it, then fails with 'timeout'", async () => {
    const srv = await serve(() => {}); // never answers
    const up = client(srv.url, { timeoutMs: 200, retries: 1 });
    const start = performance.now();
    const err = await failure(up.call('eth_getCode', ['0x1']));
    expect(performance.now() - start).toBeGreaterThanOrEqual(400);
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe(`fork upstream ${srv.url}: eth_getCode failed: no reply within 200 ms (gave up after 1 retry)`);
    expect(srv.seen).toHaveLength(2);
  });

  it("fails with 'unreachable' on a closed port at once, as Anvil's fork does (nothing listens there)", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const up = client(url, { retries: 2 });
    const started = Date.now();
    const err = await failure(up.call('eth_chainId', []));
    expect(err.kind).toBe('unreachable');
    expect(err.message).toMatch(new RegExp(`^fork upstream ${url}: eth_chainId failed: connect ECONNREFUSED [^(]*$`));
    expect(up.stats).toMatchObject({ httpRequests: 1, retries: 0 });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('compute units per second', () => {
  it('paces calls at computeUnitsPerSecond / 20 a second after a one-second burst', async () => {
    const srv = await serve((body, res) => send(res, 200, echo(body)));
    const up = client(srv.url, { computeUnitsPerSecond: 200 }); // 10 calls a second
    const start = performance.now();
    await Promise.all(Array.from({ length: 15 }, (_, i) => up.call('eth_getBalance', [i])));
    const elapsed = performance.now() - start;
    expect(elapsed).toBeGreaterThanOrEqual(480);
    expect(elapsed).toBeLessThan(1_500);
    expect(srv.seen[0]!.body).toHaveLength(10);
  });

  it('does not pace with 0 (no limit)', async () => {
    const srv = await serve((body, res) => send(res, 200, echo(body)));
    const up = client(srv.url, { computeUnitsPerSecond: 0 });
    const start = performance.now();
    await Promise.all(Array.from({ length: 40 }, (_, i) => up.call('eth_getBalance', [i])));
    expect(performance.now() - start).toBeLessThan(300);
    expect(srv.seen).toHaveLength(1);
  });
});

describe('close', () => {
  it('rejects waiting calls and calls made after it', async () => {
    const srv = await serve(() => {});
    const up = client(srv.url);
    const calls = [up.call('eth_getBalance', ['0x1']), up.call('eth_getCode', ['0x1'])];
    while (srv.seen.length === 0) await sleep(5);
    up.close();
    for (const call of calls) {
      const err = await failure(call);
      expect(err.kind).toBe('unreachable');
      expect(err.message).toMatch(/failed: the client was closed before the upstream answered$/);
    }
    expect((await failure(up.call('eth_chainId', []))).message).toBe(`fork upstream ${srv.url}: eth_chainId failed: the client is closed`);
  });
});

describe('credentials', () => {
  const SECRETS = ['apiuser', 's3cretpass', 'KEY1234567890', 'QUERYSECRET99'];
  const withSecrets = (origin: string) => `${origin.replace('//', '//apiuser:s3cretpass@')}/ext/bc/C/rpc/KEY1234567890?apikey=QUERYSECRET99`;
  const leaks = (err: UpstreamError) => SECRETS.filter((s) => err.message.includes(s) || JSON.stringify(err.data ?? '').includes(s));

  it('sends them, and no error message or data shows them', async () => {
    const srv = await serve((body, res, n) => {
      const said = `bad key for apiuser at ${withSecrets('http://host')}`;
      if (n === 0) return send(res, 401, said);
      send(res, 200, { jsonrpc: '2.0', id: body.id, error: { code: -32000, message: said } });
    });
    const up = client(withSecrets(srv.url), { retries: 0 });
    const errors = [await failure(up.call('eth_chainId', [])), await failure(up.call('eth_chainId', []))];
    expect(srv.seen[0]!.path).toBe('/ext/bc/C/rpc/KEY1234567890?apikey=QUERYSECRET99');
    expect(srv.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('apiuser:s3cretpass').toString('base64')}`);
    const down = client(withSecrets(`http://127.0.0.1:${await closedPort()}`), { retries: 0 });
    errors.push(await failure(down.call('eth_chainId', [])));
    expect(errors.map((e) => e.kind)).toEqual(['http', 'rpc', 'unreachable']);
    for (const err of errors) expect(leaks(err)).toEqual([]);
    expect(errors[0]!.message).toMatch(new RegExp(`^fork upstream ${srv.url}: eth_chainId failed: HTTP 401`));
  });

  it('refuses ws:// and names no credentials when refusing a URL', () => {
    expect(() => new Upstream({ url: 'wss://apiuser:s3cretpass@example.com/KEY1234567890' })).toThrow(
      "fork upstream: WebSocket upstreams are not supported; give the endpoint's http:// or https:// URL",
    );
    expect(() => new Upstream({ url: 'not a url s3cretpass' })).toThrow(/^fork upstream: the URL does not parse/);
    expect(() => new Upstream({ url: 'http://127.0.0.1:1', maxConcurrent: 0 })).toThrow(RangeError);
  });
});

describe('retry policy', () => {
  it('reads Retry-After as seconds or a date, and doubles backoff up to the cap', () => {
    expect(parseRetryAfter('2')).toBe(2_000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 100, 500))).toEqual([100, 200, 400, 500]);
    expect(backoffMs(1, 100, 500, 250)).toBe(250);
  });

  it('retries connection errors that may pass, not a missing host, a refused connection or a bad certificate', () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(['ECONNRESET', 'EAI_AGAIN', 'ETIMEDOUT'].map((c) => passing(err(c)))).toEqual([true, true, true]);
    expect(
      ['ENOTFOUND', 'ECONNREFUSED', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID'].map((c) => passing(err(c))),
    ).toEqual([false, false, false, false, false]);
  });

  it("knows providers' rate-limit errors, and `header not found` is not one", () => {
    expect(isRateLimited({ code: -32007, message: '100/second request limit reached - reduce calls per second' })).toBe(true);
    expect(isRateLimited({ code: 429, message: 'Too Many Requests' })).toBe(true);
    expect(isRateLimited({ code: -32000, message: 'header not found' })).toBe(false);
    expect(isRateLimited({ code: -32000, message: 'missing trie node 0xabc' })).toBe(false);
  });
});

describe("the fork cache's eth_getLogs answers", () => {
  it('keeps at most 256 answers of at most 512 KiB, dropping the oldest, across a reopen of the store', async () => {
    const dir = tempDir('log-answers-');
    let db = await openDatabase('leveldb', dir);
    const answers = new LogAnswers(db.prefix('cache'));
    for (let i = 0; i < 257; i++) await answers.keep(`filter ${i}`, `[${i}]`);
    expect(await answers.get('filter 0')).toBeUndefined();
    expect(await answers.get('filter 1')).toBe('[1]');
    expect(await answers.get('filter 256')).toBe('[256]');
    // Too big to keep: answered (by the caller), not kept.
    await answers.keep('big', `"${'x'.repeat(512 * 1024)}"`);
    expect(await answers.get('big')).toBeUndefined();
    await db.close();
    // Reopened, the order goes on from the store's: the next answer pushes out the oldest kept.
    db = await openDatabase('leveldb', dir);
    const again = new LogAnswers(db.prefix('cache'));
    expect(await again.get('filter 256')).toBe('[256]');
    await again.keep('filter 257', '[257]');
    expect(await again.get('filter 1')).toBeUndefined();
    expect(await again.get('filter 2')).toBe('[2]');
    expect(await again.get('filter 257')).toBe('[257]');
    await db.close();
  });
});

// The router beyond avalanchego's exact paths: websocket upgrades on any route (JSON-RPC over a
// socket, with a call context that outlives one request and pushes notifications) and prefix mounts
// with path parameters for the REST APIs, all behind the node's own host filter.
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { method, type ServiceDef } from '../src/rpc/method.js';
import { subscribe } from '../src/rpc/subscriptions.js';
import { int, raw, string } from '../src/rpc/schema.js';
import { createApp, createHttpServer } from '../src/server/app.js';
import { gethDialect, positional } from '../src/rpc/geth.js';
import { jsonRpcSocket } from '../src/rpc/socket.js';
import { Router, RouteError } from '../src/server/router.js';
import { acceptWebsockets, type Websockets } from '../src/server/websocket.js';

let server: http.Server;
let sockets: Websockets;
let base: string;
const closed: string[] = [];

/**
 * Subscriptions in miniature: `ticks` pushes its three numbers after the reply, then records its end
 * (under the tag it was given); `flood` pushes `n` results of 500 bytes at once, as it starts.
 * `wait` answers after `ms`: a batch's slow call.
 */
const testService: ServiceDef = {
  name: 'test',
  methods: {
    echo: method(positional([string]), ([s]) => s),
    subscribe: method(raw, (params, ctx) =>
      subscribe(ctx, 'test', params, (name, args, send) => {
        if (name === 'flood') {
          for (let i = 0; i < (args[1] as number); i++) send(`"${'x'.repeat(498)}"`);
          return () => {};
        }
        let n = 0;
        const timer = setInterval(() => {
          send(String(++n));
          if (n === 3) clearInterval(timer);
        }, 5);
        return () => {
          clearInterval(timer);
          closed.push(args[1] as string);
        };
      }),
    ),
    wait: method(positional([int]), ([ms]) => new Promise((r) => setTimeout(() => r(ms), ms as number))),
  },
};

beforeAll(async () => {
  const router = new Router();
  const ticker = jsonRpcSocket(gethDialect, [testService]);
  router.addRoute({ ws: ticker }, 'bc/test', '/ws');
  // The same service with a small bound on what new subscriptions may hold before their IDs are sent.
  router.addRoute({ ws: jsonRpcSocket(gethDialect, [testService], { maxHeldBytes: 4096 }) }, 'bc/small', '/ws');
  router.addRoute(
    {
      http: (_req, res) => {
        res.end('plain');
      },
      ws: ticker,
    },
    'both',
  );
  router.addAliases('bc/test', 'bc/alias');
  router.mount('/v1/chains/:chainId', (req, res, match) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ params: match.params, rest: match.rest, method: req.method }));
  });
  router.mount('/v1', (_req, res, match) => {
    res.end(`v1${match.rest}`);
  });
  expect(() => router.mount('/v1/', () => {})).toThrow(RouteError);
  server = createHttpServer(createApp({ nodeId: 'NodeID-test', allowedOrigins: ['*'], allowedHosts: ['localhost'], router }));
  sockets = acceptWebsockets(server, router, ['localhost']);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  sockets.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function open(path: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${base}${path}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

const messages = (ws: WebSocket, n: number): Promise<unknown[]> =>
  new Promise((resolve) => {
    const got: unknown[] = [];
    ws.on('message', (data) => {
      got.push(JSON.parse(data.toString()));
      if (got.length === n) resolve(got);
    });
  });

describe('websocket routes', () => {
  it('answers JSON-RPC over the socket, and the same route under an alias', async () => {
    for (const path of ['/ext/bc/test/ws', '/ext/bc/alias/ws']) {
      const ws = await open(path);
      const reply = messages(ws, 1);
      ws.send('{"jsonrpc":"2.0","id":7,"method":"test_echo","params":["hi"]}');
      expect(await reply).toEqual([{ jsonrpc: '2.0', id: 7, result: 'hi' }]);
      ws.close();
    }
  });

  it("pushes notifications through the connection's call context, and ends its subscriptions when the caller leaves", async () => {
    const ws = await open('/ext/bc/test/ws');
    const got = messages(ws, 4);
    ws.send('{"jsonrpc":"2.0","id":1,"method":"test_subscribe","params":["ticks","s1"]}');
    const [reply, ...notes] = (await got) as Array<{ result: string }>;
    expect(reply).toEqual({ jsonrpc: '2.0', id: 1, result: expect.stringMatching(/^0x[0-9a-f]+$/) });
    expect(notes).toEqual([1, 2, 3].map((n) => ({ jsonrpc: '2.0', method: 'test_subscription', params: { subscription: reply!.result, result: n } })));
    ws.close();
    for (let k = 0; k < 50 && !closed.includes('s1'); k++) await new Promise((r) => setTimeout(r, 10));
    expect(closed).toContain('s1');
  });

  it("holds a batch's new subscription's notifications until the batch's reply, and drops a connection holding too many", async () => {
    // Under the bound (4,096 bytes: 6 of some 560): the reply, then the six.
    const ws = await open('/ext/bc/small/ws');
    const got = messages(ws, 7);
    ws.send('[{"jsonrpc":"2.0","id":1,"method":"test_subscribe","params":["flood",6]},{"jsonrpc":"2.0","id":2,"method":"test_wait","params":[30]}]');
    const [reply, ...notes] = (await got) as [Array<{ id: number; result: unknown }>, ...Array<{ params: { subscription: unknown } }>];
    expect(reply.map((m) => m.id)).toEqual([1, 2]);
    expect(notes.map((n) => n.params.subscription)).toEqual(Array(6).fill(reply[0]!.result));
    ws.close();
    // Two subscriptions of the same connection count together: 2 × 5 notifications are over it.
    const over = await open('/ext/bc/small/ws');
    const closedWith = new Promise<number>((r) => over.once('close', (code) => r(code)));
    const seen: unknown[] = [];
    over.on('message', (d) => seen.push(JSON.parse(d.toString())));
    over.send(
      '[{"jsonrpc":"2.0","id":1,"method":"test_subscribe","params":["flood",5]},{"jsonrpc":"2.0","id":2,"method":"test_subscribe","params":["flood",5]},{"jsonrpc":"2.0","id":3,"method":"test_wait","params":[30]}]',
    );
    // Dropped without a close frame (1006), before the batch's reply or any notification.
    expect(await closedWith).toBe(1006);
    expect(seen).toEqual([]);
  });

  it('a route may serve plain HTTP and upgrades on one path', async () => {
    expect(await (await fetch(`http://${base}/ext/both`)).text()).toBe('plain');
    const ws = await open('/ext/both');
    const reply = messages(ws, 1);
    ws.send('{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["x"]}');
    expect(await reply).toEqual([{ jsonrpc: '2.0', id: 1, result: 'x' }]);
    ws.close();
  });

  it("a plain request to a websocket-only path gets gorilla/websocket's 400", async () => {
    const r = await fetch(`http://${base}/ext/bc/test/ws`);
    expect(r.status).toBe(400);
    expect(await r.text()).toBe('Bad Request\n');
  });

  it('refuses upgrades to paths without a socket handler (404) and from hosts not allowed (403)', async () => {
    await expect(open('/ext/nothing')).rejects.toThrow('HTTP 404');
    await expect(open('/ext/bc/test/ws', { host: 'evil.example' })).rejects.toThrow('HTTP 403');
  });
});

describe('prefix mounts', () => {
  it('match after exact paths, longest prefix first, with :name parameters and the rest of the path', async () => {
    const r = await fetch(`http://${base}/v1/chains/43114/blocks?pageSize=1`);
    expect(await r.json()).toEqual({ params: { chainId: '43114' }, rest: '/blocks', method: 'GET' });
    expect(await (await fetch(`http://${base}/v1/chains`)).text()).toBe('v1/chains');
    expect((await fetch(`http://${base}/v2/anything`)).status).toBe(404);
  });
});

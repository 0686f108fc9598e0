// The router beyond avalanchego's exact paths: websocket upgrades on any route (JSON-RPC over a
// socket, with a call context that outlives one request and pushes notifications) and prefix mounts
// with path parameters for the REST APIs, all behind the node's own host filter.
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { method } from '../src/rpc/method.js';
import { string } from '../src/rpc/schema.js';
import { createApp, createHttpServer } from '../src/server/app.js';
import { gethDialect, positional } from '../src/rpc/geth.js';
import { jsonRpcSocket } from '../src/rpc/socket.js';
import { Router, RouteError } from '../src/server/router.js';
import { acceptWebsockets, type Websockets } from '../src/server/websocket.js';

let server: http.Server;
let sockets: Websockets;
let base: string;
const closed: string[] = [];

beforeAll(async () => {
  const router = new Router();
  const ticker = jsonRpcSocket(gethDialect, [
    {
      name: 'test',
      methods: {
        echo: method(positional([string]), ([s]) => s),
        // A subscription in miniature: three notifications pushed after the reply, and a hook for the end.
        subscribe: method(positional([string]), ([name], ctx) => {
          ctx.onClose?.(() => closed.push(name as string));
          let n = 0;
          const timer = setInterval(() => {
            ctx.notify?.('test_subscription', { subscription: name, result: ++n });
            if (n === 3) clearInterval(timer);
          }, 5);
          return name;
        }),
      },
    },
  ]);
  router.addRoute({ ws: ticker }, 'bc/test', '/ws');
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

  it("pushes notifications through the connection's call context, and tells the method when the caller leaves", async () => {
    const ws = await open('/ext/bc/test/ws');
    const got = messages(ws, 4);
    ws.send('{"jsonrpc":"2.0","id":1,"method":"test_subscribe","params":["s1"]}');
    expect(await got).toEqual([
      { jsonrpc: '2.0', id: 1, result: 's1' },
      ...[1, 2, 3].map((n) => ({ jsonrpc: '2.0', method: 'test_subscription', params: { subscription: 's1', result: n } })),
    ]);
    ws.close();
    for (let k = 0; k < 50 && !closed.includes('s1'); k++) await new Promise((r) => setTimeout(r, 10));
    expect(closed).toContain('s1');
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

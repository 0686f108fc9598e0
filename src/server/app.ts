// The request listener that serves every API, and the node:http server that runs it.
//
// Plain node:http: the real node's chain (node-id, CORS, allowed hosts, router) is one function, and
// the router answers every path itself, so nothing of Express runs per request. Loading Express
// (its router, qs, mime-types) cost about a quarter of the node's start-up. REST APIs that want
// Express routers mount them with expressMount (rest.ts), which loads nothing of Express either.
import http from 'node:http';
import { reply, replyText } from '../rpc/http.js';
import { internalError } from '../rpc/endpoint.js';
import { allowedHosts, badRequest, cleanPath, isCleanPath, nodeHeaders, notFound } from './middleware.js';
import type { Router } from './router.js';
import type { Faults } from '../rpc/faults.js';
import { type Journal, REQUEST_BODY } from '../rpc/journal.js';

export interface AppOptions {
  nodeId: string;
  allowedOrigins: string[];
  allowedHosts: string[];
  router: Pick<Router, 'match' | 'matchMount'>;
  /** Records every request and reply (emulator controls). */
  journal?: Journal;
  /** Route-level faults: latency, HTTP status, dropped connection (emulator controls). */
  faults?: Faults;
  /** The node's clock, in ns, for the journal's times. */
  nowNs?: () => bigint;
}

export type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export function createApp(opts: AppOptions): RequestListener {
  const headers = nodeHeaders(opts.nodeId, opts.allowedOrigins);
  const hosts = allowedHosts(opts.allowedHosts);
  const route = dispatch(opts.router);
  const serve: RequestListener = (req, res) => {
    try {
      if (headers(req, res) || hosts(req, res)) return;
      route(req, res);
    } catch (err) {
      // A handler that throws is a bug of ours: the client gets a 500, the server goes on.
      internalError(res, err);
    }
  };
  const { journal, faults } = opts;
  if (!journal && !faults) return serve;
  return (req, res) => {
    const path = pathOf(req.url);
    if (journal) keep(journal, req, res, path, opts.nowNs);
    const fired = faults?.fire(path, undefined, ['drop', 'status', 'latency']) ?? [];
    if (fired.some((f) => f.kind === 'drop')) {
      req.socket.destroy();
      return;
    }
    const status = fired.find((f) => f.kind === 'status');
    if (status) {
      req.resume();
      reply(res, status.status!, ['Content-Type', 'text/plain; charset=utf-8'], status.body ?? '');
      return;
    }
    const delay = fired.reduce((ms, f) => (f.kind === 'latency' ? ms + f.latencyMs! : ms), 0);
    if (delay > 0) setTimeout(() => serve(req, res), delay);
    else serve(req, res);
  };
}

const pathOf = (url: string | undefined) => {
  const u = url ?? '/';
  const q = u.indexOf('?');
  return q < 0 ? u : u.slice(0, q);
};

/** Where a response keeps the body its end() was given, for the journal. */
const RESPONSE_BODY = Symbol('response body');
type JournaledResponse = http.ServerResponse & { [RESPONSE_BODY]?: string | Uint8Array };
const end = http.ServerResponse.prototype.end;

/**
 * res.end for a journaled request: notes the body, then ends as ever. One function for every
 * response, not a closure per request: measured with --trace-gc-nvp, a per-request wrapper sharing
 * its scope with the 'close' listener made each request's objects (req, res and what they hold)
 * survive into the old generation, 3.3 KB per request, and the scavenges that copied them were
 * most of the journal's cost; with this function, 0.1–0.35 KB per request (the record) are.
 */
function endNoting(this: JournaledResponse, chunk?: unknown): http.ServerResponse {
  if (typeof chunk === 'string' || chunk instanceof Uint8Array) this[RESPONSE_BODY] = chunk;
  // biome-ignore lint/complexity/noArguments: end's overloads (chunk, encoding, callback) pass through as they came
  return end.apply(this, arguments as unknown as Parameters<typeof end>);
}

/**
 * Journals the request once its reply is sent (or its connection gone), with the body the endpoint
 * read and the body of the reply. Both are handed over as they are: the journal keeps them by
 * reference when they fit its cap, so no request pays for a copy.
 */
function keep(journal: Journal, req: http.IncomingMessage, res: JournaledResponse, route: string, nowNs?: () => bigint): void {
  const started = performance.now();
  const time = nowNs?.() ?? BigInt(Date.now()) * 1_000_000n;
  res.end = endNoting as typeof res.end;
  // 'close' follows 'finish' on every response, and also comes alone when the connection goes first.
  res.on('close', () =>
    journal.record({
      time,
      route,
      httpMethod: req.method ?? '',
      status: res.headersSent ? res.statusCode : 0,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      userAgent: String(req.headers['user-agent'] ?? ''),
      ipAddress: req.socket.remoteAddress ?? '',
      host: String(req.headers.host ?? ''),
      request: (req as unknown as Record<symbol, Buffer | undefined>)[REQUEST_BODY],
      response: res[RESPONSE_BODY],
    }),
  );
}

/** gorilla/mux: header routing, clean-path redirects, then an exact path match. */
function dispatch(router: Pick<Router, 'match' | 'matchMount'>) {
  return (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const routeHeader = req.headers['avalanche-api-route'];
    if (routeHeader !== undefined) {
      // Header routing serves VMs with a connect-rpc handler; the emulator's chains have none.
      reply(res, routeHeader === '' ? 400 : 404, []);
      return;
    }
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const raw = q < 0 ? url : url.slice(0, q);
    let path = raw;
    if (raw.includes('%')) {
      try {
        path = decodeURIComponent(raw);
      } catch {
        return badRequest(res);
      }
    }
    if (!isCleanPath(path)) {
      const clean = cleanPath(path);
      reply(res, 301, ['Location', encodeURI(clean) + (q < 0 ? '' : url.slice(q))]);
      return;
    }
    const route = router.match(path);
    if (route?.http) return route.http(req, res);
    // gorilla/websocket's answer to a plain request on a websocket-only endpoint.
    if (route?.ws) return replyText(res, 400, 'Bad Request\n');
    const mounted = router.matchMount(path);
    if (mounted) return mounted.handler(req, res, mounted.match);
    notFound(res);
  };
}

export function createHttpServer(listener: RequestListener): http.Server {
  const server = http.createServer(listener);
  // avalanchego's defaults: read 30s, read-header 30s, idle 120s.
  server.requestTimeout = 30_000;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 120_000;
  return server;
}

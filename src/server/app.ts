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

export interface AppOptions {
  nodeId: string;
  allowedOrigins: string[];
  allowedHosts: string[];
  router: Router;
}

export type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export function createApp(opts: AppOptions): RequestListener {
  const headers = nodeHeaders(opts.nodeId, opts.allowedOrigins);
  const hosts = allowedHosts(opts.allowedHosts);
  const route = dispatch(opts.router);
  return (req, res) => {
    try {
      if (headers(req, res) || hosts(req, res)) return;
      route(req, res);
    } catch (err) {
      // A handler that throws is a bug of ours: the client gets a 500, the server goes on.
      internalError(res, err);
    }
  };
}

/** gorilla/mux: header routing, clean-path redirects, then an exact path match. */
function dispatch(router: Router) {
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

// The Express app that serves every API, and the node:http server that runs it.
//
// Express 5 re-parents every request and response (Object.setPrototypeOf(req, app.request)) on
// each call; V8 then drops its fast paths for those objects, which cost about 3.5x in throughput
// here. The server below constructs requests and responses from subclasses whose prototypes *are*
// app.request/app.response, so that call is a no-op. With that, the whole node serves JSON-RPC at
// about 70 % of a bare node:http server's rate instead of about 25 % (npm run bench:rpc).
import http from 'node:http';
import type { Express, NextFunction, Request, Response } from 'express';
import { createExpressApp } from './express.js';
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

export function createApp(opts: AppOptions): Express {
  const app = createExpressApp();
  app.disable('x-powered-by');
  app.disable('etag');
  // The real node's chain (node-id, CORS, allowed hosts, router) runs as one Express layer: each
  // further layer costs the router a match per request, and these steps always run together.
  const headers = nodeHeaders(opts.nodeId, opts.allowedOrigins);
  const hosts = allowedHosts(opts.allowedHosts);
  const route = dispatch(opts.router);
  app.use((req: Request, res: Response) => {
    if (headers(req, res) || hosts(req, res)) return;
    route(req, res);
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => internalError(res, err));
  return app;
}

/** gorilla/mux: header routing, clean-path redirects, then an exact path match. */
function dispatch(router: Router) {
  return (req: Request, res: Response): void => {
    const routeHeader = req.headers['avalanche-api-route'];
    if (routeHeader !== undefined) {
      // Header routing serves VMs with a connect-rpc handler; the emulator's chains have none.
      reply(res, routeHeader === '' ? 400 : 404, []);
      return;
    }
    const url = req.url;
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

export function createHttpServer(app: Express): http.Server {
  class AppRequest extends http.IncomingMessage {}
  class AppResponse<Req extends http.IncomingMessage = http.IncomingMessage> extends http.ServerResponse<Req> {}
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  (app as unknown as { request: object }).request = AppRequest.prototype;
  (app as unknown as { response: object }).response = AppResponse.prototype;
  const server = http.createServer({ IncomingMessage: AppRequest, ServerResponse: AppResponse }, app);
  // avalanchego's defaults: read 30s, read-header 30s, idle 120s.
  server.requestTimeout = 30_000;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 120_000;
  return server;
}

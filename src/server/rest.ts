// REST APIs written as Express routers are mounted at a prefix of the node's router. The router sees
// the path below the prefix, as under app.use(prefix, router): req.url is rewritten for it,
// req.baseUrl holds the prefix, and the prefix's :params reach its routes through req.params
// (declare the router with mergeParams: true). What it does not answer is a 404.
// Express is loaded when the first such router is mounted, not at start-up: the node's own APIs do
// not run through Express (app.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { internalError } from '../rpc/endpoint.js';
import { applyNodeHeaders } from '../rpc/http.js';
import { createExpressApp } from './express.js';
import { journalEnds } from './app.js';
import { notFound } from './middleware.js';
import type { MountHandler } from './router.js';

type Next = (err?: unknown) => void;
export type ExpressHandler = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

const prefixParams = new WeakMap<IncomingMessage, Record<string, string>>();

export function expressMount(handler: ExpressHandler): MountHandler {
  // An Express app around the router gives its requests and responses Express's prototypes
  // (req.query, res.json, ...), which a bare Router does not set.
  const app = createExpressApp();
  app.disable('x-powered-by');
  app.disable('etag');
  // Express's own router resets req.params per layer: hand the prefix's parameters back to the router.
  app.use((req: IncomingMessage & { params?: Record<string, string> }, res: ServerResponse, next: Next) => {
    req.params = prefixParams.get(req);
    handler(req, res, next);
  });
  const handle = (app as unknown as { handle: (req: IncomingMessage, res: ServerResponse, done: Next) => void }).handle.bind(app);
  return (req, res, match) => {
    const original = req.url ?? '/';
    const q = original.indexOf('?');
    const path = q < 0 ? original : original.slice(0, q);
    const request = req as IncomingMessage & { baseUrl?: string; params?: Record<string, string> };
    request.url = (match.rest === '' ? '/' : match.rest) + (q < 0 ? '' : original.slice(q));
    request.baseUrl = path.slice(0, path.length - match.rest.length);
    prefixParams.set(request, { ...match.params });
    applyNodeHeaders(res);
    journalEnds(res);
    handle(request, res, (err) => {
      request.url = original;
      if (err !== undefined && err !== 'route' && err !== 'router') return internalError(res, err);
      notFound(res);
    });
  };
}

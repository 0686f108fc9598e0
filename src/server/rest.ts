// REST APIs (the Data and Metrics APIs to come) are Express routers mounted at a prefix of the node's
// router. The router sees the path below the prefix, as under app.use(prefix, router): req.url is
// rewritten for it, req.baseUrl holds the prefix, and the prefix's :params reach its routes through
// req.params (declare the router with mergeParams: true). What it does not answer is a 404.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { internalError } from '../rpc/endpoint.js';
import { applyNodeHeaders } from '../rpc/http.js';
import { notFound } from './middleware.js';
import type { MountHandler } from './router.js';

type Next = (err?: unknown) => void;
export type ExpressHandler = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

export function expressMount(handler: ExpressHandler): MountHandler {
  return (req, res, match) => {
    const original = req.url ?? '/';
    const q = original.indexOf('?');
    const path = q < 0 ? original : original.slice(0, q);
    const request = req as IncomingMessage & { baseUrl?: string; params?: Record<string, string> };
    request.url = (match.rest === '' ? '/' : match.rest) + (q < 0 ? '' : original.slice(q));
    request.baseUrl = path.slice(0, path.length - match.rest.length);
    request.params = { ...match.params };
    applyNodeHeaders(res);
    handler(request, res, (err) => {
      request.url = original;
      if (err !== undefined && err !== 'route' && err !== 'router') return internalError(res, err);
      notFound(res);
    });
  };
}

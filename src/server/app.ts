// The request listener that serves every API, and the node:http server that runs it.
//
// Plain node:http: the real node's chain (node-id, CORS, allowed hosts, router) is one function, and
// the router answers every path itself, so nothing of Express runs per request. Loading Express
// (its router, qs, mime-types) cost about a quarter of the node's start-up.
import http from 'node:http';
import { NODE_HEADERS, reply, replyText } from '../rpc/http.js';
import { internalError, READING } from '../rpc/endpoint.js';
import { allowedHosts, badRequest, cleanPath, isCleanPath, nodeHeaders, notFound } from './middleware.js';
import type { Router } from './router.js';
import type { FaultKind, Faults } from '../rpc/faults.js';
import { type Journal, JOURNAL_DRAFT as DRAFT, type JournalDraft } from '../rpc/journal.js';

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
  const nowNs = opts.nowNs ?? (() => BigInt(Date.now()) * 1_000_000n);
  const onClose = journal ? committer(journal) : undefined;
  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (journal) {
      // The node's replies hand their bodies to the draft (reply(), in rpc/http.ts): every response is written there.
      (res as JournaledResponse)[DRAFT] = journal.open(nowNs(), path, req.method ?? '');
      // 'close' follows 'finish' on every response, and also comes alone when the connection goes first.
      res.on('close', onClose!);
    }
    // Without faults (the usual case), nothing is drawn.
    if (faults === undefined || faults.empty) return serve(req, res);
    const fired = faults.fire(path, undefined, ROUTE_FAULTS);
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

const ROUTE_FAULTS: readonly FaultKind[] = ['drop', 'status', 'latency'];

type JournaledResponse = http.ServerResponse & { [DRAFT]?: JournalDraft };

/**
 * The 'close' listener of every journaled response (one per app, not a closure per request):
 * commits the draft with how the request was answered. The draft holds the body the endpoint read
 * and the body of the reply (noteRequestBody and noteResponseBody), as they are: the
 * journal keeps them by reference when they fit its cap, so no request pays for a copy.
 */
function committer(journal: Journal) {
  return function commit(this: JournaledResponse): void {
    const draft = this[DRAFT]!;
    const req = this.req;
    draft.status = this.headersSent ? this.statusCode : 0;
    draft.userAgent = String(req.headers['user-agent'] ?? '');
    draft.ipAddress = req.socket.remoteAddress ?? '';
    draft.host = String(req.headers.host ?? '');
    journal.commit(draft);
  };
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

/**
 * Node's request and response, with the fields the node sets on every request (its headers, the
 * journal's draft, the body being read) there from the start. Set later, each gave the objects a
 * new hidden class midway through a request, and Node's HTTP code, which reads them throughout,
 * met several.
 */
class NodeRequest extends http.IncomingMessage {
  [READING]?: unknown = undefined;
}

class NodeResponse extends http.ServerResponse<NodeRequest> {
  [NODE_HEADERS]?: readonly string[] = undefined;
  [DRAFT]?: JournalDraft = undefined;
}

export function createHttpServer(listener: RequestListener): http.Server {
  const server = http.createServer({ IncomingMessage: NodeRequest, ServerResponse: NodeResponse }, listener);
  // avalanchego's defaults: read 30s, read-header 30s, idle 120s.
  server.requestTimeout = 30_000;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 120_000;
  return server;
}

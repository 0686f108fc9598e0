import type { IncomingMessage, ServerResponse } from 'node:http';
import { reply, TEXT_PLAIN } from './http.js';
import type { Dialect, Responder, RpcResponse } from './dialect.js';
import type { ServiceDef } from './method.js';
import { BodyBudget, type PendingBody } from './budget.js';
import { noteRequestBody } from './journal.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** 4 MiB: twice the hex of the largest X-Chain tx (256 KiB) with room to spare; Go sets no limit. */
export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;

export function send(res: ServerResponse, r: RpcResponse): void {
  reply(res, r.status, r.headers, r.body ?? '');
}

export interface EndpointOptions {
  /** What one request body may be. */
  bodyLimit?: number;
  /** What every request body still arriving may hold in all; share one per node. */
  budget?: BodyBudget;
}

/** What an endpoint answers with, shared by all its requests. */
interface Endpoint {
  dialect: Dialect;
  respond: Responder;
  bodyLimit: number;
  budget: BodyBudget;
}

/**
 * A request body being read: its chunks so far, and its place among the node's pending bodies (it
 * is the budget's entry itself). Its listeners are functions shared by every request, which find it
 * on the request: a request allocates this object, not half a dozen closures.
 */
class BodyRead implements PendingBody {
  /** What the budget counts as held. */
  bytes = 0;
  /** What has arrived. */
  size = 0;
  /** The first chunk, and the others when there are more (most bodies arrive in one). */
  first: Buffer | undefined = undefined;
  more: Buffer[] | undefined = undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly endpoint: Endpoint,
  ) {}

  /** Shed by the budget: the client was slowest to send; its connection is closed. */
  evict(): void {
    stopReading(this);
    this.req.socket.destroy();
  }
}

/** Where a request being read keeps its BodyRead (declared by the server's request class, app.ts). */
export const READING = Symbol('body read');
type ReadingRequest = IncomingMessage & { [READING]?: BodyRead };

function stopReading(r: BodyRead): void {
  r.req.off('data', onData);
  r.req.off('end', onEnd);
  r.endpoint.budget.end(r);
  r.first = r.more = undefined;
}

function onData(this: ReadingRequest, chunk: Buffer): void {
  const r = this[READING]!;
  r.size += chunk.length;
  if (r.size > r.endpoint.bodyLimit) {
    stopReading(r);
    refuseLarge(this, r.res, r.endpoint.dialect, r.endpoint.bodyLimit);
    return;
  }
  if (r.first === undefined) r.first = chunk;
  else if (r.more === undefined) r.more = [r.first, chunk];
  else r.more.push(chunk);
  r.endpoint.budget.grow(r, chunk.length);
}

function onEnd(this: ReadingRequest): void {
  const r = this[READING]!;
  const { res, endpoint } = r;
  endpoint.budget.end(r);
  const body = r.more !== undefined ? Buffer.concat(r.more) : (r.first ?? EMPTY_BODY);
  r.first = r.more = undefined;
  noteRequestBody(res, body);
  let reply: ReturnType<Responder>;
  try {
    reply = endpoint.respond(body, { request: this });
  } catch (err) {
    return internalError(res, err);
  }
  if (reply instanceof Promise)
    reply.then(
      (answer) => send(res, answer),
      (err: unknown) => internalError(res, err),
    );
  else send(res, reply);
}

function onError(this: ReadingRequest): void {
  this[READING]!.res.destroy();
}

/** An aborted or timed-out request never ends: what it held is released when its connection goes. */
function onClose(this: ReadingRequest): void {
  const r = this[READING]!;
  r.endpoint.budget.end(r);
}

const EMPTY_BODY = Buffer.alloc(0);

/** One JSON-RPC endpoint: the dialect decides envelopes and errors, the services the methods. */
export function jsonRpcEndpoint(dialect: Dialect, services: ServiceDef[], opts: EndpointOptions = {}): Handler {
  const endpoint: Endpoint = {
    dialect,
    respond: dialect.responder(services),
    bodyLimit: opts.bodyLimit ?? DEFAULT_BODY_LIMIT,
    budget: opts.budget ?? new BodyBudget(),
  };
  return (req, res) => {
    const refusal = dialect.precheck(req);
    if (refusal) {
      req.resume();
      return send(res, refusal);
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > endpoint.bodyLimit) return refuseLarge(req, res, dialect, endpoint.bodyLimit);
    const r = new BodyRead(req, res, endpoint);
    (req as ReadingRequest)[READING] = r;
    endpoint.budget.add(r);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  };
}

function refuseLarge(req: IncomingMessage, res: ServerResponse, dialect: Dialect, limit: number): void {
  // The rest of the body is not read: close the connection once the answer is out.
  const r = dialect.tooLarge(limit);
  send(res, { ...r, headers: [...r.headers, 'Connection', 'close'] });
  req.pause();
}

export function internalError(res: ServerResponse | undefined, err: unknown): void {
  // Only a defect in the emulator reaches here; say so instead of hanging the client.
  console.error('internal error:', err);
  if (res) reply(res, 500, TEXT_PLAIN, `internal error: ${(err as Error)?.message ?? String(err)}\n`);
}

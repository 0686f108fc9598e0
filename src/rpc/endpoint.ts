import type { IncomingMessage, ServerResponse } from 'node:http';
import { reply, TEXT_PLAIN } from './http.js';
import type { Dialect, RpcResponse } from './dialect.js';
import type { ServiceDef } from './method.js';
import { BodyBudget } from './budget.js';
import { REQUEST_BODY } from './journal.js';

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

/** One JSON-RPC endpoint: the dialect decides envelopes and errors, the services the methods. */
export function jsonRpcEndpoint(dialect: Dialect, services: ServiceDef[], opts: EndpointOptions = {}): Handler {
  const respond = dialect.responder(services);
  const bodyLimit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const budget = opts.budget ?? new BodyBudget();
  return (req, res) => {
    const refusal = dialect.precheck(req);
    if (refusal) {
      req.resume();
      return send(res, refusal);
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > bodyLimit) return refuseLarge(req, res, dialect, bodyLimit);
    const chunks: Buffer[] = [];
    let size = 0;
    const stopReading = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      budget.end(pending);
      chunks.length = 0;
    };
    // Shed by the budget: the client was slowest to send; its connection is closed.
    const pending = budget.start(() => {
      stopReading();
      req.socket.destroy();
    });
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > bodyLimit) {
        stopReading();
        refuseLarge(req, res, dialect, bodyLimit);
        return;
      }
      chunks.push(chunk);
      budget.grow(pending, chunk.length);
    };
    const onEnd = () => {
      budget.end(pending);
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      (req as unknown as Record<symbol, Buffer>)[REQUEST_BODY] = body;
      let reply: ReturnType<typeof respond>;
      try {
        reply = respond(body, { request: req });
      } catch (err) {
        return internalError(res, err);
      }
      if (reply instanceof Promise)
        reply.then(
          (r) => send(res, r),
          (err: unknown) => internalError(res, err),
        );
      else send(res, reply);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', () => res.destroy());
    // An aborted or timed-out request never ends: release what it held when its connection goes.
    req.on('close', () => budget.end(pending));
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

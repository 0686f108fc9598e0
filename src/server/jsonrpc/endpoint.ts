import type { IncomingMessage, ServerResponse } from 'node:http';
import { reply, TEXT_PLAIN } from '../../api/http.js';
import type { Dialect, RpcResponse } from './dialect.js';
import type { ServiceDef } from '../../api/rpc.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** 4 MiB: twice the hex of the largest X-Chain tx (256 KiB) with room to spare; Go sets no limit. */
export const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;

export function send(res: ServerResponse, r: RpcResponse): void {
  reply(res, r.status, r.headers, r.body ?? '');
}

/** One JSON-RPC endpoint: the dialect decides envelopes and errors, the services the methods. */
export function jsonRpcEndpoint(dialect: Dialect, services: ServiceDef[], bodyLimit = DEFAULT_BODY_LIMIT): Handler {
  const respond = dialect.responder(services);
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
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > bodyLimit) {
        req.off('data', onData);
        req.off('end', onEnd);
        refuseLarge(req, res, dialect, bodyLimit);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      let reply;
      try {
        reply = respond(body, req);
      } catch (err) {
        return internalError(res, err);
      }
      if (reply instanceof Promise) reply.then((r) => send(res, r), (err: unknown) => internalError(res, err));
      else send(res, reply);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', () => res.destroy());
  };
}

function refuseLarge(req: IncomingMessage, res: ServerResponse, dialect: Dialect, limit: number): void {
  // The rest of the body is not read: close the connection once the answer is out.
  const r = dialect.tooLarge(limit);
  send(res, { ...r, headers: [...r.headers, 'Connection', 'close'] });
  req.pause();
}

export function internalError(res: ServerResponse, err: unknown): void {
  // Only a defect in the emulator reaches here; say so instead of hanging the client.
  console.error('internal error:', err);
  reply(res, 500, TEXT_PLAIN, `internal error: ${(err as Error)?.message ?? String(err)}\n`);
}

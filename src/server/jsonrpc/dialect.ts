import type { IncomingMessage } from 'node:http';
import type { ServiceDef } from './service.js';

export interface RpcResponse {
  status: number;
  headers: Record<string, string>;
  /** null: answer with an empty body (notifications). */
  body: string | null;
}

/** What differs between avalanchego's and geth's JSON-RPC: HTTP gatekeeping, envelopes, error shapes. */
export interface Dialect {
  /** An HTTP-level refusal (method, content type) to send before the body is read, if any. */
  precheck(req: IncomingMessage): RpcResponse | undefined;
  /** Answers a complete request body. */
  respond(body: Buffer, services: ReadonlyMap<string, ServiceDef>, req: IncomingMessage): Promise<RpcResponse>;
  /** The response to a body over the size limit. */
  tooLarge(limit: number): RpcResponse;
}

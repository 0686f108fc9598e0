import type { IncomingMessage } from 'node:http';
import type { HeaderList } from './http.js';
import type { CallContext, ServiceDef } from './method.js';

export interface RpcResponse {
  status: number;
  headers: HeaderList;
  /** null: answer with an empty body (notifications). Buffers are the body's bytes in pieces, already encoded. */
  body: string | readonly Buffer[] | null;
  /** A websocket whose stream cannot be read on is closed once the body (if any) is written. */
  close?: boolean;
}

/** Answers a complete request body; synchronous when every method involved is. */
export type Responder = (body: Buffer, ctx: CallContext) => RpcResponse | Promise<RpcResponse>;

/** What differs between avalanchego's and geth's JSON-RPC: HTTP gatekeeping, envelopes, error shapes. */
export interface Dialect {
  /** An HTTP-level refusal (method, content type) to send before the body is read, if any. */
  precheck(req: IncomingMessage): RpcResponse | undefined;
  /** Prepares the method table once; the returned function answers each body. */
  responder(services: ServiceDef[]): Responder;
  /** The response to a body over the size limit. */
  tooLarge(limit: number): RpcResponse;
}

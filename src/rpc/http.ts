// Every response of the node is written here, in one writeHead call: the node's own headers
// (Node-Id, Vary, CORS, recorded by the server before routing), the handler's headers, then
// Content-Length. One call with a flat array spares Node a header object and a validation pass per
// setHeader, and keeps header names in the canonical case Go writes them in.
import type { ServerResponse } from 'node:http';
import { noteResponseBody } from './journal.js';

/** Where the server keeps a response's node headers (declared by the server's response class, app.ts). */
export const NODE_HEADERS = Symbol('node headers');
type Res = ServerResponse & { [NODE_HEADERS]?: readonly string[] };

/** Flat header list: name, value, name, value ... (a name may repeat). */
export type HeaderList = readonly string[];

export function setNodeHeaders(res: ServerResponse, headers: HeaderList): void {
  (res as Res)[NODE_HEADERS] = headers;
}

/** A body: text, bytes, or bytes in pieces (a large answer written as it was made, never joined). */
export type Body = string | Uint8Array | readonly Uint8Array[];

export function reply(res: ServerResponse, status: number, headers: HeaderList, body: Body = ''): void {
  if (res.headersSent) return;
  const length = typeof body === 'string' ? Buffer.byteLength(body) : isPieces(body) ? body.reduce((n, p) => n + p.length, 0) : body.length;
  res.writeHead(status, [...((res as Res)[NODE_HEADERS] ?? []), ...headers, 'Content-Length', String(length)]);
  noteResponseBody(res, body);
  if (!isPieces(body)) {
    res.end(body);
    return;
  }
  // Node corks a response's socket at its first write until the next tick: written now, the pieces leave in one writev.
  for (const piece of body) res.write(piece);
  res.end();
}

const isPieces = (body: Body): body is readonly Uint8Array[] => Array.isArray(body);

export const TEXT_PLAIN: HeaderList = ['Content-Type', 'text/plain; charset=utf-8'];

/** Go's http.Error and http.NotFound: text/plain with nosniff. */
export function replyText(res: ServerResponse, status: number, body: string): void {
  reply(res, status, ['Content-Type', 'text/plain; charset=utf-8', 'X-Content-Type-Options', 'nosniff'], body);
}

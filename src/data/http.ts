// The Data API's HTTP side: requests under /v1 matched to the contract's operations, their path and
// query parameters (and POST bodies) validated from the contract, the operation's handler run, and
// the answer written as JSON with the contract's success status, or the error body.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { reply } from '../rpc/http.js';
import { contract, type Operation, validationMessages, validParameters } from './contract.js';
import { badRequest, DataError } from './errors.js';

export interface DataRequest {
  /** Path and query parameters, typed and defaulted by the contract. */
  params: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
  /** The node's own origin as the client reached it (http://host:port), for URLs in answers. */
  origin: string;
  req: IncomingMessage;
}

export type DataHandler = (request: DataRequest) => Promise<unknown>;

/** What the node's router mounts at /v1 (server/router.ts's MountHandler, structurally). */
export type DataMount = (req: IncomingMessage, res: ServerResponse) => void;

const JSON_HEADERS = ['Content-Type', 'application/json; charset=utf-8'];
const MAX_BODY = 1 << 20;

function send(res: ServerResponse, status: number, value: unknown): void {
  reply(res, status, JSON_HEADERS, JSON.stringify(value));
}

function match(op: Operation, method: string, parts: string[]): Record<string, string> | undefined {
  if (op.method !== method || op.segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const seg = op.segments[i]!;
    if (seg.startsWith('{') && seg.endsWith('}')) params[seg.slice(1, -1)] = parts[i]!;
    else if (seg !== parts[i]) return undefined;
  }
  return params;
}

async function readBody(req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown>> {
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        // Stop reading without destroying the socket, so the 413 reaches the client; then the connection closes.
        req.off('data', onData);
        req.pause();
        res.shouldKeepAlive = false;
        reject(new DataError(413, 'request entity too large'));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw badRequest((err as Error).message);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('the request body must be a JSON object');
  return parsed as Record<string, unknown>;
}

/** Serves /v1 from `handlers` by operation ID; an operation without a handler is not served (404, as an unknown route). */
/**
 * `rewrite`: per operation, what the node reads its raw path and query values as before the
 * contract validates them (the local chains' IDs as the aliases the contract's closed lists allow).
 */
export function dataMount(
  handlers: Record<string, DataHandler>,
  onError: (err: unknown) => void,
  rewrite: Record<string, (raw: Record<string, unknown>) => void> = {},
): DataMount {
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://node');
      const method = req.method ?? 'GET';
      const cannot = new DataError(404, `Cannot ${method} ${url.pathname}`);
      try {
        let parts: string[];
        try {
          parts = url.pathname
            .split('/')
            .filter((s) => s !== '')
            .map(decodeURIComponent);
        } catch {
          throw badRequest('malformed path');
        }
        let found: { op: Operation; params: Record<string, string> } | undefined;
        for (const op of contract().operations) {
          const params = match(op, method, parts);
          if (params && handlers[op.id]) {
            found = { op, params };
            break;
          }
        }
        if (!found) throw cannot;
        const { op } = found;
        const raw: Record<string, unknown> = { ...found.params };
        for (const p of op.parameters) if (p.in === 'query' && url.searchParams.has(p.name)) raw[p.name] = url.searchParams.get(p.name);
        rewrite[op.id]?.(raw);
        const params = validParameters(op, raw);
        let body: Record<string, unknown> | undefined;
        if (op.method === 'POST') {
          body = await readBody(req, res);
          if (op.validateBody && !op.validateBody(body)) throw badRequest(validationMessages(op.validateBody.errors));
        } else {
          req.resume();
        }
        const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
        send(res, op.status, await handlers[op.id]!({ params, body, origin, req }));
      } catch (err) {
        if (err instanceof DataError) return send(res, err.statusCode, err.body());
        onError(err);
        send(res, 500, { message: 'Internal server error', statusCode: 500, error: 'Internal Server Error' });
      }
    })();
  };
}

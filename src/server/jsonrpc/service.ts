// The shared core of JSON-RPC: services, their methods and one way to invoke them. Both dialects
// (avalanchego's gorilla json2 and geth's) call `invoke`; only envelopes and error shapes differ.
import type { IncomingMessage } from 'node:http';
import type { JsonValue } from '../../encoding/gojson.js';
import { ParamsError, type Field } from '../../api/schema.js';

export interface CallContext {
  req: IncomingMessage;
}

export interface MethodDef<A = any> {
  params: Field<A>;
  handler: (args: A, ctx: CallContext) => unknown;
}

export interface ServiceDef {
  /** The service name as clients write it: `admin`, `health`, `eth`. */
  name: string;
  /** Method names as clients write them after the dot: `getLoggerLevel`, `blockNumber`. */
  methods: Record<string, MethodDef>;
}

export function method<A>(params: Field<A>, handler: (args: A, ctx: CallContext) => unknown): MethodDef<A> {
  return { params, handler };
}

/** An error a method returns on purpose; `code` defaults to the dialect's server error. */
export class RpcError extends Error {
  constructor(message: string, readonly code?: number, readonly data?: unknown) {
    super(message);
  }
}

export type Outcome =
  | { ok: true; result: unknown }
  | { ok: false; kind: 'params'; message: string }
  | { ok: false; kind: 'service'; error: RpcError };

export async function invoke(def: MethodDef, rawParams: JsonValue | undefined, ctx: CallContext, decode: (def: MethodDef, raw: JsonValue | undefined) => unknown): Promise<Outcome> {
  let args: unknown;
  try {
    args = decode(def, rawParams);
  } catch (err) {
    if (err instanceof ParamsError) return { ok: false, kind: 'params', message: err.message };
    throw err;
  }
  try {
    return { ok: true, result: await def.handler(args, ctx) };
  } catch (err) {
    if (err instanceof RpcError) return { ok: false, kind: 'service', error: err };
    if (err instanceof ParamsError) return { ok: false, kind: 'params', message: err.message };
    throw err;
  }
}

/** avalanchego services log every call at DEBUG as "API called" with the service and method. */
export function withCallLog(service: ServiceDef, debug: (msg: string, fields: Record<string, unknown>) => void): ServiceDef {
  const methods: Record<string, MethodDef> = {};
  for (const [name, def] of Object.entries(service.methods)) {
    methods[name] = {
      params: def.params,
      handler: (args, ctx) => {
        debug('API called', { service: service.name, method: name });
        return def.handler(args, ctx);
      },
    };
  }
  return { name: service.name, methods };
}

// The shared core of JSON-RPC: services, their methods and one way to invoke them. Both dialects
// (avalanchego's gorilla json2 and geth's) call `invoke`; only envelopes and error shapes differ.
import type { IncomingMessage } from 'node:http';
import type { JsonValue } from '../encoding/gojson.js';
import { ParamsError, type Field } from './schema.js';

/**
 * What a method knows of its caller. A call over HTTP lives as long as its request; one over a
 * websocket shares the connection's context, which can push notifications (subscriptions) until the
 * connection closes.
 */
export interface CallContext {
  /** The HTTP request, or for a websocket the upgrade request that opened the connection. */
  readonly request: IncomingMessage;
  /** Sends a notification (a request without id) to the caller: only where the connection stays open. */
  readonly notify?: (method: string, params: unknown) => void;
  /** The connection's subscriptions (a websocket's): any `*_unsubscribe` ends one, its close all. */
  readonly subscriptions?: SubscriptionSet;
  /**
   * Runs `fn` once the reply carrying this call's answer is sent (a websocket's message, a whole
   * batch's): a new subscription's notifications wait for it, so none precedes the ID it names.
   */
  readonly afterReply?: (fn: () => void) => void;
}

/** A connection's subscriptions (subscriptions.ts): what ends each, by ID. */
export interface SubscriptionSet {
  /** Keeps `stop` under `id`; a connection already closed ends the subscription at once. */
  add(id: string, stop: () => void): void;
  /** Ends subscription `id`; false if the connection has none such. */
  end(id: string): boolean;
  /** Counts `bytes` of notifications held (not yet sendable); false: past the bound, the connection is being dropped. */
  hold(bytes: number): boolean;
  /** Uncounts held bytes, sent or dropped. */
  release(bytes: number): void;
}

/** One method: its declared params (decoded by a schema into typed args) and its reply type. */
// biome-ignore lint/suspicious/noExplicitAny: a service's table holds methods of every args type
export interface MethodDef<A = any, R = unknown> {
  params: Field<A>;
  handler: (args: A, ctx: CallContext) => R | Promise<R>;
}

export interface ServiceDef {
  /** The service name as clients write it: `admin`, `health`, `eth`. */
  name: string;
  /** Method names as clients write them after the dot: `getLoggerLevel`, `blockNumber`. */
  methods: Record<string, MethodDef>;
}

/** Declares a method: `method(struct({ alias: string }), ({ alias }): AliasReply => ...)`. */
export function method<A, R>(params: Field<A>, handler: (args: A, ctx: CallContext) => R | Promise<R>): MethodDef<A, R> {
  return { params, handler };
}

/** An error a method returns on purpose; `code` defaults to the dialect's server error. */
export class RpcError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: each error text takes its own arguments
type ErrorTexts = Record<string, (...args: any[]) => string>;

/**
 * A service's errors, declared once at the top of its file as avalanchego declares them as package
 * variables: each entry gives the text, and throwing `errors.name(...)` raises it as the method's error.
 */
export function serviceErrors<T extends ErrorTexts>(texts: T): { [K in keyof T]: (...args: Parameters<T[K]>) => RpcError } {
  const out: Record<string, (...args: unknown[]) => RpcError> = {};
  for (const [name, text] of Object.entries(texts)) out[name] = (...args) => new RpcError(text(...args));
  return out as { [K in keyof T]: (...args: Parameters<T[K]>) => RpcError };
}

export type Outcome = { ok: true; result: unknown } | { ok: false; kind: 'params'; message: string } | { ok: false; kind: 'service'; error: RpcError };

function failure(err: unknown): Outcome {
  if (err instanceof RpcError) return { ok: false, kind: 'service', error: err };
  if (err instanceof ParamsError) return { ok: false, kind: 'params', message: err.message };
  throw err;
}

const isThenable = (v: unknown): v is PromiseLike<unknown> => typeof (v as { then?: unknown } | null)?.then === 'function';

/** Decodes the params and runs the method; synchronous methods are answered without a promise. */
export function invoke(
  def: MethodDef,
  rawParams: JsonValue | undefined,
  ctx: CallContext,
  decode: (def: MethodDef, raw: JsonValue | undefined) => unknown,
): Outcome | Promise<Outcome> {
  let args: unknown;
  try {
    args = decode(def, rawParams);
  } catch (err) {
    if (err instanceof ParamsError) return { ok: false, kind: 'params', message: err.message };
    throw err;
  }
  let result: unknown;
  try {
    result = def.handler(args, ctx);
  } catch (err) {
    return failure(err);
  }
  if (!isThenable(result)) return { ok: true, result };
  return Promise.resolve(result).then((value): Outcome => ({ ok: true, result: value }), failure);
}

/** avalanchego services log every call at DEBUG as "API called" with the service and method. */
export function withCallLog(service: ServiceDef, debug: (msg: string, fields: Record<string, unknown>) => void): ServiceDef {
  const methods: Record<string, MethodDef> = {};
  for (const [name, def] of Object.entries(service.methods)) {
    const fields = { service: service.name, method: name };
    methods[name] = {
      params: def.params,
      handler: (args, ctx) => {
        debug('API called', fields);
        return def.handler(args, ctx);
      },
    };
  }
  return { name: service.name, methods };
}

/** Runs `fn`; whatever it throws becomes the method's error, with its text (reworded by `wrap`). */
export function rpcTry<T>(fn: () => T, wrap: (message: string) => string = (m) => m): T {
  try {
    return fn();
  } catch (err) {
    throw new RpcError(wrap((err as Error).message));
  }
}

export async function rpcTryAsync<T>(fn: () => Promise<T>, wrap: (message: string) => string = (m) => m): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new RpcError(wrap((err as Error).message));
  }
}

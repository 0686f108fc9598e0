// geth's JSON-RPC dialect (go-ethereum rpc package), used by coreth/subnet-evm at /ext/bc/<id>/rpc:
// batches, -32601 for unknown methods, -32602 for bad params, `id` before `result`, positional params.
import type { IncomingMessage } from 'node:http';
import { goMarshal, isJsonObject, numberText, parseGoJson, GoJsonError, RawNumber, type JsonObject, type JsonValue } from '../encoding/gojson.js';
import { JsonBytes } from '../encoding/jsonbytes.js';
import { ParamsError, raw, type Field } from './schema.js';
import { invoke, method, type CallContext, type MethodDef, type ServiceDef } from './method.js';
import { noSubscription, rpcId, unsubscribe } from './subscriptions.js';
import type { Dialect, Responder, RpcResponse } from './dialect.js';

/** geth's default batch-request-limit. */
export const BATCH_LIMIT = 1000;
const JSON_HEADERS = ['Content-Type', 'application/json'];
const TEXT_HEADERS = ['Content-Type', 'text/plain; charset=utf-8'];

/** What follows a result: the message's end and geth's newline. */
const RESULT_END = Buffer.from('}\n');

const errorMessage = (id: string, code: number, message: string) => `{"jsonrpc":"2.0","id":${id},"error":{"code":${code},"message":${goMarshal(message)}}}`;

/**
 * Positional params, as geth binds JSON arrays to Go method arguments; trailing optionals may be left
 * out. `required` counts the leading arguments Go takes by value (not as pointers). With
 * `nullIsMissing` a null required argument is missing, as Anvil's and Hardhat's methods refuse one.
 */
export function positional(fields: Field<unknown>[], required = fields.length, nullIsMissing = false): Field<unknown[]> {
  return {
    zero: () => {
      if (required > 0) throw new ParamsError(`missing value for required argument ${0}`);
      return fields.map((f) => f.zero());
    },
    decode(v) {
      if (!Array.isArray(v)) throw new ParamsError('non-array args');
      if (v.length > fields.length) throw new ParamsError(`too many arguments, want at most ${fields.length}`);
      return fields.map((field, i) => {
        const item = v[i];
        // Only an absent argument is missing: an explicit null is decoded into the Go type, which
        // leaves a pointer (the optional arguments) nil and a plain value zero, unless the type
        // reads null itself (parseArgumentArray).
        if (item === undefined || (nullIsMissing && item === null)) {
          if (i < required) throw new ParamsError(`missing value for required argument ${i}`);
          return field.zero();
        }
        try {
          if (item === null) return i < required && field.decodeNull ? field.decodeNull() : field.zero();
          return field.decode(item);
        } catch (err) {
          throw new ParamsError(`invalid argument ${i}: ${(err as Error).message}`);
        }
      });
    },
  };
}

/** The developer methods' params (evm_*, anvil_*, hardhat_*): a null required argument is missing. */
export const devPositional = (fields: Field<unknown>[], required = fields.length): Field<unknown[]> => positional(fields, required, true);

/**
 * `*_unsubscribe`, whatever its namespace: the connection's subscriptions are one set (geth's
 * unsubscribeCb). A namespace with subscriptions lists it as its own `unsubscribe` (so faults and
 * call logs reach it there); any other namespace's is served by it too.
 */
export const unsubscribeMethod = method(positional([rpcId]), ([id], ctx) => unsubscribe(ctx, id as string));

/** The method of `name`'s own key in `methods`: `eth_constructor` or `eth___proto__` must not find Object.prototype's. */
const own = (methods: Record<string, MethodDef> | undefined, name: string): MethodDef | undefined =>
  methods && Object.hasOwn(methods, name) ? methods[name] : undefined;

/**
 * The method a name calls. As geth's handleCall: a name ending in `_subscribe` is its namespace's
 * subscription (`eth_x_subscribe` is eth's; refused as geth refuses it where the namespace serves
 * none), one ending in `_unsubscribe` ends any subscription.
 */
function findMethod(name: string, services: ReadonlyMap<string, ServiceDef>): MethodDef | undefined {
  const sep = name.indexOf('_');
  if (sep < 0) return undefined;
  const namespace = name.slice(0, sep);
  const methods = services.get(namespace)?.methods;
  // Made per call, as rare as a client's mistake; namespaces are the client's strings, not cached.
  if (name.endsWith('_subscribe')) return own(methods, 'subscribe') ?? method(raw, (params, ctx) => noSubscription(ctx, namespace, params));
  if (name.endsWith('_unsubscribe')) return own(methods, 'unsubscribe') ?? unsubscribeMethod;
  return own(methods, name.slice(sep + 1));
}

/**
 * The answer to one message, without its newline; null for a notification. `whole` (the body's only
 * message) lets a result already encoded (JsonBytes) be answered as the body's bytes, newline included.
 */
async function answerOne(msg: JsonValue, services: ReadonlyMap<string, ServiceDef>, ctx: CallContext, whole = false): Promise<string | Buffer[] | null> {
  if (!isJsonObject(msg)) {
    return errorMessage('null', -32600, 'invalid request');
  }
  const obj = msg;
  // The id is kept as raw JSON: `"id": null` is an id (the call is answered with it), an absent one
  // makes a notification, and an object or array is no valid id (hasValidID).
  const id = obj.id;
  const hasId = id !== undefined;
  if (hasId && !hasValidId(obj)) return errorMessage('null', -32600, 'invalid request');
  const idRaw = hasId ? rawOf(id) : 'null';
  // A response (isResponse) is for a call of the server's own, which it never makes: nothing answers it.
  if (isResponse(obj)) return null;
  if (obj.jsonrpc !== '2.0' || typeof obj.method !== 'string' || obj.method === '') return errorMessage(idRaw, -32600, 'invalid request');
  const def = findMethod(obj.method, services);
  if (!def) return hasId ? errorMessage(idRaw, -32601, `the method ${obj.method} does not exist/is not available`) : null;
  const outcome = await invoke(def, obj.params === null ? undefined : obj.params, ctx, (d, p) => (p === undefined ? d.params.zero() : d.params.decode(p)));
  if (!hasId) return null;
  if (outcome.ok && whole && outcome.result instanceof JsonBytes && !outcome.result.small)
    return [Buffer.from(`{"jsonrpc":"2.0","id":${idRaw},"result":`), ...outcome.result.pieces, RESULT_END];
  if (outcome.ok) return `{"jsonrpc":"2.0","id":${idRaw},"result":${outcome.result === undefined ? 'null' : goMarshal(outcome.result)}}`;
  if (outcome.kind === 'params') return errorMessage(idRaw, -32602, outcome.message);
  const { code = -32000, message, data } = outcome.error;
  const dataPart = data === undefined ? '' : `,"data":${goMarshal(data)}`;
  return `{"jsonrpc":"2.0","id":${idRaw},"error":{"code":${code},"message":${goMarshal(message)}${dataPart}}}`;
}

/** A valid id: present, and neither an object nor an array (hasValidID). */
const hasValidId = (o: JsonObject): boolean => o.id !== undefined && (o.id === null || typeof o.id !== 'object' || o.id instanceof RawNumber);

/** jsonrpcMessage.isResponse: version, a valid id, no method or params, a result or an error. */
function isResponse(o: JsonObject): boolean {
  return (
    o.jsonrpc === '2.0' &&
    hasValidId(o) &&
    (o.method === undefined || o.method === '') &&
    o.params === undefined &&
    (o.result !== undefined || o.error !== undefined)
  );
}

/** jsonrpcMessage.isCall: version, a valid id and a method. */
const isCall = (m: JsonValue): boolean => isJsonObject(m) && m.jsonrpc === '2.0' && hasValidId(m) && typeof m.method === 'string' && m.method !== '';

/** Ids are echoed as written; re-serialising a parsed value is enough outside of big numbers. */
function rawOf(v: JsonValue): string {
  return numberText(v) ?? goMarshal(v);
}

export const gethDialect: Dialect = {
  precheck(req: IncomingMessage): RpcResponse | undefined {
    if (req.method !== 'POST') return { status: 405, headers: TEXT_HEADERS, body: 'method not allowed\n' };
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      return { status: 415, headers: TEXT_HEADERS, body: 'invalid content type, only application/json is supported\n' };
    }
    return undefined;
  },

  tooLarge(limit: number): RpcResponse {
    return { status: 413, headers: TEXT_HEADERS, body: `content length too large (${limit} bytes at most)\n` };
  },

  responder(list: ServiceDef[]): Responder {
    const services = new Map(list.map((s) => [s.name, s]));
    return (body, ctx) => respond(body, services, ctx);
  },
};

/**
 * Answers a body. What does not decode is answered at once, not in a promise: a websocket stops
 * reading at it before its next message is taken (Client.read reads nothing after its error).
 */
function respond(body: Buffer, services: ReadonlyMap<string, ServiceDef>, ctx: CallContext): RpcResponse | Promise<RpcResponse> {
  // A websocket (a context that can notify) reads a stream: what ends it closes the connection.
  const socket = ctx.notify !== undefined;
  // An empty body is the end of the stream to geth's codec: nothing is answered.
  if (blank(body)) return { status: 200, headers: JSON_HEADERS, body: null, close: socket };
  let value: JsonValue;
  try {
    value = parseGoJson(body).value;
  } catch (err) {
    if (!(err instanceof GoJsonError)) throw err;
    if (socket) return unreadable(err);
    return { status: 200, headers: JSON_HEADERS, body: `${errorMessage('null', -32700, 'parse error')}\n` };
  }
  return answerParsed(value, services, ctx);
}

async function answerParsed(value: JsonValue, services: ReadonlyMap<string, ServiceDef>, ctx: CallContext): Promise<RpcResponse> {
  if (!Array.isArray(value)) {
    const one = await answerOne(value, services, ctx, true);
    return { status: 200, headers: JSON_HEADERS, body: one === null || typeof one !== 'string' ? one : `${one}\n` };
  }
  if (value.length === 0) return { status: 200, headers: JSON_HEADERS, body: `${errorMessage('null', -32600, 'empty batch')}\n` };
  // geth's BatchRequestLimit: a longer batch gets one error for the whole batch, in a batch, with the
  // id of its first call (respondWithBatchTooLarge).
  if (value.length > BATCH_LIMIT) {
    const first = value.find(isCall) as JsonObject | undefined;
    return { status: 200, headers: JSON_HEADERS, body: `[${errorMessage(first ? rawOf(first.id!) : 'null', -32600, 'batch too large')}]\n` };
  }
  // One call after another, as geth's handleBatch runs them: each sees what those before it did (a
  // send, then the pending nonce; evm_mine, then the block number). Answers in a batch are text
  // (only a body's only message may be bytes).
  const answers: string[] = [];
  for (const m of value) {
    const answer = await answerOne(m, services, ctx);
    if (typeof answer === 'string') answers.push(answer);
  }
  return { status: 200, headers: JSON_HEADERS, body: answers.length === 0 ? null : `[${answers.join(',')}]\n` };
}

/**
 * A websocket message that does not decode (Client.read): a syntax error is answered with
 * encoding/json's text and the connection closed; a message cut short closes it unanswered.
 */
function unreadable(err: GoJsonError): RpcResponse {
  const syntax = err.message !== 'EOF' && err.message !== 'unexpected EOF';
  return { status: 200, headers: JSON_HEADERS, body: syntax ? `${errorMessage('null', -32700, err.message)}\n` : null, close: true };
}

/** Whether a body is JSON whitespace only (it stops at the first other byte: the first, mostly). */
function blank(body: Buffer): boolean {
  for (const c of body) if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  return true;
}

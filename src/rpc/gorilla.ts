// avalanchego's JSON-RPC dialect: gorilla/rpc v2 json2 (v1.2.0) behind avalanchego's utils/json codec.
// Every error after parsing is HTTP 200 with code -32000; a batch is a parse error; a request without
// an id still runs but gets an empty body; method names are mangled ("svc.fooBar" -> "svc.FooBar").
import type { IncomingMessage } from 'node:http';
import { foldKey, goKind, goMarshal, parseGoJson, GoJsonError, type JsonObject, type JsonValue, type ParsedJson } from '../encoding/gojson.js';
import { invoke, type CallContext, type MethodDef, type Outcome, type ServiceDef } from './method.js';
import type { Dialect, Responder, RpcResponse } from './dialect.js';
import { goQuote } from '../encoding/goquote.js';

const E_PARSE = -32700;
const E_INVALID_REQ = -32600;
const E_SERVER = -32000;

const ERR_UPPERCASE = 'method must start with a non-uppercase letter';
export const ERR_INVALID_ARG = "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

const JSON_HEADERS = ['Content-Type', 'application/json; charset=utf-8'];
const JSON_NOSNIFF = [...JSON_HEADERS, 'X-Content-Type-Options', 'nosniff'];
const NOSNIFF = ['X-Content-Type-Options', 'nosniff'];
const NO_HEADERS: string[] = [];
const TEXT_HEADERS = ['Content-Type', 'text/plain; charset=utf-8'];

/** The request as gorilla decoded it; raw members stay raw JSON (json.RawMessage). */
interface Envelope {
  jsonrpc: string;
  method: string;
  params: string | null; // compacted raw JSON
  paramsValue: JsonValue | undefined;
  id: string | null; // compacted raw JSON
}

const emptyEnvelope = (): Envelope => ({ jsonrpc: '', method: '', params: null, paramsValue: undefined, id: null });

function envelopeData(env: Envelope): string {
  return `{"jsonrpc":${goMarshal(env.jsonrpc)},"method":${goMarshal(env.method)},"params":${env.params ?? 'null'},"id":${env.id ?? 'null'}}`;
}

function errorBody(code: number, message: string, data: string, id: string | null): string {
  return `{"jsonrpc":"2.0","error":{"code":${code},"message":${goMarshal(message)},"data":${data}},"id":${id ?? 'null'}}\n`;
}

/** Decodes the top-level object into the envelope the way json.Unmarshal fills serverRequest. */
function decodeEnvelope(parsed: ParsedJson): { env: Envelope; typeError?: string } {
  const env = emptyEnvelope();
  const { value } = parsed;
  if (value === null) return { env };
  if (typeof value !== 'object' || Array.isArray(value) || goKind(value) !== 'object') {
    return { env, typeError: `json: cannot unmarshal ${goKind(value)} into Go value of type json2.serverRequest` };
  }
  let typeError: string | undefined;
  const obj = value as JsonObject;
  for (const key of Object.keys(obj)) {
    // Clients write the members' names as they are: those need no folding.
    const lower = key === 'jsonrpc' || key === 'method' || key === 'params' || key === 'id' ? key : foldKey(key);
    const field = lower === 'jsonrpc' || lower === 'method' || lower === 'params' || lower === 'id' ? lower : undefined;
    if (!field) continue;
    const v = obj[key]!;
    if (field === 'jsonrpc' || field === 'method') {
      if (v === null) continue;
      if (typeof v !== 'string') {
        typeError ??= `json: cannot unmarshal ${goKind(v)} into Go struct field serverRequest.${field} of type string`;
        continue;
      }
      env[field] = v;
    } else {
      const raw = v === null ? null : parsed.raw(key);
      if (field === 'id') env.id = raw;
      else {
        env.params = raw;
        env.paramsValue = v === null ? undefined : v;
      }
    }
  }
  return typeError === undefined ? { env } : { env, typeError };
}

/** avalanchego's codec: upper-case the first letter of the function part. */
function mangle(method: string): { name: string; error?: string } {
  const dot = method.indexOf('.');
  if (dot < 0) return { name: method };
  const fn = method.slice(dot + 1);
  const first = String.fromCodePoint(fn.codePointAt(0) ?? 0xfffd);
  if (fn === '') return { name: method };
  if (first !== first.toLowerCase() && first === first.toUpperCase()) return { name: method, error: ERR_UPPERCASE };
  return { name: `${method.slice(0, dot)}.${first.toUpperCase()}${fn.slice(first.length)}` };
}

function capitalize(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Services by name, each with its methods under their Go (capitalized) names. */
type MethodTable = Map<string, Map<string, MethodDef>>;

function methodTable(services: ServiceDef[]): MethodTable {
  return new Map(services.map((s) => [s.name, new Map(Object.entries(s.methods).map(([name, def]) => [capitalize(name), def]))]));
}

type Resolved = { def: MethodDef } | { error: string };

const MAX_CACHED_NAME = 128;

/** mangle + lookup depend only on the method name, and clients repeat a few names: remember them. */
function resolver(table: MethodTable): (method: string) => Resolved {
  const cache = new Map<string, Resolved>();
  return (method) => {
    let hit = cache.get(method);
    if (hit === undefined) {
      const mangled = mangle(method);
      hit = mangled.error ? { error: mangled.error } : lookup(mangled.name, table);
      // Only names of a sensible length are kept: a client may send megabytes of method name.
      if (method.length <= MAX_CACHED_NAME) {
        if (cache.size >= 1024) cache.clear();
        cache.set(method, hit);
      }
    }
    return hit;
  };
}

/** gorilla's serviceMap.get over the mangled name. */
function lookup(mangled: string, table: MethodTable): Resolved {
  const parts = mangled.split('.');
  if (parts.length !== 2) return { error: `rpc: service/method request ill-formed: ${goQuote(mangled)}` };
  const service = table.get(parts[0]!);
  if (!service) return { error: `rpc: can't find service ${goQuote(mangled)}` };
  const def = service.get(parts[1]!);
  if (!def) return { error: `rpc: can't find method ${goQuote(mangled)}` };
  return { def };
}

/** gorilla decodes params into the args struct, then retries as a one-element array. */
function decodeParams(def: MethodDef, raw: JsonValue | undefined): unknown {
  if (raw === undefined) return def.params.zero();
  try {
    return def.params.decode(raw);
  } catch (err) {
    if (!Array.isArray(raw)) throw err;
    const first = raw[0];
    return first === undefined || first === null ? def.params.zero() : def.params.decode(first);
  }
}

export const gorillaDialect: Dialect = {
  precheck(req: IncomingMessage): RpcResponse | undefined {
    if (req.method !== 'POST') {
      return { status: 405, headers: TEXT_HEADERS, body: `rpc: POST method required, received ${req.method}` };
    }
    const header = req.headers['content-type'] ?? '';
    const semi = header.indexOf(';');
    const type = semi === -1 ? header : header.slice(0, semi);
    if (type.toLowerCase() !== 'application/json') {
      return { status: 415, headers: TEXT_HEADERS, body: `rpc: unrecognized Content-Type: ${type}` };
    }
    return undefined;
  },

  tooLarge(limit: number): RpcResponse {
    // Go's http.MaxBytesReader error surfaces through the decoder as a parse error.
    return {
      status: 200,
      headers: JSON_HEADERS,
      body: errorBody(E_PARSE, `http: request body too large (limit ${limit} bytes)`, envelopeData(emptyEnvelope()), null),
    };
  },

  responder(services: ServiceDef[]): Responder {
    const resolve = resolver(methodTable(services));
    return (body, ctx) => respond(body, resolve, ctx);
  },
};

function respond(body: Buffer, resolve: (method: string) => Resolved, ctx: CallContext): RpcResponse | Promise<RpcResponse> {
  let parsed: ParsedJson;
  try {
    parsed = parseGoJson(body);
  } catch (err) {
    if (!(err instanceof GoJsonError)) throw err;
    return { status: 200, headers: JSON_HEADERS, body: errorBody(E_PARSE, err.message, envelopeData(emptyEnvelope()), null) };
  }
  const { env, typeError } = decodeEnvelope(parsed);
  if (typeError !== undefined) {
    // Parse errors are answered even without an id.
    return { status: 200, headers: JSON_HEADERS, body: errorBody(E_PARSE, typeError, envelopeData(env), env.id) };
  }
  if (env.jsonrpc !== '2.0') return replyTo(env.id, errorBody(E_INVALID_REQ, 'jsonrpc must be 2.0', envelopeData(env), env.id));

  const found = resolve(env.method);
  if ('error' in found) return replyTo(env.id, errorBody(E_SERVER, found.error, 'null', env.id));

  const outcome = invoke(found.def, env.paramsValue, ctx, decodeParams);
  return outcome instanceof Promise ? outcome.then((o) => answer(env.id, o)) : answer(env.id, outcome);
}

/** The reply to a request with this id: none for a notification (no id). */
function replyTo(id: string | null, text: string, dispatched = false): RpcResponse {
  if (id === null) return { status: 200, headers: dispatched ? NOSNIFF : NO_HEADERS, body: null };
  return { status: 200, headers: dispatched ? JSON_NOSNIFF : JSON_HEADERS, body: text };
}

/** The reply to a dispatched call. */
function answer(id: string | null, outcome: Outcome): RpcResponse {
  if (!outcome.ok && outcome.kind === 'params') return replyTo(id, errorBody(E_SERVER, ERR_INVALID_ARG, 'null', id));
  if (!outcome.ok) return replyTo(id, errorBody(E_SERVER, outcome.error.message, 'null', id), true);
  return replyTo(id, `{"jsonrpc":"2.0","result":${goMarshal(outcome.result)},"id":${id}}\n`, true);
}

// The fuzzer's shared primitives (test/support/fuzz.ts and its fuzz-*.ts families use them): the
// seeded PRNG, raw JSON text, the families' names and the request a generator returns.
//
// Every request is generated from its own PRNG, seeded by (seed, index): see fuzz.ts.

// PRNG: splitmix32 seeding xoshiro128**.

function splitmix32(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream = 0) {
    const sm = splitmix32((seed ^ Math.imul(stream + 1, 0x9e3779b1)) | 0);
    sm();
    this.a = sm() | 1;
    this.b = sm();
    this.c = sm();
    this.d = sm();
  }

  u32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  float(): number {
    return this.u32() / 4294967296;
  }

  /** 0 <= x < n */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** lo <= x <= hi */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** Log-uniform integer in [lo, hi]. */
  logInt(lo: number, hi: number): number {
    return Math.min(hi, Math.floor(Math.exp(Math.log(lo) + this.float() * (Math.log(hi + 1) - Math.log(lo)))));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let x = this.float() * total;
    for (const [item, w] of items) {
      x -= w;
      if (x < 0) return item;
    }
    return items[items.length - 1]![0];
  }

  bytes(n: number): Buffer {
    const out = Buffer.allocUnsafe(n);
    let i = 0;
    for (; i + 4 <= n; i += 4) out.writeUInt32LE(this.u32(), i);
    for (; i < n; i++) out[i] = this.u32() & 0xff;
    return out;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** FUZZ_SEED (decimal, 0x-hex, or any text, hashed) or the fixed default. */
export function seedFromEnv(env: NodeJS.ProcessEnv, fallback = 20261122): number {
  const text = env.FUZZ_SEED?.trim();
  if (!text) return fallback;
  if (/^\d+$/.test(text)) return Number(BigInt(text) & 0xffffffffn);
  if (/^0x[0-9a-f]+$/i.test(text)) return Number(BigInt(text) & 0xffffffffn);
  let h = 0x811c9dc5;
  for (const ch of Buffer.from(text, 'utf8')) h = Math.imul(h ^ ch, 0x01000193);
  return h >>> 0;
}

// =============================================================================================
// Raw JSON text: what is sent is text (or bytes), never a JS object, so duplicate keys, huge
// numbers and lone surrogates survive.

export const q = (s: string): string => JSON.stringify(s);

/** A raw JSON object member. `key` is a JSON string literal (maybe with escapes). */
export interface Entry {
  key: string;
  value: string;
}

export const member = (key: string, value: string): Entry => ({ key: q(key), value });
export const objText = (entries: Entry[]): string => `{${entries.map((e) => `${e.key}:${e.value}`).join(',')}}`;

export const decodeKey = (raw: string): string | undefined => {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return undefined;
  }
};

// =============================================================================================
// Families and requests.

export const FAMILIES = [
  // The node's own APIs (avalanchego's gorilla dialect), X- and P-Chain included: fuzz.ts.
  'rpc-call',
  'param-types',
  'envelope',
  'deep-nesting',
  'long-strings',
  'bad-bytes',
  'http',
  'paths',
  'rest',
  'tx-mutation',
  'admin-hostile',
  // The EVM chains (C and the L1) in geth's dialect: fuzz-evm.ts.
  'evm-call',
  'evm-params',
  'evm-envelope',
  'evm-tx',
  'evm-dev',
  // The Data API (/v1) and the Metrics API (/v2, /v1/avg_tps): fuzz-rest.ts.
  'data-api',
  'metrics-api',
  // Websockets (/ext/bc/C/ws, /ext/bc/myl1/ws): messages and malformed frames, fuzz-ws.ts.
  'ws',
] as const;
export type Family = (typeof FAMILIES)[number];

/** A valid EVM tx, signed at send time with test account 0's key and its pending nonce then (see fuzz-evm.ts). */
export interface EvmTxTemplate {
  chain: EvmChainName;
  type: 'legacy' | 'eip2930' | 'eip1559';
  /** Hex address; absent for a contract creation. */
  to?: `0x${string}`;
  value: bigint;
  data: `0x${string}`;
  gas: bigint;
  /** The tip (EIP-1559) or what a legacy/2930 gas price adds to the fee cap. */
  tip: bigint;
}

export type EvmChainName = 'C' | 'myl1';

/** One thing a websocket session writes after the handshake (see fuzz-ws.ts). */
export interface WsStep {
  /** Bytes written as they are (hand-made frames, possibly malformed). */
  raw?: Buffer;
  /** A message framed at send time (masked, as a client must); `$SUB` becomes the last subscription ID. */
  message?: string;
  binary?: boolean;
  /** Split the message over this many frames (a text/binary frame and continuations). */
  fragments?: number;
  /** The answers this step must get (JSON-RPC replies, or a pong for a ping). */
  replies: number;
  /** Wait this long after writing the step (ms). */
  pauseMs?: number;
}

/** A websocket session: a handshake, then steps; judged by what the node must do. */
export interface WsScript {
  path: string;
  /** The upgrade request's extra or replacing header lines (odd handshakes). */
  handshake: Record<string, string | null>;
  /** The handshake must be refused with an HTTP status (a 4xx), not upgraded. */
  refused?: boolean;
  steps: WsStep[];
  /** RFC 6455's close codes that apply when the node must close the connection; absent: it must answer. */
  closeCodes?: number[];
  /** The case's name, for the close-code table. */
  kind: string;
}

export interface FuzzRequest {
  index: number;
  family: Family;
  /** A short description for reports. */
  note: string;
  method: string;
  /** The raw request target. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body in pieces (Transfer-Encoding: chunked). */
  chunked?: boolean;
  /** The envelope's effective id is non-null (true), null or absent (false), or unknowable (undefined). */
  hasId?: boolean;
  /** The effective JSON-RPC method, when known. */
  rpcMethod?: string;
  /** The effective id's raw JSON, when it is known and non-null: the reply must echo it. */
  idRaw?: string;
  /** The server may close the connection before it reads the whole body (bodies over its limit). */
  mayReset?: boolean;
  /** Force the JSON-RPC expectation on or off (odd Host headers, route headers). */
  expectRpc?: boolean;
  /** admin.alias / admin.aliasChain: the route this alias would occupy. */
  aliasRoute?: string;
  /** The route speaks geth's dialect (the EVM chains' /rpc): batches allowed, replies may be arrays. */
  dialect?: 'geth';
  /** A REST request of the Data API or the Metrics API: no 5xx, and a 4xx carries the API's error body. */
  restApi?: 'data' | 'metrics';
  /** A valid EVM tx to sign when it is sent (the body is made then). */
  evmTx?: EvmTxTemplate;
  /** The hash of the mutated signed EVM tx in the body: it must never be accepted, nor mined. */
  mutatedEvmTx?: string;
  /** A websocket session instead of an HTTP request. */
  ws?: WsScript;
}

export const JSON_CT = { 'content-type': 'application/json' };

export type ProblemKind = '5xx' | 'hang' | 'invalid-reply' | 'connection' | 'tx-accepted' | 'rest-body' | 'ws-hang' | 'ws-protocol';
export const PROBLEM_KINDS: readonly ProblemKind[] = ['5xx', 'hang', 'invalid-reply', 'connection', 'tx-accepted', 'rest-body', 'ws-hang', 'ws-protocol'];

export interface Problem {
  kind: ProblemKind;
  index: number;
  family: Family;
  note: string;
  detail: string;
}

/** jsonrpc "2.0", exactly one of result/error, an error with a numeric code and a string message, an id member. */
export function rpcObjectError(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'not a JSON object';
  const o = v as Record<string, unknown>;
  if (o.jsonrpc !== '2.0') return `jsonrpc is ${JSON.stringify(o.jsonrpc)}`;
  if ('result' in o === 'error' in o) return 'needs exactly one of result and error';
  if (!('id' in o)) return 'no id member';
  if ('error' in o) {
    const e = o.error as Record<string, unknown> | null;
    if (e === null || typeof e !== 'object' || Array.isArray(e)) return 'error is not an object';
    if (typeof e.code !== 'number' || !Number.isInteger(e.code)) return `error code ${JSON.stringify(e.code)}`;
    if (typeof e.message !== 'string') return 'error message is not a string';
  }
  return undefined;
}

/** A geth-dialect reply: one reply object, or (to a batch) a non-empty array of them. */
export function gethReplyError(text: string): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return `not JSON: ${(err as Error).message}`;
  }
  if (!Array.isArray(v)) return rpcObjectError(v);
  if (v.length === 0) return 'an empty array';
  for (const [i, item] of v.entries()) {
    const bad = rpcObjectError(item);
    if (bad) return `batch reply ${i}: ${bad}`;
  }
  return undefined;
}

export const snippet = (b: Buffer | undefined): string => {
  const s = (b ?? Buffer.alloc(0)).subarray(0, 200).toString('utf8').replace(/\s+/g, ' ');
  return b && b.length > 200 ? `${s}... (${b.length} bytes)` : s;
};

/** JSON-RPC ids of every JSON type, for the envelopes of every dialect. */
export const ID_VALUES = [
  '1',
  '0',
  '-1',
  '1.5',
  '1e400',
  '18446744073709551616',
  '"1"',
  '""',
  '"x"',
  'true',
  'false',
  '[]',
  '[1]',
  '{}',
  '{"a":1}',
  '[null]',
  '"\\u0000"',
  '"\\ud800"',
  '{"__proto__":{"x":1}}',
  '9007199254740993',
  '-0',
  '"😀"',
];

// Every request the explorer makes goes to the node that served it (location.origin): the Data API
// (/v1), the Metrics API (/v2) and the chains' JSON-RPC endpoints (/ext/...). Amounts above 2^53 in
// avalanchego's JSON are read exactly, as bigints.

export const ORIGIN = location.origin;
/** A request the node has not answered by then fails (a stalled chain must not stall the page's polling). */
const TIMEOUT_MS = 15_000;

/** Where the explorer is mounted: /explorer, whatever page it was opened on. */
export const BASE = (() => {
  const i = location.pathname.indexOf('/explorer');
  return i < 0 ? '/explorer' : location.pathname.slice(0, i + '/explorer'.length);
})();

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status = 0,
    /** A JSON-RPC error's data (a revert's return data). */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;
const exact: Reviver = (_key, value, context) =>
  typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined && /^-?\d+$/.test(context.source) ? BigInt(context.source) : value;

export function parseJson(text: string): any {
  return JSON.parse(text, exact as (key: string, value: unknown) => unknown);
}

/** GET a Data or Metrics API path; rejects with the API's message on an error status. */
export async function getJson(path: string): Promise<any> {
  const res = await fetch(ORIGIN + path, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  const text = await res.text();
  let body: any;
  try {
    body = text === '' ? undefined : parseJson(text);
  } catch {
    // A plain-text error (the router's 404 when the Data API is off).
    if (res.ok) throw new ApiError(`not JSON: ${text.slice(0, 80)}`, res.status);
  }
  if (!res.ok) {
    const msg = body?.message;
    throw new ApiError(Array.isArray(msg) ? msg.join(', ') : String(msg ?? `${res.status} ${res.statusText}`), res.status);
  }
  return body;
}

let nextId = 1;

/** One JSON-RPC call; rejects with the node's error message. */
/** POSTs `payload` as JSON and parses the answer; an answer that is not JSON is an HTTP error (a fault injected on the route, a proxy's page). */
async function postJson(path: string, payload: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(ORIGIN + path, {
    signal: AbortSignal.timeout(TIMEOUT_MS),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: parseJson(text) };
  } catch {
    throw new ApiError(`${res.status} ${res.statusText}${text.trim() ? `: ${text.trim().slice(0, 120)}` : ''}`, res.status);
  }
}

export async function rpc(path: string, method: string, params: unknown = {}): Promise<any> {
  const { status, body } = await postJson(path, { jsonrpc: '2.0', id: nextId++, method, params });
  if (body?.error) throw new ApiError(String(body.error.message), status, body.error.data);
  return body.result;
}

/** Like rpc, undefined instead of an error. */
export async function tryRpc(path: string, method: string, params: unknown = {}): Promise<any> {
  try {
    return await rpc(path, method, params);
  } catch {
    return undefined;
  }
}

/** A batch of EVM calls in one request (geth's dialect); a failed call gives undefined. */
export async function evmBatch(path: string, calls: Array<[string, unknown[]]>): Promise<any[]> {
  if (calls.length === 0) return [];
  const first = nextId;
  nextId += calls.length;
  const { status, body } = await postJson(
    path,
    calls.map(([method, params], i) => ({ jsonrpc: '2.0', id: first + i, method, params })),
  );
  if (!Array.isArray(body)) throw new ApiError(String(body?.error?.message ?? 'batch refused'), status);
  const byId = new Map<number, any>(body.map((r: any) => [r.id, r.result]));
  return calls.map((_, i) => byId.get(first + i) ?? undefined);
}

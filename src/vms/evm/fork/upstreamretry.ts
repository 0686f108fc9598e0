// Which upstream failures are worth sending again, how long to wait first, and how fast to send at
// all. Learnt from Anvil, whose fork provider is alloy's RetryBackoffLayer with its
// RateLimitRetryPolicy (alloy crates/transport/src/layers/retry.rs and error.rs,
// crates/json-rpc/src/response/error.rs); where this differs, the comment says why.

/** A JSON-RPC error object as the upstream sent it. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export function isRpcErrorObject(value: unknown): value is RpcErrorObject {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as Record<string, unknown>;
  return typeof code === 'number' && typeof message === 'string';
}

/** Messages hosted RPCs use for "slow down" (alloy's ErrorPayload::is_retry_err), matched in lower case. */
const RATE_LIMIT_WORDS = ['rate limit', 'rate exceeded', 'too many requests', 'credits limited', 'request limit', 'maximum number of concurrent requests'];

/**
 * Whether a JSON-RPC error means the upstream is throttling us, by alloy's list of provider codes
 * (Alchemy 429, Infura -32005, QuickNode -32007/-32012, Cloudflare -32055, ...) and words. Unlike
 * alloy, `header not found` is not here: Infura's load balancers sent it spuriously, but from coreth
 * and Subnet-EVM it means the block is not there (a pruned or lagging node), and asking again
 * only spends the upstream's budget.
 */
export function isRateLimited(error: RpcErrorObject): boolean {
  const { code } = error;
  const message = error.message.toLowerCase();
  if (code === 429 || code === -32005 || code === -32055 || code === 1008) return true;
  if (code === -32016 && message.includes('rate limit')) return true;
  if (code === -32012 && message.includes('credits')) return true;
  if (code === -32007 && message.includes('request limit reached')) return true;
  if (message === 'daily request count exceeded, request rate limited') return true;
  return RATE_LIMIT_WORDS.some((w) => message.includes(w));
}

/**
 * Whether an HTTP status is worth another try. alloy retries 429 and 503, and any error status that
 * came with a Retry-After; 500, 502 and 504 are added here because load balancers in front of public
 * RPCs answer them for a node that is restarting or overloaded. 501 (Not Implemented) will not change.
 */
export function retryableStatus(status: number, hasRetryAfter: boolean): boolean {
  if (status === 429 || status === 408) return true;
  if (status >= 500 && status !== 501) return true;
  return hasRetryAfter && status >= 400;
}

/** A Retry-After header (delta-seconds or an HTTP-date) in milliseconds from now, if it parses. */
export function parseRetryAfter(header: string | undefined, nowMs = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** A wait the JSON-RPC error asks for: Infura's data.rate.backoff_seconds, or "try again in 4ms" (as alloy reads them). */
export function rpcBackoffHint(error: RpcErrorObject): number | undefined {
  const rate = (error.data as { rate?: { backoff_seconds?: unknown } } | undefined)?.rate;
  if (typeof rate?.backoff_seconds === 'number') return rate.backoff_seconds * 1000;
  const m = /try again in (\d+)\s*(ms|s)\b/.exec(error.message);
  if (!m) return undefined;
  return Number(m[1]) * (m[2] === 'ms' ? 1 : 1000);
}

/**
 * The wait before retry number `retry` (1 for the first). A hint from the upstream wins, as in alloy.
 * Otherwise it doubles from `baseMs`: alloy waits the same `initial_backoff` each time, but a
 * throttling public RPC is better left alone longer each time it says no.
 */
export function backoffMs(retry: number, baseMs: number, capMs: number, hintMs?: number): number {
  const wait = hintMs ?? baseMs * 2 ** (retry - 1);
  return Math.min(Math.max(0, wait), capMs);
}

/**
 * Whether an error in reply to a batch is about the batch itself: coreth answers a batch over its
 * batch-request-limit with one `batch too large` (-32600) error; other providers say batches are
 * not supported. `too-large` means try smaller batches, `refused` means send calls one by one.
 */
export function batchTrouble(error: RpcErrorObject): 'too-large' | 'refused' | undefined {
  const message = error.message.toLowerCase();
  if (!message.includes('batch')) return undefined;
  return /too large|too many|limit|exceed|size/.test(message) ? 'too-large' : 'refused';
}

/**
 * Whether a batch element failed because of its companions: coreth stops a batch whose replies pass
 * batch-response-max-size (-32003 `response too large`) or its time budget (-32002 `request timed
 * out`), and answers every call left with that error. Alone, such a call may well succeed.
 */
export function failedForItsBatch(error: RpcErrorObject): boolean {
  return (error.code === -32003 && error.message === 'response too large') || (error.code === -32002 && error.message === 'request timed out');
}

/**
 * Anvil's `--compute-units-per-second` as a token bucket holding one second's budget. alloy charges
 * every request the same `DEFAULT_AVG_COST` (20 CU) and only uses the budget to lengthen its waits
 * after a rate-limit error; here it also paces calls before the upstream has to say no, and each
 * call in a batch is charged, as Alchemy bills batches per call.
 */
export class ComputeUnits {
  private units: number;
  private at: number;
  private readonly capacity: number;
  constructor(
    private readonly perSecond: number,
    private readonly cost: number,
    now: number,
  ) {
    this.capacity = Math.max(perSecond, cost);
    this.units = this.capacity;
    this.at = now;
  }

  get unlimited(): boolean {
    return this.perSecond === 0 || !Number.isFinite(this.perSecond);
  }

  /** How many calls the budget allows now. */
  affordable(now: number): number {
    if (this.unlimited) return Number.POSITIVE_INFINITY;
    this.refill(now);
    return Math.floor(this.units / this.cost);
  }

  /** Milliseconds until one more call is affordable. */
  waitMs(now: number): number {
    if (this.unlimited) return 0;
    this.refill(now);
    return this.units >= this.cost ? 0 : ((this.cost - this.units) / this.perSecond) * 1000;
  }

  spend(calls: number, now: number): void {
    if (this.unlimited) return;
    this.refill(now);
    this.units -= calls * this.cost;
  }

  private refill(now: number): void {
    this.units = Math.min(this.capacity, this.units + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
  }
}

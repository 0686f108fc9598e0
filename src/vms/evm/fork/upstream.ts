// The client a fork reads its upstream through (`--fork-url`: a coreth C-Chain or a Subnet-EVM L1).
// A fork asks for thousands of small things (balances, code, slots, proofs) and public RPCs throttle,
// so it is courteous: calls made together go out as one JSON-RPC batch, only so many HTTP requests
// are in flight, calls are paced by Anvil's compute-unit budget, and a "slow down" from the upstream
// is waited out (as long as it asks) rather than answered with more requests.
import { displayUrl, oneLine, scrub, secretsOf, UpstreamError } from './upstreamerror.js';
import { HttpPoster, TransportFailure } from './upstreamhttp.js';
import { type Answer, type Failure, judge, MISSING, type Verdict } from './upstreamreply.js';
import { backoffMs, ComputeUnits } from './upstreamretry.js';

export { UpstreamError, type UpstreamErrorKind } from './upstreamerror.js';

/** Anvil's `--retries`: foundry crates/anvil/src/config.rs, `fork_request_retries: 5`. Retries after the first try. */
export const DEFAULT_RETRIES = 5;
/** Anvil's `--fork-retry-backoff`: crates/anvil/src/config.rs, `fork_retry_backoff: Duration::from_millis(1_000)`. */
export const DEFAULT_RETRY_BACKOFF_MS = 1_000;
/** Anvil's `--timeout`: crates/common/src/constants.rs, `REQUEST_TIMEOUT` (45 s). */
export const DEFAULT_TIMEOUT_MS = 45_000;
/** Anvil's `--compute-units-per-second`: crates/common/src/constants.rs, `ALCHEMY_FREE_TIER_CUPS`. 0 or Infinity: no limit. */
export const DEFAULT_COMPUTE_UNITS_PER_SECOND = 330;
/** What one call costs: alloy crates/transport/src/layers/retry.rs, `DEFAULT_AVG_COST` (Anvil's provider). */
export const COMPUTE_UNITS_PER_CALL = 20;
/** The longest wait honoured, asked or computed: alloy crates/transport/src/error.rs, `MAX_BACKOFF_HINT` (5 min). */
export const MAX_BACKOFF_MS = 300_000;
/** Ours: coreth's batch-request-limit defaults to 1,000; 50 keeps each reply small and quick. */
export const DEFAULT_MAX_BATCH = 50;
/** Ours: alloy's RetryBackoffLayer (Anvil's) puts no cap on requests in flight; a few connections are what public RPCs tolerate. */
export const DEFAULT_MAX_CONCURRENT = 8;
/** Ours: past this many calls waiting, the upstream cannot keep up, and waiting longer only uses memory. */
export const DEFAULT_MAX_QUEUE = 10_000;

export interface UpstreamOptions {
  /** http:// or https://; userinfo is sent as Basic auth and, like the path and query, never shown. */
  url: string;
  retries?: number;
  retryBackoffMs?: number;
  timeoutMs?: number;
  computeUnitsPerSecond?: number;
  maxBatch?: number;
  maxConcurrent?: number;
  maxQueue?: number;
  maxBackoffMs?: number;
  /** Extra request headers (Anvil's `--fork-header`), e.g. an API key. */
  headers?: Record<string, string>;
}

export interface UpstreamStats {
  /** HTTP requests sent, retries included: what a bench compares with Anvil's. */
  httpRequests: number;
  /** call()s made. */
  calls: number;
  /** Calls sent again after a failure worth retrying (a batch of 10 retried counts 10). */
  retries: number;
  /** HTTP requests that carried a batch (more than one call). */
  batches: number;
}

interface Pending {
  id: number;
  method: string;
  body: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  retries: number;
  /** To be sent on its own: it failed only because of the batch it was in. */
  alone: boolean;
}

type Settings = Required<Omit<UpstreamOptions, 'url' | 'headers'>>;

export class Upstream {
  /** The upstream as messages name it: its origin, without credentials, path or query. */
  readonly origin: string;
  private readonly secrets: string[];
  private readonly settings: Settings;
  private readonly http: HttpPoster;
  private readonly budget: ComputeUnits;
  private readonly queue: Pending[] = [];
  private readonly unsettled = new Map<number, Pending>();
  private readonly counts: UpstreamStats = { httpRequests: 0, calls: 0, retries: 0, batches: 0 };
  private nextId = 1;
  private inFlight = 0;
  private batchLimit: number;
  private pausedUntil = 0;
  private scheduled = false;
  private wake: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(opts: UpstreamOptions) {
    const url = parseUrl(opts.url);
    this.origin = displayUrl(url);
    this.secrets = secretsOf(url);
    this.settings = settingsOf(opts);
    this.batchLimit = this.settings.maxBatch;
    this.http = new HttpPoster(url, this.settings.maxConcurrent, opts.headers ?? {});
    this.budget = new ComputeUnits(this.settings.computeUnitsPerSecond, COMPUTE_UNITS_PER_CALL, performance.now());
  }

  get stats(): UpstreamStats {
    return { ...this.counts };
  }

  /** Calls per HTTP request now: maxBatch, less after `batch too large`, 1 once the upstream refused batches. */
  get batchSize(): number {
    return this.batchLimit;
  }

  call<T = unknown>(method: string, params: unknown[]): Promise<T> {
    this.counts.calls++;
    if (this.closed) return Promise.reject(this.error(method, { kind: 'unreachable', detail: 'the client is closed', retry: false }));
    const { maxQueue } = this.settings;
    if (this.queue.length >= maxQueue) {
      return Promise.reject(
        this.error(method, { kind: 'unreachable', detail: `${maxQueue} calls are already waiting; the upstream cannot keep up`, retry: false }),
      );
    }
    const id = this.nextId++;
    let body: string;
    try {
      // Serialised now, so a call whose params cannot be (a bigint) fails alone rather than its batch.
      body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<T>((resolve, reject) => {
      const call: Pending = { id, method, body, resolve: resolve as (value: unknown) => void, reject, retries: 0, alone: false };
      this.unsettled.set(id, call);
      this.queue.push(call);
      this.schedule();
    });
  }

  /** Rejects every call not yet answered, aborts requests in flight and closes the sockets. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.wake);
    this.queue.length = 0;
    for (const call of [...this.unsettled.values()]) {
      this.settle(call, this.error(call.method, { kind: 'unreachable', detail: 'the client was closed before the upstream answered', retry: false }));
    }
    this.http.destroy();
  }

  /** Pumps once the current tick is over, so calls made together go out together. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (!this.closed && this.queue.length > 0 && this.inFlight < this.settings.maxConcurrent) {
      const now = performance.now();
      const wait = Math.max(this.pausedUntil - now, this.budget.waitMs(now));
      if (wait > 0) return this.wakeIn(wait);
      const calls = this.take(this.budget.affordable(now));
      this.budget.spend(calls.length, now);
      this.inFlight++;
      this.send(calls)
        .catch((err: unknown) => {
          for (const call of calls) this.settle(call, this.error(call.method, { kind: 'invalid', detail: String(err), retry: false }));
        })
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }

  private wakeIn(ms: number): void {
    clearTimeout(this.wake);
    this.wake = setTimeout(() => {
      this.wake = undefined;
      this.pump();
    }, Math.ceil(ms));
  }

  /** The next calls for one HTTP request: as many as the batch size and the budget allow. */
  private take(affordable: number): Pending[] {
    const calls = [this.queue.shift()!];
    if (calls[0]!.alone) return calls;
    const max = Math.min(this.batchLimit, affordable);
    while (calls.length < max && this.queue.length > 0 && !this.queue[0]!.alone) calls.push(this.queue.shift()!);
    return calls;
  }

  private async send(calls: Pending[]): Promise<void> {
    const body = calls.length === 1 ? calls[0]!.body : `[${calls.map((c) => c.body).join(',')}]`;
    this.counts.httpRequests++;
    if (calls.length > 1) this.counts.batches++;
    let verdict: Verdict;
    try {
      verdict = judge(
        calls.map((c) => c.id),
        await this.http.post(body, this.settings.timeoutMs),
      );
    } catch (err) {
      if (!(err instanceof TransportFailure)) throw err;
      verdict = { kind: 'all', failure: { kind: err.kind, detail: err.message, retry: err.retry } };
    }
    if (!this.closed) this.apply(calls, verdict);
  }

  private apply(calls: Pending[], verdict: Verdict): void {
    let again: Pending[];
    if (verdict.kind === 'batch') {
      // Calls refused with their batch were never run: they go again at no cost to their retries.
      // min: batches still in flight when the first refusal came must not raise the limit again.
      const limit = verdict.trouble === 'refused' ? 1 : Math.max(1, Math.floor(calls.length / 2));
      this.batchLimit = Math.min(this.batchLimit, limit);
      again = calls;
    } else if (verdict.kind === 'all') {
      again = calls.filter((call) => this.failed(call, verdict.failure));
    } else {
      again = calls.filter((call, i) => this.answered(call, verdict.answers[i]));
    }
    this.queue.unshift(...again);
  }

  /** Settles the call by its answer; true if it is to be sent again. */
  private answered(call: Pending, answer: Answer | undefined): boolean {
    if (answer === undefined) return this.failed(call, MISSING);
    if ('alone' in answer) {
      call.alone = true;
      return true;
    }
    if ('failure' in answer) return this.failed(call, answer.failure);
    this.settle(call, undefined, answer.result);
    return false;
  }

  /** Rejects the call, or counts a retry and holds every call back for its backoff; true if it is to be sent again. */
  private failed(call: Pending, failure: Failure): boolean {
    const { retries, retryBackoffMs, maxBackoffMs } = this.settings;
    if (!failure.retry || call.retries >= retries) {
      this.settle(call, this.error(call.method, failure, failure.retry ? call.retries : undefined));
      return false;
    }
    call.retries++;
    this.counts.retries++;
    // Everyone waits, not only this call: an upstream that said "slow down" means all of us.
    const wait = backoffMs(call.retries, retryBackoffMs, maxBackoffMs, failure.hintMs);
    this.pausedUntil = Math.max(this.pausedUntil, performance.now() + wait);
    return true;
  }

  private settle(call: Pending, error: Error | undefined, result?: unknown): void {
    if (!this.unsettled.delete(call.id)) return;
    if (error) call.reject(error);
    else call.resolve(result);
  }

  /** `fork upstream <origin>: <method> failed: <why>`, one line, credentials scrubbed. */
  private error(method: string, failure: Failure, gaveUpAfter?: number): UpstreamError {
    const detail = oneLine(scrub(failure.detail, this.secrets));
    const tail = gaveUpAfter ? ` (gave up after ${gaveUpAfter} ${gaveUpAfter === 1 ? 'retry' : 'retries'})` : '';
    const data = typeof failure.data === 'string' ? scrub(failure.data, this.secrets) : failure.data;
    return new UpstreamError(`fork upstream ${this.origin}: ${method} failed: ${detail}${tail}`, { kind: failure.kind, code: failure.code, data });
  }
}

const MAX_TIMER_MS = 2 ** 31 - 1;

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError('fork upstream: the URL does not parse (expected http://… or https://…)');
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  const what = url.protocol === 'ws:' || url.protocol === 'wss:' ? 'WebSocket upstreams are' : `${url.protocol} URLs are`;
  throw new TypeError(`fork upstream: ${what} not supported; give the endpoint's http:// or https:// URL`);
}

function settingsOf(opts: UpstreamOptions): Settings {
  const settings: Settings = {
    retries: opts.retries ?? DEFAULT_RETRIES,
    retryBackoffMs: opts.retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    computeUnitsPerSecond: opts.computeUnitsPerSecond ?? DEFAULT_COMPUTE_UNITS_PER_SECOND,
    maxBatch: opts.maxBatch ?? DEFAULT_MAX_BATCH,
    maxConcurrent: opts.maxConcurrent ?? DEFAULT_MAX_CONCURRENT,
    maxQueue: opts.maxQueue ?? DEFAULT_MAX_QUEUE,
    maxBackoffMs: opts.maxBackoffMs ?? MAX_BACKOFF_MS,
  };
  for (const [name, value] of Object.entries(settings)) {
    const least = ['maxBatch', 'maxConcurrent', 'maxQueue', 'timeoutMs'].includes(name) ? 1 : 0;
    // Node fires a timer longer than 2^31 - 1 ms at once, so waits must stay below that.
    const most = ['timeoutMs', 'retryBackoffMs', 'maxBackoffMs'].includes(name) ? MAX_TIMER_MS : Number.POSITIVE_INFINITY;
    const integer = ['retries', 'maxConcurrent'].includes(name);
    if (!(value >= least && value <= most) || (integer && !Number.isInteger(value))) {
      throw new RangeError(`fork upstream: ${name} must be ${integer ? 'an integer ' : ''}from ${least} to ${most}, not ${value}`);
    }
  }
  return settings;
}

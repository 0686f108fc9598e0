// avalanchego api/health: named checks with tags, run together by a worker; each keeps its last
// result, its run of consecutive failures and the time the run began.
import { formatRFC3339Nano, GO_ZERO_TIME, nowNs } from '../encoding/time.js';

export interface CheckOutcome {
  details?: unknown;
  error?: string;
}

export type CheckFn = () => CheckOutcome | Promise<CheckOutcome>;

export const APPLICATION_TAG = 'application';
const ALL_TAG = 'all';

interface Result {
  details: unknown;
  error: string | undefined;
  timestamp: bigint | undefined;
  duration: bigint;
  contiguousFailures: number;
  timeOfFirstFailure: bigint | undefined;
}

interface Check {
  name: string;
  tags: string[];
  fn: CheckFn;
  result: Result;
}

export class HealthError extends Error {}

const notYetRun = (): Result => ({
  details: undefined,
  error: 'not yet run',
  timestamp: undefined,
  duration: 0n,
  contiguousFailures: 0,
  timeOfFirstFailure: undefined,
});

/** The JSON of one result, in Go's field order with its omitempty rules. */
function resultJson(r: Result): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (r.details !== undefined && r.details !== null) out.message = r.details;
  if (r.error !== undefined) out.error = r.error;
  out.timestamp = r.timestamp === undefined ? GO_ZERO_TIME : formatRFC3339Nano(r.timestamp);
  out.duration = Number(r.duration);
  if (r.contiguousFailures > 0) out.contiguousFailures = r.contiguousFailures;
  if (r.timeOfFirstFailure !== undefined) out.timeOfFirstFailure = formatRFC3339Nano(r.timeOfFirstFailure);
  return out;
}

export interface Report {
  checks: Record<string, Record<string, unknown>>;
  healthy: boolean;
}

export class Worker {
  private readonly checks = new Map<string, Check>();
  /** Bumped on every change, so encoded reports can be cached between runs. */
  version = 0;

  /** Readiness checks latch: once a check passes, its passing result is kept forever. */
  constructor(private readonly monotonic = false) {}

  register(name: string, fn: CheckFn, tags: string[] = []): void {
    if (tags.includes(ALL_TAG)) throw new HealthError(`restricted tag: "${ALL_TAG}"`);
    if (this.checks.has(name)) throw new HealthError(`duplicate check: "${name}"`);
    this.checks.set(name, { name, tags, fn, result: notYetRun() });
    this.version++;
  }

  has(name: string): boolean {
    return this.checks.has(name);
  }

  names(): string[] {
    return [...this.checks.keys()];
  }

  async runAll(fault: (name: string) => string | undefined): Promise<void> {
    await Promise.all([...this.checks.values()].map((c) => this.run(c, fault(c.name))));
  }

  async runOne(name: string, fault: string | undefined): Promise<void> {
    const check = this.checks.get(name);
    if (check) await this.run(check, fault);
  }

  private async run(check: Check, fault: string | undefined): Promise<void> {
    if (this.monotonic && check.result.timestamp !== undefined && check.result.error === undefined) return;
    const start = nowNs();
    let outcome: CheckOutcome;
    try {
      outcome = await check.fn();
    } catch (err) {
      outcome = { error: (err as Error).message };
    }
    const end = nowNs();
    const error = fault ?? outcome.error;
    const prev = check.result;
    const failing = error !== undefined;
    check.result = {
      details: outcome.details,
      error,
      timestamp: end,
      duration: end - start,
      contiguousFailures: failing ? prev.contiguousFailures + 1 : 0,
      timeOfFirstFailure: failing ? (prev.timeOfFirstFailure ?? end) : undefined,
    };
    this.version++;
  }

  /** worker.Results: no tags means all; otherwise the tagged checks plus every application check. */
  report(tags: string[]): Report {
    const wanted = tags.length === 0 ? undefined : new Set([...tags, APPLICATION_TAG]);
    const names = [...this.checks.keys()].sort();
    const checks: Report['checks'] = {};
    let healthy = true;
    for (const name of names) {
      const check = this.checks.get(name)!;
      if (wanted && !check.tags.some((t) => wanted.has(t))) continue;
      checks[name] = resultJson(check.result);
      if (check.result.error !== undefined) healthy = false;
    }
    return { checks, healthy };
  }
}

// The node's three health workers (readiness, health, liveness), the scheduler that runs them every
// --health-check-frequency, and the faults a test can inject to exercise a client's failover.
import { goMarshal } from '../encoding/gojson.js';
import { Worker, type CheckFn, type Report } from './worker.js';

export type WorkerKind = 'readiness' | 'health' | 'liveness';

export class Health {
  readonly readiness = new Worker(true);
  readonly health = new Worker();
  readonly liveness = new Worker();
  private readonly faults = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly cache = new Map<string, { version: number; json: string; healthy: boolean }>();

  constructor(private readonly frequencyMs: number) {}

  worker(kind: WorkerKind): Worker {
    return this[kind];
  }

  registerHealthCheck(name: string, fn: CheckFn, tags: string[]): void {
    this.health.register(name, fn, tags);
  }

  registerReadinessCheck(name: string, fn: CheckFn, tags: string[]): void {
    this.readiness.register(name, fn, tags);
  }

  /** Runs every check once now; then keeps running them on the configured frequency. */
  async start(): Promise<void> {
    await this.runAll();
    this.timer = setInterval(() => void this.runAll(), this.frequencyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  runAll(): Promise<void> {
    // A slow check must not make runs pile up: a tick during a run joins it.
    this.running ??= Promise.all([this.readiness, this.health, this.liveness].map((w) => w.runAll((name) => this.faults.get(name)))).then(() => {
      this.running = undefined;
    });
    return this.running;
  }

  knows(name: string): boolean {
    return this.readiness.has(name) || this.health.has(name) || this.liveness.has(name);
  }

  checkNames(): string[] {
    return [...new Set([...this.readiness.names(), ...this.health.names(), ...this.liveness.names()])].sort();
  }

  /** Makes `name` fail with `message` from now on (re-run at once), until cleared. */
  async injectFault(name: string, message: string): Promise<void> {
    this.faults.set(name, message);
    await this.rerun(name);
  }

  async clearFault(name: string): Promise<boolean> {
    const had = this.faults.delete(name);
    if (had) await this.rerun(name);
    return had;
  }

  activeFaults(): Record<string, string> {
    return Object.fromEntries([...this.faults].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  private async rerun(name: string): Promise<void> {
    const fault = this.faults.get(name);
    await Promise.all([this.readiness, this.health, this.liveness].map((w) => w.runOne(name, fault)));
  }

  report(kind: WorkerKind, tags: string[]): Report {
    return this.worker(kind).report(tags);
  }

  /** The report as Go's encoder writes it (without the trailing newline), cached until the next change. */
  reportJson(kind: WorkerKind, tags: string[]): { json: string; healthy: boolean } {
    const worker = this.worker(kind);
    const key = tags.length === 0 ? kind : `${kind}\0${tags.join('\0')}`;
    const hit = this.cache.get(key);
    if (hit && hit.version === worker.version) return hit;
    const report = worker.report(tags);
    const json = goMarshal(report);
    if (this.cache.size > 256) this.cache.clear();
    const entry = { version: worker.version, json, healthy: report.healthy };
    this.cache.set(key, entry);
    return entry;
  }
}

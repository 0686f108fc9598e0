// The admin profiler (avalanchego utils/profiler) over what Node offers: a V8 CPU profile
// (cpu.profile, loadable in Chrome DevTools), V8's sampling heap profile of the memory in use
// (mem.profile, as Go's heap profile is a sampled one: a full heap snapshot would stop the node for
// seconds on a large heap), and for lock.profile, since one JS thread has no mutexes, the closest honest
// signal of contention: how long callbacks waited for the event loop (a delay histogram) since the
// previous lock profile.
import { mkdir } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import { writeFileAtomic } from '../../storage/files.js';

/** V8's sampling interval, in bytes allocated between samples (its default; Go's MemProfileRate is 512 KiB). */
const HEAP_SAMPLING_BYTES = 32 * 1024;

export class ProfilerError extends Error {}

export class Profiler {
  private cpu: Session | undefined;
  /** One profiler operation at a time, as Go's profiler holds its lock: a stop racing a start waits for it. */
  private queue: Promise<unknown> = Promise.resolve();

  private serialized<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
  private delay: IntervalHistogram;
  private delaySince = Date.now();
  private utilization = performance.eventLoopUtilization();

  /** The session sampling the heap since the profiler exists, as Go's runtime samples from the start. */
  private heap: Promise<Session | undefined> | undefined;

  constructor(private readonly dir: string) {
    this.delay = monitorEventLoopDelay({ resolution: 10 });
    this.delay.enable();
  }

  private sampling(): Promise<Session | undefined> {
    this.heap ??= (async () => {
      const session = new Session();
      session.connect();
      await session.post('HeapProfiler.startSampling', { samplingInterval: HEAP_SAMPLING_BYTES });
      return session;
    })().catch(() => undefined);
    return this.heap;
  }

  /** Starts sampling the heap now, so that a later memory profile covers what was allocated since. */
  startSampling(): void {
    void this.sampling();
  }

  private async ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o750 });
  }

  startCPU(): Promise<void> {
    return this.serialized(() => this.startCPUNow());
  }

  private async startCPUNow(): Promise<void> {
    if (this.cpu) throw new ProfilerError('cpu profiler already running');
    const session = new Session();
    this.cpu = session;
    try {
      await this.ensureDir();
      // Go creates (truncates) the file when profiling starts and fills it when it stops.
      await writeFileAtomic(join(this.dir, 'cpu.profile'), '');
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    } catch (err) {
      this.cpu = undefined;
      session.disconnect();
      throw err;
    }
  }

  stopCPU(): Promise<void> {
    return this.serialized(() => this.stopCPUNow());
  }

  private async stopCPUNow(): Promise<void> {
    const session = this.cpu;
    if (!session) throw new ProfilerError("cpu profiler doesn't exist");
    this.cpu = undefined;
    try {
      const { profile } = await session.post('Profiler.stop');
      await writeFileAtomic(join(this.dir, 'cpu.profile'), JSON.stringify(profile));
    } finally {
      session.disconnect();
    }
  }

  memory(): Promise<void> {
    return this.serialized(async () => {
      await this.ensureDir();
      const session = await this.sampling();
      if (!session) throw new ProfilerError('the heap sampler could not start');
      // avalanchego's profiler runs runtime.GC() first, so that the profile shows what is kept.
      await session.post('HeapProfiler.collectGarbage');
      const { profile } = await session.post('HeapProfiler.getSamplingProfile');
      await writeFileAtomic(join(this.dir, 'mem.profile'), JSON.stringify(profile));
    });
  }

  lock(): Promise<void> {
    return this.serialized(() => this.lockNow());
  }

  private async lockNow(): Promise<void> {
    await this.ensureDir();
    const h = this.delay;
    const ms = (ns: number) => ns / 1e6;
    const now = performance.eventLoopUtilization();
    const report = {
      kind: 'event-loop-delay',
      description: 'How long callbacks waited for the single JavaScript thread; Node has no mutexes to profile.',
      from: new Date(this.delaySince).toISOString(),
      to: new Date().toISOString(),
      samples: h.count,
      delayMs: {
        min: ms(h.min),
        max: ms(h.max),
        mean: ms(h.mean),
        stddev: ms(h.stddev),
        p50: ms(h.percentile(50)),
        p90: ms(h.percentile(90)),
        p99: ms(h.percentile(99)),
        p999: ms(h.percentile(99.9)),
      },
      eventLoopUtilization: performance.eventLoopUtilization(now, this.utilization).utilization,
    };
    await writeFileAtomic(join(this.dir, 'lock.profile'), JSON.stringify(report, null, 2));
    h.reset();
    this.delaySince = Date.now();
    this.utilization = now;
  }

  isRunning(): boolean {
    return this.cpu !== undefined;
  }

  close(): Promise<void> {
    return this.serialized(() => this.closeNow());
  }

  private async closeNow(): Promise<void> {
    this.delay.disable();
    const heap = await this.heap;
    this.heap = undefined;
    if (heap) {
      await heap.post('HeapProfiler.stopSampling').catch(() => undefined);
      heap.disconnect();
    }
    if (this.cpu) {
      const session = this.cpu;
      this.cpu = undefined;
      await session.post('Profiler.stop').catch(() => undefined);
      session.disconnect();
    }
  }
}

// Long EVM executions share the node's one event loop with every other request. ethereumjs's
// interpreter runs a tx as a chain of microtasks, which never lets timers or sockets in; it does
// await what an async opcode handler or a two-argument event listener returns. A pacer is asked at
// those points (JUMP, JUMPI and each message, execution.ts; each traced step, frames.ts): every few
// ms of work it answers with a promise settled on the next turn of the loop, so other requests are
// served meanwhile, and once its deadline has passed it throws, which aborts the execution (the
// interpreter rethrows any error that is not an EVM error, and so does runTx).

/** How long execution runs before it hands the event loop back. */
export const SLICE_MS = 5;

/** Thrown at a pacing point past the deadline (by default): not an EVM error, so it ends runTx. */
export class ExecutionAborted extends Error {
  constructor() {
    super('execution aborted: deadline passed');
    this.name = 'ExecutionAborted';
  }
}

/** Ticks per reading of the clock. */
const CLOCK_EVERY = 16;

export class Pacer {
  private sliceEnd: number;
  /** Ticks since the clock was last read (the first tick reads it). */
  private unclocked = CLOCK_EVERY - 1;
  /** performance.now() after which execution is aborted. */
  readonly deadline: number;

  /**
   * `timeoutMs` from now (zero or less: already expired); none: execution is only sliced.
   * `expired` makes the error thrown past the deadline (the caller's text for a timeout).
   */
  constructor(
    timeoutMs?: number,
    private readonly expired: () => Error = () => new ExecutionAborted(),
  ) {
    const now = performance.now();
    this.deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : now + timeoutMs;
    this.sliceEnd = now + SLICE_MS;
  }

  /**
   * A point where execution may pause: throws the `expired` error past the deadline; past the end
   * of the slice, returns a promise that settles on the loop's next turn (the caller awaits it).
   */
  tick(): Promise<void> | undefined {
    // The clock is read at the first tick and every CLOCK_EVERY-th after it: a tick comes at every
    // jump of a call, and a few jumps take microseconds.
    if (++this.unclocked < CLOCK_EVERY) return undefined;
    this.unclocked = 0;
    const now = performance.now();
    if (now >= this.deadline) throw this.expired();
    return now < this.sliceEnd ? undefined : this.yieldNow();
  }

  /** A pause like tick's, for work that is not execution (serializing a trace): never aborts. */
  pause(): Promise<void> | undefined {
    return performance.now() < this.sliceEnd ? undefined : this.yieldNow();
  }

  private yieldNow(): Promise<void> {
    return new Promise((resolve) =>
      setImmediate(() => {
        this.sliceEnd = performance.now() + SLICE_MS;
        resolve();
      }),
    );
  }
}

// What the tracers share: turning ethereumjs's events into geth's tracer hooks. ethereumjs emits
// 'step' before an op's gas is charged and its stack checked, and says nothing when the op fails;
// geth (libevm core/vm/interpreter.go) calls CaptureState after those checks, and when they fail it
// calls it once more with the error instead. So each frame keeps its last step open, with the work
// that depends on it having passed, until the next event shows how it went: another step or a
// child message (it passed), or the frame's end with an error raised before CaptureState.
//
// Every event is also where a traced run shares the event loop and meets its timeout (pacer.ts):
// the listeners are the two-argument kind, which ethereumjs awaits.
import { EVMError, type EVMResult, type InterpreterStep, type Message } from '@ethereumjs/evm';
import { type GethError, gethError, isCall, isCreate, op } from './opcodes.js';
import { Pacer } from './pacer.js';
import { type StateReader, type TraceableEVM, type TraceResult, type TraceTxInfo, TracerError, type TxTracer } from './types.js';

const EMPTY = new Uint8Array();

export interface Step {
  code: number;
  stackLen: number;
  /** Work to do once the op is known to have passed geth's checks (dropped when it did not). */
  effects: Array<() => void>;
  settled?: boolean;
  /** Where a tracer recorded the step (the struct logger's entry), if it did. */
  entry?: number;
}

export interface Frame {
  /** ethereumjs's depth: 0 for the tx's own frame, which geth calls depth 1. */
  depth: number;
  /** The op that opened the frame (CALL or CREATE for the tx's own). */
  type: number;
  message: Message;
  /** The calldata, or the init code: ethereumjs swaps a create message's data out while running it. */
  input: Uint8Array;
  last?: Step;
  /** The frame's RETURNDATA buffer, which geth hands every CaptureState as rData. */
  returnData: Uint8Array;
}

type Listener<T> = (data: T, resolve?: (result?: unknown) => void) => void;

export abstract class FrameTracker implements TxTracer {
  protected readonly frames: Frame[] = [];
  /** geth's text for the error that ended the tx's own frame, once it ended. */
  private topError?: string;
  private failure: unknown;
  /** Slices the traced execution and enforces its timeout; set again when attached to a run. */
  private pacer = new Pacer();
  private readonly onStep: Listener<InterpreterStep>;
  private readonly onBefore: Listener<Message>;
  private readonly onAfter: Listener<EVMResult>;

  constructor(
    protected readonly tx: TraceTxInfo,
    /** geth's TraceConfig.Timeout, in ms; none: the trace runs as long as it takes. */
    private readonly timeoutMs?: number,
  ) {
    this.onStep = this.listener(this.handleStep);
    this.onBefore = this.listener(this.handleBefore);
    this.onAfter = this.listener(this.handleAfter);
  }

  attach(evm: TraceableEVM): void {
    const events = evm.events;
    if (!events) throw new TracerError('the EVM has no event emitter to trace', 'unsupported');
    // The deadline starts with the run, as geth's context.WithTimeout does right before ApplyMessage.
    this.pacer = new Pacer(this.timeoutMs, () => new TracerError('execution timeout', 'timeout'));
    events.on('step', this.onStep);
    events.on('beforeMessage', this.onBefore);
    events.on('afterMessage', this.onAfter);
  }

  detach(evm: TraceableEVM): void {
    evm.events?.off('step', this.onStep);
    evm.events?.off('beforeMessage', this.onBefore);
    evm.events?.off('afterMessage', this.onAfter);
  }

  /**
   * A two-argument listener, which ethereumjs awaits: reading state inside one is safe, and so is
   * pausing there for the rest of the node. The pacer is asked first and synchronously: once the
   * timeout has passed it throws, which rejects ethereumjs's emit and so aborts the execution
   * (geth's tracer.Stop and evm.Cancel), instead of tracing on to the end as if nothing happened.
   */
  private listener<T>(fn: (data: T) => Promise<void> | undefined): Listener<T> {
    return (data, resolve) => {
      const pause = this.pacer.tick();
      const done = () => {
        if (pause) void pause.then(() => resolve?.());
        else resolve?.();
      };
      let work: Promise<void> | undefined;
      try {
        work = fn.call(this, data);
      } catch (e) {
        this.failure ??= e;
      }
      if (!work) return done();
      work.then(done, (e: unknown) => {
        this.failure ??= e;
        done();
      });
    };
  }

  async finish(result: TraceResult, pre: StateReader, post: StateReader): Promise<unknown> {
    if (this.failure !== undefined) throw this.failure;
    // The observed text is the precise one (stack counts, the invalid op's name); the engine's is the fallback.
    return this.result({ ...result, error: this.topError ?? result.error }, pre, post);
  }

  protected abstract result(result: TraceResult, pre: StateReader, post: StateReader): Promise<unknown>;
  /** A step that geth would log (CaptureState); queue on `step.effects` what needs it to pass. */
  protected step(_ev: InterpreterStep, _frame: Frame, _step: Step): Promise<void> | undefined {
    return undefined;
  }
  /** CaptureStart / CaptureEnter. */
  protected enter(_frame: Frame, _parent: Frame | undefined): void {}
  /** CaptureEnd / CaptureExit, with the frame's last step settled. */
  protected exit(_frame: Frame, _res: EVMResult, _error: GethError | undefined): void {}
  /** The frame's last op failed before geth's CaptureState: geth logs it once, with this error. */
  protected stepFailed(_frame: Frame, _step: Step, _error: string): void {}

  private handleStep(ev: InterpreterStep): Promise<void> | undefined {
    const frame = this.frames.at(-1);
    if (!frame) return undefined; // attached mid-message: nothing to hang the step on
    this.settle(frame);
    const step: Step = { code: ev.opcode.code, stackLen: ev.stack.length, effects: [] };
    frame.last = step;
    return this.step(ev, frame, step);
  }

  private handleBefore(msg: Message): undefined {
    const parent = this.frames.at(-1);
    // The op that opens a child message has passed its checks; its code is the frame's type.
    const opener = parent?.last && !parent.last.settled ? parent.last.code : undefined;
    if (parent) this.settle(parent);
    const type = opener !== undefined && (isCall(opener) || isCreate(opener)) ? opener : msg.to ? op.CALL : op.CREATE;
    // Copies: a nested call's data is a view of the caller's memory, which later ops overwrite.
    const frame: Frame = { depth: msg.depth, type, message: msg, input: msg.data.slice(), returnData: EMPTY };
    this.frames.push(frame);
    this.enter(frame, parent);
    return undefined;
  }

  private handleAfter(res: EVMResult): undefined {
    const frame = this.frames.pop();
    if (!frame) return undefined;
    const err = res.execResult.exceptionError;
    const last = frame.last && !frame.last.settled ? frame.last : undefined;
    const error = err ? gethError(err, last && { code: last.code, stackLen: last.stackLen }) : undefined;
    if (last && error?.beforeStep) {
      last.settled = true;
      last.effects = [];
      this.stepFailed(frame, last, error.text);
    } else {
      this.settle(frame);
    }
    if (frame.depth === 0) this.topError = error?.text;
    this.exit(frame, res, error);
    // geth's opCall keeps any callee's output (empty on failure), opCreate only a revert's.
    const parent = this.frames.at(-1);
    if (parent) {
      const reverted = err?.error === EVMError.errorMessages.REVERT;
      const kept = isCreate(frame.type) ? reverted : !err || reverted;
      parent.returnData = kept ? res.execResult.returnValue.slice() : EMPTY;
    }
    return undefined;
  }

  /** The frame's last step passed: run its queued work. A call or create op empties the return buffer. */
  private settle(frame: Frame): void {
    const step = frame.last;
    if (!step || step.settled) return;
    step.settled = true;
    if (isCall(step.code) || isCreate(step.code)) frame.returnData = EMPTY;
    for (const work of step.effects) work();
    step.effects = [];
  }
}

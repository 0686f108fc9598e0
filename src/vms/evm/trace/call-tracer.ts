// callTracer (libevm eth/tracers/native/call.go) and 4byteTracer (native/4byte.go): one frame per
// CaptureEnter/Exit. JSON as gen_callframe_json.go writes it: from, gas, gasUsed, to, input,
// output, error, revertReason, calls, logs, value, then type last (the gencodec override field).
import { EVMError, type EVMResult, type InterpreterStep } from '@ethereumjs/evm';
import { type Frame, FrameTracker, type Step } from './frames.js';
import type { GethError } from './opcodes.js';
import { isCall, isCreate, op, opName } from './opcodes.js';
import type { TraceResult, TraceTxInfo } from './types.js';
import { addressOf, memoryCopyPadded, quantity, unpackRevert, word } from './util.js';
import { toHex0x } from '../../../encoding/bytes.js';

export interface CallTracerConfig {
  onlyTopCall?: boolean;
  withLog?: boolean;
}

interface CallLog {
  address: string;
  topics: string[];
  data: string;
  position: string;
}

interface CallFrame {
  type: number;
  from: Uint8Array;
  gas: bigint;
  gasUsed: bigint;
  to?: Uint8Array;
  input: Uint8Array;
  output?: Uint8Array;
  error?: string;
  revertReason?: string;
  calls: CallFrame[];
  logs: CallLog[];
  value?: bigint;
  /** A failed create's address, once processOutput has dropped its `to`. */
  created?: Uint8Array;
}

export class CallTracer extends FrameTracker {
  /** Parallel to the frame stack while frames are open; [0] is the tx's own. */
  private readonly stack: CallFrame[] = [];
  private top?: CallFrame;
  /** SELFDESTRUCT's frame waits for its op to have executed, which only the frame's clean end proves. */
  private readonly selfdestructs = new WeakMap<Frame, CallFrame>();

  constructor(
    tx: TraceTxInfo,
    private readonly cfg: CallTracerConfig,
    timeoutMs?: number,
  ) {
    super(tx, timeoutMs);
  }

  protected override enter(frame: Frame, parent: Frame | undefined): void {
    const msg = frame.message;
    if (!parent) {
      // CaptureStart: the tx's own frame has the tx's gas limit and value.
      this.top = {
        type: frame.type,
        from: this.tx.from,
        gas: this.tx.gasLimit,
        gasUsed: 0n,
        to: this.tx.to ?? this.tx.created,
        input: this.tx.input,
        calls: [],
        logs: [],
        value: this.tx.value,
      };
      this.stack.push(this.top);
      return;
    }
    if (this.cfg.onlyTopCall) return;
    // ethereumjs's DELEGATECALL/CALLCODE messages run at the caller's address with the target as code address.
    const delegated = frame.type === op.DELEGATECALL || frame.type === op.CALLCODE;
    this.stack.push({
      type: frame.type,
      from: delegated ? msg.to!.bytes : msg.caller.bytes,
      gas: msg.gasLimit,
      gasUsed: 0n,
      to: delegated ? msg.codeAddress.bytes : msg.to?.bytes,
      input: frame.input,
      calls: [],
      logs: [],
      // STATICCALL has no value; DELEGATECALL shows the one it inherits.
      value: frame.type === op.STATICCALL ? undefined : msg.value,
    });
  }

  protected override async step(ev: InterpreterStep, frame: Frame, step: Step): Promise<void> {
    const code = ev.opcode.code;
    const stack = ev.stack;
    const current = this.stack.at(-1);
    if (!current) return;
    if (code === op.SELFDESTRUCT && !this.cfg.onlyTopCall && stack.length >= 1) {
      const account = await ev.stateManager.getAccount(ev.address);
      const to = addressOf(stack[stack.length - 1]);
      this.selfdestructs.set(frame, {
        type: code,
        from: ev.address.bytes,
        gas: 0n,
        gasUsed: 0n,
        to,
        input: new Uint8Array(),
        calls: [],
        logs: [],
        value: account?.balance ?? 0n,
      });
    }
    if (!this.cfg.withLog || code < op.LOG0 || code > op.LOG4) return;
    if (this.cfg.onlyTopCall && ev.depth > 0) return;
    const size = code - op.LOG0;
    const [offset, length] = [stack.at(-1), stack.at(-2)];
    if (offset === undefined || length === undefined || stack.length < size + 2) return;
    const data = memoryCopyPadded(ev.memory, offset, length);
    if (!data) return; // geth warns and skips a log whose data needs over 1 MiB of padding
    const log: CallLog = {
      address: ev.address.toString(),
      topics: stack
        .slice(stack.length - 2 - size, stack.length - 2)
        .reverse()
        .map((t) => `0x${word(t)}`),
      data: toHex0x(data),
      position: quantity(current.calls.length),
    };
    step.effects.push(() => current.logs.push(log));
  }

  protected override exit(frame: Frame, res: EVMResult, error: GethError | undefined): void {
    const sd = this.selfdestructs.get(frame);
    const isTop = frame.depth === 0;
    if (isTop ? !this.top : this.cfg.onlyTopCall) return;
    const call = isTop ? this.top! : this.stack.pop()!;
    if (sd && !error) call.calls.push(sd);
    if (isTop) {
      if (isCreate(frame.type) && !call.to) call.to = res.createdAddress?.bytes;
    } else {
      // geth gives a colliding create no frame at all: it fails before CaptureEnter.
      if (res.execResult.exceptionError?.error === EVMError.errorMessages.CREATE_COLLISION) return;
      call.gasUsed = res.execResult.executionGasUsed;
      if (isCreate(call.type)) call.to = frame.message.to?.bytes;
      this.stack.at(-1)?.calls.push(call);
    }
    processOutput(call, res.execResult.returnValue.slice(), error?.text);
  }

  protected async result(result: TraceResult): Promise<unknown> {
    const top = this.top;
    if (!top) throw new Error('callTracer: the tx never entered the EVM');
    // CaptureTxEnd: the tx's gas used, and CaptureEnd's error as the engine saw it if we did not.
    top.gasUsed = result.gasUsed;
    if (top.error === undefined && result.error !== undefined) processOutput(top, result.returnValue, result.error);
    if (this.cfg.withLog) clearFailedLogs(top, false);
    return toJSON(top);
  }
}

/** callFrame.processOutput: output on success, error (and a revert's data and reason) otherwise. */
function processOutput(f: CallFrame, output: Uint8Array, error: string | undefined): void {
  f.output = undefined;
  if (error === undefined) {
    f.output = output;
    return;
  }
  f.error = error;
  if (isCreate(f.type)) {
    f.created = f.to;
    f.to = undefined;
  }
  if (error !== 'execution reverted' || output.length === 0) return;
  f.output = output;
  f.revertReason = unpackRevert(output);
}

/** Logs of a failed frame and of everything under it are dropped: they were never emitted. */
function clearFailedLogs(f: CallFrame, parentFailed: boolean): void {
  const failed = f.error !== undefined || parentFailed;
  if (failed) f.logs = [];
  for (const c of f.calls) clearFailedLogs(c, failed);
}

function toJSON(f: CallFrame): Record<string, unknown> {
  const out: Record<string, unknown> = { from: toHex0x(f.from), gas: quantity(f.gas), gasUsed: quantity(f.gasUsed) };
  if (f.to) out.to = toHex0x(f.to);
  out.input = toHex0x(f.input);
  if (f.output && f.output.length > 0) out.output = toHex0x(f.output);
  if (f.error) out.error = f.error;
  if (f.revertReason) out.revertReason = f.revertReason;
  if (f.calls.length > 0) out.calls = f.calls.map(toJSON);
  if (f.logs.length > 0) out.logs = f.logs;
  if (f.value !== undefined) out.value = quantity(f.value);
  out.type = opName(f.type);
  // Not in geth's JSON (not enumerable, so never written out): Otterscan's internal operations name it.
  if (f.created) Object.defineProperty(out, 'created', { value: toHex0x(f.created), enumerable: false });
  return out;
}

/** 4byteTracer: how often each selector was called with each calldata size ("0x12345678-32": n). */
export class FourByteTracer extends FrameTracker {
  private readonly ids = new Map<string, number>();

  protected override enter(_frame: Frame, parent: Frame | undefined): void {
    // CaptureStart counts the tx's calldata, a create's init code included.
    if (!parent) this.store(this.tx.input);
    // CaptureEnter counts the CALL family, at exit here: only then has ethereumjs told precompiles apart.
  }

  protected override exit(frame: Frame): void {
    if (frame.depth > 0 && isCall(frame.type) && !frame.message.isCompiled) this.store(frame.input);
  }

  protected async result(): Promise<unknown> {
    return Object.fromEntries([...this.ids.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private store(input: Uint8Array): void {
    if (input.length < 4) return;
    const key = `${toHex0x(input.subarray(0, 4))}-${input.length - 4}`;
    this.ids.set(key, (this.ids.get(key) ?? 0) + 1);
  }
}

/** noopTracer: `{}`. */
export class NoopTracer extends FrameTracker {
  protected async result(): Promise<unknown> {
    return {};
  }
}

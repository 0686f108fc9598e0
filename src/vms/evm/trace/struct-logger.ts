// The default tracer: libevm eth/tracers/logger/logger.go's StructLogger, printed through its
// formatLogs/ExecutionResult (the JSON debug_traceTransaction returns when no tracer is named).
//
// A long tx logs millions of steps. geth keeps one struct per step; one object with a stack of
// strings per step took 1.2 GiB here for a million steps. Steps are kept in columns instead
// (typed arrays), and each stack as the change from the frame's previous step (the items kept from
// its bottom, then the new ones), which is rarely more than a couple of items. The JSON is written
// from the columns in slices of the event loop (StructLogs.json), never as one object tree.
import type { InterpreterStep } from '@ethereumjs/evm';
import { goMarshal } from '../../../encoding/gojson.js';
import { type Frame, FrameTracker, type Step } from './frames.js';
import { isCall, op, opName } from './opcodes.js';
import type { Pacer } from './pacer.js';
import type { TraceResult, TraceTxInfo } from './types.js';
import { quantity, word, word32 } from './util.js';
import { toHex, toHex0x } from '../../../encoding/bytes.js';

export interface LoggerConfig {
  enableMemory?: boolean;
  disableStack?: boolean;
  disableStorage?: boolean;
  enableReturnData?: boolean;
  limit?: number;
}

const MAX_U64 = 2n ** 64n - 1n;
/** Each op's name as a JSON string, once. */
const OP_JSON = Array.from({ length: 256 }, (_, code) => JSON.stringify(opName(code)));

/** A growable column of numbers. */
class Column<A extends Float64Array | Uint32Array | Uint16Array | Uint8Array> {
  constructor(
    public data: A,
    private readonly make: (length: number) => A,
  ) {}

  set(i: number, value: number): void {
    if (i >= this.data.length) {
      const grown = this.make(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[i] = value;
  }
}

const INITIAL = 1024;

/** The steps of a trace, column by column. */
class Steps {
  length = 0;
  constructor(readonly withStack: boolean) {}
  readonly pc = new Column(new Uint32Array(INITIAL), (n) => new Uint32Array(n));
  readonly op = new Column(new Uint8Array(INITIAL), (n) => new Uint8Array(n));
  readonly depth = new Column(new Uint16Array(INITIAL), (n) => new Uint16Array(n));
  readonly gas = new Column(new Float64Array(INITIAL), (n) => new Float64Array(n));
  readonly cost = new Column(new Float64Array(INITIAL), (n) => new Float64Array(n));
  readonly refund = new Column(new Float64Array(INITIAL), (n) => new Float64Array(n));
  /** How many items of the frame's previous stack this step's stack starts with. */
  readonly kept = new Column(new Uint16Array(INITIAL), (n) => new Uint16Array(n));
  /** Where this step's new stack items end in `items`. */
  readonly itemsEnd = new Column(new Uint32Array(INITIAL), (n) => new Uint32Array(n));
  readonly items: bigint[] = [];
  /** Values past 2^53 (a Float64 column would round them), by step. */
  readonly exact = new Map<number, { gas?: bigint; cost?: bigint; refund?: bigint }>();
  /** The rarer fields, as geth's JSON text, by step. */
  readonly error = new Map<number, string>();
  readonly returnData = new Map<number, string>();
  readonly memory = new Map<number, string>();
  readonly storage = new Map<number, string>();
}

export class StructLogger extends FrameTracker {
  private readonly steps: Steps;
  /** Each open frame's stack at its last logged step. */
  private readonly lastStack = new WeakMap<Frame, bigint[]>();
  /** Every slot SLOAD/SSTORE touched so far, per contract: geth prints the lot at each of them. */
  private readonly storage = new Map<string, Map<string, string>>();

  constructor(
    tx: TraceTxInfo,
    private readonly cfg: LoggerConfig,
    timeoutMs?: number,
  ) {
    super(tx, timeoutMs);
    this.steps = new Steps(!cfg.disableStack);
  }

  protected override step(ev: InterpreterStep, frame: Frame, step: Step): Promise<void> | undefined {
    const limit = this.cfg.limit ?? 0;
    const s = this.steps;
    if (limit !== 0 && limit <= s.length) return undefined;
    const i = s.length++;
    step.entry = i;
    const code = ev.opcode.code;
    s.pc.set(i, ev.pc);
    s.op.set(i, code);
    s.depth.set(i, ev.depth + 1);
    this.number(i, 'gas', s.gas, ev.gasLeft);
    this.number(i, 'cost', s.cost, this.cost(ev));
    // ethereumjs's counter is coreth's too: it keeps counting although the tx never gets it paid.
    this.number(i, 'refund', s.refund, ev.gasRefund);
    if (s.withStack) this.stack(i, frame, ev.stack);
    if (this.cfg.enableReturnData && frame.returnData.length > 0) s.returnData.set(i, toHex0x(frame.returnData));
    if (this.cfg.enableMemory) s.memory.set(i, memoryJson(ev.memory));
    if (this.cfg.disableStorage || (code !== op.SLOAD && code !== op.SSTORE)) return undefined;
    return this.storageStep(i, ev);
  }

  protected override stepFailed(_frame: Frame, step: Step, error: string): void {
    if (step.entry !== undefined) this.steps.error.set(step.entry, goMarshal(error));
  }

  protected async result(result: TraceResult): Promise<StructLogs> {
    const failed = result.error !== undefined;
    // Return data when successful and revert reason when reverted, otherwise empty.
    const returnValue = failed && result.error !== 'execution reverted' ? '' : toHex(result.returnValue);
    return new StructLogs(Number(result.gasUsed), failed, returnValue, this.steps);
  }

  /** A number column's value; one past 2^53 is kept exactly on the side. */
  private number(i: number, field: 'gas' | 'cost' | 'refund', column: Column<Float64Array>, value: bigint): void {
    column.set(i, Number(value));
    if (value <= BigInt(Number.MAX_SAFE_INTEGER)) return;
    const exact = this.steps.exact.get(i) ?? {};
    exact[field] = value;
    this.steps.exact.set(i, exact);
  }

  /** The stack as a change from the frame's previous step: a frame's steps follow each other. */
  private stack(i: number, frame: Frame, stack: bigint[]): void {
    const s = this.steps;
    const previous = this.lastStack.get(frame);
    let kept = 0;
    if (previous) while (kept < previous.length && kept < stack.length && previous[kept] === stack[kept]) kept++;
    s.kept.set(i, kept);
    for (let k = kept; k < stack.length; k++) s.items.push(stack[k]!);
    s.itemsEnd.set(i, s.items.length);
    this.lastStack.set(frame, stack);
  }

  private async storageStep(i: number, ev: InterpreterStep): Promise<void> {
    const stack = ev.stack;
    const address = ev.address.toString();
    const slots = this.storage.get(address) ?? new Map<string, string>();
    this.storage.set(address, slots);
    const key = stack.at(-1);
    if (key === undefined) return;
    if (ev.opcode.code === op.SLOAD) {
      // The value at this point of the tx, as StateDB.GetState gives it.
      const value = await ev.stateManager.getStorage(ev.address, word32(Buffer.from(word(key), 'hex')));
      slots.set(word(key), toHex(word32(value)));
    } else if (stack.length >= 2) {
      slots.set(word(key), word(stack[stack.length - 2]!));
    } else {
      return;
    }
    this.steps.storage.set(i, sortedJson(slots));
  }

  /**
   * The op's cost as geth logs it. ethereumjs's leaves out the gas a CALL-family op hands the
   * callee, which geth's gasCall adds (callGasTemp: all but 1/64 of what is left, capped by the
   * gas operand; the value stipend is not part of it).
   */
  private cost(ev: InterpreterStep): bigint {
    const fee = ev.opcode.dynamicFee ?? BigInt(ev.opcode.fee);
    const requested = ev.stack.at(-1);
    if (!isCall(ev.opcode.code) || requested === undefined || ev.stack.length < (ev.opcode.code === op.CALL || ev.opcode.code === op.CALLCODE ? 7 : 6))
      return fee;
    const left = ev.gasLeft - fee;
    if (left < 0n) return fee + (requested > MAX_U64 ? MAX_U64 : requested);
    const all = left - left / 64n;
    return fee + (requested < all ? requested : all);
  }
}

/** Memory as geth's 32-byte words, a JSON array of hex without 0x. */
function memoryJson(memory: Uint8Array): string {
  const words: string[] = [];
  for (let i = 0; i + 32 <= memory.length; i += 32) words.push(`"${toHex(memory.subarray(i, i + 32))}"`);
  return `[${words.join(',')}]`;
}

/** Go prints a map with its keys sorted. */
function sortedJson(m: Map<string, string>): string {
  const keys = [...m.keys()].sort();
  return `{${keys.map((k) => `"${k}":"${m.get(k)}"`).join(',')}}`;
}

/** Steps written per slice check while serializing. */
const STEPS_PER_CHECK = 256;
/** Steps joined into one string before it joins the rope of the result. */
const STEPS_PER_CHUNK = 4096;

/**
 * The struct logger's result (ExecutionResult). `json()` writes geth's JSON text in slices of the
 * event loop; `toJSON()` builds the same as objects, for callers that want values (small traces).
 */
export class StructLogs {
  constructor(
    readonly gas: number,
    readonly failed: boolean,
    readonly returnValue: string,
    private readonly steps: Steps,
  ) {}

  get structLogs(): Array<Record<string, unknown>> {
    const out: Array<Record<string, unknown>> = [];
    this.walk((text) => out.push(JSON.parse(text) as Record<string, unknown>), [], 0, this.steps.length);
    return out;
  }

  toJSON(): Record<string, unknown> {
    return { gas: this.gas, failed: this.failed, returnValue: this.returnValue, structLogs: this.structLogs };
  }

  /** The JSON text, pausing with `pacer` between slices. */
  async json(pacer: Pacer): Promise<string> {
    let out = `{"gas":${this.gas},"failed":${this.failed},"returnValue":"${this.returnValue}","structLogs":[`;
    let chunk: string[] = [];
    let first = true;
    const stacks: string[][] = [];
    const flush = () => {
      if (chunk.length === 0) return;
      // `+=` on long strings makes a rope, not a copy: the text is flattened once, when it is sent.
      out += (first ? '' : ',') + chunk.join(',');
      first = false;
      chunk = [];
    };
    for (let from = 0; from < this.steps.length; from += STEPS_PER_CHECK) {
      this.walk((text) => chunk.push(text), stacks, from, Math.min(from + STEPS_PER_CHECK, this.steps.length));
      if (chunk.length >= STEPS_PER_CHUNK) flush();
      const pause = pacer.pause();
      if (pause) await pause;
    }
    flush();
    return `${out}]}`;
  }

  /**
   * Calls `emit` with the JSON of steps [from, to), in StructLogRes's field order. Steps are walked
   * in order from 0 on, with the same `stacks`: each stack is rebuilt from its frame's previous
   * one, found by depth (a frame's steps are the only ones at its depth until it ends, and the
   * first step of a frame keeps nothing).
   */
  private walk(emit: (text: string) => void, stacks: string[][], from: number, to: number): void {
    const s = this.steps;
    for (let i = from; i < to; i++) {
      const depth = s.depth.data[i]!;
      const exact = s.exact.get(i);
      let text = `{"pc":${s.pc.data[i]},"op":${OP_JSON[s.op.data[i]!]},"gas":${exact?.gas ?? s.gas.data[i]},"gasCost":${exact?.cost ?? s.cost.data[i]},"depth":${depth}`;
      const error = s.error.get(i);
      if (error !== undefined) text += `,"error":${error}`;
      if (s.withStack) text += this.stackJson(i, depth, stacks);
      const returnData = s.returnData.get(i);
      if (returnData !== undefined) text += `,"returnData":"${returnData}"`;
      const memory = s.memory.get(i);
      if (memory !== undefined) text += `,"memory":${memory}`;
      const storage = s.storage.get(i);
      if (storage !== undefined) text += `,"storage":${storage}`;
      const refund = exact?.refund ?? s.refund.data[i]!;
      if (refund > 0) text += `,"refund":${refund}`;
      emit(`${text}}`);
    }
  }

  /** The step's stack, rebuilt on `stacks`: each depth's stack (JSON items) at its last step so far. */
  private stackJson(i: number, depth: number, stacks: string[][]): string {
    const s = this.steps;
    const start = i === 0 ? 0 : s.itemsEnd.data[i - 1]!;
    const stack = (stacks[depth] ?? []).slice(0, s.kept.data[i]);
    for (let k = start; k < s.itemsEnd.data[i]!; k++) stack.push(`"${quantity(s.items[k]!)}"`);
    stacks[depth] = stack;
    return `,"stack":[${stack.join(',')}]`;
  }
}

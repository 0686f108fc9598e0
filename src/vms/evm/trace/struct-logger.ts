// The default tracer: libevm eth/tracers/logger/logger.go's StructLogger, printed through its
// formatLogs/ExecutionResult (the JSON debug_traceTransaction returns when no tracer is named).
import type { InterpreterStep } from '@ethereumjs/evm';
import { type Frame, FrameTracker, type Step } from './frames.js';
import { isCall, op, opName } from './opcodes.js';
import type { TraceResult, TraceTxInfo } from './types.js';
import { bare, hex, quantity, word, word32 } from './util.js';

export interface LoggerConfig {
  enableMemory?: boolean;
  disableStack?: boolean;
  disableStorage?: boolean;
  enableReturnData?: boolean;
  limit?: number;
}

interface Entry {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
  error?: string;
  stack?: string[];
  returnData?: string;
  memory?: string[];
  storage?: Record<string, string>;
  refund?: number;
}

const MAX_U64 = 2n ** 64n - 1n;

export class StructLogger extends FrameTracker {
  private readonly logs: Entry[] = [];
  private readonly entries = new WeakMap<Step, Entry>();
  /** Every slot SLOAD/SSTORE touched so far, per contract: geth prints the lot at each of them. */
  private readonly storage = new Map<string, Map<string, string>>();

  constructor(
    tx: TraceTxInfo,
    private readonly cfg: LoggerConfig,
    timeoutMs?: number,
  ) {
    super(tx, timeoutMs);
  }

  protected override async step(ev: InterpreterStep, frame: Frame, step: Step): Promise<void> {
    const limit = this.cfg.limit ?? 0;
    if (limit !== 0 && limit <= this.logs.length) return;
    const { code } = ev.opcode;
    const stack = ev.stack;
    // Keys in formatLogs' StructLogRes order; error is filled in later, in place.
    const entry: Entry = { pc: ev.pc, op: opName(code), gas: Number(ev.gasLeft), gasCost: Number(this.cost(ev)), depth: ev.depth + 1, error: undefined };
    if (!this.cfg.disableStack) entry.stack = stack.map((v) => quantity(v));
    if (this.cfg.enableReturnData && frame.returnData.length > 0) entry.returnData = hex(frame.returnData);
    if (this.cfg.enableMemory) {
      const words: string[] = [];
      for (let i = 0; i + 32 <= ev.memory.length; i += 32) words.push(bare(ev.memory.subarray(i, i + 32)));
      entry.memory = words;
    }
    if (!this.cfg.disableStorage && (code === op.SLOAD || code === op.SSTORE)) {
      const address = ev.address.toString();
      const slots = this.storage.get(address) ?? new Map<string, string>();
      this.storage.set(address, slots);
      const key = stack.at(-1);
      if (code === op.SLOAD && key !== undefined) {
        // The value at this point of the tx, as StateDB.GetState gives it.
        const value = await ev.stateManager.getStorage(ev.address, word32(Buffer.from(word(key), 'hex')));
        slots.set(word(key), bare(word32(value)));
        entry.storage = sorted(slots);
      } else if (code === op.SSTORE && key !== undefined && stack.length >= 2) {
        slots.set(word(key), word(stack[stack.length - 2]));
        entry.storage = sorted(slots);
      }
    }
    // ethereumjs's counter is coreth's too: it keeps counting although the tx never gets it paid.
    if (ev.gasRefund > 0n) entry.refund = Number(ev.gasRefund);
    this.logs.push(entry);
    this.entries.set(step, entry);
  }

  protected override stepFailed(_frame: Frame, step: Step, error: string): void {
    const entry = this.entries.get(step);
    if (entry) entry.error = error;
  }

  protected async result(result: TraceResult): Promise<unknown> {
    const failed = result.error !== undefined;
    // Return data when successful and revert reason when reverted, otherwise empty.
    const returnValue = failed && result.error !== 'execution reverted' ? '' : bare(result.returnValue);
    const structLogs = this.logs.map((e) => {
      if (e.error === undefined) delete e.error;
      return e;
    });
    return { gas: Number(result.gasUsed), failed, returnValue, structLogs };
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

/** Go prints a map with its keys sorted. */
function sorted(m: Map<string, string>): Record<string, string> {
  return Object.fromEntries([...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

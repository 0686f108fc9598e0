// A tx's internal transactions as the Data API lists them (the frames of geth's callTracer below the
// tx's own: CALL and CALLCODE with a value, CREATE and CREATE2 that made a contract), recorded while
// the block builder runs the tx. Only ethereumjs's message events are needed, not a step hook, so
// the Data API's follower need not run the block's txs again under callTracer (several times the
// cost of building the block). The follower does so only for blocks this node built before a restart.
import type { EVMResult, Message } from '@ethereumjs/evm';
import type { TraceableEVM } from './types.js';
import { toHex0x } from '../../../encoding/bytes.js';

/** An internal transaction as stored and listed: addresses in lower-case hex, amounts in decimal. */
export interface InternalTx {
  from: string;
  to: string;
  type: string;
  value: string;
  isReverted: boolean;
  gasUsed: string;
  gasLimit: string;
}

/** The type callTracer gives a frame: the op that opened it. */
export type FrameType = 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL' | 'CREATE' | 'CREATE2';

interface Open {
  message: Message;
  /** The type callTracer gives the frame (the op that opened it), from the message's shape. */
  type: FrameType;
  /** Where the frame lands in the tx's list, once it ends (undefined for frames not listed). */
  slot: number;
}

/**
 * The op a message came from: ethereumjs's CALLCODE message runs at the caller's address with the
 * target as its (explicit) code address, DELEGATECALL's is flagged, a CREATE2 carries its salt.
 * A STATICCALL and a CALL in a static frame both read as static: neither can carry a value, so
 * neither is listed either way.
 */
export function typeOf(m: Message, parent: { message: Message } | undefined): FrameType {
  if (m.salt !== undefined) return 'CREATE2';
  if (!m.to) return 'CREATE';
  if (m.delegatecall) return 'DELEGATECALL';
  // biome-ignore lint/suspicious/noExplicitAny: the explicit code address is the message's own field, public in JavaScript
  if ((m as any)._codeAddress !== undefined) return 'CALLCODE';
  if (m.isStatic && parent && !parent.message.isStatic) return 'STATICCALL';
  return 'CALL';
}

export class InternalTxRecorder {
  private readonly open: Open[] = [];
  /** This tx's frames in callTracer's order (entry order), each filled in at its end; null when it is not listed. */
  private list: Array<InternalTx | null> = [];
  private readonly onBefore = (m: Message) => this.before(m);
  private readonly onAfter = (r: EVMResult) => this.after(r);

  attach(evm: TraceableEVM): void {
    // One-argument listeners: ethereumjs calls them without awaiting anything.
    evm.events?.on('beforeMessage', this.onBefore);
    evm.events?.on('afterMessage', this.onAfter);
  }

  detach(evm: TraceableEVM): void {
    evm.events?.off('beforeMessage', this.onBefore);
    evm.events?.off('afterMessage', this.onAfter);
  }

  /** Forgets what an earlier tx left (one that threw out of the EVM leaves frames open). */
  start(): void {
    this.open.length = 0;
    this.list = [];
  }

  /** The tx's internal transactions, once it has run. */
  take(): InternalTx[] {
    const out = this.list.filter((t): t is InternalTx => t !== null);
    this.start();
    return out;
  }

  private before(m: Message): void {
    const parent = this.open.at(-1);
    const type = typeOf(m, parent);
    // The tx's own frame (depth 0) is not an internal transaction.
    const slot = m.depth > 0 ? this.list.push(null) - 1 : -1;
    this.open.push({ message: m, type, slot });
  }

  private after(r: EVMResult): void {
    const frame = this.open.pop();
    if (!frame || frame.slot < 0) return;
    const m = frame.message;
    const err = r.execResult.exceptionError;
    const create = frame.type === 'CREATE' || frame.type === 'CREATE2';
    // callTracer gives a colliding create no frame, and a failed one no `to`: neither is listed.
    if (create ? err !== undefined || !m.to : !(frame.type === 'CALL' || frame.type === 'CALLCODE') || m.value === 0n) return;
    this.list[frame.slot] = {
      // CALLCODE runs at the caller's address: callTracer's from is that, its to the code's.
      from: toHex0x(frame.type === 'CALLCODE' ? m.to!.bytes : m.caller.bytes),
      to: toHex0x(frame.type === 'CALLCODE' ? m.codeAddress.bytes : m.to!.bytes),
      type: frame.type,
      value: m.value.toString(),
      isReverted: err !== undefined,
      gasUsed: r.execResult.executionGasUsed.toString(),
      gasLimit: m.gasLimit.toString(),
    };
  }
}

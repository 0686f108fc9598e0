// The contract between the C-Chain engine and the tracers: what the engine knows of a tx before
// running it, how the tracers read state, and what a tracer must do around runTx. Kept apart from
// index.ts so that each tracer module can import it without an import cycle.
import type { EVMInterface } from '@ethereumjs/evm';

/** debug_trace* options as coreth's TraceConfig takes them (logger.Config is embedded at the top level). */
export interface TraceConfig {
  tracer?: string;
  /** TracerConfig (a json.RawMessage): the named tracer decodes it. */
  tracerConfig?: unknown;
  enableMemory?: boolean;
  disableStack?: boolean;
  disableStorage?: boolean;
  enableReturnData?: boolean;
  limit?: number;
  /** A Go duration ("5s", "300ms"); without one, the caller's default (coreth's is 5 s). */
  timeout?: string;
}

export interface TraceTxInfo {
  from: Uint8Array;
  to?: Uint8Array;
  value: bigint;
  gasLimit: bigint;
  gasPrice: bigint;
  input: Uint8Array;
  /** address created when `to` is absent */
  created?: Uint8Array;
  coinbase: Uint8Array;
}

/** State before (or after) the tx, backed by the state manager. Missing accounts are undefined. */
export interface StateReader {
  getAccount(addr: Uint8Array): Promise<{ nonce: bigint; balance: bigint } | undefined>;
  getCode(addr: Uint8Array): Promise<Uint8Array>;
  /** The slot's value; leading zeros may be stripped (they are put back). */
  getStorage(addr: Uint8Array, key32: Uint8Array): Promise<Uint8Array>;
}

export interface TraceResult {
  gasUsed: bigint;
  returnValue: Uint8Array;
  /** geth's error text, e.g. 'execution reverted', 'out of gas'. */
  error?: string;
}

/** Whatever exposes the EVM's event emitter: `vm.evm` (EVMInterface) or an `EVM`. */
export type TraceableEVM = Pick<EVMInterface, 'events'>;

export interface TxTracer {
  /** subscribe to evm.events ('step', 'beforeMessage', 'afterMessage') before runTx */
  attach(evm: TraceableEVM): void;
  detach(evm: TraceableEVM): void;
  /** after runTx: build the geth JSON. `pre` reads the state before the tx, `post` after it (for prestate diffMode). */
  finish(result: TraceResult, pre: StateReader, post: StateReader): Promise<unknown>;
}

/** What createTracer and finish throw; `message` is geth's text where geth has one. */
export class TracerError extends Error {
  constructor(
    message: string,
    /** unknown: geth would fail the same way; unsupported: coreth has it, the emulator does not; timeout: `timeout` elapsed */
    readonly kind: 'unknown' | 'unsupported' | 'config' | 'timeout',
  ) {
    super(message);
    this.name = 'TracerError';
  }
}

// Transaction tracers with coreth 1.14.2's output (libevm's eth/tracers at v1.13.14-0.4.0.rc.2): the
// struct logger debug_trace* defaults to, callTracer, prestateTracer (diffMode too), 4byteTracer
// and noopTracer. The engine creates one per traced tx, attaches it to the EVM around runTx and
// asks it for the JSON with readers of the state before and after the tx.
import { CallTracer, FourByteTracer, NoopTracer } from './call-tracer.js';
import { boolConfig, parseDuration, unknownTracer } from './config.js';
import { PrestateTracer } from './prestate.js';
import { StructLogger } from './struct-logger.js';
import type { TraceConfig, TraceTxInfo, TxTracer } from './types.js';

export { gethError } from './opcodes.js';
export type { FailedStep, GethError } from './opcodes.js';
export type { StateReader, TraceableEVM, TraceConfig, TraceResult, TraceTxInfo, TxTracer } from './types.js';
export { TracerError } from './types.js';
export { decodeTraceConfig, type TraceCallConfig } from './config.js';
export { StructLogs } from './struct-logger.js';

/**
 * Throws TracerError with coreth's text for an unknown tracer, a malformed tracerConfig or timeout.
 * The tracer stops the traced run past its timeout: the config's, else `defaultTimeoutMs` (none:
 * the run is only sliced, never stopped).
 */
export function createTracer(config: TraceConfig | undefined, tx: TraceTxInfo, defaultTimeoutMs?: number): TxTracer {
  const cfg = config ?? {};
  // api.go builds the tracer (reading tracerConfig) before it parses the timeout: errors come in that order.
  const build = chooseTracer(cfg, tx);
  return build(cfg.timeout === undefined ? defaultTimeoutMs : parseDuration(cfg.timeout));
}

/** What createTracer would throw for `config`, before there is a tx to trace (debug_traceCall's order). */
export function checkTraceConfig(config: TraceConfig | undefined): void {
  const cfg = config ?? {};
  chooseTracer(cfg, { from: new Uint8Array(20), value: 0n, gasLimit: 0n, gasPrice: 0n, input: new Uint8Array(), coinbase: new Uint8Array(20) });
  if (cfg.timeout !== undefined) parseDuration(cfg.timeout);
}

function chooseTracer(cfg: TraceConfig, tx: TraceTxInfo): (timeoutMs: number | undefined) => TxTracer {
  switch (cfg.tracer) {
    case undefined:
      return (timeout) => new StructLogger(tx, cfg, timeout);
    case 'callTracer': {
      const options = boolConfig('callTracerConfig', cfg.tracerConfig, ['onlyTopCall', 'withLog']);
      return (timeout) => new CallTracer(tx, options, timeout);
    }
    case 'prestateTracer': {
      const options = boolConfig('prestateTracerConfig', cfg.tracerConfig, ['diffMode']);
      return (timeout) => new PrestateTracer(tx, options, timeout);
    }
    case '4byteTracer':
      return (timeout) => new FourByteTracer(tx, timeout);
    case 'noopTracer':
      return (timeout) => new NoopTracer(tx, timeout);
    default:
      throw unknownTracer(cfg.tracer);
  }
}
export { ExecutionAborted, Pacer } from './pacer.js';

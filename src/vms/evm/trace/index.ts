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
export type { StateReader, TraceableEVM, TraceConfig, TraceResult, TracerName, TraceTxInfo, TxTracer } from './types.js';
export { TracerError } from './types.js';

/** Throws TracerError with coreth's text for an unknown tracer, a malformed tracerConfig or timeout. */
export function createTracer(config: TraceConfig | undefined, tx: TraceTxInfo): TxTracer {
  const cfg = config ?? {};
  // api.go builds the tracer (reading tracerConfig) before it parses the timeout: errors come in that order.
  const build = chooseTracer(cfg, tx);
  return build(cfg.timeout === undefined ? undefined : parseDuration(cfg.timeout));
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

// debug_trace* (coreth's eth/tracers API, on when the chain config or --dev enables it): a block is
// re-executed from its parent's state on a scratch layer, with a tracer attached around the txs
// asked for (trace/replay.ts, which the Data API shares); traceCall runs a message on a block's
// state as eth_call does.
//
// One trace must not hold the node: every run is paced (trace/pacer.ts), so other requests are
// answered while a long tx is replayed or traced, and a struct log's JSON is written in slices too.
// A traced tx stops at its timeout (the config's, else coreth's defaultTraceTimeout): its run is
// thrown out of half-way through the tx, on a VM over the trace's own scratch layer, which is
// dropped with the request; the chain's builder and reader never run a trace.
import { Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { goMarshal, type JsonObject, RawJson } from '../../../encoding/gojson.js';
import { method, RpcError, type ServiceDef } from '../../../rpc/method.js';
import { ParamsError } from '../../../rpc/schema.js';
import { positional } from '../../../rpc/geth.js';
import type { Field } from '../../../rpc/schema.js';
import { type BlockOverrides, CallFailure, type CallArgs, Refusal, type StateOverride } from '../callargs.js';
import { applyOverrides, callMessage, checkMessage, type Message } from '../calls.js';
import type { EvmChain } from '../chain.js';
import { withSender } from '../txcodec.js';
import { ScratchStore } from '../overlay.js';
import { blockTxs, findTx } from '../queries.js';
import type { StoredBlock } from '../store.js';
import { checkTraceConfig, decodeTraceConfig, Pacer, StructLogs, type TraceCallConfig, type TraceConfig, TracerError } from '../trace/index.js';
import { parentVM, replay, scratchVM, type TraceEnv, traceBlock, traceOne, type TxTrace } from '../trace/replay.js';
import { blockOf } from './blocks.js';
import { type BlockRef, blockNumber, blockOverrides, blockRef, callArgs, hash, stateOverrides } from './fields.js';
import { withHashReference } from '../execution.js';
import { GoTypeError } from './hexfields.js';
import { toHex0x } from '../../../encoding/bytes.js';

/** coreth's defaultTraceTimeout (eth/tracers/api.go): how long a traced tx runs when the config names no timeout. */
export const DEFAULT_TRACE_TIMEOUT_MS = 5_000;

export const debugErrors = {
  txNotFound: () => new RpcError('transaction not found'),
  blockNotFound: (what: string) => new RpcError(`block ${what} not found`),
  /** TraceCall on "pending". */
  pending: () => new RpcError('tracing on top of pending is not supported'),
  /** StateAtTransaction, for TraceCallConfig.TxIndex. */
  noTxInGenesis: () => new RpcError('no transaction in genesis'),
  txIndexOutOfRange: (index: bigint, block: Uint8Array) => new RpcError(`transaction index ${index} out of range for block ${toHex0x(block)}`),
  /** ApplyMessage's refusal of a traced call (traceTx). */
  tracingFailed: (reason: string) => new RpcError(`tracing failed: ${reason}`),
};

/** debug_traceCall's options, decoded. */
interface CallTraceOptions extends TraceConfig {
  stateOverrides?: Map<string, StateOverride>;
  blockOverrides?: BlockOverrides;
  txIndex?: bigint;
}

/**
 * TraceCallConfig.BlockOverrides, decoded as eth_call's argument is. Nested, its type errors name
 * the inner struct and the path from the outer one (encoding/json's errorContext:
 * `Go struct field BlockOverrides.BlockOverrides.Number`); hexutil's errors stop the decoding.
 */
function nestedBlockOverrides(v: JsonObject): BlockOverrides | undefined {
  try {
    return blockOverrides.decode(v);
  } catch (err) {
    if (err instanceof GoTypeError && err.where) throw new TracerError(new GoTypeError(err.value, err.type, `BlockOverrides.${err.where}`).message, 'config');
    if (err instanceof ParamsError) throw new TracerError(err.message, 'config');
    throw err;
  }
}

/** The config argument: json.Unmarshal into tracers.TraceConfig, with coreth's texts. */
export const traceConfig: Field<TraceConfig | undefined> = { decode: (v) => decodeTraceConfig(v, 'TraceConfig'), zero: () => undefined };

/** debug_traceCall's: tracers.TraceCallConfig, whose state overrides decode as eth_call's do. */
const traceCallConfig: Field<CallTraceOptions | undefined> = {
  decode(v) {
    const { stateOverrides: overrides, blockOverrides: header, ...config } = decodeTraceConfig(v, 'TraceCallConfig', nestedBlockOverrides) as TraceCallConfig;
    return {
      ...config,
      stateOverrides: overrides === undefined ? undefined : stateOverrides.decode(overrides),
      blockOverrides: header as BlockOverrides | undefined,
    };
  },
  zero: () => undefined,
};

/** A tracer's result as JSON text: a struct log written in slices of the event loop, anything else as Go marshals it. */
function resultJson(result: unknown, pacer: Pacer): Promise<string> | string {
  return result instanceof StructLogs ? result.json(pacer) : goMarshal(result);
}

/** One trace's reply, already JSON (a struct log may be tens of MiB). */
async function traceReply(result: unknown): Promise<RawJson> {
  return new RawJson(await resultJson(result, new Pacer()));
}

/**
 * A block's traces as []txTraceResult, already JSON: a failed one as {txHash, error}, and past the
 * traces, nulls up to `length` (debug_traceChain's block whose tx failed: the txs after it have none).
 */
export async function blockReply(results: TxTrace[], length = results.length): Promise<RawJson> {
  const pacer = new Pacer();
  let text = '[';
  for (let i = 0; i < length; i++) {
    const r = results[i];
    // Concatenation, not join: long parts make a rope, copied once when the reply is sent.
    const item = !r
      ? 'null'
      : 'error' in r
        ? `{"txHash":"${r.txHash}","error":${goMarshal(r.error)}}`
        : `{"txHash":"${r.txHash}","result":${await resultJson(r.result, pacer)}}`;
    text += `${i > 0 ? ',' : ''}${item}`;
  }
  return new RawJson(`${text}]`);
}

/** A tracer's or a call's failure as the method's error. */
export function wrap<T>(fn: () => Promise<T>): Promise<T> {
  return fn().catch((err) => {
    if (err instanceof TracerError) throw new RpcError(err.message);
    if (err instanceof CallFailure) throw new RpcError(err.message, err.code);
    throw err;
  });
}

/** The state debug_traceCall runs on: the block's, or with TxIndex, that before the block's tx at that index (StateAtTransaction). */
async function callStateVM(env: TraceEnv, block: StoredBlock, txIndex: bigint | undefined): Promise<VM> {
  if (txIndex === undefined) return scratchVM(env, env.chain.stateRootOf(block));
  if (block.header.number === 0n) throw debugErrors.noTxInGenesis();
  const vm = await parentVM(env, block);
  const txs = blockTxs(env.chain, block);
  // coreth converts the hexutil.Uint to a Go int: past 2^63 it is negative, and never found.
  const index = BigInt.asIntN(64, txIndex);
  if (index === 0n && txs.length === 0) return vm;
  const records = await env.chain.store.txRecords(block.hash);
  const baseFee = block.header.baseFee ?? 0n;
  for (let i = 0; i < txs.length; i++) {
    if (BigInt(i) === index) return vm;
    await replay(env, vm, block, withSender(txs[i]!, new Address(records[i]!.from)), baseFee);
  }
  throw debugErrors.txIndexOutOfRange(index, block.hash);
}

/**
 * coreth's TraceCall: the block's state (TxIndex), the block overrides on its context, the state
 * overrides, the message priced at the context's base fee, then the traced run (NoBaseFee: a call
 * that pays no fee sees none).
 */
async function traceCall(chain: EvmChain, args: CallArgs, ref: BlockRef, options: CallTraceOptions | undefined): Promise<RawJson> {
  if ('tag' in ref && ref.tag === 'pending') throw debugErrors.pending();
  const block = await blockOf(chain, ref);
  const env: TraceEnv = { chain, store: new ScratchStore(chain.nodes), timeoutMs: DEFAULT_TRACE_TIMEOUT_MS };
  const vm = await callStateVM(env, block, options?.txIndex);
  const header = options?.blockOverrides;
  await applyOverrides(vm, options?.stateOverrides);
  const contextFee = header?.baseFee ?? block.header.baseFee ?? 0n;
  // ToMessage's own errors are answered as they are; ApplyMessage's only after the tracer's, with "tracing failed".
  let m: Message;
  try {
    m = callMessage(chain, args, block, contextFee);
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    checkTraceConfig(options);
    throw debugErrors.tracingFailed(err.message);
  }
  const baseFee = m.noBaseFee ? 0n : contextFee;
  const refused = async () => {
    try {
      await checkMessage(chain, vm, m);
    } catch (err) {
      if (err instanceof Refusal) throw debugErrors.tracingFailed(err.message);
      throw err;
    }
  };
  // GetHashFn's reference is the real header, moved to n+1 when the overrides name exactly n+1
  // (so that BLOCKHASH(n) answers block n's hash, as a wallet's simulation of the next block expects).
  const n = block.header.number;
  const hashRef = header ? (header.number === n + 1n ? n + 1n : n) : undefined;
  return traceReply(await withHashReference(vm, hashRef, () => traceOne(env, vm, block, m.tx, m.from.bytes, options, baseFee, refused, header)));
}

/** A trace's environment for an RPC request: its own scratch layer, coreth's default timeout. */
export const rpcEnv = (chain: EvmChain): TraceEnv => ({ chain, store: new ScratchStore(chain.nodes), timeoutMs: DEFAULT_TRACE_TIMEOUT_MS });

/** Every tx of `block` traced, as []txTraceResult. */
export const traceWholeBlock = (chain: EvmChain, block: StoredBlock, config: TraceConfig | undefined) =>
  wrap(async () => blockReply(await traceBlock(rpcEnv(chain), block, config, () => true)));

export function debugService(chain: EvmChain): ServiceDef {
  const byBlock = (block: StoredBlock, config: TraceConfig | undefined) => traceWholeBlock(chain, block, config);
  return {
    name: 'debug',
    methods: {
      traceTransaction: method(positional([hash, traceConfig], 1), ([h, config]) =>
        wrap(async () => {
          const found = await findTx(chain, h as Uint8Array);
          if (!found) throw debugErrors.txNotFound();
          const [one] = await traceBlock(rpcEnv(chain), found.block, config as TraceConfig | undefined, (i) => i === found.index);
          // Failures are thrown, not recorded, here: the trace is a result.
          return traceReply((one as { result: unknown }).result);
        }),
      ),
      traceBlockByNumber: method(positional([blockNumber, traceConfig], 1), async ([tag, config]) =>
        byBlock(await blockOf(chain, { tag: tag as never }), config as TraceConfig | undefined),
      ),
      traceBlockByHash: method(positional([hash, traceConfig], 1), async ([h, config]) => {
        const block = await chain.store.block(h as Uint8Array);
        if (!block) throw debugErrors.blockNotFound(toHex0x(h as Uint8Array));
        return byBlock(block, config as TraceConfig | undefined);
      }),
      // TraceCall takes its block by value (required; null names neither block nor hash), its config by pointer.
      traceCall: method(positional([callArgs, blockRef, traceCallConfig], 2), ([args, ref, options]) =>
        wrap(() => traceCall(chain, args as CallArgs, ref as BlockRef, options as CallTraceOptions | undefined)),
      ),
    },
  };
}

// debug_trace* (coreth's eth/tracers API, on when the chain config or --dev enables it): a block is
// re-executed from its parent's state on a scratch layer, with a tracer attached around the txs
// asked for; traceCall runs a message on a block's state as eth_call does.
import { generateAddress, Address } from '@ethereumjs/util';
import type { TypedTransaction } from '@ethereumjs/tx';
import { runTx, type VM } from '@ethereumjs/vm';
import type { JsonObject, JsonValue } from '../../../encoding/gojson.js';
import { method, RpcError, type ServiceDef } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import { CallFailure, callMessage } from '../calls.js';
import { type EvmChain, withSender } from '../chain.js';
import { creditBaseFee, execBlock, gethError, stateAt } from '../execution.js';
import { setRunningPredicates } from '../warp/receive.js';
import { ScratchStore } from '../overlay.js';
import { effectivePrice, feeCaps } from '../pool.js';
import type { StoredBlock } from '../store.js';
import { createTracer, type StateReader, type TraceConfig, TracerError } from '../trace/index.js';
import { blockOf } from './blocks.js';
import { blockNumber, blockRef, callArgs, hash, raw } from './fields.js';
import { hex } from './format.js';
import { blockTxs, findTx } from './reads.js';

export const debugErrors = {
  txNotFound: () => new RpcError('transaction not found'),
  genesis: () => new RpcError('genesis is not traceable'),
  blockNotFound: (what: string) => new RpcError(`block ${what} not found`),
};

function traceConfig(v: JsonValue | undefined): TraceConfig | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new RpcError('invalid trace config');
  return v as JsonObject as unknown as TraceConfig;
}

const reader = (vm: VM): StateReader => ({
  getAccount: async (a) => {
    const acc = await vm.stateManager.getAccount(new Address(a));
    return acc ? { nonce: acc.nonce, balance: acc.balance } : undefined;
  },
  getCode: (a) => vm.stateManager.getCode(new Address(a)),
  getStorage: (a, k) => vm.stateManager.getStorage(new Address(a), k),
});

interface TraceEnv {
  chain: EvmChain;
  store: ScratchStore;
}

/** A VM over a scratch layer at `root`. */
async function scratchVM(env: TraceEnv, root: Uint8Array): Promise<VM> {
  return env.chain.newVM(stateAt(env.store, env.chain.common, root, env.chain.flavor.multiCoin));
}

/** Runs one tx (traced or not) on `vm`, with coreth's fee credit; returns the trace when traced. */
async function runOne(
  env: TraceEnv,
  vm: VM,
  block: StoredBlock,
  tx: TypedTransaction,
  from: Uint8Array,
  config: TraceConfig | undefined,
  traced: boolean,
  baseFee: bigint,
) {
  const h = block.header;
  const exec = execBlock(env.chain.common, { number: h.number, time: h.time, gasLimit: h.gasLimit, baseFee, difficulty: h.difficulty, coinbase: h.coinbase });
  setRunningPredicates(vm.evm, env.chain.predicatesForReplay(tx));
  if (!traced) {
    const r = await runTx(vm, { tx, block: exec, skipHardForkValidation: true, skipBlockGasLimitValidation: true });
    await creditBaseFee(vm, r.totalGasSpent, baseFee, h.coinbase);
    return undefined;
  }
  const sm = vm.stateManager;
  const preRoot = await sm.getStateRoot();
  const gasPrice = effectivePrice(feeCaps(tx), baseFee);
  const tracer = createTracer(config, {
    from,
    to: tx.to?.bytes,
    value: tx.value,
    gasLimit: tx.gasLimit,
    gasPrice,
    input: tx.data,
    created: tx.to
      ? undefined
      : generateAddress(
          from,
          tx.nonce === 0n ? new Uint8Array() : Buffer.from(tx.nonce.toString(16).padStart(2 * Math.ceil(tx.nonce.toString(16).length / 2), '0'), 'hex'),
        ),
    coinbase: h.coinbase,
  });
  tracer.attach(vm.evm);
  let r: Awaited<ReturnType<typeof runTx>>;
  try {
    r = await runTx(vm, { tx, block: exec, skipHardForkValidation: true, skipBlockGasLimitValidation: true, skipNonce: !tx.isSigned(), skipBalance: false });
  } finally {
    tracer.detach(vm.evm);
  }
  await creditBaseFee(vm, r.totalGasSpent, baseFee, h.coinbase);
  const postRoot = await sm.getStateRoot();
  const pre = await scratchVM(env, preRoot);
  const post = await scratchVM(env, postRoot);
  return tracer.finish(
    { gasUsed: r.totalGasSpent, returnValue: r.execResult.returnValue, error: gethError(r.execResult.exceptionError) },
    reader(pre),
    reader(post),
  );
}

/** Re-executes `block` and traces the txs `which` selects. */
async function traceBlock(chain: EvmChain, block: StoredBlock, config: TraceConfig | undefined, which: (i: number) => boolean): Promise<unknown[]> {
  if (block.header.number === 0n) throw debugErrors.genesis();
  const parent = await chain.store.block(block.header.parentHash);
  if (!parent) throw debugErrors.blockNotFound(hex(block.header.parentHash));
  const env: TraceEnv = { chain, store: new ScratchStore(chain.nodes) };
  // The state the block was built on: its parent's, with the dev state edits made on it (if any).
  const vm = await scratchVM(env, await chain.builtOn(block, parent));
  const txs = blockTxs(chain, block);
  const records = await chain.store.txRecords(block.hash);
  const out: unknown[] = [];
  let last = -1;
  for (let i = txs.length - 1; i >= 0; i--) if (which(i)) last = last < 0 ? i : last;
  for (let i = 0; i <= last; i++) {
    // The recorded sender: no signature to recover again, and an impersonated tx's names nobody.
    withSender(txs[i]!, new Address(records[i]!.from));
    const result = await runOne(env, vm, block, txs[i]!, records[i]!.from, config, which(i), block.header.baseFee ?? 0n);
    if (which(i)) out.push({ txHash: hex(txs[i]!.hash()), result });
  }
  return out;
}

/** The callTracer's frames of the txs of `block` that `which` selects: what indexers read internal txs from. */
export function callTraces(chain: EvmChain, block: StoredBlock, which: (i: number) => boolean): Promise<Array<{ txHash: string; result: CallFrameJson }>> {
  return traceBlock(chain, block, { tracer: 'callTracer' }, which) as Promise<Array<{ txHash: string; result: CallFrameJson }>>;
}

/** One frame of geth's callTracer, as JSON. */
export interface CallFrameJson {
  type: string;
  from: string;
  to?: string;
  value?: string;
  gas: string;
  gasUsed: string;
  input?: string;
  output?: string;
  error?: string;
  calls?: CallFrameJson[];
}

function wrap<T>(fn: () => Promise<T>): Promise<T> {
  return fn().catch((err) => {
    if (err instanceof TracerError) throw new RpcError(err.message);
    if (err instanceof CallFailure) throw new RpcError(err.message, err.code);
    throw err;
  });
}

export function debugService(chain: EvmChain): ServiceDef {
  const byBlock = (block: StoredBlock, cfg: JsonValue | undefined) => wrap(() => traceBlock(chain, block, traceConfig(cfg), () => true));
  return {
    name: 'debug',
    methods: {
      traceTransaction: method(positional([hash, raw], 1), ([h, cfg]) =>
        wrap(async () => {
          const found = await findTx(chain, h as Uint8Array);
          if (!found) throw debugErrors.txNotFound();
          const [one] = (await traceBlock(chain, found.block, traceConfig(cfg as JsonValue | undefined), (i) => i === found.index)) as Array<{
            result: unknown;
          }>;
          return one!.result;
        }),
      ),
      traceBlockByNumber: method(positional([blockNumber, raw], 1), async ([tag, cfg]) =>
        byBlock(await blockOf(chain, { tag: tag as never }), cfg as JsonValue | undefined),
      ),
      traceBlockByHash: method(positional([hash, raw], 1), async ([h, cfg]) => {
        const block = await chain.store.block(h as Uint8Array);
        if (!block) throw debugErrors.blockNotFound(hex(h as Uint8Array));
        return byBlock(block, cfg as JsonValue | undefined);
      }),
      traceCall: method(positional([callArgs, blockRef, raw], 1), ([args, ref, cfg]) =>
        wrap(async () => {
          const block = await blockOf(chain, (ref ?? { tag: 'latest' }) as never);
          const env: TraceEnv = { chain, store: new ScratchStore(chain.nodes) };
          const vm = await scratchVM(env, chain.stateRootOf(block));
          const m = callMessage(chain, args as never, block);
          const from = m.from.bytes;
          return runOne(env, vm, block, m.tx, from, traceConfig(cfg as JsonValue | undefined), true, m.noBaseFee ? 0n : (block.header.baseFee ?? 0n));
        }),
      ),
    },
  };
}

// Re-executing an accepted block from its parent's state, on a scratch layer, with a tracer attached
// around the txs asked for: what debug_trace* (api/debug.ts) answers and what the Data API reads a
// block's internal transactions from (callTraces) when this process did not record them as it ran.
// The chain's builder and reader never run a trace; every run is paced (pacer.ts).
import { Address } from '@ethereumjs/util';
import type { TypedTransaction } from '@ethereumjs/tx';
import { runTx, type VM } from '@ethereumjs/vm';
import type { EvmChain } from '../chain.js';
import { createdAddress, creditBaseFee, gethError, overriddenContext, paced, runAsBuilt, skippingSenderCheck, stateAt } from '../execution.js';
import type { BlockOverrides } from '../callargs.js';
import { ScratchStore } from '../overlay.js';
import { effectivePrice, feeCaps } from '../pooltx.js';
import { blockTxs } from '../queries.js';
import type { StoredBlock } from '../store.js';
import { txHash, withSender } from '../txcodec.js';
import { setRunningPredicates } from '../warp/receive.js';
import { createTracer } from './index.js';
import { Pacer } from './pacer.js';
import { type StateReader, type TraceConfig, TracerError } from './types.js';
import { toHex0x } from '../../../encoding/bytes.js';

/** What re-executing a block refuses, with coreth's texts (debug_trace* answers them as they are). */
export const replayErrors = {
  genesis: () => new TracerError('genesis is not traceable', 'unknown'),
  parentNotFound: (parent: Uint8Array) => new TracerError(`block ${toHex0x(parent)} not found`, 'unknown'),
};

const reader = (vm: VM): StateReader => ({
  getAccount: async (a) => {
    const acc = await vm.stateManager.getAccount(new Address(a));
    return acc ? { nonce: acc.nonce, balance: acc.balance } : undefined;
  },
  getCode: (a) => vm.stateManager.getCode(new Address(a)),
  getStorage: (a, k) => vm.stateManager.getStorage(new Address(a), k),
});

export interface TraceEnv {
  chain: EvmChain;
  store: ScratchStore;
  /** The timeout of a traced tx whose config names none; none: it runs to its end. */
  timeoutMs?: number;
}

/** A VM over a scratch layer at `root`. */
export async function scratchVM(env: TraceEnv, root: Uint8Array): Promise<VM> {
  return env.chain.newVM(stateAt(env.store, env.chain.common, root, env.chain.flavor.multiCoin));
}

function blockContext(env: TraceEnv, block: StoredBlock, baseFee: bigint, o?: BlockOverrides) {
  return overriddenContext(env.chain.common, block.header, baseFee, o);
}

/** Runs a tx of the block that is not traced (one before the traced one), sliced, with coreth's fee credit. */
export async function replay(env: TraceEnv, vm: VM, block: StoredBlock, tx: TypedTransaction, baseFee: bigint): Promise<void> {
  setRunningPredicates(vm.evm, env.chain.predicatesForReplay(tx));
  const exec = blockContext(env, block, baseFee);
  const run = () => paced(vm, new Pacer(), () => runTx(vm, { tx, block: exec, skipHardForkValidation: true, skipBlockGasLimitValidation: true }));
  const r = await runAsBuilt(vm, tx, run);
  await creditBaseFee(vm, r.totalGasSpent, baseFee, block.header.coinbase);
}

/**
 * Runs `tx` under the tracer `config` asks for and answers its result. `check` runs once the tracer
 * exists and before the tx does (a call's refusals come after the tracer's own errors, as in traceTx).
 */
export async function traceOne(
  env: TraceEnv,
  vm: VM,
  block: StoredBlock,
  tx: TypedTransaction,
  from: Uint8Array,
  config: TraceConfig | undefined,
  baseFee: bigint,
  check?: () => Promise<void>,
  overrides?: BlockOverrides,
): Promise<unknown> {
  const sm = vm.stateManager;
  const coinbase = overrides?.coinbase ?? block.header.coinbase;
  const preRoot = await sm.getStateRoot();
  const tracer = createTracer(
    config,
    {
      from,
      to: tx.to?.bytes,
      value: tx.value,
      gasLimit: tx.gasLimit,
      gasPrice: effectivePrice(feeCaps(tx), baseFee),
      input: tx.data,
      created: tx.to ? undefined : createdAddress(from, tx.nonce),
      coinbase,
    },
    env.timeoutMs,
  );
  await check?.();
  setRunningPredicates(vm.evm, env.chain.predicatesForReplay(tx));
  const exec = blockContext(env, block, baseFee, overrides);
  // The tracer paces the run itself, at every step, and throws its timeout out of runTx.
  tracer.attach(vm.evm);
  let r: Awaited<ReturnType<typeof runTx>>;
  try {
    const run = () =>
      runTx(vm, { tx, block: exec, skipHardForkValidation: true, skipBlockGasLimitValidation: true, skipNonce: !tx.isSigned(), skipBalance: false });
    // A call (the one that comes with its checks) may come from an address with code, as in geth;
    // a block's tx runs as it was built.
    r = await (check ? skippingSenderCheck(vm, new Address(from), run) : runAsBuilt(vm, tx, run));
  } finally {
    tracer.detach(vm.evm);
  }
  await creditBaseFee(vm, r.totalGasSpent, baseFee, coinbase);
  const postRoot = await sm.getStateRoot();
  const pre = await scratchVM(env, preRoot);
  const post = await scratchVM(env, postRoot);
  return tracer.finish(
    { gasUsed: r.totalGasSpent, returnValue: r.execResult.returnValue, error: gethError(r.execResult.exceptionError) },
    reader(pre),
    reader(post),
  );
}

/** The parent's state in a scratch VM: where re-executing `block` starts. */
export async function parentVM(env: TraceEnv, block: StoredBlock): Promise<VM> {
  const parent = await env.chain.store.block(block.header.parentHash);
  if (!parent) throw replayErrors.parentNotFound(block.header.parentHash);
  // The state the block was built on: its parent's, with the dev state edits made on it (if any).
  return scratchVM(env, await env.chain.builtOn(block, parent));
}

/**
 * Re-executes `block`'s txs from its parent's state, up to the one at index `last`: `run` runs
 * each on the block's VM, with its recorded sender (no signature to recover again, and an
 * impersonated tx's names nobody); a block the chain does not hold (debug_traceBlock's) has no
 * records, and its senders are recovered from the signatures.
 */
export async function replayTxs(
  env: TraceEnv,
  block: StoredBlock,
  last: number,
  run: (vm: VM, tx: TypedTransaction, index: number, from: Uint8Array) => Promise<void>,
): Promise<void> {
  const vm = await parentVM(env, block);
  const txs = blockTxs(env.chain, block);
  const records = await env.chain.store.txRecords(block.hash);
  for (let i = 0; i <= last; i++) {
    const tx = txs[i]!;
    const from = records[i]?.from ?? tx.getSenderAddress().bytes;
    withSender(tx, new Address(from));
    await run(vm, tx, i, from);
  }
}

/** A tx's trace: its result, or (a chain's trace, which goes on past a failed tx's block) the tracer's failure. */
export type TxTrace = { txHash: string; result: unknown } | { txHash: string; error: string };

/** What ends a block's re-execution once a tx's trace failed and was recorded. */
class Recorded extends Error {}

/**
 * Re-executes `block` and traces the txs `which` selects (the ones after the last are not run). A
 * tx's failed trace fails the whole, unless `recordFailure` (debug_traceChain's): whatever failed
 * (the tracer, its timeout, a state read; coreth records any traceTx error) is then the tx's
 * trace, and the block's txs after it are not run.
 */
export async function traceBlock(env: TraceEnv, block: StoredBlock, config: TraceConfig | undefined, which: (i: number) => boolean, recordFailure = false) {
  if (block.header.number === 0n) throw replayErrors.genesis();
  const baseFee = block.header.baseFee ?? 0n;
  const out: TxTrace[] = [];
  let last = -1;
  for (let i = 0; i < block.body.length; i++) if (which(i)) last = i;
  try {
    await replayTxs(env, block, last, async (vm, tx, i, from) => {
      if (!which(i)) return replay(env, vm, block, tx, baseFee);
      const hash = toHex0x(txHash(tx));
      try {
        out.push({ txHash: hash, result: await traceOne(env, vm, block, tx, from, config, baseFee) });
      } catch (err) {
        if (!recordFailure) throw err;
        out.push({ txHash: hash, error: err instanceof Error ? err.message : String(err) });
        throw new Recorded();
      }
    });
  } catch (err) {
    if (!(err instanceof Recorded)) throw err;
  }
  return out;
}

/** The callTracer's frames of the txs of `block` that `which` selects: what indexers read internal txs from. */
export function callTraces(chain: EvmChain, block: StoredBlock, which: (i: number) => boolean): Promise<Array<{ txHash: string; result: CallFrameJson }>> {
  // The node's own work: no timeout, only slices of the event loop.
  const env: TraceEnv = { chain, store: new ScratchStore(chain.nodes) };
  return traceBlock(env, block, { tracer: 'callTracer' }, which) as Promise<Array<{ txHash: string; result: CallFrameJson }>>;
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
  /** A failed create's address, which geth's JSON drops (not enumerable: never written out). */
  created?: string;
}

// eth_estimateGas as geth's eth/gasestimator runs it: a plain transfer's short cut, a first run at
// the highest limit allowed, then its search between the gas used and that limit; its answers kept
// as eth_call's are (answers.ts).
import { Address } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { type CallArgs, CallFailure, RPC_GAS_CAP, Refusal, revertError, type StateOverride } from './callargs.js';
import { answered, estimateKey } from './answers.js';
import type { CallReads } from './callreads.js';
import { applyOverrides, both, checkFeeFields, execute, failureText, type Message, messages, recordReads } from './calls.js';
import type { EvmChain } from './chain.js';
import { watchGas } from './execution.js';
import type { GasWatch } from './gaswatch.js';
import type { StoredBlock } from './store.js';
import { Pacer } from './trace/index.js';
import { toHex } from '../../encoding/bytes.js';

/**
 * One of the estimator's runs (gasestimator's execute): the result, or undefined when coreth would
 * refuse the message for its intrinsic gas (the estimator then tries more). Any other refusal
 * is the answer: `failed with N gas: <text>`. With `reads`, what the run reads is noted there.
 */
async function estimateRun(
  chain: EvmChain,
  block: StoredBlock,
  make: (gas: bigint) => Message,
  gas: bigint,
  root: Uint8Array,
  overrides?: Map<string, StateOverride>,
  watch?: { watch: GasWatch; to: Uint8Array | undefined },
  reads?: CallReads,
) {
  try {
    // No timeout, as gasestimator has none of its own; its runs are sliced all the same.
    const watching = watch && ((vm: VM) => watchCall(vm, watch.to, watch.watch));
    const recording = reads && recordReads(reads);
    return await execute(chain, block, make, gas, new Pacer(), overrides, both(watching, recording), undefined, root);
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    if (err.intrinsic) return undefined;
    throw new CallFailure(`failed with ${gas} gas: ${err.message}`, -32000);
  }
}

/**
 * eth_estimateGas. Its answer is kept and carried to later heads as eth_call's is (answers.ts): an
 * estimate is a pure function of the state its runs read, the call's fields, the highest limit it
 * searches up to and, for a priced call, the base fee (estimateKey). A test suite's sends each ask
 * for one (eth_fillTransaction, eth_sendTransaction), mostly on states an earlier test left alike.
 */
export async function estimateGas(chain: EvmChain, block: StoredBlock, args: CallArgs, overrides?: Map<string, StateOverride>): Promise<bigint> {
  // DoEstimateGas builds the message before it estimates anything.
  checkFeeFields(args);
  // Every read and run is of this state, whatever dev edit comes meanwhile: the answer is its own.
  const root = chain.stateRootOf(block);
  const hi = await gasCeiling(chain, block, args, root);
  const call = overrides === undefined ? estimateKey(args, hi, block.header.baseFee ?? 0n) : undefined;
  const answer = await answered<bigint>(chain, block, call, root, args.to !== undefined, async (reads) => {
    try {
      return await searchLimit(chain, block, root, args, hi, overrides, reads);
    } catch (err) {
      if (err instanceof CallFailure) return err;
      throw err;
    }
  });
  if (answer instanceof CallFailure) throw answer;
  return answer;
}

/** The highest limit DoEstimateGas searches up to: the call's gas or the block's limit, within what the sender can pay and the RPC gas cap. */
async function gasCeiling(chain: EvmChain, block: StoredBlock, args: CallArgs, root: Uint8Array): Promise<bigint> {
  // On the head, evm_setBlockGasLimit's limit once set, as Anvil caps its estimates by its block gas limit.
  let hi = args.gas !== undefined && args.gas >= 21_000n ? args.gas : block === chain.head ? chain.gasLimit : block.header.gasLimit;
  const feeCap = args.gasPrice ?? args.maxFeePerGas ?? 0n;
  if (feeCap > 0n) {
    // The message's sender: the zero address when none is named.
    const account = await chain.account(args.from ?? new Uint8Array(20), root);
    let available = account?.balance ?? 0n;
    const value = args.value ?? 0n;
    if (value > 0n) {
      if (value >= available) throw new CallFailure('insufficient funds for transfer', -32000);
      available -= value;
    }
    const allowance = available / feeCap;
    if (hi > allowance) hi = allowance;
  }
  return hi > RPC_GAS_CAP ? RPC_GAS_CAP : hi;
}

/** gasestimator's runs below `hi` on state `root`, with what they read noted in `reads`. */
async function searchLimit(
  chain: EvmChain,
  block: StoredBlock,
  root: Uint8Array,
  args: CallArgs,
  hi: bigint,
  overrides: Map<string, StateOverride> | undefined,
  reads: CallReads | undefined,
): Promise<bigint> {
  const make = messages(chain, args, block.header.baseFee ?? 0n);
  const run = (gas: bigint, watch?: GasWatch) => estimateRun(chain, block, make, gas, root, overrides, watch && { watch, to: args.to }, reads);
  // A plain transfer to an account without code: 21,000 when that runs (gasestimator's short cut).
  if (args.to && (args.data ?? new Uint8Array()).length === 0) {
    // Read outside a run: noted here, as a run notes what it reads.
    reads?.accounts.add(toHex(args.to));
    const code = await chain.withState(root, async (vm) => {
      await applyOverrides(vm, overrides);
      return vm.stateManager.getCode(new Address(args.to!));
    });
    if (code.length === 0) {
      const plain = await run(21_000n).catch((err: unknown) => {
        if (err instanceof CallFailure) return undefined; // refused at 21,000: estimated as any other call
        throw err;
      });
      if (plain && !plain.execResult.exceptionError) return 21_000n;
    }
  }
  const watch: GasWatch = { readsGas: false };
  const first = await run(hi, watch);
  if (!first) throw new CallFailure(`gas required exceeds allowance (${hi})`, -32000);
  if (first.execResult.exceptionError) {
    const again = (observe: (vm: VM) => () => void) => execute(chain, block, make, hi, new Pacer(), overrides, observe, undefined, root);
    const text = await failureText(first, again);
    if (text === 'execution reverted') throw revertError(first.execResult.returnValue);
    if (text === 'out of gas') throw new CallFailure(`gas required exceeds allowance (${hi})`, -32000);
    throw new CallFailure(text!, -32000);
  }
  const fails = async (gas: bigint) => {
    const r = await run(gas);
    return !r || !!r.execResult.exceptionError;
  };
  // geth's UsedGas is ethereumjs's totalGasSpent (net of the refund paid), and RefundedGas the refund
  // paid: none, as coreth pays none since Apricot Phase 1 (nor Subnet-EVM; rules.ts NO_REFUNDS),
  // whatever ethereumjs's refund counter (gasRefund: 4,800 for a cleared slot) has summed.
  const usedGas = first.totalGasSpent;
  const start = { lo: usedGas - 1n, hi };
  // A run blind to its limit (gaswatch.ts) tells how every other limit would do without running it.
  if (!watch.readsGas) return searchGas(start, async (gas) => !succeedsBlind(watch, hi, usedGas, gas));
  // gasestimator's search only tries limits above lo = UsedGas - 1, so when every limit it tries
  // succeeds it ends at a limit found without running anything. One run at that limit settles it:
  // if it succeeds, so does every larger limit the search would have tried (the search itself
  // assumes success is monotonic in the limit), and the answer is gasestimator's. Only when it
  // fails is the search run for real, from the start.
  const guess = await searchGas(start, async () => false);
  if (guess === hi || !(await fails(guess))) return guess;
  return searchGas(start, fails);
}

/** The SSTORE sentry of EIP-2200 (params.SstoreSentryGasEIP2200): an SSTORE needs more gas left than this. */
const SSTORE_SENTRY = 2300n;

/**
 * Whether a run at `gas` succeeds, from a run at `hi` that used `usedGas` and was blind to its limit:
 * with a lower limit it consumes the same gas at the same points, so it succeeds when the limit
 * covers that gas and leaves each SSTORE more than the sentry (the first run's least gas left at one,
 * less what the lower limit takes away).
 */
function succeedsBlind(watch: GasWatch, hi: bigint, usedGas: bigint, gas: bigint): boolean {
  if (gas < usedGas) return false;
  return watch.sstoreGasLeft === undefined || watch.sstoreGasLeft - (hi - gas) > SSTORE_SENTRY;
}

/**
 * Watches a run for `watch`. A message to a precompile counts as reading its gas (its cost is its
 * own affair); which addresses are precompiles is asked once the run has set its block, since a
 * Subnet-EVM precompile is one from its activation time.
 */
function watchCall(vm: VM, to: Uint8Array | undefined, watch: GasWatch): () => void {
  const detach = watchGas(vm, watch);
  return () => {
    detach();
    if (to && vm.evm.getPrecompile?.(new Address(to))) watch.readsGas = true;
  };
}

/**
 * gasestimator's search between lo (fails) and hi (succeeds): its optimistic first guess at the gas
 * used plus the call stipend and the 63/64 rule, then halving until within 1.5 % of hi.
 */
async function searchGas(range: { lo: bigint; hi: bigint }, fails: (gas: bigint) => Promise<boolean>): Promise<bigint> {
  let { lo, hi } = range;
  const usedGas = lo + 1n;
  const refundedGas = 0n;
  const optimistic = ((usedGas + refundedGas + 2300n) * 64n) / 63n;
  if (optimistic < hi) {
    if (await fails(optimistic)) lo = optimistic;
    else hi = optimistic;
  }
  while (lo + 1n < hi) {
    if (Number(hi - lo) / Number(hi) < 0.015) break;
    let mid = (hi + lo) / 2n;
    if (mid > lo * 2n) mid = lo * 2n;
    if (await fails(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}

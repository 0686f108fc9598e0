// eth_call and eth_estimateGas as geth runs them (internal/ethapi DoCall, eth/gasestimator): the
// message built from TransactionArgs with RPCGasCap 50M, a zero base fee when no price is given
// (NoBaseFee) and state overrides; answers kept in answers.ts, the estimator in estimate.ts.
import type { Block } from '@ethereumjs/block';
import { type EVM, type EVMError, EVMError as EVMErrors, type InterpreterStep } from '@ethereumjs/evm';
import { createAccessList2930Tx, createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { Account, Address, toChecksumAddress } from '@ethereumjs/util';
import { runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import { RpcError } from '../../rpc/method.js';
import type { EvmChain } from './chain.js';
import { ConsoleSink } from './console/sink.js';
import { gethError, overriddenContext, paced, type ReaderStateManager, skippingSenderCheck, watchConsole, withHashReference } from './execution.js';
import { MAX_INITCODE_SIZE, PoolError } from './pooltx.js';
import { setRunningPredicates } from './warp/receive.js';
import type { StoredBlock } from './store.js';
import { Pacer } from './trace/index.js';
import { type FailedStep, gethError as stepError } from './trace/opcodes.js';
import { answered, callKey, carriable } from './answers.js';
import type { CallReads } from './callreads.js';
import { type BlockOverrides, type CallArgs, CallFailure, callGas, Refusal, revertError, type StateOverride } from './callargs.js';

export interface Message {
  tx: TypedTransaction;
  from: Address;
  gas: bigint;
  feeCap: bigint;
  value: bigint;
  noBaseFee: boolean;
}

const U256_LIMIT = 1n << 256n;
/** EIP-2681: a tx's nonce is below 2^64-1. */
const MAX_TX_NONCE = 2n ** 64n - 1n;

/** ToMessage's own refusal, answered as it is (before any state is read). */
export function checkFeeFields(args: CallArgs): void {
  if (args.gasPrice !== undefined && (args.maxFeePerGas !== undefined || args.maxPriorityFeePerGas !== undefined)) {
    throw new CallFailure('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified', -32000);
  }
}

/**
 * The messages ToMessage builds from the args, one per gas limit asked for (eth_call's one, the
 * estimator's runs): the fee checks of coreth's preCheck and buyGas's 256-bit limit come first,
 * because the tx object refuses these values itself with texts of its own. The tx is built once,
 * for the first gas limit asked for, and given each later one (gasestimator's execute sets
 * call.GasLimit the same way): building and validating it was a tenth of a call's CPU.
 */
export function messages(chain: EvmChain, args: CallArgs, baseFee: bigint): (gas: bigint) => Message {
  checkFeeFields(args);
  const from = new Address(args.from ?? new Uint8Array(20));
  const value = args.value ?? 0n;
  const legacy = args.gasPrice !== undefined;
  let feeCap = legacy ? args.gasPrice! : (args.maxFeePerGas ?? 0n);
  const tip = legacy ? feeCap : (args.maxPriorityFeePerGas ?? 0n);
  const priced = feeCap > 0n || tip > 0n;
  if (!legacy && priced && args.maxFeePerGas === undefined) feeCap = tip + baseFee * 2n;
  const fees = { feeCap, tip, priced };
  let built: Message | undefined;
  return (gas) => {
    refuseFees(from, fees, gas, value, baseFee);
    if (built) {
      // Any gas limit refuseFees lets through is one the tx object accepts (its overflow check is the laxer).
      (built.tx as { gasLimit: bigint }).gasLimit = gas;
      built.gas = gas;
      return built;
    }
    const common = chain.common;
    // The init code limit is checked in its place among the refusals (refuseState), not by the tx object.
    const opts = { common, freeze: false, allowUnlimitedInitCodeSize: true };
    // A call's nonce is never checked (SkipNonceChecks) and its creates take the state's: ethereumjs
    // refuses 2^64-1 in a tx object, which geth runs as any other (the tx keeps 0 for it then).
    const nonce = args.nonce !== undefined && args.nonce < MAX_TX_NONCE ? args.nonce : 0n;
    const to = args.to;
    const data = args.data ?? new Uint8Array();
    const accessList = (args.accessList ?? []).map((a) => [a.address, a.storageKeys] as [Uint8Array, Uint8Array[]]);
    // The fields written out: a spread into a literal with more fields takes V8's slow path (fastframes.ts).
    let tx: TypedTransaction;
    if (legacy) {
      // ToMessage keeps an access list whatever the fee fields: a legacy-priced call with one is a 2930 tx.
      tx = args.accessList
        ? createAccessList2930Tx({ nonce, gasLimit: gas, to, value, data, gasPrice: feeCap, accessList }, opts)
        : createLegacyTx({ nonce, gasLimit: gas, to, value, data, gasPrice: feeCap }, opts);
    } else {
      tx = createFeeMarket1559Tx({ nonce, gasLimit: gas, to, value, data, maxFeePerGas: feeCap, maxPriorityFeePerGas: tip, accessList }, opts);
    }
    // The call is nobody's signed tx: its sender is whoever the caller names.
    Object.defineProperty(tx, 'getSenderAddress', { value: () => from });
    built = { tx, from, gas, feeCap, value, noBaseFee: !priced };
    return built;
  };
}

/** The message ToMessage builds from the args with `gas`. */
function message(chain: EvmChain, args: CallArgs, gas: bigint, baseFee: bigint): Message {
  return messages(chain, args, baseFee)(gas);
}

/**
 * preCheck's fee checks (skipped for a call with no fee fields, as NoBaseFee has it) and buyGas's
 * refusal of a cost past 256 bits, which need no state.
 */
function refuseFees(from: Address, fees: Readonly<{ feeCap: bigint; tip: bigint; priced: boolean }>, gas: bigint, value: bigint, baseFee: bigint): void {
  // Named only in a refusal: the checksum hashes the address.
  const address = () => toChecksumAddress(from.toString());
  if (fees.priced) {
    if (fees.tip > fees.feeCap)
      throw new Refusal(
        `max priority fee per gas higher than max fee per gas: address ${address()}, maxPriorityFeePerGas: ${fees.tip}, maxFeePerGas: ${fees.feeCap}`,
      );
    if (fees.feeCap < baseFee)
      throw new Refusal(`max fee per gas less than block base fee: address ${address()}, maxFeePerGas: ${fees.feeCap}, baseFee: ${baseFee}`);
  }
  if (gas * fees.feeCap + value >= U256_LIMIT)
    throw new Refusal(`insufficient funds for gas * price + value: address ${address()} required balance exceeds 256 bits`);
}

/** The rest, in TransitionDb's order: buyGas's balance check, the intrinsic gas, the init code limit. */
async function refuseState(vm: VM, m: Message): Promise<void> {
  const want = m.gas * m.feeCap + m.value;
  const have = (await vm.stateManager.getAccount(m.from))?.balance ?? 0n;
  if (have < want) throw new Refusal(`insufficient funds for gas * price + value: address ${toChecksumAddress(m.from.toString())} have ${have} want ${want}`);
  const intrinsic = m.tx.getIntrinsicGas();
  if (m.gas < intrinsic) throw new Refusal(`intrinsic gas too low: have ${m.gas}, want ${intrinsic}`, true);
  if (!m.tx.to && m.tx.data.length > MAX_INITCODE_SIZE)
    throw new Refusal(`max initcode size exceeded: code size ${m.tx.data.length} limit ${MAX_INITCODE_SIZE}`);
}

/**
 * The message's warp predicates (Subnet-EVM's, read for their intrinsic gas): a malformed one
 * fails IntrinsicGas, which the state transition refuses.
 */
function predicatesOf(chain: EvmChain, m: Message): ReturnType<EvmChain['readWarpPredicates']> {
  try {
    return chain.readWarpPredicates(m.tx);
  } catch (err) {
    if (err instanceof PoolError) throw new Refusal(err.message);
    throw err;
  }
}

/** Checks the message as coreth's state transition would before running it on `vm`'s state (debug_traceCall). */
export async function checkMessage(chain: EvmChain, vm: VM, m: Message): Promise<void> {
  predicatesOf(chain, m);
  await refuseState(vm, m);
}

/** State overrides on `vm`'s state, as eth_call and debug_traceCall apply them. */
export async function applyOverrides(vm: VM, overrides: Map<string, StateOverride> | undefined): Promise<void> {
  if (!overrides) return;
  const sm = vm.stateManager;
  for (const [address, o] of overrides) {
    const addr = new Address(Buffer.from(address.replace(/^0x/, ''), 'hex'));
    if (o.state && o.stateDiff) throw new CallFailure(`account ${toChecksumAddress(address)} has both 'state' and 'stateDiff'`, -32000);
    const account = (await sm.getAccount(addr)) ?? new Account();
    if (o.nonce !== undefined) account.nonce = o.nonce;
    if (o.balance !== undefined) account.balance = o.balance;
    await sm.putAccount(addr, account);
    if (o.code !== undefined) await sm.putCode(addr, o.code);
    if (o.state) await sm.clearStorage(addr);
    for (const [k, v] of o.state ?? o.stateDiff ?? new Map()) await sm.putStorage(addr, Buffer.from(k.replace(/^0x/, '').padStart(64, '0'), 'hex'), v);
  }
}

/**
 * What runTx still refuses after refuseFees and refuseState, should any slip through: the engine's
 * text, trimmed of ethereumjs's debug suffix. (EIP-3607's sender with code is not checked for calls,
 * as geth's SkipAccountChecks: skippingSenderCheck.) A fork's upstream failing (an RpcError, the
 * only one runTx can throw) is thrown as it is: it says nothing of the message, and an answer made
 * of it must not be kept.
 */
function engineRefusal(err: Error): Error {
  if (err instanceof RpcError) return err;
  return new Refusal(err.message.replace(/ \(.*$/s, ''));
}

/**
 * The message eth_call would run on `block` (for debug_traceCall), priced at `baseFee` (the
 * block's, or an overridden one); throws Refusal as ApplyMessage would.
 */
export function callMessage(chain: EvmChain, args: CallArgs, block: StoredBlock, baseFee = block.header.baseFee ?? 0n): Message {
  return message(chain, args, callGas(args), baseFee);
}

/** Per block, the context its calls run in, with and without its base fee: the same for every call on it. */
const contexts = new WeakMap<StoredBlock, Map<boolean, Block>>();

function callContext(chain: EvmChain, block: StoredBlock, noBaseFee: boolean, o?: BlockOverrides): Block {
  const h = block.header;
  // BlockOverrides.Apply, then NewEVM's NoBaseFee: a call that pays no fee sees no base fee.
  if (o) return overriddenContext(chain.common, h, noBaseFee ? 0n : (o.baseFee ?? h.baseFee ?? 0n), o);
  let byFee = contexts.get(block);
  if (!byFee) {
    byFee = new Map();
    contexts.set(block, byFee);
  }
  let exec = byFee.get(noBaseFee);
  if (!exec) {
    exec = overriddenContext(chain.common, h, noBaseFee ? 0n : (h.baseFee ?? 0n), undefined);
    byFee.set(noBaseFee, exec);
  }
  return exec;
}

/** RPCEVMTimeout (ethconfig's default): how long eth_call may run; coreth then answers its text. */
const RPC_EVM_TIMEOUT_MS = 5_000;
const callTimeout = () => new CallFailure(`execution aborted (timeout = ${RPC_EVM_TIMEOUT_MS / 1000}s)`, -32000);

/**
 * Runs the message `make` builds with `gas` on `block`'s state (its successor's context, as geth's
 * pending-less eth_call does on `block`), on the chain's reader, paced by `pacer`: sliced, and
 * aborted past its deadline. `root` is the state's: a caller that runs a message more than once
 * (the estimator, a failure's second run) takes it once, so that a dev edit made meanwhile does not
 * give its runs different states.
 */
export async function execute(
  chain: EvmChain,
  block: StoredBlock,
  make: (gas: bigint) => Message,
  gas: bigint,
  pacer: Pacer,
  overrides?: Map<string, StateOverride>,
  observe?: (vm: VM) => () => void,
  blockOverrides?: BlockOverrides,
  root: Uint8Array = chain.stateRootOf(block),
): Promise<RunTxResult> {
  const m = make(gas);
  // Warp predicates in a call's access list are read (and cost their gas) but not verified: with no
  // block's results, a call sees every one as valid, as subnet-evm's eth_call does.
  const predicates = predicatesOf(chain, m);
  return chain.withState(root, async (vm) => {
    await applyOverrides(vm, overrides);
    // Attached before refuseState: a recording of what the call reads (answers.ts) has its balance check too.
    const detach = observe?.(vm);
    try {
      await refuseState(vm, m);
      const exec = callContext(chain, block, m.noBaseFee, blockOverrides);
      if (predicates) setRunningPredicates(vm.evm, { ...predicates, invalid: new Set() });
      // doCall's GetHashFn keeps the real header as its reference whatever number the overrides give.
      const hashRef = blockOverrides ? block.header.number : undefined;
      try {
        return await skippingSenderCheck(vm, m.from, () =>
          withHashReference(vm, hashRef, () =>
            paced(vm, pacer, () => runTx(vm, { tx: m.tx, block: exec, skipNonce: true, skipHardForkValidation: true, skipBlockGasLimitValidation: true })),
          ),
        );
      } catch (err) {
        // The reader outlives the call: what a run thrown out of left behind goes with it (withState
        // unwinds its state's checkpoints).
        dropTransientStorage(vm);
        if (err instanceof CallFailure) throw err; // the timeout
        throw engineRefusal(err as Error);
      }
    } finally {
      detach?.();
      setRunningPredicates(vm.evm, undefined);
    }
  });
}

/**
 * An observer (execute's `observe`) that has the reader's state manager note what the run reads
 * into `reads`, until the call's message ends: what runTx reads after it (the sender's refund, the
 * coinbase it credits with the call's zero fee) decides nothing the call answers.
 */
export const recordReads =
  (reads: CallReads) =>
  (vm: VM): (() => void) => {
    const sm = vm.stateManager as ReaderStateManager;
    const evm = vm.evm as EVM;
    const runCall = evm.runCall;
    const own = Object.hasOwn(evm, 'runCall');
    let depth = 0;
    sm.reads = reads;
    // Every frame's message goes through runCall (a CALL's too): the outermost one's end ends the recording.
    evm.runCall = async (opts) => {
      depth++;
      try {
        return await runCall.call(evm, opts);
      } finally {
        if (--depth === 0) sm.reads = undefined;
      }
    };
    return () => {
      sm.reads = undefined;
      if (own) evm.runCall = runCall;
      else delete (evm as { runCall?: unknown }).runCall;
    };
  };

/** An observer (execute's `observe`) that hands every step of the run to `step`, and lets go once it ends. */
export const watchSteps =
  (step: (ev: InterpreterStep) => void) =>
  (vm: VM): (() => void) => {
    vm.evm.events!.on('step', step);
    return () => vm.evm.events!.off('step', step);
  };

/**
 * One run of `args` on `block` (at state `root`) as eth_call runs it (5 s at most), with `observe`
 * attached to the reader's VM meanwhile (eth_createAccessList's tracer); refusals are Refusals.
 */
export function observedRun(
  chain: EvmChain,
  block: StoredBlock,
  args: CallArgs,
  observe: (vm: VM) => () => void,
  root = chain.stateRootOf(block),
): Promise<RunTxResult> {
  const baseFee = block.header.baseFee ?? 0n;
  const make = (gas: bigint) => message(chain, args, gas, baseFee);
  return execute(chain, block, make, callGas(args), new Pacer(RPC_EVM_TIMEOUT_MS, callTimeout), undefined, observe, undefined, root);
}

/**
 * The transient storage of a run that threw: ethereumjs clears it when the tx's frame ends, which
 * never happened, and each open frame left a checkpoint. They are reverted (revert refuses once
 * none is left) and the storage emptied, so that the reader's next call starts without them.
 */
function dropTransientStorage(vm: VM): void {
  const storage = (vm.evm as EVM).transientStorage;
  for (;;) {
    try {
      storage.revert();
    } catch {
      break;
    }
  }
  storage.clear();
}

/**
 * doCall: one run of `args` on `block` (5 s at most), with geth's text for its failure; what
 * ApplyMessage refuses is answered `err: <text> (supplied gas N)`, the timeout as its own text.
 */
async function doCall(
  chain: EvmChain,
  block: StoredBlock,
  args: CallArgs,
  overrides?: Map<string, StateOverride>,
  blockOverrides?: BlockOverrides,
  reads?: CallReads,
  root = chain.stateRootOf(block),
  sink?: ConsoleSink,
): Promise<{ result: RunTxResult; failure: string | undefined }> {
  const gas = callGas(args);
  // ToMessage prices the message at the context's base fee, an overridden one included.
  const baseFee = blockOverrides?.baseFee ?? block.header.baseFee ?? 0n;
  const make = (g: bigint) => message(chain, args, g, baseFee);
  const run = (observe?: (vm: VM) => () => void) =>
    execute(chain, block, make, gas, new Pacer(RPC_EVM_TIMEOUT_MS, callTimeout), overrides, observe, blockOverrides, root);
  try {
    // The first run only takes console calls: a failure's second run prints nothing again.
    const result = await run(both(reads && recordReads(reads), sink && ((vm) => watchConsole(vm, sink))));
    return { result, failure: await failureText(result, run) };
  } catch (err) {
    if (err instanceof Refusal) throw new CallFailure(`err: ${err.message} (supplied gas ${gas})`, -32000);
    throw err;
  }
}

type Observer = (vm: VM) => () => void;

/** Two of execute's observers as one (either may be absent). */
export function both(a: Observer | undefined, b: Observer | undefined): Observer | undefined {
  if (!a || !b) return a ?? b;
  return (vm) => {
    const [undoA, undoB] = [a(vm), b(vm)];
    return () => {
      undoB();
      undoA();
    };
  };
}

/**
 * With --dev, a sink for what a call sends to console.sol's address (see printConsole), whether it
 * prints now or not (anvil_setLoggingEnabled): a run that logged is never kept, to print when asked again.
 */
const consoleSinkOf = (chain: EvmChain): ConsoleSink | undefined => (chain.takesConsole ? new ConsoleSink() : undefined);

/** Prints what the call sent to console.sol's address, once its run is done (whatever it answered). */
function printConsole(chain: EvmChain, sink: ConsoleSink | undefined, method: string | undefined): void {
  if (sink?.any && method !== undefined) chain.consoleLog?.(sink.lines(), { call: method });
}

/** The errors whose text in geth names the op that failed (core/vm: ErrStackUnderflow, ErrStackOverflow, ErrInvalidOpCode). */
const NAMED_BY_OP = new Set<string>([EVMErrors.errorMessages.STACK_UNDERFLOW, EVMErrors.errorMessages.STACK_OVERFLOW, EVMErrors.errorMessages.INVALID_OPCODE]);

/**
 * geth's text for a run's failure. A few name the op that failed (`stack underflow (0 <=> 3)`,
 * `invalid opcode: INVALID`), which no run keeps: that run is made again (`again`) with its own
 * frame's ops watched, so that only such failures pay for it.
 */
export async function failureText(r: RunTxResult, again: (observe: (vm: VM) => () => void) => Promise<RunTxResult>): Promise<string | undefined> {
  const err = r.execResult.exceptionError as EVMError | undefined;
  if (!err || !NAMED_BY_OP.has(err.error)) return gethError(err);
  let last: FailedStep | undefined;
  await again(
    watchSteps((ev) => {
      if (ev.depth === 0) last = { code: ev.opcode.code, stackLen: ev.stack.length };
    }),
  );
  return stepError(err, last).text;
}

/**
 * eth_call: the return data, or the call's failure. `printAs` names the method whose console.log
 * lines the run prints (with --dev); the node's own calls (anvil_dealERC20's probes, the relayer's)
 * print none.
 */
export async function call(
  chain: EvmChain,
  block: StoredBlock,
  args: CallArgs,
  overrides?: Map<string, StateOverride>,
  blockOverrides?: BlockOverrides,
  printAs?: string,
): Promise<Uint8Array> {
  const root = chain.stateRootOf(block);
  const call = overrides === undefined && blockOverrides === undefined ? callKey(args) : undefined;
  // Every run takes console calls (with --dev), so that none that logged is kept and answered later
  // without printing; only a client's call prints them.
  const sink = consoleSinkOf(chain);
  const answer = await answered<Uint8Array>(
    chain,
    block,
    call,
    root,
    carriable(args),
    async (reads) => {
      try {
        const { result, failure } = await doCall(chain, block, args, overrides, blockOverrides, reads, root, sink);
        return outcome(result, failure);
      } finally {
        printConsole(chain, sink, printAs);
      }
    },
    () => !sink?.any,
  );
  if (answer instanceof CallFailure) throw answer;
  return answer;
}

/** coreth's DetailedExecutionResult: its numbers are plain JSON numbers (uint64 and int, not hexutil). */
export interface DetailedResult {
  gas: number;
  errCode: number;
  err: string;
  returnData: Uint8Array;
}

/**
 * eth_callDetailed (coreth's and Subnet-EVM's, on by default): doCall's run with its gas and its
 * failure in the answer. A revert with data is revertError's (code 3, its reason); any other
 * failure of the run has no rpc.Error code (0) and the EVM's text; refusals fail the request as
 * eth_call's do.
 */
export async function callDetailed(chain: EvmChain, block: StoredBlock, args: CallArgs, overrides?: Map<string, StateOverride>): Promise<DetailedResult> {
  const sink = consoleSinkOf(chain);
  let ran: Awaited<ReturnType<typeof doCall>>;
  try {
    ran = await doCall(chain, block, args, overrides, undefined, undefined, chain.stateRootOf(block), sink);
  } finally {
    printConsole(chain, sink, 'eth_callDetailed');
  }
  const { result: r, failure: failed } = ran;
  const returnData = r.execResult.returnValue;
  const reverted = failed === 'execution reverted' && returnData.length > 0 ? revertError(returnData) : undefined;
  return {
    gas: Number(r.totalGasSpent),
    errCode: reverted?.code ?? 0,
    err: reverted?.message ?? failed ?? '',
    returnData,
  };
}

/** eth_call's answer: the return data, or the failure (with geth's text) it answers instead. */
function outcome(r: RunTxResult, failure: string | undefined): Uint8Array | CallFailure {
  if (failure === undefined) return r.execResult.returnValue;
  if (failure === 'execution reverted') return revertError(r.execResult.returnValue);
  return new CallFailure(failure, -32000);
}

/** The base fee a tx sent now would pay (eth_baseFee's EstimateNextBaseFee). */
export function nextBaseFee(chain: EvmChain, nowMs: bigint): bigint {
  const parent = chain.head.header;
  const t = parent.timeMilliseconds !== undefined && parent.timeMilliseconds > nowMs ? parent.timeMilliseconds : nowMs;
  return chain.flavor.nextFees(parent, t, chain.headRules).baseFee;
}

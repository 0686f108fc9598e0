// eth_call and eth_estimateGas as geth runs them (internal/ethapi DoCall, eth/gasestimator): the
// message built from TransactionArgs with RPCGasCap 50M, a zero base fee when no price is given
// (NoBaseFee), state overrides, and the estimator's binary search with its optimistic first guess.
import type { Block } from '@ethereumjs/block';
import type { EVM, EVMError } from '@ethereumjs/evm';
import { createAccessList2930Tx, createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { Account, Address, bytesToBigInt, toChecksumAddress } from '@ethereumjs/util';
import { runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import type { EvmChain } from './chain.js';
import { execBlock, gethError, paced, skippingSenderCheck } from './execution.js';
import { PoolError } from './pool.js';
import { setRunningPredicates } from './warp/receive.js';
import type { StoredBlock } from './store.js';
import { Pacer } from './trace/index.js';

/** RPCGasCap */
export const RPC_GAS_CAP = 50_000_000n;

export interface CallArgs {
  from?: Uint8Array;
  to?: Uint8Array;
  gas?: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  value?: bigint;
  nonce?: bigint;
  data?: Uint8Array;
  accessList?: Array<{ address: Uint8Array; storageKeys: Uint8Array[] }>;
}

export interface StateOverride {
  balance?: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  state?: Map<string, Uint8Array>;
  stateDiff?: Map<string, Uint8Array>;
}

/** A failed call: a revert (with its data) or another error, in the shapes geth answers. */
export class CallFailure extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: Uint8Array,
  ) {
    super(message);
  }
}

/** abi.UnpackRevert: the reason of an Error(string) revert. */
export function revertReason(data: Uint8Array): string | undefined {
  const panic = panicReason(data);
  if (panic !== undefined) return panic;
  if (data.length < 68 || Buffer.from(data.subarray(0, 4)).toString('hex') !== '08c379a0') return undefined;
  const b = Buffer.from(data);
  const offset = Number(bytesToBigInt(b.subarray(4, 36)));
  if (offset + 36 > b.length) return undefined;
  const length = Number(bytesToBigInt(b.subarray(4 + offset, 36 + offset)));
  if (36 + offset + length > b.length) return undefined;
  return b.subarray(36 + offset, 36 + offset + length).toString('utf8');
}

/** abi.UnpackRevert's Panic(uint256) texts (go-ethereum accounts/abi panicReasons). */
const PANICS: Record<number, string> = {
  0: 'generic panic',
  1: 'assert(false)',
  17: 'arithmetic underflow or overflow',
  18: 'division or modulo by zero',
  33: 'enum overflow',
  34: 'invalid encoded storage byte array accessed',
  49: 'out-of-bounds array access; popping on an empty array',
  50: 'out-of-bounds access of an array or bytesN',
  65: 'out of memory',
  81: 'uninitialized function',
};

function panicReason(data: Uint8Array): string | undefined {
  if (data.length !== 36 || Buffer.from(data.subarray(0, 4)).toString('hex') !== '4e487b71') return undefined;
  const code = bytesToBigInt(data.subarray(4));
  const known = code < 256n ? PANICS[Number(code)] : undefined;
  return known ?? `unknown panic code: ${`0x${code.toString(16)}`}`;
}

export function revertError(data: Uint8Array): CallFailure {
  if (data.length === 0) return new CallFailure('execution reverted', -32000);
  const reason = revertReason(data);
  return new CallFailure(reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, 3, data);
}

export interface Message {
  tx: TypedTransaction;
  from: Address;
  gas: bigint;
  feeCap: bigint;
  value: bigint;
  noBaseFee: boolean;
}

/**
 * What coreth's state transition refuses before it runs a message (core.ApplyMessage's error, in
 * its text). eth_call answers it as `err: <text> (supplied gas N)`, eth_estimateGas as `failed
 * with N gas: <text>` (an intrinsic gas refusal only tells the estimator to try more gas), and
 * debug_traceCall as `tracing failed: <text>`.
 */
export class Refusal extends Error {
  constructor(
    message: string,
    /** ErrIntrinsicGas: the gas limit is below what the message costs before it runs. */
    readonly intrinsic = false,
  ) {
    super(message);
  }
}

/** params.MaxInitCodeSize (EIP-3860, Durango on): what a create message may carry. */
const MAX_INITCODE_SIZE = 49_152;
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
function messages(chain: EvmChain, args: CallArgs, baseFee: bigint): (gas: bigint) => Message {
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
 * as geth's SkipAccountChecks: skippingSenderCheck.)
 */
function engineRefusal(err: Error): Refusal {
  return new Refusal(err.message.replace(/ \(.*$/s, ''));
}

/** The message eth_call would run on `block` (for debug_traceCall); throws Refusal as ApplyMessage would. */
export function callMessage(chain: EvmChain, args: CallArgs, block: StoredBlock): Message {
  return message(chain, args, callGas(args), block.header.baseFee ?? 0n);
}

/** Per block, the context its calls run in, with and without its base fee: the same for every call on it. */
const contexts = new WeakMap<StoredBlock, Map<boolean, Block>>();

function callContext(chain: EvmChain, block: StoredBlock, noBaseFee: boolean): Block {
  let byFee = contexts.get(block);
  if (!byFee) {
    byFee = new Map();
    contexts.set(block, byFee);
  }
  let exec = byFee.get(noBaseFee);
  if (!exec) {
    const h = block.header;
    exec = execBlock(chain.common, {
      number: h.number,
      time: h.time,
      gasLimit: h.gasLimit,
      baseFee: noBaseFee ? 0n : (h.baseFee ?? 0n),
      difficulty: h.difficulty,
      coinbase: h.coinbase,
    });
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
 * aborted past its deadline.
 */
async function execute(
  chain: EvmChain,
  block: StoredBlock,
  make: (gas: bigint) => Message,
  gas: bigint,
  pacer: Pacer,
  overrides?: Map<string, StateOverride>,
  observe?: (vm: VM) => () => void,
): Promise<RunTxResult> {
  const m = make(gas);
  // Warp predicates in a call's access list are read (and cost their gas) but not verified: with no
  // block's results, a call sees every one as valid, as subnet-evm's eth_call does.
  const predicates = predicatesOf(chain, m);
  return chain.withState(chain.stateRootOf(block), async (vm) => {
    await applyOverrides(vm, overrides);
    await refuseState(vm, m);
    const exec = callContext(chain, block, m.noBaseFee);
    if (predicates) setRunningPredicates(vm.evm, { ...predicates, invalid: new Set() });
    const detach = observe?.(vm);
    try {
      return await skippingSenderCheck(vm, m.from, () =>
        paced(vm, pacer, () => runTx(vm, { tx: m.tx, block: exec, skipNonce: true, skipHardForkValidation: true, skipBlockGasLimitValidation: true })),
      );
    } catch (err) {
      // The reader outlives the call: what a run thrown out of left behind goes with it (withState
      // unwinds its state's checkpoints).
      dropTransientStorage(vm);
      if (err instanceof CallFailure) throw err; // the timeout
      throw engineRefusal(err as Error);
    } finally {
      detach?.();
      setRunningPredicates(vm.evm, undefined);
    }
  });
}

/**
 * One run of `args` on `block` as eth_call runs it (5 s at most), with `observe` attached to the
 * reader's VM meanwhile (eth_createAccessList's tracer); refusals are Refusals.
 */
export function observedRun(chain: EvmChain, block: StoredBlock, args: CallArgs, observe: (vm: VM) => () => void): Promise<RunTxResult> {
  const baseFee = block.header.baseFee ?? 0n;
  return execute(chain, block, (gas) => message(chain, args, gas, baseFee), callGas(args), new Pacer(RPC_EVM_TIMEOUT_MS, callTimeout), undefined, observe);
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

/** ToMessage's gas: the caller's, within RPCGasCap (none or 0: the cap). */
export const callGas = (args: CallArgs) => (args.gas === undefined || args.gas > RPC_GAS_CAP || args.gas === 0n ? RPC_GAS_CAP : args.gas);

/**
 * eth_call's answers, by what decides them: the state the call runs on, its block (BLOCKHASH goes
 * back through its ancestors by number, so the head's hash too: a new head or a revert to another
 * branch starts over) and every field of the call. A call is a pure function of these, so a call
 * asked again (a front end polling balanceOf, several components reading one value) gets the
 * answer the first run gave without running again. What did not come out of a completed run (a
 * refusal, the timeout) is never kept, nor a call with state overrides or large data.
 */
class Answers {
  private readonly entries = new Map<string, Uint8Array | CallFailure>();
  private bytes = 0;

  get(key: string): Uint8Array | CallFailure | undefined {
    const answer = this.entries.get(key);
    if (answer !== undefined) {
      // Most recently asked last: the oldest go first.
      this.entries.delete(key);
      this.entries.set(key, answer);
    }
    return answer;
  }

  set(key: string, answer: Uint8Array | CallFailure): void {
    const size = key.length + answerSize(answer);
    if (size > ANSWER_BYTES / 16) return;
    while (this.entries.size >= ANSWERS || (this.bytes + size > ANSWER_BYTES && this.entries.size > 0)) {
      const [oldest, dropped] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.bytes -= oldest.length + answerSize(dropped);
    }
    this.entries.set(key, answer);
    this.bytes += size;
  }
}

/** Answers kept per chain, at most, and their bytes (keys and return data). */
const ANSWERS = 4096;
const ANSWER_BYTES = 16 * 1024 * 1024;
/** Calldata past this is not kept (nor looked up): such calls are rarely asked twice. */
const KEPT_CALLDATA = 8 * 1024;

const answerSize = (a: Uint8Array | CallFailure): number => (a instanceof CallFailure ? a.message.length + (a.data?.length ?? 0) : a.length);

const answersByChain = new WeakMap<EvmChain, Answers>();

function answersOf(chain: EvmChain): Answers {
  let answers = answersByChain.get(chain);
  if (!answers) {
    answers = new Answers();
    answersByChain.set(chain, answers);
  }
  return answers;
}

const hexOf = (b: Uint8Array | undefined): string => (b === undefined ? '-' : Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex'));
const numberOf = (n: bigint | undefined): string => (n === undefined ? '-' : n.toString(16));

/** The key's start for the last head, block and state root asked about (most calls ask about the head). */
let lastState: { head: StoredBlock; block: StoredBlock; root: Uint8Array; prefix: string } | undefined;

function stateKey(chain: EvmChain, block: StoredBlock): string {
  const head = chain.head;
  const root = chain.stateRootOf(block);
  if (lastState?.head !== head || lastState.block !== block || lastState.root !== root) {
    lastState = { head, block, root, prefix: `${hexOf(head.hash)}|${hexOf(block.hash)}|${hexOf(root)}` };
  }
  return lastState.prefix;
}

/** What decides a call's answer, as a key; undefined for a call that is not kept. */
function answerKey(chain: EvmChain, block: StoredBlock, args: CallArgs): string | undefined {
  if ((args.data?.length ?? 0) > KEPT_CALLDATA) return undefined;
  const list = args.accessList === undefined ? '-' : args.accessList.map((a) => `${hexOf(a.address)}:${a.storageKeys.map(hexOf).join(',')}`).join(';');
  return [
    stateKey(chain, block),
    hexOf(args.from),
    hexOf(args.to),
    numberOf(args.gas),
    numberOf(args.gasPrice),
    numberOf(args.maxFeePerGas),
    numberOf(args.maxPriorityFeePerGas),
    numberOf(args.value),
    numberOf(args.nonce),
    hexOf(args.data),
    list,
  ].join('|');
}

/** eth_call: the return data, or the call's failure. */
export async function call(chain: EvmChain, block: StoredBlock, args: CallArgs, overrides?: Map<string, StateOverride>): Promise<Uint8Array> {
  const key = overrides === undefined ? answerKey(chain, block, args) : undefined;
  const known = key === undefined ? undefined : answersOf(chain).get(key);
  if (known instanceof CallFailure) throw known;
  if (known !== undefined) return known;
  const gas = callGas(args);
  const baseFee = block.header.baseFee ?? 0n;
  let result: RunTxResult;
  try {
    result = await execute(chain, block, (g) => message(chain, args, g, baseFee), gas, new Pacer(RPC_EVM_TIMEOUT_MS, callTimeout), overrides);
  } catch (err) {
    // doCall: `err: %w (supplied gas %d)` around whatever ApplyMessage refused.
    if (err instanceof Refusal) throw new CallFailure(`err: ${err.message} (supplied gas ${gas})`, -32000);
    throw err;
  }
  let answer: Uint8Array | CallFailure;
  try {
    answer = outcome(result);
  } catch (err) {
    if (!(err instanceof CallFailure)) throw err;
    answer = err;
  }
  // Kept only if the head is still the one the key names (the run awaited the reader).
  if (key !== undefined && key === answerKey(chain, block, args)) answersOf(chain).set(key, answer);
  if (answer instanceof CallFailure) throw answer;
  return answer;
}

function outcome(r: RunTxResult): Uint8Array {
  const err = r.execResult.exceptionError as EVMError | undefined;
  if (!err) return r.execResult.returnValue;
  if (gethError(err) === 'execution reverted') throw revertError(r.execResult.returnValue);
  throw new CallFailure(gethError(err)!, -32000);
}

/**
 * One of the estimator's runs (gasestimator's execute): the result, or undefined when coreth would
 * refuse the message for its intrinsic gas (the estimator then tries more). Any other refusal
 * is the answer: `failed with N gas: <text>`.
 */
async function estimateRun(chain: EvmChain, block: StoredBlock, make: (gas: bigint) => Message, gas: bigint, overrides?: Map<string, StateOverride>) {
  try {
    // No timeout, as gasestimator has none of its own; its runs are sliced all the same.
    return await execute(chain, block, make, gas, new Pacer(), overrides);
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    if (err.intrinsic) return undefined;
    throw new CallFailure(`failed with ${gas} gas: ${err.message}`, -32000);
  }
}

/** eth_estimateGas */
export async function estimateGas(chain: EvmChain, block: StoredBlock, args: CallArgs, overrides?: Map<string, StateOverride>): Promise<bigint> {
  // DoEstimateGas builds the message before it estimates anything.
  checkFeeFields(args);
  let hi = args.gas !== undefined && args.gas >= 21_000n ? args.gas : block.header.gasLimit;
  const feeCap = args.gasPrice ?? args.maxFeePerGas ?? 0n;
  if (feeCap > 0n) {
    // The message's sender: the zero address when none is named.
    const account = await chain.account(args.from ?? new Uint8Array(20), chain.stateRootOf(block));
    let available = account?.balance ?? 0n;
    const value = args.value ?? 0n;
    if (value > 0n) {
      if (value >= available) throw new CallFailure('insufficient funds for transfer', -32000);
      available -= value;
    }
    const allowance = available / feeCap;
    if (hi > allowance) hi = allowance;
  }
  if (hi > RPC_GAS_CAP) hi = RPC_GAS_CAP;
  const make = messages(chain, args, block.header.baseFee ?? 0n);
  const run = (gas: bigint) => estimateRun(chain, block, make, gas, overrides);
  // A plain transfer to an account without code: 21,000 when that runs (gasestimator's short cut).
  if (args.to && (args.data ?? new Uint8Array()).length === 0) {
    const code = await chain.withState(chain.stateRootOf(block), async (vm) => {
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
  const first = await run(hi);
  if (!first) throw new CallFailure(`gas required exceeds allowance (${hi})`, -32000);
  if (first.execResult.exceptionError) {
    const text = gethError(first.execResult.exceptionError as EVMError);
    if (text === 'execution reverted') throw revertError(first.execResult.returnValue);
    if (text === 'out of gas') throw new CallFailure(`gas required exceeds allowance (${hi})`, -32000);
    throw new CallFailure(text!, -32000);
  }
  const fails = async (gas: bigint) => {
    const r = await run(gas);
    return !r || !!r.execResult.exceptionError;
  };
  // geth's UsedGas is ethereumjs's totalGasSpent (net of the refund paid), and RefundedGas the refund
  // paid: none, as coreth pays none since Apricot Phase 1 (nor Subnet-EVM; rules.ts dropRefunds),
  // whatever ethereumjs's refund counter (gasRefund: 4,800 for a cleared slot) has summed.
  const usedGas = first.totalGasSpent;
  const start = { lo: usedGas - 1n, hi };
  // gasestimator's search only tries limits above lo = UsedGas - 1, so when every limit it tries
  // succeeds it ends at a limit found without running anything. One run at that limit settles it:
  // if it succeeds, so does every larger limit the search would have tried (the search itself
  // assumes success is monotonic in the limit), and the answer is gasestimator's. Only when it
  // fails is the search run for real, from the start.
  const guess = await searchGas(start, async () => false);
  if (guess === hi || !(await fails(guess))) return guess;
  return searchGas(start, fails);
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

/** The base fee a tx sent now would pay (eth_baseFee's EstimateNextBaseFee). */
export function nextBaseFee(chain: EvmChain, nowMs: bigint): bigint {
  const parent = chain.head.header;
  const t = parent.timeMilliseconds !== undefined && parent.timeMilliseconds > nowMs ? parent.timeMilliseconds : nowMs;
  return chain.flavor.nextFees(parent, t, chain.headRules).baseFee;
}

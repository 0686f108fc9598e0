// eth_call and eth_estimateGas as geth runs them (internal/ethapi DoCall, eth/gasestimator): the
// message built from TransactionArgs with RPCGasCap 50M, a zero base fee when no price is given
// (NoBaseFee), state overrides, and the estimator's binary search with its optimistic first guess.
import type { Block } from '@ethereumjs/block';
import type { EVMError } from '@ethereumjs/evm';
import { createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { Account, Address, bytesToBigInt, toChecksumAddress } from '@ethereumjs/util';
import { runTx, type RunTxResult, type VM } from '@ethereumjs/vm';
import type { EvmChain } from './chain.js';
import { execBlock, gethError } from './execution.js';
import { PoolError } from './pool.js';
import { setRunningPredicates } from './warp/receive.js';
import type { StoredBlock } from './store.js';

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
  noBaseFee: boolean;
}

function message(chain: EvmChain, args: CallArgs, gas: bigint, baseFee: bigint): Message {
  if (args.gasPrice !== undefined && (args.maxFeePerGas !== undefined || args.maxPriorityFeePerGas !== undefined)) {
    throw new CallFailure('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified', -32000);
  }
  const from = new Address(args.from ?? new Uint8Array(20));
  const common = chain.common;
  const base = { nonce: args.nonce ?? 0n, gasLimit: gas, to: args.to, value: args.value ?? 0n, data: args.data ?? new Uint8Array() };
  let tx: TypedTransaction;
  let feeCap: bigint;
  let priced: boolean;
  if (args.gasPrice !== undefined) {
    feeCap = args.gasPrice;
    priced = feeCap > 0n;
    tx = createLegacyTx({ ...base, gasPrice: feeCap }, { common, freeze: false });
  } else {
    feeCap = args.maxFeePerGas ?? 0n;
    const tip = args.maxPriorityFeePerGas ?? 0n;
    priced = feeCap > 0n || tip > 0n;
    if (priced && args.maxFeePerGas === undefined) feeCap = tip + baseFee * 2n;
    if (tip > feeCap)
      throw new CallFailure(
        `max priority fee per gas higher than max fee per gas: address ${toChecksumAddress(from.toString())}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${feeCap}`,
        -32000,
      );
    tx = createFeeMarket1559Tx(
      {
        ...base,
        maxFeePerGas: feeCap,
        maxPriorityFeePerGas: tip,
        accessList: (args.accessList ?? []).map((a) => [a.address, a.storageKeys] as [Uint8Array, Uint8Array[]]),
      },
      { common, freeze: false },
    );
  }
  // The call is nobody's signed tx: its sender is whoever the caller names.
  Object.defineProperty(tx, 'getSenderAddress', { value: () => from });
  return { tx, from, gas, feeCap, noBaseFee: !priced };
}

async function applyOverrides(vm: VM, overrides: Map<string, StateOverride> | undefined): Promise<void> {
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

/** geth's texts for what runTx refuses before executing. */
function preCheckError(err: Error, m: Message, balance: () => Promise<bigint>, want: bigint): Promise<CallFailure> | CallFailure {
  const text = err.message;
  if (text.includes("doesn't have enough funds")) {
    return balance().then(
      (have) =>
        new CallFailure(`insufficient funds for gas * price + value: address ${toChecksumAddress(m.from.toString())} have ${have} want ${want}`, -32000),
    );
  }
  const intrinsic = /INTRINSIC_GAS_TOO_LOW: tx gas limit (\d+) is lower than the minimum gas limit of (\d+)/.exec(text);
  if (intrinsic) return new CallFailure(`intrinsic gas too low: have ${intrinsic[1]}, want ${intrinsic[2]}`, -32000);
  const baseFee = /is less than the block's baseFeePerGas \((\d+)\)/.exec(text);
  if (baseFee)
    return new CallFailure(
      `max fee per gas less than block base fee: address ${toChecksumAddress(m.from.toString())}, maxFeePerGas: ${m.feeCap}, baseFee: ${baseFee[1]}`,
      -32000,
    );
  if (text.includes('EIP-3607')) return new CallFailure(`sender not an eoa: address ${toChecksumAddress(m.from.toString())}`, -32000);
  return new CallFailure(text.replace(/ \(.*$/s, ''), -32000);
}

/** The message eth_call would run on `block` (for debug_traceCall). */
export function callMessage(chain: EvmChain, args: CallArgs, block: StoredBlock): Message {
  const gas = args.gas === undefined || args.gas > RPC_GAS_CAP || args.gas === 0n ? RPC_GAS_CAP : args.gas;
  return message(chain, args, gas, block.header.baseFee ?? 0n);
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

/** Runs the message on `block`'s state (its successor's context, as geth's pending-less eth_call does on `block`). */
async function execute(chain: EvmChain, block: StoredBlock, args: CallArgs, gas: bigint, overrides?: Map<string, StateOverride>): Promise<RunTxResult> {
  const h = block.header;
  const baseFee = h.baseFee ?? 0n;
  const m = message(chain, args, gas, baseFee);
  // Warp predicates in a call's access list are read (and cost their gas) but not verified: with no
  // block's results, a call sees every one as valid, as subnet-evm's eth_call does.
  let predicates: ReturnType<EvmChain['readWarpPredicates']>;
  try {
    predicates = chain.readWarpPredicates(m.tx);
  } catch (err) {
    if (err instanceof PoolError) throw new CallFailure(err.message, -32000);
    throw err;
  }
  return chain.withState(chain.stateRootOf(block), async (vm) => {
    await applyOverrides(vm, overrides);
    const exec = callContext(chain, block, m.noBaseFee);
    if (predicates) setRunningPredicates(vm.evm, { ...predicates, invalid: new Set() });
    try {
      return await runTx(vm, { tx: m.tx, block: exec, skipNonce: true, skipHardForkValidation: true, skipBlockGasLimitValidation: true });
    } catch (err) {
      const want = gas * m.feeCap + (args.value ?? 0n);
      throw await preCheckError(err as Error, m, async () => (await vm.stateManager.getAccount(m.from))?.balance ?? 0n, want);
    } finally {
      setRunningPredicates(vm.evm, undefined);
    }
  });
}

/** eth_call: the return data, or the call's failure. */
export async function call(chain: EvmChain, block: StoredBlock, args: CallArgs, overrides?: Map<string, StateOverride>): Promise<Uint8Array> {
  const gas = args.gas === undefined || args.gas > RPC_GAS_CAP || args.gas === 0n ? RPC_GAS_CAP : args.gas;
  const r = await execute(chain, block, args, gas, overrides);
  return outcome(r);
}

function outcome(r: RunTxResult): Uint8Array {
  const err = r.execResult.exceptionError as EVMError | undefined;
  if (!err) return r.execResult.returnValue;
  if (gethError(err) === 'execution reverted') throw revertError(r.execResult.returnValue);
  throw new CallFailure(gethError(err)!, -32000);
}

/** eth_estimateGas */
export async function estimateGas(chain: EvmChain, block: StoredBlock, args: CallArgs, overrides?: Map<string, StateOverride>): Promise<bigint> {
  let hi = args.gas !== undefined && args.gas >= 21_000n ? args.gas : block.header.gasLimit;
  const feeCap = args.gasPrice ?? args.maxFeePerGas ?? 0n;
  if (feeCap > 0n && args.from) {
    const account = await chain.account(args.from, chain.stateRootOf(block));
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
  // A plain transfer to an account without code costs exactly 21,000 (gasestimator's short cut).
  if (args.to && (args.data ?? new Uint8Array()).length === 0 && !overrides) {
    const code = await chain.withState(chain.stateRootOf(block), (vm) => vm.stateManager.getCode(new Address(args.to!)));
    if (code.length === 0 && hi >= 21_000n) return 21_000n;
  }
  const run = (gas: bigint) => execute(chain, block, args, gas, overrides);
  const first = await run(hi).catch((err) => {
    if (err instanceof CallFailure && /^intrinsic gas too low/.test(err.message)) throw new CallFailure(`gas required exceeds allowance (${hi})`, -32000);
    throw err;
  });
  if (first.execResult.exceptionError) {
    const text = gethError(first.execResult.exceptionError as EVMError);
    if (text === 'execution reverted') throw revertError(first.execResult.returnValue);
    if (text === 'out of gas') throw new CallFailure(`gas required exceeds allowance (${hi})`, -32000);
    throw new CallFailure(text!, -32000);
  }
  const fails = async (gas: bigint) => {
    try {
      return !!(await run(gas)).execResult.exceptionError;
    } catch (err) {
      if (err instanceof CallFailure && /^intrinsic gas too low/.test(err.message)) return true;
      throw err;
    }
  };
  let lo = first.totalGasSpent - 1n;
  const optimistic = ((first.totalGasSpent + 2300n) * 64n) / 63n;
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

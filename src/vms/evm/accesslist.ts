// eth_createAccessList (internal/ethapi's AccessList with libevm's AccessListTracer): the message is
// run with the access list found so far until a run touches nothing new. Touched are the slots a
// contract reads or writes, and the addresses an op looks at or calls, but for the sender, the
// recipient (or the created address) and the precompiles. The answer is the list, the gas the last
// run used and, if that run failed, the EVM's error.
import type { InterpreterStep } from '@ethereumjs/evm';
import { RLP } from '@ethereumjs/rlp';
import { Address, bigIntToUnpaddedBytes, bytesToHex as hex } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { type CallArgs, CallFailure, callGas, checkFeeFields, observedRun, Refusal } from './calls.js';
import type { EvmChain } from './chain.js';
import { keccak256 } from '../../crypto/keccak.js';
import { createdAddress, gethError } from './execution.js';
import { word } from './trace/util.js';
import type { StoredBlock } from './store.js';

/** Addresses in their first-touched order, each with its slots in theirs (geth's map has no order). */
type Touched = Map<string, Set<string>>;

export interface AccessListResult {
  accessList: Array<{ address: string; storageKeys: string[] }>;
  error?: string;
  gasUsed: string;
}

/**
 * What the caller's args leave to setDefaults: the oracle's tip, and the head's base fee (coreth's
 * setApricotPhase3FeeDefault doubles CurrentHeader().BaseFee, not the next block's).
 */
export interface FeeDefaults {
  tip: bigint;
  baseFee: bigint;
}

const SLOTS = new Set(['SLOAD', 'SSTORE']);
const LOOKS = new Set(['EXTCODECOPY', 'EXTCODEHASH', 'EXTCODESIZE', 'BALANCE', 'SELFDESTRUCT']);
const CALLS = new Set(['DELEGATECALL', 'CALL', 'STATICCALL', 'CALLCODE']);

function touchedOf(list: CallArgs['accessList'], excluded: (a: string) => boolean): Touched {
  const touched: Touched = new Map();
  for (const { address, storageKeys } of list ?? []) {
    const a = hex(address);
    // NewAccessListTracer: an excluded address is only listed if it comes with slots.
    if (!excluded(a) || storageKeys.length > 0) touched.set(a, touched.get(a) ?? new Set());
    for (const k of storageKeys) touched.get(a)!.add(hex(k));
  }
  return touched;
}

const equal = (a: Touched, b: Touched) => a.size === b.size && [...a].every(([k, v]) => b.get(k)?.size === v.size && [...v].every((s) => b.get(k)!.has(s)));

/** libevm's AccessListTracer.CaptureState, on ethereumjs's step event. */
function tracer(touched: Touched, excluded: (a: string) => boolean) {
  const add = (a: string) => {
    if (!touched.has(a)) touched.set(a, new Set());
  };
  return (ev: InterpreterStep) => {
    const name = ev.opcode.name;
    const stack = ev.stack;
    const n = stack.length;
    if (SLOTS.has(name) && n >= 1) {
      const a = ev.address.toString();
      add(a);
      touched.get(a)!.add(`0x${word(stack[n - 1]!)}`);
    } else if (LOOKS.has(name) && n >= 1) {
      const a = `0x${word(stack[n - 1]!).slice(24)}`;
      if (!excluded(a)) add(a);
    } else if (CALLS.has(name) && n >= 5) {
      const a = `0x${word(stack[n - 2]!).slice(24)}`;
      if (!excluded(a)) add(a);
    }
  };
}

const listOf = (t: Touched) => [...t].map(([address, slots]) => ({ address, storageKeys: [...slots] }));
const argsListOf = (t: Touched): CallArgs['accessList'] =>
  [...t].map(([a, slots]) => ({ address: Buffer.from(a.slice(2), 'hex'), storageKeys: [...slots].map((k) => Buffer.from(k.slice(2), 'hex')) }));

/**
 * args.toTransaction().Hash() of the filled-in args: the unsigned tx, V = R = S = 0, hashed as geth
 * hashes it. Encoded here rather than through a tx object, which refuses the values geth takes in
 * this error's text (a nonce of 2^64-1, gas x price past 256 bits).
 */
function unsignedHash(chain: EvmChain, args: CallArgs): string {
  // A quantity as RLP takes it: minimal big-endian bytes, none for 0.
  const q = (n: bigint | undefined) => bigIntToUnpaddedBytes(n ?? 0n);
  const tail = [args.gas, args.to ?? new Uint8Array(), args.value ?? 0n, args.data ?? new Uint8Array()].map((v) =>
    typeof v === 'bigint' || v === undefined ? q(v) : v,
  );
  const accessList = (args.accessList ?? []).map((e) => [e.address, e.storageKeys]);
  const zeros = [q(0n), q(0n), q(0n)];
  if (args.maxFeePerGas !== undefined) {
    const fields = [q(chain.chainId), q(args.nonce), q(args.maxPriorityFeePerGas), q(args.maxFeePerGas), ...tail, accessList, ...zeros];
    return hex(keccak256(Buffer.concat([Buffer.from([2]), RLP.encode(fields)])));
  }
  if (args.accessList) {
    const fields = [q(chain.chainId), q(args.nonce), q(args.gasPrice), ...tail, accessList, ...zeros];
    return hex(keccak256(Buffer.concat([Buffer.from([1]), RLP.encode(fields)])));
  }
  return hex(keccak256(RLP.encode([q(args.nonce), q(args.gasPrice), ...tail, ...zeros])));
}

/** setDefaults for a call that need not be precise: fees, nonce, value; the gas is the cap (the run's). */
async function withDefaults(chain: EvmChain, args: CallArgs, fees: FeeDefaults): Promise<CallArgs & { nonce: bigint }> {
  checkFeeFields(args);
  // No gas given: the RPC gas cap, as setDefaults does when estimating is not needed.
  const out = { ...args, gas: callGas(args) };
  if (args.gasPrice === undefined) {
    out.maxPriorityFeePerGas = args.maxPriorityFeePerGas ?? fees.tip;
    out.maxFeePerGas = args.maxFeePerGas ?? out.maxPriorityFeePerGas + 2n * fees.baseFee;
    if (out.maxFeePerGas < out.maxPriorityFeePerGas) {
      throw new CallFailure(`maxFeePerGas (${out.maxFeePerGas}) < maxPriorityFeePerGas (${out.maxPriorityFeePerGas})`, -32000);
    }
  }
  const from = args.from ?? new Uint8Array(20);
  if (args.nonce === undefined) {
    // GetPoolNonce: the state's nonce past the sender's txs waiting in the pool.
    const stateNonce = (await chain.account(from))?.nonce ?? 0n;
    out.nonce = stateNonce + BigInt(chain.pool.executable(new Address(from).toString(), stateNonce).length);
  }
  if (!args.to && (args.data ?? new Uint8Array()).length === 0) throw new CallFailure('contract creation without any data provided', -32000);
  return out as CallArgs & { nonce: bigint };
}

/** eth_createAccessList on `block`'s state. */
export async function createAccessList(chain: EvmChain, block: StoredBlock, given: CallArgs, fees: FeeDefaults): Promise<AccessListResult> {
  const args = await withDefaults(chain, given, fees);
  const from = hex(args.from ?? new Uint8Array(20));
  const to = args.to ? hex(args.to) : hex(createdAddress(Buffer.from(from.slice(2), 'hex'), args.nonce));
  let precompile: ((a: string) => boolean) | undefined;
  const excluded = (a: string) => a === from || a === to || (precompile?.(a) ?? false);
  let previous = touchedOf(args.accessList, excluded);
  for (;;) {
    const touched = touchedOf(argsListOf(previous), excluded);
    const run: CallArgs = { ...args, accessList: argsListOf(previous) };
    const step = tracer(touched, excluded);
    const observe = (vm: VM) => {
      precompile ??= (a) => vm.evm.getPrecompile?.(a as `0x${string}`) !== undefined;
      vm.evm.events!.on('step', step);
      return () => vm.evm.events!.off('step', step);
    };
    let r: Awaited<ReturnType<typeof observedRun>>;
    try {
      r = await observedRun(chain, block, run, observe);
    } catch (err) {
      if (err instanceof Refusal) throw new CallFailure(`failed to apply transaction: ${unsignedHash(chain, run)} err: ${err.message}`, -32000);
      throw err;
    }
    if (equal(touched, previous)) {
      const error = r.execResult.exceptionError ? gethError(r.execResult.exceptionError) : undefined;
      return { accessList: listOf(previous), ...(error ? { error } : {}), gasUsed: `0x${r.totalGasSpent.toString(16)}` };
    }
    previous = touched;
  }
}

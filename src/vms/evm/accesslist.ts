// eth_createAccessList (internal/ethapi's AccessList with libevm's AccessListTracer): the message is
// run with the access list found so far until a run touches nothing new. Touched are the slots a
// contract reads or writes, and the addresses an op looks at or calls, but for the sender, the
// recipient (or the created address) and the precompiles. The answer is the list, the gas the last
// run used and, if that run failed, the EVM's error.
import type { InterpreterStep } from '@ethereumjs/evm';
import { bytesToHex as hex } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { type CallArgs, CallFailure, Refusal } from './callargs.js';
import { observedRun, watchSteps } from './calls.js';
import type { EvmChain } from './chain.js';
import { createdAddress, gethError } from './execution.js';
import { word } from './trace/util.js';
import type { StoredBlock } from './store.js';
import { type FeeSource, type FilledArgs, setDefaults, type TxArgs, unsignedHash } from './txargs.js';

/** Addresses in their first-touched order, each with its slots in theirs (geth's map has no order). */
export type Touched = Map<string, Set<string>>;

export interface AccessListResult {
  accessList: Array<{ address: string; storageKeys: string[] }>;
  error?: string;
  gasUsed: string;
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
export function tracer(touched: Touched, excluded: (a: string) => boolean) {
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

/** eth_createAccessList on `block`'s state. */
export async function createAccessList(chain: EvmChain, block: StoredBlock, given: TxArgs, fees: FeeSource): Promise<AccessListResult> {
  // Every pass runs on this state, as coreth's on copies of one statedb: a dev edit meanwhile waits.
  const root = chain.stateRootOf(block);
  // setDefaults without an estimate: no gas given is the RPC gas cap (a run is capped by it, as ToMessage caps it).
  const args = await setDefaults(chain, given, fees, true);
  const from = hex(args.from ?? new Uint8Array(20));
  const to = args.to ? hex(args.to) : hex(createdAddress(Buffer.from(from.slice(2), 'hex'), args.nonce));
  let precompile: ((a: string) => boolean) | undefined;
  const excluded = (a: string) => a === from || a === to || (precompile?.(a) ?? false);
  let previous = touchedOf(args.accessList, excluded);
  for (;;) {
    const touched = touchedOf(argsListOf(previous), excluded);
    const run: FilledArgs = { ...args, accessList: argsListOf(previous) };
    const watch = watchSteps(tracer(touched, excluded));
    const observe = (vm: VM) => {
      precompile ??= (a) => vm.evm.getPrecompile?.(a as `0x${string}`) !== undefined;
      return watch(vm);
    };
    let r: Awaited<ReturnType<typeof observedRun>>;
    try {
      r = await observedRun(chain, block, run, observe, root);
    } catch (err) {
      if (err instanceof Refusal) throw new CallFailure(`failed to apply transaction: ${hex(unsignedHash(run))} err: ${err.message}`, -32000);
      throw err;
    }
    if (equal(touched, previous)) {
      const error = r.execResult.exceptionError ? gethError(r.execResult.exceptionError) : undefined;
      return { accessList: listOf(previous), ...(error ? { error } : {}), gasUsed: `0x${r.totalGasSpent.toString(16)}` };
    }
    previous = touched;
  }
}

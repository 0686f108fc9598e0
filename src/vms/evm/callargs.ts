// What eth_call and eth_estimateGas take and how they fail, as geth's internal/ethapi has them:
// TransactionArgs within RPCGasCap, state overrides, and the errors (a revert with its reason, a
// message the engine refuses).
import { bytesToBigInt } from '@ethereumjs/util';

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

/** ethapi.BlockOverrides: header fields eth_call's block context takes instead of its block's. */
export interface BlockOverrides {
  number?: bigint;
  difficulty?: bigint;
  time?: bigint;
  gasLimit?: bigint;
  coinbase?: Uint8Array;
  baseFee?: bigint;
  blobBaseFee?: bigint;
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

/** ToMessage's gas: the caller's, within RPCGasCap (none or 0: the cap). */
export const callGas = (args: CallArgs) => (args.gas === undefined || args.gas > RPC_GAS_CAP || args.gas === 0n ? RPC_GAS_CAP : args.gas);

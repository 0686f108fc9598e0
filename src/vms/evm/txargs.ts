// What a node fills in of a tx its caller describes: ethapi.TransactionArgs.setDefaults and
// toTransaction (internal/ethapi/transaction_args.go, the same in coreth and Subnet-EVM), shared by
// eth_fillTransaction, eth_sendTransaction and eth_createAccessList. Blob txs are not built: no
// Avalanche EVM chain takes them.
import { RLP } from '@ethereumjs/rlp';
import { Address, bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { keccak256 } from '../../crypto/keccak.js';
import { type CallArgs, CallFailure, RPC_GAS_CAP } from './callargs.js';
import { estimateGas } from './estimate.js';
import type { EvmChain } from './chain.js';

/** ethapi.TransactionArgs as setDefaults reads it: CallArgs with a chain ID. */
export interface TxArgs extends CallArgs {
  chainId?: bigint;
  /** "data" and "input" both given and unequal: setDefaults refuses it in its turn (data is input then). */
  conflictingInput?: boolean;
}

/** The args once setDefaults has run: every field toTransaction reads is set. */
export type FilledArgs = TxArgs & { nonce: bigint; gas: bigint; value: bigint; chainId: bigint };

/** What setDefaults asks the node for fees: the oracle's tip (only when it needs one) and CurrentHeader's base fee. */
export interface FeeSource {
  suggestTip(): Promise<bigint>;
  baseFee: bigint;
}

/**
 * The base fee setApricotPhase3FeeDefault / setSubnetEVMFeeDefault doubles: the head's (not the
 * next block's). In --dev, an anvil_setNextBlockBaseFeePerGas override above it is taken instead,
 * so that the tx pays the block it is set for (coreth has no such override).
 */
export function defaultsBaseFee(chain: EvmChain): bigint {
  const head = chain.head.header.baseFee ?? 0n;
  return chain.dev.nextBaseFee !== undefined && chain.dev.nextBaseFee > head ? chain.dev.nextBaseFee : head;
}

/** GetPoolNonce: the state's nonce past the sender's txs the pool can run next. */
export async function poolNonce(chain: EvmChain, from: Uint8Array): Promise<bigint> {
  const stateNonce = (await chain.account(from))?.nonce ?? 0n;
  return stateNonce + BigInt(chain.pool.executable(new Address(from).toString(), stateNonce).length);
}

const refuse = (message: string): never => {
  throw new CallFailure(message, -32000);
};
/** A *hexutil.Big as %v prints it (its String method): 0x hex. */
const big = (n: bigint) => `0x${n.toString(16)}`;

/**
 * setFeeDefaults, every Avalanche EVM chain being past London (ApricotPhase3, SubnetEVM) from its
 * genesis: a gas price is kept; else the tip defaults to the oracle's and the fee cap to tip + 2 ×
 * base fee.
 */
async function setFeeDefaults(args: TxArgs, fees: FeeSource): Promise<TxArgs> {
  if (args.gasPrice !== undefined && (args.maxFeePerGas !== undefined || args.maxPriorityFeePerGas !== undefined)) {
    refuse('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  }
  if (args.maxFeePerGas !== undefined && args.maxPriorityFeePerGas !== undefined) {
    if (args.maxFeePerGas === 0n) refuse('maxFeePerGas must be non-zero');
  } else if (args.gasPrice !== undefined) {
    if (args.gasPrice === 0n) refuse('gasPrice must be non-zero after london fork');
    return args;
  }
  const tip = args.maxPriorityFeePerGas ?? (await fees.suggestTip());
  const feeCap = args.maxFeePerGas ?? tip + 2n * fees.baseFee;
  if (feeCap < tip) refuse(`maxFeePerGas (${big(feeCap)}) < maxPriorityFeePerGas (${big(tip)})`);
  return { ...args, maxPriorityFeePerGas: tip, maxFeePerGas: feeCap };
}

/**
 * setDefaults: fees, value, the pool nonce of the sender (the zero address when none is named),
 * the create check, the gas (estimated on the head with the filled fees, or with
 * `skipGasEstimation` the RPC gas cap) and the chain ID, refused in coreth's order with its texts.
 * An estimate's failure is the estimate's (CallFailure: code 3 with data for a revert).
 */
export async function setDefaults(chain: EvmChain, given: TxArgs, fees: FeeSource, skipGasEstimation = false): Promise<FilledArgs> {
  const args = await setFeeDefaults(given, fees);
  const value = args.value ?? 0n;
  const nonce = args.nonce ?? (await poolNonce(chain, args.from ?? new Uint8Array(20)));
  if (args.conflictingInput) refuse('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data');
  if (!args.to && (args.data ?? new Uint8Array()).length === 0) refuse('contract creation without any data provided');
  let gas = args.gas;
  if (gas === undefined) {
    if (skipGasEstimation) gas = RPC_GAS_CAP;
    else {
      // The estimate's args: the filled fees and value, without the nonce (a call skips its checks).
      const { from, to, gasPrice, maxFeePerGas, maxPriorityFeePerGas, data, accessList } = args;
      gas = await estimateGas(chain, chain.head, { from, to, gasPrice, maxFeePerGas, maxPriorityFeePerGas, value, data: data ?? new Uint8Array(), accessList });
    }
  }
  if (args.chainId !== undefined && args.chainId !== chain.chainId) refuse(`chainId does not match node's (have=${args.chainId}, want=${chain.chainId})`);
  return { ...args, value, nonce, gas, chainId: chain.chainId };
}

/** toTransaction's type: dynamic-fee with a fee cap, else access-list with a list, else legacy. */
export const txTypeOf = (args: TxArgs): 0 | 1 | 2 => (args.maxFeePerGas !== undefined ? 2 : args.accessList !== undefined ? 1 : 0);

/**
 * MarshalBinary of toTransaction's tx, unsigned (V = R = S = 0): `type || rlp([...fields, 0, 0, 0])`,
 * a legacy tx `rlp([nonce, gasPrice, gas, to, value, data, 0, 0, 0])` (no EIP-155 chain ID in V).
 * Encoded here rather than through a tx object, which refuses values geth takes (a nonce of
 * 2^64-1, gas × price past 256 bits).
 */
export function encodeUnsigned(args: FilledArgs): Uint8Array {
  // A quantity as RLP takes it: minimal big-endian bytes, none for 0.
  const q = (n: bigint | undefined) => bigIntToUnpaddedBytes(n ?? 0n);
  const tail = [q(args.gas), args.to ?? new Uint8Array(), q(args.value), args.data ?? new Uint8Array()];
  const accessList = (args.accessList ?? []).map((e) => [e.address, e.storageKeys]);
  const zeros = [q(0n), q(0n), q(0n)];
  const type = txTypeOf(args);
  if (type === 0) return RLP.encode([q(args.nonce), q(args.gasPrice), ...tail, ...zeros]);
  const fees = type === 2 ? [q(args.maxPriorityFeePerGas), q(args.maxFeePerGas)] : [q(args.gasPrice)];
  const body = RLP.encode([q(args.chainId), q(args.nonce), ...fees, ...tail, accessList, ...zeros]);
  const out = new Uint8Array(1 + body.length);
  out[0] = type;
  out.set(body, 1);
  return out;
}

/** The unsigned tx's hash (types.Transaction.Hash: keccak-256 of its binary). */
export const unsignedHash = (args: FilledArgs): Uint8Array => keccak256(encodeUnsigned(args));

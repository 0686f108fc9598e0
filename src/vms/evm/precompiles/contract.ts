// Subnet-EVM's stateful precompiles on @ethereumjs's custom precompiles (precompile/contract/
// contract.go): a function per 4-byte selector, each with its gas; errors that are EVM errors, not
// reverts (the frame keeps none of its gas and returns no data; the error text is what eth_call
// answers); logs with their gas; storage under the precompile's address through the state manager,
// so that a reverted frame reverts them too. Notes: ../shared/reference/subnet-evm.md §3.
import { EVMError, type EVMInterface, type ExecResult, type PrecompileInput } from '@ethereumjs/evm';
import { Address, setLengthLeft, toChecksumAddress } from '@ethereumjs/util';
import { keccakText } from '../../../crypto/keccak.js';
import { currentFrame, type Frame } from './frames.js';

/** Gas constants (precompile/contract/utils.go). */
export const WRITE_GAS_PER_SLOT = 20_000n;
export const READ_GAS_PER_SLOT = 5_000n;
const LOG_GAS = 375n;
const LOG_TOPIC_GAS = 375n;
const LOG_DATA_GAS = 8n;

/** The gas of a log with `topics` topics and `data` bytes. */
export const logGas = (topics: number, data: number): bigint => LOG_GAS + LOG_TOPIC_GAS * BigInt(topics) + LOG_DATA_GAS * BigInt(data);

/** A precompile's Go error: the frame fails with all its gas, and `message` is what clients read. */
export class PrecompileError extends Error {}

export type EvmLogTuple = [Uint8Array, Uint8Array[], Uint8Array];

/** What a function sees: its input, the frame, the EVM's state, and the gas it may still use. */
export class Call {
  readonly logs: EvmLogTuple[] = [];
  constructor(
    readonly address: Address,
    readonly input: Uint8Array,
    readonly frame: Frame,
    readonly evm: EVMInterface,
    private gasLeft: bigint,
    private readonly gasLimit: bigint,
  ) {}

  /** contract.DeductGas: out of gas ends the call. */
  deduct(gas: bigint): void {
    if (gas > this.gasLeft) throw new PrecompileError('out of gas');
    this.gasLeft -= gas;
  }

  get used(): bigint {
    return this.gasLimit - this.gasLeft;
  }

  get caller(): Address {
    return this.frame.caller;
  }

  /** vm.ErrWriteProtection for a state change in a static call. */
  writable(): void {
    if (this.frame.isStatic) throw new PrecompileError('write protection');
  }

  async read(slot: Uint8Array): Promise<Uint8Array> {
    return setLengthLeft(await this.evm.stateManager.getStorage(this.address, slot), 32);
  }

  async write(slot: Uint8Array, value: Uint8Array): Promise<void> {
    await this.evm.stateManager.putStorage(this.address, slot, value);
  }

  log(topics: Uint8Array[], data: Uint8Array): void {
    this.logs.push([this.address.bytes, topics, data]);
  }
}

export interface PrecompileFunction {
  /** The Solidity signature, whose keccak-256 gives the 4-byte selector (hashed when the precompile is made). */
  signature: string;
  /** The gas deducted before anything else. */
  gas: bigint;
  run(call: Call): Promise<Uint8Array>;
}

const failed = (gasLimit: bigint, message: string): ExecResult => ({
  executionGasUsed: gasLimit,
  returnValue: new Uint8Array(),
  exceptionError: new EVMError(message as never),
});

/** The precompile as @ethereumjs runs it: dispatch by selector, gas first, errors as EVM errors. */
export function statefulPrecompile(address: Address, functions: PrecompileFunction[]) {
  const bySelector = new Map(functions.map((f) => [Buffer.from(keccakText(f.signature).subarray(0, 4)).toString('hex'), f]));
  return async (opts: PrecompileInput): Promise<ExecResult> => {
    const evm = opts._EVM;
    const frame = currentFrame(evm);
    if (!frame) return failed(opts.gasLimit, 'precompile called outside a message frame');
    // Granite: DELEGATECALL and CALLCODE into a stateful precompile revert, without data.
    if (frame.to && frame.codeAddress && !frame.to.equals(frame.codeAddress)) {
      return { executionGasUsed: 0n, returnValue: new Uint8Array(), exceptionError: new EVMError(EVMError.errorMessages.REVERT) };
    }
    if (opts.data.length < 4) return failed(opts.gasLimit, `missing function selector to precompile - input length (${opts.data.length})`);
    const selector = Buffer.from(opts.data.subarray(0, 4)).toString('hex');
    const fn = bySelector.get(selector);
    if (!fn) return failed(opts.gasLimit, `invalid function selector: 0x${selector}`);
    const call = new Call(address, opts.data.subarray(4), frame, evm, opts.gasLimit, opts.gasLimit);
    try {
      call.deduct(fn.gas);
      const returnValue = await fn.run(call);
      return { executionGasUsed: call.used, returnValue, ...(call.logs.length > 0 ? { logs: call.logs } : {}) };
    } catch (err) {
      if (err instanceof PrecompileError) return failed(opts.gasLimit, err.message);
      throw err;
    }
  };
}

// --- ABI words (non-strict decoding since Durango: trailing bytes are fine) -------------------

export function word(input: Uint8Array, index: number): Uint8Array {
  const end = (index + 1) * 32;
  if (input.length < end) throw new PrecompileError(`abi: cannot marshal in to go type: length insufficient ${input.length} require ${end}`);
  return input.subarray(index * 32, end);
}

export const addressArg = (input: Uint8Array, index: number): Address => new Address(word(input, index).slice(12));
export const uintArg = (input: Uint8Array, index: number): bigint => BigInt(`0x${Buffer.from(word(input, index)).toString('hex')}`);
export const wordOf = (n: bigint): Uint8Array => setLengthLeft(hexBytes(n.toString(16)), 32);
export const addressWord = (a: Address): Uint8Array => setLengthLeft(a.bytes, 32);
export const checksum = (a: Address): string => toChecksumAddress(a.toString());

/** Kept here, unlike fromHex: a big integer's digits, so an odd count takes a leading 0 instead of losing its last digit. */
function hexBytes(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex'));
}

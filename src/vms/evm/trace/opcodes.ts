// geth's view of opcodes, which ethereumjs does not share: the names OpCode.String() prints
// (libevm core/vm/opcodes.go: DIFFICULTY, not PREVRANDAO; "opcode 0xc not defined" for holes), the
// stack bounds of its jump table (core/vm/jump_table.go) that its stack errors quote, and the error
// texts of core/vm/errors.go that traces carry instead of ethereumjs's.
import { EVMError } from '@ethereumjs/evm';

// [code, name, pops, pushes] for everything outside the regular PUSH/DUP/SWAP/LOG ranges.
const TABLE: Array<[number, string, number, number]> = [
  [0x00, 'STOP', 0, 0],
  [0x01, 'ADD', 2, 1],
  [0x02, 'MUL', 2, 1],
  [0x03, 'SUB', 2, 1],
  [0x04, 'DIV', 2, 1],
  [0x05, 'SDIV', 2, 1],
  [0x06, 'MOD', 2, 1],
  [0x07, 'SMOD', 2, 1],
  [0x08, 'ADDMOD', 3, 1],
  [0x09, 'MULMOD', 3, 1],
  [0x0a, 'EXP', 2, 1],
  [0x0b, 'SIGNEXTEND', 2, 1],
  [0x10, 'LT', 2, 1],
  [0x11, 'GT', 2, 1],
  [0x12, 'SLT', 2, 1],
  [0x13, 'SGT', 2, 1],
  [0x14, 'EQ', 2, 1],
  [0x15, 'ISZERO', 1, 1],
  [0x16, 'AND', 2, 1],
  [0x17, 'OR', 2, 1],
  [0x18, 'XOR', 2, 1],
  [0x19, 'NOT', 1, 1],
  [0x1a, 'BYTE', 2, 1],
  [0x1b, 'SHL', 2, 1],
  [0x1c, 'SHR', 2, 1],
  [0x1d, 'SAR', 2, 1],
  [0x20, 'KECCAK256', 2, 1],
  [0x30, 'ADDRESS', 0, 1],
  [0x31, 'BALANCE', 1, 1],
  [0x32, 'ORIGIN', 0, 1],
  [0x33, 'CALLER', 0, 1],
  [0x34, 'CALLVALUE', 0, 1],
  [0x35, 'CALLDATALOAD', 1, 1],
  [0x36, 'CALLDATASIZE', 0, 1],
  [0x37, 'CALLDATACOPY', 3, 0],
  [0x38, 'CODESIZE', 0, 1],
  [0x39, 'CODECOPY', 3, 0],
  [0x3a, 'GASPRICE', 0, 1],
  [0x3b, 'EXTCODESIZE', 1, 1],
  [0x3c, 'EXTCODECOPY', 4, 0],
  [0x3d, 'RETURNDATASIZE', 0, 1],
  [0x3e, 'RETURNDATACOPY', 3, 0],
  [0x3f, 'EXTCODEHASH', 1, 1],
  [0x40, 'BLOCKHASH', 1, 1],
  [0x41, 'COINBASE', 0, 1],
  [0x42, 'TIMESTAMP', 0, 1],
  [0x43, 'NUMBER', 0, 1],
  [0x44, 'DIFFICULTY', 0, 1],
  [0x45, 'GASLIMIT', 0, 1],
  [0x46, 'CHAINID', 0, 1],
  [0x47, 'SELFBALANCE', 0, 1],
  [0x48, 'BASEFEE', 0, 1],
  [0x49, 'BLOBHASH', 1, 1],
  [0x4a, 'BLOBBASEFEE', 0, 1],
  [0x50, 'POP', 1, 0],
  [0x51, 'MLOAD', 1, 1],
  [0x52, 'MSTORE', 2, 0],
  [0x53, 'MSTORE8', 2, 0],
  [0x54, 'SLOAD', 1, 1],
  [0x55, 'SSTORE', 2, 0],
  [0x56, 'JUMP', 1, 0],
  [0x57, 'JUMPI', 2, 0],
  [0x58, 'PC', 0, 1],
  [0x59, 'MSIZE', 0, 1],
  [0x5a, 'GAS', 0, 1],
  [0x5b, 'JUMPDEST', 0, 0],
  [0x5c, 'TLOAD', 1, 1],
  [0x5d, 'TSTORE', 2, 0],
  [0x5e, 'MCOPY', 3, 0],
  [0x5f, 'PUSH0', 0, 1],
  [0xf0, 'CREATE', 3, 1],
  [0xf1, 'CALL', 7, 1],
  [0xf2, 'CALLCODE', 7, 1],
  [0xf3, 'RETURN', 2, 0],
  [0xf4, 'DELEGATECALL', 6, 1],
  [0xf5, 'CREATE2', 4, 1],
  [0xfa, 'STATICCALL', 6, 1],
  [0xfd, 'REVERT', 2, 0],
  [0xfe, 'INVALID', 0, 0],
  [0xff, 'SELFDESTRUCT', 1, 0],
];

const NAMES: Array<string | undefined> = new Array(256);
const IO: Array<[number, number]> = new Array(256).fill([0, 0]);
for (const [code, name, pops, pushes] of TABLE) {
  NAMES[code] = name;
  IO[code] = [pops, pushes];
}
for (let n = 1; n <= 32; n++) [NAMES[0x5f + n], IO[0x5f + n]] = [`PUSH${n}`, [0, 1]];
for (let n = 1; n <= 16; n++) {
  [NAMES[0x7f + n], IO[0x7f + n]] = [`DUP${n}`, [n, n + 1]];
  [NAMES[0x8f + n], IO[0x8f + n]] = [`SWAP${n}`, [n + 1, n + 1]];
}
for (let n = 0; n <= 4; n++) [NAMES[0xa0 + n], IO[0xa0 + n]] = [`LOG${n}`, [n + 2, 0]];

export const op = {
  SLOAD: 0x54,
  SSTORE: 0x55,
  BALANCE: 0x31,
  EXTCODESIZE: 0x3b,
  EXTCODECOPY: 0x3c,
  EXTCODEHASH: 0x3f,
  LOG0: 0xa0,
  LOG4: 0xa4,
  CREATE: 0xf0,
  CALL: 0xf1,
  CALLCODE: 0xf2,
  DELEGATECALL: 0xf4,
  CREATE2: 0xf5,
  STATICCALL: 0xfa,
  SELFDESTRUCT: 0xff,
} as const;

/** OpCode.String(): fmt's %#x for the holes of the table. */
export function opName(code: number): string {
  return NAMES[code] ?? `opcode 0x${code.toString(16)} not defined`;
}

export const isCall = (code: number) => code === op.CALL || code === op.CALLCODE || code === op.DELEGATECALL || code === op.STATICCALL;
export const isCreate = (code: number) => code === op.CREATE || code === op.CREATE2;

/** The op a frame's last step ran, as far as error texts need it. */
export interface FailedStep {
  code: number;
  stackLen: number;
}

export interface GethError {
  text: string;
  /**
   * geth raised it before CaptureState (stack check, gas): the struct log of that op carries it,
   * and the other tracers ignore the op. Errors an op raises while executing (REVERT, bad jump,
   * write protection, INVALID's undefined op) reach only CaptureFault, which the loggers ignore.
   */
  beforeStep: boolean;
}

const M = EVMError.errorMessages;

/**
 * geth's text for the error that ended a frame. `step` is the frame's last op, when it ran any;
 * without one the error is the frame's own (precompile, code deposit, collision).
 */
export function gethError(err: EVMError, step?: FailedStep): GethError {
  if (step) {
    const [pops, pushes] = IO[step.code];
    switch (err.error) {
      case M.OUT_OF_GAS:
        return { text: 'out of gas', beforeStep: true };
      case M.STACK_UNDERFLOW:
        return { text: `stack underflow (${step.stackLen} <=> ${pops})`, beforeStep: true };
      case M.STACK_OVERFLOW:
        return { text: `stack limit reached ${step.stackLen} (${1024 + pops - pushes})`, beforeStep: true };
      // EIP-3860 in CREATE's gas function: any gas-function error is ErrOutOfGas in geth.
      case M.INITCODE_SIZE_VIOLATION:
        return { text: 'out of gas', beforeStep: true };
      case M.INVALID_OPCODE:
        return { text: `invalid opcode: ${opName(step.code)}`, beforeStep: false };
    }
  }
  return { text: FRAME_ERRORS[frameErrorKey(err.error)] ?? err.error, beforeStep: false };
}

/** ethereumjs names a bad jump's place after its text ("invalid JUMP at <code hash>/<address>:<pc>"); geth does not. */
function frameErrorKey(error: string): string {
  return error.startsWith(`${M.INVALID_JUMP} at `) ? M.INVALID_JUMP : error;
}

const FRAME_ERRORS: Record<string, string> = {
  [M.OUT_OF_GAS]: 'out of gas',
  [M.REVERT]: 'execution reverted',
  [M.INVALID_JUMP]: 'invalid jump destination',
  [M.STATIC_STATE_CHANGE]: 'write protection',
  [M.OUT_OF_RANGE]: 'return data out of bounds',
  [M.CODESTORE_OUT_OF_GAS]: 'contract creation code storage out of gas',
  [M.CODESIZE_EXCEEDS_MAXIMUM]: 'max code size exceeded',
  [M.INVALID_BYTECODE_RESULT]: 'invalid code: must not begin with 0xef',
  [M.CREATE_COLLISION]: 'contract address collision',
  [M.INSUFFICIENT_BALANCE]: 'insufficient balance for transfer',
  [M.INITCODE_SIZE_VIOLATION]: 'max initcode size exceeded',
  [M.INVALID_COMMITMENT]: 'mismatched versioned hash',
  // geth wraps go-eth-kzg's error; its text for points that do not decode varies with the point.
  [M.INVALID_PROOF]: "error verifying kzg proof: can't verify opening proof",
  [M.INVALID_INPUTS]: 'error verifying kzg proof',
  [M.STACK_UNDERFLOW]: 'stack underflow',
  [M.STACK_OVERFLOW]: 'stack limit reached 1024 (1023)',
  [M.INVALID_OPCODE]: 'invalid opcode',
};

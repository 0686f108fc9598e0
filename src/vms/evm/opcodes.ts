// ethereumjs's own opcodes, handed back to it as custom opcodes with something around them: the
// pacer's points (JUMP, JUMPI: execution.ts) and the estimator's gas watch (gaswatch.ts).
import type { Common } from '@ethereumjs/common';
import { type EVMOpts, getOpcodesForHF } from '@ethereumjs/evm';

export type CustomOpcodes = NonNullable<EVMOpts['customOpcodes']>;
export type OpcodeEntry = ReturnType<typeof getOpcodesForHF>['opcodeMap'][number];
type Logic = OpcodeEntry['opHandler'];
type GasHandler = NonNullable<OpcodeEntry['gasHandler']>;
export type RunState = Parameters<GasHandler>[0];

/** ethereumjs's own entries of the opcodes, per chain's Common (their table needs the EVM's gas params). */
const entries = new WeakMap<Common, Map<number, OpcodeEntry>>();

export function ownEntries(common: Common, codes: number[]): OpcodeEntry[] {
  let table = entries.get(common);
  if (!table) {
    // A chain's Common already holds the EVM's gas params, which the table reads (rules.ts pins them).
    table = new Map(getOpcodesForHF(common).opcodeMap.flatMap((e, code) => (e ? [[code, e] as const] : [])));
    entries.set(common, table);
  }
  return codes.map((code) => {
    const entry = table.get(code);
    if (!entry) throw new Error(`ethereumjs has no opcode 0x${code.toString(16)} at this chain's rules`);
    return entry;
  });
}

/**
 * `entry` as a custom opcode: its name and base fee, its logic and its gas handler unless `logic` or
 * `gas` replaces them. ethereumjs runs a custom opcode as async, and has it charge dynamic gas only
 * when it names a gas function, so the opcode's own is passed on.
 */
export function asCustomOpcode(
  entry: OpcodeEntry,
  replace: { logic?: Logic; gas?: (runState: RunState, gas: bigint, common: Common) => bigint | Promise<bigint> },
): CustomOpcodes[number] {
  const { opcodeInfo, opHandler, gasHandler } = entry;
  const gasFunction = replace.gas ?? gasHandler;
  return {
    opcode: opcodeInfo.code,
    opcodeName: opcodeInfo.name,
    baseFee: opcodeInfo.fee,
    logicFunction: replace.logic ?? opHandler,
    // ethereumjs takes a sync or an async handler here (SSTORE's is async, the calls' sync).
    ...(gasFunction ? { gasFunction: gasFunction as GasHandler } : {}),
  };
}

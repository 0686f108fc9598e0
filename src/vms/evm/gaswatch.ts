// What a run did that makes its outcome depend on its gas limit, other than running out of gas:
// read the gas left (GAS), pass gas on (the CALL and CREATE families, whose gas follows the 63/64
// rule) or pass an SSTORE's sentry check (EIP-2200: more than 2,300 gas left). A run that did none
// of these, given any limit at least the gas it used, consumes the same gas at the same points,
// so it succeeds exactly when the limit covers that gas and each SSTORE's sentry. That lets
// eth_estimateGas settle gasestimator's search from its first run (estimate.ts).
import type { Common } from '@ethereumjs/common';
import { type EVMOpts, getOpcodesForHF, paramsEVM } from '@ethereumjs/evm';

type CustomOpcodes = NonNullable<EVMOpts['customOpcodes']>;
type OpcodeEntry = ReturnType<typeof getOpcodesForHF>['opcodeMap'][number];
type GasHandler = NonNullable<OpcodeEntry['gasHandler']>;

/** What a watched run did, as far as its dependence on its gas limit goes. */
export interface GasWatch {
  /** It read the gas left or passed gas on: its course may differ with another limit. */
  readsGas: boolean;
  /** The least gas left at any SSTORE's sentry check (the check wants more than the sentry). */
  sstoreGasLeft?: bigint;
}

/** Where a VM's watched opcodes find the watch of the run under way; without one they only run. */
export interface WatchSlot {
  watch?: GasWatch;
}

const GAS = 0x5a;
const SSTORE = 0x55;
/** CREATE, CALL, CALLCODE, DELEGATECALL, CREATE2, STATICCALL: each gives its frame gas from what is left. */
const PASSING_GAS = [0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa];

/** ethereumjs's own entries of these opcodes, per chain's common (their table needs the EVM's gas params). */
const entries = new WeakMap<Common, Map<number, OpcodeEntry>>();

export function ownEntries(common: Common, codes: number[]): OpcodeEntry[] {
  let table = entries.get(common);
  if (!table) {
    const withParams = common.copy();
    withParams.updateParams(paramsEVM);
    table = new Map(getOpcodesForHF(withParams).opcodeMap.flatMap((e, code) => (e ? [[code, e] as const] : [])));
    entries.set(common, table);
  }
  return codes.map((code) => {
    const entry = table.get(code);
    if (!entry) throw new Error(`ethereumjs has no opcode 0x${code.toString(16)} at this chain's rules`);
    return entry;
  });
}

/** The opcode as ethereumjs runs it, with `before` called ahead of its gas (or, without dynamic gas, its logic). */
function watched(entry: OpcodeEntry, before: (runState: Parameters<GasHandler>[0]) => void): CustomOpcodes[number] {
  const { opcodeInfo, opHandler, gasHandler } = entry;
  const common = { opcode: opcodeInfo.code, opcodeName: opcodeInfo.name, baseFee: opcodeInfo.fee };
  if (gasHandler) {
    const gasFunction = (runState: Parameters<GasHandler>[0], gas: bigint, c: Common) => {
      before(runState);
      return gasHandler(runState, gas, c);
    };
    // ethereumjs takes a sync or an async handler here (SSTORE's is async, the calls' sync).
    return { ...common, gasFunction: gasFunction as GasHandler, logicFunction: opHandler };
  }
  return {
    ...common,
    logicFunction: (runState, c) => {
      before(runState);
      return opHandler(runState, c);
    },
  };
}

/** GAS, SSTORE and the gas-passing opcodes, each noting in the slot's watch (when one is set) what it did. */
export function watchedOpcodes(common: Common, slot: WatchSlot): CustomOpcodes {
  const [gas, sstore] = ownEntries(common, [GAS, SSTORE]);
  const readsGas = () => {
    if (slot.watch) slot.watch.readsGas = true;
  };
  return [
    watched(gas!, readsGas),
    ...ownEntries(common, PASSING_GAS).map((e) => watched(e, readsGas)),
    watched(sstore!, (runState) => {
      const watch = slot.watch;
      if (!watch) return;
      // The gas left as the sentry check reads it: before the SSTORE's own cost.
      const left = runState.interpreter.getGasLeft();
      if (watch.sstoreGasLeft === undefined || left < watch.sstoreGasLeft) watch.sstoreGasLeft = left;
    }),
  ];
}

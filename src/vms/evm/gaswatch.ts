// What a run did that makes its outcome depend on its gas limit, other than running out of gas:
// read the gas left (GAS), pass gas on (the CALL and CREATE families, whose gas follows the 63/64
// rule) or pass an SSTORE's sentry check (EIP-2200: more than 2,300 gas left). A run that did none
// of these, given any limit at least the gas it used, consumes the same gas at the same points,
// so it succeeds exactly when the limit covers that gas and each SSTORE's sentry. That lets
// eth_estimateGas settle gasestimator's search from its first run (estimate.ts).
import type { Common } from '@ethereumjs/common';
import { asCustomOpcode, type CustomOpcodes, type OpcodeEntry, ownEntries, type RunState } from './opcodes.js';

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

/** The opcode as ethereumjs runs it, with `before` called ahead of its gas (or, without dynamic gas, its logic). */
function watched(entry: OpcodeEntry, before: (runState: RunState) => void): CustomOpcodes[number] {
  const { opHandler, gasHandler } = entry;
  if (gasHandler) {
    return asCustomOpcode(entry, {
      gas: (runState, gas, c) => {
        before(runState);
        return gasHandler(runState, gas, c);
      },
    });
  }
  return asCustomOpcode(entry, {
    logic: (runState, c) => {
      before(runState);
      return opHandler(runState, c);
    },
  });
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

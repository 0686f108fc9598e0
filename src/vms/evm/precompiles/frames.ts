// Who is calling: @ethereumjs hands a precompile its input and gas only, while Subnet-EVM's stateful
// precompiles check the caller, refuse writes in a static call, refuse DELEGATECALL/CALLCODE, and
// the deployer allow list checks tx.origin. Each EVM gets a stack of its message frames, kept by its
// beforeMessage/afterMessage events (one per frame, the precompile's own included).
import type { EVMInterface } from '@ethereumjs/evm';
import type { Address } from '@ethereumjs/util';

/** What a frame tells a precompile. */
export interface Frame {
  caller: Address;
  /** The address whose storage the frame runs in (the precompile's, unless delegated). */
  to: Address | undefined;
  /** The address whose code runs: differs from `to` under DELEGATECALL and CALLCODE. */
  codeAddress: Address | undefined;
  isStatic: boolean;
  depth: number;
}

interface MessageLike {
  caller: Address;
  to?: Address;
  codeAddress?: Address;
  isStatic: boolean;
  depth: number;
}

const stacks = new WeakMap<object, Frame[]>();

/** Starts keeping `evm`'s frames. */
export function trackFrames(evm: EVMInterface): void {
  if (stacks.has(evm)) return;
  const stack: Frame[] = [];
  stacks.set(evm, stack);
  evm.events?.on('beforeMessage', (m: MessageLike) => {
    // A tx starts afresh, whatever an earlier one that threw left behind.
    if (m.depth === 0) stack.length = 0;
    let codeAddress: Address | undefined;
    try {
      codeAddress = m.codeAddress;
    } catch {
      // Message.codeAddress throws for a create message, which has no code address yet.
      codeAddress = undefined;
    }
    stack.push({ caller: m.caller, to: m.to, codeAddress, isStatic: m.isStatic, depth: m.depth });
  });
  evm.events?.on('afterMessage', () => {
    stack.pop();
  });
}

/** The frame running now: for a precompile, its own call. */
export function currentFrame(evm: EVMInterface): Frame | undefined {
  const stack = stacks.get(evm);
  return stack?.[stack.length - 1];
}

/** tx.origin: the caller of the outermost frame. */
export function txOrigin(evm: EVMInterface): Address | undefined {
  return stacks.get(evm)?.[0]?.caller;
}

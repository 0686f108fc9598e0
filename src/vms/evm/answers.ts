// eth_call's answers kept per chain, by what decides them.
import type { EvmChain } from './chain.js';
import { type CallArgs, CallFailure } from './callargs.js';
import type { StoredBlock } from './store.js';
import { toHex } from '../../encoding/bytes.js';

/**
 * eth_call's answers, by what decides them: the state the call runs on, its block (BLOCKHASH goes
 * back through its ancestors by number, so the head's hash too: a new head or a revert to another
 * branch starts over) and every field of the call. A call is a pure function of these, so a call
 * asked again (a front end polling balanceOf, several components reading one value) gets the
 * answer the first run gave without running again. What did not come out of a completed run (a
 * refusal, the timeout) is never kept, nor a call with state overrides or large data.
 */
class Answers {
  private readonly entries = new Map<string, Uint8Array | CallFailure>();
  private bytes = 0;

  get(key: string): Uint8Array | CallFailure | undefined {
    const answer = this.entries.get(key);
    if (answer !== undefined) {
      // Most recently asked last: the oldest go first.
      this.entries.delete(key);
      this.entries.set(key, answer);
    }
    return answer;
  }

  set(key: string, answer: Uint8Array | CallFailure): void {
    const size = key.length + answerSize(answer);
    if (size > ANSWER_BYTES / 16) return;
    while (this.entries.size >= ANSWERS || (this.bytes + size > ANSWER_BYTES && this.entries.size > 0)) {
      const [oldest, dropped] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.bytes -= oldest.length + answerSize(dropped);
    }
    this.entries.set(key, answer);
    this.bytes += size;
  }
}

/** Answers kept per chain, at most, and their bytes (keys and return data). */
const ANSWERS = 4096;
const ANSWER_BYTES = 16 * 1024 * 1024;
/** Calldata past this is not kept (nor looked up): such calls are rarely asked twice. */
const KEPT_CALLDATA = 8 * 1024;

const answerSize = (a: Uint8Array | CallFailure): number => (a instanceof CallFailure ? a.message.length + (a.data?.length ?? 0) : a.length);

const answersByChain = new WeakMap<EvmChain, Answers>();

export function answersOf(chain: EvmChain): Answers {
  let answers = answersByChain.get(chain);
  if (!answers) {
    answers = new Answers();
    answersByChain.set(chain, answers);
  }
  return answers;
}

// Kept here: a cache-key part, '-' standing for an absent value (toHex itself reads in place).
const hexOf = (b: Uint8Array | undefined): string => (b === undefined ? '-' : toHex(b));
const numberOf = (n: bigint | undefined): string => (n === undefined ? '-' : n.toString(16));

/** The key's start for the last head, block and state root asked about (most calls ask about the head). */
let lastState: { head: StoredBlock; block: StoredBlock; root: Uint8Array; prefix: string } | undefined;

function stateKey(chain: EvmChain, block: StoredBlock): string {
  const head = chain.head;
  const root = chain.stateRootOf(block);
  if (lastState?.head !== head || lastState.block !== block || lastState.root !== root) {
    lastState = { head, block, root, prefix: `${hexOf(head.hash)}|${hexOf(block.hash)}|${hexOf(root)}` };
  }
  return lastState.prefix;
}

/** What decides a call's answer, as a key; undefined for a call that is not kept. */
export function answerKey(chain: EvmChain, block: StoredBlock, args: CallArgs): string | undefined {
  if ((args.data?.length ?? 0) > KEPT_CALLDATA) return undefined;
  const list = args.accessList === undefined ? '-' : args.accessList.map((a) => `${hexOf(a.address)}:${a.storageKeys.map(hexOf).join(',')}`).join(';');
  return [
    stateKey(chain, block),
    hexOf(args.from),
    hexOf(args.to),
    numberOf(args.gas),
    numberOf(args.gasPrice),
    numberOf(args.maxFeePerGas),
    numberOf(args.maxPriorityFeePerGas),
    numberOf(args.value),
    numberOf(args.nonce),
    hexOf(args.data),
    list,
  ].join('|');
}

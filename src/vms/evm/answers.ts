// eth_call's and eth_estimateGas's answers kept per chain, by what decides them.
import type { EvmChain } from './chain.js';
import { type CallArgs, CallFailure } from './callargs.js';
import { CallReads } from './callreads.js';
import { type StateChanges, stateChanges } from './statediff.js';
import type { ChainStore, StoredBlock } from './store.js';
import { equalBytes, fromHex, toHex } from '../../encoding/bytes.js';
import { keccak256 } from '../../crypto/keccak.js';

/**
 * eth_call's answers, by what decides them: the state the call runs on, its block (BLOCKHASH goes
 * back through its ancestors by number, so the head's hash too: a new head or a revert to another
 * branch starts over) and every field of the call. A call is a pure function of these, so a call
 * asked again (a front end polling balanceOf, several components reading one value) gets the
 * answer the first run gave without running again. What did not come out of a completed run (a
 * refusal, the timeout) is never kept, nor a call with state overrides or large data.
 *
 * An answer on the head also keeps what its run read (callreads.ts), so that it can be carried to a
 * later head (carried): the answer holds there if no account or slot it read changed in between.
 */
class Answers {
  private readonly entries = new Map<string, Kept>();
  /** By a call's own part of the key: the key of its last answer kept on a head with its reads. */
  private readonly onHead = new Map<string, string>();
  /** The state changes between two roots (statediff.ts), the last few asked. */
  private readonly diffs = new Map<string, Promise<StateChanges | undefined>>();
  private bytes = 0;

  get(key: string): Kept | undefined {
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      // Most recently asked last: the oldest go first.
      this.entries.delete(key);
      this.entries.set(key, kept);
    }
    return kept;
  }

  set(key: string, kept: Kept): void {
    const size = sizeOf(key, kept);
    if (size > ANSWER_BYTES / 16) return;
    // Two runs of one call that ended together: the second replaces the first.
    if (this.entries.has(key)) this.drop(key, this.entries.get(key)!);
    while (this.entries.size >= ANSWERS || (this.bytes + size > ANSWER_BYTES && this.entries.size > 0)) {
      const [oldest, dropped] = this.entries.entries().next().value!;
      this.drop(oldest, dropped);
    }
    this.entries.set(key, kept);
    this.bytes += size;
    if (kept.at) this.onHead.set(kept.call, key);
    else if (this.onHead.get(kept.call) === key) this.onHead.delete(kept.call);
  }

  private drop(key: string, kept: Kept): void {
    this.entries.delete(key);
    this.bytes -= sizeOf(key, kept);
    if (this.onHead.get(kept.call) === key) this.onHead.delete(kept.call);
  }

  /** The last answer kept on a head with its reads, of the call whose own part of the key is `call`. */
  lastOnHead(call: string): Kept | undefined {
    const key = this.onHead.get(call);
    return key === undefined ? undefined : this.entries.get(key);
  }

  /** What changed from state `from` to state `to` (undefined: not known). */
  changes(chain: EvmChain, from: Uint8Array, to: Uint8Array): Promise<StateChanges | undefined> {
    const key = `${toHex(from)}>${toHex(to)}`;
    let diff = this.diffs.get(key);
    if (!diff) {
      if (this.diffs.size >= DIFFS) this.diffs.delete(this.diffs.keys().next().value!);
      // A diff that failed (the store closed meanwhile) knows nothing, as one past its bound.
      diff = stateChanges(chain.nodes, from, to).catch(() => undefined);
      this.diffs.set(key, diff);
    }
    return diff;
  }
}

/** What a run answers: eth_call's return data, an estimate's gas, or the failure either answers instead. */
export type Answer = Uint8Array | bigint | CallFailure;

/** An answer kept, and for one on the head, where and what its run read. */
interface Kept {
  answer: Answer;
  /** The call's own part of the key. */
  call: string;
  at?: {
    block: StoredBlock;
    root: Uint8Array;
    /** The accounts' and slots' trie keys (hex) the run read: an account's, or an account's followed by a slot's. */
    accounts: string[];
    slots: string[];
    /** The accounts the run read, as addresses (hex): checked against the senders of the blocks since. */
    addresses: ReadonlySet<string>;
  };
}

/** State diffs kept per chain (a block's diff serves each call carried over it). */
const DIFFS = 8;
/** How many blocks apart (by number) an answer is carried, at most: states further apart differ in more nodes. */
const CARRY_BLOCKS = 64;

/** Answers kept per chain, at most, and their bytes (keys and return data). */
const ANSWERS = 4096;
const ANSWER_BYTES = 16 * 1024 * 1024;
/** Calldata past this is not kept (nor looked up): such calls are rarely asked twice. */
const KEPT_CALLDATA = 8 * 1024;

const answerSize = (a: Answer): number => (typeof a === 'bigint' ? 8 : a instanceof CallFailure ? a.message.length + (a.data?.length ?? 0) : a.length);

/** A kept answer's bytes: its key, its data, the call's key and reads when kept on the head. */
const sizeOf = (key: string, kept: Kept): number =>
  key.length + answerSize(kept.answer) + kept.call.length + (kept.at ? 104 * kept.at.accounts.length + 128 * kept.at.slots.length : 0);

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

function stateKey(chain: EvmChain, block: StoredBlock, root: Uint8Array): string {
  const head = chain.head;
  if (lastState?.head !== head || lastState.block !== block || lastState.root !== root) {
    lastState = { head, block, root, prefix: `${hexOf(head.hash)}|${hexOf(block.hash)}|${hexOf(root)}` };
  }
  return lastState.prefix;
}

/** What decides a call's answer besides its state and block (every field of the call); undefined for a call that is not kept. */
export function callKey(args: CallArgs): string | undefined {
  if ((args.data?.length ?? 0) > KEPT_CALLDATA) return undefined;
  const list = args.accessList === undefined ? '-' : args.accessList.map((a) => `${hexOf(a.address)}:${a.storageKeys.map(hexOf).join(',')}`).join(';');
  return [
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

/**
 * What decides an estimate besides its state and block: every field of the call, the highest limit
 * it may search up to (the block's gas limit, the RPC gas cap, or what the sender's balance pays
 * for), and, for a priced call, the block's base fee (its runs pay it: the fee checks, GASPRICE, the
 * sender's balance while it runs). Undefined for an estimate that is not kept.
 */
export function estimateKey(args: CallArgs, hi: bigint, baseFee: bigint): string | undefined {
  const call = callKey(args);
  if (call === undefined) return undefined;
  const priced = args.gasPrice !== undefined || args.maxFeePerGas !== undefined || args.maxPriorityFeePerGas !== undefined;
  return `estimate|${hi.toString(16)}|${priced ? baseFee.toString(16) : '-'}|${call}`;
}

/** What decides the answer of the call `call` (callKey's or estimateKey's) on `block` at state `root`, as a key. */
const answerKey = (chain: EvmChain, block: StoredBlock, call: string, root: Uint8Array): string => `${stateKey(chain, block, root)}|${call}`;

/**
 * Whether a call's answer on the head may be carried to a later head by what its run read: it names
 * a contract (a create runs code no state holds) and pays no fee (with a price, the block's base
 * fee takes part in its checks).
 */
export const carriable = (args: CallArgs): boolean =>
  args.to !== undefined && args.gasPrice === undefined && args.maxFeePerGas === undefined && args.maxPriorityFeePerGas === undefined;

/**
 * The answer of the call `call` (callKey's or estimateKey's; undefined: one never kept) on `block`
 * at state `root`: the one kept, else one carried from another head, else what `run` answers on that
 * state, then kept. A run on the head records what it reads (when `carry`), so that its answer can be
 * carried to the heads after. A failure `run` returns is an answer, kept; one it throws is not, nor
 * one `keep` refuses once the run is done (a run that printed console.log lines runs again, to print them again).
 * eth_call and eth_estimateGas take `root` as they start: a dev edit made meanwhile is the next
 * request's, and their runs all read the one state.
 */
export async function answered<T extends Uint8Array | bigint>(
  chain: EvmChain,
  block: StoredBlock,
  call: string | undefined,
  root: Uint8Array,
  carry: boolean,
  run: (reads: CallReads | undefined) => Promise<T | CallFailure>,
  keep: () => boolean = () => true,
): Promise<T | CallFailure> {
  if (call === undefined) return run(undefined);
  // Keys of one kind of call hold answers of that kind only (estimateKey's start with "estimate|").
  const known = (await knownAnswer(chain, block, call, answerKey(chain, block, call, root), root)) as T | CallFailure | undefined;
  if (known !== undefined) return known;
  const reads = carry && block === chain.head ? new CallReads() : undefined;
  // The key names the head too: taken after the lookup's wait, and checked again after the run's.
  const key = answerKey(chain, block, call, root);
  const answer = await run(reads);
  if (key === answerKey(chain, block, call, root) && keep()) keepAnswer(chain, block, call, key, answer, reads, root);
  return answer;
}

/** The answer kept for `key` (of `call` at state `root`), or else carried to `block` (the head) from an earlier head; undefined: none. */
async function knownAnswer(chain: EvmChain, block: StoredBlock, call: string, key: string, root: Uint8Array): Promise<Answer | undefined> {
  const answers = answersOf(chain);
  const kept = answers.get(key);
  if (kept !== undefined || block !== chain.head) return kept?.answer;
  const from = await carried(chain, answers, block, root, call);
  // Kept under `key` only while the head is still the one it names.
  if (from === undefined || key !== answerKey(chain, block, call, root)) return undefined;
  answers.set(key, { answer: from.answer, call, at: { ...from.at!, block, root } });
  return from.answer;
}

/**
 * The last answer of `call` kept on a head (this one before a dev edit, an earlier one, or one of a
 * branch a revert left) that still holds on `head` at state `root`: the two blocks are at most CARRY_BLOCKS apart,
 * the stateful precompiles on are the same, and no account or slot its run read differs between the
 * two states. Only the run's own reads decide it: its code had no op that reads the block
 * (callreads.ts), so neither the block nor its ancestry takes part, and the VM's rules are the
 * chain's, the same at every block. (A test suite that reverts to its fixture before each test
 * thus reads, after its txs, the views they left as another test left them without running them.)
 */
async function carried(chain: EvmChain, answers: Answers, head: StoredBlock, root: Uint8Array, call: string): Promise<Kept | undefined> {
  const last = answers.lastOnHead(call);
  const at = last?.at;
  if (!at) return undefined;
  const [from, to] = [at.block.header.number, head.header.number];
  if ((from > to ? from - to : to - from) > BigInt(CARRY_BLOCKS)) return undefined;
  // The coinbase is warm from a run's start (EIP-3651): reading its account costs what it costs in that block only.
  if (!equalBytes(at.block.header.coinbase, head.header.coinbase) || !chain.sameCallRules(at.block, head)) return undefined;
  if (sentSince(chain, at.block, head, at.addresses)) return undefined;
  const changes = await answers.changes(chain, at.root, root);
  if (!changes || at.accounts.some((a) => changes.accounts.has(a)) || at.slots.some((s) => changes.slots.has(s))) return undefined;
  return last;
}

/**
 * Whether an account among `addresses` (hex) sent a tx in a block after `from` up to `head`,
 * which descends from it: that account's nonce moved, so the two states' diff would find it changed.
 * A test that sends tx after tx asks each fill's estimate, which read its sender, on a new head, and
 * the diff that refused it cost a third as much as running the estimate again. Only blocks kept at
 * hand with their records are looked at: where one is not, or the walk back from `head` does not
 * reach `from` (another branch, where the sender may have sent as many), the answer is false and the
 * diff decides.
 */
export function sentSince(
  chain: { store: Pick<ChainStore, 'keptBlock' | 'keptRecords'> },
  from: StoredBlock,
  head: StoredBlock,
  addresses: ReadonlySet<string>,
): boolean {
  if (addresses.size === 0) return false;
  let sent = false;
  let block: StoredBlock | undefined = head;
  for (let steps = 0; block && block.header.number > from.header.number && steps < CARRY_BLOCKS; steps++) {
    const records = chain.store.keptRecords(block.hash);
    if (!records) return false;
    sent ||= records.some((r) => addresses.has(toHex(r.from)));
    if (equalBytes(block.header.parentHash, from.hash)) return sent;
    block = chain.store.keptBlock(block.header.parentHash);
  }
  return false;
}

/** Keeps `answer` for `key`; with `reads` (a run on the head at state `root`), where and what it read, to be carried later. */
function keepAnswer(chain: EvmChain, block: StoredBlock, call: string, key: string, answer: Answer, reads: CallReads | undefined, root: Uint8Array): void {
  const at = reads?.stateOnly && block === chain.head ? { block, root, ...trieKeysOf(reads), addresses: reads.accounts } : undefined;
  answersOf(chain).set(key, at ? { answer, call, at } : { answer, call });
}

/** Trie keys (hex) of hashed hex inputs, the last ones asked (an account is read by call after call). */
const hashed = new Map<string, string>();
const HASHED = 10_000;

function trieKey(hex: string): string {
  let key = hashed.get(hex);
  if (key === undefined) {
    if (hashed.size >= HASHED) hashed.clear();
    key = toHex(keccak256(fromHex(hex)));
    hashed.set(hex, key);
  }
  return key;
}

/** A run's reads as the state trie keys them: accounts by their address's keccak, slots also by the slot's. */
function trieKeysOf(reads: CallReads): { accounts: string[]; slots: string[] } {
  return {
    accounts: [...reads.accounts].map(trieKey),
    // CallReads' slot: 40 hex digits of address, then 64 of slot.
    slots: [...reads.slots].map((s) => trieKey(s.slice(0, 40)) + trieKey(s.slice(40))),
  };
}

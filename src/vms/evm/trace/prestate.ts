// prestateTracer (libevm eth/tracers/native/prestate.go, prestate_libevm.go): the accounts and
// slots the tx touched, as they were before it; with diffMode, {post, pre} of what it changed.
// geth reads each account lazily when first touched, which is the pre-tx state everywhere but
// one place this file reproduces: a create tx's new account is read after EIP-158 gave it nonce 1
// (fixed upstream by go-ethereum#29099, after the libevm fork coreth 1.14.2 runs).
import type { EVMResult, InterpreterStep } from '@ethereumjs/evm';
import { bigIntToBytes, generateAddress, generateAddress2 } from '@ethereumjs/util';
import { type Frame, FrameTracker, type Step } from './frames.js';
import { op } from './opcodes.js';
import type { StateReader, TraceResult, TraceTxInfo } from './types.js';
import { addressOf, memoryCopyPadded, quantity, word, word32 } from './util.js';
import { toHex, toHex0x } from '../../../encoding/bytes.js';

export interface PrestateConfig {
  diffMode?: boolean;
}

interface Account {
  balance?: bigint;
  code?: Uint8Array;
  nonce?: bigint;
  /** slot -> value, both as 32-byte hex without 0x */
  storage: Map<string, string>;
}

const ZERO = word(0n);

export class PrestateTracer extends FrameTracker {
  /** address (0x hex) -> the slots read or written there. */
  private readonly touched = new Map<string, Set<string>>();
  private readonly created = new Set<string>();
  private readonly deleted = new Set<string>();
  private to?: string;

  constructor(
    tx: TraceTxInfo,
    private readonly cfg: PrestateConfig,
    timeoutMs?: number,
  ) {
    super(tx, timeoutMs);
  }

  protected override enter(frame: Frame, parent: Frame | undefined): void {
    if (parent) {
      // prestate_libevm.go's CaptureEnter: the callee (the code address for delegated calls).
      if (frame.type !== op.CREATE && frame.type !== op.CREATE2) this.account(toHex0x(frame.message.codeAddress.bytes));
      return;
    }
    // CaptureStart: sender, recipient (or the new contract) and coinbase.
    this.account(toHex0x(this.tx.from));
    const to = this.tx.to ?? this.tx.created;
    if (to) this.top(toHex0x(to));
    this.account(toHex0x(this.tx.coinbase));
  }

  protected override exit(frame: Frame, res: EVMResult): void {
    if (frame.depth === 0 && !this.to && res.createdAddress) this.top(res.createdAddress.toString());
  }

  protected override async step(ev: InterpreterStep, _frame: Frame, step: Step): Promise<void> {
    const code = ev.opcode.code;
    const stack = ev.stack;
    const n = stack.length;
    const caller = ev.address.toString();
    const later = (work: () => void) => step.effects.push(work);
    if (n >= 1 && (code === op.SLOAD || code === op.SSTORE)) {
      const slot = word(stack[n - 1]);
      later(() => this.account(caller).add(slot));
    } else if (n >= 1 && (code === op.EXTCODECOPY || code === op.EXTCODEHASH || code === op.EXTCODESIZE || code === op.BALANCE || code === op.SELFDESTRUCT)) {
      const target = toHex0x(addressOf(stack[n - 1]));
      later(() => {
        this.account(target);
        if (code === op.SELFDESTRUCT) this.deleted.add(caller);
      });
    } else if (n >= 5 && (code === op.DELEGATECALL || code === op.CALL || code === op.STATICCALL || code === op.CALLCODE)) {
      const target = toHex0x(addressOf(stack[n - 2]));
      later(() => this.account(target));
    } else if (code === op.CREATE) {
      // The address from the creator's nonce as it is now, whether or not the create then happens.
      const nonce = (await ev.stateManager.getAccount(ev.address))?.nonce ?? 0n;
      const target = toHex0x(generateAddress(ev.address.bytes, bigIntToBytes(nonce)));
      later(() => this.newAccount(target));
    } else if (n >= 4 && code === op.CREATE2) {
      const init = memoryCopyPadded(ev.memory, stack[n - 2], stack[n - 3]);
      if (!init) return; // geth warns and skips, as for any copy needing over 1 MiB of padding
      const salt = word32(bigIntToBytes(stack[n - 4]));
      const target = toHex0x(generateAddress2(ev.address.bytes, salt, init));
      later(() => this.newAccount(target));
    }
  }

  protected async result(_result: TraceResult, pre: StateReader, post: StateReader): Promise<unknown> {
    const state = new Map<string, Account>();
    for (const [address, slots] of this.touched) state.set(address, await read(pre, address, slots));
    if (this.to && !this.tx.to) {
      // Read after createCommon's SetNonce(address, 1) and before the init code ran.
      const created = state.get(this.to)!;
      created.nonce = 1n;
      created.code = new Uint8Array();
    }
    if (!this.cfg.diffMode) {
      // CaptureEnd drops a created account that did not exist before (never, given its nonce 1).
      if (this.to && !this.tx.to && !exists(state.get(this.to)!)) state.delete(this.to);
      return render(state);
    }
    const after = new Map<string, Account>();
    for (const [address, before] of state) {
      if (this.deleted.has(address)) continue; // kept whole in pre, absent from post
      const now = await read(post, address, new Set(before.storage.keys()));
      const changed: Account = { storage: new Map() };
      if (now.balance !== before.balance) changed.balance = now.balance;
      if (now.nonce !== before.nonce) changed.nonce = now.nonce;
      if (toHex(now.code!) !== toHex(before.code!)) changed.code = now.code;
      let modified = changed.balance !== undefined || changed.nonce !== undefined || changed.code !== undefined;
      for (const [slot, value] of before.storage) {
        if (value === ZERO) before.storage.delete(slot);
        const next = now.storage.get(slot)!;
        if (next === value) {
          before.storage.delete(slot);
        } else {
          modified = true;
          if (next !== ZERO) changed.storage.set(slot, next);
        }
      }
      if (modified) after.set(address, changed);
      else state.delete(address);
    }
    // Created accounts were empty before the tx: they have no pre-state to show.
    for (const address of this.created) {
      const before = state.get(address);
      if (before && !exists(before)) state.delete(address);
    }
    return { post: render(after), pre: render(state) };
  }

  private top(address: string): void {
    this.to = address;
    if (this.tx.to) this.account(address);
    else this.newAccount(address, this.cfg.diffMode === true);
  }

  private newAccount(address: string, created = true): void {
    this.account(address);
    if (created) this.created.add(address);
  }

  private account(address: string): Set<string> {
    const slots = this.touched.get(address) ?? new Set<string>();
    this.touched.set(address, slots);
    return slots;
  }
}

async function read(reader: StateReader, address: string, slots: Set<string>): Promise<Account> {
  const bytes = Buffer.from(address.slice(2), 'hex');
  const account = await reader.getAccount(bytes);
  const storage = new Map<string, string>();
  for (const slot of slots) storage.set(slot, toHex(word32(await reader.getStorage(bytes, Buffer.from(slot, 'hex')))));
  return { balance: account?.balance ?? 0n, nonce: account?.nonce ?? 0n, code: await reader.getCode(bytes), storage };
}

function exists(a: Account): boolean {
  return (a.nonce ?? 0n) > 0n || (a.code?.length ?? 0) > 0 || a.storage.size > 0 || (a.balance ?? 0n) !== 0n;
}

/** Go's JSON of the state map: addresses sorted, account fields in order, zero nonce and empty code and storage left out. */
function render(state: Map<string, Account>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const address of [...state.keys()].sort()) {
    const a = state.get(address)!;
    const json: Record<string, unknown> = {};
    if (a.balance !== undefined) json.balance = quantity(a.balance);
    if (a.code && a.code.length > 0) json.code = toHex0x(a.code);
    if (a.nonce) json.nonce = Number(a.nonce);
    if (a.storage.size > 0) json.storage = Object.fromEntries([...a.storage.keys()].sort().map((k) => [`0x${k}`, `0x${a.storage.get(k)}`]));
    out[address] = json;
  }
  return out;
}

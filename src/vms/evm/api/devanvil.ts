// Anvil's helpers beyond its mining and state controls (--dev), as Anvil 1.7.1 answers them:
// the EIP-7966 sends that answer with the receipt, ERC-20 balances and allowances dealt by finding
// the token's slot, a sender's tx by nonce, many storage slots in one read, and the blocks
// anvil_mine_detailed made.
import { Address, bigIntToBytes, hexToBytes, unpadBytes } from '@ethereumjs/util';
import { type MethodDef, method, RpcError } from '../../../rpc/method.js';
import { devPositional, positional } from '../../../rpc/geth.js';
import { type Field, ParamsError } from '../../../rpc/schema.js';
import type { JsonValue } from '../../../encoding/gojson.js';
import { toHex0x } from '../../../encoding/bytes.js';
import { call, observedRun, watchSteps } from '../calls.js';
import { type Touched, tracer } from '../accesslist.js';
import type { EvmChain } from '../chain.js';
import { blockTxs, type FoundTx, findTx } from '../queries.js';
import type { TxArgs } from '../txargs.js';
import { firstAccount, type KeyRing, senderKey, sendCompleted, sendError } from './accounts.js';
import { blockOf, firstBlockWhere } from './blocks.js';
import { address, type BlockRef, blockRef, bytes, hexOrDecimal64, raw, txArgs, u256 } from './fields.js';
import { formatBlock, formatReceipt, formatTx } from './format.js';
import { callTraces } from '../trace/replay.js';
import type { GasOracle } from './gas.js';
import { signingErrors } from './signing.js';

/** How long Anvil's sync sends wait for their block (api.rs's TIMEOUT_DURATION); EIP-7966's timeout may ask for less. */
const CONFIRMATION_TIMEOUT_MS = 30_000;
/** Anvil's limit on the slots one eth_getStorageValues reads. */
const MAX_STORAGE_VALUES = 1024;
/** EIP-2681: no tx has a nonce of 2^64-1 or more. */
const MAX_NONCE = 2n ** 64n - 1n;

export const anvilErrors = {
  confirmationTimeout: () => new RpcError('Transaction confirmation timeout', -32603),
  notImplemented: () => new RpcError('Not implemented', -32603),
  noBalanceSlot: () => new RpcError('Unable to set ERC20 balance, no slot found', -32603),
  noAllowanceSlot: () => new RpcError('Unable to set ERC20 allowance, no slot found', -32603),
  tooManySlots: (n: number) => new RpcError(`total slot count ${n} exceeds limit ${MAX_STORAGE_VALUES}`, -32602),
};

/**
 * The txs sync sends wait for, per chain: one follower of the chain's blocks for all of them (a
 * listener each would pass the emitter's limit); each waiter lives as long as its request, 30 s at most.
 */
const waitersOf = new WeakMap<EvmChain, { checks: Set<() => void>; stop?: () => void }>();

/** The receipt of the tx `hash` once a block holds it; Anvil's timeout error after `ms`. */
async function receiptWithin(chain: EvmChain, hash: Uint8Array, ms: number): Promise<Record<string, unknown>> {
  let w = waitersOf.get(chain);
  if (!w) {
    w = { checks: new Set() };
    waitersOf.set(chain, w);
  }
  const waiters = w;
  let check: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise((resolve, reject) => {
      check = () => {
        findTx(chain, hash).then((found) => found && resolve(formatReceipt(found.tx, found.records, found)), reject);
      };
      waiters.checks.add(check);
      waiters.stop ??= chain.followBlocks(() => {
        for (const c of waiters.checks) c();
      });
      timer = setTimeout(() => reject(anvilErrors.confirmationTimeout()), ms);
      // Looked for once the follower is on: a block accepted meanwhile is not missed.
      check();
    });
  } finally {
    clearTimeout(timer);
    if (check) waiters.checks.delete(check);
    if (waiters.checks.size === 0) {
      waiters.stop?.();
      waiters.stop = undefined;
    }
  }
}

/** EIP-7966's optional timeout (ms): Anvil's 30 s at most. */
const timeoutOf = (ms: unknown) =>
  ms === undefined || (ms as bigint) === 0n || (ms as bigint) > BigInt(CONFIRMATION_TIMEOUT_MS) ? CONFIRMATION_TIMEOUT_MS : Number(ms);

/** eth_getStorageValues' first argument: slots by address, each slot exactly 32 bytes (alloy's B256). */
const slotsByAddress: Field<Map<string, Uint8Array[]>> = {
  decode(v) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ParamsError('invalid type: expected a map');
    const out = new Map<string, Uint8Array[]>();
    for (const [a, slots] of Object.entries(v as Record<string, JsonValue>)) {
      const key = toHex0x(address.decode(a) as Uint8Array);
      if (!Array.isArray(slots)) throw new ParamsError('invalid type: expected a sequence');
      out.set(
        key,
        slots.map((s) => {
          const digits = typeof s === 'string' ? s.replace(/^0x/, '') : undefined;
          if (digits === undefined) throw new ParamsError('invalid type: expected a 32-byte hex string');
          if (digits.length % 2 === 1) throw new ParamsError('odd number of digits');
          if (digits.length !== 64) throw new ParamsError('invalid string length');
          if (!/^[0-9a-fA-F]*$/.test(digits)) throw new ParamsError('invalid character');
          return hexToBytes(`0x${digits}`);
        }),
      );
    }
    return out;
  },
  zero: () => new Map(),
};

/**
 * The slot of `token` that `read` (balanceOf or allowance) answers from, as Anvil finds it: the
 * slots the read touches in the token (as eth_createAccessList lists them), in ascending order,
 * the first whose override with `amount` makes the read answer `amount`.
 */
async function erc20Slot(chain: EvmChain, token: Uint8Array, read: Uint8Array, amount: bigint): Promise<string | undefined> {
  const block = chain.head;
  const tokenHex = toHex0x(token);
  // The slots the read touches (SLOAD and SSTORE, as an access list has them; no address is wanted).
  const touched: Touched = new Map();
  const run = await observedRun(chain, block, { to: token, data: read }, watchSteps(tracer(touched, () => true))).catch(() => undefined);
  if (!run || run.execResult.exceptionError) return undefined;
  const slots = [...(touched.get(tokenHex) ?? [])].sort();
  const value = hexToBytes(`0x${amount.toString(16).padStart(64, '0')}`);
  for (const slot of slots) {
    const overrides = new Map([[tokenHex, { stateDiff: new Map([[slot, value]]) }]]);
    const out = await call(chain, block, { to: token, data: read }, overrides).catch(() => undefined);
    if (out && out.length >= 32 && BigInt(toHex0x(out.subarray(0, 32))) === amount) return slot;
  }
  return undefined;
}

/**
 * The mined tx of `sender` with `nonce`: the block where the sender's nonce passed it, found by
 * bisection over the blocks' states (as Anvil's), then that block's tx. A nonce of 2^64-1 or more
 * no tx has (EIP-2681).
 */
export async function minedBySenderAndNonce(chain: EvmChain, sender: Uint8Array, nonce: bigint): Promise<FoundTx | undefined> {
  const passed = async (number: bigint) => {
    const block = await blockOf(chain, { tag: number });
    return ((await chain.account(sender, chain.stateRootOf(block)))?.nonce ?? 0n) > nonce;
  };
  const head = chain.head.header.number;
  if (nonce >= MAX_NONCE || head === 0n || !(await passed(head))) return undefined;
  const block = await blockOf(chain, { tag: await firstBlockWhere(1n, head, passed) });
  const records = await chain.store.txRecords(block.hash);
  const txs = blockTxs(chain, block);
  const from = toHex0x(sender);
  const index = txs.findIndex((tx, i) => tx.nonce === nonce && toHex0x(records[i]!.from) === from);
  return index < 0 ? undefined : { tx: txs[index]!, block, index, records };
}

const word = (a: Uint8Array) => toHex0x(a).slice(2).padStart(64, '0');

/** Anvil's eth_ helpers (--dev), merged into the chain's eth namespace. */
export function anvilEthMethods(chain: EvmChain, gas: GasOracle, ring: KeyRing): Record<string, MethodDef> {
  return {
    sendRawTransactionSync: method(positional([bytes, hexOrDecimal64], 1), async ([rawTx, ms]) => {
      let hash: Uint8Array;
      try {
        hash = await chain.sendRawTransaction(rawTx as Uint8Array);
      } catch (err) {
        sendError(err);
      }
      return receiptWithin(chain, hash, timeoutOf(ms));
    }),
    sendTransactionSync: method(positional([txArgs, hexOrDecimal64], 1), async ([a, ms]) => {
      // Without `from`, Anvil sends from its first account.
      const given = { ...(a as TxArgs) };
      given.from ??= firstAccount(ring);
      const hash = await sendCompleted(chain, gas, given, senderKey(chain, ring, given.from, signingErrors.noSigner));
      return receiptWithin(chain, hexToBytes(hash as `0x${string}`), timeoutOf(ms));
    }),
    // The pool first (pending, then queued), then the block where the sender's nonce passed `nonce`.
    // The nonce is a U256: one no tx can have answers null.
    getTransactionBySenderAndNonce: method(positional([address, u256]), async ([a, n]) => {
      const from = toHex0x(a as Uint8Array);
      const nonce = n as bigint;
      const pooled = chain.pool.sameNonce(from, nonce);
      if (pooled) return formatTx(pooled.tx, pooled.from, undefined);
      const found = await minedBySenderAndNonce(chain, a as Uint8Array, nonce);
      return found ? formatTx(found.tx, found.records[found.index]!.from, found) : null;
    }),
    getStorageValues: method(positional([slotsByAddress, blockRef]), async ([asked, ref]) => {
      const byAddress = asked as Map<string, Uint8Array[]>;
      const total = [...byAddress.values()].reduce((n, s) => n + s.length, 0);
      if (total > MAX_STORAGE_VALUES) throw anvilErrors.tooManySlots(total);
      // One block for every address, resolved once; null is Anvil's None: the latest.
      const given = ref as BlockRef;
      const root = chain.stateRootOf(await blockOf(chain, 'neither' in given ? { tag: 'latest' } : given));
      const out: Record<string, string[]> = {};
      for (const [a, slots] of byAddress) {
        const addr = new Address(hexToBytes(a as `0x${string}`));
        out[a] = await chain.withState(root, async (vm) => {
          const exists = (await vm.stateManager.getAccount(addr)) !== undefined;
          const values: string[] = [];
          for (const slot of slots) values.push(`0x${exists ? word(await vm.stateManager.getStorage(addr, slot)) : '0'.repeat(64)}`);
          return values;
        });
      }
      return out;
    }),
    // Anvil answers these two with its error for what it does not implement (v4 is signing.ts's).
    signTypedData: method(positional([address, raw]), () => {
      throw anvilErrors.notImplemented();
    }),
    signTypedData_v3: method(positional([address, raw]), () => {
      throw anvilErrors.notImplemented();
    }),
  };
}

/** Anvil's ERC-20 helpers (--dev): a holder's balance and an owner's allowance dealt. */
export function erc20Helpers(chain: EvmChain) {
  const deal = async (token: Uint8Array, read: Uint8Array, amount: bigint, refusal: () => RpcError) => {
    const slot = await erc20Slot(chain, token, read, amount);
    if (!slot) throw refusal();
    // As anvil_setStorageAt writes it: the head's state, without a block.
    await chain.editState((sm) => sm.putStorage(new Address(token), hexToBytes(slot as `0x${string}`), unpadBytes(bigIntToBytes(amount))));
    return null;
  };
  const dealERC20 = method(devPositional([address, address, u256]), ([holder, token, amount]) =>
    deal(token as Uint8Array, hexToBytes(`0x70a08231${word(holder as Uint8Array)}`), amount as bigint, anvilErrors.noBalanceSlot),
  );
  const setERC20Allowance = method(devPositional([address, address, address, u256]), ([owner, spender, token, amount]) =>
    deal(
      token as Uint8Array,
      hexToBytes(`0xdd62ed3e${word(owner as Uint8Array)}${word(spender as Uint8Array)}`),
      amount as bigint,
      anvilErrors.noAllowanceSlot,
    ),
  );
  return { dealERC20, setERC20Balance: dealERC20, setERC20Allowance };
}

/**
 * The blocks from `first` to the head, as anvil_mine_detailed answers them: each with its txs in
 * full, every tx with its `output` (return or revert data) and, when it failed with a reason that
 * decodes, its `revertReason`. The outputs come from the blocks' call traces (the builder keeps none).
 */
export async function minedBlocks(chain: EvmChain, first: bigint): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (let n = first; n <= chain.head.header.number; n++) {
    const block = await blockOf(chain, { tag: n });
    const records = await chain.store.txRecords(block.hash);
    const traces = block.body.length > 0 ? await callTraces(chain, block, () => true) : [];
    const txs = blockTxs(chain, block).map((tx, index) => {
      const json = formatTx(tx, records[index]!.from, { block, index });
      const output = traces[index]?.result.output ?? '0x';
      json.output = output;
      const reason = records[index]!.status === 0 ? anvilRevertReason(hexToBytes(output as `0x${string}`)) : undefined;
      if (reason !== undefined) json.revertReason = reason;
      return json;
    });
    out.push(formatBlock(block, txs));
  }
  return out;
}

/** alloy's PanicKind texts, by panic code (hex, as Solidity's documentation lists them). */
const PANIC_KINDS: Record<string, string> = {
  '0x0': 'generic/unspecified error',
  '0x1': 'assertion failed',
  '0x11': 'arithmetic underflow or overflow',
  '0x12': 'division or modulo by zero',
  '0x21': 'failed to convert value into enum type',
  '0x22': 'storage byte array incorrectly encoded',
  '0x31': 'called `.pop()` on an empty array',
  '0x32': 'array out-of-bounds access',
  '0x41': 'memory allocation error',
  '0x51': 'called an invalid internal function',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** An ABI-encoded string (one dynamic argument), if `data` is one and valid UTF-8. */
function abiString(data: Uint8Array): string | undefined {
  if (data.length < 64) return undefined;
  const offset = BigInt(toHex0x(data.subarray(0, 32)));
  if (offset + 32n > BigInt(data.length)) return undefined;
  const at = Number(offset);
  const length = BigInt(toHex0x(data.subarray(at, at + 32)));
  if (BigInt(at + 32) + length > BigInt(data.length)) return undefined;
  try {
    return utf8.decode(data.subarray(at + 32, at + 32 + Number(length)));
  } catch {
    return undefined;
  }
}

/** A non-empty ABI string, else non-empty ASCII text. */
function stringOf(data: Uint8Array): string | undefined {
  const abi = abiString(data);
  if (abi) return abi;
  if (data.length > 0 && data.every((b) => b < 0x80)) return Buffer.from(data).toString('latin1');
  return undefined;
}

/**
 * The revertReason anvil_mine_detailed gives a failed tx (foundry's RevertDecoder, knowing no
 * custom errors): Error(string)'s reason, a panic's alloy text, a string, `custom error 0x<selector>`
 * with its data as text (or hex), or `custom error bytes 0x…`; nothing for no data.
 */
export function anvilRevertReason(data: Uint8Array): string | undefined {
  const selector = toHex0x(data.subarray(0, 4));
  const body = data.subarray(4);
  if (data.length >= 4 && selector === '0x08c379a0') {
    const reason = abiString(body);
    if (reason !== undefined) return reason;
  }
  if (data.length === 36 && selector === '0x4e487b71') {
    const code = `0x${BigInt(toHex0x(body)).toString(16)}`;
    return `panic: ${PANIC_KINDS[code] ?? 'unknown code'} (${code})`;
  }
  const text = stringOf(data);
  if (data.length >= 4) {
    if (text !== undefined) return text;
    if (body.length === 0) return `custom error ${selector}`;
    let shown: string;
    try {
      shown = utf8.decode(body);
    } catch {
      shown = toHex0x(body).slice(2);
    }
    return `custom error ${selector}: ${shown}`;
  }
  if (text !== undefined) return text;
  return data.length === 0 ? undefined : `custom error bytes ${toHex0x(data)}`;
}

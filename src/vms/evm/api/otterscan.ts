// Otterscan's API (ots_*, and erigon_getHeaderByNumber), as Anvil 1.7.1 serves it (--dev), so that
// Otterscan, the block explorer for local nodes, runs against any EVM chain of the node. What it
// says of a tx's internals comes from the tx's call trace (trace/replay.ts callTraces), made again
// on each request; searches and creators from what each block's txs touched and created
// (trace/touches.ts), found by re-executing the block once and kept (TouchCache). Searches read
// only the chain's own blocks (past its fork block on a fork), from the newest one a request names,
// never past the head.
import { method, RpcError, type ServiceDef } from '../../../rpc/method.js';
import { devPositional } from '../../../rpc/geth.js';
import { type Field, ParamsError } from '../../../rpc/schema.js';
import { type JsonValue, numberText } from '../../../encoding/gojson.js';
import { toHex0x } from '../../../encoding/bytes.js';
import type { EvmChain } from '../chain.js';
import { blockTxs, type FoundTx, findTx } from '../queries.js';
import type { StoredBlock } from '../store.js';
import { type CallFrameJson, callTraces } from '../trace/replay.js';
import { blockTouches, type TxTouches } from '../trace/touches.js';
import { txHash } from '../txcodec.js';
import { blockOf, firstBlockWhere } from './blocks.js';
import { jsonKind } from './dev.js';
import { minedBySenderAndNonce } from './devanvil.js';
import { address, hash, u256 } from './fields.js';
import { formatBlock, formatReceipt, formatTx, qty } from './format.js';

/** The Otterscan API level Anvil 1.7.1 reports. */
const API_LEVEL = 8;

export const otsErrors = {
  /** Anvil's BlockchainError::BlockNotFound. */
  notFound: () => new RpcError('Resource not found', -32001),
  /** Anvil's BlockchainError::DataUnavailable. */
  unavailable: () => new RpcError('Required data unavailable', -32603),
  outOfRange: (head: bigint, n: bigint) => new RpcError(`BlockOutOfRangeError: block height is ${head} but requested was ${n}`, -32602),
};

type Tag = 'latest' | 'pending' | 'earliest' | 'safe' | 'finalized';
const TAGS = new Set<string>(['latest', 'pending', 'earliest', 'safe', 'finalized']);

/** Anvil's lenient block number: a JSON integer, a hex or decimal string, or a tag (any case). */
const lenientBlock: Field<bigint | Tag> = {
  decode(v: JsonValue) {
    const n = numberText(v);
    const u64 = (x: bigint) => {
      if (x > 2n ** 64n - 1n) throw new ParamsError('number too large to fit in target type');
      return x;
    };
    if (typeof v === 'string') {
      const t = v.toLowerCase();
      if (TAGS.has(t)) return t as Tag;
      if (/^0x[0-9a-f]+$/.test(t)) return u64(BigInt(t));
      if (t === '0x') throw new ParamsError('cannot parse integer from empty string');
      if (/^\d+$/.test(t)) return u64(BigInt(t));
      throw new ParamsError('hex string without 0x prefix');
    }
    if (n !== undefined && /^\d+$/.test(n)) return u64(BigInt(n));
    throw new ParamsError(`invalid type: ${jsonKind(v)}, expected a block number or tag, or a u64`);
  },
  // Given as null, it is refused (an absent one is the latest).
  decodeNull(this: Field<bigint | Tag>) {
    return this.decode(null);
  },
  zero: () => 'latest',
};

/** A plain u64 of Anvil's (serde): a JSON number only. */
const jsonU64: Field<bigint> = {
  decode(v: JsonValue) {
    const n = numberText(v);
    if (n !== undefined && /^\d+(\.0*)?$/.test(n) && BigInt(n.replace(/\..*/, '')) < 2n ** 64n - 1n) return BigInt(n.replace(/\..*/, ''));
    if (n !== undefined) throw new ParamsError('invalid number');
    throw new ParamsError(`invalid type: ${jsonKind(v)}, expected u64`);
  },
  zero: () => 0n,
};

/** A frame's own type and those of the frames it opened, in pre-order. */
function* framesOf(frame: CallFrameJson, depth = 0, parent?: CallFrameJson): Generator<{ frame: CallFrameJson; depth: number; parent?: CallFrameJson }> {
  yield { frame, depth, ...(parent ? { parent } : {}) };
  for (const child of frame.calls ?? []) yield* framesOf(child, depth + 1, frame);
}

const isCreate = (f: CallFrameJson) => f.type === 'CREATE' || f.type === 'CREATE2';

/** Blocks' touches (trace/touches.ts) kept for the searches to come, by block hash. */
const KEPT_TXS = 200_000;

/** Accepted blocks waiting to be read into the cache, at most (more are read when asked for). */
const QUEUED_BLOCKS = 1024;

/**
 * At most KEPT_TXS txs' worth, the least recently read block dropped first. From its first use on,
 * each block the chain accepts is read in the background, so that searches find recent blocks
 * ready (a chain nobody searches pays nothing).
 */
class TouchCache {
  private readonly blocks = new Map<string, TxTouches[]>();
  private txs = 0;
  private readonly queue: StoredBlock[] = [];
  private reading = false;

  constructor(private readonly chain: EvmChain) {
    chain.followBlocks(({ block }) => {
      if (block.body.length === 0 || this.queue.length >= QUEUED_BLOCKS) return;
      this.queue.push(block);
      if (!this.reading) void this.readQueued();
    });
  }

  private async readQueued(): Promise<void> {
    this.reading = true;
    try {
      for (let block = this.queue.shift(); block; block = this.queue.shift()) await this.of(block);
    } catch {
      // A block the chain no longer holds (reverted, reset): it is read again if ever asked for.
      this.queue.length = 0;
    } finally {
      this.reading = false;
    }
  }

  async of(block: StoredBlock): Promise<TxTouches[]> {
    const key = toHex0x(block.hash);
    const kept = this.blocks.get(key);
    if (kept) {
      this.blocks.delete(key);
      this.blocks.set(key, kept);
      return kept;
    }
    const touches = await blockTouches(this.chain, block);
    // Read meanwhile by the background reader or another search: counted once.
    if (touches.length === 0 || this.blocks.has(key)) return touches;
    this.blocks.set(key, touches);
    this.txs += touches.length;
    for (const [oldest, t] of this.blocks) {
      if (this.txs <= KEPT_TXS) break;
      this.blocks.delete(oldest);
      this.txs -= t.length;
    }
    return touches;
  }
}

const caches = new WeakMap<EvmChain, TouchCache>();
const touchCache = (chain: EvmChain) => {
  let cache = caches.get(chain);
  if (!cache) {
    cache = new TouchCache(chain);
    caches.set(chain, cache);
  }
  return cache;
};

/**
 * ots_getInternalOperations: in pre-order, the top call included, each frame that selfdestructed
 * (type 1: the contract, the refund's target, the balance it sent), moved value by a call (0) or
 * created a contract (2, 3 for CREATE2). Failed frames count as well.
 */
function internalOperations(top: CallFrameJson): Array<{ type: number; from: string; to: string; value: string }> {
  const out: Array<{ type: number; from: string; to: string; value: string }> = [];
  for (const { frame } of framesOf(top)) {
    if (frame.type === 'SELFDESTRUCT') continue;
    const destruct = frame.calls?.find((c) => c.type === 'SELFDESTRUCT');
    const value = frame.value ?? '0x0';
    if (destruct) out.push({ type: 1, from: destruct.from, to: destruct.to ?? '', value: destruct.value ?? '0x0' });
    else if (frame.type === 'CALL' && BigInt(value) !== 0n) out.push({ type: 0, from: frame.from, to: frame.to ?? '', value });
    else if (isCreate(frame)) out.push({ type: frame.type === 'CREATE' ? 2 : 3, from: frame.from, to: frame.to ?? frame.created ?? '', value });
  }
  return out;
}

/**
 * ots_traceTransaction: the call frames only (creates and selfdestructs left out, the calls within
 * them kept), each at its depth; a delegate call shows the value it runs with, its caller's.
 */
function callEntries(top: CallFrameJson) {
  const out: Array<{ type: string; depth: number; from: string; to: string; value: string; input: string; output: string }> = [];
  for (const { frame, depth, parent } of framesOf(top)) {
    if (isCreate(frame) || frame.type === 'SELFDESTRUCT') continue;
    const value = frame.value ?? (frame.type === 'DELEGATECALL' ? (parent?.value ?? '0x0') : '0x0');
    out.push({ type: frame.type, depth, from: frame.from, to: frame.to ?? '', value, input: frame.input ?? '0x', output: frame.output ?? '0x' });
  }
  return out;
}

export function otterscanServices(chain: EvmChain): ServiceDef[] {
  /** The first block the chain made itself: the genesis is never searched, a fork's blocks only past its fork block. */
  const firstOwn = () => (chain.forkedAt ?? 0n) + 1n;
  const own = (block: StoredBlock) => block.header.number >= firstOwn();
  /** A tag or number as Anvil reads it: every accepted block is final here, so safe and finalized are the head too. */
  const numberOf = (b: bigint | Tag) => (typeof b === 'bigint' ? b : b === 'earliest' ? 0n : chain.head.header.number);
  const blockAtNumber = async (n: bigint) => (n > chain.head.header.number ? undefined : blockOf(chain, { tag: n }));
  /** A tx of the chain's own blocks and its call trace. */
  const traced = async (h: Uint8Array): Promise<{ found: FoundTx; top: CallFrameJson } | undefined> => {
    const found = await findTx(chain, h);
    if (!found || !own(found.block)) return undefined;
    const [one] = await callTraces(chain, found.block, (i) => i === found.index);
    return { found, top: one!.result };
  };
  /** A receipt as Otterscan reads it: eth's, with the block's timestamp. */
  const otsReceipt = (tx: FoundTx['tx'], records: FoundTx['records'], block: StoredBlock, index: number) => ({
    ...formatReceipt(tx, records, { block, index }),
    timestamp: qty(block.header.time),
  });
  const details = async (block: StoredBlock) => {
    const records = await chain.store.txRecords(block.hash);
    const { transactions: _, ...fields } = formatBlock(block, []);
    const totalFees = records.reduce((sum, r) => sum + r.gasUsed * r.effectiveGasPrice, 0n);
    return {
      block: { ...fields, transactionCount: block.body.length },
      issuance: { blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' },
      totalFees: qty(totalFees),
    };
  };
  /** The txs of `block` that touch `who`, by descending index, with their receipts. */
  const touching = async (block: StoredBlock, who: string) => {
    if (block.body.length === 0) return [];
    const touches = await touchCache(chain).of(block);
    const records = await chain.store.txRecords(block.hash);
    const txs = blockTxs(chain, block);
    const out: Array<{ tx: Record<string, unknown>; receipt: Record<string, unknown> }> = [];
    for (let i = txs.length - 1; i >= 0; i--) {
      if (!touches[i]!.touched.has(who)) continue;
      out.push({ tx: formatTx(txs[i]!, records[i]!.from, { block, index: i }), receipt: otsReceipt(txs[i]!, records, block, i) });
    }
    return out;
  };
  type Found = Awaited<ReturnType<typeof touching>>;
  /** Adds the hits of block `k` to `found`, unless the page was full before it (whole blocks, as Anvil): false then. */
  const addBlock = async (k: bigint, who: string, found: Found, size: bigint): Promise<boolean> => {
    if (found.length >= Number(size)) return false;
    const block = await blockAtNumber(k);
    if (block) found.push(...(await touching(block, who)));
    return true;
  };
  const page = (found: Found, firstPage: boolean, lastPage: boolean) => ({
    txs: found.map((f) => f.tx),
    receipts: found.map((f) => f.receipt),
    firstPage,
    lastPage,
  });

  const ots = {
    // Otterscan's first question: the blocks from now on are read for its searches as they come.
    getApiLevel: method(devPositional([]), () => {
      touchCache(chain);
      return API_LEVEL;
    }),
    hasCode: method(devPositional([address, lenientBlock], 1), async ([a, b]) => {
      const n = numberOf((b as bigint | Tag | undefined) ?? 'latest');
      const block = await blockAtNumber(n);
      if (!block) throw otsErrors.outOfRange(chain.head.header.number, n);
      return (await chain.code(a as Uint8Array, chain.stateRootOf(block))).length > 0;
    }),
    getInternalOperations: method(devPositional([hash]), async ([h]) => {
      const t = await traced(h as Uint8Array);
      if (!t) throw otsErrors.unavailable();
      return internalOperations(t.top);
    }),
    traceTransaction: method(devPositional([hash]), async ([h]) => {
      const t = await traced(h as Uint8Array);
      return t ? callEntries(t.top) : [];
    }),
    // A failed tx's output (its revert data); "0x" for anything else.
    getTransactionError: method(devPositional([hash]), async ([h]) => {
      const found = await findTx(chain, h as Uint8Array);
      if (!found || found.records[found.index]!.status !== 0) return '0x';
      const t = await traced(h as Uint8Array);
      return t?.top.output ?? '0x';
    }),
    getBlockDetails: method(devPositional([lenientBlock]), async ([b]) => {
      if (b === 'pending') throw otsErrors.notFound();
      const block = await blockAtNumber(numberOf(b as bigint | Tag));
      if (!block) throw otsErrors.notFound();
      return details(block);
    }),
    getBlockDetailsByHash: method(devPositional([hash]), async ([h]) => {
      const block = await chain.store.block(h as Uint8Array);
      if (!block) throw otsErrors.notFound();
      return details(block);
    }),
    // A page of the block's txs (their input cut to the selector) and their receipts; transactionCount is the page's.
    getBlockTransactions: method(devPositional([jsonU64, jsonU64, jsonU64]), async ([n, p, size]) => {
      const block = await blockAtNumber(n as bigint);
      if (!block) throw otsErrors.notFound();
      const records = await chain.store.txRecords(block.hash);
      const txs = blockTxs(chain, block);
      const start = (p as bigint) * (size as bigint);
      const indexes: number[] = [];
      for (let i = start; i < start + (size as bigint) && i < BigInt(txs.length); i++) indexes.push(Number(i));
      const shown = indexes.map((i) => {
        const json = formatTx(txs[i]!, records[i]!.from, { block, index: i });
        return { ...json, input: (json.input as string).slice(0, 10) };
      });
      return {
        fullblock: { ...formatBlock(block, shown), transactionCount: shown.length },
        receipts: indexes.map((i) => otsReceipt(txs[i]!, records, block, i)),
      };
    }),
    // Newest first, from the block before `n` (0: the head); whole blocks, until a block would start past the page size.
    searchTransactionsBefore: method(devPositional([address, jsonU64, jsonU64]), async ([a, n, size]) => {
      const who = toHex0x(a as Uint8Array);
      const head = chain.head.header.number;
      const from = n === 0n ? head : (n as bigint) - 1n < head ? (n as bigint) - 1n : head;
      const to = firstOwn();
      const found: Found = [];
      let lastPage = false;
      for (let k = from; k >= to; k--) {
        if (!(await addBlock(k, who, found, size as bigint))) break;
        if (k === to) lastPage = true;
      }
      return page(found, from >= head, lastPage);
    }),
    // Oldest first from the block after `n` (0: the first), answered newest first as Anvil does.
    searchTransactionsAfter: method(devPositional([address, jsonU64, jsonU64]), async ([a, n, size]) => {
      const who = toHex0x(a as Uint8Array);
      const head = chain.head.header.number;
      const first = firstOwn();
      const from = n === 0n ? first : (n as bigint) + 1n;
      let firstPage = from >= head;
      let lastPage = false;
      const found: Found = [];
      for (let k = from; k <= head; k++) {
        if (k === first) lastPage = true;
        if (!(await addBlock(k, who, found, size as bigint))) break;
        if (k === head) firstPage = true;
      }
      // Each block's txs by ascending index, once the whole list is reversed.
      return page(found.reverse(), firstPage, lastPage);
    }),
    // The chain's own mined tx (not the pool's): its hash.
    getTransactionBySenderAndNonce: method(devPositional([address, u256]), async ([a, nonce]) => {
      const found = await minedBySenderAndNonce(chain, a as Uint8Array, nonce as bigint);
      return found && own(found.block) ? toHex0x(txHash(found.tx)) : null;
    }),
    getContractCreator: method(devPositional([address]), ([a]) => contractCreator(chain, a as Uint8Array, firstOwn())),
  };
  const erigon = {
    // eth_getBlockByNumber's block with its tx hashes; null for one past the head, or pending.
    getHeaderByNumber: method(devPositional([lenientBlock]), async ([b]) => {
      if (b === 'pending') return null;
      const block = await blockAtNumber(numberOf(b as bigint | Tag));
      return block
        ? formatBlock(
            block,
            blockTxs(chain, block).map((tx) => toHex0x(txHash(tx))),
          )
        : null;
    }),
  };
  return [
    { name: 'ots', methods: ots },
    { name: 'erigon', methods: erigon },
  ];
}

/**
 * ots_getContractCreator: the newest tx that created a contract at `a` and its direct creator
 * (the factory for an internal create). Where the code first shows is found by bisection (since
 * Cancun code stays once a block holds it) and read there; a contract no block shows (created and
 * destroyed in one tx, or its code edited away) is looked for block by block from the head, as Anvil does.
 */
async function contractCreator(chain: EvmChain, a: Uint8Array, first: bigint): Promise<{ hash: string; creator: string } | null> {
  const who = toHex0x(a);
  const hasCode = async (n: bigint) => (await chain.code(a, chain.stateRootOf(await blockOf(chain, { tag: n })))).length > 0;
  const createdIn = async (n: bigint) => {
    const block = await blockOf(chain, { tag: n });
    const touches = await touchCache(chain).of(block);
    for (let i = touches.length - 1; i >= 0; i--) {
      const creator = touches[i]!.created.get(who);
      if (creator) return { hash: toHex0x(txHash(blockTxs(chain, block)[i]!)), creator };
    }
    return null;
  };
  const head = chain.head.header.number;
  if (head < first) return null;
  if ((await hasCode(head)) && !(await hasCode(first - 1n))) {
    const found = await createdIn(await firstBlockWhere(first, head, hasCode));
    if (found) return found;
  }
  for (let n = head; n >= first; n--) {
    const found = await createdIn(n);
    if (found) return found;
  }
  return null;
}

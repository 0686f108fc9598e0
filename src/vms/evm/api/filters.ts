// Log queries, polled filters and websocket subscriptions (geth's eth/filters): eth_getLogs over the
// log indexes, eth_newFilter / eth_newBlockFilter / eth_newPendingTransactionFilter polled with
// eth_getFilterChanges (dropped after 5 minutes unpolled), and eth_subscribe newHeads, logs,
// newPendingTransactions and coreth's newAcceptedTransactions pushed to the caller's websocket.
//
// What a client can make the node hold is bounded: a filter's pending entries (MAX_PENDING), the
// filters installed at once (MAX_FILTERS); a block's logs and header are formatted and encoded once
// for every filter and subscription that takes them; a connection's subscriptions end with it.
import { goKey, goKind, goMarshal, isJsonObject, type JsonValue } from '../../../encoding/gojson.js';
import { method, RpcError, type ServiceDef } from '../../../rpc/method.js';
import { positional, unsubscribeMethod } from '../../../rpc/geth.js';
import { ParamsError } from '../../../rpc/schema.js';
import type { EvmChain } from '../chain.js';
import type { AcceptedEvmBlock } from '../chaintypes.js';
import type { EvmLog } from '../records.js';
import { formatTx, logText, marshalHeader } from './format.js';
import { JsonBytes } from '../../../encoding/jsonbytes.js';
import { blockNumber, type BlockTag, boolean, hash, raw, rpcId } from './fields.js';
import { decodeHex, decodeIn } from './hexfields.js';
import { blockLogs, type LogFilter, matches, rangeLogs } from './logs.js';
import { toHex0x } from '../../../encoding/bytes.js';
import { newID, subscribe, subscriptionArgs, subscriptionErrors } from '../../../rpc/subscriptions.js';

/** geth's filter deadline: a filter not polled for this long is uninstalled. */
const FILTER_TIMEOUT_MS = 5 * 60_000;
/** How often expired filters are swept when no block, tx or call comes to find them. */
const SWEEP_MS = 30_000;
/**
 * The entries (logs, block hashes, tx hashes) one filter may gather between two polls. geth holds
 * them all, however long a client waits; 10,000 is far more than a client polling every few seconds
 * sees. With MAX_FILTERS, all filters hold at most 10 million entries: pointers (80 MB) to logs and
 * hashes made once per block, whichever filters share them.
 */
const MAX_PENDING = 10_000;
/** Filters installed at once (geth has no cap); past it the least recently polled is uninstalled. */
const MAX_FILTERS = 1_000;
const MAX_TOPICS = 4;
/** geth's maxAddresses in a filter's criteria. */
const MAX_ADDRESSES = 1000;

export const filterErrors = {
  notFound: () => new RpcError('filter not found'),
  invalidRange: () => new RpcError('invalid block range params'),
  /** SubscribeAcceptedLogs' refusal of a range a filter or subscription cannot follow. */
  invalidCombination: () => new RpcError('invalid from and to block combination: from > to'),
  tooManyTopics: () => new RpcError('exceed max topics'),
  unknownBlock: () => new RpcError('unknown block'),
};

interface Criteria extends LogFilter {
  blockHash?: Uint8Array;
  from?: BlockTag;
  to?: BlockTag;
}

/** FilterCriteria's decodeAddress / decodeTopic: hexutil.Decode, then the length. */
function decodeSized(text: string, length: number, what: string): Uint8Array {
  const b = decodeHex(text);
  if (b.length !== length) throw new ParamsError(`hex has invalid length ${b.length} after decoding; expected ${length} for ${what}`);
  return b;
}

function decodeAddresses(addr: JsonValue | undefined): Uint8Array[] {
  if (addr === undefined || addr === null) return [];
  if (typeof addr === 'string') {
    try {
      return [decodeSized(addr, 20, 'address')];
    } catch (err) {
      throw new ParamsError(`invalid address: ${(err as Error).message}`);
    }
  }
  if (!Array.isArray(addr)) throw new ParamsError('invalid addresses in query');
  if (addr.length > MAX_ADDRESSES) throw new ParamsError('exceed max addresses');
  return addr.map((a, i) => {
    if (typeof a !== 'string') throw new ParamsError(`non-string address at index ${i}`);
    try {
      return decodeSized(a, 20, 'address');
    } catch (err) {
      throw new ParamsError(`invalid address at index ${i}: ${(err as Error).message}`);
    }
  });
}

/** One position of the topics: any (null), one topic, or one of several (a null among them: any). */
function decodeTopic(t: JsonValue): Uint8Array[] | undefined {
  if (t === null) return undefined;
  if (typeof t === 'string') return [decodeSized(t, 32, 'topic')];
  if (!Array.isArray(t)) throw new ParamsError('invalid topic(s)');
  const out: Uint8Array[] = [];
  for (const x of t) {
    if (x === null) return undefined;
    if (typeof x !== 'string') throw new ParamsError('invalid topic(s)');
    out.push(decodeSized(x, 32, 'topic'));
  }
  return out;
}

/**
 * FilterCriteria.UnmarshalJSON: the fields into an `input` struct first (a block number's own errors
 * bare, a hash's as type errors of that struct), then the addresses and topics with its own texts.
 * The topics' count is eth_getLogs' check, not the decoder's.
 */
function decodeCriteria(v: JsonValue | undefined): Criteria {
  if (v === undefined || v === null) return { addresses: [], topics: [] };
  if (!isJsonObject(v)) throw new ParamsError(`json: cannot unmarshal ${goKind(v)} into Go value of type filters.input`);
  const o = v;
  const field = (name: string) => {
    const value = goKey(o, name);
    return value === null ? undefined : value;
  };
  const blockHash = field('blockHash');
  const fromBlock = field('fromBlock');
  const toBlock = field('toBlock');
  const topics = field('topics');
  if (topics !== undefined && !Array.isArray(topics))
    throw new ParamsError(`json: cannot unmarshal ${goKind(topics)} into Go struct field input.topics of type []interface {}`);
  const c: Criteria = { addresses: [], topics: [] };
  const hashOf = blockHash === undefined ? undefined : decodeIn('input', 'blockHash', hash, blockHash);
  const from = fromBlock === undefined ? undefined : blockNumber.decode(fromBlock);
  const to = toBlock === undefined ? undefined : blockNumber.decode(toBlock);
  if (hashOf) {
    if (from !== undefined || to !== undefined) throw new ParamsError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
    c.blockHash = hashOf;
  } else {
    c.from = from;
    c.to = to;
  }
  c.addresses = decodeAddresses(goKey(o, 'address'));
  c.topics = (topics as JsonValue[] | undefined)?.map(decodeTopic) ?? [];
  return c;
}

const criteria = { decode: (v: JsonValue) => decodeCriteria(v), zero: () => decodeCriteria(undefined) };

/** coreth's rpc.BlockNumber values: numbers, and its tags below zero (latest is -2, pending -1). */
const LATEST = -2n;
const PENDING = -1n;
const rpcNumber = (t: BlockTag | undefined): bigint => {
  switch (t) {
    case undefined:
    case 'latest':
      return LATEST;
    case 'pending':
      return PENDING;
    case 'finalized':
      return -3n;
    case 'safe':
      return -4n;
    case 'earliest':
      return 0n;
    default:
      return t;
  }
};

/**
 * filterLogs' range: a block numbered below a numeric fromBlock or above a numeric toBlock gives a
 * filter or subscription none of its logs (the tags, below zero, bound nothing).
 */
function inRange(c: Criteria, n: bigint): boolean {
  const from = rpcNumber(c.from);
  const to = rpcNumber(c.to);
  return !(from >= 0n && from > n) && !(to >= 0n && to < n);
}

/** SubscribeAcceptedLogs: the ranges a log filter or subscription can follow as blocks are accepted. */
function checkFollowable(c: Criteria): Criteria {
  const from = rpcNumber(c.from);
  const to = rpcNumber(c.to);
  const ok =
    (from === PENDING && to === PENDING) ||
    (from === LATEST && to === LATEST) ||
    (from >= 0n && to >= 0n && to >= from) ||
    (from >= LATEST && to === PENDING) ||
    (from >= 0n && to === LATEST);
  if (!ok) throw filterErrors.invalidCombination();
  return c;
}

type FilterKind = { kind: 'logs'; criteria: Criteria } | { kind: 'blocks' } | { kind: 'pending' };
/** A polled filter: what it gathered since the last poll, and when that was (the clock's ms). */
type Filter = FilterKind & { items: unknown[]; seen: number };

/**
 * An accepted block as the filters and subscriptions take it: a log's JSON is written once, when
 * the first of them wants it, and every filter holding it holds that one string.
 */
class BlockEvent {
  private hashText?: string;
  private all?: { logs: EvmLog[]; txOf: number[] };
  private texts: Array<string | undefined> = [];
  private headText?: string;
  private txHashTexts?: string[];
  private txTexts?: string[];

  constructor(private readonly accepted: AcceptedEvmBlock) {}

  get hash(): string {
    this.hashText ??= toHex0x(this.accepted.block.hash);
    return this.hashText;
  }

  /** The block's logs in order, with the index of the tx of each. */
  private get logs(): { logs: EvmLog[]; txOf: number[] } {
    if (!this.all) {
      const logs: EvmLog[] = [];
      const txOf: number[] = [];
      this.accepted.records.forEach((r, tx) => {
        for (const log of r.logs) {
          logs.push(log);
          txOf.push(tx);
        }
      });
      this.all = { logs, txOf };
      this.texts = new Array(logs.length);
    }
    return this.all;
  }

  /** The indexes of the block's logs that a filter or subscription with criteria `c` takes. */
  matching(c: Criteria): number[] {
    const out: number[] = [];
    if (!inRange(c, this.accepted.block.header.number)) return out;
    this.logs.logs.forEach((log, i) => {
      if (matches(log, c)) out.push(i);
    });
    return out;
  }

  /** Log `i`'s JSON, as eth_getFilterChanges answers it and a notification carries it. */
  logJson(i: number): string {
    if (this.texts[i] === undefined) {
      const { logs, txOf } = this.logs;
      const { block, records } = this.accepted;
      const txIndex = txOf[i]!;
      this.texts[i] = logText(logs[i]!, { number: block.header.number, blockHash: block.hash, txHash: records[txIndex]!.hash, txIndex, logIndex: i });
    }
    return this.texts[i];
  }

  /** The header as newHeads pushes it (types.Header's JSON: its struct's order, no totalDifficulty or size). */
  get headJson(): string {
    this.headText ??= goMarshal(marshalHeader(this.accepted.block));
    return this.headText;
  }

  /** The block's txs as newAcceptedTransactions pushes them: hashes, or (`full`) NewRPCTransaction's JSON. */
  txJsons(full: boolean): string[] {
    const { txs, records } = this.accepted;
    if (!full) {
      this.txHashTexts ??= records.map((r) => `"${toHex0x(r.hash)}"`);
      return this.txHashTexts;
    }
    this.txTexts ??= txs.map((tx, i) => goMarshal(formatTx(tx, records[i]!.from, undefined)));
    return this.txTexts;
  }
}

/** A tx admitted to the pool, as the pending filters and subscriptions take it. */
class PendingEvent {
  private hashText?: string;
  private fullText?: string;

  constructor(
    private readonly chain: EvmChain,
    private readonly txHash: Uint8Array,
  ) {}

  get hash(): string {
    this.hashText ??= toHex0x(this.txHash);
    return this.hashText;
  }

  get hashJson(): string {
    return `"${this.hash}"`;
  }

  /** The tx as newPendingTransactions with `true` pushes it; its hash once it has left the pool. */
  get fullJson(): string {
    if (this.fullText === undefined) {
      const p = this.chain.pool.get(this.hash);
      this.fullText = p ? goMarshal(formatTx(p.tx, p.from, undefined)) : this.hashJson;
    }
    return this.fullText;
  }
}

/** A websocket subscription's side of the filter system. */
interface Subscriber {
  block?(e: BlockEvent): void;
  pending?(e: PendingEvent): void;
}

export class FilterSystem {
  /** In order of the last poll (or install): the first is the one a full table gives up. */
  private readonly filters = new Map<string, Filter>();
  private readonly subscribers = new Set<Subscriber>();
  private listening = false;
  private readonly sweep: NodeJS.Timeout;
  private readonly onBlock = (b: AcceptedEvmBlock) => this.block(new BlockEvent(b));
  private readonly onPending = (h: Uint8Array) => this.pending(new PendingEvent(this.chain, h));

  /** `now`: the wall clock in ms, for the filters' deadline (geth's is wall time, not the chain's). */
  constructor(
    private readonly chain: EvmChain,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.sweep = setInterval(() => this.expire(), SWEEP_MS);
    this.sweep.unref();
  }

  close(): void {
    clearInterval(this.sweep);
    this.filters.clear();
    this.subscribers.clear();
    this.listen();
  }

  /**
   * The chain's events are listened to while a filter or a subscription wants them, so that the
   * listeners' count shows what connections and filters left behind.
   */
  private listen(): void {
    const wanted = this.filters.size > 0 || this.subscribers.size > 0;
    if (wanted === this.listening) return;
    this.listening = wanted;
    if (wanted) {
      this.chain.on('block', this.onBlock);
      this.chain.on('pendingTx', this.onPending);
    } else {
      this.chain.off('block', this.onBlock);
      this.chain.off('pendingTx', this.onPending);
    }
  }

  add(kind: FilterKind): string {
    for (const oldest of this.filters.keys()) {
      if (this.filters.size < MAX_FILTERS) break;
      this.filters.delete(oldest);
    }
    const id = newID();
    this.filters.set(id, { ...kind, items: [], seen: this.now() });
    this.listen();
    return id;
  }

  private drop(id: string): void {
    this.filters.delete(id);
    this.listen();
  }

  private expired(f: Filter, now: number): boolean {
    return now - f.seen > FILTER_TIMEOUT_MS;
  }

  private expire(): void {
    const now = this.now();
    for (const [id, f] of this.filters) if (this.expired(f, now)) this.drop(id);
  }

  /** An installed filter that has not expired (an expired one found here is uninstalled). */
  private live(id: string): Filter | undefined {
    const f = this.filters.get(id);
    if (f && this.expired(f, this.now())) {
      this.drop(id);
      return undefined;
    }
    return f;
  }

  /** eth_getFilterChanges: what the filter gathered since the last poll; the poll keeps it alive. */
  poll(id: string): unknown[] | JsonBytes | undefined {
    const f = this.live(id);
    if (!f) return undefined;
    f.seen = this.now();
    this.filters.delete(id);
    this.filters.set(id, f);
    const items = f.items;
    f.items = [];
    // A log filter gathers its logs' JSON text.
    return f.kind === 'logs' ? JsonBytes.array(items as string[]) : items;
  }

  /** The criteria of a log filter (eth_getFilterLogs, which does not count as a poll, as in geth). */
  criteriaOf(id: string): Criteria | undefined {
    const f = this.live(id);
    return f?.kind === 'logs' ? f.criteria : undefined;
  }

  remove(id: string): boolean {
    if (!this.live(id)) return false;
    this.drop(id);
    return true;
  }

  /**
   * Adds to a filter's pending entries. A filter that overflows is uninstalled rather than trimmed:
   * its client's next poll gets geth's `filter not found`, as after the deadline, and viem and ethers
   * answer that by installing a new filter; a trimmed filter would answer with logs missing and
   * nothing to tell the client so.
   */
  private gather(id: string, f: Filter, item: unknown): boolean {
    if (f.items.length >= MAX_PENDING) {
      this.drop(id);
      return false;
    }
    f.items.push(item);
    return true;
  }

  private block(e: BlockEvent): void {
    const now = this.now();
    for (const [id, f] of this.filters) {
      if (this.expired(f, now)) this.drop(id);
      else if (f.kind === 'blocks') this.gather(id, f, e.hash);
      else if (f.kind === 'logs') {
        for (const i of e.matching(f.criteria)) if (!this.gather(id, f, e.logJson(i))) break;
      }
    }
    for (const s of this.subscribers) s.block?.(e);
  }

  private pending(e: PendingEvent): void {
    const now = this.now();
    for (const [id, f] of this.filters) {
      if (this.expired(f, now)) this.drop(id);
      else if (f.kind === 'pending') this.gather(id, f, e.hash);
    }
    for (const s of this.subscribers) s.pending?.(e);
  }

  /** Starts a subscription's deliveries; the returned function ends them. */
  subscribe(s: Subscriber): () => void {
    this.subscribers.add(s);
    this.listen();
    return () => {
      this.subscribers.delete(s);
      this.listen();
    };
  }

  /** eth_getLogs and eth_getFilterLogs: the range filter's Logs, with unfinalized queries off. */
  async logs(c: Criteria): Promise<JsonBytes> {
    const chain = this.chain;
    if (c.blockHash) {
      const block = await chain.store.block(c.blockHash);
      if (!block) throw filterErrors.unknownBlock();
      return blockLogs(chain, block, c);
    }
    const begin = rpcNumber(c.from);
    const end = rpcNumber(c.to);
    if (begin > 0n && end > 0n && begin > end) throw filterErrors.invalidRange();
    const head = chain.head.header.number;
    if (begin >= 0n && begin > head) throw new RpcError(`requested from block ${begin} after last accepted block ${head}`);
    if (end >= 0n && end > head) throw new RpcError(`requested to block ${end} after last accepted block ${head}`);
    if (begin === PENDING) {
      if (end !== PENDING) throw filterErrors.invalidRange();
      return JsonBytes.array([]);
    }
    // Every accepted block is final: latest, pending, finalized and safe are the head.
    const from = begin < 0n ? head : begin;
    const to = end < 0n ? head : end;
    if (end >= 0n && to < from) throw new RpcError(`begin block ${from} is greater than end block ${to}`);
    return rangeLogs(chain, c, from, to);
  }
}

/** A `*bool` argument (fullTx): null leaves it nil. */
const fullTx = (v: JsonValue): boolean => (v === null ? false : (boolean.decode(v) as boolean));

/**
 * What a subscription named `name` pushes through `send` (each result's JSON, already encoded):
 * coreth's FilterAPI subscriptions, their arguments decoded as the rpc package binds them.
 */
function subscriber(name: string, params: JsonValue[], send: (resultJson: string) => void): Subscriber {
  switch (name) {
    case 'newHeads':
      subscriptionArgs(params, []);
      return { block: (e) => send(e.headJson) };
    case 'logs': {
      const [c] = subscriptionArgs(params, [decodeCriteria], 1) as [Criteria];
      checkFollowable(c);
      return {
        block: (e) => {
          for (const i of e.matching(c)) send(e.logJson(i));
        },
      };
    }
    case 'newPendingTransactions': {
      const [full] = subscriptionArgs(params, [fullTx]);
      return { pending: (e) => send(full ? e.fullJson : e.hashJson) };
    }
    case 'newAcceptedTransactions': {
      const [full] = subscriptionArgs(params, [fullTx]);
      return {
        block: (e) => {
          for (const json of e.txJsons(full === true)) send(json);
        },
      };
    }
    default:
      throw subscriptionErrors.unknown('eth', name);
  }
}

/** The eth_ filter and subscription methods; they reach the chain through `filters` (`_chain` is the factory's). */
export function filterService(filters: FilterSystem): ServiceDef {
  return {
    name: 'eth',
    methods: {
      // GetLogs counts the topics (GetFilterLogs and NewFilter do not).
      getLogs: method(positional([criteria]), async ([c]) => {
        if ((c as Criteria).topics.length > MAX_TOPICS) throw filterErrors.tooManyTopics();
        return filters.logs(c as Criteria);
      }),
      newFilter: method(positional([criteria]), ([c]) => filters.add({ kind: 'logs', criteria: checkFollowable(c as Criteria) })),
      newBlockFilter: method(positional([]), () => filters.add({ kind: 'blocks' })),
      newPendingTransactionFilter: method(positional([boolean], 0), () => filters.add({ kind: 'pending' })),
      getFilterChanges: method(positional([rpcId]), ([id]) => {
        const changes = filters.poll(id as string);
        if (!changes) throw filterErrors.notFound();
        return changes;
      }),
      getFilterLogs: method(positional([rpcId]), async ([id]) => {
        const c = filters.criteriaOf(id as string);
        if (!c) throw filterErrors.notFound();
        return filters.logs(c);
      }),
      uninstallFilter: method(positional([rpcId]), ([id]) => filters.remove(id as string)),
      // The params as sent (absent: undefined), bound in the method itself in handleSubscribe's order.
      subscribe: method(raw, (params, ctx) => subscribe(ctx, 'eth', params, (name, args, send) => filters.subscribe(subscriber(name, args, send)))),
      // Ends any of the connection's subscriptions, as every *_unsubscribe does (rpc/geth.ts).
      unsubscribe: unsubscribeMethod,
    },
  };
}

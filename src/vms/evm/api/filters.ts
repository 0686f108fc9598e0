// Log queries, polled filters and websocket subscriptions (geth's eth/filters): eth_getLogs over the
// log indexes, eth_newFilter / eth_newBlockFilter / eth_newPendingTransactionFilter polled with
// eth_getFilterChanges (dropped after 5 minutes unpolled), and eth_subscribe newHeads, logs and
// newPendingTransactions pushed to the caller's websocket.
import { randomBytes } from 'node:crypto';
import type { JsonObject, JsonValue } from '../../../encoding/gojson.js';
import { type CallContext, method, RpcError, type ServiceDef } from '../../../rpc/method.js';
import { positional } from '../../../rpc/geth.js';
import { ParamsError } from '../../../rpc/schema.js';
import type { AcceptedEvmBlock, EvmChain } from '../chain.js';
import { formatHeader, formatTx, hex } from './format.js';
import { address, blockNumber, type BlockTag, boolean, hash, raw, text } from './fields.js';
import { blockLogs, type LogFilter, rangeLogs, recordLogs } from './reads.js';

/** geth's filter deadline. */
const FILTER_TIMEOUT_MS = 5 * 60_000;
const MAX_TOPICS = 4;

export const filterErrors = {
  notFound: () => new RpcError('filter not found'),
  invalidRange: () => new RpcError('invalid block range'),
  unknownBlock: () => new RpcError('unknown block'),
  notifications: () => new RpcError('notifications not supported', -32601),
};

interface Criteria extends LogFilter {
  blockHash?: Uint8Array;
  from?: BlockTag;
  to?: BlockTag;
}

function decodeCriteria(v: JsonValue | undefined): Criteria {
  if (v === undefined) return { addresses: [], topics: [] };
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new ParamsError('json: cannot unmarshal non-object into Go value of type filters.FilterCriteria');
  const o = v as JsonObject;
  const c: Criteria = { addresses: [], topics: [] };
  if (o.blockHash !== undefined && o.blockHash !== null) {
    if ((o.fromBlock ?? null) !== null || (o.toBlock ?? null) !== null)
      throw new ParamsError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
    c.blockHash = hash.decode(o.blockHash);
  }
  if (o.fromBlock !== undefined && o.fromBlock !== null) c.from = blockNumber.decode(o.fromBlock);
  if (o.toBlock !== undefined && o.toBlock !== null) c.to = blockNumber.decode(o.toBlock);
  const addr = o.address;
  if (typeof addr === 'string') c.addresses = [address.decode(addr)];
  else if (Array.isArray(addr)) c.addresses = addr.map((a) => address.decode(a));
  else if (addr !== undefined && addr !== null) throw new ParamsError('invalid addresses in query');
  if (Array.isArray(o.topics)) {
    if (o.topics.length > MAX_TOPICS) throw new ParamsError('exceed max topics');
    c.topics = o.topics.map((t) => (t === null ? undefined : Array.isArray(t) ? t.filter((x) => x !== null).map((x) => hash.decode(x)) : [hash.decode(t)]));
  } else if (o.topics !== undefined && o.topics !== null) throw new ParamsError('invalid topic(s)');
  return c;
}

const criteria = { decode: (v: JsonValue) => decodeCriteria(v), zero: () => decodeCriteria(undefined) };

/** rpc.NewID: 16 random bytes as a quantity (no leading zeros). */
const newID = (): string => `0x${randomBytes(16).toString('hex').replace(/^0+/, '') || '0'}`;

type Filter =
  | { kind: 'logs'; criteria: Criteria; logs: unknown[]; seen: number }
  | { kind: 'blocks'; hashes: string[]; seen: number }
  | { kind: 'pending'; hashes: string[]; seen: number };

export class FilterSystem {
  private readonly filters = new Map<string, Filter>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly chain: EvmChain) {
    chain.on('block', (b) => this.onBlock(b));
    chain.on('pendingTx', (h) => {
      for (const f of this.filters.values()) if (f.kind === 'pending') f.hashes.push(hex(h));
    });
    this.sweep = setInterval(() => {
      const now = Date.now();
      for (const [id, f] of this.filters) if (now - f.seen > FILTER_TIMEOUT_MS) this.filters.delete(id);
    }, 30_000);
    this.sweep.unref();
  }

  close(): void {
    clearInterval(this.sweep);
  }

  private onBlock({ block, txs, records }: AcceptedEvmBlock): void {
    for (const f of this.filters.values()) {
      if (f.kind === 'blocks') f.hashes.push(hex(block.hash));
      else if (f.kind === 'logs') f.logs.push(...logsOf({ block, txs, records }, f.criteria));
    }
  }

  add(f: Filter): string {
    const id = newID();
    this.filters.set(id, f);
    return id;
  }

  get(id: string): Filter | undefined {
    return this.filters.get(id);
  }

  remove(id: string): boolean {
    return this.filters.delete(id);
  }

  /** eth_getLogs */
  async logs(c: Criteria): Promise<unknown[]> {
    const chain = this.chain;
    if (c.blockHash) {
      const block = await chain.store.block(c.blockHash);
      if (!block) throw filterErrors.unknownBlock();
      return blockLogs(chain, block, c);
    }
    const head = chain.head.header.number;
    const resolve = (t: BlockTag | undefined): bigint => (t === undefined ? head : typeof t === 'bigint' ? t : t === 'earliest' ? 0n : head);
    const from = resolve(c.from);
    let to = resolve(c.to);
    if (from > to) throw filterErrors.invalidRange();
    if (to > head) to = head;
    if (from > head) return [];
    return rangeLogs(chain, c, from, to);
  }
}

/** The matching logs of a newly accepted block, formatted. */
function logsOf({ block, records }: AcceptedEvmBlock, f: LogFilter): unknown[] {
  const out: Record<string, unknown>[] = [];
  recordLogs(block.header.number, block.hash, records, f, out);
  return out;
}

/** The header as newHeads pushes it (types.Header's JSON, which has no totalDifficulty or size). */
const headJson = (b: AcceptedEvmBlock) => formatHeader(b.block);

export function filterService(chain: EvmChain, filters: FilterSystem): ServiceDef {
  const subscribe = (ctx: CallContext, kind: string, arg: JsonValue | undefined): string => {
    if (!ctx.notify || !ctx.onClose) throw filterErrors.notifications();
    const notify = ctx.notify;
    const id = newID();
    const send = (result: unknown) => notify('eth_subscription', { subscription: id, result });
    let listener: ((b: AcceptedEvmBlock) => void) | undefined;
    let pending: ((h: Uint8Array) => void) | undefined;
    switch (kind) {
      case 'newHeads':
        listener = (b) => send(headJson(b));
        break;
      case 'logs': {
        const c = decodeCriteria(arg);
        listener = (b) => {
          for (const log of logsOf(b, c)) send(log);
        };
        break;
      }
      case 'newPendingTransactions': {
        const full = arg === true;
        pending = (h) => {
          const p = chain.pool.get(hex(h));
          send(full && p ? formatTx(p.tx, p.from, undefined) : hex(h));
        };
        break;
      }
      case 'syncing':
        queueMicrotask(() => send(false));
        break;
      default:
        throw new RpcError(`no "${kind}" subscription in eth namespace`, -32601);
    }
    if (listener) chain.on('block', listener);
    if (pending) chain.on('pendingTx', pending);
    const stop = () => {
      if (listener) chain.off('block', listener);
      if (pending) chain.off('pendingTx', pending);
    };
    subscriptions.set(id, stop);
    ctx.onClose(() => {
      stop();
      subscriptions.delete(id);
    });
    return id;
  };
  const subscriptions = new Map<string, () => void>();
  return {
    name: 'eth',
    methods: {
      getLogs: method(positional([criteria]), async ([c]) => filters.logs(c as Criteria)),
      newFilter: method(positional([criteria]), ([c]) => filters.add({ kind: 'logs', criteria: c as Criteria, logs: [], seen: Date.now() })),
      newBlockFilter: method(positional([]), () => filters.add({ kind: 'blocks', hashes: [], seen: Date.now() })),
      newPendingTransactionFilter: method(positional([boolean], 0), () => filters.add({ kind: 'pending', hashes: [], seen: Date.now() })),
      getFilterChanges: method(positional([text]), ([id]) => {
        const f = filters.get(id as string);
        if (!f) throw filterErrors.notFound();
        f.seen = Date.now();
        if (f.kind === 'logs') return f.logs.splice(0);
        return f.hashes.splice(0);
      }),
      getFilterLogs: method(positional([text]), async ([id]) => {
        const f = filters.get(id as string);
        if (f?.kind !== 'logs') throw filterErrors.notFound();
        return filters.logs(f.criteria);
      }),
      uninstallFilter: method(positional([text]), ([id]) => filters.remove(id as string)),
      subscribe: method(positional([text, raw], 1), ([kind, arg], ctx) => subscribe(ctx, kind as string, arg as JsonValue | undefined)),
      unsubscribe: method(positional([text]), ([id]) => {
        const stop = subscriptions.get(id as string);
        if (!stop) return false;
        stop();
        subscriptions.delete(id as string);
        return true;
      }),
    },
  };
}

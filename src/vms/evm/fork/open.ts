// Opening a forked chain: which upstream, which block, checked once at start. The chain's database
// keeps a record of what it forked (the upstream's URL, chain ID, block and hash), so a restart on the
// same data dir forks the same block, with or without the upstream: what was fetched is in the fork
// cache, a separate store that reverts and loads of the node's state leave alone.
import type { Common } from '@ethereumjs/common';
import { toHex0x } from '../../../encoding/bytes.js';
import type { Database } from '../../../storage/db.js';
import type { ChainFork } from '../chaintypes.js';
import type { HeaderLayout } from '../header.js';
import { ForkHistory } from './history.js';
import { ForkFailure, ForkState, guarded, type UpstreamCaller } from './state.js';
import { Upstream, type UpstreamOptions } from './upstream.js';

/** The fork flags (Anvil's names): where from, which block, how courteous to be. */
export interface ForkSettings extends Omit<UpstreamOptions, 'url'> {
  url?: string;
  blockNumber?: bigint;
  /** --offline: never call the upstream; only what the fork cache holds is read. */
  offline: boolean;
}

/** A fork that cannot start: one line, said at start (the node exits) or by anvil_reset. */
export class ForkError extends ForkFailure {}

interface ForkRecord {
  url: string;
  chainId: string;
  number: string;
  hash: string;
}

const RECORD = new TextEncoder().encode('record');
/** How long a restart waits for the upstream to say its chain ID. */
const CHECK_TIMEOUT_MS = 5_000;

/** What the fork reads through when --offline: nothing. */
const offline: UpstreamCaller = {
  call(method: string): Promise<never> {
    return Promise.reject(new ForkError(`--offline: ${method} is not in the fork cache`));
  },
};

export interface OpenedFork extends ChainFork {
  close(): void;
}

/**
 * The fork a chain runs on, or undefined when it is no fork (no --fork-url and no record). `db` is the
 * chain's database (its record), `cache` opens the fork cache's store.
 */
export async function openFork(
  settings: ForkSettings,
  db: Database,
  cache: () => Promise<Database>,
  layout: HeaderLayout,
  commonOf: (chainId: bigint) => Common,
): Promise<OpenedFork | undefined> {
  const meta = db.prefix('fork');
  const stored = await meta.get(RECORD);
  const record = stored ? (JSON.parse(Buffer.from(stored).toString('utf8')) as ForkRecord) : undefined;
  const url = settings.url ?? record?.url;
  if (url === undefined) return undefined;
  if (record && settings.blockNumber !== undefined && BigInt(record.number) !== settings.blockNumber)
    throw new ForkError(`this data dir forked block ${BigInt(record.number)}, not --fork-block-number=${settings.blockNumber}: use another data dir`);
  if (!record && settings.offline) throw new ForkError('--offline: this data dir has no fork yet to run offline');
  const upstream = settings.offline ? undefined : new Upstream({ ...settings, url });
  try {
    const caller = upstream ? guarded(upstream) : offline;
    const chainId = record ? await checkChainId(settings, url, BigInt(record.chainId)) : BigInt(await caller.call<string>('eth_chainId', []));
    const number = record ? BigInt(record.number) : await forkBlock(caller, settings.blockNumber);
    const upstreamCache = (await cache()).prefix(`chain-${chainId}`);
    const state = new ForkState(caller, upstreamCache.prefix('nodes'), number);
    const history = new ForkHistory(caller, upstreamCache, number, layout, commonOf(chainId), state);
    const base = await history.at(number);
    if (!base) throw new ForkError(`the fork's upstream has no block ${number}`);
    if (record && toHex0x(base.block.hash) !== record.hash) throw new ForkError(`the upstream's block ${number} is no longer ${record.hash}`);
    if (!record)
      await meta.put(RECORD, new TextEncoder().encode(JSON.stringify({ url, chainId: `${chainId}`, number: `${number}`, hash: toHex0x(base.block.hash) })));
    return { chainId, number, hash: base.block.hash, state, history, close: () => upstream?.close() };
  } catch (err) {
    upstream?.close();
    throw err;
  }
}

/** The fork block: the one asked for, which the upstream must have, or the upstream's head. */
async function forkBlock(upstream: UpstreamCaller, asked: bigint | undefined): Promise<bigint> {
  const head = BigInt(await upstream.call<string>('eth_blockNumber', []));
  if (asked === undefined) return head;
  if (asked > head) throw new ForkError(`--fork-block-number=${asked} is past the upstream's head ${head}`);
  return asked;
}

/**
 * On a restart, the upstream must still be the chain that was forked. An upstream that cannot be
 * reached is no error (what was fetched is cached); one that answers another chain ID is.
 */
async function checkChainId(settings: ForkSettings, url: string, recorded: bigint): Promise<bigint> {
  if (settings.offline) return recorded;
  // Asked once, without retries: an upstream that is down must not hold the start for half a minute.
  const once = new Upstream({ ...settings, url, retries: 0, timeoutMs: Math.min(settings.timeoutMs ?? CHECK_TIMEOUT_MS, CHECK_TIMEOUT_MS) });
  let now: bigint;
  try {
    now = BigInt(await once.call<string>('eth_chainId', []));
  } catch {
    return recorded;
  } finally {
    once.close();
  }
  if (now !== recorded) throw new ForkError(`the fork's upstream now has chain ID ${now}; this data dir forked chain ID ${recorded}`);
  return recorded;
}

/**
 * The forks of a node's chains, each opened once per process: a rebuild of the node's core (a
 * revert, a load) finds its chain's fork as it was, with its upstream and what it fetched.
 */
export class ChainForks {
  private readonly opened = new Map<string, Promise<OpenedFork | undefined>>();
  private cache: Promise<Database> | undefined;

  constructor(
    private readonly settings: ForkSettings,
    /** Opens the fork cache's store (only once a chain is a fork). */
    private readonly openCache: () => Promise<Database>,
  ) {}

  /** The fork chain `id` runs on, if it is one (see openFork). */
  of(id: string, db: Database, layout: HeaderLayout, commonOf: (chainId: bigint) => Common): Promise<OpenedFork | undefined> {
    let fork = this.opened.get(id);
    if (!fork) {
      fork = openFork(this.settings, db, () => (this.cache ??= this.openCache()), layout, commonOf);
      this.opened.set(id, fork);
      fork.catch(() => this.opened.delete(id));
    }
    return fork;
  }

  async close(): Promise<void> {
    for (const fork of this.opened.values()) (await fork.catch(() => undefined))?.close();
    this.opened.clear();
    await (await this.cache?.catch(() => undefined))?.close();
  }
}

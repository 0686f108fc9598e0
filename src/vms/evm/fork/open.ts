// Opening a forked chain: which upstream, which block, checked once at start. The chain's database
// keeps a record of what it forked (the upstream's URL, chain ID, block and hash), so a restart on the
// same data dir forks the same block, with or without the upstream: what was fetched is in the fork
// cache, a separate store that reverts and loads of the node's state leave alone.
import type { Common } from '@ethereumjs/common';
import { equalsBytes, KECCAK256_RLP } from '@ethereumjs/util';
import { fromHex0x, toHex0x } from '../../../encoding/bytes.js';
import { type Database, writtenAt } from '../../../storage/db.js';
import type { Changes } from '../../../storage/undo.js';
import type { ChainFork } from '../chaintypes.js';
import type { CorethHeader, HeaderLayout } from '../header.js';
import { ChainStore } from '../store.js';
import { HeaderJsonError, headerFromJson } from './headerjson.js';
import { ForkHistory } from './history.js';
import { askProbe, ForkFailure, ForkState, guarded, quantity, type UpstreamCaller } from './state.js';
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

/**
 * What a chain's database records of its fork. Not its URL, which may carry an API key and the
 * database goes into dumps (anvil_dumpState): the URL is kept in the fork cache (ChainForks).
 */
export interface ForkRecord {
  chainId: string;
  number: string;
  hash: string;
  /** The state root the upstream proved at the fork block, when it is not the block's own (ChainFork.editedRoot). */
  root?: string;
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
  /** The upstream's URL the fork reads from now. */
  readonly url: string;
  /** anvil_setRpcUrl: reads go to `url` from now on (an upstream of the same chain). */
  setUrl(url: string): Promise<void>;
  close(): void;
}

/** Each chain database's fork record database: asked at every revert, and a prefix costs a hash. */
const recordDatabases = new WeakMap<Database, Database>();

/** The database of a chain's fork record, in the chain's database `db`. */
function recordsOf(db: Database): Database {
  let records = recordDatabases.get(db);
  if (!records) {
    records = db.prefix('fork');
    recordDatabases.set(db, records);
  }
  return records;
}

/** What a chain's database says it forked, if anything. */
export async function readRecord(db: Database): Promise<ForkRecord | undefined> {
  const stored = await recordsOf(db).get(RECORD);
  return stored ? (JSON.parse(Buffer.from(stored).toString('utf8')) as ForkRecord) : undefined;
}

/** Whether a revert's rollback (`changes`) wrote the fork record of the chain whose database is `db`. */
export function recordRewritten(db: Database, changes: Changes): boolean {
  return writtenAt(recordsOf(db), RECORD, changes) !== undefined;
}

/** Whether a chain's database holds blocks of its own (no fork's: it records none). */
export async function hasOwnChain(db: Database, layout: HeaderLayout): Promise<boolean> {
  return (await new ChainStore(db, layout).head()) !== undefined;
}

/** Writes what the chain forked into its database (a reset empties it; a restart reads it). */
export async function writeRecord(db: Database, fork: OpenedFork): Promise<void> {
  const record: ForkRecord = {
    chainId: `${fork.chainId}`,
    number: `${fork.number}`,
    hash: toHex0x(fork.hash),
    ...(fork.editedRoot ? { root: toHex0x(fork.editedRoot) } : {}),
  };
  await recordsOf(db).put(RECORD, new TextEncoder().encode(JSON.stringify(record)));
}

/** An upstream whose URL can change under the fork (anvil_setRpcUrl), its failures ForkFailures. */
class Switchable implements UpstreamCaller {
  private caller: UpstreamCaller;

  constructor(
    private upstream: Upstream | undefined,
    public url: string,
  ) {
    this.caller = upstream ? guarded(upstream) : offline;
  }

  call<T>(method: string, params: unknown[]): Promise<T> {
    return this.caller.call<T>(method, params);
  }

  /** Reads from `upstream` at `url` from now on; the one before is closed. */
  use(upstream: Upstream, url: string): void {
    this.close();
    this.upstream = upstream;
    this.caller = guarded(upstream);
    this.url = url;
  }

  close(): void {
    this.upstream?.close();
  }
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
  /** The URL the fork cache kept for this chain (a restart without --fork-url). */
  keptUrl?: (record: ForkRecord) => Promise<string | undefined>,
): Promise<OpenedFork | undefined> {
  const record = await readRecord(db);
  const url = settings.url ?? (record && (await keptUrl?.(record)));
  if (record && url === undefined) throw new ForkError('this data dir is a fork whose upstream URL is not in its fork cache: start it with --fork-url');
  if (url === undefined) return undefined;
  if (record && settings.blockNumber !== undefined && BigInt(record.number) !== settings.blockNumber)
    throw new ForkError(`this data dir forked block ${BigInt(record.number)}, not --fork-block-number=${settings.blockNumber}: use another data dir`);
  if (!record && settings.offline) throw new ForkError('--offline: this data dir has no fork yet to run offline');
  if (!record && (await hasOwnChain(db, layout))) throw new ForkError('this data dir has a chain of its own, not a fork: fork into a new data dir');
  const upstream = new Switchable(settings.offline ? undefined : new Upstream({ ...settings, url }), url);
  try {
    const { chainId, number, head, baseHash, probe } = record ? await restarted(settings, url, record) : await started(upstream, settings.blockNumber, layout);
    // Opened once the upstream has answered: a fork that cannot start leaves no fork cache behind.
    const upstreamCache = (await cache()).prefix(`chain-${chainId}`);
    // Trie nodes and code are content-addressed: any upstream's serve any fork. Blocks are kept by the
    // fork block's hash: two upstreams with one chain ID (two local networks) differ at one height.
    const state = new ForkState(upstream, upstreamCache.prefix('nodes'), number);
    const history = new ForkHistory(upstream, upstreamCache.prefix(`history-${baseHash}`), number, layout, commonOf(chainId), state);
    const provenRoot = probe && handled(provable(state, number, probe));
    const base = await history.at(number);
    if (!base) throw new ForkError(`the fork's upstream has no block ${number}`);
    // A data dir or dump that forked such a block before it was refused (its header is in the fork cache).
    if (record) refuseBeforeGranite(base.block.header, number);
    if (record && toHex0x(base.block.hash) !== record.hash) throw new ForkError(`the upstream's block ${number} is no longer ${record.hash}`);
    const proven = record ? record.root && fromHex0x(record.root) : await provenRoot;
    const editedRoot = proven && !equalsBytes(proven, base.block.header.stateRoot) ? proven : undefined;
    // An edited head is taken as is; below the head, or proven empty (an upstream that answers an
    // empty proof for a state that has accounts), the upstream's proofs are not of the block.
    if (editedRoot && head !== undefined && (number !== head || equalsBytes(editedRoot, KECCAK256_RLP)))
      throw new ForkError(
        `the fork's upstream proves a state at block ${number} whose root ${toHex0x(editedRoot)} is not the block's state root ${toHex0x(base.block.header.stateRoot)}`,
      );
    state.editedHead = editedRoot !== undefined;
    const fork: OpenedFork = {
      chainId,
      number,
      hash: base.block.hash,
      ...(editedRoot ? { editedRoot } : {}),
      state,
      history,
      get url() {
        return upstream.url;
      },
      async setUrl(next) {
        const theirs = await askOnce(settings, next, 'eth_chainId');
        if (theirs !== chainId) throw new ForkError(`${new URL(next).origin} is chain ${theirs}, not the forked chain ${chainId}`);
        upstream.use(new Upstream({ ...settings, url: next }), next);
      },
      close: () => upstream.close(),
    };
    if (!record) await writeRecord(db, fork);
    return fork;
  } catch (err) {
    upstream.close();
    throw err;
  }
}

/** What a fork starts from: the upstream's chain, its fork block and that block's hash. */
interface ForkStart {
  chainId: bigint;
  number: bigint;
  /** The upstream's head when the fork began (a new fork's). */
  head?: bigint;
  baseHash: string;
  /** A new fork's proof of its fork block's state, asked (ForkState.probe reads it). */
  probe?: Promise<unknown>;
}

/**
 * A promise awaited later, or never when an earlier step fails first: handled meanwhile, so that its
 * own failure is not an unhandled rejection (which ends the process).
 */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/**
 * A new fork's start. The upstream's calls made in one turn go out as one JSON-RPC batch (Upstream):
 * its chain ID, its head, the fork block's header and the fork block's state proof are one round trip
 * when the block is given (two when the head is the fork block), not four, to an upstream that may be
 * a public endpoint 100 ms away. Their failures are said in that order all the same.
 */
async function started(upstream: UpstreamCaller, asked: bigint | undefined, layout: HeaderLayout): Promise<ForkStart> {
  const atBlock = (n: bigint) => ({ hash: handled(blockHash(upstream, n, layout)), probe: handled(askProbe(upstream, n)) });
  const chainIdReply = handled(upstream.call('eth_chainId', []));
  const headReply = handled(forkBlock(upstream, asked));
  const early = asked === undefined ? undefined : atBlock(asked);
  const chainId = quantity(await chainIdReply, 'eth_chainId');
  const { number, head } = await headReply;
  const { hash, probe } = early ?? atBlock(number);
  return { chainId, number, head, baseHash: await hash, probe };
}

/** A restart's fork: the recorded one, its upstream still the chain it was (when it answers). */
async function restarted(settings: ForkSettings, url: string, record: ForkRecord): Promise<ForkStart> {
  const chainId = await checkChainId(settings, url, BigInt(record.chainId));
  return { chainId, number: BigInt(record.number), baseHash: record.hash };
}

/**
 * A new fork's upstream proves the fork block's state (eth_getProof: `asked`), or the fork does not
 * start: the root its proof starts from.
 */
async function provable(state: ForkState, number: bigint, asked: Promise<unknown>): Promise<Uint8Array> {
  try {
    return await state.probe(asked);
  } catch (err) {
    const why = (err as Error).message;
    throw new ForkError(
      `the fork's upstream cannot prove its state at block ${number} with eth_getProof, which a fork reads its state by (an old block needs an archive node): ${why}`,
    );
  }
}

/** The hash of the upstream's block `number`, its header checked (the cache of a fresh fork is keyed by it). */
async function blockHash(upstream: UpstreamCaller, number: bigint, layout: HeaderLayout): Promise<string> {
  const json = await upstream.call('eth_getBlockByNumber', [`0x${number.toString(16)}`, false]);
  if (!json) throw new ForkError(`the fork's upstream has no block ${number}`);
  let header: ReturnType<typeof headerFromJson>;
  try {
    header = headerFromJson(json, layout);
  } catch (err) {
    throw err instanceof HeaderJsonError ? new ForkError(err.message) : err;
  }
  refuseBeforeGranite(header.header, number);
  return toHex0x(header.hash);
}

/**
 * A fork's clock goes on from its fork block's time, so the blocks it builds on a block from before
 * Granite would be pre-Granite blocks too: headers in seconds without Granite's fields, and the
 * block gas cost that coreth and Subnet-EVM charge until Granite (customheader.BlockGasCost), which
 * this node does not build. Such a block is refused rather than built on with Granite's rules. A
 * Granite header always has its time in milliseconds (miner/worker.go sets it exactly when
 * IsGranite, customheader/time.go checks both ways), an earlier one never.
 */
function refuseBeforeGranite(header: CorethHeader, number: bigint): void {
  if (header.timeMilliseconds !== undefined) return;
  const date = new Date(Number(header.time) * 1000);
  const when = Number.isNaN(date.getTime()) ? `time ${header.time}` : date.toISOString().replace('.000Z', 'Z');
  throw new ForkError(
    `the fork block ${number} (${when}) is from before the upstream's Granite upgrade (its header has no timestampMilliseconds): this node builds blocks under Granite's rules only, so fork a block from Granite on`,
  );
}

/** The fork block (the one asked for, which the upstream must have, or the upstream's head) and the upstream's head. */
async function forkBlock(upstream: UpstreamCaller, asked: bigint | undefined): Promise<{ number: bigint; head: bigint }> {
  const head = quantity(await upstream.call('eth_blockNumber', []), 'eth_blockNumber');
  if (asked !== undefined && asked > head) throw new ForkError(`--fork-block-number=${asked} is past the upstream's head ${head}`);
  return { number: asked ?? head, head };
}

/**
 * On a restart, the upstream must still be the chain that was forked. An upstream that cannot be
 * reached is no error (what was fetched is cached); one that answers another chain ID is.
 */
async function checkChainId(settings: ForkSettings, url: string, recorded: bigint): Promise<bigint> {
  if (settings.offline) return recorded;
  let now: bigint;
  try {
    now = await askOnce(settings, url, 'eth_chainId');
  } catch {
    return recorded;
  }
  if (now !== recorded) throw new ForkError(`the fork's upstream now has chain ID ${now}; this data dir forked chain ID ${recorded}`);
  return recorded;
}

/** Settings for one try within a few seconds (askOnce's): for what a caller waits on. */
export function onceSettings<T extends Omit<ForkSettings, 'url'>>(settings: T): T {
  return { ...settings, retries: 0, timeoutMs: Math.min(settings.timeoutMs ?? CHECK_TIMEOUT_MS, CHECK_TIMEOUT_MS) };
}

/**
 * One call, without retries and within a few seconds, for the checks a caller waits on (a restart,
 * anvil_setRpcUrl, anvil_reset): an upstream that is down must not hold them for half a minute.
 */
export async function askOnce(settings: Omit<ForkSettings, 'url'>, url: string, method: string): Promise<bigint> {
  let once: Upstream;
  try {
    once = new Upstream({ ...onceSettings(settings), url });
  } catch (err) {
    throw new ForkError(`not a fork upstream: ${(err as Error).message}`);
  }
  try {
    return quantity(await guarded(once).call(method, []), method);
  } finally {
    once.close();
  }
}

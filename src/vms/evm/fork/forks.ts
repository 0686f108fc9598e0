// The forks of a node's chains, each opened once per process: a rebuild of the node's core (a revert,
// a load, a reset) finds its chain's fork as it was, with its upstream and what it fetched. Anvil's
// controls change a chain's fork: anvil_reset({forking}) forks another block (or upstream) at the
// reset, anvil_setRpcUrl reads the same chain from another endpoint.
import type { Common } from '@ethereumjs/common';
import { type Database, openDatabase } from '../../../storage/db.js';
import type { HeaderLayout } from '../header.js';
import { askOnce, ForkError, type ForkSettings, type OpenedFork, openFork, readRecord, writeRecord } from './open.js';
import { DEFAULT_RETRY_BACKOFF_MS } from './upstream.js';

/** anvil_reset's `forking`: another upstream, another block (none: the upstream's latest). */
export interface ForkTarget {
  url?: string;
  blockNumber?: bigint;
}

/** What a chain's dev API may do to its fork. */
export interface ForkControl {
  /** Whether the chain is a fork now. */
  forked(): Promise<boolean>;
  /** What it forks (anvil_nodeInfo's forkConfig), if it is a fork. */
  describe(): Promise<{ url: string; blockNumber: bigint; retryBackoffMs: number } | undefined>;
  /** Before a reset: the chain forks `target` from then on (no URL: the one it forks now). */
  retarget(target: ForkTarget): Promise<void>;
  /** Before a reset: the chain is no fork from then on (Anvil's anvil_reset without `forking`). */
  unfork(): void;
  /** anvil_setRpcUrl: false when the chain is no fork. */
  setUrl(url: string): Promise<boolean>;
}

export class ChainForks {
  private readonly opened = new Map<string, Promise<OpenedFork | undefined>>();
  /** Settings a control gave a chain, over the flags'. */
  private readonly targets = new Map<string, ForkSettings>();
  /** How each chain's fork was opened: its header layout and Common, to open another before a reset. */
  private readonly kinds = new Map<string, { layout: HeaderLayout; commonOf: (chainId: bigint) => Common }>();
  /** The upstreams' upgrade.json of --fork-l1 chains being created, until kept in the fork cache. */
  private readonly upgrades = new Map<string, Uint8Array>();
  /** Forks a retarget replaced, closed once their chain is rebuilt on the new one. */
  private retired: OpenedFork[] = [];
  private cache: Promise<Database> | undefined;

  constructor(
    /** The flags': what the C-Chain forks. */
    private readonly settings: ForkSettings,
    /** Opens the fork cache's store (only once a chain is a fork). */
    private readonly openCache: () => Promise<Database>,
    /** Whether a fork cache was made by an earlier run (false if none can outlive its run: memdb). */
    private readonly cacheMade: () => boolean = () => false,
  ) {}

  /**
   * The fork chain `id` runs on, if it is one (see openFork). Opened once: a rebuild on a store a
   * reset emptied gets it again, and its record is written back.
   */
  async of(id: string, db: Database, layout: HeaderLayout, commonOf: (chainId: bigint) => Common): Promise<OpenedFork | undefined> {
    let pending = this.opened.get(id);
    if (!pending) {
      // The flags' fork is the C-Chain's; an L1 forks what --fork-l1 or its record says.
      const { url: _, blockNumber: __, ...unset } = this.settings;
      const settings = this.targets.get(id) ?? (layout === 'coreth' ? this.settings : unset);
      pending = openFork(
        settings,
        db,
        () => this.cacheStore(),
        layout,
        commonOf,
        () => this.keptUrl(id),
      );
      this.opened.set(id, pending);
      pending.catch(() => this.opened.delete(id));
    }
    const fork = await pending;
    this.kinds.set(id, { layout, commonOf });
    for (const old of this.retired) old.close();
    this.retired = [];
    if (fork && !(await readRecord(db))) await writeRecord(db, fork);
    if (fork) await this.keepUrl(id, fork.url);
    return fork;
  }

  private cacheStore(): Promise<Database> {
    this.cache ??= this.openCache();
    return this.cache;
  }

  /** The URLs chains fork, by chain: in the fork cache, which no dump or snapshot holds (a URL may carry an API key). */
  private async keptUrl(id: string): Promise<string | undefined> {
    const bytes = await (await this.cacheStore()).prefix('urls').get(new TextEncoder().encode(id));
    return bytes && Buffer.from(bytes).toString('utf8');
  }

  private async keepUrl(id: string, url: string): Promise<void> {
    if ((await this.keptUrl(id)) === url) return;
    await (await this.cacheStore()).prefix('urls').put(new TextEncoder().encode(id), new TextEncoder().encode(url));
  }

  /** Chain `id` (about to be created: an L1 of --fork-l1) forks `target`, with its upstream's upgrade.json if any. */
  target(id: string, target: ForkTarget & { url: string }, upgrade?: Uint8Array): void {
    const { url: _, blockNumber: __, ...rest } = this.settings;
    this.targets.set(id, { ...rest, ...target });
    if (upgrade) this.upgrades.set(id, upgrade);
  }

  /**
   * The upgrade.json a forked L1 took from its upstream when it was created: kept in the fork cache
   * with its URL, so that a restart has the chain's rules without the upstream or the flag. None for
   * a chain that is no fork (and no fork cache is made to say so).
   */
  async upgradeOf(id: string): Promise<Uint8Array | undefined> {
    const key = new TextEncoder().encode(id);
    const given = this.upgrades.get(id);
    if (!given) return this.cache || this.cacheMade() ? (await this.cacheStore()).prefix('upgrades').get(key) : undefined;
    await (await this.cacheStore()).prefix('upgrades').put(key, given);
    this.upgrades.delete(id);
    return given;
  }

  /** What the forks' upstreams are asked with (--fork-retries and the others). */
  get upstreamSettings(): Omit<ForkSettings, 'url' | 'blockNumber'> {
    const { url: _, blockNumber: __, ...rest } = this.settings;
    return rest;
  }

  /** The controls of chain `id`'s dev API; `startable`: whether the chain may become a fork at run time. */
  control(id: string, startable: boolean): ForkControl {
    return {
      forked: async () => (await this.opened.get(id)?.catch(() => undefined)) !== undefined,
      describe: async () => {
        const fork = await this.opened.get(id)?.catch(() => undefined);
        const backoff = (this.targets.get(id) ?? this.settings).retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS;
        return fork && { url: fork.url, blockNumber: fork.number, retryBackoffMs: backoff };
      },
      unfork: () => {
        const { url: _, blockNumber: __, ...rest } = this.settings;
        this.targets.set(id, { ...rest, offline: false });
        void this.opened.get(id)?.then((old) => old && this.retired.push(old));
        this.opened.delete(id);
      },
      retarget: async (target) => {
        const current = await this.opened.get(id)?.catch(() => undefined);
        if (!current && !startable) throw new ForkError('this chain is no fork: an L1 is forked at start, with --fork-l1');
        const url = target.url ?? current?.url ?? this.targets.get(id)?.url ?? this.settings.url;
        // Anvil's words.
        if (url === undefined) throw new ForkError('Forking not enabled and RPC URL not provided to start forking');
        const { blockNumber: _, ...rest } = this.settings;
        const settings = { ...rest, url, offline: false, ...(target.blockNumber === undefined ? {} : { blockNumber: target.blockNumber }) };
        // Opened before the reset (on a scratch record): a fork that cannot open must not leave the
        // node without a chain. The reset's rebuild then finds it opened.
        await checkTarget(settings);
        const kind = this.kinds.get(id);
        if (!kind) throw new ForkError('this chain has not opened yet');
        const scratch = await openDatabase('memdb', '');
        const next = await openFork(settings, scratch, () => this.cacheStore(), kind.layout, kind.commonOf).finally(() => scratch.close());
        this.targets.set(id, settings);
        this.opened.set(id, Promise.resolve(next));
        if (current) this.retired.push(current);
      },
      setUrl: async (url) => {
        const current = await this.opened.get(id)?.catch(() => undefined);
        if (!current) return false;
        await current.setUrl(url);
        await this.keepUrl(id, url);
        return true;
      },
    };
  }

  async close(): Promise<void> {
    for (const fork of this.opened.values()) (await fork.catch(() => undefined))?.close();
    this.opened.clear();
    await (await this.cache?.catch(() => undefined))?.close();
  }
}

/** That a fork target's upstream answers and has the block asked for. */
async function checkTarget(settings: ForkSettings & { url: string }): Promise<void> {
  const head = await askOnce(settings, settings.url, 'eth_blockNumber');
  if (settings.blockNumber !== undefined && settings.blockNumber > head)
    throw new ForkError(`forking block ${settings.blockNumber} is past the upstream's head ${head}`);
}

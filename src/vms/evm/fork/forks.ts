// The forks of a node's chains, each opened once per process: a rebuild of the node's core (a revert,
// a load, a reset) finds its chain's fork as it was, with its upstream and what it fetched. Anvil's
// controls change a chain's fork: anvil_reset({forking}) forks another block (or upstream) at the
// reset, anvil_setRpcUrl reads the same chain from another endpoint.
import type { Common } from '@ethereumjs/common';
import { type Database, openDatabase } from '../../../storage/db.js';
import type { HeaderLayout } from '../header.js';
import { toHex0x } from '../../../encoding/bytes.js';
import { askOnce, ForkError, type ForkSettings, hasOwnChain, type OpenedFork, openFork, readRecord, writeRecord } from './open.js';
import type { ForkedL1Rules } from './l1genesis.js';
import { DEFAULT_RETRY_BACKOFF_MS } from './upstream.js';

/** anvil_reset's `forking`: another upstream, another block (none: the upstream's latest). */
export interface ForkTarget {
  url?: string;
  blockNumber?: bigint;
}

/**
 * How a chain may become a fork at run time (anvil_reset with `forking` on a chain that is none, or
 * forking another upstream). The C-Chain's rules are coreth's whatever it forks; an L1 takes its
 * upstream's (l1genesis.ts), which `rules` fetches and checks as its genesis would be.
 */
export interface ForkStart {
  rules?: (url: string) => Promise<ForkedL1Rules>;
}

/** The fork cache's key for what it keeps of chain `id`'s fork of the block with hash `forkHash` (0x hex): its URL, its rules. */
const forkKey = (id: string, forkHash: string) => new TextEncoder().encode(`${id}/${forkHash}`);
/** The fork cache's key for what it keeps of chain `id` whatever it forks: the latest URL, --fork-l1's upgrade.json. */
const chainKey = (id: string) => new TextEncoder().encode(id);

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
   * reset emptied gets it again, and its record is written back. A store that records another fork
   * than the one opened, or holds a chain of its own (a reset that failed and was rolled back, a
   * state loaded), is what the chain runs on: its record wins, as at a restart.
   */
  async of(id: string, db: Database, layout: HeaderLayout, commonOf: (chainId: bigint) => Common): Promise<OpenedFork | undefined> {
    this.kinds.set(id, { layout, commonOf });
    let pending = this.opened.get(id);
    // The flags' fork is the C-Chain's; an L1 forks what --fork-l1 or its record says.
    if (!pending) pending = this.open(id, db, this.targets.get(id) ?? (layout === 'coreth' ? this.settings : this.unset()));
    let fork = await pending;
    const record = await readRecord(db);
    const stale = fork ? (record ? record.hash !== toHex0x(fork.hash) : await hasOwnChain(db, layout)) : record !== undefined;
    if (stale) {
      if (fork) this.retired.push(fork);
      this.targets.set(id, this.unset());
      fork = await this.open(id, db, this.unset());
    }
    for (const old of this.retired) old.close();
    this.retired = [];
    if (fork && !record) await writeRecord(db, fork);
    if (fork) await this.keepUrl(id, fork);
    return fork;
  }

  /** Opens chain `id`'s fork with `settings` (none for a store that records none and no URL given). */
  private open(id: string, db: Database, settings: ForkSettings): Promise<OpenedFork | undefined> {
    const kind = this.kinds.get(id)!;
    const pending = openFork(
      settings,
      db,
      () => this.cacheStore(),
      kind.layout,
      kind.commonOf,
      (record) => this.keptUrl(id, record),
    );
    this.opened.set(id, pending);
    pending.catch(() => this.opened.delete(id));
    return pending;
  }

  /** The flags' settings without what they fork (an L1's, or a fork read from its record). */
  private unset(): ForkSettings {
    const { url: _, blockNumber: __, ...rest } = this.settings;
    return rest;
  }

  private cacheStore(): Promise<Database> {
    this.cache ??= this.openCache();
    return this.cache;
  }

  /**
   * The URL chain `id` forks the recorded block from: in the fork cache, which no dump or snapshot
   * holds (a URL may carry an API key), by chain and fork block, and by chain alone for the latest
   * (what caches of earlier versions hold).
   */
  private async keptUrl(id: string, record: { hash: string }): Promise<string | undefined> {
    const urls = (await this.cacheStore()).prefix('urls');
    const bytes = (await urls.get(forkKey(id, record.hash))) ?? (await urls.get(chainKey(id)));
    return bytes && Buffer.from(bytes).toString('utf8');
  }

  private async keepUrl(id: string, fork: OpenedFork): Promise<void> {
    const urls = (await this.cacheStore()).prefix('urls');
    const hash = toHex0x(fork.hash);
    const kept = await urls.get(forkKey(id, hash));
    if (kept && Buffer.from(kept).toString('utf8') === fork.url) return;
    const url = new TextEncoder().encode(fork.url);
    await urls.batch([
      { type: 'put', key: forkKey(id, hash), value: url },
      { type: 'put', key: chainKey(id), value: url },
    ]);
  }

  /** Chain `id` (about to be created: an L1 of --fork-l1) forks `target`, with its upstream's upgrade.json if any. */
  target(id: string, target: ForkTarget & { url: string }, upgrade?: Uint8Array): void {
    this.targets.set(id, { ...this.unset(), ...target });
    if (upgrade) this.upgrades.set(id, upgrade);
  }

  /**
   * What an L1 runs on besides its genesis and the node's own upgrade.json: the rules it took at run
   * time from the chain it forks now, else the upstream's upgrade.json that --fork-l1 created it
   * with, kept in the fork cache so that a restart has the chain's rules without the upstream or the
   * flag. Nothing for a chain that is neither (and no fork cache is made to say so).
   */
  async l1Rules(id: string, fork: OpenedFork | undefined): Promise<{ genesis?: Uint8Array; upgrade?: Uint8Array }> {
    const taken = fork && (await this.takenRules(id, fork.hash));
    if (taken) return { genesis: taken.genesis, ...(taken.upgrade ? { upgrade: taken.upgrade } : {}) };
    const upgrade = await this.createdUpgrade(id);
    return upgrade ? { upgrade } : {};
  }

  private async createdUpgrade(id: string): Promise<Uint8Array | undefined> {
    const key = chainKey(id);
    const given = this.upgrades.get(id);
    if (!given) return (await this.cacheIfMade())?.prefix('upgrades').get(key);
    await (await this.cacheStore()).prefix('upgrades').put(key, given);
    this.upgrades.delete(id);
    return given;
  }

  /** The fork cache, if this run or an earlier one made it. */
  private async cacheIfMade(): Promise<Database | undefined> {
    return this.cache || this.cacheMade() ? this.cacheStore() : undefined;
  }

  /**
   * The rules chain `id` took at run time for the fork of the block with hash `forkHash`. Kept in the
   * fork cache by chain and fork block, never dropped: a chain's rules follow the fork its store
   * records, whatever became of a reset that replaced it (one that failed and was rolled back, a
   * kill -9 before it, a dump loaded since).
   */
  private async takenRules(id: string, forkHash: Uint8Array): Promise<ForkedL1Rules | undefined> {
    const bytes = await (await this.cacheIfMade())?.prefix('rules').get(forkKey(id, toHex0x(forkHash)));
    if (!bytes) return undefined;
    const json = JSON.parse(Buffer.from(bytes).toString('utf8')) as { genesis: string; upgrade?: string };
    const upgrade = json.upgrade === undefined ? undefined : new Uint8Array(Buffer.from(json.upgrade, 'base64'));
    return { genesis: new Uint8Array(Buffer.from(json.genesis, 'base64')), upgrade };
  }

  private async keepRules(id: string, forkHash: Uint8Array, { genesis, upgrade }: ForkedL1Rules): Promise<void> {
    // A fork block's rules are its chain's: written once, so that a reset that fails leaves them as they were.
    if (await this.takenRules(id, forkHash)) return;
    const json = {
      genesis: Buffer.from(genesis).toString('base64'),
      ...(upgrade ? { upgrade: Buffer.from(upgrade).toString('base64') } : {}),
    };
    await (await this.cacheStore()).prefix('rules').put(forkKey(id, toHex0x(forkHash)), new TextEncoder().encode(JSON.stringify(json)));
  }

  /** What the forks' upstreams are asked with (--fork-retries and the others). */
  get upstreamSettings(): Omit<ForkSettings, 'url' | 'blockNumber'> {
    return this.unset();
  }

  /** The controls of chain `id`'s dev API; `start`: how it becomes a fork at run time. */
  control(id: string, start: ForkStart): ForkControl {
    return {
      forked: async () => (await this.opened.get(id)?.catch(() => undefined)) !== undefined,
      describe: async () => {
        const fork = await this.opened.get(id)?.catch(() => undefined);
        const backoff = (this.targets.get(id) ?? this.settings).retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS;
        return fork && { url: fork.url, blockNumber: fork.number, retryBackoffMs: backoff };
      },
      unfork: () => {
        this.targets.set(id, this.unset());
        void this.opened.get(id)?.then((old) => old && this.retired.push(old));
        this.opened.delete(id);
      },
      retarget: (target) => this.retarget(id, target, start),
      setUrl: async (url) => {
        const current = await this.opened.get(id)?.catch(() => undefined);
        if (!current) return false;
        await current.setUrl(url);
        await this.keepUrl(id, current);
        return true;
      },
    };
  }

  /** See ForkControl.retarget. */
  private async retarget(id: string, target: ForkTarget, start: ForkStart): Promise<void> {
    const current = await this.opened.get(id)?.catch(() => undefined);
    const kind = this.kinds.get(id);
    if (!kind) throw new ForkError('this chain has not opened yet');
    // The flags' URL is the C-Chain's.
    const url = target.url ?? current?.url ?? this.targets.get(id)?.url ?? (kind.layout === 'coreth' ? this.settings.url : undefined);
    // Anvil's words and code (an invalid-params error).
    if (url === undefined) throw new ForkError('Forking not enabled and RPC URL not provided to start forking', -32602);
    const settings = { ...this.unset(), url, offline: false, ...(target.blockNumber === undefined ? {} : { blockNumber: target.blockNumber }) };
    // Checked and opened before the reset (on a scratch record): a fork that cannot open, or rules the
    // chain cannot run on, must not leave the node without a chain. The reset's rebuild then finds it opened.
    await checkTarget(settings);
    // An L1 takes the rules of the chain it forks: again for another upstream, kept for another block
    // (none were taken for the fork --fork-l1 made: its genesis has them).
    const fetch = !current || url !== current.url;
    const rules = start.rules && (fetch ? await start.rules(url) : await this.takenRules(id, current.hash));
    const scratch = await openDatabase('memdb', '');
    const next = await openFork(settings, scratch, () => this.cacheStore(), kind.layout, kind.commonOf).finally(() => scratch.close());
    if (rules && next) await this.keepRules(id, next.hash, rules);
    this.targets.set(id, settings);
    this.opened.set(id, Promise.resolve(next));
    if (current) this.retired.push(current);
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

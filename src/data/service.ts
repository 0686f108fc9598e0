// The Data API over the node's own chains (--api-data-enabled, on by default), served under /v1 at
// the node's URI so an SDK's serverURL is simply the node: the operations of the hosted API's
// contract that this version answers, from the chains' stores and the followers' indexes.
import type { AcceptedStream } from '../chains/acceptance.js';
import type { Rewindable } from '../chains/states.js';
import type { Logger } from '../logging/logger.js';
import type { Database } from '../storage/db.js';
import type { EvmChain } from '../vms/evm/index.js';
import { toHex } from '../encoding/bytes.js';
import { idFromString } from '../encoding/cb58.js';
import type { EvmSource } from './evm/chains.js';
import { EvmFollower } from './evm/follower.js';
import { evmHandlers } from './evm/handlers.js';
import { type DataMount, dataMount } from './http.js';
import { PageTokens } from './pages.js';
import { aliasOf, type PrimaryChains, primaryHandlers } from './primary/handlers.js';
import { ProposerRecords } from './primary/proposers.js';
import { AddressChains } from './primary/addresses.js';
import { usageHandlers } from './usage.js';
import { icmHandlers } from './evm/icm-list.js';
import { metricsHandlers } from './metrics/handlers.js';
import { type SigningSources, signatureHandlers } from './signatures.js';
import type { Journal } from '../rpc/journal.js';

export interface EvmChainInfo {
  blockchainID: string;
  subnetID: string;
  vmID: string;
  alias: string;
  evm: EvmChain;
}

export interface DataApiOptions {
  /** The Data API's own store (data/). */
  db: Database;
  stream: AcceptedStream;
  log: Logger;
  /** The primary network's chains, once the node has created them. */
  primary: () => PrimaryChains;
  /** The request journal: usage metrics and request logs. */
  journal: Journal;
  networkID: number;
  /** One of the node's EVM chains by blockchain ID, for the signature aggregator. */
  evmChain: SigningSources['evmChain'];
}

export class DataApi {
  private readonly sources: EvmSource[] = [];
  /** Each source's follower by its chain's ID (hex): what an accepted block wakes, found with no cb58 encoding. */
  private readonly followers = new Map<string, EvmFollower>();
  private pages: Promise<PageTokens> | undefined;
  private readonly onAccepted: (block: { chainID: Uint8Array }) => void;
  private readonly proposers: ProposerRecords;
  private readonly addresses: AddressChains;

  private readonly db: Database;
  private readonly stream: AcceptedStream;
  private readonly log: Logger;
  private readonly primary: () => PrimaryChains;
  private readonly journal: Journal;
  private readonly signing: SigningSources;

  constructor(o: DataApiOptions) {
    ({ db: this.db, stream: this.stream, log: this.log, primary: this.primary, journal: this.journal } = o);
    const db = this.db;
    const stream = this.stream;
    this.signing = { networkID: o.networkID, pChain: () => this.primary().pChain, evmChain: o.evmChain };
    this.proposers = new ProposerRecords(db.prefix('proposers'));
    // Asked at every accepted block: the X-Chain's ID is decoded from cb58 once.
    let xChain: { cb58: string; id: Uint8Array } | undefined;
    this.addresses = new AddressChains(db.prefix('address-chains'), () => {
      try {
        const cb58 = this.primary().xID;
        if (xChain?.cb58 !== cb58) xChain = { cb58, id: idFromString(cb58) };
        return xChain.id;
      } catch {
        return undefined; // the X-Chain is not created yet
      }
    });
    stream.acceptors.push(this.proposers, this.addresses);
    // Each accepted block wakes its chain's follower; it reads what it needs from the chain's store.
    this.onAccepted = (block) => this.followers.get(toHex(block.chainID))?.wake();
    stream.on('accepted', this.onAccepted);
  }

  /** Follows an EVM chain from where its follower stopped (the genesis, for a chain it never saw). */
  addEvmChain(c: EvmChainInfo): void {
    const follower = new EvmFollower(this.db.prefix(`evm/${c.blockchainID}`), c.evm, this.log, this.db.prefix('icm'), c.blockchainID);
    this.sources.push({ ...c, follower });
    this.followers.set(toHex(idFromString(c.blockchainID)), follower);
    follower.wake();
  }

  /** The Data API follows the store back to a snapshot: its followers stop, forget what they held, and go on from their cursors. */
  rewindable(): Rewindable {
    let releases: Array<() => void> = [];
    return {
      prefixes: [this.db.keyPrefix],
      hold: async () => {
        releases = [];
        for (const s of this.sources) releases.push(await s.follower.hold());
        return () => {
          for (const release of releases.splice(0)) release();
        };
      },
      reload: async (changes) => {
        for (const s of this.sources) s.follower.forget(changes);
        // Page tokens are signed with a secret kept in the store, which may be younger than the snapshot.
        this.pages = undefined;
        return true;
      },
      settle: () => this.settled(),
    };
  }

  /** Waits until every follower has reached its chain's head. */
  async settled(): Promise<void> {
    for (const s of this.sources) await s.follower.settled();
  }

  mount(): DataMount {
    const pages = () => (this.pages ??= PageTokens.open(this.db.prefix('pages')));
    const handlers = evmHandlers({ sources: () => this.sources, db: (s) => s.follower.db, pages });
    const primary = primaryHandlers({ chains: this.primary, proposers: this.proposers, addresses: this.addresses, pages });
    const chainAlias = (raw: Record<string, unknown>) => {
      if (typeof raw.blockchainId === 'string') raw.blockchainId = aliasOf(raw.blockchainId, this.primary());
    };
    return dataMount(
      {
        ...handlers,
        ...primary,
        ...usageHandlers(this.journal, pages),
        ...signatureHandlers(this.signing),
        ...metricsHandlers(() => this.sources, pages),
        ...icmHandlers(
          () => this.db.prefix('icm'),
          () => this.sources,
          pages,
        ),
      },
      (err) => this.log.error('Data API request failed', { error: (err as Error).stack ?? String(err) }),
      {
        listLatestPrimaryNetworkBlocks: chainAlias,
        listLatestXChainVertices: chainAlias,
        getVertexByHeight: chainAlias,
      },
    );
  }

  async close(): Promise<void> {
    this.stream.off('accepted', this.onAccepted);
    for (const s of this.sources) await s.follower.close();
  }
}

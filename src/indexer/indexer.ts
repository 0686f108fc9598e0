// The node's indexer (avalanchego indexer/indexer.go): which chains get indexes, and the
// --index-enabled / --index-allow-incomplete rules across restarts of the same database, kept with
// markers as the real node keeps them. A refusal is avalanchego's FATAL line followed by a clean
// shutdown with exit code 0. Chains register in creation order (P, X, C), so refusals name P.
//
// It is an acceptor of the accepted-block stream: each block of an indexed chain is indexed in the
// block's own batch. It knows chains only by ID, alias and kind, never by VM.
import type { Rewindable } from '../chains/states.js';
import type { AcceptedBlock, BlockAcceptor } from '../chains/acceptance.js';
import type { Clock } from '../chains/clock.js';
import type { Logger } from '../logging/logger.js';
import type { Database, WriteBatch } from '../storage/db.js';
import { ContainerIndex, containerIndexDatabase, type IndexKind } from './index.js';
import { toHex } from '../encoding/bytes.js';

const HAS_RUN = Uint8Array.of(0x07);
const marker = (chainID: Uint8Array, kind: 0x04 | 0x05) => Buffer.concat([Uint8Array.of(kind), chainID]);
const INCOMPLETE = 0x04;
const PREVIOUSLY_INDEXED = 0x05;

/** The node must stop (exit code 0) after an indexer FATAL, as avalanchego does. */
export class IndexerShutdown extends Error {}

export interface IndexerConfig {
  enabled: boolean;
  allowIncomplete: boolean;
}

/** A chain as the indexer knows it. */
export interface IndexedChain {
  chainID: Uint8Array;
  /** Its primary alias: the name of its index routes (/ext/index/<alias>/<kind>). */
  alias: string;
  /** A linearized DAG VM also gets vertex and tx indexes, which stay empty after linearization. */
  dag: boolean;
}

export class Indexer implements BlockAcceptor {
  /** `<alias>/<kind>` -> index, in registration order. */
  readonly indexes = new Map<string, ContainerIndex>();
  /** Block indexes by hex chain ID. */
  private readonly blockIndexes = new Map<string, ContainerIndex>();
  /** Blocks whose index writes are in a batch not yet committed, by hex block ID. */
  private readonly pending = new Map<string, ContainerIndex>();

  private constructor(
    private readonly db: Database,
    private readonly config: IndexerConfig,
    private readonly hasRun: boolean,
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  /** `db` is the index's own database. */
  static async open(db: Database, config: IndexerConfig, log: Logger, clock: Clock): Promise<Indexer> {
    const hasRun = (await db.get(HAS_RUN)) !== undefined;
    await db.put(HAS_RUN, new Uint8Array());
    return new Indexer(db, config, hasRun, log, clock);
  }

  /** RegisterChain: applies the restart rules and opens the chain's indexes; returns them (to be served). */
  async registerChain(chain: IndexedChain): Promise<ContainerIndex[]> {
    const { db, config, log } = this;
    const previouslyIndexed = (await db.get(marker(chain.chainID, PREVIOUSLY_INDEXED))) !== undefined;
    const incomplete = (await db.get(marker(chain.chainID, INCOMPLETE))) !== undefined;
    if (!config.enabled) {
      if (previouslyIndexed && !config.allowIncomplete) {
        log.fatal('running would cause index to become incomplete but incomplete indices are disabled', { chainName: chain.alias });
        throw new IndexerShutdown('running would cause index to become incomplete but incomplete indices are disabled');
      }
      await db.put(marker(chain.chainID, INCOMPLETE), new Uint8Array());
      return [];
    }
    if (incomplete && !config.allowIncomplete && (previouslyIndexed || this.hasRun)) {
      log.fatal('index is incomplete but incomplete indices are disabled. Shutting down', { chainName: chain.alias });
      throw new IndexerShutdown('index is incomplete but incomplete indices are disabled. Shutting down');
    }
    await db.put(marker(chain.chainID, PREVIOUSLY_INDEXED), new Uint8Array());
    const opened: ContainerIndex[] = [];
    for (const kind of chain.dag ? (['block', 'vtx', 'tx'] as IndexKind[]) : (['block'] as IndexKind[])) {
      const index = new ContainerIndex(containerIndexDatabase(db, chain.chainID, kind), kind);
      await index.open();
      this.indexes.set(`${chain.alias}/${kind}`, index);
      if (kind === 'block') this.blockIndexes.set(toHex(chain.chainID), index);
      opened.push(index);
      log.info('created new index', { nextAcceptedIndex: Number(index.size) });
    }
    return opened;
  }

  /** The index follows the store back to a snapshot: its writes ride in the chains' batches, so only its counts are read again. */
  rewindable(): Rewindable {
    return {
      prefixes: [this.db.keyPrefix],
      hold: async () => () => {},
      reload: async () => {
        this.pending.clear();
        for (const index of this.indexes.values()) await index.open();
        return true;
      },
    };
  }

  get(alias: string, kind: IndexKind): ContainerIndex | undefined {
    return this.indexes.get(`${alias}/${kind}`);
  }

  async prepare(block: AcceptedBlock, batch: WriteBatch): Promise<void> {
    const index = this.blockIndexes.get(toHex(block.chainID));
    if (index && (await index.accept(batch, block.id, block.bytes, this.clock.nowNs()))) this.pending.set(toHex(block.id), index);
  }

  committed(block: AcceptedBlock): void {
    const key = toHex(block.id);
    const index = this.pending.get(key);
    if (!index) return;
    this.pending.delete(key);
    index.accepted(1n);
  }
}

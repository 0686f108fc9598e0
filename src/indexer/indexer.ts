// The node's indexer (avalanchego indexer/indexer.go): which chains get indexes, and the
// --index-enabled / --index-allow-incomplete rules across restarts of the same database, kept with
// markers as the real node keeps them. A refusal is avalanchego's FATAL line followed by a clean
// shutdown with exit code 0. Chains are taken in creation order (P, X, C), so refusals name P.
import type { Chain } from '../chains/registry.js';
import type { OuterBlock, ProposerVM } from '../chains/proposervm.js';
import type { BatchOp } from '../chains/x/state.js';
import type { StandardBlock } from '../chains/x/types.js';
import { nowNs } from '../encoding/time.js';
import type { Logger } from '../logging/logger.js';
import type { Database } from '../storage/db.js';
import { ContainerIndex, type IndexKind } from './index.js';

const HAS_RUN = Uint8Array.of(0x31, 0x07);
const marker = (chainID: Uint8Array, kind: 0x04 | 0x05) => Buffer.concat([Uint8Array.of(0x31), chainID, Uint8Array.of(kind)]);
const INCOMPLETE = 0x04;
const PREVIOUSLY_INDEXED = 0x05;

/** The node must stop (exit code 0) after an indexer FATAL, as avalanchego does. */
export class IndexerShutdown extends Error {}

export interface IndexerConfig {
  enabled: boolean;
  allowIncomplete: boolean;
}

export class Indexer {
  /** `<alias>/<kind>` -> index, in route registration order. */
  readonly indexes = new Map<string, ContainerIndex>();

  private constructor() {}

  static async open(db: Database, config: IndexerConfig, chains: Chain[], log: Logger): Promise<Indexer> {
    const indexer = new Indexer();
    const hasRun = (await db.get(HAS_RUN)) !== undefined;
    await db.put(HAS_RUN, new Uint8Array());
    for (const chain of chains) {
      const previouslyIndexed = (await db.get(marker(chain.idBytes, PREVIOUSLY_INDEXED))) !== undefined;
      const incomplete = (await db.get(marker(chain.idBytes, INCOMPLETE))) !== undefined;
      if (!config.enabled) {
        if (previouslyIndexed && !config.allowIncomplete) {
          log.fatal('running would cause index to become incomplete but incomplete indices are disabled', { chainName: chain.alias });
          throw new IndexerShutdown('running would cause index to become incomplete but incomplete indices are disabled');
        }
        await db.put(marker(chain.idBytes, INCOMPLETE), new Uint8Array());
        continue;
      }
      if (incomplete && !config.allowIncomplete && (previouslyIndexed || hasRun)) {
        log.fatal('index is incomplete but incomplete indices are disabled. Shutting down', { chainName: chain.alias });
        throw new IndexerShutdown('index is incomplete but incomplete indices are disabled. Shutting down');
      }
      await db.put(marker(chain.idBytes, PREVIOUSLY_INDEXED), new Uint8Array());
      // The X-Chain is a DAG VM: it also gets vertex and tx indexes, which stay empty after linearization.
      const kinds: IndexKind[] = chain.alias === 'X' ? ['block', 'vtx', 'tx'] : ['block'];
      for (const kind of kinds) {
        const index = new ContainerIndex(db, chain.idBytes, kind);
        await index.open();
        indexer.indexes.set(`${chain.alias}/${kind}`, index);
        log.info('created new index', { nextAcceptedIndex: Number(index.size) });
      }
    }
    return indexer;
  }

  get(alias: string, kind: IndexKind): ContainerIndex | undefined {
    return this.indexes.get(`${alias}/${kind}`);
  }
}

/**
 * What a chain does with each accepted block before it commits: wrap it in proposervm (always: it
 * is part of consensus) and, with indexing on, index the outer container, in the same batch.
 */
export class BlockAcceptor {
  private pending: { outer: OuterBlock; indexed: boolean } | undefined;

  constructor(private readonly proposer: ProposerVM, private readonly index: ContainerIndex | undefined) {}

  async prepare(block: StandardBlock): Promise<BatchOp[]> {
    const { block: outer, ops } = this.proposer.wrap(block.bytes, BigInt(Math.floor(Date.now() / 1000)));
    const indexOps = this.index ? await this.index.acceptOps(outer.id, outer.bytes, nowNs()) : [];
    this.pending = { outer, indexed: indexOps.length > 0 };
    return [...ops, ...indexOps];
  }

  committed(): void {
    if (!this.pending) return;
    this.proposer.accepted(this.pending.outer);
    if (this.pending.indexed) this.index!.accepted(1n);
    this.pending = undefined;
  }
}

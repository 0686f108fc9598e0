// The life of an accepted block after its VM: proposervm wraps it (a consensus concern, for every
// chain alike), the node's acceptors (the indexer, later the Data and Metrics followers) add their
// writes to the same batch, the VM commits that one batch, and then everyone hears of the block.
// Acceptors see chain-neutral blocks only: they never import a VM (what a VM tells them, such as
// the addresses a block deals with, comes on the block).
import { EventEmitter } from 'node:events';
import type { WriteBatch } from '../storage/db.js';
import { type Clock, unixSeconds } from './clock.js';
import type { ProposerVM } from './proposervm.js';

/** A block as consensus accepted it: for chains under proposervm, the outer block. */
export interface AcceptedBlock {
  chainID: Uint8Array;
  subnetID: Uint8Array;
  id: Uint8Array;
  parentID: Uint8Array;
  height: bigint;
  /** Unix seconds. */
  timestamp: bigint;
  bytes: Uint8Array;
  /** The addresses the block's txs deal with, when its VM publishes them (the P- and X-Chains). */
  addresses?: BlockAddresses;
}

/**
 * The addresses a block deals with, as its VM read them: acceptors learn them without parsing a
 * VM's block.
 */
export interface BlockAddresses {
  /** The 20-byte addresses that own what the block's txs create on its chain. */
  owners: Uint8Array[];
  /** The owners of what the txs export, by destination chain: they can spend it only by importing there. */
  exported: Array<{ chainID: Uint8Array; owners: Uint8Array[] }>;
}

/** The VM's own block, before proposervm wraps it. */
export interface InnerBlock {
  /** A proposal's option (the P-Chain's commit or abort block): proposervm wraps it as an option block. */
  option?: boolean;
  id: Uint8Array;
  parentID: Uint8Array;
  height: bigint;
  timestamp: bigint;
  bytes: Uint8Array;
  addresses?: BlockAddresses;
}

/** A layer that writes with each accepted block, in the block's own batch. */
export interface BlockAcceptor {
  /** Adds this layer's writes for `block` to `batch`. */
  prepare(block: AcceptedBlock, batch: WriteBatch): Promise<void>;
  /** The batch is committed. */
  committed(block: AcceptedBlock): void;
}

export interface AcceptedEvents {
  accepted: [block: AcceptedBlock];
}

/** Every chain's accepted blocks, in acceptance order per chain, after they are committed. */
export class AcceptedStream extends EventEmitter<AcceptedEvents> {
  readonly acceptors: BlockAcceptor[] = [];
}

/** What a VM calls while accepting a block, and once its batch is committed. */
export interface Acceptance {
  prepare(inner: InnerBlock, batch: WriteBatch): Promise<() => void>;
}

/** A chain's acceptance: proposervm (when the chain runs under it), then the node's acceptors. */
export function chainAcceptance(chain: { chainID: Uint8Array; subnetID: Uint8Array }, stream: AcceptedStream, clock: Clock, proposer?: ProposerVM): Acceptance {
  return {
    async prepare(inner, batch) {
      let block: AcceptedBlock = { ...inner, chainID: chain.chainID, subnetID: chain.subnetID };
      const outer = inner.option ? proposer?.wrapOption(inner.bytes, batch) : proposer?.wrap(inner.bytes, unixSeconds(clock), batch);
      if (outer) block = { ...block, id: outer.id, parentID: outer.parentID, timestamp: outer.timestamp, bytes: outer.bytes };
      for (const acceptor of stream.acceptors) await acceptor.prepare(block, batch);
      return () => {
        if (outer) proposer!.accepted(outer);
        for (const acceptor of stream.acceptors) acceptor.committed(block);
        stream.emit('accepted', block);
      };
    },
  };
}

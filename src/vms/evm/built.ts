// The side channel from an EVM chain's builder to the Data API's follower: each tx's internal
// transactions, recorded while its block is built, and the block as it ran, kept until taken.
import type { VM } from '@ethereumjs/vm';
import type { BuiltBlock } from './chaintypes.js';
import { type InternalTx, InternalTxRecorder } from './trace/internal.js';

/** Blocks whose recorded internal transactions wait for the Data API's follower, at most. */
const KEPT_INTERNAL_BLOCKS = 1024;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

export class BuiltBlocks {
  private recorder: InternalTxRecorder | undefined;
  /** Per block built since recording began (by block hash): its txs, and each tx's internal transactions. */
  private readonly byBlock = new Map<string, BuiltBlock>();

  /** Whether the builder records (the Data API asked). */
  get recording(): boolean {
    return this.recorder !== undefined;
  }

  /** From now on, `vm` (the builder's) records each tx's internal transactions. */
  record(vm: VM): void {
    if (this.recorder) return;
    this.recorder = new InternalTxRecorder();
    this.recorder.attach(vm.evm);
  }

  /** A tx starts running. */
  txStarts(): void {
    this.recorder?.start();
  }

  /** The internal transactions of the tx that ran last. */
  txInternal(): InternalTx[] {
    return this.recorder?.take() ?? [];
  }

  /** Keeps a block built while recording, until the follower takes it. */
  keep(blockHash: Uint8Array, built: BuiltBlock): void {
    if (!this.recorder) return;
    this.byBlock.set(hex(blockHash), built);
    // A follower that fell this far behind decodes and runs the older blocks' txs again instead.
    if (this.byBlock.size > KEPT_INTERNAL_BLOCKS) this.byBlock.delete(this.byBlock.keys().next().value!);
  }

  /** A block kept, once; undefined for others. */
  take(blockHash: Uint8Array): BuiltBlock | undefined {
    const key = hex(blockHash);
    const found = this.byBlock.get(key);
    this.byBlock.delete(key);
    return found;
  }

  /**
   * The blocks above `height` went (a revert): their recorded runs would only take memory (up to
   * KEPT_INTERNAL_BLOCKS of them) until pushed out by new blocks.
   */
  forgetAbove(height: bigint): void {
    for (const [key, built] of this.byBlock) if (built.number > height) this.byBlock.delete(key);
  }
}

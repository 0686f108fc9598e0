// The X-Chain's persistent state in its own database: the layout every UTXO chain shares
// (components/avax chainstate: UTXOs with a per-address index, accepted txs, blocks by ID and
// height, the last accepted block, whose record here also holds the block's time). A block's
// effects are written in one atomic batch (with the other layers' writes for the block), so a
// crash never leaves half a block applied.
import { WriteBatch, type Database } from '../../storage/db.js';
import { marshalUTXO, outputAddresses, parseBlock, parseTx, parseUTXO, utxoInputID } from './codec/index.js';
import type { SignedTx, StandardBlock, UTXO } from './types.js';
import { u64 } from '../../encoding/bytes.js';
import { ChainState } from '../components/avax/chainstate.js';

export interface LastAccepted {
  id: Uint8Array;
  height: bigint;
  time: bigint;
}

export interface BlockEffects {
  block: StandardBlock;
  created: UTXO[];
  /** IDs of the UTXOs the block consumes (read once here, for their index entries). */
  spent: Uint8Array[];
}

export class XState extends ChainState<SignedTx, StandardBlock, UTXO> {
  private last: LastAccepted | undefined;

  constructor(db: Database) {
    super(db, {
      parseTx,
      parseBlock,
      utxo: { parse: parseUTXO, marshal: marshalUTXO, addresses: (u) => outputAddresses(u.output), id: (u) => utxoInputID(u.utxoID) },
    });
  }

  /** The last-accepted record: blockID ‖ u64 height ‖ u64 time ‖ u64 next seq. */
  async load(): Promise<LastAccepted | undefined> {
    const b = await this.loadLast();
    if (!b) return undefined;
    this.last = { id: b.subarray(0, 32), height: b.readBigUInt64BE(32), time: b.readBigUInt64BE(40) };
    return this.last;
  }

  lastAccepted(): LastAccepted {
    if (!this.last) throw new Error('X-Chain state not initialized');
    return this.last;
  }

  /**
   * Writes a block's effects, with the new last-accepted pointer, in one atomic write together with
   * what other layers already put in `batch` (shared memory, proposervm, the index).
   */
  async commit(effects: BlockEffects, batch = new WriteBatch(), txs: SignedTx[] = effects.block.txs): Promise<void> {
    const { block } = effects;
    const seq = await this.writeAccepted(batch, effects, txs, [u64(block.time)]);
    await this.db.write(batch);
    this.nextSeq = seq;
    this.last = { id: block.id, height: block.height, time: block.time };
  }
}

// The X-Chain's persistent state in its own database: UTXOs with a per-address index, accepted txs,
// blocks by ID and height, and the last accepted block. A block's effects are written in one atomic
// batch (with the other layers' writes for the block), so a crash never leaves half a block applied.
//
// Layout (one prefix byte each):
//   0x10 utxoID                      -> u64 seq ‖ UTXO bytes   (seq orders the address index)
//   0x11 addr20 ‖ u64 (~seq)         -> utxoID                 (newest first, like avalanchego's linked lists)
//   0x12 txID                        -> signed tx bytes
//   0x13 blockID                     -> block bytes
//   0x14 u64 height                  -> blockID
//   0x15 "last"                      -> blockID ‖ u64 height ‖ u64 time ‖ u64 next seq
import { WriteBatch, type Database } from '../../storage/db.js';
import { marshalUTXO, outputAddresses, parseBlock, parseTx, parseUTXO, utxoInputID } from './codec/index.js';
import type { SignedTx, StandardBlock, UTXO } from './types.js';
import { u64 } from '../../encoding/bytes.js';
import { UTXOState } from '../components/avax/utxostate.js';

const P_UTXO = 0x10;
const P_ADDR = 0x11;
const P_TX = 0x12;
const P_BLOCK = 0x13;
const P_HEIGHT = 0x14;
const P_META = 0x15;
const LAST_KEY = Uint8Array.of(P_META, ...Buffer.from('last'));

const key = (prefix: number, ...parts: Uint8Array[]) => Buffer.concat([Uint8Array.of(prefix), ...parts]);

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

export class XState {
  private last: LastAccepted | undefined;
  private nextSeq = 0n;
  /** Parsed txs by hex ID: txs are immutable, and balance and JSON queries reread them. */
  private readonly txCache = new Map<string, SignedTx>();

  readonly utxos: UTXOState<UTXO>;

  constructor(private readonly db: Database) {
    this.utxos = new UTXOState(
      db,
      { parse: parseUTXO, marshal: marshalUTXO, addresses: (u) => outputAddresses(u.output), id: (u) => utxoInputID(u.utxoID) },
      { utxo: P_UTXO, addr: P_ADDR },
    );
  }

  async load(): Promise<LastAccepted | undefined> {
    const raw = await this.db.get(LAST_KEY);
    if (!raw) return undefined;
    const b = Buffer.from(raw);
    this.last = { id: b.subarray(0, 32), height: b.readBigUInt64BE(32), time: b.readBigUInt64BE(40) };
    this.nextSeq = b.readBigUInt64BE(48);
    return this.last;
  }

  lastAccepted(): LastAccepted {
    if (!this.last) throw new Error('X-Chain state not initialized');
    return this.last;
  }

  async getUTXO(id: Uint8Array): Promise<UTXO | undefined> {
    return this.utxos.get(id);
  }

  /** Several UTXOs in one read of the store, in the order asked. */
  async getUTXOs(ids: Uint8Array[]): Promise<Array<UTXO | undefined>> {
    return this.utxos.getMany(ids);
  }

  async getTx(id: Uint8Array): Promise<SignedTx | undefined> {
    const hex = Buffer.from(id).toString('hex');
    const cached = this.txCache.get(hex);
    if (cached) return cached;
    const raw = await this.db.get(key(P_TX, id));
    if (!raw) return undefined;
    const tx = parseTx(raw);
    if (this.txCache.size >= 4096) this.txCache.clear();
    this.txCache.set(hex, tx);
    return tx;
  }

  async getBlock(id: Uint8Array): Promise<StandardBlock | undefined> {
    const raw = await this.db.get(key(P_BLOCK, id));
    return raw ? parseBlock(raw) : undefined;
  }

  async getBlockIdAtHeight(height: bigint): Promise<Uint8Array | undefined> {
    return this.db.get(key(P_HEIGHT, u64(height)));
  }

  /** utxoState.UTXOIDs: up to `limit` UTXO IDs of `address`, newest first, after `start` if it is one of them. */
  async utxoIDs(address: Uint8Array, start: Uint8Array | undefined, limit: number): Promise<Uint8Array[]> {
    return this.utxos.ids(address, start, limit);
  }

  /**
   * Writes a block's effects, with the new last-accepted pointer, in one atomic write together with
   * what other layers already put in `batch` (shared memory, proposervm, the index).
   */
  async commit(effects: BlockEffects, batch = new WriteBatch(), txs: SignedTx[] = effects.block.txs): Promise<void> {
    const db = this.db;
    const seq = await this.utxos.write(batch, effects.spent, effects.created, this.nextSeq);
    for (const tx of txs) batch.put(db, key(P_TX, tx.id), tx.bytes);
    const { block } = effects;
    batch.put(db, key(P_BLOCK, block.id), block.bytes);
    batch.put(db, key(P_HEIGHT, u64(block.height)), block.id);
    batch.put(db, LAST_KEY, Buffer.concat([block.id, u64(block.height), u64(block.time), u64(seq)]));
    await db.write(batch);
    this.nextSeq = seq;
    this.last = { id: block.id, height: block.height, time: block.time };
  }
}

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

const P_UTXO = 0x10;
const P_ADDR = 0x11;
const P_TX = 0x12;
const P_BLOCK = 0x13;
const P_HEIGHT = 0x14;
const P_META = 0x15;
const LAST_KEY = Uint8Array.of(P_META, ...Buffer.from('last'));
const MAX_U64 = 0xffffffffffffffffn;

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

  constructor(private readonly db: Database) {}

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
    const raw = await this.db.get(key(P_UTXO, id));
    return raw ? parseUTXO(raw.subarray(8)) : undefined;
  }

  /** Several UTXOs in one read of the store, in the order asked. */
  async getUTXOs(ids: Uint8Array[]): Promise<Array<UTXO | undefined>> {
    const raws = await this.db.getMany(ids.map((id) => key(P_UTXO, id)));
    return raws.map((raw) => (raw ? parseUTXO(raw.subarray(8)) : undefined));
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

  /**
   * utxoState.UTXOIDs: up to `limit` UTXO IDs of `address`, newest first. With `start` present in
   * the address's list, iteration begins after it; otherwise from the head (avalanchego's linked list).
   */
  async utxoIDs(address: Uint8Array, start: Uint8Array | undefined, limit: number): Promise<Uint8Array[]> {
    let from = key(P_ADDR, address);
    if (start) {
      const raw = await this.db.get(key(P_UTXO, start));
      if (raw) {
        const utxo = parseUTXO(raw.subarray(8));
        if (outputAddresses(utxo.output).some((a) => Buffer.from(a).equals(address))) {
          from = key(P_ADDR, address, u64(MAX_U64 - Buffer.from(raw).readBigUInt64BE(0)));
        }
      }
    }
    const end = key(P_ADDR, address, Buffer.alloc(8, 0xff), Uint8Array.of(0xff));
    const ids: Uint8Array[] = [];
    // One more than asked, for the start UTXO that is skipped; LevelDB takes no limit beyond int32.
    const dbLimit = limit >= 0x7ffffffe ? -1 : limit + 1;
    for (const value of await this.db.values({ gte: from, lt: end, limit: dbLimit })) {
      if (start && ids.length === 0 && Buffer.from(value).equals(start)) continue;
      ids.push(value);
      if (ids.length >= limit) break;
    }
    return ids;
  }

  /**
   * Writes a block's effects, with the new last-accepted pointer, in one atomic write together with
   * what other layers already put in `batch` (shared memory, proposervm, the index).
   */
  async commit(effects: BlockEffects, batch = new WriteBatch(), txs: SignedTx[] = effects.block.txs): Promise<void> {
    const db = this.db;
    const spentRaws = await db.getMany(effects.spent.map((id) => key(P_UTXO, id)));
    for (const [i, id] of effects.spent.entries()) {
      const raw = spentRaws[i];
      if (!raw) continue;
      const seq = Buffer.from(raw).readBigUInt64BE(0);
      batch.del(db, key(P_UTXO, id));
      for (const a of outputAddresses(parseUTXO(raw.subarray(8)).output)) batch.del(db, key(P_ADDR, a, u64(MAX_U64 - seq)));
    }
    let seq = this.nextSeq;
    for (const utxo of effects.created) {
      const id = utxoInputID(utxo.utxoID);
      batch.put(db, key(P_UTXO, id), Buffer.concat([u64(seq), marshalUTXO(utxo)]));
      for (const a of outputAddresses(utxo.output)) batch.put(db, key(P_ADDR, a, u64(MAX_U64 - seq)), id);
      seq++;
    }
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

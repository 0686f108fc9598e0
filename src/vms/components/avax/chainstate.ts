// What the X- and P-Chain keep the same way in their own databases: the UTXO set with its address
// index, accepted txs (parsed ones cached), blocks by ID and height, and the last-accepted record
// whose tail is the UTXO sequence number. Each VM adds its own records after these.
//
// Layout (one prefix byte each):
//   0x10 utxoID                 -> u64 seq ‖ UTXO bytes   (seq orders the address index)
//   0x11 addr20 ‖ u64 (~seq)    -> utxoID                 (newest first, like avalanchego's linked lists)
//   0x12 txID                   -> signed tx bytes
//   0x13 blockID                -> block bytes
//   0x14 u64 height             -> blockID
//   0x15 "last"                 -> blockID ‖ u64 height ‖ (the VM's fields) ‖ u64 next seq
import { u64 } from '../../../encoding/bytes.js';
import type { Database, WriteBatch } from '../../../storage/db.js';
import { type UTXOCodec, UTXOState } from './utxostate.js';

const P_UTXO = 0x10;
const P_ADDR = 0x11;
const P_TX = 0x12;
const P_BLOCK = 0x13;
const P_HEIGHT = 0x14;
const LAST_KEY = Uint8Array.of(0x15, ...Buffer.from('last'));
/** Parsed txs kept for balance and JSON queries, which reread them (txs are immutable). */
const TX_CACHE = 4096;

const key = (prefix: number, ...parts: Uint8Array[]) => Buffer.concat([Uint8Array.of(prefix), ...parts]);

export interface ChainCodec<Tx, Block, U> {
  parseTx(bytes: Uint8Array): Tx;
  parseBlock(bytes: Uint8Array): Block;
  utxo: UTXOCodec<U>;
}

export class ChainState<Tx, Block extends { id: Uint8Array; bytes: Uint8Array; height: bigint }, U> {
  readonly utxos: UTXOState<U>;
  /** The sequence number the next created UTXO gets. */
  protected nextSeq = 0n;
  private readonly txCache = new Map<string, Tx>();

  constructor(
    protected readonly db: Database,
    private readonly codec: ChainCodec<Tx, Block, U>,
  ) {
    this.utxos = new UTXOState(db, codec.utxo, { utxo: P_UTXO, addr: P_ADDR });
  }

  /** The last-accepted record (blockID ‖ u64 height ‖ … ‖ u64 next seq), if any; its seq is taken up. */
  protected async loadLast(): Promise<Buffer | undefined> {
    const raw = await this.db.get(LAST_KEY);
    if (!raw) return undefined;
    const b = Buffer.from(raw);
    this.nextSeq = b.readBigUInt64BE(b.length - 8);
    return b;
  }

  async getUTXO(id: Uint8Array): Promise<U | undefined> {
    return this.utxos.get(id);
  }

  /** Several UTXOs in one read of the store, in the order asked. */
  async getUTXOs(ids: Uint8Array[]): Promise<Array<U | undefined>> {
    return this.utxos.getMany(ids);
  }

  /** utxoState.UTXOIDs: up to `limit` UTXO IDs of `address`, newest first, after `start` if it is one of them. */
  async utxoIDs(address: Uint8Array, start: Uint8Array | undefined, limit: number): Promise<Uint8Array[]> {
    return this.utxos.ids(address, start, limit);
  }

  async getTx(id: Uint8Array): Promise<Tx | undefined> {
    const hex = Buffer.from(id).toString('hex');
    const cached = this.txCache.get(hex);
    if (cached) return cached;
    const raw = await this.db.get(key(P_TX, id));
    if (!raw) return undefined;
    const tx = this.codec.parseTx(raw);
    if (this.txCache.size >= TX_CACHE) this.txCache.clear();
    this.txCache.set(hex, tx);
    return tx;
  }

  async getBlock(id: Uint8Array): Promise<Block | undefined> {
    const raw = await this.db.get(key(P_BLOCK, id));
    return raw ? this.codec.parseBlock(raw) : undefined;
  }

  async getBlockIdAtHeight(height: bigint): Promise<Uint8Array | undefined> {
    return this.db.get(key(P_HEIGHT, u64(height)));
  }

  /**
   * Adds to `batch` a block's UTXO changes, its txs, the block with its height, and the
   * last-accepted record (`fields` between the height and the seq). Returns the next seq, which
   * the caller adopts (nextSeq) once the batch is written.
   */
  protected async writeAccepted(
    batch: WriteBatch,
    effects: { block: Block; spent: Uint8Array[]; created: U[] },
    txs: ReadonlyArray<{ id: Uint8Array; bytes: Uint8Array }>,
    fields: Uint8Array[] = [],
  ): Promise<bigint> {
    const db = this.db;
    const seq = await this.utxos.write(batch, effects.spent, effects.created, this.nextSeq);
    for (const tx of txs) batch.put(db, key(P_TX, tx.id), tx.bytes);
    const { block } = effects;
    batch.put(db, key(P_BLOCK, block.id), block.bytes);
    batch.put(db, key(P_HEIGHT, u64(block.height)), block.id);
    batch.put(db, LAST_KEY, Buffer.concat([block.id, u64(block.height), ...fields, u64(seq)]));
    return seq;
  }
}

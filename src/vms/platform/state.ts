// The P-Chain's persistent state in its own database: UTXOs with a per-address index, accepted txs,
// blocks by ID and height, the last accepted block, and the ledger's records. A block's effects
// are written in one atomic batch with what the other layers put there for the block (shared
// memory, proposervm, the index), so a crash never leaves half a block applied.
//
// Layout (one prefix byte each):
//   0x10 utxoID                 -> u64 seq ‖ UTXO bytes
//   0x11 addr20 ‖ u64 (~seq)    -> utxoID            (newest first, like avalanchego's linked lists)
//   0x12 txID                   -> signed tx bytes   (an accepted tx: status Committed)
//   0x13 blockID                -> block bytes
//   0x14 u64 height             -> blockID
//   0x15 "last"                 -> blockID ‖ u64 height ‖ u64 next seq
//   0x16 kind ‖ key             -> ledger record (JSON)
//   0x17 u64 (~height)          -> every subnet's validator set from that height on (JSON), when it changed
import { u64 } from '../../encoding/bytes.js';
import { UTXOState } from '../components/avax/utxostate.js';
import { type Database, WriteBatch } from '../../storage/db.js';
import { marshalUTXO, parseBlock, parseTx, parseUTXO } from './codec/index.js';
import { decodeRecord, encodeRecord, type Kind, KINDS, Ledger, type LedgerMaps } from './ledger.js';
import type { Block, Output, SignedTx, UTXO } from './types.js';
import { type ValidatorSets, validatorSets } from './validators.js';
import { utxoIDBytes } from './utxos.js';

const P_UTXO = 0x10;
const P_ADDR = 0x11;
const P_TX = 0x12;
const P_BLOCK = 0x13;
const P_HEIGHT = 0x14;
const LAST_KEY = Uint8Array.of(0x15, ...Buffer.from('last'));
const P_RECORD = 0x16;
const P_VALIDATORS = 0x17;
const MAX_U64 = 0xffffffffffffffffn;

const key = (prefix: number, ...parts: Uint8Array[]) => Buffer.concat([Uint8Array.of(prefix), ...parts]);
const recordKey = (kind: Kind, k: string) => Buffer.concat([Uint8Array.of(P_RECORD, KINDS[kind]), Buffer.from(k, 'utf8')]);

export interface LastAccepted {
  id: Uint8Array;
  height: bigint;
}

export interface BlockEffects {
  block: Block;
  created: UTXO[];
  spent: Uint8Array[];
  txs: SignedTx[];
  ledger: Ledger;
}

export const ownersOfOutput = (o: Output) => (o.type === 22 ? o.out.owners : o.owners);

export class PState {
  readonly ledger = new Ledger();
  private last: LastAccepted | undefined;
  private nextSeq = 0n;
  private readonly txCache = new Map<string, SignedTx>();

  readonly utxos: UTXOState<UTXO>;

  constructor(private readonly db: Database) {
    this.utxos = new UTXOState(
      db,
      { parse: parseUTXO, marshal: marshalUTXO, addresses: (u) => ownersOfOutput(u.output).addresses, id: (u) => utxoIDBytes(u.utxoID) },
      { utxo: P_UTXO, addr: P_ADDR },
    );
  }

  async load(): Promise<LastAccepted | undefined> {
    const raw = await this.db.get(LAST_KEY);
    if (!raw) return undefined;
    const b = Buffer.from(raw);
    this.last = { id: b.subarray(0, 32), height: b.readBigUInt64BE(32) };
    this.nextSeq = b.readBigUInt64BE(40);
    for (const [kind, byte] of Object.entries(KINDS) as Array<[Kind, number]>) {
      const map = (this.ledger as LedgerMaps)[kind] as Map<string, unknown>;
      for (const [k, v] of await this.db.entries({ gte: Uint8Array.of(P_RECORD, byte), lt: Uint8Array.of(P_RECORD, byte + 1) })) {
        map.set(Buffer.from(k.subarray(2)).toString('utf8'), decodeRecord(v));
      }
    }
    return this.last;
  }

  lastAccepted(): LastAccepted {
    if (!this.last) throw new Error('P-Chain state not initialized');
    return this.last;
  }

  async getUTXO(id: Uint8Array): Promise<UTXO | undefined> {
    return this.utxos.get(id);
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

  async getBlock(id: Uint8Array): Promise<Block | undefined> {
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

  /** Every subnet's validator set as of `height` (the last change at or below it). */
  async validatorSetsAt(height: bigint): Promise<ValidatorSets> {
    const [raw] = await this.db.values({ gte: key(P_VALIDATORS, u64(MAX_U64 - height)), lt: Uint8Array.of(P_VALIDATORS + 1), limit: 1 });
    return raw ? (decodeRecord(raw) as ValidatorSets) : {};
  }

  /** Writes a block's effects and its ledger draft in one atomic write with what `batch` holds. */
  async commit(effects: BlockEffects, batch = new WriteBatch()): Promise<void> {
    const db = this.db;
    const seq = await this.utxos.write(batch, effects.spent, effects.created, this.nextSeq);
    for (const tx of effects.txs) batch.put(db, key(P_TX, tx.id), tx.bytes);
    for (const change of this.ledger.changes(effects.ledger)) {
      if (change.value === undefined) batch.del(db, recordKey(change.kind, change.key));
      else batch.put(db, recordKey(change.kind, change.key), encodeRecord(change.value));
    }
    const { block } = effects;
    if (block.height === 0n || this.ledger.changes(effects.ledger).some((c) => c.kind === 'stakers' || c.kind === 'l1Validators')) {
      batch.put(db, key(P_VALIDATORS, u64(MAX_U64 - block.height)), encodeRecord(validatorSets(effects.ledger)));
    }
    batch.put(db, key(P_BLOCK, block.id), block.bytes);
    batch.put(db, key(P_HEIGHT, u64(block.height)), block.id);
    batch.put(db, LAST_KEY, Buffer.concat([block.id, u64(block.height), u64(seq)]));
    await db.write(batch);
    this.nextSeq = seq;
    this.ledger.adopt(effects.ledger);
    this.last = { id: block.id, height: block.height };
  }
}

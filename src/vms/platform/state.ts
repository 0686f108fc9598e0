// The P-Chain's persistent state in its own database: UTXOs with a per-address index, accepted txs,
// blocks by ID and height, the last accepted block, and the ledger's records. A block's effects
// are written in one atomic batch with what the other layers put there for the block (shared
// memory, proposervm, the index), so a crash never leaves half a block applied.
//
// Layout: the one every UTXO chain shares (components/avax chainstate, prefixes 0x10-0x15, the
// last-accepted record blockID ‖ u64 height ‖ u64 next seq), then
//   0x16 kind ‖ key             -> ledger record (JSON)
//   0x17 u64 (~height)          -> every subnet's validator set from that height on (JSON), when it changed
import { u64 } from '../../encoding/bytes.js';
import { ChainState } from '../components/avax/chainstate.js';
import { type Database, WriteBatch } from '../../storage/db.js';
import { marshalUTXO, parseBlock, parseTx, parseUTXO } from './codec/index.js';
import { decodeRecord, encodeRecord, type Kind, KINDS, Ledger, type LedgerMaps } from './ledger.js';
import type { Block, Output, SignedTx, UTXO } from './types.js';
import { type ValidatorSets, validatorSets } from './validators.js';
import { utxoInputID } from './utxos.js';

const P_RECORD = 0x16;
const P_VALIDATORS = 0x17;
const MAX_U64 = 0xffffffffffffffffn;

const validatorsKey = (height: bigint) => Buffer.concat([Uint8Array.of(P_VALIDATORS), u64(MAX_U64 - height)]);
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

export class PState extends ChainState<SignedTx, Block, UTXO> {
  readonly ledger = new Ledger();
  private last: LastAccepted | undefined;

  constructor(db: Database) {
    super(db, {
      parseTx,
      parseBlock,
      utxo: { parse: parseUTXO, marshal: marshalUTXO, addresses: (u) => ownersOfOutput(u.output).addresses, id: (u) => utxoInputID(u.utxoID) },
    });
  }

  async load(): Promise<LastAccepted | undefined> {
    const b = await this.loadLast();
    if (!b) return undefined;
    this.last = { id: b.subarray(0, 32), height: b.readBigUInt64BE(32) };
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

  /** Every subnet's validator set as of `height` (the last change at or below it). */
  async validatorSetsAt(height: bigint): Promise<ValidatorSets> {
    const [raw] = await this.db.values({ gte: validatorsKey(height), lt: Uint8Array.of(P_VALIDATORS + 1), limit: 1 });
    return raw ? (decodeRecord(raw) as ValidatorSets) : {};
  }

  /** Writes a block's effects and its ledger draft in one atomic write with what `batch` holds. */
  async commit(effects: BlockEffects, batch = new WriteBatch()): Promise<void> {
    const db = this.db;
    const seq = await this.writeAccepted(batch, effects, effects.txs);
    for (const change of this.ledger.changes(effects.ledger)) {
      if (change.value === undefined) batch.del(db, recordKey(change.kind, change.key));
      else batch.put(db, recordKey(change.kind, change.key), encodeRecord(change.value));
    }
    const { block } = effects;
    if (block.height === 0n || this.ledger.changes(effects.ledger).some((c) => c.kind === 'stakers' || c.kind === 'l1Validators')) {
      batch.put(db, validatorsKey(block.height), encodeRecord(validatorSets(effects.ledger)));
    }
    await db.write(batch);
    this.nextSeq = seq;
    this.ledger.adopt(effects.ledger);
    this.last = { id: block.id, height: block.height };
  }
}

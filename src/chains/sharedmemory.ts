// Shared memory between the primary network's chains (avalanchego chains/atomic): a chain's
// ExportTx puts UTXOs into the destination chain's inbound store for that source, indexed by the
// outputs' addresses ("traits"); the destination's ImportTx removes them. Writes go into the
// exporting or importing block's own batch, so they commit with it.
//
// Layout, in shared memory's own database (prefix 0x20 values, 0x21 index), per (destination, source) pair:
//   0x20 dest ‖ src ‖ utxoID                 -> u64 seq ‖ u32 nTraits ‖ traits(20 B each) ‖ UTXO bytes
//   0x21 dest ‖ src ‖ trait ‖ u64 (~seq)     -> utxoID   (newest first)
import type { Database, WriteBatch } from '../storage/db.js';
import { u32, u64 } from '../encoding/bytes.js';

const P_VALUE = 0x20;
const P_INDEX = 0x21;
const MAX_U64 = 0xffffffffffffffffn;
const key = (prefix: number, ...parts: Uint8Array[]) => Buffer.concat([Uint8Array.of(prefix), ...parts]);

export interface AtomicElement {
  utxoID: Uint8Array;
  utxoBytes: Uint8Array;
  traits: Uint8Array[];
}

interface Stored {
  seq: bigint;
  traits: Uint8Array[];
  utxoBytes: Uint8Array;
}

function decode(raw: Uint8Array): Stored {
  const b = Buffer.from(raw);
  const n = b.readUInt32BE(8);
  const traits: Uint8Array[] = [];
  for (let i = 0; i < n; i++) traits.push(b.subarray(12 + 20 * i, 32 + 20 * i));
  return { seq: b.readBigUInt64BE(0), traits, utxoBytes: b.subarray(12 + 20 * n) };
}

export class SharedMemory {
  constructor(private readonly db: Database) {}

  /** Adds UTXOs exported to `dest` by `src` to `batch`; `seq` orders them (newest first in the index). */
  put(batch: WriteBatch, dest: Uint8Array, src: Uint8Array, elements: AtomicElement[], firstSeq: bigint): void {
    elements.forEach((e, i) => {
      const seq = firstSeq + BigInt(i);
      batch.put(this.db, key(P_VALUE, dest, src, e.utxoID), Buffer.concat([u64(seq), u32(e.traits.length), ...e.traits, e.utxoBytes]));
      for (const t of e.traits) batch.put(this.db, key(P_INDEX, dest, src, t, u64(MAX_U64 - seq)), e.utxoID);
    });
  }

  /** Adds the removal of UTXOs `dest` imported from `src` to `batch`. */
  async remove(batch: WriteBatch, dest: Uint8Array, src: Uint8Array, utxoIDs: Uint8Array[]): Promise<void> {
    for (const id of utxoIDs) {
      const raw = await this.db.get(key(P_VALUE, dest, src, id));
      if (!raw) continue;
      const { seq, traits } = decode(raw);
      batch.del(this.db, key(P_VALUE, dest, src, id));
      for (const t of traits) batch.del(this.db, key(P_INDEX, dest, src, t, u64(MAX_U64 - seq)));
    }
  }

  async get(dest: Uint8Array, src: Uint8Array, utxoID: Uint8Array): Promise<Uint8Array | undefined> {
    const raw = await this.db.get(key(P_VALUE, dest, src, utxoID));
    return raw ? decode(raw).utxoBytes : undefined;
  }

  /**
   * sharedMemory.Indexed: UTXOs of `dest` from `src` whose traits include the addresses. Unlike
   * the X-Chain's own index, the start UTXO is returned again and the cursor resets per address
   * (avalanchego's atomic pagination, kept as is).
   */
  async indexed(
    dest: Uint8Array,
    src: Uint8Array,
    traits: Uint8Array[],
    startTrait: Uint8Array,
    startKey: Uint8Array,
    limit: number,
  ): Promise<{ values: Uint8Array[]; lastTrait: Uint8Array; lastKey: Uint8Array }> {
    const values: Uint8Array[] = [];
    const seen = new Set<string>();
    let lastTrait = startTrait;
    let lastKey = startKey;
    for (const trait of traits) {
      const cmp = Buffer.compare(Buffer.from(trait), Buffer.from(startTrait));
      if (cmp < 0) continue;
      lastTrait = trait;
      let from = key(P_INDEX, dest, src, trait);
      if (cmp === 0) {
        const raw = await this.db.get(key(P_VALUE, dest, src, startKey));
        if (raw) from = key(P_INDEX, dest, src, trait, u64(MAX_U64 - decode(raw).seq));
      }
      lastKey = new Uint8Array(32);
      const end = key(P_INDEX, dest, src, trait, Buffer.alloc(8, 0xff), Uint8Array.of(0xff));
      for (const id of await this.db.values({ gte: from, lt: end, limit: limit - values.length })) {
        lastKey = id;
        const hex = Buffer.from(id).toString('hex');
        if (seen.has(hex)) continue;
        seen.add(hex);
        const raw = await this.db.get(key(P_VALUE, dest, src, id));
        if (raw) values.push(decode(raw).utxoBytes);
        if (values.length >= limit) return { values, lastTrait, lastKey };
      }
    }
    return { values, lastTrait, lastKey };
  }
}

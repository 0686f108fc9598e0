// A chain's UTXO set with its per-address index (avalanchego vms/components/avax utxo_state.go) and
// the paginated read over several addresses (GetPaginatedUTXOs), for every VM that keeps UTXOs.
//
// Layout, within the chain's own database:
//   utxo prefix ‖ utxoID              -> u64 seq ‖ UTXO bytes   (seq orders the address index)
//   addr prefix ‖ addr20 ‖ u64 (~seq) -> utxoID                 (newest first, like avalanchego's linked lists)
import { u64 } from '../../../encoding/bytes.js';
import type { Database, WriteBatch } from '../../../storage/db.js';

const MAX_U64 = 0xffffffffffffffffn;

/** How a VM's UTXO type reads, writes and names itself. */
export interface UTXOCodec<U> {
  parse(bytes: Uint8Array): U;
  marshal(utxo: U): Uint8Array;
  /** The addresses that own it (its index entries). */
  addresses(utxo: U): Uint8Array[];
  /** Its input ID. */
  id(utxo: U): Uint8Array;
}

export class UTXOState<U> {
  constructor(
    private readonly db: Database,
    private readonly codec: UTXOCodec<U>,
    private readonly prefixes: { utxo: number; addr: number },
  ) {}

  private key(prefix: number, ...parts: Uint8Array[]): Buffer {
    return Buffer.concat([Uint8Array.of(prefix), ...parts]);
  }

  async get(id: Uint8Array): Promise<U | undefined> {
    const raw = await this.db.get(this.key(this.prefixes.utxo, id));
    return raw ? this.codec.parse(raw.subarray(8)) : undefined;
  }

  /** Several UTXOs in one read of the store, in the order asked. */
  async getMany(ids: Uint8Array[]): Promise<Array<U | undefined>> {
    const raws = await this.db.getMany(ids.map((id) => this.key(this.prefixes.utxo, id)));
    return raws.map((raw) => (raw ? this.codec.parse(raw.subarray(8)) : undefined));
  }

  /**
   * utxoState.UTXOIDs: up to `limit` UTXO IDs of `address`, newest first. With `start` present in
   * the address's list, iteration begins after it; otherwise from the head (avalanchego's linked list).
   */
  async ids(address: Uint8Array, start: Uint8Array | undefined, limit: number): Promise<Uint8Array[]> {
    const { utxo, addr } = this.prefixes;
    let from = this.key(addr, address);
    if (start) {
      const raw = await this.db.get(this.key(utxo, start));
      if (raw && this.codec.addresses(this.codec.parse(raw.subarray(8))).some((a) => Buffer.from(a).equals(address))) {
        from = this.key(addr, address, u64(MAX_U64 - Buffer.from(raw).readBigUInt64BE(0)));
      }
    }
    const end = this.key(addr, address, Buffer.alloc(8, 0xff), Uint8Array.of(0xff));
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

  /** Adds to `batch` the removal of `spent` (with their index entries) and `created`, numbered from `seq`; returns the next seq. */
  async write(batch: WriteBatch, spent: Uint8Array[], created: U[], seq: bigint): Promise<bigint> {
    const { db, codec } = this;
    const { utxo, addr } = this.prefixes;
    const raws = await db.getMany(spent.map((id) => this.key(utxo, id)));
    for (const [i, id] of spent.entries()) {
      const raw = raws[i];
      if (!raw) continue;
      const at = Buffer.from(raw).readBigUInt64BE(0);
      batch.del(db, this.key(utxo, id));
      for (const a of codec.addresses(codec.parse(raw.subarray(8)))) batch.del(db, this.key(addr, a, u64(MAX_U64 - at)));
    }
    let next = seq;
    for (const u of created) {
      const id = codec.id(u);
      batch.put(db, this.key(utxo, id), Buffer.concat([u64(next), codec.marshal(u)]));
      for (const a of codec.addresses(u)) batch.put(db, this.key(addr, a, u64(MAX_U64 - next)), id);
      next++;
    }
    return next;
  }
}

export interface Page<U> {
  utxos: U[];
  endAddr: Uint8Array;
  endUTXO: Uint8Array;
}

/** avax.GetPaginatedUTXOs: the UTXOs of `addrs` (sorted), from the start index on, at most `limit`. */
export async function paginatedUTXOs<U>(
  state: UTXOState<U>,
  addrs: Uint8Array[],
  startAddr: Uint8Array,
  startUTXO: Uint8Array,
  limit: number,
): Promise<Page<U>> {
  const utxos: U[] = [];
  const seen = new Set<string>();
  let endAddr = startAddr;
  let endUTXO = startUTXO;
  let remaining = limit;
  for (const addr of addrs) {
    const cmp = Buffer.compare(Buffer.from(addr), Buffer.from(startAddr));
    if (cmp < 0) continue;
    endAddr = addr;
    // avalanchego searches each address with the original limit, not what is left of it.
    const ids = await state.ids(addr, cmp === 0 ? startUTXO : undefined, limit);
    const found = await state.getMany(ids);
    for (const [i, id] of ids.entries()) {
      endUTXO = id;
      const key = Buffer.from(id).toString('hex');
      if (seen.has(key)) continue;
      const utxo = found[i];
      if (!utxo) continue;
      utxos.push(utxo);
      seen.add(key);
      if (--remaining <= 0) return { utxos, endAddr, endUTXO };
    }
  }
  return { utxos, endAddr, endUTXO };
}

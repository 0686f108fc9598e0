// Reads of one database that see what a batch holds for it before the batch is written: an index
// kept by read-modify-write (the Metrics API's buckets) can take several blocks into one write.
import type { Bytes, Database, WriteBatch } from './db.js';
import { toHex } from '../encoding/bytes.js';

export class PendingView {
  private readonly puts = new Map<string, Bytes>();

  constructor(
    readonly db: Database,
    private readonly batch: WriteBatch,
  ) {}

  put(key: Bytes, value: Bytes): void {
    this.puts.set(toHex(key), value);
    this.batch.put(this.db, key, value);
  }

  async get(key: Bytes): Promise<Bytes | undefined> {
    return this.puts.get(toHex(key)) ?? (await this.db.get(key));
  }

  async getMany(keys: Bytes[]): Promise<Array<Bytes | undefined>> {
    const missing = keys.filter((k) => !this.puts.has(toHex(k)));
    const found = missing.length > 0 ? await this.db.getMany(missing) : [];
    let next = 0;
    return keys.map((k) => this.puts.get(toHex(k)) ?? found[next++]);
  }
}

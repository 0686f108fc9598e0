// The upstream's eth_getLogs answers over a fork's history, kept in the fork cache: history below the
// fork block never changes, so the same filter over the same blocks has the same answer, and a
// repeated query (a test suite's, run after run) neither asks the upstream again nor fails when it
// is down, after a restart too (--offline included). Anvil keeps such answers in memory, per filter.
// Bounded: at most MAX_ANSWERS answers of at most MAX_ANSWER_BYTES each; past that the oldest goes.
import { keccak256 } from '../../../crypto/keccak.js';
import { type Database, WriteBatch } from '../../../storage/db.js';

/** An answer kept at most this big (its JSON); a bigger one is answered and not kept. */
const MAX_ANSWER_BYTES = 512 * 1024;
/** Answers kept at most (with MAX_ANSWER_BYTES: 128 MiB at worst). */
const MAX_ANSWERS = 256;

const seqKey = (seq: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(seq);
  return b;
};

export class LogAnswers {
  /** The answer's JSON by the filter's hash. */
  private readonly answers: Database;
  /** The filter's hash by the order it was kept in (oldest first). */
  private readonly order: Database;
  /** The kept answers' order keys, oldest first: read from the cache once. */
  private kept: Promise<Array<{ seq: bigint; filter: Uint8Array }>> | undefined;

  constructor(cache: Database) {
    this.answers = cache.prefix('log-answers');
    this.order = cache.prefix('log-answers-order');
  }

  /** The kept answer to `filter` (the upstream's JSON reply), if any. */
  async get(filter: string): Promise<string | undefined> {
    const found = await this.answers.get(keccak256(Buffer.from(filter)));
    return found ? Buffer.from(found).toString('utf8') : undefined;
  }

  /** Keeps `answer` to `filter`, making room by dropping the oldest answers. */
  async keep(filter: string, answer: string): Promise<void> {
    if (Buffer.byteLength(answer) > MAX_ANSWER_BYTES) return;
    const kept = await this.keptOrder();
    const id = keccak256(Buffer.from(filter));
    const seq = (kept.at(-1)?.seq ?? 0n) + 1n;
    const batch = new WriteBatch().put(this.answers, id, Buffer.from(answer)).put(this.order, seqKey(seq), id);
    kept.push({ seq, filter: id });
    while (kept.length > MAX_ANSWERS) {
      const oldest = kept.shift()!;
      batch.del(this.order, seqKey(oldest.seq));
      // The same filter kept again since is in the order twice: its answer stays for the later entry.
      if (!kept.some((k) => Buffer.compare(k.filter, oldest.filter) === 0)) batch.del(this.answers, oldest.filter);
    }
    await this.answers.write(batch);
  }

  private keptOrder(): Promise<Array<{ seq: bigint; filter: Uint8Array }>> {
    this.kept ??= this.order.entries({}).then((entries) => entries.map(([k, v]) => ({ seq: Buffer.from(k).readBigUInt64BE(0), filter: v })));
    return this.kept;
  }
}

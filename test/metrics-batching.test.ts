// The Data API follower indexes the blocks of one run in one write (a backfill, a steady stream of
// blocks), and the Metrics API's buckets are kept by read-modify-write: each block must see what the
// blocks before it in the same write added. The same activity indexed a write per block and all in
// one write, by a follower that keeps its memory or one restarted now and then, must leave the very same index.
import { describe, expect, it } from 'vitest';
import { type BlockActivity, indexMetrics, MetricsMemory } from '../src/data/metrics/index.js';
import { openDatabase, WriteBatch } from '../src/storage/db.js';
import { PendingView } from '../src/storage/pending.js';

const HOUR_MS = 3_600_000;
const who = (n: number) => n.toString(16).padStart(40, '0');

/** Blocks across two days, some in the same hour, with repeated and new addresses, senders and deployers. */
function activity(): BlockActivity[] {
  const out: BlockActivity[] = [];
  let t = Date.UTC(2026, 10, 20, 23, 0, 0);
  for (let i = 0; i < 40; i++) {
    const parentMs = i === 0 ? undefined : t;
    t += i % 7 === 0 ? HOUR_MS / 2 : 1500;
    const senders = new Set([who(1 + (i % 3))]);
    const addresses = new Set([...senders, who(100 + (i % 11)), who(200 + i)]);
    out.push({
      timeMs: t,
      parentMs,
      txs: Array.from({ length: 1 + (i % 4) }, (_, k) => ({ gasUsed: 21_000n + BigInt(k * 1000), price: 25n + BigInt(i) })),
      addresses,
      senders,
      creations: i % 5 === 0 ? [who(1 + (i % 2))] : [],
    });
  }
  return out;
}

describe('the Metrics API index', () => {
  it('is the same whether each block is its own write or every block shares one', async () => {
    const blocks = activity();
    // Each block its own write, and a follower started afresh (its memory empty) every 7 blocks.
    const apart = await openDatabase('memdb', '');
    let memory = new MetricsMemory();
    for (const [i, b] of blocks.entries()) {
      if (i % 7 === 6) memory = new MetricsMemory();
      const batch = new WriteBatch();
      await indexMetrics(new PendingView(apart, batch), memory, b);
      await apart.write(batch);
    }
    const together = await openDatabase('memdb', '');
    const batch = new WriteBatch();
    const view = new PendingView(together, batch);
    const shared = new MetricsMemory();
    for (const b of blocks) await indexMetrics(view, shared, b);
    await together.write(batch);
    const all = { gte: new Uint8Array(), lt: new Uint8Array(64).fill(255) };
    const entries = await apart.entries(all);
    expect(entries.length).toBeGreaterThan(100);
    expect(await together.entries(all)).toEqual(entries);
    await apart.close();
    await together.close();
  });
});

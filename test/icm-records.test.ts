// The relayer's memory stays bounded however many messages wait: LiveRecords holds the sent ones
// and a window of the oldest queued ones, reads the rest in from the store's queued index as room
// frees up, and lists the newest records first from the order index.
import { describe, expect, it } from 'vitest';
import { LiveRecords } from '../src/relayer/live.js';
import { type MessageRecord, RelayerStore } from '../src/relayer/records.js';
import { openDatabase } from '../src/storage/db.js';

const record = (seq: number, state: MessageRecord['state'] = 'queued'): MessageRecord => ({
  id: `0x${seq.toString(16).padStart(64, '0')}`,
  seq,
  source: 'S',
  destination: state === 'unroutable' ? 'Elsewhere' : 'D',
  unsigned: '0x',
  warpID: 'W',
  nonce: String(seq),
  sourceHeight: '1',
  sourceTx: '0x',
  state,
  attempts: 0,
  ...(state === 'sent' ? { txHash: `0x${(1000 + seq).toString(16).padStart(64, '0')}` } : {}),
});

describe('the relayer records in memory', () => {
  it('holds a window of the oldest queued messages and the sent ones, reading the rest in as they are delivered', async () => {
    const store = new RelayerStore((await openDatabase('memdb', '')).prefix('relayer'));
    const batch = store.batch();
    for (let seq = 0; seq < 20; seq++) batch.put(record(seq, seq === 3 ? 'sent' : seq === 5 ? 'unroutable' : 'queued'));
    await batch.write();
    const live = new LiveRecords(store, 4);
    await live.load();
    expect(live.nextSeq).toBe(20);
    expect(live.queued().map((r) => r.seq)).toEqual([0, 1, 2, 4]);
    expect(live.sent().map((r) => r.seq)).toEqual([3]);
    expect(live.sentTxs.size).toBe(1);
    // A new message past a full window waits in the store.
    const later = record(20);
    live.note(later);
    await store.batch().put(later).write();
    expect(live.get(later.id)).toBeUndefined();
    // Three delivered: the window is under half full and reads the next ones in, in order.
    for (const seq of [0, 1, 2]) {
      const done = { ...live.get(record(seq).id)!, state: 'delivered' as const };
      live.note(done);
      await store.batch().put(done).write();
    }
    await live.refill();
    expect(live.queued().map((r) => r.seq)).toEqual([4, 6, 7, 8]);
    expect(live.get(record(0).id)).toBeUndefined();
    // Listing reads newest first, and the unroutable ones are found by destination.
    expect((await store.newest(() => true, 3)).map((r) => r.seq)).toEqual([20, 19, 18]);
    expect((await store.newest((r) => r.state === 'delivered', 10)).map((r) => r.seq)).toEqual([2, 1, 0]);
    expect((await store.unroutable('Elsewhere')).map((r) => r.seq)).toEqual([5]);
  });
});

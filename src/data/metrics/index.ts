// The Metrics API's index of one EVM chain, kept by the chain's Data API follower in each block's
// write: per bucket of each interval, the sums and maxima the metrics are made of, and the sets
// behind the distinct counts (active addresses and senders per bucket, deployers per day, and the
// first day each address and deployer was seen, for the cumulative counts).
import type { Bytes } from '../../storage/db.js';
import type { PendingView } from '../../storage/pending.js';
import { bucketOf, INTERVAL_CODE, INTERVALS, type Interval } from './buckets.js';
import { toHex } from '../../encoding/bytes.js';

/** A bucket's aggregates (bigints as decimal strings). */
export interface Bucket {
  txCount: number;
  gasUsed: string;
  fees: string;
  /** Sum and maximum of the txs' gas prices (receipts' effective prices). */
  priceSum: string;
  priceMax: string;
  activeAddresses: number;
  activeSenders: number;
  contracts: number;
  deployers: number;
  /** Addresses and deployers seen for the first time (day buckets: the cumulative counts). */
  newAddresses: number;
  newDeployers: number;
  /** Per-block maxima of txs and gas per second (a block's over the time since its parent). */
  maxTps: number;
  maxGps: number;
  /** The time of the bucket's last block (ms), for the day's averages. */
  lastBlockMs: number;
}

const empty = (): Bucket => ({
  txCount: 0,
  gasUsed: '0',
  fees: '0',
  priceSum: '0',
  priceMax: '0',
  activeAddresses: 0,
  activeSenders: 0,
  contracts: 0,
  deployers: 0,
  newAddresses: 0,
  newDeployers: 0,
  maxTps: 0,
  maxGps: 0,
  lastBlockMs: 0,
});

const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
/** B ‖ interval ‖ bucket: a bucket's aggregates. */
export const BUCKET = 0x42;
export const bucketKey = (interval: Interval, t: number) => Buffer.concat([Uint8Array.of(BUCKET, INTERVAL_CODE[interval]), u64(t)]);
export const bucketRange = (interval: Interval) => ({
  gte: bucketKey(interval, 0),
  lt: Buffer.concat([Uint8Array.of(BUCKET, INTERVAL_CODE[interval]), Buffer.alloc(8, 0xff)]),
});
const member = (set: number, interval: Interval, t: number, who: string) =>
  Buffer.concat([Uint8Array.of(set, INTERVAL_CODE[interval]), u64(t), Buffer.from(who, 'hex')]);
const ADDRESS = 0x41;
const SENDER = 0x53;
const DEPLOYER = 0x44;
const FIRST_ADDRESS = 0x46;
const FIRST_DEPLOYER = 0x47;

export function decodeBucket(v: Uint8Array | undefined): Bucket {
  return v ? { ...empty(), ...(JSON.parse(Buffer.from(v).toString('utf8')) as Bucket) } : empty();
}

/** What one block adds to the metrics. */
export interface BlockActivity {
  timeMs: number;
  /** The parent's time (ms), for the block's rates; undefined for the first block. */
  parentMs: number | undefined;
  txs: Array<{ gasUsed: bigint; price: bigint }>;
  /** Addresses in tx from/to and token transfers (hex, no 0x), and the senders among them. */
  addresses: Set<string>;
  senders: Set<string>;
  /** The from of each CREATE/CREATE2 that made a contract (hex, no 0x), one entry per contract. */
  creations: string[];
}

const big = (s: string) => BigInt(s);
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/** Adds `block` to the metrics index, reading and writing through the pending view of its write. */
export async function indexMetrics(db: PendingView, memory: MetricsMemory, block: BlockActivity): Promise<void> {
  const t = Math.floor(block.timeMs / 1000);
  const gas = block.txs.reduce((s, x) => s + x.gasUsed, 0n);
  const fees = block.txs.reduce((s, x) => s + x.gasUsed * x.price, 0n);
  const priceSum = block.txs.reduce((s, x) => s + x.price, 0n);
  const priceMax = block.txs.reduce((m, x) => max(m, x.price), 0n);
  const seconds = block.parentMs === undefined ? 0 : (block.timeMs - block.parentMs) / 1000;
  const deployers = new Set(block.creations);
  // First sightings across the chain's history (the cumulative counts).
  const firstAddresses = await memory.unseen(
    db,
    [...block.addresses].map((a) => Buffer.concat([Uint8Array.of(FIRST_ADDRESS), Buffer.from(a, 'hex')])),
  );
  const firstDeployers = await memory.unseen(
    db,
    [...deployers].map((a) => Buffer.concat([Uint8Array.of(FIRST_DEPLOYER), Buffer.from(a, 'hex')])),
  );
  for (const k of [...firstAddresses, ...firstDeployers]) db.put(k, new Uint8Array());
  for (const interval of INTERVALS) {
    const b = bucketOf(t, interval);
    const key = bucketKey(interval, b);
    const rec = decodeBucket(await db.get(key));
    rec.txCount += block.txs.length;
    rec.gasUsed = String(big(rec.gasUsed) + gas);
    rec.fees = String(big(rec.fees) + fees);
    rec.priceSum = String(big(rec.priceSum) + priceSum);
    rec.priceMax = String(max(big(rec.priceMax), priceMax));
    const newAddresses = await memory.newMembers(db, ADDRESS, interval, b, block.addresses);
    const newSenders = await memory.newMembers(db, SENDER, interval, b, block.senders);
    for (const k of [...newAddresses, ...newSenders]) db.put(k, new Uint8Array());
    rec.activeAddresses += newAddresses.length;
    rec.activeSenders += newSenders.length;
    if (interval === 'day') {
      const newDeployers = await memory.newMembers(db, DEPLOYER, interval, b, deployers);
      for (const k of newDeployers) db.put(k, new Uint8Array());
      rec.deployers += newDeployers.length;
      rec.contracts += block.creations.length;
      rec.newAddresses += firstAddresses.length;
      rec.newDeployers += firstDeployers.length;
    }
    if (seconds > 0) {
      rec.maxTps = Math.max(rec.maxTps, block.txs.length / seconds);
      rec.maxGps = Math.max(rec.maxGps, Number(gas) / seconds);
    }
    rec.lastBlockMs = Math.max(rec.lastBlockMs, block.timeMs);
    db.put(key, new TextEncoder().encode(JSON.stringify(rec)));
  }
}

/** The keys of `keys` that are not in `db` yet. */
/** First sightings remembered (keys, not bytes): the addresses of a busy chain come back again and again. */
const SEEN_ENTRIES = 200_000;

/**
 * What a chain's follower keeps between blocks so that a block's distinct counts cost no random
 * reads of the store: the members of each interval's current bucket (blocks come in time order, so
 * a bucket is done once the next one starts), loaded by one range read when a bucket is first
 * met, and a bounded cache of the addresses and deployers already seen. The follower is the only
 * writer of these keys, so neither goes stale; after a write that failed it starts afresh (reset).
 */
export class MetricsMemory {
  private readonly current = new Map<string, { t: number; members: Set<string> }>();
  private readonly seen = new Map<string, true>();

  /** The keys of `keys` never seen before; from now on they count as seen (their puts are the caller's). */
  async unseen(db: PendingView, keys: Bytes[]): Promise<Bytes[]> {
    const ask = keys.filter((k) => !this.seen.has(toHex(k)));
    if (ask.length === 0) return [];
    const found = await db.getMany(ask);
    for (const k of ask) this.remember(toHex(k));
    return ask.filter((_, i) => found[i] === undefined);
  }

  /** The member keys (set, interval, bucket t) of `who` not yet in the bucket, now added to it. */
  async newMembers(db: PendingView, set: number, interval: Interval, t: number, who: Iterable<string>): Promise<Bytes[]> {
    const members = await this.bucketMembers(db, set, interval, t);
    const out: Bytes[] = [];
    for (const w of who) {
      if (members.has(w)) continue;
      members.add(w);
      out.push(member(set, interval, t, w));
    }
    return out;
  }

  reset(): void {
    this.current.clear();
    this.seen.clear();
  }

  private async bucketMembers(db: PendingView, set: number, interval: Interval, t: number): Promise<Set<string>> {
    const slot = `${set}:${interval}`;
    const cached = this.current.get(slot);
    if (cached?.t === t) return cached.members;
    // A bucket met for the first time in this process: what the store holds of it (after a restart,
    // the bucket under way). Its members are the keys after (set, interval, t).
    const prefix = member(set, interval, t, '');
    const entries = await db.db.entries({ gte: prefix, lt: member(set, interval, t + 1, '') });
    const members = new Set(entries.map(([k]) => Buffer.from(k.subarray(prefix.length)).toString('hex')));
    this.current.set(slot, { t, members });
    return members;
  }

  private remember(hex: string): void {
    if (this.seen.size >= SEEN_ENTRIES) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(hex, true);
  }
}

// The Metrics API's index of one EVM chain, kept by the chain's Data API follower in each block's
// write: per bucket of each interval, the sums and maxima the metrics are made of, and the sets
// behind the distinct counts (active addresses and senders per bucket, deployers per day, and the
// first day each address and deployer was seen, for the cumulative counts).
import type { Database, WriteBatch } from '../../storage/db.js';
import { bucketOf, INTERVAL_CODE, INTERVALS, type Interval } from './buckets.js';

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

/** Adds `block` to the metrics index of `db`, in `batch`. */
export async function indexMetrics(db: Database, batch: WriteBatch, block: BlockActivity): Promise<void> {
  const t = Math.floor(block.timeMs / 1000);
  const gas = block.txs.reduce((s, x) => s + x.gasUsed, 0n);
  const fees = block.txs.reduce((s, x) => s + x.gasUsed * x.price, 0n);
  const priceSum = block.txs.reduce((s, x) => s + x.price, 0n);
  const priceMax = block.txs.reduce((m, x) => max(m, x.price), 0n);
  const seconds = block.parentMs === undefined ? 0 : (block.timeMs - block.parentMs) / 1000;
  const deployers = new Set(block.creations);
  // First sightings across the chain's history (the cumulative counts).
  const firstAddresses = await unseen(
    db,
    [...block.addresses].map((a) => Buffer.concat([Uint8Array.of(FIRST_ADDRESS), Buffer.from(a, 'hex')])),
  );
  const firstDeployers = await unseen(
    db,
    [...deployers].map((a) => Buffer.concat([Uint8Array.of(FIRST_DEPLOYER), Buffer.from(a, 'hex')])),
  );
  for (const k of [...firstAddresses, ...firstDeployers]) batch.put(db, k, new Uint8Array());
  for (const interval of INTERVALS) {
    const b = bucketOf(t, interval);
    const key = bucketKey(interval, b);
    const rec = decodeBucket(await db.get(key));
    rec.txCount += block.txs.length;
    rec.gasUsed = String(big(rec.gasUsed) + gas);
    rec.fees = String(big(rec.fees) + fees);
    rec.priceSum = String(big(rec.priceSum) + priceSum);
    rec.priceMax = String(max(big(rec.priceMax), priceMax));
    const newAddresses = await unseen(
      db,
      [...block.addresses].map((a) => member(ADDRESS, interval, b, a)),
    );
    const newSenders = await unseen(
      db,
      [...block.senders].map((a) => member(SENDER, interval, b, a)),
    );
    for (const k of [...newAddresses, ...newSenders]) batch.put(db, k, new Uint8Array());
    rec.activeAddresses += newAddresses.length;
    rec.activeSenders += newSenders.length;
    if (interval === 'day') {
      const newDeployers = await unseen(
        db,
        [...deployers].map((a) => member(DEPLOYER, interval, b, a)),
      );
      for (const k of newDeployers) batch.put(db, k, new Uint8Array());
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
    batch.put(db, key, new TextEncoder().encode(JSON.stringify(rec)));
  }
}

/** The keys of `keys` that are not in `db` yet. */
async function unseen(db: Database, keys: Uint8Array[]): Promise<Uint8Array[]> {
  if (keys.length === 0) return [];
  const found = await db.getMany(keys);
  return keys.filter((_, i) => found[i] === undefined);
}

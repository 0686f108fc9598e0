// The Data API's follower of one EVM chain: after each accepted block, it indexes what the
// endpoints query by: each address's part in each tx (sender, recipient, token transfer party,
// internal transaction party, created contract), failed txs, internal transactions (from the
// callTracer's frames) and how contracts were deployed. It keeps a cursor: it resumes after a
// restart and backfills a chain that ran without it. The entries of the blocks it takes in one run
// (up to BLOCKS_PER_WRITE) and the cursor are one write. Woken by each accepted block, it starts once
// blocks have stopped coming for a moment (FOLLOW_QUIET_MS), or at the latest FOLLOW_MAX_DELAY_MS
// after the first block it waits for: under a steady stream of blocks (a client sending tx after tx)
// one run and few writes cover many blocks, indexed one at a time between the requests; a query
// that must see the head (settled) starts it at once.
import { knownKeccak } from '../../crypto/keccak.js';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Logger } from '../../logging/logger.js';
import { type Database, WriteBatch, writtenAt } from '../../storage/db.js';
import type { Changes } from '../../storage/undo.js';
import { PendingView } from '../../storage/pending.js';
import { icmOps } from './icm.js';
import { type BlockActivity, indexMetrics, MetricsMemory } from '../metrics/index.js';
import { type AcceptedEvmBlock, blockTxs, type CallFrameJson, callTraces, type EvmChain, type InternalTx, type TxRecord } from '../../vms/evm/index.js';
import { CURSOR, deployedKey, failedKey, internalKey, partyKey } from './keys.js';
import { fromHex0x as bytes, toHex0x as hex, toHex as hashKey } from '../../encoding/bytes.js';

/** Blocks accepted and not yet indexed that the follower keeps, at most. */
const KEPT_BLOCKS = 1024;

const topic = (signature: string, digestHex: string) => Buffer.from(knownKeccak(signature, digestHex)).toString('hex');
export const TRANSFER = topic('Transfer(address,address,uint256)', 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
export const TRANSFER_SINGLE = topic(
  'TransferSingle(address,address,address,uint256,uint256)',
  'c3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62',
);
export const TRANSFER_BATCH = topic(
  'TransferBatch(address,address,address,uint256[],uint256[])',
  '4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb',
);

export type { InternalTx };

/** How a contract came to be. */
export interface Deployment {
  txHash: string;
  deployer: string;
  deployerContract?: string;
}

/** Blocks indexed in one write at most (a backfill of a long chain takes many writes). */
const BLOCKS_PER_WRITE = 64;
/**
 * How long after the last block the follower starts, unless a query needs it sooner: longer than a
 * sequential sender takes between its blocks (a send, its block, its receipt).
 */
const FOLLOW_QUIET_MS = 50;
/**
 * How long after the first block it waits for the follower starts at the latest, blocks still
 * coming. A run's fixed cost (the cursor, the write: about as much as indexing a block) is then paid
 * once per some dozen blocks of a sequential sender instead of once per one or two.
 */
const FOLLOW_MAX_DELAY_MS = 250;

const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

/** The token-transfer parties of a log: ERC-20/721 Transfer, ERC-1155 TransferSingle/TransferBatch. */
export function transferParties(topics: Uint8Array[]): Uint8Array[] {
  const t0 = topics[0] ? Buffer.from(topics[0]).toString('hex') : '';
  if (t0 === TRANSFER && topics.length >= 3) return [topics[1]!.subarray(12), topics[2]!.subarray(12)];
  if ((t0 === TRANSFER_SINGLE || t0 === TRANSFER_BATCH) && topics.length === 4) return [topics[2]!.subarray(12), topics[3]!.subarray(12)];
  return [];
}

/**
 * The internal transactions the hosted API lists: below the top-level call, CALL and CALLCODE
 * frames with a value, and CREATE/CREATE2 frames (with the created address as `to`).
 */
export function internalTxs(root: CallFrameJson): InternalTx[] {
  const out: InternalTx[] = [];
  const walk = (f: CallFrameJson, depth: number) => {
    const value = BigInt(f.value ?? '0x0');
    const counts = f.type === 'CREATE' || f.type === 'CREATE2' || ((f.type === 'CALL' || f.type === 'CALLCODE') && value > 0n);
    if (depth > 0 && counts && f.to) {
      out.push({
        from: f.from,
        to: f.to,
        type: f.type,
        value: value.toString(),
        isReverted: f.error !== undefined,
        gasUsed: BigInt(f.gasUsed).toString(),
        gasLimit: BigInt(f.gas).toString(),
      });
    }
    for (const c of f.calls ?? []) walk(c, depth + 1);
  };
  walk(root, 0);
  return out;
}

/** A tx that ran no code (a plain transfer to an account without code) has no internal transactions to trace. */
const ranCode = (tx: TypedTransaction, r: TxRecord) => !(tx.to !== undefined && tx.data.length === 0 && r.gasUsed === 21_000n);

export class EvmFollower {
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    /** This chain's indexes (data/evm/<blockchain ID>). */
    readonly db: Database,
    readonly chain: EvmChain,
    private readonly log: Logger,
    /** ICM messages, across every chain (data/icm). */
    private readonly icm: Database,
    private readonly blockchainID: string,
  ) {
    this.metrics = db.prefix('metrics');
    // The blocks accepted from now on come with their internal transactions, recorded as they ran.
    this.unfollow = chain.followBlocks((accepted) => this.received(accepted), { internalTxs: true });
  }

  private readonly unfollow: () => void;
  /** Blocks accepted since the follower began, by hash, until indexed (at most KEPT_BLOCKS: a follower further behind runs their txs again). */
  private readonly accepted = new Map<string, AcceptedEvmBlock>();

  private received(accepted: AcceptedEvmBlock): void {
    this.accepted.set(hashKey(accepted.block.hash), accepted);
    if (this.accepted.size > KEPT_BLOCKS) this.accepted.delete(this.accepted.keys().next().value!);
  }

  /** A block as it was accepted, once; undefined for one the follower did not see accepted (a backfill, a restart). */
  private take(hash: Uint8Array): AcceptedEvmBlock | undefined {
    const key = hashKey(hash);
    const found = this.accepted.get(key);
    this.accepted.delete(key);
    return found;
  }

  /** The Metrics API's index of this chain. */
  readonly metrics: Database;
  /** What its index keeps in memory between blocks. */
  private readonly metricsMemory = new MetricsMemory();

  /** The cursor as last written or read (undefined: read it), so that settling before each snapshot reads no store. */
  private cursorKnown: bigint | undefined;
  /** Counts forget's calls: a cursor read across one is not kept. */
  private forgotten = 0;

  /** The last height indexed (-1 before genesis' children). */
  async cursor(): Promise<bigint> {
    if (this.cursorKnown !== undefined) return this.cursorKnown;
    const forgotten = this.forgotten;
    const v = await this.db.get(CURSOR);
    // A fork's history up to its fork block is the upstream's: the Data API indexes the chain's own blocks.
    const at = v ? Buffer.from(v).readBigInt64BE() : (this.chain.forkedAt ?? 0n);
    // Read before a revert that came meanwhile (forget), it is not kept.
    if (forgotten === this.forgotten) this.cursorKnown = at;
    return at;
  }

  private delayed: NodeJS.Timeout | undefined;
  /** When the delayed run was first asked for (performance.now()). */
  private delayedSince = 0;

  /**
   * Indexes up to the chain's head: once blocks stop coming for FOLLOW_QUIET_MS (within
   * FOLLOW_MAX_DELAY_MS of the first), at once with `now`, or after the run under way.
   */
  wake(now = false): void {
    if (this.closed || this.held) return;
    if (!now && !this.running) {
      const t = performance.now();
      if (this.delayed) clearTimeout(this.delayed);
      else this.delayedSince = t;
      const delay = Math.max(0, Math.min(FOLLOW_QUIET_MS, this.delayedSince + FOLLOW_MAX_DELAY_MS - t));
      this.delayed = setTimeout(() => {
        this.delayed = undefined;
        this.wake(true);
      }, delay);
      return;
    }
    if (this.delayed) {
      clearTimeout(this.delayed);
      this.delayed = undefined;
    }
    if (this.running) {
      this.again = true;
      return;
    }
    this.again = false;
    this.running = (async () => {
      try {
        await this.catchUp();
        return true;
      } catch (err) {
        this.log.error('the Data API follower failed; it retries with the next block', { error: (err as Error).message });
        return false;
      }
    })().then((ok) => {
      this.running = undefined;
      // Blocks that came during the run: the next run waits for them to stop coming, as a first one does.
      if (ok && this.again) this.wake();
    });
  }

  /**
   * Waits for the follower to reach the head as it is now (queries that must see their own writes):
   * not for it to go idle, which under a steady load it may not do.
   */
  async settled(): Promise<void> {
    const target = this.chain.head.header.number;
    let woken: bigint | undefined;
    while (!this.closed) {
      const at = await this.cursor();
      if (at >= target) return;
      if (!this.running) {
        // A run that ended short of the target failed (and logged why): answer from what is indexed.
        if (woken === at) return;
        woken = at;
        this.wake(true);
      }
      await Promise.race([this.running ?? Promise.resolve(), new Promise((r) => setTimeout(r, 20))]);
    }
  }

  /** While the node goes back to a snapshot: no run starts, and the one under way stops after its current block. */
  private held = false;

  /** Stops following (see `held`) and resolves to what starts it again. */
  async hold(): Promise<() => void> {
    this.held = true;
    if (this.delayed) clearTimeout(this.delayed);
    this.delayed = undefined;
    while (this.running) await this.running;
    return () => {
      this.held = false;
      this.wake();
    };
  }

  /**
   * Forgets what the metrics index keeps in memory between blocks, and the blocks accepted and not
   * indexed (they went, or, below the restored head, are run again): the store went back to a snapshot.
   */
  forget(changes: Changes): void {
    this.forgotten++;
    this.metricsMemory.reset();
    this.accepted.clear();
    // The cursor as the rollback wrote it; one it left alone is as it was.
    const written = writtenAt(this.db, CURSOR, changes);
    if (written) this.cursorKnown = written.value ? Buffer.from(written.value).readBigInt64BE() : undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unfollow();
    if (this.delayed) clearTimeout(this.delayed);
    while (this.running) await this.running;
  }

  private async catchUp(): Promise<void> {
    let n = (await this.cursor()) + 1n;
    while (n <= this.chain.head.header.number && !this.closed && !this.held) {
      const batch = new WriteBatch();
      const metrics = new PendingView(this.metrics, batch);
      const last = this.chain.head.header.number;
      const from = n;
      try {
        for (let taken = 0; n <= last && taken < BLOCKS_PER_WRITE; n++, taken++) {
          // A block at a time: requests that arrive meanwhile are served between blocks.
          if (taken > 0) {
            await new Promise((r) => setImmediate(r));
            // A revert waits for this run: it writes the blocks done so far and stops.
            if (this.held) break;
          }
          await this.index(n, batch, metrics);
        }
        const cursor = Buffer.alloc(8);
        cursor.writeBigInt64BE(n - 1n);
        batch.put(this.db, CURSOR, cursor);
        await this.db.write(batch);
        this.cursorKnown = n - 1n;
      } catch (err) {
        // What the memory took from these blocks was not written: it starts again from the store.
        this.metricsMemory.reset();
        n = from;
        throw err;
      }
    }
  }

  /** Adds the entries of block `height` to `batch` (its metrics through `metrics`, which sees the batch's earlier blocks). */
  private async index(height: bigint, batch: WriteBatch, metrics: PendingView): Promise<void> {
    const block = await this.chain.store.blockAt(height);
    if (!block) throw new Error(`block ${height} is missing from the chain's store`);
    // A block this process built comes with its txs, their records and their internal transactions, recorded as they ran.
    const built = this.take(block.hash);
    const records = built?.records ?? (await this.chain.store.txRecords(block.hash));
    const txs = built?.txs ?? blockTxs(this.chain, block);
    const put = (key: Uint8Array, value: Uint8Array = new Uint8Array()) => batch.put(this.db, key, value);
    // Blocks built before this process recorded them (a backfill, a restart): their txs run again under callTracer.
    const recorded = built?.internal;
    const traced =
      !recorded && txs.some((tx, i) => ranCode(tx, records[i]!))
        ? new Map((await callTraces(this.chain, block, (i) => ranCode(txs[i]!, records[i]!))).map((t) => [t.txHash, t.result]))
        : new Map<string, CallFrameJson>();
    let logIndex = 0;
    const timeMs = Number(block.header.timeMilliseconds ?? block.header.time * 1000n);
    const parent = height > 0n ? await this.chain.store.blockAt(height - 1n) : undefined;
    const activity: BlockActivity = {
      timeMs,
      parentMs: parent ? Number(parent.header.timeMilliseconds ?? parent.header.time * 1000n) : undefined,
      txs: [],
      addresses: new Set(),
      senders: new Set(),
      creations: [],
    };
    const strip = (a: Uint8Array | string) => (typeof a === 'string' ? a.replace(/^0x/, '').toLowerCase() : Buffer.from(a).toString('hex'));
    txs.forEach((tx, i) => {
      const r = records[i]!;
      activity.txs.push({ gasUsed: r.gasUsed, price: r.effectiveGasPrice });
      activity.addresses.add(strip(r.from));
      activity.senders.add(strip(r.from));
      if (tx.to) activity.addresses.add(strip(tx.to.bytes));
      const parties = new Map<string, Uint8Array>();
      const party = (a: Uint8Array | string) => {
        const b = typeof a === 'string' ? bytes(a) : a;
        parties.set(Buffer.from(b).toString('hex'), b);
      };
      party(r.from);
      if (tx.to) party(tx.to.bytes);
      if (r.contractAddress && r.status === 1) {
        party(r.contractAddress);
        activity.addresses.add(strip(r.contractAddress));
        activity.creations.push(strip(r.from));
        put(deployedKey(r.contractAddress), json({ txHash: hex(r.hash), deployer: hex(r.from) } satisfies Deployment));
      }
      const at = { blockchainID: this.blockchainID, txHash: hex(r.hash), timestamp: Number(block.header.time), gasSpent: r.gasUsed.toString() };
      for (const log of r.logs) {
        const transfer = transferParties(log.topics);
        for (const p of transfer) party(p);
        if (transfer.length === 2) {
          activity.addresses.add(strip(transfer[0]!));
          activity.addresses.add(strip(transfer[1]!));
          activity.senders.add(strip(transfer[0]!));
        }
        const ctx = { ...at, timeMs, height: Number(height), logIndex: logIndex++ };
        for (const op of icmOps(log, ctx, json)) if (op.type === 'put') batch.put(this.icm, op.key, op.value);
      }
      if (r.status === 0) put(failedKey(height, i));
      const frame = traced.get(hex(r.hash));
      const internal = recorded ? (recorded[i] ?? []) : frame ? internalTxs(frame) : [];
      for (const t of internal) {
        party(t.from);
        party(t.to);
        if ((t.type === 'CREATE' || t.type === 'CREATE2') && !t.isReverted) {
          activity.creations.push(strip(t.from));
          put(deployedKey(bytes(t.to)), json({ txHash: hex(r.hash), deployer: hex(r.from), deployerContract: t.from } satisfies Deployment));
        }
      }
      if (internal.length > 0) put(internalKey(height, i), json(internal));
      for (const a of parties.values()) put(partyKey(a, height, i));
    });
    await indexMetrics(metrics, this.metricsMemory, activity);
  }
}

// A forked chain's history up to the fork block: the upstream's blocks, txs and receipts, fetched
// when first asked for and kept in the fork cache, so the chain store answers them as its own
// (store.ts asks here for what it lacks at or below the fork block). A block is checked as it comes:
// its header must hash to the upstream's hash (headerjson.ts) and its txs, rebuilt from their JSON,
// must hash to theirs and make the header's tx root.
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { createTxFromRPC, type TypedTransaction } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';
import { fromHex0x, toHex, toHex0x } from '../../../encoding/bytes.js';
import type { Database } from '../../../storage/db.js';
import { type BodyTx, decodeHeader, encodeBlock, type HeaderLayout, headerHash } from '../header.js';
import { decodeRecords, encodeRecords, type TxRecord } from '../records.js';
import type { StoredBlock, TxLocation, UpstreamHistory, UpstreamLog } from '../store.js';
import { listRoot } from '../trieroot.js';
import { HeaderJsonError, headerFromJson } from './headerjson.js';
import { LogAnswers } from './logcache.js';
import { ForkFailure, type ForkState, parsed, type UpstreamCaller } from './state.js';

export class ForkHistoryError extends ForkFailure {}

interface RpcLog {
  address: string;
  topics: string[];
  data: string;
}

interface RpcReceipt {
  transactionHash: string;
  from: string;
  status?: string;
  cumulativeGasUsed: string;
  gasUsed: string;
  effectiveGasPrice?: string;
  contractAddress?: string | null;
  logs: RpcLog[];
}

interface RpcBlock {
  number: string;
  hash: string;
  transactions: Array<Record<string, unknown> & { hash: string }>;
  blockExtraData?: string;
}

const qty = (n: bigint) => `0x${n.toString(16)}`;
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};

interface RpcBlockLog extends RpcLog {
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  transactionIndex: string;
  logIndex: string;
}

function upstreamLog(l: RpcBlockLog): UpstreamLog {
  return {
    log: { address: fromHex0x(l.address), topics: l.topics.map(fromHex0x), data: fromHex0x(l.data) },
    number: BigInt(l.blockNumber),
    blockHash: fromHex0x(l.blockHash),
    txHash: fromHex0x(l.transactionHash),
    txIndex: Number(BigInt(l.transactionIndex)),
    logIndex: Number(BigInt(l.logIndex)),
  };
}

/** Blocks decoded from the cache kept in memory (entries). */
const KEPT_BLOCKS = 256;

export class ForkHistory implements UpstreamHistory {
  /** Block RLP and records by height: [block, records]. */
  private readonly blocks: Database;
  /** Heights by block hash, and by tx hash with the tx's index. */
  private readonly hashes: Database;
  private readonly txs: Database;
  private readonly logAnswers: LogAnswers;
  private readonly kept = new Map<bigint, { block: StoredBlock; records: TxRecord[] }>();
  private readonly fetching = new Map<bigint, Promise<{ block: StoredBlock; records: TxRecord[] }>>();

  constructor(
    private readonly upstream: UpstreamCaller,
    cache: Database,
    /** The fork block's height: nothing above it is the upstream's. */
    readonly base: bigint,
    private readonly layout: HeaderLayout,
    private readonly common: Common,
    private readonly state: ForkState,
  ) {
    this.blocks = cache.prefix('blocks');
    this.hashes = cache.prefix('hashes');
    this.txs = cache.prefix('txs');
    this.logAnswers = new LogAnswers(cache);
  }

  /** The upstream's block at `number` (at most the fork block) and its records. */
  async at(number: bigint): Promise<{ block: StoredBlock; records: TxRecord[] } | undefined> {
    if (number < 0n || number > this.base) return undefined;
    const kept = this.kept.get(number);
    if (kept) return kept;
    let pending = this.fetching.get(number);
    if (!pending) {
      pending = this.load(number).finally(() => this.fetching.delete(number));
      this.fetching.set(number, pending);
    }
    return pending;
  }

  /** The upstream's block with this hash, when it is at or below the fork block. */
  async byHash(hash: Uint8Array): Promise<{ block: StoredBlock; records: TxRecord[] } | undefined> {
    const height = await this.hashes.get(hash);
    if (height) return this.at(Buffer.from(height).readBigUInt64BE(0));
    const json = await this.upstream.call<{ number: string } | null>('eth_getBlockByHash', [toHex0x(hash), false]);
    if (!json) return undefined;
    const found = await this.at(parsed('eth_getBlockByHash', () => BigInt(json.number)));
    return found && toHex(found.block.hash) === toHex(hash) ? found : undefined;
  }

  /** Where the upstream put a tx, when it is at or below the fork block. */
  async lookup(txHash: Uint8Array): Promise<TxLocation | undefined> {
    const kept = await this.txs.get(txHash);
    if (kept) {
      const [n, i] = RLP.decode(kept) as Uint8Array[];
      return { number: bytesToBigInt(n!), index: Number(bytesToBigInt(i!)) };
    }
    const json = await this.upstream.call<{ blockNumber?: string | null; transactionIndex?: string | null } | null>('eth_getTransactionByHash', [
      toHex0x(txHash),
    ]);
    if (!json?.blockNumber || json.transactionIndex == null) return undefined;
    const [number, index] = parsed('eth_getTransactionByHash', () => [BigInt(json.blockNumber!), Number(BigInt(json.transactionIndex!))] as const);
    if (number > this.base) return undefined;
    // Fetching its block keeps every tx of the block, this one included.
    await this.at(number);
    return { number, index };
  }

  /**
   * The upstream's logs in [from, to] (at most the fork block) of `addresses` and `topics` (per
   * position, any of them), in one call as Anvil forwards them: the upstream applies its own range
   * limit and answers its own error (a public endpoint refuses wide ranges), which the caller gets.
   * An answer is kept (logcache.ts): the same filter is answered from the cache after.
   */
  async logs(addresses: Uint8Array[], topics: Array<Uint8Array[] | undefined>, from: bigint, to: bigint): Promise<UpstreamLog[]> {
    const last = to < this.base ? to : this.base;
    const filter = {
      ...(addresses.length ? { address: addresses.map(toHex0x) } : {}),
      topics: topics.map((t) => (t?.length ? t.map(toHex0x) : null)),
      fromBlock: qty(from),
      toBlock: qty(last),
    };
    const key = JSON.stringify(filter);
    const kept = await this.logAnswers.get(key);
    if (kept !== undefined) return (JSON.parse(kept) as RpcBlockLog[]).map(upstreamLog);
    const logs = await this.upstream.call<RpcBlockLog[]>('eth_getLogs', [filter]);
    const answer = parsed('eth_getLogs', () => logs.map(upstreamLog));
    await this.logAnswers.keep(key, JSON.stringify(logs));
    return answer;
  }

  private async load(number: bigint): Promise<{ block: StoredBlock; records: TxRecord[] }> {
    const stored = await this.blocks.get(u64(number));
    const found = stored ? this.decode(stored) : await this.fetch(number);
    if (this.kept.size >= KEPT_BLOCKS) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(number, found);
    this.state.noteRoot(found.block.header.stateRoot, number);
    return found;
  }

  private decode(stored: Uint8Array): { block: StoredBlock; records: TxRecord[] } {
    const [bytes, records] = RLP.decode(stored) as unknown as [Uint8Array, Uint8Array];
    const fields = RLP.decode(bytes) as unknown as [Uint8Array[], BodyTx[], unknown, unknown, Uint8Array?];
    const header = decodeHeader(fields[0], this.layout);
    const extData = fields[4];
    return {
      block: { header, hash: headerHash(header), body: fields[1], size: bytes.length, ...(extData?.length ? { extData } : {}) },
      records: decodeRecords(records),
    };
  }

  private async fetch(number: bigint): Promise<{ block: StoredBlock; records: TxRecord[] }> {
    const [json, receipts] = await Promise.all([
      this.upstream.call<RpcBlock | null>('eth_getBlockByNumber', [qty(number), true]),
      this.upstream.call<RpcReceipt[] | null>('eth_getBlockReceipts', [qty(number)]),
    ]);
    if (!json) throw new ForkHistoryError(`the fork's upstream has no block ${number}`);
    const { header, hash } = readHeader(json, this.layout);
    const txs = await Promise.all(parsed('eth_getBlockByNumber', () => json.transactions).map((t) => this.txOf(t)));
    const body = txs.map(bodyOf);
    if (toHex(listRoot(txs.map((t) => t.serialize()))) !== toHex(header.txHash))
      throw new ForkHistoryError(`the upstream's block ${number}: its txs do not make its tx root`);
    const records = parsed('eth_getBlockReceipts', () => (receipts ?? []).map(recordOf));
    records.forEach((r, i) => {
      if (i < txs.length && toHex(r.hash) !== toHex(txs[i]!.hash()))
        throw new ForkHistoryError(`the upstream's block ${number}: its receipt ${i} is not its tx ${i}'s`);
    });
    if (records.length !== txs.length) throw new ForkHistoryError(`the upstream's block ${number}: ${records.length} receipts for ${txs.length} txs`);
    const extData = json.blockExtraData ? fromHex0x(json.blockExtraData) : undefined;
    const bytes = encodeBlock(header, body, extData?.length ? extData : undefined);
    const block: StoredBlock = { header, hash, body, size: bytes.length, ...(extData?.length ? { extData } : {}) };
    await this.keep(number, block, bytes, records);
    return { block, records };
  }

  private async txOf(json: Record<string, unknown> & { hash: string }): Promise<TypedTransaction> {
    let tx: TypedTransaction;
    try {
      tx = await createTxFromRPC(json as never, { common: this.common, freeze: false });
    } catch (err) {
      throw new ForkHistoryError(`the upstream's tx ${String(json.hash)}: ${(err as Error).message}`);
    }
    if (toHex0x(tx.hash()) !== String(json.hash).toLowerCase())
      throw new ForkHistoryError(`the upstream's tx ${json.hash}: rebuilt from its JSON, it hashes otherwise`);
    return tx;
  }

  private async keep(number: bigint, block: StoredBlock, bytes: Uint8Array, records: TxRecord[]): Promise<void> {
    const height = u64(number);
    const at = (i: number) => RLP.encode([bigIntToUnpaddedBytes(number), bigIntToUnpaddedBytes(BigInt(i))]);
    await this.hashes.put(block.hash, height);
    await this.txs.batch(records.map((r, i) => ({ type: 'put' as const, key: r.hash, value: at(i) })));
    // The block last: a block in the cache has its lookups there too.
    await this.blocks.put(height, RLP.encode([bytes, encodeRecords(records)]));
  }
}

/** The block's header, checked; a header that is not the chain's kind fails the read that asked. */
function readHeader(json: unknown, layout: HeaderLayout): ReturnType<typeof headerFromJson> {
  try {
    return headerFromJson(json, layout);
  } catch (err) {
    throw err instanceof HeaderJsonError ? new ForkHistoryError(err.message) : err;
  }
}

const bodyOf = (tx: TypedTransaction): BodyTx => (tx.type === 0 ? (tx.raw() as Uint8Array[]) : tx.serialize());

function recordOf(r: RpcReceipt): TxRecord {
  return {
    hash: fromHex0x(r.transactionHash),
    from: fromHex0x(r.from),
    status: r.status === '0x1' ? 1 : 0,
    cumulativeGasUsed: BigInt(r.cumulativeGasUsed),
    gasUsed: BigInt(r.gasUsed),
    effectiveGasPrice: BigInt(r.effectiveGasPrice ?? '0x0'),
    ...(r.contractAddress ? { contractAddress: fromHex0x(r.contractAddress) } : {}),
    logs: r.logs.map((l) => ({ address: fromHex0x(l.address), topics: l.topics.map(fromHex0x), data: fromHex0x(l.data) })),
  };
}

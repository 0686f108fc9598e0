// coreth's fee oracle (eth/gasprice): the next base fee from ACP-176, the suggested tip from the
// effective tips of recent blocks (40 blocks, no older than 80 s, 40th percentile, between 1 wei and
// 150 gwei), fee history with coreth's n base fees (no next-block entry, unlike geth), and
// eth_suggestPriceOptions.
import { RpcError } from '../../../rpc/method.js';
import { goFormatFloat } from '../../../encoding/gofloat.js';
import type { EvmChain } from '../chain.js';
import { effectiveTip, feeCaps } from '../pooltx.js';
import { nextBaseFee } from '../calls.js';
import type { StoredBlock } from '../store.js';
import { defaultsBaseFee, type FeeSource } from '../txargs.js';
import { blockTxs } from '../queries.js';
import type { BlockTag } from './fields.js';
import { qty } from './format.js';
import { toHex } from '../../../encoding/bytes.js';

const MIN_TIP = 1n;
const MAX_TIP = 150_000_000_000n;
const LOOKBACK_BLOCKS = 40n;
const LOOKBACK_MS = 80_000n;
const PERCENTILE = 40;
const MAX_HISTORY_BLOCKS = 2048n;
const MAX_HISTORY_DEPTH = 25_000n;

/** What the tip oracle reads of a block: its parent, its time and its txs' effective tips. */
interface TipBlock {
  parent: string;
  timeMs: bigint;
  tips: bigint[];
}

/** Blocks whose tips are kept (a block's never change): the window and some blocks of the branches a revert left. */
const TIP_BLOCKS = 4 * Number(LOOKBACK_BLOCKS);

export class GasOracle {
  private cached: { head: string; tip: bigint } | undefined;
  private lastTip = MIN_TIP;
  /**
   * By block hash. Each new head used to cost a read of each of the window's 40 blocks (some 200
   * µs, asked again by the first fill, eth_gasPrice or eth_maxPriorityFeePerGas after every block);
   * now the new block's alone, the walk going on by parent hash.
   */
  private readonly tipBlocks = new Map<string, TipBlock>();

  constructor(private readonly chain: EvmChain) {}

  nextBaseFee(): bigint {
    // anvil_setNextBlockBaseFeePerGas (--dev) sets it outright.
    // At the time the next block would be made: the chain's (its dev offsets, a fork's clock), not the wall's.
    return this.chain.dev.nextBaseFee ?? nextBaseFee(this.chain, this.chain.dev.nextBlockMillis());
  }

  /** What setDefaults takes for fees (eth_fillTransaction, eth_sendTransaction, eth_createAccessList). */
  feeSource(): FeeSource {
    return { suggestTip: () => this.suggestTip(), baseFee: defaultsBaseFee(this.chain) };
  }

  async suggestTip(): Promise<bigint> {
    const head = this.chain.head;
    const key = toHex(head.hash);
    if (this.cached?.head === key) return this.cached.tip;
    const tips: bigint[] = [];
    // "No older than 80 s" on the chain's clock: a fork of an old block (or evm_increaseTime) moved it from the wall's.
    const oldest = this.chain.dev.nowMillis() - LOOKBACK_MS;
    await this.prefetchUpstream(head.header.number, oldest);
    // From the head down its ancestors (the canonical blocks by number, as read before).
    let hash = key;
    for (let n = head.header.number, seen = 0n; n > 0n && seen < LOOKBACK_BLOCKS; n--, seen++) {
      const block = this.tipBlocks.get(hash) ?? this.readTipBlock(n === head.header.number ? head : await this.chain.store.blockAt(n));
      if (!block || block.timeMs < oldest) break;
      // One by one: a large block's tips would overflow a spread call's arguments.
      for (const t of block.tips) tips.push(t);
      hash = block.parent;
    }
    let tip = this.lastTip;
    if (tips.length > 0) {
      tips.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      tip = tips[Math.floor(((tips.length - 1) * PERCENTILE) / 100)]!;
    }
    if (tip < MIN_TIP) tip = MIN_TIP;
    if (tip > MAX_TIP) tip = MAX_TIP;
    this.lastTip = tip;
    this.cached = { head: key, tip };
    return tip;
  }

  /** What the tip oracle reads of `block`, kept by its hash. */
  private readTipBlock(block: StoredBlock | undefined): TipBlock | undefined {
    if (!block) return undefined;
    const baseFee = block.header.baseFee ?? 0n;
    const read: TipBlock = {
      parent: toHex(block.header.parentHash),
      timeMs: block.header.timeMilliseconds ?? block.header.time * 1000n,
      tips: blockTxs(this.chain, block).map((tx) => effectiveTip(feeCaps(tx), baseFee)),
    };
    if (this.tipBlocks.size >= TIP_BLOCKS) this.tipBlocks.delete(this.tipBlocks.keys().next().value!);
    this.tipBlocks.set(toHex(block.hash), read);
    return read;
  }

  /**
   * On a fork, the upstream's blocks in the window are asked for at once (one batched round trip)
   * rather than one after another as the walk reaches them; none when the fork block is already
   * older than the window.
   */
  private async prefetchUpstream(head: bigint, oldestMs: bigint): Promise<void> {
    const forked = this.chain.forkedAt;
    if (forked === undefined || head - forked >= LOOKBACK_BLOCKS) return;
    const base = await this.chain.store.blockAt(forked);
    if (!base || (base.header.timeMilliseconds ?? base.header.time * 1000n) < oldestMs) return;
    const heights: bigint[] = [];
    for (let n = forked - 1n, seen = head - forked + 1n; n > 0n && seen < LOOKBACK_BLOCKS; n--, seen++) heights.push(n);
    await Promise.all(heights.map((n) => this.chain.store.blockAt(n)));
  }

  async feeHistory(count: bigint, last: BlockTag, percentiles: number[]): Promise<Record<string, unknown>> {
    // The oracle's order (eth/gasprice/feehistory.go): no blocks asked is no data, before any check.
    if (count === 0n) return { oldestBlock: qty(0n), gasUsedRatio: null };
    checkPercentiles(percentiles);
    if (count > MAX_HISTORY_BLOCKS) count = MAX_HISTORY_BLOCKS;
    const head = this.chain.head.header.number;
    let newest: bigint;
    if (typeof last === 'bigint') {
      if (last > head) throw new RpcError(`request beyond head block: requested ${last}, head ${head}`);
      newest = last;
    } else if (last === 'earliest') newest = 0n;
    else {
      newest = head;
      if (last === 'pending' && count > 0n) count -= 1n;
    }
    if (count === 0n) return { oldestBlock: qty(0n), gasUsedRatio: null };
    if (head - newest > MAX_HISTORY_DEPTH) throw new RpcError(`requested block ${newest} is too old`);
    if (count > newest + 1n) count = newest + 1n;
    const oldest = newest + 1n - count;
    const reward: string[][] = [];
    const baseFees: string[] = [];
    const ratios: number[] = [];
    for (let n = oldest; n <= newest; n++) {
      const block = (await this.chain.store.blockAt(n))!;
      baseFees.push(qty(block.header.baseFee ?? 0n));
      ratios.push(Number(block.header.gasUsed) / Number(block.header.gasLimit));
      if (percentiles.length > 0) reward.push(await this.rewards(block, percentiles));
    }
    return {
      oldestBlock: qty(oldest),
      ...(percentiles.length > 0 ? { reward } : {}),
      baseFeePerGas: baseFees,
      gasUsedRatio: ratios,
    };
  }

  /** Tips at gas-weighted percentiles of a block's txs (geth's processPercentiles). */
  private async rewards(block: StoredBlock, percentiles: number[]): Promise<string[]> {
    const txs = blockTxs(this.chain, block);
    if (txs.length === 0) return percentiles.map(() => qty(0n));
    const records = await this.chain.store.txRecords(block.hash);
    const sorted = txs
      .map((tx, i) => ({ tip: effectiveTip(feeCaps(tx), block.header.baseFee ?? 0n), gas: records[i]!.gasUsed }))
      .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
    const out: string[] = [];
    let i = 0;
    let sum = sorted[0]!.gas;
    for (const p of percentiles) {
      const threshold = (Number(block.header.gasUsed) * p) / 100;
      while (sum < threshold && i < sorted.length - 1) {
        i++;
        sum += sorted[i]!.gas;
      }
      out.push(qty(sorted[i]!.tip));
    }
    return out;
  }
}

/** The oracle's checks of the reward percentiles: at most 100, each in [0, 100], strictly increasing (%f). */
function checkPercentiles(percentiles: number[]): void {
  const invalid = (why: string) => new RpcError(`invalid reward percentile: ${why}`);
  if (percentiles.length > MAX_PERCENTILES) throw invalid(`over the query limit ${MAX_PERCENTILES}`);
  percentiles.forEach((p, i) => {
    if (p < 0 || p > 100) throw invalid(goFormatFloat(p));
    const prev = percentiles[i - 1];
    if (prev !== undefined && p <= prev) throw invalid(`#${i - 1}:${goFormatFloat(prev)} >= #${i}:${goFormatFloat(p)}`);
  });
}

/** The oracle's maxQueryLimit. */
const MAX_PERCENTILES = 100;

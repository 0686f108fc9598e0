// coreth's tx pool (geth's legacypool with coreth's settings: minimum tip 0, minimum fee cap 1 wei,
// a 10 % price bump for replacements): admission with geth's checks in geth's order and texts, nonce
// gaps that wait, and the executable txs of every sender in nonce order for the block builder.
// Admitted txs are also journaled in the chain's database until a block includes them, so a
// kill -9 loses no tx whose hash eth_sendRawTransaction returned.
import type { TypedTransaction } from '@ethereumjs/tx';

export interface PoolTx {
  tx: TypedTransaction;
  bytes: Uint8Array;
  hash: Uint8Array;
  hashHex: string;
  from: Uint8Array;
  fromHex: string;
  nonce: bigint;
  feeCap: bigint;
  tipCap: bigint;
  /** Sent by eth_sendTransaction from an impersonated account (--dev): its signature is a placeholder. */
  impersonated?: boolean;
  /** Admission order, for ties. */
  seq: number;
}

/** geth's txMaxSize: 4 slots of 32 KiB. */
export const TX_MAX_SIZE = 128 * 1024;
/** tx-pool-price-bump */
export const PRICE_BUMP = 10n;
/** tx-pool-global-slots + tx-pool-global-queue (coreth's defaults). */
export const POOL_CAPACITY = 5120 + 1024;

export const poolErrors = {
  alreadyKnown: () => 'already known',
  typeNotSupported: () => 'transaction type not supported',
  oversized: (size: number) => `oversized data: transaction size ${size}, limit ${TX_MAX_SIZE}`,
  gasLimit: (gas: bigint, max: bigint) => `exceeds block gas limit: tx gas (${gas}) > current max gas (${max})`,
  tipAboveFeeCap: () => 'max priority fee per gas higher than max fee per gas',
  invalidSender: () => 'invalid sender',
  intrinsicGas: (from: string, gas: bigint, need: bigint) => `intrinsic gas too low: address ${from} tx gas (${gas}), minimum needed ${need}`,
  feeCapTooLow: (from: string, feeCap: bigint, min: bigint) =>
    `transaction underpriced: address ${from} have gas fee cap (${feeCap}) < pool minimum fee cap (${min})`,
  nonceTooLow: (next: bigint, nonce: bigint) => `nonce too low: next nonce ${next}, tx nonce ${nonce}`,
  insufficientFunds: (balance: bigint, cost: bigint) =>
    `insufficient funds for gas * price + value: balance ${balance}, tx cost ${cost}, overshot ${cost - balance}`,
  replacementUnderpriced: () => 'replacement transaction underpriced',
  notAllowListed: (from: string) => `cannot issue transaction from non-allow listed address: ${from}`,
  full: () => 'txpool is full',
  feeCap: (fee: string) => `tx fee (${fee} ether) exceeds the configured cap (100.00 ether)`,
  unprotected: () => 'only replay-protected (EIP-155) transactions allowed over RPC',
};

export class PoolError extends Error {}

export interface FeeCaps {
  feeCap: bigint;
  tipCap: bigint;
}

/** A tx's fee cap and tip cap: a legacy or access-list tx's gas price is both. */
export function feeCaps(tx: TypedTransaction): FeeCaps {
  const price = (tx as { gasPrice?: bigint }).gasPrice;
  const fee = tx as { maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint };
  return { feeCap: fee.maxFeePerGas ?? price!, tipCap: fee.maxPriorityFeePerGas ?? price! };
}

/** The tip paid per gas over `baseFee` (geth's EffectiveGasTip): min(tip cap, fee cap - base fee). */
export function effectiveTip(c: FeeCaps, baseFee: bigint): bigint {
  const room = c.feeCap - baseFee;
  return room < c.tipCap ? room : c.tipCap;
}

/** What a tx pays per gas in a block with `baseFee`: a legacy tx its gas price, a dynamic-fee tx base fee + tip. */
export const effectivePrice = (c: FeeCaps, baseFee: bigint): bigint => baseFee + effectiveTip(c, baseFee);

export class TxPool {
  private readonly bySender = new Map<string, Map<bigint, PoolTx>>();
  private readonly byHash = new Map<string, PoolTx>();
  private seq = 0;

  get size(): number {
    return this.byHash.size;
  }

  has(hashHex: string): boolean {
    return this.byHash.has(hashHex);
  }

  get(hashHex: string): PoolTx | undefined {
    return this.byHash.get(hashHex);
  }

  /** The tx a new one with the same sender and nonce would replace. */
  sameNonce(fromHex: string, nonce: bigint): PoolTx | undefined {
    return this.bySender.get(fromHex)?.get(nonce);
  }

  /** Adds `p`, replacing the tx with its nonce if any (the caller checked the bump); returns the replaced one. */
  add(p: Omit<PoolTx, 'seq'>): PoolTx | undefined {
    let txs = this.bySender.get(p.fromHex);
    if (!txs) {
      txs = new Map();
      this.bySender.set(p.fromHex, txs);
    }
    const old = txs.get(p.nonce);
    if (old) this.byHash.delete(old.hashHex);
    const entry = { ...p, seq: this.seq++ };
    txs.set(p.nonce, entry);
    this.byHash.set(p.hashHex, entry);
    return old;
  }

  remove(p: PoolTx): void {
    if (this.byHash.get(p.hashHex) !== p) return;
    this.byHash.delete(p.hashHex);
    const txs = this.bySender.get(p.fromHex)!;
    txs.delete(p.nonce);
    if (txs.size === 0) this.bySender.delete(p.fromHex);
  }

  /** Drops a sender's txs below its account nonce (included elsewhere, or replaced by a block). */
  prune(fromHex: string, nonce: bigint): PoolTx[] {
    const txs = this.bySender.get(fromHex);
    if (!txs) return [];
    const gone = [...txs.values()].filter((p) => p.nonce < nonce);
    for (const p of gone) this.remove(p);
    return gone;
  }

  senders(): string[] {
    return [...this.bySender.keys()];
  }

  /** A sender's txs from `nonce` on without a gap: what can run next. */
  executable(fromHex: string, nonce: bigint): PoolTx[] {
    const txs = this.bySender.get(fromHex);
    const out: PoolTx[] = [];
    for (let n = nonce; txs?.has(n); n++) out.push(txs.get(n)!);
    return out;
  }

  /** txpool_content's split: for each sender, txs runnable now (pending) and those behind a gap (queued). */
  content(nonceOf: (fromHex: string) => bigint): { pending: Map<string, PoolTx[]>; queued: Map<string, PoolTx[]> } {
    const pending = new Map<string, PoolTx[]>();
    const queued = new Map<string, PoolTx[]>();
    for (const [from, txs] of this.bySender) {
      const run = this.executable(from, nonceOf(from));
      const runSet = new Set(run);
      const rest = [...txs.values()].filter((p) => !runSet.has(p)).sort((a, b) => (a.nonce < b.nonce ? -1 : 1));
      if (run.length) pending.set(from, run);
      if (rest.length) queued.set(from, rest);
    }
    return { pending, queued };
  }

  all(): PoolTx[] {
    return [...this.byHash.values()];
  }
}

/** Whether `next` may replace `old`: both its fee cap and tip must rise by the price bump. */
export function bumped(old: PoolTx, next: { feeCap: bigint; tipCap: bigint }): boolean {
  const need = (v: bigint) => (v * (100n + PRICE_BUMP)) / 100n;
  return next.feeCap > old.feeCap && next.tipCap > old.tipCap && next.feeCap >= need(old.feeCap) && next.tipCap >= need(old.tipCap);
}

// What coreth's pool holds and how it prices and refuses txs: the pooled tx, legacypool's limits as
// coreth sets them, the pool's error texts, and the fee caps a tx offers.
import type { TypedTransaction } from '@ethereumjs/tx';
import { effectiveTip } from './priced.js';

export { effectiveTip } from './priced.js';

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
  /** The 32 KiB slots it takes of the pool's capacity (geth's numSlots). */
  slots: number;
  /** Admission order, for ties. */
  seq: number;
}

/** A tx as admission hands it to the pool. */
export type NewPoolTx = Omit<PoolTx, 'seq' | 'slots'>;

/** geth's txSlotSize: the pool counts a tx's size in slots of 32 KiB. */
const TX_SLOT_SIZE = 32 * 1024;
/** geth's txMaxSize: 4 slots. */
export const TX_MAX_SIZE = 4 * TX_SLOT_SIZE;
/** params.MaxInitCodeSize (EIP-3860, Durango on): what a create message may carry. */
export const MAX_INITCODE_SIZE = 49_152;

export const numSlots = (size: number): number => Math.ceil(size / TX_SLOT_SIZE);

/** legacypool.Config's limits, as coreth's chain config names them (tx-pool-*). */
export interface PoolConfig {
  /** tx-pool-price-bump: the % a replacement must raise both its fee cap and its tip by. */
  priceBump: bigint;
  /** tx-pool-account-slots: the pending txs per sender that pending's fairness cut leaves alone. */
  accountSlots: number;
  /** tx-pool-global-slots: pending txs in all before the fairness cut. */
  globalSlots: number;
  /** tx-pool-account-queue: queued txs per sender. */
  accountQueue: number;
  /** tx-pool-global-queue: queued txs in all. */
  globalQueue: number;
  /** tx-pool-lifetime, in ns: how long a sender's queued txs wait without it being active. */
  lifetimeNs: bigint;
}

/**
 * coreth's defaults (plugin/evm/config/default_config.go), which Subnet-EVM shares. The lifetime is
 * coreth's 10 minutes, not geth's 3 hours.
 */
export const CORETH_POOL: PoolConfig = {
  priceBump: 10n,
  accountSlots: 16,
  globalSlots: 4096 + 1024,
  accountQueue: 64,
  globalQueue: 1024,
  lifetimeNs: 10n * 60n * 1_000_000_000n,
};

export const poolErrors = {
  alreadyKnown: () => 'already known',
  typeNotSupported: () => 'transaction type not supported',
  oversized: (size: number) => `oversized data: transaction size ${size}, limit ${TX_MAX_SIZE}`,
  initcode: (size: number) => `max initcode size exceeded: code size ${size}, limit ${MAX_INITCODE_SIZE}`,
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
  /** txpool.ErrUnderpriced, bare: the pool is full and the tx pays no more than its cheapest. */
  underpriced: () => 'transaction underpriced',
  /** txpool.ErrFutureReplacePending: a gapped tx would have evicted a pending one. */
  futureReplacePending: () => 'future transaction tries to replace pending',
  notAllowListed: (from: string) => `cannot issue transaction from non-allow listed address: ${from}`,
  /** legacypool.ErrTxPoolOverflow: the pool is full and evicting its cheapest txs would not make room. */
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

/** What a tx pays per gas in a block with `baseFee`: a legacy tx its gas price, a dynamic-fee tx base fee + tip. */
export const effectivePrice = (c: FeeCaps, baseFee: bigint): bigint => baseFee + effectiveTip(c, baseFee);

/** Whether `next` may replace `old`: both its fee cap and tip must rise by the price bump. */
export function bumped(old: FeeCaps, next: FeeCaps, bump = CORETH_POOL.priceBump): boolean {
  const need = (v: bigint) => (v * (100n + bump)) / 100n;
  return next.feeCap > old.feeCap && next.tipCap > old.tipCap && next.feeCap >= need(old.feeCap) && next.tipCap >= need(old.tipCap);
}

/** What an add did. */
export interface Admission {
  /** Why the tx was refused (geth's text); undefined if it was added. */
  error?: string;
  /** The tx as the pool took it (a cap may have taken it out again at once: then it is also in `removed`). */
  entry?: PoolTx;
  /** The tx of the same sender and nonce it replaced. */
  replaced?: PoolTx;
  /** Txs that left the pool meanwhile: evicted to make room, over a cap, or below the sender's nonce. */
  removed: PoolTx[];
  /** Txs that became pending, the tx itself among them if it did: what geth announces as new. */
  promoted: PoolTx[];
}

// The dev controls of one EVM chain (--dev: evm_mine, evm_increaseTime, evm_setNextBlockTimestamp,
// evm_setAutomine, anvil_setCoinbase, anvil_impersonateAccount, …): what they have set, and when
// the next block is made. The chain's builder reads them; the dev API sets them.
import { type Clock, unixMillis } from '../../chains/clock.js';
import { headerMillis, MAX_BLOCK_TIME } from './fees.js';
import type { StoredBlock } from './store.js';

/** What the dev controls set on a chain (see DevControls.settings). */
export interface DevSettings {
  timeOffset: bigint;
  automine: boolean;
  intervalSeconds: number;
  devCoinbase: Uint8Array | undefined;
  impersonated: string[];
  autoImpersonate: boolean;
}

/** What the dev controls ask of their chain. */
export interface DevHost {
  readonly head: StoredBlock;
  /** Resolves once a build round that started after this call has finished. */
  buildNow(): Promise<void>;
  /** Builds what waits, if anything does. */
  resumeBuilding(): void;
}

export class DevControls {
  /** Blocks to build even without txs (evm_mine, anvil_mine). */
  blocksToMine = 0;
  /** Seconds this chain's block time runs ahead of the node's clock (evm_increaseTime). */
  timeOffset = 0n;
  /** The next block's timestamp, once (evm_setNextBlockTimestamp). */
  nextTimestamp: bigint | undefined;
  /** Whether a tx is mined as it arrives (evm_setAutomine); off, blocks come from evm_mine or the interval. */
  automine = true;
  private intervalTimer: NodeJS.Timeout | undefined;
  /** Interval mining's period in seconds (anvil_setIntervalMining), 0 when off. */
  intervalSeconds = 0;
  /** anvil_setCoinbase: the coinbase of the blocks built from now on, instead of the rules'. */
  devCoinbase: Uint8Array | undefined;
  /** anvil_setNextBlockBaseFeePerGas: the next block's base fee, once. */
  nextBaseFee: bigint | undefined;
  /** Accounts eth_sendTransaction sends for without a key (anvil_impersonateAccount), as 0x-hex lowercase. */
  readonly impersonated = new Set<string>();
  /** anvil_autoImpersonateAccount: every account is impersonated. */
  autoImpersonate = false;

  constructor(
    private readonly clock: Clock,
    private readonly chain: DevHost,
  ) {}

  /** The node's clock, in whole seconds: what evm_increaseTime's offset is added to. */
  clockSeconds(): bigint {
    return BigInt(unixMillis(this.clock)) / 1000n;
  }

  /**
   * When the next block is made, in ms: evm_setNextBlockTimestamp's time, or the clock plus this
   * chain's offset; never before the head, never past what a header can carry (the dev controls
   * refuse times past it, but the clock goes on moving).
   */
  nextBlockMillis(): bigint {
    const nowMs = this.nextTimestamp !== undefined ? this.nextTimestamp * 1000n : BigInt(unixMillis(this.clock)) + this.timeOffset * 1000n;
    const parentMs = headerMillis(this.chain.head.header);
    const cap = MAX_BLOCK_TIME * 1000n;
    if (nowMs <= parentMs) return parentMs;
    return nowMs > cap && parentMs <= cap ? cap : nowMs;
  }

  /** The coinbase of the next block: anvil_setCoinbase's, else the rules' `coinbase`. */
  coinbase(rules: Uint8Array): Uint8Array {
    return this.devCoinbase ?? rules;
  }

  /** A block was built: a requested one is done, and the once-only settings are spent. */
  blockBuilt(): void {
    if (this.blocksToMine > 0) this.blocksToMine--;
    // As Anvil's exact timestamp: later blocks go on from it (the offset follows), rather than
    // wait, at the head's time, for the clock to catch up (with ACP-176's capacity refilled by time).
    if (this.nextTimestamp !== undefined) this.timeOffset = this.nextTimestamp - this.clockSeconds();
    this.nextTimestamp = undefined;
    this.nextBaseFee = undefined;
  }

  /** anvil_setIntervalMining: a block every `seconds` (empty if no tx waits), automine off; 0 stops it. */
  setIntervalMining(seconds: number): void {
    if (this.intervalTimer) clearInterval(this.intervalTimer);
    this.intervalTimer = undefined;
    this.intervalSeconds = seconds;
    if (seconds === 0) return;
    this.automine = false;
    this.intervalTimer = setInterval(() => void this.mine(1), seconds * 1000);
    this.intervalTimer.unref();
  }

  /** evm_setAutomine: on, what waits is mined at once. */
  setAutomine(on: boolean): void {
    this.automine = on;
    if (on) this.chain.resumeBuilding();
  }

  isImpersonated(addressHex: string): boolean {
    return this.autoImpersonate || this.impersonated.has(addressHex.toLowerCase());
  }

  /** Builds `count` blocks, empty when no tx waits, `interval` seconds apart after the first. */
  async mine(count: number, interval = 0n): Promise<void> {
    for (let i = 0; i < count; i++) {
      if (i > 0 && interval > 0n) this.nextTimestamp = this.chain.head.header.time + interval;
      this.blocksToMine++;
      const before = this.chain.head.header.number;
      await this.chain.buildNow();
      // A round that could not build (a stall, a failed write) leaves the request for the next one.
      if (this.chain.head.header.number === before) break;
    }
  }

  /** The dev controls' settings, which a rebuilt node (evm_revert, anvil_loadState) gives its new chain. */
  settings(): DevSettings {
    return {
      timeOffset: this.timeOffset,
      automine: this.automine,
      intervalSeconds: this.intervalSeconds,
      devCoinbase: this.devCoinbase,
      impersonated: [...this.impersonated],
      autoImpersonate: this.autoImpersonate,
    };
  }

  apply(s: DevSettings): void {
    this.timeOffset = s.timeOffset;
    this.devCoinbase = s.devCoinbase;
    for (const a of s.impersonated) this.impersonated.add(a);
    this.autoImpersonate = s.autoImpersonate;
    this.automine = s.automine;
    if (s.intervalSeconds > 0) this.setIntervalMining(s.intervalSeconds);
  }

  /** Stops interval mining's timer (the chain is closing). */
  close(): void {
    if (this.intervalTimer) clearInterval(this.intervalTimer);
  }
}

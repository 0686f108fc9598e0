// The dev controls of one EVM chain (--dev: evm_mine, evm_increaseTime, evm_setNextBlockTimestamp,
// evm_setAutomine, anvil_setCoinbase, anvil_impersonateAccount, …): what they have set, and when
// the next block is made. The chain's builder reads them; the dev API sets them.
import { randomBytes } from 'node:crypto';
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
  /** anvil_setBlockTimestampInterval's seconds, when set. */
  timestampInterval?: bigint;
  /** hardhat_metadata's instanceId: kept across a revert or a load, new after a reset. */
  instanceId?: string;
  /** evm_setBlockGasLimit's limit, when set. */
  blockGasLimit?: bigint;
  /** anvil_setLoggingEnabled's switch (undefined: on). */
  loggingEnabled?: boolean;
  /** The chain's starting offset (a fork's), kept across rebuilds (see DevControls.baseOffset). */
  baseOffset?: bigint;
  /** Rebuilt by a revert: the block time goes on as after an in-place revert (reverted()), not from timeOffset. */
  clockFromHead?: boolean;
}

/** What the dev controls ask of their chain. */
export interface DevHost {
  readonly head: StoredBlock;
  /** Resolves once a build round that started after this call has finished. */
  buildNow(): Promise<void>;
  /** Builds what waits, if anything does. */
  resumeBuilding(): void;
}

/**
 * The settings are read by the builder and set through methods by the dev API (which checks what it
 * is given first); nothing outside writes them.
 */
export class DevControls {
  /** Blocks to build even without txs (evm_mine, anvil_mine). */
  private toMine = 0;
  /** Seconds this chain's block time runs ahead of the node's clock (evm_increaseTime). */
  private offset = 0n;
  /**
   * The offset the chain started with: 0, or a fork's (its fork block's time, as Anvil's clock
   * starts there). A chain still at its genesis goes back to this clock at a revert (reverted()).
   */
  private baseOffset = 0n;
  /** The next block's timestamp, once (evm_setNextBlockTimestamp). */
  private nextTime: bigint | undefined;
  /** Whether a tx is mined as it arrives (evm_setAutomine); off, blocks come from evm_mine or the interval. */
  private mineOnSend = true;
  private intervalTimer: NodeJS.Timeout | undefined;
  /** Interval mining's period in seconds (anvil_setIntervalMining), 0 when off. */
  private interval = 0;
  /** anvil_setCoinbase: the coinbase of the blocks built from now on, instead of the rules'. */
  private devCoinbase: Uint8Array | undefined;
  /** anvil_setNextBlockBaseFeePerGas: the next block's base fee, once. */
  private nextFee: bigint | undefined;
  /** evm_setBlockGasLimit: the gas limit of the blocks built from now on, instead of the rules'. */
  private gasLimit: bigint | undefined;
  /** hardhat_setPrevRandao: the next block's PREVRANDAO (its mix digest), once. */
  private nextRandao: Uint8Array | undefined;
  /** anvil_setLoggingEnabled: whether contracts' console.log lines are printed (--dev prints them). */
  private logging = true;
  /** Accounts eth_sendTransaction sends for without a key (anvil_impersonateAccount), as 0x-hex lowercase. */
  private readonly impersonated = new Set<string>();
  /** anvil_autoImpersonateAccount: every account is impersonated. */
  private autoImpersonate = false;
  /** anvil_setBlockTimestampInterval: each block this many seconds after the last, whatever the clock. */
  private stampInterval: bigint | undefined;
  /** hardhat_metadata's instanceId: 32 random bytes, new with the chain unless carried over (apply). */
  private instance = `0x${randomBytes(32).toString('hex')}`;

  constructor(
    private readonly clock: Clock,
    private readonly chain: DevHost,
    /** No block is made before this time (unix seconds): the engine's upgrades (EvmChainOptions.upgradesFrom). */
    readonly upgradesFrom = 0n,
  ) {}

  /** Blocks requested (evm_mine, the interval) and not built yet. */
  get blocksToMine(): number {
    return this.toMine;
  }

  /** Seconds this chain's block time runs ahead of the node's clock (evm_increaseTime). */
  get timeOffset(): bigint {
    return this.offset;
  }

  /** evm_increaseTime: the block time runs `offset` seconds ahead of the node's clock. */
  setTimeOffset(offset: bigint): void {
    this.offset = offset;
  }

  /** The next block's timestamp, if one is set (evm_setNextBlockTimestamp). */
  get nextTimestamp(): bigint | undefined {
    return this.nextTime;
  }

  /** anvil_setTime: the block time reads `seconds` now and runs on with the clock; a set next timestamp is dropped. */
  setClock(seconds: bigint): void {
    this.offset = seconds - this.clockSeconds();
    this.nextTime = undefined;
  }

  /** evm_setNextBlockTimestamp: the next block's timestamp, once. */
  setNextTimestamp(time: bigint): void {
    this.nextTime = time;
  }

  /**
   * The node went back to a snapshot (evm_revert): the block time goes on from the restored head's
   * and a next block's timestamp set since is dropped, as Anvil's revert resets its time manager to
   * the reverted-to block (TimeManager::reset: its offset and next_exact_timestamp). A fixture's
   * evm_increaseTime or pinned time must not leak into the next test.
   */
  reverted(): void {
    this.nextTime = undefined;
    // A chain still at its genesis keeps its own clock (the node's, or a fork's): its genesis is the
    // network's (2020 on the local network), where Anvil's is its start.
    const fromHead = this.headOffset();
    this.offset = this.chain.head.header.number > 0n || fromHead > this.baseOffset ? fromHead : this.baseOffset;
  }

  /** The offset at which this chain's clock reads its head's time now. */
  private headOffset(): bigint {
    return this.chain.head.header.time - this.clockSeconds();
  }

  /**
   * The chain's clock set no earlier than its head's (a load carried an offset from before the
   * loaded head): behind it, every block would repeat the head's time until the clock caught up.
   */
  notBehindHead(): void {
    const fromHead = this.headOffset();
    if (fromHead > this.offset) this.offset = fromHead;
  }

  /**
   * Now on this chain's clock, in ms, never before its head's time: what the tip oracle's "recent"
   * is measured from (not a pinned next timestamp or an interval's, which only the next block takes).
   */
  nowMillis(): bigint {
    const headMs = headerMillis(this.chain.head.header);
    const nowMs = BigInt(unixMillis(this.clock)) + this.offset * 1000n;
    return nowMs > headMs ? nowMs : headMs;
  }

  /** A fork opened (or restarted): its block time starts at its head's and runs on from there. */
  startClockAt(seconds: bigint): void {
    this.setClock(seconds);
    this.baseOffset = this.offset;
  }

  /** The next block's base fee, if one is set (anvil_setNextBlockBaseFeePerGas). */
  get nextBaseFee(): bigint | undefined {
    return this.nextFee;
  }

  /** anvil_setNextBlockBaseFeePerGas: the next block's base fee, once. */
  setNextBaseFee(fee: bigint): void {
    this.nextFee = fee;
  }

  /** Whether contracts' console.log lines are printed (anvil_setLoggingEnabled). */
  get loggingEnabled(): boolean {
    return this.logging;
  }

  /** anvil_setLoggingEnabled: Anvil's switch silences its console.log lines with the rest of its log. */
  setLogging(on: boolean): void {
    this.logging = on;
  }

  /** The next block's PREVRANDAO, if one is set (hardhat_setPrevRandao). */
  get nextPrevRandao(): Uint8Array | undefined {
    return this.nextRandao;
  }

  /** hardhat_setPrevRandao, anvil_setNextBlockPrevRandao: the next block's PREVRANDAO, once. */
  setNextPrevRandao(value: Uint8Array): void {
    this.nextRandao = value;
  }

  /** The gas limit of the blocks built from now on, if one is set (evm_setBlockGasLimit). */
  get blockGasLimit(): bigint | undefined {
    return this.gasLimit;
  }

  /** evm_setBlockGasLimit: the gas limit of the blocks built from now on, instead of the rules'. */
  setBlockGasLimit(limit: bigint): void {
    this.gasLimit = limit;
  }

  /** anvil_setCoinbase: the coinbase of the blocks built from now on, instead of the rules'. */
  setCoinbase(address: Uint8Array): void {
    this.devCoinbase = address;
  }

  /** Whether a tx is mined as it arrives (evm_setAutomine); off, blocks come from evm_mine or the interval. */
  get automine(): boolean {
    return this.mineOnSend;
  }

  /** Interval mining's period in seconds (anvil_setIntervalMining), 0 when off. */
  get intervalSeconds(): number {
    return this.interval;
  }

  /** anvil_impersonateAccount: eth_sendTransaction sends for `addressHex` without its key. */
  impersonate(addressHex: string): void {
    this.impersonated.add(addressHex.toLowerCase());
  }

  /** anvil_stopImpersonatingAccount */
  stopImpersonating(addressHex: string): void {
    this.impersonated.delete(addressHex.toLowerCase());
  }

  /** anvil_autoImpersonateAccount: every account is impersonated, or only those named. */
  setAutoImpersonate(on: boolean): void {
    this.autoImpersonate = on;
  }

  /** The accounts impersonated by name, as 0x-hex lowercase (eth_accounts lists them). */
  impersonatedAccounts(): string[] {
    return [...this.impersonated];
  }

  /** The node's clock, in whole seconds: what evm_increaseTime's offset is added to. */
  clockSeconds(): bigint {
    return BigInt(unixMillis(this.clock)) / 1000n;
  }

  /**
   * When the next block is made, in ms: evm_setNextBlockTimestamp's time, or the clock plus this
   * chain's offset; never before the head nor the engine's upgrades (a clock set back before Granite
   * on an L1 whose genesis is older), never past what a header can carry (the dev controls refuse
   * times past it, but the clock goes on moving).
   */
  nextBlockMillis(): bigint {
    const headMs = headerMillis(this.chain.head.header);
    const upgradesMs = this.upgradesFrom * 1000n;
    const parentMs = headMs > upgradesMs ? headMs : upgradesMs;
    const nowMs =
      this.nextTime !== undefined
        ? this.nextTime * 1000n
        : this.stampInterval !== undefined
          ? parentMs + this.stampInterval * 1000n
          : BigInt(unixMillis(this.clock)) + this.offset * 1000n;
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
    if (this.toMine > 0) this.toMine--;
    // As Anvil's exact timestamp: later blocks go on from it (the offset follows), rather than
    // wait, at the head's time, for the clock to catch up (with ACP-176's capacity refilled by time).
    if (this.nextTime !== undefined) this.offset = this.nextTime - this.clockSeconds();
    this.nextTime = undefined;
    this.nextFee = undefined;
    this.nextRandao = undefined;
  }

  /**
   * anvil_setIntervalMining: a block every `seconds` (empty if no tx waits), automine off. As Anvil's
   * mining mode, 0 stops all mining, automine too: blocks come from evm_mine only.
   */
  setIntervalMining(seconds: number): void {
    this.stopInterval();
    this.interval = seconds;
    this.mineOnSend = false;
    if (seconds === 0) return;
    this.intervalTimer = setInterval(() => void this.mine(1), seconds * 1000);
    this.intervalTimer.unref();
  }

  private stopInterval(): void {
    if (this.intervalTimer) clearInterval(this.intervalTimer);
    this.intervalTimer = undefined;
    this.interval = 0;
  }

  /** evm_setAutomine: on, what waits is mined at once, and interval mining stops (Anvil's mining mode is one or the other). */
  setAutomine(on: boolean): void {
    this.mineOnSend = on;
    if (!on) return;
    this.stopInterval();
    this.chain.resumeBuilding();
  }

  /** hardhat_metadata's instanceId: what tells a client (OpenZeppelin's upgrades) that the chain was reset. */
  get instanceId(): string {
    return this.instance;
  }

  /** anvil_setBlockTimestampInterval: every next block `seconds` after the last (an exact timestamp set still wins once). */
  setTimestampInterval(seconds: bigint): void {
    this.stampInterval = seconds;
  }

  /** anvil_removeBlockTimestampInterval: blocks follow the clock again; whether an interval was set. */
  removeTimestampInterval(): boolean {
    const had = this.stampInterval !== undefined;
    this.stampInterval = undefined;
    return had;
  }

  /** Runs `fn` with automine off (what it sends is pooled), then puts automine back as it was, building nothing. */
  async withoutAutomine<T>(fn: () => Promise<T>): Promise<T> {
    const automine = this.mineOnSend;
    this.mineOnSend = false;
    try {
      return await fn();
    } finally {
      this.mineOnSend = automine;
    }
  }

  isImpersonated(addressHex: string): boolean {
    return this.autoImpersonate || this.impersonated.has(addressHex.toLowerCase());
  }

  /**
   * Builds `count` blocks, empty when no tx waits. With an `interval`, the time moves on by it before
   * every block, as Anvil's anvil_mine increases its time: the first block one interval past the
   * next block's time, each later one exactly one interval after the last (the offset follows).
   */
  async mine(count: number, interval = 0n): Promise<void> {
    for (let i = 0; i < count; i++) {
      if (interval > 0n) {
        if (i === 0) this.offset += interval;
        else this.nextTime = this.chain.head.header.time + interval;
      }
      this.toMine++;
      const before = this.chain.head.header.number;
      await this.chain.buildNow();
      // A round that could not build (a stall, a failed write) leaves the request for the next one.
      if (this.chain.head.header.number === before) break;
    }
  }

  /** The dev controls' settings, which a rebuilt node (evm_revert, anvil_loadState) gives its new chain. */
  settings(): DevSettings {
    return {
      timeOffset: this.offset,
      ...(this.baseOffset !== 0n ? { baseOffset: this.baseOffset } : {}),
      automine: this.mineOnSend,
      intervalSeconds: this.interval,
      devCoinbase: this.devCoinbase,
      impersonated: [...this.impersonated],
      autoImpersonate: this.autoImpersonate,
      ...(this.stampInterval !== undefined ? { timestampInterval: this.stampInterval } : {}),
      instanceId: this.instance,
      ...(this.gasLimit !== undefined ? { blockGasLimit: this.gasLimit } : {}),
      ...(this.logging ? {} : { loggingEnabled: false }),
    };
  }

  apply(s: DevSettings): void {
    this.offset = s.timeOffset;
    this.baseOffset = s.baseOffset ?? 0n;
    this.devCoinbase = s.devCoinbase;
    for (const a of s.impersonated) this.impersonated.add(a);
    this.autoImpersonate = s.autoImpersonate;
    this.stampInterval = s.timestampInterval;
    if (s.instanceId) this.instance = s.instanceId;
    this.gasLimit = s.blockGasLimit;
    this.logging = s.loggingEnabled ?? true;
    this.mineOnSend = s.automine;
    if (s.intervalSeconds > 0) this.setIntervalMining(s.intervalSeconds);
  }

  /** Stops interval mining's timer (the chain is closing). */
  close(): void {
    if (this.intervalTimer) clearInterval(this.intervalTimer);
  }
}

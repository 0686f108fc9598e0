// The one clock every chain reads (block timestamps, locktimes, index times, processing times). It
// is injected so that the node can move it (time travel) without any chain reading the wall clock.
import { nowNs } from '../encoding/time.js';

export interface Clock {
  /** Nanoseconds since the Unix epoch. */
  nowNs(): bigint;
}

/** The wall clock, with sub-millisecond resolution. */
export const systemClock: Clock = { nowNs };

export const unixSeconds = (clock: Clock): bigint => clock.nowNs() / 1_000_000_000n;
export const unixMillis = (clock: Clock): number => Number(clock.nowNs() / 1_000_000n);

/**
 * The node's clock: the wall clock plus an offset that only grows (but for a revert of the node's state, which takes it back with the chains), so the node can be moved forward in
 * time (locktimes, staking periods, fee windows) while time never runs backwards for any chain.
 */
export class TravelClock implements Clock {
  private offset = 0n;

  nowNs(): bigint {
    return nowNs() + this.offset;
  }

  /** Moves the clock forward by `seconds` (≥ 0). */
  advance(seconds: bigint): void {
    if (seconds < 0n) throw new RangeError('the clock only moves forward');
    this.offset += seconds * 1_000_000_000n;
  }

  /** The offset a snapshot keeps, and what reverting to it (or loading it) puts back. */
  get offsetNs(): bigint {
    return this.offset;
  }
  set offsetNs(ns: bigint) {
    this.offset = ns;
  }

  get offsetSeconds(): bigint {
    return this.offset / 1_000_000_000n;
  }
}

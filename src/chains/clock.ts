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

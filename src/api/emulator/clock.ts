// emulator.advanceClock: moves the node's clock forward, so that what waits for time (staking periods
// ending, locktimes, L1 validator fees, the next blocks' timestamps on every chain) can be tested in
// seconds. The chains that build on their own (the P-Chain's rewards) do so before it answers.
import type { TravelClock } from '../../chains/clock.js';
import { method, serviceErrors } from '../../rpc/method.js';
import { struct, uint64 } from '../../rpc/schema.js';

const errors = serviceErrors({
  tooFar: () => 'seconds must be at most 3153600000 (a century)',
});

export function clockMethods(clock: TravelClock, afterAdvance: () => Promise<void>) {
  return {
    advanceClock: method(struct({ seconds: uint64 }), async ({ seconds }) => {
      if (seconds > 3_153_600_000n) throw errors.tooFar();
      clock.advance(seconds);
      await afterAdvance();
      return { now: String(clock.nowNs() / 1_000_000_000n), offset: String(clock.offsetSeconds) };
    }),
  };
}

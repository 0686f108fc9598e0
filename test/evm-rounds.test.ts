// When an EVM chain's block rounds run (src/vms/evm/rounds.ts): sends gather for a moment, a read
// starts the waiting round, and a send that follows a read is built at once. The gathering timer
// is faked, so what each case shows does not depend on the machine's speed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Rounds } from '../src/vms/evm/rounds.js';

/** A chain that always has work and counts its rounds. */
function chain() {
  const host = {
    closed: false,
    held: undefined,
    hasWork: true,
    rounds: 0,
    round: async () => {
      host.rounds++;
    },
    expireQueued: () => undefined,
  };
  return host;
}

/** Lets the rounds' loop run (it yields with setImmediate, which is not faked). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('block rounds', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gathers sends that follow one another until the spacing has passed', async () => {
    const host = chain();
    const rounds = new Rounds(host);
    await rounds.buildNow();
    rounds.buildSoon();
    rounds.buildSoon();
    await settle();
    expect(host.rounds).toBe(1);
    vi.advanceTimersByTime(50);
    await settle();
    expect(host.rounds).toBe(2);
  });

  it('starts the waiting round when a read comes', async () => {
    const host = chain();
    const rounds = new Rounds(host);
    await rounds.buildNow();
    rounds.buildSoon();
    await settle();
    expect(host.rounds).toBe(1);
    await rounds.settled();
    expect(host.rounds).toBe(2);
  });

  it('builds a send that follows a read at once, and gathers the sends after it again', async () => {
    const host = chain();
    const rounds = new Rounds(host);
    await rounds.buildNow();
    // A client that reads between its sends (its receipt, its nonce): no wait for the next read.
    expect(rounds.settled()).toBeUndefined();
    rounds.buildSoon();
    await settle();
    expect(host.rounds).toBe(2);
    // Sends with no read between them share a round again.
    rounds.buildSoon();
    rounds.buildSoon();
    await settle();
    expect(host.rounds).toBe(2);
    vi.advanceTimersByTime(50);
    await settle();
    expect(host.rounds).toBe(3);
  });
});

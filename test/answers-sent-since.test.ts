// Whether a kept answer's run read an account that sent a tx since (answers.ts' sentSince): such an
// answer is refused without diffing the two states, for the sender's nonce moved. Only where the
// head descends from the answer's block through blocks kept at hand; anything else is unknown
// (false), and the diff decides, as on another branch built after a revert, where the sender may
// have sent as many txs and the state may be the same.
import { describe, expect, it } from 'vitest';
import { toHex } from '../src/encoding/bytes.js';
import { sentSince } from '../src/vms/evm/answers.js';
import type { TxRecord } from '../src/vms/evm/records.js';
import type { StoredBlock } from '../src/vms/evm/store.js';

const address = (n: number) => new Uint8Array(20).fill(n);
/** The accounts a run read, as answers.ts keeps them: addresses' hex. */
const reads = (...accounts: Array<Uint8Array | string>) => new Set(accounts.map((a) => (typeof a === 'string' ? a : toHex(a))));
const SENDER = address(1);
const OTHER = address(2);

function block(number: number, parent: StoredBlock | undefined, tag = 0): StoredBlock {
  const hash = new Uint8Array(32).fill(number * 16 + tag + 1);
  return { header: { number: BigInt(number), parentHash: parent?.hash ?? new Uint8Array(32) }, hash, body: [], size: 0 } as unknown as StoredBlock;
}

/** A store that keeps `blocks` at hand, each with records of txs sent by `senders` (by block hash). */
function store(blocks: StoredBlock[], senders: Map<StoredBlock, Uint8Array[]>, recordsKept = (_b: StoredBlock) => true) {
  const byHash = new Map(blocks.map((b) => [toHex(b.hash), b]));
  return {
    store: {
      keptBlock: (hash: Uint8Array) => byHash.get(toHex(hash)),
      keptRecords: (hash: Uint8Array) => {
        const b = byHash.get(toHex(hash));
        if (!b || !recordsKept(b)) return undefined;
        return (senders.get(b) ?? []).map((from) => ({ from }) as TxRecord);
      },
    },
  };
}

describe('sentSince', () => {
  const b0 = block(0, undefined);
  const b1 = block(1, b0);
  const b2 = block(2, b1);
  const b3 = block(3, b2);
  const line = [b0, b1, b2, b3];

  it('finds a sender among the reads in the head or a block between', () => {
    expect(sentSince(store(line, new Map([[b3, [SENDER]]])), b2, b3, reads(SENDER))).toBe(true);
    expect(sentSince(store(line, new Map([[b2, [OTHER, SENDER]]])), b0, b3, reads(OTHER))).toBe(true);
    expect(sentSince(store(line, new Map([[b2, [SENDER]]])), b0, b3, reads('00', SENDER))).toBe(true);
  });

  it('is false where no account read sent, and at the block itself', () => {
    const senders = new Map([
      [b1, [OTHER]],
      [b2, [OTHER]],
      [b3, [OTHER]],
    ]);
    expect(sentSince(store(line, senders), b0, b3, reads(SENDER))).toBe(false);
    expect(sentSince(store(line, senders), b0, b3, reads())).toBe(false);
    // Sent in the answer's own block: before the answer, not since.
    expect(sentSince(store(line, new Map([[b2, [SENDER]]])), b2, b3, reads(SENDER))).toBe(false);
    expect(sentSince(store(line, new Map([[b3, [SENDER]]])), b3, b3, reads(SENDER))).toBe(false);
  });

  it('is false on another branch: the sender may have sent as many there', () => {
    // b2' and b3' were built on b1 after a revert, as a test suite builds its txs again.
    const b2x = block(2, b1, 8);
    const b3x = block(3, b2x, 8);
    const senders = new Map([
      [b2, [SENDER]],
      [b3, [SENDER]],
      [b2x, [SENDER]],
      [b3x, [SENDER]],
    ]);
    expect(sentSince(store([...line, b2x, b3x], senders), b3, b3x, reads(SENDER))).toBe(false);
    expect(sentSince(store([...line, b2x, b3x], senders), b2, b3x, reads(SENDER))).toBe(false);
    // The common ancestor is a block the head does descend from.
    expect(sentSince(store([...line, b2x, b3x], senders), b1, b3x, reads(SENDER))).toBe(true);
  });

  it('is false where a block or its records are not at hand', () => {
    const senders = new Map([[b3, [SENDER]]]);
    // b2 forgotten: the walk from b3 cannot reach b0 to know b3 descends from it.
    expect(sentSince(store([b0, b1, b3], senders), b0, b3, reads(SENDER))).toBe(false);
    expect(
      sentSince(
        store(line, senders, (b) => b !== b3),
        b2,
        b3,
        reads(SENDER),
      ),
    ).toBe(false);
  });
});

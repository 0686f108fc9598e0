// The sender recovered from a tx's bytes as sent (src/vms/evm/sender.ts) against @ethereumjs/tx's
// own getHashedMessageToSign and getSenderAddress, the reference: typed txs of both kinds whose lists
// have one-, two- and three-byte length headers, with and without access lists, contract creations,
// signature values on every RLP item-length boundary, and with either keccak (@noble/hashes until the
// WebAssembly loads, then hash-wasm).
import type { Common } from '@ethereumjs/common';
import { createAccessList2930Tx, createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { loadKeccak } from '../src/crypto/keccak.js';
import { mulberry32 } from '../src/rpc/mulberry32.js';
import { chainCommon } from '../src/vms/evm/rules.js';
import { RecoveredSenders, recoverSender, typedSigningHash } from '../src/vms/evm/sender.js';

const common: Common = chainCommon(43112n);
const KEY = hexToBytes('0x56289e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8027'); // ewoq
const EWOQ = '0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc';
const next = mulberry32(7);
const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256));

/** Unsigned tx fields: every data length that moves the list header across a size boundary. */
function fields(i: number, dataLength: number, entries: number) {
  return {
    nonce: BigInt(i),
    gasLimit: 30_000_000n,
    maxFeePerGas: 300_000_000_000n,
    maxPriorityFeePerGas: BigInt(i % 3),
    to: i % 5 === 4 && dataLength <= 49_152 ? undefined : bytes(20), // some creations (within the initcode limit)
    value: BigInt(i) * 10n ** 15n,
    data: bytes(dataLength),
    accessList: Array.from({ length: entries }, () => ({ address: bytesToHex(bytes(20)), storageKeys: [bytesToHex(bytes(32)), bytesToHex(bytes(32))] })),
  };
}

const GAS_PRICE = 25_000_000_000n;
const DATA_LENGTHS = [0, 1, 30, 40, 55, 56, 120, 200, 255, 256, 1000, 65_400, 65_536, 70_000];

function signed(): TypedTransaction[] {
  const txs: TypedTransaction[] = [];
  DATA_LENGTHS.forEach((n, i) => {
    for (const entries of [0, 1, 3]) {
      txs.push(createFeeMarket1559Tx(fields(i, n, entries), { common }).sign(KEY));
      txs.push(createAccessList2930Tx({ ...fields(i + 1, n, entries), gasPrice: GAS_PRICE }, { common }).sign(KEY));
    }
  });
  return txs;
}

function checkAll(): void {
  const txs = signed();
  expect(txs.some((tx) => tx.serialize().length > 65_536 + 4)).toBe(true); // a three-byte length header
  for (const tx of txs) {
    const raw = tx.serialize();
    expect(bytesToHex(typedSigningHash(raw, tx.v!, tx.r!, tx.s!))).toBe(bytesToHex(tx.getHashedMessageToSign()));
    expect(recoverSender(tx, raw).toString()).toBe(EWOQ);
  }
}

describe('sender recovered from the bytes as sent', () => {
  it('signing hashes and senders match @ethereumjs with @noble/hashes (before the WebAssembly keccak loads)', () => {
    checkAll();
  });

  it('signing hashes and senders match @ethereumjs with the WebAssembly keccak', async () => {
    await loadKeccak();
    checkAll();
  });

  it('unsigned lists on both sides of the one-byte list header (payloads of up to 55 bytes)', () => {
    const sizes = new Set<number>();
    for (let n = 0; n < 40; n++) {
      const small = {
        nonce: 0n,
        gasLimit: 21_000n,
        maxFeePerGas: 300_000_000_000n,
        maxPriorityFeePerGas: 0n,
        to: bytes(20),
        value: 0n,
        data: bytes(n),
      };
      for (const tx of [createFeeMarket1559Tx(small, { common }).sign(KEY), createAccessList2930Tx({ ...small, gasPrice: 1n }, { common }).sign(KEY)]) {
        const message = tx.getMessageToSign();
        sizes.add(message[1]! <= 0xf7 ? message[1]! - 0xc0 : -1);
        expect(bytesToHex(typedSigningHash(tx.serialize(), tx.v!, tx.r!, tx.s!))).toBe(bytesToHex(tx.getHashedMessageToSign()));
      }
    }
    expect(sizes.has(55) && sizes.has(54) && sizes.has(-1)).toBe(true);
  });

  it('signature values on each RLP item-length boundary give the same hash as @ethereumjs', () => {
    const values = [1n, 0x7fn, 0x80n, 0xffn, 0x100n, 0xffffn, 2n ** 128n, 2n ** 248n, 2n ** 255n];
    for (const v of [0n, 1n])
      for (const r of values)
        for (const s of values.filter((x) => x < 2n ** 255n)) {
          const tx = createFeeMarket1559Tx({ ...fields(3, 56, 1), v, r, s }, { common });
          const raw = tx.serialize();
          expect(bytesToHex(typedSigningHash(raw, v, r, s))).toBe(bytesToHex(tx.getHashedMessageToSign()));
          let expected: string;
          try {
            expected = tx.getSenderAddress().toString();
          } catch {
            expected = 'throws';
          }
          let got: string;
          try {
            got = recoverSender(tx, raw).toString();
          } catch {
            got = 'throws';
          }
          expect(got).toBe(expected);
        }
  });

  it('a legacy EIP-155 tx (whose signed list is not in its bytes) goes through @ethereumjs', () => {
    const tx = createLegacyTx({ ...fields(1, 10, 0), gasPrice: GAS_PRICE }, { common }).sign(KEY);
    expect(recoverSender(tx, tx.serialize()).toString()).toBe(EWOQ);
  });
});

// The senders admission keeps by tx hash (RecoveredSenders): what a client can make the node hold is
// bounded. A kept sender is answered as the same object, a recovered one as a new one; the hashes
// here stand for other txs (the bound, not the hash, is under test).
describe('RecoveredSenders', () => {
  const tx = createFeeMarket1559Tx(fields(1, 10, 0), { common }).sign(KEY);
  const raw = tx.serialize();
  const hashOf = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;

  it('keeps 4,096 senders, the most recently sent last, and recovers a dropped one again', () => {
    const senders = new RecoveredSenders();
    const first = senders.of(hashOf(0), tx, raw);
    const second = senders.of(hashOf(1), tx, raw);
    expect(first.toString()).toBe(EWOQ);
    expect(senders.of(hashOf(0), tx, raw)).toBe(first); // kept, and now the most recent
    for (let i = 2; i < 4_096; i++) senders.of(hashOf(i), tx, raw);
    // One more: the oldest goes, which is the second (the first was sent again since).
    senders.of(hashOf(4_096), tx, raw);
    expect(senders.of(hashOf(0), tx, raw)).toBe(first);
    const again = senders.of(hashOf(1), tx, raw);
    expect(again).not.toBe(second);
    expect(again.toString()).toBe(EWOQ);
  });

  it('keeps nothing for a signature that recovers no key', () => {
    const senders = new RecoveredSenders();
    const bad = createFeeMarket1559Tx({ ...fields(1, 10, 0), v: 0n, r: 0n, s: 1n }, { common });
    const badRaw = bad.serialize();
    expect(() => senders.of(hashOf(7), bad, badRaw)).toThrow();
    // The same hash now with a good tx: recovered, not a kept failure.
    expect(senders.of(hashOf(7), tx, raw).toString()).toBe(EWOQ);
  });
});

// The explorer's pure helpers, against the node's own encoders: amounts written exactly, cb58 and
// bech32 as avalanchejs writes them, and coreth's atomic txs read from the bytes the node stores.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base58, cb58, formatAddress, parseAtomicBatch, parseAtomicTx, parseUtxo, sha256 } from '../explorer/src/cb58.js';
import { decodeLog, TOPICS } from '../explorer/src/logs.js';
import { ago, gwei, short, units } from '../explorer/src/format.js';
import { A } from './support/pvm.js';
import { u32, u64 } from '../src/encoding/bytes.js';

describe('the explorer writes amounts exactly', () => {
  it('units: grouped thousands, every nonzero decimal, never rounded', () => {
    expect(units(0n, 18)).toBe('0');
    expect(units(1n, 18)).toBe('0.000000000000000001');
    expect(units(50_000_001_999_988_770_000_000_000n, 18)).toBe('50,000,001.99998877');
    expect(units(300_000_000_000_000_000n, 9)).toBe('300,000,000');
    expect(units(-1_500_000_000n, 9)).toBe('-1.5');
    expect(gwei(25_000_000_000n)).toBe('25 gwei');
    expect(gwei(2n)).toBe('0.000000002 gwei (2 wei)');
  });

  it('short IDs keep their prefix; times read as ages', () => {
    expect(short('0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC')).toBe('0x8db97C…52FC');
    expect(short('X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u')).toBe('X-local1…z96u');
    expect(short('C')).toBe('C');
    expect(ago(100, 112)).toBe('12 s ago');
    expect(ago(0, 3 * 3600 + 5)).toBe('3 h ago');
    expect(ago(10, 6)).toBe('in 4 s');
  });
});

describe("the explorer's codecs", () => {
  it('sha256 and cb58 match node:crypto and avalanchejs', () => {
    for (const n of [0, 1, 55, 56, 64, 65, 1000]) {
      const data = new Uint8Array(n).map((_, i) => (i * 7 + 3) & 255);
      expect(Buffer.from(sha256(data)).toString('hex')).toBe(createHash('sha256').update(data).digest('hex'));
      expect(cb58(data)).toBe(A.utils.base58check.encode(data));
    }
    expect(base58(new Uint8Array([0, 0, 1]))).toBe('112');
  });

  it('bech32 addresses as avalanchejs formats them', () => {
    for (const seed of [1, 2, 3]) {
      const bytes = new Uint8Array(20).fill(seed * 37);
      expect(formatAddress('P', 'local', bytes)).toBe(A.utils.format('P', 'local', bytes));
      expect(formatAddress('X', 'custom', bytes)).toBe(A.utils.format('X', 'custom', bytes));
    }
  });

  it('a UTXO as getUTXOs gives it, and atomic txs from their bytes and from a block batch', () => {
    const txID = new Uint8Array(32).fill(1);
    const asset = new Uint8Array(32).fill(2);
    // An atomic import as coreth encodes it: one input of 2 AVAX, one EVM output, one credential.
    // A UTXO as getUTXOs gives it: codec version, UTXO ID, asset, a secp256k1 transfer output (type 7).
    const utxo = Buffer.concat([
      Buffer.alloc(2),
      Buffer.from(txID),
      u32(3),
      Buffer.from(asset),
      u32(7),
      u64(12_345n),
      u64(0n),
      u32(1),
      u32(1),
      Buffer.alloc(20, 9),
    ]);
    expect(parseUtxo(`0x${utxo.toString('hex')}`)).toEqual({ txID: cb58(txID), index: 3, assetID: cb58(asset), amount: 12_345n, locktime: 0n });
    const chain = Buffer.alloc(32, 4);
    const evm = Buffer.alloc(20, 5);
    const tx = Buffer.concat([
      u32(0),
      u32(12345),
      Buffer.alloc(32, 6),
      chain,
      u32(1),
      Buffer.from(txID),
      u32(0),
      Buffer.from(asset),
      u32(5),
      u64(2_000_000_000n),
      u32(1),
      u32(0),
      u32(1),
      evm,
      u64(1_999_000_000n),
      Buffer.from(asset),
      u32(1),
      u32(9),
      u32(1),
      Buffer.alloc(65, 7),
    ]);
    const signed = Buffer.concat([Buffer.alloc(2), tx]);
    const parsed = parseAtomicTx(signed.toString('hex'));
    expect(parsed).toEqual({
      type: 'ImportTx',
      otherChain: cb58(chain),
      evm: [{ address: `0x${evm.toString('hex')}`, amount: 1_999_000_000n, assetID: cb58(asset) }],
      utxos: [{ txID: cb58(txID), index: 0, assetID: cb58(asset), amount: 2_000_000_000n }],
    });
    const batch = Buffer.concat([Buffer.alloc(2), u32(2), tx, tx]).toString('hex');
    const both = parseAtomicBatch(`0x${batch}`);
    expect(both.map((t) => t.id)).toEqual([cb58(sha256(signed)), cb58(sha256(signed))]);
    expect(parseAtomicBatch('0x')).toEqual([]);
  });
});

describe("the explorer's log decoding", () => {
  const pad = (n: bigint) => n.toString(16).padStart(64, '0');
  const addr = `0x${'0'.repeat(24)}${'ab'.repeat(20)}`;
  const log = (topics: string[], data = '0x') => ({ address: '0x01', logIndex: '0x0', topics, data });

  it('decodes the token events it knows, and shows any log of another shape undecoded', () => {
    const batch = `0x${pad(64n)}${pad(160n)}${pad(2n)}${pad(1n)}${pad(2n)}${pad(2n)}${pad(10n)}${pad(20n)}`;
    const ok = decodeLog(log([TOPICS.transferBatch, addr, addr, addr], batch));
    expect(ok).toMatchObject({ event: 'TransferBatch', tokenIds: [1n, 2n], amounts: [10n, 20n] });
    // What any contract can emit under a known topic0: too few topics, short data, an array length past the data.
    for (const bad of [
      log([TOPICS.transferSingle]),
      log([TOPICS.transferSingle, addr, addr, addr], `0x${pad(1n)}`),
      log([TOPICS.transferBatch, addr, addr, addr], `0x${pad(64n)}${pad(64n)}${'f'.repeat(64)}`),
      log([TOPICS.transferBatch, addr, addr, addr], `0x${pad(64n)}${pad(64n)}${pad(20_000_000n)}`),
      log([TOPICS.icmSend]),
      log([TOPICS.approval, addr]),
    ]) {
      const decoded = decodeLog(bad);
      expect(decoded.standard).toBe('');
      expect(decoded.event).toBe(`${bad.topics[0]!.slice(0, 10)}…`);
    }
  });
});

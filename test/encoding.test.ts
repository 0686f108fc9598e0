// Encodings whose exact text is part of the API: cb58 and its errors, Go durations and times,
// hex with checksums and plain hex text of bytes, and the X-Chain genesis block vector.
import { describe, expect, it } from 'vitest';
import { decodeCB58, encodeCB58, idFromString, EMPTY_ID } from '../src/encoding/cb58.js';
import { decodeHex, encodeHex } from '../src/encoding/hex.js';
import { asBuffer, concatBytes, equalBytes, fromHex, fromHex0x, parseHex, parseHex0x, quotedHex0x, strip0x, toHex, toHex0x } from '../src/encoding/bytes.js';
import { formatDuration, formatRFC3339Nano, monthStart, parseDuration, weekStart } from '../src/encoding/time.js';
import { parseGoJson, type RawNumber } from '../src/encoding/gojson.js';
import { stopVertexId, xGenesisBlock } from '../src/vms/avm/genesis.js';
import { FX_IDS, VM_IDS } from '../src/chains/ids.js';
import { LOCAL_X_CHAIN_ID } from './support/known.js';
import { enabled, parseLevel } from '../src/logging/level.js';

describe('cb58', () => {
  it('round-trips and names the empty ID as avalanchego does', () => {
    expect(EMPTY_ID).toBe('11111111111111111111111111111111LpoYY');
    const bytes = Buffer.from('dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db', 'hex');
    expect(encodeCB58(bytes)).toBe('2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe');
    expect(Buffer.from(idFromString('2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe')).equals(bytes)).toBe(true);
  });

  it('reports mr-tron/base58 and cb58 errors verbatim', () => {
    expect(() => decodeCB58('')).toThrow('base58 decoding error: zero length string');
    expect(() => decodeCB58('0abc')).toThrow("base58 decoding error: Invalid base58 digit ('0')");
    expect(() => decodeCB58('é')).toThrow('base58 decoding error: High-bit set on invalid digit');
    expect(() => decodeCB58('1')).toThrow('input string is smaller than the checksum size');
    expect(() => decodeCB58('11111111111111111111111111111111LpoYZ')).toThrow('invalid input checksum');
    expect(() => idFromString(encodeCB58(new Uint8Array(20)))).toThrow('invalid hash length: expected 32 bytes but got 20');
  });

  it('derives the VM and fx IDs from their names', () => {
    expect(VM_IDS.avm).toBe('jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq');
    expect(VM_IDS.subnetEvm).toBe('srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy');
    expect(FX_IDS.secp256k1fx).toBe('spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ');
  });
});

describe('hex formatting', () => {
  it('adds and checks the 4-byte sha256 checksum', () => {
    const data = Buffer.from('hello');
    const hex = encodeHex(data, 'hex');
    expect(hex).toMatch(/^0x68656c6c6f[0-9a-f]{8}$/);
    expect(Buffer.from(decodeHex(hex, 'hex')).equals(data)).toBe(true);
    expect(() => decodeHex('0x68656c6c6f00000000', 'hex')).toThrow('invalid input checksum');
    expect(() => decodeHex('68', 'hexnc')).toThrow('missing 0x prefix to hex encoding');
    expect(() => decodeHex('0x0', 'hexnc')).toThrow('encoding/hex: odd length hex string');
    expect(() => decodeHex('0xzz', 'hexnc')).toThrow("encoding/hex: invalid byte: U+007A 'z'");
    expect(decodeHex('', 'hex')).toHaveLength(0);
  });
});

describe('hex text of bytes', () => {
  it("writes what Buffer's toString('hex') writes, for views, pooled Buffers and every byte", () => {
    const every = Uint8Array.from({ length: 256 }, (_, i) => i);
    const pooled = Buffer.from('a pooled buffer, small enough to share the pool');
    const cases = [
      every,
      every.subarray(7, 39),
      every.subarray(255),
      new Uint8Array(),
      pooled,
      pooled.subarray(2, 9),
      new Uint8Array(new SharedArrayBuffer(4)).fill(0xfe),
    ];
    for (const b of cases) expect(toHex(b)).toBe(Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex'));
  });

  it('reads a view in place, with and without 0x, lower-case', () => {
    const whole = new Uint8Array([0x00, 0xab, 0xcd, 0xef, 0x10]);
    const view = whole.subarray(1, 4);
    expect(toHex(view)).toBe('abcdef');
    expect(toHex0x(view)).toBe('0xabcdef');
    expect(toHex0x(new Uint8Array())).toBe('0x');
    const b = asBuffer(view);
    expect(b.buffer).toBe(whole.buffer);
    b[0] = 0x01;
    expect(whole[1]).toBe(0x01);
  });

  it('parses tolerantly as Buffer does, or strictly', () => {
    expect([...fromHex('0aFf')]).toEqual([0x0a, 0xff]);
    expect([...fromHex('0a1')]).toEqual([0x0a]);
    expect([...fromHex('0azz0b')]).toEqual([0x0a]);
    expect([...fromHex('0x0a')]).toEqual([]);
    expect(fromHex('0a')).not.toBeInstanceOf(Buffer);
    expect([...fromHex0x('0x0a')]).toEqual([0x0a]);
    expect([...fromHex0x('0a')]).toEqual([0x0a]);
    expect([...fromHex0x('0X0a')]).toEqual([]);
    expect(strip0x('0x0x1')).toBe('0x1');
    expect(strip0x('0X1')).toBe('0X1');
    expect([...parseHex('0aFf')!]).toEqual([0x0a, 0xff]);
    expect(parseHex('')).toHaveLength(0);
    expect(parseHex('0a1')).toBeUndefined();
    expect(parseHex('0x0a')).toBeUndefined();
    expect(parseHex('zz')).toBeUndefined();
    expect([...parseHex0x('0x0aFf')!]).toEqual([0x0a, 0xff]);
    expect([...parseHex0x('0X0a')!]).toEqual([0x0a]);
    expect([...parseHex0x('0a')!]).toEqual([0x0a]);
    expect(parseHex0x('0x')).toHaveLength(0);
    expect(parseHex0x('0x0a1')).toBeUndefined();
    expect(parseHex0x('0x0x0a')).toBeUndefined();
  });

  it('quotes hex for JSON, compares and joins bytes', () => {
    expect(quotedHex0x(Uint8Array.of(0xab, 0x01))).toBe('"0xab01"');
    expect(quotedHex0x(new Uint8Array())).toBe('"0x"');
    expect(equalBytes(Uint8Array.of(1, 2), Buffer.from([1, 2]))).toBe(true);
    expect(equalBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 0))).toBe(false);
    expect(equalBytes(new Uint8Array(), new Uint8Array())).toBe(true);
    const joined = concatBytes(Uint8Array.of(1), new Uint8Array(), Uint8Array.of(2, 3));
    expect([...joined]).toEqual([1, 2, 3]);
    expect(joined).not.toBeInstanceOf(Buffer);
    expect(concatBytes()).toHaveLength(0);
  });
});

describe('Go time and durations', () => {
  it('parses durations as time.ParseDuration', () => {
    expect(parseDuration('2s')).toBe(2_000_000_000n);
    expect(parseDuration('500ms')).toBe(500_000_000n);
    expect(parseDuration('1m30s')).toBe(90_000_000_000n);
    expect(parseDuration('1.5h')).toBe(5_400_000_000_000n);
    expect(parseDuration('0')).toBe(0n);
    expect(() => parseDuration('5')).toThrow('time: missing unit in duration "5"');
    expect(() => parseDuration('5x')).toThrow('time: unknown unit "x" in duration "5x"');
    expect(() => parseDuration('')).toThrow('time: invalid duration ""');
  });

  it('formats durations as time.Duration.String', () => {
    expect(formatDuration(0n)).toBe('0s');
    expect(formatDuration(293_098_000n)).toBe('293.098ms');
    expect(formatDuration(1_500n)).toBe('1.5µs');
    expect(formatDuration(90_000_000_000n)).toBe('1m30s');
    expect(formatDuration(3_600_000_000_000n)).toBe('1h0m0s');
  });

  it('formats RFC 3339 with trimmed nanoseconds', () => {
    const text = formatRFC3339Nano(1_607_144_400_120_000_000n);
    expect(text).toMatch(/^2020-12-0\dT\d\d:00:00\.12(Z|[+-]\d\d:\d\d)$/);
  });
});

describe('Go JSON reading', () => {
  it('keeps big numbers exact and reads only the first value', () => {
    const { value } = parseGoJson(Buffer.from('{"n":18446744073709551615} {"ignored":true}'));
    expect((value as { n: RawNumber }).n.raw).toBe('18446744073709551615');
  });

  it('stops at Go maximum nesting depth without overflowing the stack', () => {
    expect(() => parseGoJson(Buffer.from('['.repeat(10001)))).toThrow('exceeded max depth');
  });
});

describe('X-Chain genesis block (local network)', () => {
  it('matches the derived stop vertex and genesis block', () => {
    const block = xGenesisBlock(idFromString(LOCAL_X_CHAIN_ID));
    expect(encodeCB58(stopVertexId(LOCAL_X_CHAIN_ID))).toBe('3LdUD428gni3AFYAooqcTiN3xPGiLE7XdHowi9CsbNGH1i7QY');
    expect(encodeCB58(block.id)).toBe('2R2UY2pZMQr8nR9ywCdqn97Lp5a6hceqtLXkag6vH7KQSVvmst');
    expect(encodeHex(block.bytes, 'hex')).toBe(
      '0x000000000014054f478489b451cecef53155c24f04f441912cc34487db87f16b13a2f4fec8990000000000000000000000005fcb13d0000000000000000000000000000000000000000000000000000000000000000000000000f11be722',
    );
  });
});

describe('log levels', () => {
  it('orders TRACE between DEBUG and INFO, and OFF silences everything', () => {
    expect(parseLevel('trace')).toBe('TRACE');
    expect(enabled('TRACE', 'DEBUG')).toBe(true);
    expect(enabled('DEBUG', 'TRACE')).toBe(false);
    expect(enabled('INFO', 'TRACE')).toBe(true);
    expect(enabled('FATAL', 'OFF')).toBe(false);
    expect(() => parseLevel('loud')).toThrow('unknown log level: "loud"');
  });
});

describe('calendar buckets (weeks from Monday, months from the 1st) past what a JS Date holds', () => {
  it('agree with Date over its range, Monday and the first at 0:00 UTC', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let i = 0; i < 2000; i++) {
      const t = Math.floor((next() * 1.2 - 0.2) * 8.6e12);
      const d = new Date(t * 1000);
      const day = t - (((t % 86_400) + 86_400) % 86_400);
      expect(weekStart(t)).toBe(day - ((new Date(day * 1000).getUTCDay() + 6) % 7) * 86_400);
      // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
      const first = new Date(0);
      first.setUTCFullYear(d.getUTCFullYear(), d.getUTCMonth(), 1);
      expect(monthStart(t)).toBe(first.getTime() / 1000);
    }
  });

  it('stay whole numbers up to the latest block time a header holds (2^64-1 ms)', () => {
    for (const t of [8.64e12 + 1, 1e15, Number((2n ** 64n - 1n) / 1000n)]) {
      expect(Number.isSafeInteger(weekStart(t)) || Number.isInteger(weekStart(t))).toBe(true);
      expect(Number.isInteger(monthStart(t))).toBe(true);
      expect(monthStart(t)).toBeLessThanOrEqual(t);
      expect(t - weekStart(t)).toBeLessThan(7 * 86_400 + 1);
      expect(() => BigInt(monthStart(t))).not.toThrow();
    }
  });
});

// Encodings the tracers share: Go's JSON forms of geth's types (hexutil.Bytes "0x…", hexutil.Big /
// Uint64 quantities, common.Hash words), geth's padded memory copy, and abi.UnpackRevert.
import { bytesToBigInt, setLengthLeft } from '@ethereumjs/util';
import { toHex } from '../../../encoding/bytes.js';

export const quantity = (n: bigint | number): string => `0x${n.toString(16)}`;
/** A 256-bit value as a 32-byte word, without 0x (struct log storage) or with it (common.Hash). */
export const word = (n: bigint): string => n.toString(16).padStart(64, '0');
export const word32 = (b: Uint8Array): Uint8Array => setLengthLeft(b, 32);
/** The address in a stack item: its low 20 bytes. */
export const addressOf = (n: bigint): Uint8Array => Uint8Array.from(Buffer.from(word(n).slice(24), 'hex'));

/** tracers.GetMemoryCopyPadded: zero-filled past the end of memory, refused past 1 MiB of padding. */
export function memoryCopyPadded(memory: Uint8Array, offset: bigint, size: bigint): Uint8Array | undefined {
  if (offset + size - BigInt(memory.length) > 1024n * 1024n) return undefined;
  const out = new Uint8Array(Number(size));
  if (offset < BigInt(memory.length)) out.set(memory.subarray(Number(offset), Number(offset + size)));
  return out;
}

// Solidity's revert payloads: Error(string) and Panic(uint256) (accounts/abi/abi.go).
const ERROR_SELECTOR = '08c379a0';
const PANIC_SELECTOR = '4e487b71';
const PANIC_REASONS: Record<string, string> = {
  '0': 'generic panic',
  '1': 'assert(false)',
  '17': 'arithmetic underflow or overflow',
  '18': 'division or modulo by zero',
  '33': 'enum overflow',
  '34': 'invalid encoded storage byte array accessed',
  '49': 'out-of-bounds array access; popping on an empty array',
  '50': 'out-of-bounds access of an array or bytesN',
  '65': 'out of memory',
  '81': 'uninitialized function',
};

/** abi.UnpackRevert, undefined where geth's decoder refuses the data (it then prints no reason). */
export function unpackRevert(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const selector = toHex(data.subarray(0, 4));
  const body = data.subarray(4);
  if (body.length < 32) return undefined;
  if (selector === PANIC_SELECTOR) {
    const code = bytesToBigInt(body.subarray(0, 32));
    return PANIC_REASONS[code.toString()] ?? `unknown panic code: ${quantity(code)}`;
  }
  if (selector !== ERROR_SELECTOR) return undefined;
  // lengthPrefixPointsTo: the offset word, then a length word, both inside the data.
  const start = bytesToBigInt(body.subarray(0, 32)) + 32n;
  if (start > BigInt(body.length)) return undefined;
  const length = bytesToBigInt(body.subarray(Number(start) - 32, Number(start)));
  if (start + length > BigInt(body.length)) return undefined;
  return new TextDecoder().decode(body.subarray(Number(start), Number(start + length)));
}

// The calls console.sol makes (Hardhat's console.log, also forge-std's): a staticcall to a fixed
// address with no code, whose data is `log(<types>)`'s selector and its ABI-encoded arguments. The
// address runs nothing on a real chain; a dev node reads what was sent there, as Anvil and Hardhat do.
import { decodeAbiParameters } from 'viem';
import { keccakText } from '../../../crypto/keccak.js';
import { toHex } from '../../../encoding/bytes.js';
import type { ConsoleValue } from './format.js';

/** console.sol's CONSOLE_ADDRESS: the bytes of "console.log", unhexed lowercase. */
export const CONSOLE_ADDRESS_HEX = '000000000000000000636f6e736f6c652e6c6f67';

/** What console.sol sends: `log(...)` formats its arguments; `table(...)` lays out one or two arrays. */
export interface ConsoleCall {
  kind: 'log' | 'table';
  values: ConsoleValue[];
}

/** The four types every combination of two to four arguments takes (console.sol's log(p0, …, p3)). */
const COMBINED = ['uint256', 'string', 'bool', 'address'] as const;
const FIXED_BYTES = Array.from({ length: 32 }, (_, i) => `bytes${i + 1}`);
const ARRAYS = ['uint256[]', 'int256[]', 'bool[]', 'address[]', 'bytes32[]', 'string[]'];

/** One signature: `log` or `table` and its argument types. */
interface Signature {
  kind: ConsoleCall['kind'];
  types: string[];
}

function combinations(n: number): string[][] {
  if (n === 0) return [[]];
  return combinations(n - 1).flatMap((rest) => COMBINED.map((t) => [...rest, t]));
}

/** Every signature console.sol sends: log() to four arguments, logBytes1–32 and the tables. */
function signatures(): Signature[] {
  const logs = [
    [],
    ...['uint256', 'int256', 'string', 'bool', 'address', 'bytes', ...FIXED_BYTES].map((t) => [t]),
    ['string', 'int256'],
    ...combinations(2),
    ...combinations(3),
    ...combinations(4),
  ];
  const tables = [...ARRAYS.map((t) => [t]), ...ARRAYS.map((t) => ['string[]', t])];
  return [...logs.map((types) => ({ kind: 'log' as const, types })), ...tables.map((types) => ({ kind: 'table' as const, types }))];
}

let bySelector: Map<string, Signature> | undefined;

/**
 * Selectors (8 hex digits) to their signatures, made at the first console call. Hardhat's console.sol
 * before 2.14 named the integer types `uint` and `int` in the signatures it hashed: contracts built
 * with it still send those selectors, so they are read too.
 */
function selectors(): Map<string, Signature> {
  if (bySelector) return bySelector;
  const map = new Map<string, Signature>();
  const add = (text: string, entry: Signature) => map.set(toHex(keccakText(text).subarray(0, 4)), entry);
  for (const entry of signatures()) {
    const text = `${entry.kind}(${entry.types.join(',')})`;
    add(text, entry);
    const legacy = text.replace(/\buint256\b/g, 'uint').replace(/\bint256\b/g, 'int');
    if (legacy !== text) add(legacy, entry);
  }
  bySelector = map;
  return map;
}

/** The console call `data` makes, or undefined when it is none console.sol sends or does not decode. */
export function decodeConsoleCall(data: Uint8Array): ConsoleCall | undefined {
  if (data.length < 4) return undefined;
  const entry = selectors().get(toHex(data.subarray(0, 4)));
  if (!entry) return undefined;
  let decoded: readonly unknown[];
  try {
    decoded = decodeAbiParameters(
      entry.types.map((type) => ({ type })),
      data.subarray(4),
    );
  } catch {
    return undefined;
  }
  return { kind: entry.kind, values: decoded.map((v, i) => consoleValue(entry.types[i]!, v)) };
}

function consoleValue(type: string, v: unknown): ConsoleValue {
  if (type.endsWith('[]')) return { kind: 'array', values: (v as unknown[]).map((e) => consoleValue(type.slice(0, -2), e)) };
  if (type === 'uint256') return { kind: 'uint', value: v as bigint };
  if (type === 'int256') return { kind: 'int', value: v as bigint };
  if (type === 'bool') return { kind: 'bool', value: v as boolean };
  if (type === 'address') return { kind: 'address', value: v as string };
  if (type === 'string') return { kind: 'string', value: v as string };
  return { kind: 'bytes', value: v as string };
}

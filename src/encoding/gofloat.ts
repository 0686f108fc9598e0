// A quotient of integers as Go computes it with math/big and prints it with fmt's %.Nf:
// new(big.Float).Quo(new(big.Float).SetInt(num), new(big.Float).SetInt(den)).Float64(). The pool's
// fee cap (checkTxFee) compares and prints a tx's fee in ether so; a JS division of Numbers rounds
// differently near a cent, and toFixed writes exponents past 1e21 where Go writes every digit.

/** A float64 held exactly: mantissa · 2^exp. */
export interface GoFloat64 {
  mantissa: bigint;
  exp: number;
}

const bitLength = (n: bigint): number => (n === 0n ? 0 : n.toString(2).length);

/** n/d (n ≥ 0, d > 0) rounded to an integer, ties to even (math/big's and strconv's default). */
function roundHalfEven(n: bigint, d: bigint): bigint {
  const q = n / d;
  const twice = (n % d) * 2n;
  return twice > d || (twice === d && (q & 1n) === 1n) ? q + 1n : q;
}

/** num/den (both > 0) correctly rounded to `prec` significant bits, ties to even. */
function roundedQuotient(num: bigint, den: bigint, prec: number): GoFloat64 {
  const top = 1n << BigInt(prec);
  // The exponent that leaves `prec` bits before the point: from the operands' lengths, then exact.
  let exp = bitLength(num) - bitLength(den) - prec;
  const quotientAt = (e: number) => (e >= 0 ? num / (den << BigInt(e)) : (num << BigInt(-e)) / den);
  while (quotientAt(exp) >= top) exp++;
  while (quotientAt(exp) < top >> 1n) exp--;
  let mantissa = exp >= 0 ? roundHalfEven(num, den << BigInt(exp)) : roundHalfEven(num << BigInt(-exp), den);
  if (mantissa === top) {
    mantissa >>= 1n;
    exp++;
  }
  return { mantissa, exp };
}

/** `x` rounded to 53 significant bits, ties to even (big.Float's Float64 for a value in float64's range). */
function toFloat64(x: GoFloat64, prec: number): GoFloat64 {
  if (prec <= 53) return x;
  const shift = prec - 53;
  let mantissa = roundHalfEven(x.mantissa, 1n << BigInt(shift));
  let exp = x.exp + shift;
  if (mantissa === 1n << 53n) {
    mantissa >>= 1n;
    exp++;
  }
  return { mantissa, exp };
}

/**
 * new(big.Float).Quo(SetInt(num), SetInt(den)).Float64() for num ≥ 0, den > 0: the quotient at the
 * precision Quo takes (the larger of the operands', each at least 64 bits), then rounded to a float64.
 */
export function goQuoFloat64(num: bigint, den: bigint): GoFloat64 {
  if (num === 0n) return { mantissa: 0n, exp: 0 };
  const prec = Math.max(bitLength(num), bitLength(den), 64);
  return toFloat64(roundedQuotient(num, den, prec), prec);
}

/** Whether `x` is greater than the integer `n`. */
export function goFloatAbove(x: GoFloat64, n: bigint): boolean {
  return x.exp >= 0 ? x.mantissa << BigInt(x.exp) > n : x.mantissa > n << BigInt(-x.exp);
}

/** fmt's %.Nf of `x` (≥ 0): its exact value rounded to `decimals` places, ties to even, every digit written. */
export function goFixed(x: GoFloat64, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const scaled = x.exp >= 0 ? (x.mantissa << BigInt(x.exp)) * scale : roundHalfEven(x.mantissa * scale, 1n << BigInt(-x.exp));
  if (decimals === 0) return scaled.toString();
  const digits = scaled.toString().padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** A JS number (a float64, finite) held exactly, and its sign. */
function partsOf(x: number): { negative: boolean; value: GoFloat64 } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // Subnormals have no implicit leading bit and the smallest exponent.
  const value = biased === 0 ? { mantissa: fraction, exp: -1074 } : { mantissa: fraction | (1n << 52n), exp: biased - 1075 };
  return { negative, value };
}

/** fmt's %.Nf of a float64 (as `%f`, N = 6, prints a float64 argument), every digit written. */
export function goFormatFloat(x: number, decimals = 6): string {
  const { negative, value } = partsOf(x);
  return `${negative ? '-' : ''}${goFixed(value, decimals)}`;
}

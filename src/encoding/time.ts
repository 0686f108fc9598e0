import { goQuote } from './goquote.js';
// Go's time formatting as avalanchego's JSON shows it: RFC 3339 with nanoseconds (trailing zeros trimmed)
// in the node's local zone, and durations as Go's time.Duration.String().

const wallAtStartNs = BigInt(Date.now()) * 1_000_000n;
const hrAtStart = process.hrtime.bigint();

/** Wall-clock nanoseconds since the epoch, with sub-millisecond resolution. */
export function nowNs(): bigint {
  return wallAtStartNs + (process.hrtime.bigint() - hrAtStart);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function formatRFC3339Nano(epochNs: bigint): string {
  const ms = Number(epochNs / 1_000_000n);
  const d = new Date(ms);
  const nanos = Number(((epochNs % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n);
  const frac = nanos === 0 ? '' : `.${pad(nanos, 9).replace(/0+$/, '')}`;
  const offsetMin = -d.getTimezoneOffset();
  const zone = offsetMin === 0 ? 'Z' : `${offsetMin > 0 ? '+' : '-'}${pad(Math.floor(Math.abs(offsetMin) / 60))}:${pad(Math.abs(offsetMin) % 60)}`;
  return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${frac}${zone}`;
}

/** Go's zero time.Time as encoding/json writes it. */
export const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

export class DurationError extends Error {}

/** time.ParseDuration, returning nanoseconds. */
export function parseDuration(text: string): bigint {
  const quoted = goQuote(text);
  let s = text;
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw new DurationError(`time: invalid duration ${quoted}`);
  let total = 0n;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s)!;
    const [whole, intPart = '', fracPart] = m;
    if (intPart === '' && (fracPart === undefined || fracPart === '')) throw new DurationError(`time: invalid duration ${quoted}`);
    s = s.slice(whole.length);
    const unitMatch = /^[^\d.]+/.exec(s);
    if (!unitMatch) throw new DurationError(`time: missing unit in duration ${quoted}`);
    const unit = unitMatch[0];
    const scale = UNITS[unit];
    if (scale === undefined) throw new DurationError(`time: unknown unit ${goQuote(unit)} in duration ${quoted}`);
    s = s.slice(unit.length);
    total += BigInt(intPart || '0') * scale;
    if (fracPart) total += (BigInt(fracPart) * scale) / 10n ** BigInt(fracPart.length);
  }
  if (total > 9_223_372_036_854_775_807n) throw new DurationError(`time: invalid duration ${quoted}`);
  return negative ? -total : total;
}

/** time.Duration.String(). */
export function formatDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  let u = ns < 0n ? -ns : ns;
  if (u < 1_000_000_000n) {
    const [unit, scale] = u < 1_000n ? ['ns', 1n] : u < 1_000_000n ? ['µs', 1_000n] : ['ms', 1_000_000n];
    return sign + fixed(u, scale) + unit;
  }
  const h = u / 3_600_000_000_000n;
  u %= 3_600_000_000_000n;
  const m = u / 60_000_000_000n;
  u %= 60_000_000_000n;
  const secs = `${fixed(u, 1_000_000_000n)}s`;
  if (h > 0n) return `${sign}${h}h${m}m${secs}`;
  if (m > 0n) return `${sign}${m}m${secs}`;
  return sign + secs;
}

function fixed(value: bigint, scale: bigint): string {
  const whole = value / scale;
  const frac = value % scale;
  if (frac === 0n) return String(whole);
  const digits = String(scale).length - 1;
  return `${whole}.${String(frac).padStart(digits, '0').replace(/0+$/, '')}`;
}

const DAY_SECONDS = 86_400;

/**
 * Unix days to a proleptic Gregorian (year, month 1-12): Howard Hinnant's civil_from_days, exact
 * far past what a JS Date holds (year 275760), as block times may be (a dev control sets them up to
 * 2^64-1 ms).
 */
function civil(days: number): { year: number; month: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month };
}

/** The unix day of a (year, month, day): Hinnant's days_from_civil. */
function daysFrom(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/** The unix second of 0:00 UTC on the Monday of the week of unix second `t`. */
export function weekStart(t: number): number {
  const days = Math.floor(t / DAY_SECONDS);
  // 1970-01-01 was a Thursday: 3 days after a Monday.
  const sinceMonday = (((days + 3) % 7) + 7) % 7;
  return (days - sinceMonday) * DAY_SECONDS;
}

/** The unix second of 0:00 UTC on the first of the month of unix second `t`. */
export function monthStart(t: number): number {
  const { year, month } = civil(Math.floor(t / DAY_SECONDS));
  return daysFrom(year, month, 1) * DAY_SECONDS;
}

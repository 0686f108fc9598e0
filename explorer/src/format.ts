// How the explorer writes amounts, gas prices, addresses and times.

/** `amount` in units of 10^-decimals, thousands grouped, trailing zeros dropped (never rounded). */
export function units(amount: bigint, decimals: number): string {
  const neg = amount < 0n;
  const abs = neg ? -amount : amount;
  const unit = 10n ** BigInt(decimals);
  const whole = (abs / unit).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = decimals === 0 ? '' : (abs % unit).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

export const big = (v: unknown): bigint => {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  if (typeof v === 'string' && v !== '') return BigInt(v);
  return 0n;
};

/** Wei as the chain's token (18 decimals). */
export const wei = (v: unknown, symbol = 'AVAX'): string => `${units(big(v), 18)} ${symbol}`;
/** nAVAX (the P- and X-Chain's unit) as AVAX. */
export const navax = (v: unknown): string => `${units(big(v), 9)} AVAX`;
/** Wei as gwei; a price under 1 gwei (local chains run at a few wei) also in wei. */
export const gwei = (v: unknown): string => {
  const n = big(v);
  return n > 0n && n < 1_000_000_000n ? `${units(n, 9)} gwei (${n} wei)` : `${units(n, 9)} gwei`;
};
export const int = (v: unknown): string => units(big(v), 0);

/** 0x1234…abcd, or the first and last characters of a long ID. */
export function short(s: string, keep = 6): string {
  if (s.length <= keep * 2 + 4) return s;
  if (s.startsWith('0x')) return `${s.slice(0, keep + 2)}…${s.slice(-4)}`;
  const dash = s.indexOf('-');
  if (dash > 0 && dash < 8) return `${s.slice(0, dash + 1 + keep)}…${s.slice(-4)}`;
  return `${s.slice(0, keep + 2)}…${s.slice(-4)}`;
}

/** "12 s ago", "3 min ago", "5 h ago", "2 d ago" (or "in 4 s" for a block ahead of the clock). */
export function ago(seconds: number, now = Date.now() / 1000): string {
  const d = Math.round(now - seconds);
  const a = Math.abs(d);
  const text = a < 60 ? `${a} s` : a < 3600 ? `${Math.floor(a / 60)} min` : a < 86400 ? `${Math.floor(a / 3600)} h` : `${Math.floor(a / 86400)} d`;
  return d < 0 ? `in ${text}` : `${text} ago`;
}

/** The exact time, in UTC and in the reader's zone. */
export function exactTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return `${date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC')} (${date.toLocaleString()})`;
}

export const hexNum = (v: unknown): number => (typeof v === 'string' ? Number.parseInt(v, 16) : Number(v ?? 0));
export const hexBig = (v: unknown): bigint => (typeof v === 'string' && v !== '' ? BigInt(v) : big(v));

// The Metrics API's time buckets, as its contract aligns them: hours and days from 0:00 UTC, weeks
// from Monday, months from the first of the month.
import { monthStart, weekStart } from '../../encoding/time.js';

export type Interval = 'hour' | 'day' | 'week' | 'month';
export const INTERVALS: Interval[] = ['hour', 'day', 'week', 'month'];
export const INTERVAL_CODE: Record<Interval, number> = { hour: 0x68, day: 0x64, week: 0x77, month: 0x6d };

const DAY = 86_400;

export function bucketOf(t: number, interval: Interval): number {
  switch (interval) {
    case 'hour':
      return t - (t % 3600);
    case 'day':
      return t - (t % DAY);
    case 'week':
      return weekStart(t);
    case 'month':
      return monthStart(t);
  }
}

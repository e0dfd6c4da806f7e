import { formatAmount } from '../../billing/billing-format';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

/** Bytes in the largest unit that keeps a number of at least 1 (1024-based): 1536 → "1.5 KB". */
export function formatTraffic(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = value >= 100 || unit === 0 ? 0 : 1;
  return `${Number(value.toFixed(digits)).toLocaleString('en-US')} ${UNITS[unit]}`;
}

/** Minor units of the shop's currency as money: 129900 → "$1,299.00". */
export const formatMoney = (cents: number, currency: string): string => formatAmount(cents, currency);

/** A whole count with thousands separators. */
export const formatCount = (count: number): string => Math.round(count).toLocaleString('en-US');

const DAY_LABEL = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const LONG_DAY_LABEL = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** `YYYY-MM-DD` (a UTC day) as seconds since the epoch at its midnight: uPlot's x values. */
export const dayToSeconds = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000;

/** A UTC day for an axis or tooltip: "Mar 15". */
export const formatShortDay = (seconds: number): string => DAY_LABEL.format(new Date(seconds * 1000));

/** A UTC day for the tables read by screen readers: "Mar 15, 2026". */
export const formatLongDay = (day: string): string => LONG_DAY_LABEL.format(new Date(`${day}T00:00:00Z`));

/** How the dashboard shows data, durations and dates (spec section 9). */

import { formatBytes } from '../../../../shared/plan-format.js';

export { formatBytes, formatDuration, formatLocations } from '../../../../shared/plan-format.js';

/** A data limit; `null` means the account has none. */
export function formatDataLimit(bytes: number | null): string {
  return bytes === null || bytes <= 0 ? 'Unlimited' : formatBytes(bytes);
}

/** Within this long of now, an expiry shows its time too (a 3-hour trial, the last days of a plan). */
const SHOW_TIME_WITHIN_MS = 3 * 24 * 3600_000;

/** The expiry in the visitor's own date format, with the time when it is near; 'Never' without one. */
export function formatExpiry(isoDate: string | null, now = Date.now()): string {
  if (!isoDate) return 'Never';
  const date = new Date(isoDate);
  if (Number.isNaN(date.getTime())) return '—';
  if (Math.abs(date.getTime() - now) < SHOW_TIME_WITHIN_MS) return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return date.toLocaleDateString();
}

/** The first `length` characters, with '...' when something was cut. */
export function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

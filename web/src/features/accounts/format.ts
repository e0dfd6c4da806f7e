/** How the dashboard shows data, durations and dates (spec section 9). */

import { formatBytes } from '../../../../shared/plan-format.js';

export { formatBytes, formatDuration, formatLocations } from '../../../../shared/plan-format.js';

/** A data limit; `null` means the account has none. */
export function formatDataLimit(bytes: number | null): string {
  return bytes === null || bytes <= 0 ? 'Unlimited' : formatBytes(bytes);
}

/** The expiry in the visitor's own date format; 'Never' without one. */
export function formatExpiry(isoDate: string | null): string {
  if (!isoDate) return 'Never';
  const date = new Date(isoDate);
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleDateString();
}

/** The first `length` characters, with '...' when something was cut. */
export function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

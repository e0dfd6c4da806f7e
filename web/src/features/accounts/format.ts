/** How the dashboard shows data, durations and dates (spec section 9). */

const BYTES_PER_MB = 1024 ** 2;
const BYTES_PER_GB = 1024 ** 3;

/** Whole gigabytes (1 GB = 1024³ bytes); whole megabytes below 1 GB. */
export function formatBytes(bytes: number): string {
  if (bytes >= BYTES_PER_GB) return `${Math.round(bytes / BYTES_PER_GB).toLocaleString('en-US')} GB`;
  return `${Math.round(bytes / BYTES_PER_MB).toLocaleString('en-US')} MB`;
}

/** A data limit; `null` means the account has none. */
export function formatDataLimit(bytes: number | null): string {
  return bytes === null || bytes <= 0 ? 'Unlimited' : formatBytes(bytes);
}

/** Days, or hours when under a day (plan days may be fractional: 0.125 = 3 hours). */
export function formatDuration(days: number): string {
  if (days < 1) {
    const hours = Math.max(1, Math.round(days * 24));
    return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  }
  const shown = Number(days.toFixed(1));
  return `${shown.toLocaleString('en-US')} ${shown === 1 ? 'day' : 'days'}`;
}

/** The expiry in the visitor's own date format; 'Never' without one. */
export function formatExpiry(isoDate: string | null): string {
  if (!isoDate) return 'Never';
  const date = new Date(isoDate);
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleDateString();
}

/** 'all', or comma-separated location codes shown with spaces. */
export function formatLocations(locations: string): string {
  return locations === 'all' || locations === '' ? 'All locations' : locations.split(',').join(', ');
}

/** The first `length` characters, with '...' when something was cut. */
export function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

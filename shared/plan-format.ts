/** How plans read to people, on the site and on Stripe's checkout page (spec section 9). */

const BYTES_PER_MB = 1024 ** 2;
const BYTES_PER_GB = 1024 ** 3;

/** Whole gigabytes (1 GB = 1024³ bytes); whole megabytes below 1 GB. */
export function formatBytes(bytes: number): string {
  if (bytes >= BYTES_PER_GB) return `${Math.round(bytes / BYTES_PER_GB).toLocaleString('en-US')} GB`;
  return `${Math.round(bytes / BYTES_PER_MB).toLocaleString('en-US')} MB`;
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

/** 'all', or comma-separated location codes shown with spaces. */
export function formatLocations(locations: string): string {
  return locations === 'all' || locations === '' ? 'All locations' : locations.split(',').join(', ');
}

export const BYTES_PER_MB = 1024 ** 2;
export const BYTES_PER_GB = 1024 ** 3;
export const HOURS_PER_DAY = 24;

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
const trimDecimals = (value: number) => Number(value.toFixed(2));

/** Days, or hours when under one day (0.125 → "3 hours"), in English: screens use useFormat().duration. */
export function formatDuration(days: number): string {
  if (days < 1) return plural(trimDecimals(days * HOURS_PER_DAY), 'hour');
  return plural(trimDecimals(days), 'day');
}

/** GB without decimals, or MB under 1 GB (1 GB = 1024³ bytes), in English: screens use useFormat().bytes. */
export function formatDataLimit(bytes: number): string {
  if (bytes < BYTES_PER_GB) return `${Math.round(bytes / BYTES_PER_MB)} MB`;
  return `${Math.round(bytes / BYTES_PER_GB)} GB`;
}

/** A plan's or server's locations: `all` (its translated word, e.g. 'All'), or the codes comma-separated. */
export function formatLocations(locations: string, all: string): string {
  return locations === 'all' ? all : locations.split(',').join(', ');
}

/** An ISO time in the browser's locale, or a dash when there is none; screens use useFormat().dateTime. */
export function formatDateTime(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '—';
}

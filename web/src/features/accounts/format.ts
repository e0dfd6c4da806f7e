/** Text helpers for the dashboard. Dates, data sizes, durations and money: `useFormat()` (web/src/i18n/format.ts). */

/** The first `length` characters, with '...' when something was cut. */
export function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

/** When each legal text last changed (a calendar day, shown as "March 26, 2024" in the reader's language). */
export const LAST_UPDATED = {
  privacy: '2024-03-26',
  terms: '2024-03-26',
} as const;

/** The day written out with the month as a word, in `locale`'s calendar (UTC, so it never shifts a day). */
export function formatLastUpdated(day: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}

/**
 * The months of a paid period, for plans whose data resets every month: month k starts k calendar months after the
 * period starts (UTC, at the same time of day; the 31st falls on a shorter month's last day), counted from the
 * period's own start each time so the days never drift. Month 0 is the period's start, which a purchase or renewal
 * already begins with a fresh allowance: the store resets at months 1, 2, … that begin before the period ends.
 */

/** When month `k` of a period that starts at `start` begins. */
export function monthStart(start: Date, k: number): Date {
  const month = start.getUTCMonth() + k;
  const lastDay = new Date(Date.UTC(start.getUTCFullYear(), month + 1, 0)).getUTCDate();
  const at = new Date(start.getTime());
  at.setUTCFullYear(start.getUTCFullYear(), month, Math.min(start.getUTCDate(), lastDay));
  return at;
}

/** The longest a period may run (10 years): a bound on the months counted. */
const MAX_MONTHS = 121;

/**
 * Which month of the period `now` is in (0: the first), or null when the period does not hold `now` (not begun, or
 * over). A month that would begin at or after the period's end is not one: the next period (or nothing) starts there.
 */
export function monthIndexAt(period: { startsAt: Date; endsAt: Date }, now: Date): number | null {
  if (now < period.startsAt || now >= period.endsAt) return null;
  let k = 0;
  while (k < MAX_MONTHS) {
    const next = monthStart(period.startsAt, k + 1);
    if (next > now || next >= period.endsAt) break;
    k += 1;
  }
  return k;
}

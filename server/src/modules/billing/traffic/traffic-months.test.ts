import { describe, expect, it } from 'vitest';
import { monthIndexAt, monthStart } from './traffic-months.js';

const at = (iso: string) => new Date(iso);

describe('the months of a paid period', () => {
  it('start on the same day and time of each calendar month, the 31st on a shorter month’s last day', () => {
    const start = at('2025-01-31T10:20:30.000Z');
    expect(monthStart(start, 0)).toEqual(start);
    expect(monthStart(start, 1)).toEqual(at('2025-02-28T10:20:30.000Z'));
    expect(monthStart(start, 2)).toEqual(at('2025-03-31T10:20:30.000Z'));
    expect(monthStart(start, 13)).toEqual(at('2026-02-28T10:20:30.000Z'));
    expect(monthStart(at('2023-12-15T00:00:00.000Z'), 2)).toEqual(at('2024-02-15T00:00:00.000Z'));
    expect(monthStart(at('2024-01-30T00:00:00.000Z'), 1)).toEqual(at('2024-02-29T00:00:00.000Z'));
  });

  it('count the months begun, never one that begins at or after the end, and nothing outside the period', () => {
    const startsAt = at('2025-01-01T00:00:00.000Z');
    const endsAt = new Date(startsAt.getTime() + 365 * 86_400_000); // 2026-01-01: month 12 would begin at the end
    const period = { startsAt, endsAt };
    expect(monthIndexAt(period, startsAt)).toBe(0);
    expect(monthIndexAt(period, at('2025-01-31T23:59:59.999Z'))).toBe(0);
    expect(monthIndexAt(period, at('2025-02-01T00:00:00.000Z'))).toBe(1);
    expect(monthIndexAt(period, at('2025-07-15T00:00:00.000Z'))).toBe(6);
    expect(monthIndexAt(period, at('2025-12-31T23:59:59.999Z'))).toBe(11);
    expect(monthIndexAt(period, endsAt)).toBeNull();
    expect(monthIndexAt(period, at('2024-12-31T23:59:59.999Z'))).toBeNull();
  });
});

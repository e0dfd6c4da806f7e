import { describe, expect, it } from 'vitest';
import { nextReadAfterSuccess, nextTryAfterFailure } from './reconcile-policy.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const minutesLater = (date: Date) => (date.getTime() - NOW.getTime()) / 60_000;
const at = (minutesFromNow: number) => new Date(NOW.getTime() + minutesFromNow * 60_000);

describe('reconcile read schedule', () => {
  it('a failing read backs off 5, 10, 20 … minutes, capped at 6 hours however long it fails', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((failures) => minutesLater(nextTryAfterFailure(failures, NOW)))).toEqual([5, 10, 20, 40, 80, 160, 320, 360, 360]);
    expect(minutesLater(nextTryAfterFailure(10_000, NOW))).toBe(360);
  });

  it('a healthy subscription is read again within a day, and two hours after its period ends when that comes first', () => {
    expect(minutesLater(nextReadAfterSuccess({ status: 'active', currentPeriodEnd: at(30 * 24 * 60) }, NOW))).toBe(24 * 60);
    expect(minutesLater(nextReadAfterSuccess({ status: 'active', currentPeriodEnd: at(60) }, NOW))).toBe(180);
    expect(minutesLater(nextReadAfterSuccess({ status: 'active', currentPeriodEnd: null }, NOW))).toBe(24 * 60);
  });

  it('a renewal that should have come, a past_due and an incomplete one are read sooner', () => {
    expect(minutesLater(nextReadAfterSuccess({ status: 'active', currentPeriodEnd: at(-10) }, NOW))).toBe(60);
    expect(minutesLater(nextReadAfterSuccess({ status: 'past_due', currentPeriodEnd: at(-10) }, NOW))).toBe(180);
    expect(minutesLater(nextReadAfterSuccess({ status: 'incomplete', currentPeriodEnd: null }, NOW))).toBe(15);
  });
});

import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.js';

describe('isoTime', () => {
  it('writes what toISOString writes, at the edges of days, months, leap years and its range', () => {
    const edges = [
      0,
      1,
      999,
      1000,
      59_999,
      86_399_999,
      86_400_000,
      Date.UTC(2000, 1, 28, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29),
      Date.UTC(2000, 2, 1),
      Date.UTC(2400, 1, 29),
      Date.UTC(2100, 1, 28, 12),
      Date.UTC(2100, 2, 1),
      Date.UTC(2024, 11, 31, 23, 59, 59, 999),
      Date.UTC(2025, 0, 1),
      Date.UTC(2026, 10, 27, 11, 5, 7, 5),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ];
    for (const ms of edges) expect(isoTime(new Date(ms)), String(ms)).toBe(new Date(ms).toISOString());
  });

  it('writes what toISOString writes for 200,000 random times from 1970 to 9999', () => {
    let seed = 27;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 200_000; i += 1) {
      const date = new Date(Math.floor(random() * Date.UTC(10000, 0, 1)));
      if (isoTime(date) !== date.toISOString()) expect(isoTime(date)).toBe(date.toISOString());
    }
  });

  it('hands dates outside 1970–9999 to toISOString, and an invalid one fails as it does', () => {
    for (const ms of [-1, Date.UTC(1969, 11, 31, 23, 59, 59), Date.UTC(-50, 0, 1), Date.UTC(10000, 0, 1), 8.64e15]) {
      expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
    }
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { monthlyAmountOf, RECURRING_DAYS, renewalIntervalOf } from './plan-billing.js';
import { nominalLength } from './plan-months.js';

describe('renewalIntervalOf', () => {
  it('renews a plan every month or year exactly when the pricing page names its length in months or years', () => {
    for (let days = RECURRING_DAYS.min; days <= RECURRING_DAYS.max; days += 1) {
      const length = nominalLength(days);
      const interval = renewalIntervalOf(days)!;
      if (length) expect(interval, `${days} days`).toEqual({ unit: length.unit, count: length.count });
      else expect(['week', 'day'], `${days} days`).toContain(interval.unit);
    }
    expect(renewalIntervalOf(31)).toEqual({ unit: 'month', count: 1 });
    expect(renewalIntervalOf(91)).toEqual({ unit: 'month', count: 3 });
    expect(renewalIntervalOf(366)).toEqual({ unit: 'year', count: 1 });
    expect(renewalIntervalOf(28)).toEqual({ unit: 'week', count: 4 });
    expect(renewalIntervalOf(45)).toEqual({ unit: 'day', count: 45 });
  });

  it('refuses what no provider bills: fractions of a day, or more than three years', () => {
    expect(renewalIntervalOf(30.5)).toBeNull();
    expect(renewalIntervalOf(0)).toBeNull();
    expect(renewalIntervalOf(1096)).toBeNull();
  });
});

describe('monthlyAmountOf', () => {
  it('is the price of a plan charged every month, not the price stretched over an average month', () => {
    // The System tab showed $14.19 MRR for one $13.99-a-month subscription (30 days over 30.44).
    expect(monthlyAmountOf(1399, 30)).toBe(1399);
  });

  it('divides what a plan charges every few months or years by the months it covers', () => {
    expect(monthlyAmountOf(2997, 90)).toBe(999);
    expect(monthlyAmountOf(11988, 365)).toBe(999);
    expect(monthlyAmountOf(24000, 730)).toBe(1000);
  });

  it('counts plans renewing by days or weeks per average month', () => {
    expect(renewalIntervalOf(14)).toEqual({ unit: 'week', count: 2 });
    expect(monthlyAmountOf(700, 14)).toBeCloseTo((700 * 365.25) / 12 / 14, 6);
    expect(monthlyAmountOf(100, 10)).toBeCloseTo((100 * 365.25) / 12 / 10, 6);
  });
});

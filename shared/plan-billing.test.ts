import { describe, expect, it } from 'vitest';
import { monthlyAmountOf, renewalIntervalOf } from './plan-billing.js';

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

import { describe, expect, it } from 'vitest';
import { lowestMonthlyPrice, nominalLength, perMonthCents } from './plan-months.js';
import { billingPeriodOf } from './pricing.js';
import type { Plan } from './plans.js';

describe("a plan's length in months", () => {
  it('reads ~365·n days as n years and ~30.4·n days as n months, anything else as days', () => {
    expect(nominalLength(730)).toEqual({ unit: 'year', count: 2, months: 24, days: 730 });
    expect(nominalLength(30)).toEqual({ unit: 'month', count: 1, months: 1, days: 30 });
    expect(nominalLength(91)).toEqual({ unit: 'month', count: 3, months: 3, days: 91 });
    expect(nominalLength(7)).toBeNull();
  });

  it("is the price list's billing period too (pricing.ts builds on it)", () => {
    expect(billingPeriodOf(365)).toEqual({ key: 'year-1', label: '1 year', months: 12, days: 365 });
    expect(billingPeriodOf(7)).toEqual({ key: 'days-7', label: '7 days', months: null, days: 7 });
  });

  it('gives the price per month and the lowest among the paid plans listed publicly', () => {
    expect(perMonthCents({ days: 365, price: 6000 })).toBe(500);
    expect(perMonthCents({ days: 7, price: 300 })).toBeNull();
    const plan = (days: number, price: number, extra: Partial<Plan> = {}) => ({ days, price, public: true, isTrial: false, ...extra }) as Plan;
    expect(lowestMonthlyPrice([plan(30, 999), plan(365, 6000), plan(730, 2400, { public: false }), plan(30, 0), plan(3, 10, { isTrial: true })])).toBe(500);
    expect(lowestMonthlyPrice([plan(7, 300)])).toBeNull();
  });
});

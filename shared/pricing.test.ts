import { describe, expect, it } from 'vitest';
import {
  BILLING_PERIODS,
  DEFAULT_BILLING_PERIOD,
  MOST_POPULAR_TIER,
  PLAN_FEATURES,
  TIER_DISPLAY_ORDER,
  TIER_IDS,
  billedTotalCents,
  formatUsd,
  perMonthCents,
  savePercent,
  tierIncludes,
  type TierId,
} from './pricing.js';

function featureLabels(tier: TierId): string[] {
  return PLAN_FEATURES.filter((feature) => tierIncludes(tier, feature)).map((feature) => feature.label);
}

describe('static prices', () => {
  it('lists the periods longest first and starts on 2-year', () => {
    expect(BILLING_PERIODS).toEqual(['2-year', '1-year', '1-month']);
    expect(DEFAULT_BILLING_PERIOD).toBe('2-year');
  });

  it.each([
    ['basic', 1299, 599, 399],
    ['plus', 1399, 699, 499],
    ['complete', 1499, 799, 599],
  ] as const)('charges %s %i, %i and %i cents a month (monthly, yearly, two-year)', (tier, monthly, yearly, twoYear) => {
    expect(perMonthCents(tier, '1-month')).toBe(monthly);
    expect(perMonthCents(tier, '1-year')).toBe(yearly);
    expect(perMonthCents(tier, '2-year')).toBe(twoYear);
  });

  it.each([
    ['basic', '2-year', '$95.76', 69],
    ['basic', '1-year', '$71.88', 54],
    ['basic', '1-month', '$12.99', 0],
    ['plus', '2-year', '$119.76', 64],
    ['plus', '1-year', '$83.88', 50],
    ['plus', '1-month', '$13.99', 0],
    ['complete', '2-year', '$143.76', 60],
    ['complete', '1-year', '$95.88', 47],
    ['complete', '1-month', '$14.99', 0],
  ] as const)('bills %s %s as %s and saves %i%% against monthly', (tier, period, billed, save) => {
    expect(formatUsd(billedTotalCents(tier, period))).toBe(billed);
    expect(savePercent(tier, period)).toBe(save);
  });
});

describe('feature matrix', () => {
  it('gives Basic only the high-speed VPN', () => {
    expect(featureLabels('basic')).toEqual(['High-speed VPN']);
  });

  it('adds threat protection and 10 devices in Plus', () => {
    expect(featureLabels('plus')).toEqual(['High-speed VPN', 'Threat protection', 'Protection on 10 devices']);
  });

  it('includes every feature in Complete', () => {
    expect(featureLabels('complete')).toEqual(PLAN_FEATURES.map((feature) => feature.label));
    expect(featureLabels('complete')).toEqual(
      expect.arrayContaining([
        'Anti-malware', 'Browsing protection', 'Ad blocker', 'Password management', 'Data breach scanner',
        '1 TB cloud storage',
      ]),
    );
  });

  it('marks Plus as most popular and shows Complete, Plus, Basic', () => {
    expect(MOST_POPULAR_TIER).toBe('plus');
    expect(TIER_DISPLAY_ORDER).toEqual(['complete', 'plus', 'basic']);
    expect([...TIER_DISPLAY_ORDER].sort()).toEqual([...TIER_IDS].sort());
  });
});

describe('formatUsd', () => {
  it('shows cents as dollars with two decimals', () => {
    expect(formatUsd(1299)).toBe('$12.99');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(5)).toBe('$0.05');
    expect(formatUsd(1000)).toBe('$10.00');
    expect(formatUsd(123456)).toBe('$1,234.56');
  });

  it('refuses fractions and negative amounts', () => {
    expect(() => formatUsd(12.5)).toThrow(RangeError);
    expect(() => formatUsd(-1)).toThrow(RangeError);
  });
});

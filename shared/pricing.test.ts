import { describe, expect, it } from 'vitest';
import type { Plan } from './plans.js';
import { testPlan } from './test-plan.js';
import { billingPeriodOf, buildPricingTable, isListedPublicly, lowestMonthlyPrice, perMonthCents, savePercent } from './pricing.js';

const plan = testPlan;

/** The spec's price list as plans: per-month figure × months. */
const SPEC_PLANS: Plan[] = [
  ['Complete', [1499, 799, 599]],
  ['Plus', [1399, 699, 499]],
  ['Basic', [1299, 599, 399]],
].flatMap(([tier, perMonth], t) =>
  (
    [
      [30, 1],
      [365, 12],
      [730, 24],
    ] as const
  ).map(([days, months], p) =>
    plan({
      name: `${tier} ${days}`,
      tier: tier as string,
      days,
      price: (perMonth as number[])[p]! * months,
      sortOrder: t * 10 + p,
      mostPopular: tier === 'Plus',
    }),
  ),
);

describe('billingPeriodOf', () => {
  it.each([
    [30, '1 month', 1],
    [31, '1 month', 1],
    [365, '1 year', 12],
    [366, '1 year', 12],
    [730, '2 years', 24],
    [90, '3 months', 3],
    [180, '6 months', 6],
    [7, '7 days', null],
    [45, '45 days', null],
    [0.125, '3 hours', null],
  ] as const)('names %s days "%s" (%s months)', (days, label, months) => {
    expect(billingPeriodOf(days)).toMatchObject({ label, months });
  });

  it('gives plans of about the same length the same key', () => {
    expect(billingPeriodOf(365).key).toBe(billingPeriodOf(366).key);
    expect(billingPeriodOf(30).key).not.toBe(billingPeriodOf(365).key);
  });
});

describe('prices per month and savings', () => {
  it('divides the price charged by the months', () => {
    expect(perMonthCents({ days: 730, price: 11976 })).toBe(499);
    expect(perMonthCents({ days: 365, price: 8388 })).toBe(699);
    expect(perMonthCents({ days: 30, price: 1399 })).toBe(1399);
    expect(perMonthCents({ days: 7, price: 299 })).toBeNull();
  });

  it.each([
    ['Basic 730', 69],
    ['Basic 365', 54],
    ['Basic 30', 0],
    ['Plus 730', 64],
    ['Plus 365', 50],
    ['Plus 30', 0],
    ['Complete 730', 60],
    ['Complete 365', 47],
    ['Complete 30', 0],
  ])("%s saves %i%% against the same tier's shortest plan", (name, percent) => {
    const target = SPEC_PLANS.find((p) => p.name === name)!;
    expect(savePercent(target, SPEC_PLANS)).toBe(percent);
  });

  it('saves nothing against another tier, a free plan, or a dearer long plan', () => {
    const alone = plan({ tier: 'Solo', days: 365, price: 5000 });
    expect(savePercent(alone, [...SPEC_PLANS, alone])).toBe(0);
    const free = plan({ tier: 'Free', days: 30, price: 0 });
    const paid = plan({ tier: 'Free', days: 365, price: 1000 });
    expect(savePercent(paid, [free, paid])).toBe(0);
    const month = plan({ tier: 'Dear', days: 30, price: 100 });
    const year = plan({ tier: 'Dear', days: 365, price: 5000 });
    expect(savePercent(year, [month, year])).toBe(0);
  });
});

describe('buildPricingTable', () => {
  it('makes the spec page from the spec plans: 2 years, 1 year, 1 month; Complete, Plus, Basic; starts on 2 years', () => {
    const table = buildPricingTable([...SPEC_PLANS].reverse());
    expect(table.periods.map((p) => p.label)).toEqual(['2 years', '1 year', '1 month']);
    expect(table.defaultPeriodKey).toBe('year-2');
    const twoYears = table.periods[0]!;
    expect(twoYears.offers.map((o) => [o.tierName, o.perMonthCents, o.plan.price, o.savePercent, o.plan.mostPopular])).toEqual([
      ['Complete', 599, 14376, 60, false],
      ['Plus', 499, 11976, 64, true],
      ['Basic', 399, 9576, 69, false],
    ]);
  });

  it('lists only public plans that are not the trial', () => {
    const hidden = plan({ tier: 'Plus', public: false, days: 90 });
    const trial = plan({ isTrial: true, days: 3 });
    const table = buildPricingTable([...SPEC_PLANS, hidden, trial]);
    expect(table.periods.map((p) => p.label)).toEqual(['2 years', '1 year', '1 month']);
    expect(isListedPublicly(trial)).toBe(false);
    expect(isListedPublicly(hidden)).toBe(false);
  });

  it('makes a plan without a tier name a tier of its own, named after the plan', () => {
    const a = plan({ name: 'Weekly pass', days: 7, price: 299, sortOrder: 5 });
    const b = plan({ name: 'Other week', days: 7, price: 399, sortOrder: 1 });
    const table = buildPricingTable([a, b]);
    expect(table.periods).toHaveLength(1);
    expect(table.periods[0]).toMatchObject({ label: '7 days', months: null });
    expect(table.periods[0]!.offers.map((o) => o.tierName)).toEqual(['Other week', 'Weekly pass']);
  });

  it('groups tier names without regard to case, and takes the first plan of a tier for a period', () => {
    const first = plan({ tier: 'Pro', days: 30, price: 500, sortOrder: 1 });
    const second = plan({ tier: 'pro', days: 30, price: 600, sortOrder: 2 });
    const table = buildPricingTable([second, first]);
    expect(table.periods[0]!.offers.map((o) => o.plan.id)).toEqual([first.id]);
  });

  it('starts on the longest period with a most popular plan, whatever else is on sale', () => {
    const extra = plan({ name: 'Test plan', days: 30, price: 499 });
    expect(buildPricingTable([...SPEC_PLANS, extra]).defaultPeriodKey).toBe('year-2');
  });

  it('shows every tier in every period: a tier without a plan of that length offers its nearest one, in its own period', () => {
    const monthlyOnly = plan({ tier: 'Lite', name: 'Lite monthly', days: 30, price: 300, sortOrder: 100 });
    const table = buildPricingTable([...SPEC_PLANS, monthlyOnly]);
    expect(table.defaultPeriodKey).toBe('year-2');
    for (const period of table.periods) expect(period.offers.map((o) => o.tierName)).toEqual(['Complete', 'Plus', 'Basic', 'Lite']);
    const lite = table.periods[0]!.offers[3]!;
    expect(lite).toMatchObject({ plan: { id: monthlyOnly.id }, period: { key: 'month-1' }, perMonthCents: 300 });
    expect(table.periods[0]!.offers[0]!.period.key).toBe('year-2');
    const quarterly = plan({ tier: 'Q', days: 90, price: 900 });
    const yearly = plan({ tier: 'Q', days: 365, price: 3000 });
    const other = plan({ tier: 'M', days: 30, price: 300 });
    expect(
      buildPricingTable([quarterly, yearly, other])
        .periods.find((p) => p.key === 'month-1')!
        .offers.map((o) => o.plan.id),
    ).toContain(quarterly.id);
  });

  it('starts on the period most tiers have when no plan is most popular', () => {
    const monthly = ['A', 'B'].map((tier) => plan({ tier, days: 30 }));
    const yearly = plan({ tier: 'A', days: 365, price: 5000 });
    expect(buildPricingTable([...monthly, yearly]).defaultPeriodKey).toBe('month-1');
    expect(buildPricingTable([]).defaultPeriodKey).toBeNull();
  });
});

describe('lowestMonthlyPrice', () => {
  it('is the cheapest month among the public paid plans', () => {
    expect(lowestMonthlyPrice(SPEC_PLANS)).toBe(399);
    expect(lowestMonthlyPrice([plan({ price: 0 }), plan({ isTrial: true, price: 1 })])).toBeNull();
  });
});

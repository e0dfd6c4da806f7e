import type { Plan } from './plans.js';

let ids = 0;

/** A plan for tests: a month of 1 GB at 9.99, one-off, listed, untranslated; `overrides` set the rest. */
export function testPlan(overrides: Partial<Plan> = {}): Plan {
  ids += 1;
  return {
    id: `plan-${ids}`,
    name: `Plan ${ids}`,
    days: 30,
    dataLimitBytes: 1024 ** 3,
    locations: 'all',
    locationCodes: [],
    price: 999,
    isTrial: false,
    tier: null,
    features: [],
    mostPopular: false,
    sortOrder: 0,
    public: true,
    billing: 'one_off',
    deviceLimit: null,
    starsPrice: null,
    translations: {},
    trafficReset: 'none',
    trafficCarryOver: false,
    graceDays: 0,
    graceDataBytes: null,
    ...overrides,
  };
}

import { describe, expect, it } from 'vitest';
import { popularBadgePlanIds } from './popular-plan';

const plan = (id: string, tier: string | null, days: number, mostPopular: boolean, isTrial = false) => ({ id, tier, days, mostPopular, isTrial });

describe('popularBadgePlanIds', () => {
  it('puts the badge once on a popular tier: on its shortest plan, not on each period', () => {
    const plans = [
      plan('complete-1m', 'Complete', 30, false),
      plan('plus-1m', 'Plus', 30, true),
      plan('plus-1y', 'Plus', 365, true),
      plan('plus-2y', 'plus ', 730, true),
      plan('basic-1m', 'Basic', 30, false),
    ];
    expect([...popularBadgePlanIds(plans)]).toEqual(['plus-1m']);
  });

  it('finds the shortest plan whatever the display order, the first on a tie', () => {
    const plans = [plan('plus-1y', 'Plus', 365, true), plan('plus-1m-a', 'Plus', 30, true), plan('plus-1m-b', 'Plus', 30, true)];
    expect([...popularBadgePlanIds(plans)]).toEqual(['plus-1m-a']);
  });

  it('keeps the badge of each popular plan without a tier (each is a tier of its own), never on a trial', () => {
    const plans = [plan('trial', null, 0.125, true, true), plan('week', null, 7, true), plan('month', null, 30, true)];
    expect([...popularBadgePlanIds(plans)]).toEqual(['week', 'month']);
  });
});

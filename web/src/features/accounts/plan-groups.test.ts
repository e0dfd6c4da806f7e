import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../../shared/plans.js';
import { testPlan } from '../../../../shared/test-plan.js';
import { groupByTier } from './plan-groups';

const plan = (id: string, tier: string | null, translations: Plan['translations'] = {}): Plan => testPlan({ id, name: id, tier, translations });

describe('groupByTier', () => {
  it('groups by the English tier name and names the group in the page language', () => {
    const plans = [
      plan('plus-1m', 'Plus', { ru: { tier: 'Плюс' } }),
      // Another plan of the tier translated differently (or not at all) is still the same tier.
      plan('plus-1y', 'plus', { ru: { tier: 'Плюс+' } }),
      plan('basic-1m', 'Basic'),
      plan('trial', null, { ru: { tier: 'Пробный' } }),
    ];
    const ru = groupByTier(plans, 'ru');
    expect(ru.map((group) => [group.key, group.tier, group.plans.map((p) => p.id)])).toEqual([
      ['plus', 'Плюс', ['plus-1m', 'plus-1y']],
      ['basic', 'Basic', ['basic-1m']],
      ['', null, ['trial']],
    ]);
    expect(groupByTier(plans, 'en').map((group) => group.tier)).toEqual(['Plus', 'Basic', null]);
  });
});

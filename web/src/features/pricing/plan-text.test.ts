import { describe, expect, it } from 'vitest';
import { planText } from '../../../../shared/plan-translations.js';
import { buildPricingTable } from '../../../../shared/pricing.js';
import type { Plan } from '../../../../shared/plans.js';
import { testPlan } from '../../../../shared/test-plan.js';
import { tierTitle } from './plan-text';

const plan = (id: string, name: string, tier: string | null, days: number, translations: Plan['translations'] = {}): Plan =>
  testPlan({ id, name, tier, days, translations });

describe('tierTitle', () => {
  it("titles a pricing card with the tier's name in the page language, the plan's name without a tier", () => {
    const plus = plan('plus-1m', 'Plus 1 Month', 'Plus', 30, { ru: { tier: 'Плюс', name: 'Плюс на месяц' }, fa: { name: 'پلاس یک‌ماهه' } });
    expect(tierTitle(planText(plus, 'ru'))).toBe('Плюс');
    expect(tierTitle(planText(plus, 'fa'))).toBe('Plus');
    const week = plan('week', 'Week Pass', null, 7, { 'zh-CN': { name: '一周通行证', tier: '不会显示' } });
    expect(tierTitle(planText(week, 'zh-CN'))).toBe('一周通行证');
    expect(tierTitle(planText(week, 'en'))).toBe('Week Pass');
  });

  it('groups plans by the English tier, whatever their translated tiers, and titles the tier in the page language', () => {
    const plans = [
      plan('plus-1m', 'Plus 1 Month', 'Plus', 30, { ru: { tier: 'Плюс' } }),
      plan('plus-1y', 'Plus 1 Year', 'Plus', 365, { ru: { tier: 'Плюс годовой' } }),
    ];
    const table = buildPricingTable(plans);
    expect(table.periods.map((period) => period.offers.map((offer) => tierTitle(planText(offer.plan, 'ru'))))).toEqual([['Плюс годовой'], ['Плюс']]);
    expect(new Set(table.periods.flatMap((period) => period.offers.map((offer) => offer.tierKey)))).toEqual(new Set(['tier:plus']));
  });
});

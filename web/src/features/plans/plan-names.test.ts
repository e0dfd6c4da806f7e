import { describe, expect, it } from 'vitest';
import { keptPlanName } from './plan-names';

const plus = {
  id: 'plus-1y',
  name: 'Plus 1 Year',
  tier: 'Plus',
  features: ['3,600 GB of data per year'],
  translations: { ru: { name: 'Плюс на год' }, fa: { name: 'پلاس یک‌ساله' } },
};

describe('keptPlanName', () => {
  it("translates an account's plan name from the plan on sale with that id", () => {
    expect(keptPlanName([plus], 'Plus 1 Year', 'ru', 'plus-1y')).toBe('Плюс на год');
    expect(keptPlanName([plus], 'Plus 1 Year', 'fa', 'plus-1y')).toBe('پلاس یک‌ساله');
  });

  it('translates a payment (no plan id) by its English name, and falls back to English where there is no translation', () => {
    expect(keptPlanName([plus], 'Plus 1 Year', 'ru')).toBe('Плюс на год');
    expect(keptPlanName([plus], 'Plus 1 Year', 'zh-CN')).toBe('Plus 1 Year');
    expect(keptPlanName([plus], 'Plus 1 Year', 'en')).toBe('Plus 1 Year');
  });

  it('keeps the name paid for when the plan has been renamed since, or is no longer on sale', () => {
    expect(keptPlanName([plus], 'Plus Annual', 'ru', 'plus-1y')).toBe('Plus Annual');
    expect(keptPlanName([], 'Plus 1 Year', 'ru', 'plus-1y')).toBe('Plus 1 Year');
  });

  it('names a plan no longer on sale in the language its order kept a name in (issue 57)', () => {
    const kept = { 'zh-CN': '家庭版 1 个月', ru: 'Семейный на месяц' };
    expect(keptPlanName([], 'Family 1 Month', 'zh-CN', 'family-1m', kept)).toBe('家庭版 1 个月');
    expect(keptPlanName([plus], 'Family 1 Month', 'ru', null, kept)).toBe('Семейный на месяц');
    expect(keptPlanName([], 'Family 1 Month', 'fa', 'family-1m', kept)).toBe('Family 1 Month');
    expect(keptPlanName([], 'Family 1 Month', 'en', 'family-1m', kept)).toBe('Family 1 Month');
  });
});

import { describe, expect, it } from 'vitest';
import { planText, TRANSLATED_LOCALES } from './plan-translations.js';

const plan = {
  name: 'Plus 1 Month',
  tier: 'Plus',
  features: ['300 GB of data every month', 'Servers in every location'],
  translations: { ru: { name: 'Плюс 1 месяц', tier: 'Плюс' }, fa: { features: ['۳۰۰ گیگابایت'] } },
};

describe('planText', () => {
  it('lists the three languages besides English', () => {
    expect(TRANSLATED_LOCALES).toEqual(['ru', 'fa', 'zh-CN']);
  });

  it('gives the English texts in English and in a language with no translation', () => {
    expect(planText(plan, 'en')).toEqual({ name: 'Plus 1 Month', tier: 'Plus', features: plan.features });
    expect(planText(plan, 'zh-CN')).toEqual({ name: 'Plus 1 Month', tier: 'Plus', features: plan.features });
  });

  it('falls back to English field by field', () => {
    expect(planText(plan, 'ru')).toEqual({ name: 'Плюс 1 месяц', tier: 'Плюс', features: plan.features });
    expect(planText(plan, 'fa')).toEqual({ name: 'Plus 1 Month', tier: 'Plus', features: ['۳۰۰ گیگابایت'] });
  });

  it('never gives a tier to a plan that has none', () => {
    expect(planText({ ...plan, tier: null }, 'ru').tier).toBeNull();
  });
});

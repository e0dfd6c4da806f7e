import { describe, expect, it } from 'vitest';
import { inLanguage, planText, TRANSLATED_LOCALES } from './plan-translations.js';

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

describe('inLanguage', () => {
  const plan = {
    name: 'Plus',
    tier: 'Plus',
    features: ['Fast'],
    translations: { ru: { name: 'Плюс', tier: 'Плюс', features: ['Быстро'] }, fa: { name: 'پلاس', tier: 'پلاس', features: ['سریع'] } },
  };

  it('keeps only the translation of the language asked for, and reads the same text in it', () => {
    for (const locale of ['en', 'ru', 'fa', 'zh-CN'] as const) {
      const [narrowed] = inLanguage([plan], locale);
      expect(planText(narrowed!, locale)).toEqual(planText(plan, locale));
    }
    expect(inLanguage([plan], 'ru')[0]!.translations).toEqual({ ru: plan.translations.ru });
    expect(inLanguage([plan], 'en')[0]!.translations).toEqual({});
    expect(inLanguage([plan], 'zh-CN')[0]!.translations).toEqual({}); // none written: the English text
    expect(plan.translations.fa).toBeDefined(); // the plan given is left as it was
  });
});

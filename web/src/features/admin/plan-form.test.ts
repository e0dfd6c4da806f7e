import { describe, expect, it } from 'vitest';
import type { AdminPlan } from '../../../../shared/plans.js';
import { PlanBody } from '../../../../shared/plans.js';
import { deviceLimitProblem, NEW_PLAN_VALUES, planFormProblems, starsPriceProblem, toPlanBody, valuesFromPlan, type PlanFormValues } from './plan-form';

const translate = ((id: string) => id) as Parameters<typeof planFormProblems>[1];
const withLimit = (deviceLimit: string): PlanFormValues => ({ ...NEW_PLAN_VALUES, name: 'Duo', deviceLimit });

const SAVED: AdminPlan = {
  id: 'p1',
  name: 'Duo',
  days: 30,
  dataLimitBytes: 50 * 1024 ** 3,
  locations: 'all',
  locationCodes: [],
  servers: [{ serverId: 's1', serviceId: 'squad-a,squad-b' }],
  price: 499,
  isTrial: false,
  tier: 'Duo',
  features: ['Fast'],
  mostPopular: false,
  sortOrder: 0,
  public: true,
  billing: 'one_off',
  deviceLimit: 3,
  starsPrice: 250,
  translations: {},
  trafficReset: 'none',
  trafficCarryOver: false,
  graceDays: 0,
  graceDataBytes: null,
  status: 'active',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

describe('the plan form’s device limit', () => {
  it('sends null (unlimited) when the field is empty, and the number typed otherwise', () => {
    expect(toPlanBody(withLimit(''), 'usd').deviceLimit).toBeNull();
    expect(toPlanBody(withLimit('  '), 'usd').deviceLimit).toBeNull();
    expect(toPlanBody(withLimit('2'), 'usd').deviceLimit).toBe(2);
  });

  it('starts empty for a new plan and shows a saved plan’s limit (empty when unlimited)', () => {
    expect(NEW_PLAN_VALUES.deviceLimit).toBe('');
    expect(valuesFromPlan(SAVED, 'usd').deviceLimit).toBe('3');
    expect(valuesFromPlan({ ...SAVED, deviceLimit: null }, 'usd').deviceLimit).toBe('');
  });

  it('refuses what the shared plan schema refuses, in its words', () => {
    expect(deviceLimitProblem(withLimit('0'))).toBe('Device limit: at least 1 (leave it empty for unlimited)');
    expect(deviceLimitProblem(withLimit('101'))).toBe('Device limit: at most 100');
    expect(deviceLimitProblem(withLimit('2.5'))).toBe('Device limit is a whole number');
    expect(deviceLimitProblem(withLimit('two'))).toBe('Device limit is a number');
  });

  it('accepts empty, 1 and 100', () => {
    for (const text of ['', '1', '100']) expect(deviceLimitProblem(withLimit(text))).toBeNull();
  });

  it('lists the device limit among the problems that stop the form, beside billing', () => {
    expect(planFormProblems(withLimit('0'), translate, 'usd')).toEqual({ deviceLimit: 'Device limit: at least 1 (leave it empty for unlimited)' });
    expect(planFormProblems({ ...withLimit('0'), billing: 'recurring', duration: '0.5' }, translate, 'usd')).toEqual({
      billing: 'admin.planForm.recurringProblem',
      deviceLimit: 'Device limit: at least 1 (leave it empty for unlimited)',
    });
    expect(planFormProblems(withLimit('5'), translate, 'usd')).toEqual({});
  });
});

describe('the plan form’s price in Telegram Stars', () => {
  const withStars = (starsPrice: string): PlanFormValues => ({ ...NEW_PLAN_VALUES, name: 'Duo', starsPrice });

  it('sends null (not sold for Stars) when the field is empty, and the whole Stars typed otherwise', () => {
    expect(toPlanBody(withStars(''), 'usd').starsPrice).toBeNull();
    expect(toPlanBody(withStars('   '), 'usd').starsPrice).toBeNull();
    expect(toPlanBody(withStars('250'), 'usd').starsPrice).toBe(250);
    expect(toPlanBody(withStars(' 10000 '), 'usd').starsPrice).toBe(10_000);
  });

  it('starts empty for a new plan and shows a saved plan’s Stars price (empty when not sold for Stars)', () => {
    expect(NEW_PLAN_VALUES.starsPrice).toBe('');
    expect(valuesFromPlan(SAVED, 'usd').starsPrice).toBe('250');
    expect(valuesFromPlan({ ...SAVED, starsPrice: null }, 'usd').starsPrice).toBe('');
    expect(toPlanBody(valuesFromPlan(SAVED, 'usd'), 'usd').starsPrice).toBe(250);
  });

  it('refuses what the shared plan schema refuses, in its words', () => {
    expect(starsPriceProblem(withStars('0'))).toBe('Stars price: at least 1 (leave it empty not to sell it for Stars)');
    expect(starsPriceProblem(withStars('10001'))).toBe("Stars price: at most 10,000 (Telegram's limit)");
    expect(starsPriceProblem(withStars('2.5'))).toBe('Stars price is a whole number of Stars');
    expect(starsPriceProblem(withStars('x'))).toBe('Stars price is a number');
  });

  it('accepts empty, 1 and 10,000, and lists a bad one among the problems that stop the form', () => {
    for (const text of ['', '1', '10000']) expect(starsPriceProblem(withStars(text))).toBeNull();
    expect(planFormProblems(withStars('10001'), translate, 'usd')).toEqual({ starsPrice: "Stars price: at most 10,000 (Telegram's limit)" });
    expect(planFormProblems(withStars('250'), translate, 'usd')).toEqual({});
  });

  it('keeps the schema’s default for a body that leaves it out: not sold for Stars', () => {
    expect(PlanBody.parse({ name: 'Duo', days: 30, dataLimitBytes: 1024 ** 3, price: 499 }).starsPrice).toBeNull();
  });
});

describe('the plan form’s price, in the store currency', () => {
  const withPrice = (price: string): PlanFormValues => ({ ...NEW_PLAN_VALUES, name: 'Duo', price });

  it('shows a saved price in major units with the currency’s decimals', () => {
    expect(valuesFromPlan({ ...SAVED, price: 499 }, 'usd').price).toBe('4.99');
    expect(valuesFromPlan({ ...SAVED, price: 1500 }, 'eur').price).toBe('15.00');
    expect(valuesFromPlan({ ...SAVED, price: 1500 }, 'jpy').price).toBe('1500');
    expect(valuesFromPlan({ ...SAVED, price: 1500 }, 'kwd').price).toBe('1.500');
  });

  it('saves what is typed as minor units of the currency, exactly', () => {
    expect(toPlanBody(withPrice('4.99'), 'usd').price).toBe(499);
    expect(toPlanBody(withPrice('0.29'), 'eur').price).toBe(29);
    expect(toPlanBody(withPrice('1500'), 'jpy').price).toBe(1500);
    expect(toPlanBody(withPrice('1.5'), 'kwd').price).toBe(1500);
    expect(toPlanBody(withPrice('0'), 'jpy').price).toBe(0);
  });

  it('refuses more decimals than the currency has, and says how many it has', () => {
    expect(planFormProblems(withPrice('15.5'), translate, 'jpy')).toEqual({ price: 'admin.planForm.priceProblem' });
    expect(planFormProblems(withPrice('4.999'), translate, 'usd')).toEqual({ price: 'admin.planForm.priceProblem' });
    expect(planFormProblems(withPrice('-1'), translate, 'usd')).toEqual({ price: 'admin.planForm.priceProblem' });
    expect(planFormProblems(withPrice('1.250'), translate, 'kwd')).toEqual({});
    expect(planFormProblems(withPrice('4.90'), translate, 'usd')).toEqual({});
  });
});

describe('the plan form’s texts in other languages', () => {
  const TRANSLATED: AdminPlan = {
    ...SAVED,
    translations: { ru: { name: 'Дуо', tier: 'Дуо', features: ['Быстро', 'Надёжно'] }, fa: { name: 'دو نفره' } },
  };

  it('starts every language empty for a new plan, so the English shows until one is typed', () => {
    expect(NEW_PLAN_VALUES.translations).toEqual({
      ru: { name: '', tier: '', features: '' },
      fa: { name: '', tier: '', features: '' },
      'zh-CN': { name: '', tier: '', features: '' },
    });
    expect(toPlanBody({ ...NEW_PLAN_VALUES, name: 'Duo' }, 'usd').translations).toEqual({});
  });

  it('shows a saved plan’s translations, one feature per line, and what is not translated empty', () => {
    const values = valuesFromPlan(TRANSLATED, 'usd');
    expect(values.translations.ru).toEqual({ name: 'Дуо', tier: 'Дуо', features: 'Быстро\nНадёжно' });
    expect(values.translations.fa).toEqual({ name: 'دو نفره', tier: '', features: '' });
    expect(values.translations['zh-CN']).toEqual({ name: '', tier: '', features: '' });
  });

  it('sends what was typed, trimmed, blank lines dropped, and leaves out a language or field left empty', () => {
    const values = valuesFromPlan(TRANSLATED, 'usd');
    const edited: PlanFormValues = {
      ...values,
      translations: {
        ru: { name: '  Дуо Плюс ', tier: '', features: 'Быстро\n\n  Надёжно  \n' },
        fa: { name: ' ', tier: ' ', features: '\n' },
        'zh-CN': { name: '双人版', tier: '', features: '' },
      },
    };
    const body = toPlanBody(edited, 'usd');
    expect(body.translations).toEqual({ ru: { name: 'Дуо Плюс', features: ['Быстро', 'Надёжно'] }, 'zh-CN': { name: '双人版' } });
    // What the form sends is what the server takes (the shared schema), unchanged.
    expect(PlanBody.parse(body).translations).toEqual(body.translations);
  });

  it('round-trips a saved plan unchanged', () => {
    expect(toPlanBody(valuesFromPlan(TRANSLATED, 'usd'), 'usd').translations).toEqual(TRANSLATED.translations);
  });
});

describe('the plan form’s traffic rules', () => {
  const GB = 1024 ** 3;
  const yearly = (overrides: Partial<PlanFormValues> = {}): PlanFormValues => ({ ...NEW_PLAN_VALUES, name: 'Year', duration: '365', ...overrides });

  it('starts a new plan with one allowance per period, nothing carried over and no grace', () => {
    const body = toPlanBody({ ...NEW_PLAN_VALUES, name: 'Duo' }, 'usd');
    expect(body).toMatchObject({ trafficReset: 'none', trafficCarryOver: false, graceDays: 0, graceDataBytes: null });
    expect(PlanBody.parse({ name: 'Duo', days: 30, dataLimitBytes: GB, price: 499 })).toMatchObject({
      trafficReset: 'none',
      trafficCarryOver: false,
      graceDays: 0,
      graceDataBytes: null,
    });
  });

  it('sends the rules typed, grace data in GB (MB in hours mode), and round-trips a saved plan', () => {
    const body = toPlanBody(yearly({ trafficReset: 'monthly', trafficCarryOver: true, graceDays: '3', graceData: '1.5' }), 'usd');
    expect(body).toMatchObject({ trafficReset: 'monthly', trafficCarryOver: true, graceDays: 3, graceDataBytes: 1.5 * GB });
    expect(toPlanBody(yearly({ hoursMode: true, duration: '6', graceDays: '1', graceData: '300' }), 'usd').graceDataBytes).toBe(300 * 1024 ** 2);
    const saved: AdminPlan = { ...SAVED, days: 365, trafficReset: 'monthly', trafficCarryOver: true, graceDays: 3, graceDataBytes: 2 * GB };
    const values = valuesFromPlan(saved, 'usd');
    expect(values).toMatchObject({ trafficReset: 'monthly', trafficCarryOver: true, graceDays: '3', graceData: '2' });
    expect(toPlanBody(values, 'usd')).toMatchObject({ trafficReset: 'monthly', trafficCarryOver: true, graceDays: 3, graceDataBytes: 2 * GB });
    expect(valuesFromPlan(SAVED, 'usd').graceData).toBe('');
  });

  it('refuses a monthly reset for a plan of 31 days or less, grace days out of range, and grace data without grace days', () => {
    expect(planFormProblems(yearly({ duration: '31', trafficReset: 'monthly' }), translate, 'usd')).toEqual({
      trafficReset: 'admin.planForm.trafficResetProblem',
    });
    expect(planFormProblems(yearly({ duration: '32', trafficReset: 'monthly' }), translate, 'usd')).toEqual({});
    expect(planFormProblems(yearly({ graceDays: '31' }), translate, 'usd')).toEqual({ graceDays: 'admin.planForm.graceDaysProblem' });
    expect(planFormProblems(yearly({ graceDays: '1.5' }), translate, 'usd')).toEqual({ graceDays: 'admin.planForm.graceDaysProblem' });
    expect(planFormProblems(yearly({ graceDays: '2', graceData: '0.0001' }), translate, 'usd')).toEqual({ graceData: 'admin.planForm.graceDataProblem' });
    expect(planFormProblems(yearly({ graceDays: '0', graceData: '1' }), translate, 'usd')).toEqual({ graceData: 'admin.planForm.graceDataNeedsDays' });
    expect(planFormProblems(yearly({ graceDays: '30', graceData: '1' }), translate, 'usd')).toEqual({});
  });
});

describe('the plan form’s servers', () => {
  it('keeps the servers a saved plan lists, with their squads, and saves them as they are', () => {
    const values = valuesFromPlan(SAVED, 'usd');
    expect(values.servers).toEqual([{ serverId: 's1', serviceId: 'squad-a,squad-b' }]);
    expect(toPlanBody(values, 'usd').servers).toEqual([{ serverId: 's1', serviceId: 'squad-a,squad-b' }]);
  });

  it('a new plan lists none: any server that covers its locations', () => {
    expect(toPlanBody({ ...NEW_PLAN_VALUES, name: 'New' }, 'usd').servers).toEqual([]);
  });
});

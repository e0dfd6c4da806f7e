import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { createPlansRepo } from './plans.repo.js';
import { DEFAULT_PLANS, seedDefaultPlans } from './plans.seed.js';
import { TRIAL_PLAN_TEXTS } from './seed-plan-texts.js';
import { PlanBody } from '../../../../shared/plans.js';

const GB = 1024 ** 3;

describe('the default plans', () => {
  it('says only what a VPN account gives: no anti-malware, no cloud storage', () => {
    const lines = DEFAULT_PLANS.flatMap((p) => p.features).join('\n');
    expect(lines).not.toMatch(/malware|cloud storage|password|ad blocker/i);
    expect(lines).toMatch(/GB of data/);
    expect(lines).toMatch(/support/i);
  });
});

describe('the demo trial', () => {
  it('reads in every language of the site, and is a plan the admin API takes as it is', () => {
    const { text, translations } = TRIAL_PLAN_TEXTS;
    for (const locale of ['ru', 'fa', 'zh-CN'] as const) {
      expect(translations[locale]!.name, locale).toBeTruthy();
      expect(translations[locale]!.features, locale).toHaveLength(text.features.length);
    }
    const body = PlanBody.parse({
      name: text.name,
      days: 0.125,
      dataLimitBytes: 300 * 1024 ** 2,
      price: 0,
      isTrial: true,
      features: text.features,
      translations,
    });
    expect(body.translations).toEqual(translations);
  });
});

describe.each(TEST_DATABASES)('the first-start plans (%s)', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
  });
  afterEach(async () => {
    await database.destroy();
  });

  const plans = () => createPlansRepo(database.db).listActive();

  it('writes the spec pricing page on an empty database: 3 tiers by 1 month, 1 year and 2 years', async () => {
    expect(await seedDefaultPlans(database.db, new Date())).toBe('seeded');
    const seeded = await plans();
    expect(seeded).toHaveLength(9);
    expect(seeded.map((p) => [p.tier, p.days, p.price])).toEqual([
      ['Complete', 30, 1499],
      ['Complete', 365, 799 * 12],
      ['Complete', 730, 599 * 24],
      ['Plus', 30, 1399],
      ['Plus', 365, 699 * 12],
      ['Plus', 730, 499 * 24],
      ['Basic', 30, 1299],
      ['Basic', 365, 599 * 12],
      ['Basic', 730, 399 * 24],
    ]);
    expect(seeded.filter((p) => p.mostPopular).map((p) => p.tier)).toEqual(['Plus', 'Plus', 'Plus']);
    expect(seeded.every((p) => p.public && !p.isTrial && p.status === 'active' && p.locations === 'all')).toBe(true);
    // Their feature line promises unlimited devices, so they carry no device limit.
    expect(seeded.every((p) => p.deviceLimit === null)).toBe(true);
    expect(seeded.find((p) => p.name === 'Basic 1 Year')).toMatchObject({ dataLimitBytes: 1200 * GB });
    expect(seeded.find((p) => p.name === 'Basic 1 Year')!.features[0]).toBe('1,200 GB of data for the year');
  });

  it('writes each plan in Russian, Persian and Chinese too: name, tier and every feature line', async () => {
    await seedDefaultPlans(database.db, new Date());
    const seeded = await plans();
    for (const plan of seeded) {
      for (const locale of ['ru', 'fa', 'zh-CN'] as const) {
        const translation = plan.translations[locale]!;
        expect(translation.name, `${plan.name} in ${locale}`).toBeTruthy();
        expect(translation.name).not.toBe(plan.name);
        expect(translation.features).toHaveLength(plan.features.length);
      }
    }
    const plusMonth = seeded.find((p) => p.name === 'Plus 1 Month')!;
    expect(plusMonth.translations.ru).toMatchObject({ name: 'Плюс 1 месяц', tier: 'Плюс' });
    expect(plusMonth.translations.ru!.features![0]).toBe('300 ГБ трафика в месяц');
    expect(plusMonth.translations.fa).toMatchObject({ name: 'پلاس ۱ ماهه', tier: 'پلاس' });
    expect(plusMonth.translations.fa!.features![0]).toBe('۳۰۰ گیگابایت داده در ماه');
    expect(plusMonth.translations['zh-CN']).toMatchObject({ name: '高级版 1 个月', tier: '高级版' });
    expect(plusMonth.translations['zh-CN']!.features![0]).toBe('每月 300 GB 流量');
    // Plans of one tier share its translated name, so the pricing page still groups them in every language.
    for (const locale of ['ru', 'fa', 'zh-CN'] as const) {
      const tiers = new Map(seeded.map((p) => [p.tier, new Set<string>()]));
      for (const p of seeded) tiers.get(p.tier)!.add(p.translations[locale]!.tier!);
      expect(
        [...tiers.values()].every((names) => names.size === 1),
        locale,
      ).toBe(true);
    }
  });

  it('runs once: not again on the next start, even after the operator deleted every plan', async () => {
    expect(await seedDefaultPlans(database.db, new Date())).toBe('seeded');
    expect(await seedDefaultPlans(database.db, new Date())).toBe('already_ran');
    expect(await plans()).toHaveLength(9);

    await database.db('plans').delete();
    expect(await seedDefaultPlans(database.db, new Date())).toBe('already_ran');
    expect(await plans()).toHaveLength(0);
  });

  it('adds nothing when the operator already has plans', async () => {
    const now = new Date();
    await createPlansRepo(database.db).insert('op-plan', { ...DEFAULT_PLANS[0]!, name: 'Operator plan', price: 1234 }, now);
    expect(await seedDefaultPlans(database.db, now)).toBe('operator_has_plans');
    expect((await plans()).map((p) => p.name)).toEqual(['Operator plan']);
    expect(await seedDefaultPlans(database.db, now)).toBe('already_ran');
  });

  it('seeds once when two instances start together', async () => {
    const outcomes = await Promise.all([seedDefaultPlans(database.db, new Date()), seedDefaultPlans(database.db, new Date())]);
    expect(outcomes.sort()).toEqual(['already_ran', 'seeded']);
    expect(await plans()).toHaveLength(9);
  });
});

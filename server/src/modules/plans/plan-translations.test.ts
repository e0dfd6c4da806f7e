import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLAN_PRICING_LIMITS } from '../../../../shared/plans.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../../test/test-app.js';

const GB = 1024 ** 3;

const RUSSIAN = { name: 'Плюс 1 год', tier: 'Плюс', features: ['3 600 ГБ трафика на год', 'Серверы во всех локациях'] };
const PERSIAN = { name: 'پلاس ۱ ساله' };

const planBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Plus 1 Year',
  days: 365,
  dataLimitBytes: 3600 * GB,
  price: 8388,
  tier: 'Plus',
  features: ['3,600 GB of data for the year', 'Servers in every location'],
  translations: { ru: RUSSIAN, fa: PERSIAN },
  ...overrides,
});

/** `translations` of a plan through POST/PATCH /api/admin/plans, and in both plan lists. */
describe.each(TEST_DATABASES)('plan texts in other languages (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: WebSession;
  let user: WebSession;

  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'admin@example.com' } });
    admin = await signInWeb(t, env.smtp, 'admin@example.com');
    user = await signInWeb(t, env.smtp, 'translations-user@example.com');
  });
  afterAll(async () => {
    await t.app.close();
  });
  beforeEach(async () => {
    await env.database.db('plans').delete();
    t.app.services.changeSignal.changed();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, session: WebSession | null = admin) =>
    t.app.inject({ method, url, headers: { origin: TEST_ORIGIN, ...(session ? { cookie: session.cookie } : {}) }, ...(payload ? { payload } : {}) });
  const storedTranslations = async () => {
    const rows = await env.database.db('plans').select('translations');
    return rows.map((row) => JSON.parse(row.translations));
  };
  const create = async (overrides: Record<string, unknown> = {}) => {
    const res = await call('POST', '/api/admin/plans', planBody(overrides));
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };

  it('creates a plan with its Russian and Persian texts, stores them, and lists them publicly and in the admin', async () => {
    const plan = await create();
    expect(plan.translations).toEqual({ ru: RUSSIAN, fa: PERSIAN });
    expect(await storedTranslations()).toEqual([{ ru: RUSSIAN, fa: PERSIAN }]);
    expect((await call('GET', '/api/plans', undefined, null)).json()[0]).toMatchObject({
      id: plan.id,
      name: 'Plus 1 Year',
      translations: { ru: RUSSIAN, fa: PERSIAN },
    });
    expect((await call('GET', '/api/admin/plans')).json()[0]).toMatchObject({ id: plan.id, translations: { ru: RUSSIAN, fa: PERSIAN } });
  });

  it('gives a plan created without them none, and leaves out languages and fields left empty', async () => {
    expect((await create({ translations: undefined })).translations).toEqual({});
    const blanks = await create({ translations: { ru: { name: '  ', tier: '', features: [] }, fa: { name: 'پلاس', tier: ' ' }, 'zh-CN': {} } });
    expect(blanks.translations).toEqual({ fa: { name: 'پلاس' } });
  });

  it('replaces the whole object on PATCH, and keeps it when another field changes', async () => {
    const plan = await create();
    const renamed = await call('PATCH', `/api/admin/plans/${plan.id}`, { price: 7999 });
    expect(renamed.json().translations).toEqual({ ru: RUSSIAN, fa: PERSIAN });

    const replaced = await call('PATCH', `/api/admin/plans/${plan.id}`, {
      translations: { ru: { name: 'Плюс на год' }, 'zh-CN': { name: '高级版 1 年', tier: '高级版' } },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().translations).toEqual({ ru: { name: 'Плюс на год' }, 'zh-CN': { name: '高级版 1 年', tier: '高级版' } });
    expect(await storedTranslations()).toEqual([{ ru: { name: 'Плюс на год' }, 'zh-CN': { name: '高级版 1 年', tier: '高级版' } }]);

    const cleared = await call('PATCH', `/api/admin/plans/${plan.id}`, { translations: {} });
    expect(cleared.json().translations).toEqual({});
    expect((await call('GET', '/api/plans', undefined, null)).json()[0].translations).toEqual({});
  });

  it.each([
    ['a Persian feature line too long', { fa: { features: ['ب'.repeat(PLAN_PRICING_LIMITS.featureLength + 1)] } }, 'translations.fa.features.0'],
    [
      'too many Russian feature lines',
      { ru: { features: Array.from({ length: PLAN_PRICING_LIMITS.features + 1 }, (_, i) => `Строка ${i}`) } },
      'translations.ru.features',
    ],
    ['an empty Chinese feature line', { 'zh-CN': { features: ['流量', ' '] } }, 'translations.zh-CN.features.1'],
    ['a Russian tier name too long', { ru: { tier: 'Т'.repeat(PLAN_PRICING_LIMITS.tierLength + 1) } }, 'translations.ru.tier'],
    ['a name that is not text', { ru: { name: 42 } }, 'translations.ru.name'],
    ['a language the site does not have', { de: { name: 'Plus 1 Jahr' } }, 'translations'],
    ['English, which is the plan itself', { en: { name: 'Plus' } }, 'translations'],
    ['a field it does not know', { ru: { description: 'Лучший' } }, 'translations.ru'],
    ['not an object', 'ru: Плюс'],
  ])('refuses %s with 400 validation_failed, and writes nothing', async (_case, translations, field?: string) => {
    const created = await call('POST', '/api/admin/plans', planBody({ translations }));
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
    if (field) expect(created.json().fields).toHaveProperty([field]);
    expect(await storedTranslations()).toEqual([]);

    const plan = await create();
    const patched = await call('PATCH', `/api/admin/plans/${plan.id}`, { translations });
    expect(patched.statusCode).toBe(400);
    expect(patched.json()).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
    expect(await storedTranslations()).toEqual([{ ru: RUSSIAN, fa: PERSIAN }]);
  });

  it('answers 401 signed out and 403 to a customer, and writes nothing', async () => {
    const plan = await create();
    for (const session of [null, user]) {
      const expected = session ? 403 : 401;
      expect((await call('POST', '/api/admin/plans', planBody({ name: 'Sneaky' }), session)).statusCode).toBe(expected);
      expect((await call('PATCH', `/api/admin/plans/${plan.id}`, { translations: { ru: { name: 'Взлом' } } }, session)).statusCode).toBe(expected);
    }
    expect(await storedTranslations()).toEqual([{ ru: RUSSIAN, fa: PERSIAN }]);
  });
});

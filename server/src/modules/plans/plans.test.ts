import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLAN_PRICING_LIMITS } from '../../../../shared/plans.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../../test/test-app.js';

const GB = 1024 ** 3;

/** A plan body as the admin form sends it, with the pricing-page fields. */
const planBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Plus 1 Year',
  days: 365,
  dataLimitBytes: 3600 * GB,
  price: 8388,
  locations: 'all',
  tier: 'Plus',
  features: ['3,600 GB of data for the year', 'Servers in every location'],
  mostPopular: true,
  sortOrder: 21,
  public: true,
  ...overrides,
});

describe.each(TEST_DATABASES)('plans with pricing-page fields (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: WebSession;
  let user: WebSession;

  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'admin@example.com' } });
    admin = await signInWeb(t, env.smtp, 'admin@example.com');
    user = await signInWeb(t, env.smtp, 'user@example.com');
  });
  afterAll(async () => {
    await t.app.close();
  });
  beforeEach(async () => {
    await env.database.db('settings').where({ id: 'app_config' }).delete();
    await env.database.db('plans').delete();
    t.app.services.changeSignal.changed(); // written behind the app's back: its caches are told
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, session: WebSession | null = admin) =>
    t.app.inject({ method, url, headers: { origin: TEST_ORIGIN, ...(session ? { cookie: session.cookie } : {}) }, ...(payload ? { payload } : {}) });
  const rows = () => env.database.db('plans').select('*').orderBy('name');
  const create = async (overrides: Record<string, unknown> = {}) => {
    const res = await call('POST', '/api/admin/plans', planBody(overrides));
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };

  it('creates a plan with its tier, feature lines, badge, order and listing, and stores them', async () => {
    const res = await call('POST', '/api/admin/plans', planBody());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Plus 1 Year',
      price: 8388,
      tier: 'Plus',
      features: ['3,600 GB of data for the year', 'Servers in every location'],
      mostPopular: true,
      sortOrder: 21,
      public: true,
      status: 'active',
      isTrial: false,
    });
    const [row] = await rows();
    expect(row).toMatchObject({ tier: 'Plus', sort_order: 21 });
    expect(Boolean(row.most_popular)).toBe(true);
    expect(Boolean(row.is_public)).toBe(true);
    expect(typeof row.features === 'string' ? JSON.parse(row.features) : row.features).toEqual(['3,600 GB of data for the year', 'Servers in every location']);
  });

  it('gives a plan created without them no tier, no features, no badge, order 0, and lists it', async () => {
    const res = await call('POST', '/api/admin/plans', { name: 'Old style', days: 30, dataLimitBytes: GB, price: 499 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ tier: null, features: [], mostPopular: false, sortOrder: 0, public: true });
  });

  it('changes only the fields a PATCH names', async () => {
    const plan = await create();
    const res = await call('PATCH', `/api/admin/plans/${plan.id}`, { tier: 'Premium', features: ['One line'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      tier: 'Premium',
      features: ['One line'],
      mostPopular: true,
      sortOrder: 21,
      public: true,
      status: 'active',
      price: 8388,
    });

    const hidden = await call('PATCH', `/api/admin/plans/${plan.id}`, { public: false, mostPopular: false, sortOrder: -5, tier: '' });
    expect(hidden.json()).toMatchObject({ public: false, mostPopular: false, sortOrder: -5, tier: null, features: ['One line'] });
    const [row] = await rows();
    expect(row).toMatchObject({ tier: null, sort_order: -5 });
    expect(Boolean(row.is_public)).toBe(false);
  });

  it.each([
    ['too many feature lines', { features: Array.from({ length: PLAN_PRICING_LIMITS.features + 1 }, (_, i) => `Line ${i}`) }, 'features'],
    ['an empty feature line', { features: ['Fine', '   '] }, 'features.1'],
    ['a feature line too long', { features: ['x'.repeat(PLAN_PRICING_LIMITS.featureLength + 1)] }, 'features.0'],
    ['features that are not a list', { features: 'one, two' }, 'features'],
    ['a tier name too long', { tier: 'T'.repeat(PLAN_PRICING_LIMITS.tierLength + 1) }, 'tier'],
    ['a fractional display order', { sortOrder: 1.5 }, 'sortOrder'],
    ['a display order out of range', { sortOrder: PLAN_PRICING_LIMITS.sortOrderMax + 1 }, 'sortOrder'],
    ['a badge that is not a boolean', { mostPopular: 'yes' }, 'mostPopular'],
    ['a listing that is not a boolean', { public: 'no' }, 'public'],
    ['a device limit of 0', { deviceLimit: 0 }, 'deviceLimit'],
    ['a device limit over 100', { deviceLimit: 101 }, 'deviceLimit'],
    ['a fractional device limit', { deviceLimit: 1.5 }, 'deviceLimit'],
    ['a device limit sent as text', { deviceLimit: '2' }, 'deviceLimit'],
  ])('refuses %s with 400 validation_failed naming the field, and writes nothing', async (_case, bad, field) => {
    const created = await call('POST', '/api/admin/plans', planBody(bad));
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({ code: 'validation_failed', fields: { [field]: expect.any(String) } });
    expect(await rows()).toHaveLength(0);

    const plan = await create();
    const before = await rows();
    const patched = await call('PATCH', `/api/admin/plans/${plan.id}`, bad);
    expect(patched.statusCode).toBe(400);
    expect(patched.json()).toMatchObject({ code: 'validation_failed', fields: { [field]: expect.any(String) } });
    expect(await rows()).toEqual(before);
  });

  it('refuses a PATCH with a field it does not know, and writes nothing', async () => {
    const plan = await create();
    const before = await rows();
    const res = await call('PATCH', `/api/admin/plans/${plan.id}`, { popular: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(await rows()).toEqual(before);
  });

  it('answers 401 signed out and 403 to a user on create and edit, and writes nothing', async () => {
    const plan = await create();
    const before = await rows();
    for (const session of [null, user]) {
      const expected = session ? 403 : 401;
      expect((await call('POST', '/api/admin/plans', planBody({ name: 'Sneaky' }), session)).statusCode).toBe(expected);
      expect((await call('PATCH', `/api/admin/plans/${plan.id}`, { mostPopular: false, price: 1 }, session)).statusCode).toBe(expected);
    }
    expect(await rows()).toEqual(before);
  });

  it('answers 404 for a PATCH of a plan that does not exist', async () => {
    const res = await call('PATCH', '/api/admin/plans/00000000-0000-0000-0000-000000000000', { tier: 'X' });
    expect(res.statusCode).toBe(404);
    expect(await rows()).toHaveLength(0);
  });

  it('lists active plans publicly with the new fields, in display order, without disabled ones', async () => {
    const yearly = await create({ name: 'Plus 1 Year', sortOrder: 21 });
    const monthly = await create({ name: 'Plus 1 Month', days: 30, price: 1399, sortOrder: 20, mostPopular: false });
    await create({ name: 'Retired', sortOrder: 1, status: 'disabled' });
    const trial = await create({
      name: 'Trial',
      days: 0.125,
      price: 0,
      isTrial: true,
      public: false,
      tier: null,
      features: [],
      mostPopular: false,
      sortOrder: 0,
    });

    const res = await call('GET', '/api/plans', undefined, null);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((p: { name: string }) => p.name)).toEqual(['Trial', 'Plus 1 Month', 'Plus 1 Year']);
    const [first, second, third] = res.json();
    expect(first).toEqual({
      id: trial.id,
      name: 'Trial',
      days: 0.125,
      dataLimitBytes: 3600 * GB,
      locations: 'all',
      locationCodes: [],
      price: 0,
      isTrial: true,
      tier: null,
      features: [],
      mostPopular: false,
      sortOrder: 0,
      public: false,
      billing: 'one_off',
      deviceLimit: null,
      starsPrice: null,
      translations: {},
      trafficReset: 'none',
      trafficCarryOver: false,
      graceDays: 0,
      graceDataBytes: null,
    });
    expect(second).toMatchObject({ id: monthly.id, tier: 'Plus', mostPopular: false, public: true });
    expect(third).toMatchObject({ id: yearly.id, tier: 'Plus', mostPopular: true, features: planBody().features });
  });

  it('stores a device limit, lists it in the admin and public lists, and clears it with null', async () => {
    const plan = await create({ deviceLimit: 2 });
    expect(plan.deviceLimit).toBe(2);
    const [row] = await rows();
    expect(Number(row.device_limit)).toBe(2);
    expect((await call('GET', '/api/admin/plans')).json()[0]).toMatchObject({ id: plan.id, deviceLimit: 2 });
    expect((await call('GET', '/api/plans', undefined, null)).json()[0]).toMatchObject({ id: plan.id, deviceLimit: 2 });

    const raised = await call('PATCH', `/api/admin/plans/${plan.id}`, { deviceLimit: 100 });
    expect(raised.statusCode).toBe(200);
    expect(raised.json()).toMatchObject({ deviceLimit: 100, tier: 'Plus' });
    const cleared = await call('PATCH', `/api/admin/plans/${plan.id}`, { deviceLimit: null });
    expect(cleared.json().deviceLimit).toBeNull();
    expect((await rows())[0].device_limit).toBeNull();
    expect((await call('PATCH', `/api/admin/plans/${plan.id}`, { name: 'Renamed' })).json().deviceLimit).toBeNull();
  });

  it('gives a plan created without a device limit none (unlimited)', async () => {
    const plan = await create();
    expect(plan.deviceLimit).toBeNull();
    expect((await rows())[0].device_limit).toBeNull();
  });

  it('stores a Stars price, lists it in the admin and public lists, and clears it with null', async () => {
    const plan = await create({ starsPrice: 250 });
    expect(plan.starsPrice).toBe(250);
    expect(Number((await rows())[0].stars_price)).toBe(250);
    expect((await call('GET', '/api/admin/plans')).json()[0]).toMatchObject({ id: plan.id, starsPrice: 250 });
    expect((await call('GET', '/api/plans', undefined, null)).json()[0]).toMatchObject({ id: plan.id, starsPrice: 250 });

    const raised = await call('PATCH', `/api/admin/plans/${plan.id}`, { starsPrice: 10_000 });
    expect(raised.statusCode).toBe(200);
    expect(raised.json()).toMatchObject({ starsPrice: 10_000, price: 8388, tier: 'Plus' });
    const cleared = await call('PATCH', `/api/admin/plans/${plan.id}`, { starsPrice: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().starsPrice).toBeNull();
    expect((await rows())[0].stars_price).toBeNull();
    expect((await call('GET', '/api/plans', undefined, null)).json()[0].starsPrice).toBeNull();
    expect((await call('PATCH', `/api/admin/plans/${plan.id}`, { name: 'Renamed' })).json().starsPrice).toBeNull();
  });

  it('gives a plan created without a Stars price none (not sold for Stars), and a PATCH without one keeps it', async () => {
    const plan = await create();
    expect(plan.starsPrice).toBeNull();
    expect((await rows())[0].stars_price).toBeNull();
    await call('PATCH', `/api/admin/plans/${plan.id}`, { starsPrice: 1 });
    expect((await call('PATCH', `/api/admin/plans/${plan.id}`, { price: 999 })).json()).toMatchObject({ price: 999, starsPrice: 1 });
  });

  it.each([
    ['0', 0, 'Stars price: at least 1 (leave it empty not to sell it for Stars)'],
    ['over 10,000', 10_001, "Stars price: at most 10,000 (Telegram's limit)"],
    ['fractional', 2.5, 'Stars price is a whole number of Stars'],
    ['text', 'x', 'Stars price is a number'],
  ])('refuses a Stars price that is %s with 400 validation_failed and its message, and changes nothing', async (_case, starsPrice, message) => {
    const created = await call('POST', '/api/admin/plans', planBody({ starsPrice }));
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({ code: 'validation_failed', fields: { starsPrice: message } });
    expect(await rows()).toHaveLength(0);

    const plan = await create({ starsPrice: 250 });
    const before = await rows();
    const patched = await call('PATCH', `/api/admin/plans/${plan.id}`, { starsPrice });
    expect(patched.statusCode).toBe(400);
    expect(patched.json()).toMatchObject({ code: 'validation_failed', fields: { starsPrice: message } });
    expect(await rows()).toEqual(before);
    expect((await call('GET', '/api/admin/plans')).json()[0].starsPrice).toBe(250);
  });
});

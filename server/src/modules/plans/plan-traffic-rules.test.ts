import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLAN_TRAFFIC_MESSAGES } from '../../../../shared/plans.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../../test/test-app.js';

const GB = 1024 ** 3;
const MB = 1024 ** 2;

/** A yearly plan as the admin form sends it, with its traffic rules. */
const yearly = (overrides: Record<string, unknown> = {}) => ({ name: 'Plus 1 Year', days: 365, dataLimitBytes: 300 * GB, price: 8388, ...overrides });

/**
 * The traffic rules of a plan through the admin API (issue 55): a monthly reset (plans of more than 31 days only),
 * carry-over, grace days and grace data; stored, listed, changed one by one, refused when bad, and only by an admin.
 */
describe.each(TEST_DATABASES)('plan traffic rules (%s)', (kind) => {
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
    await env.database.db('plans').delete();
    t.app.services.changeSignal.changed();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, session: WebSession | null = admin) =>
    t.app.inject({ method, url, headers: { origin: TEST_ORIGIN, ...(session ? { cookie: session.cookie } : {}) }, ...(payload ? { payload } : {}) });
  const rows = () => env.database.db('plans').select('*').orderBy('name');
  const create = async (overrides: Record<string, unknown> = {}) => {
    const res = await call('POST', '/api/admin/plans', yearly(overrides));
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };

  it('stores the rules, answers them in the admin and public lists, and keeps them through a PATCH of other fields', async () => {
    const plan = await create({ trafficReset: 'monthly', trafficCarryOver: true, graceDays: 3, graceDataBytes: 2 * GB });
    expect(plan).toMatchObject({ trafficReset: 'monthly', trafficCarryOver: true, graceDays: 3, graceDataBytes: 2 * GB });
    const [row] = await rows();
    expect(row).toMatchObject({ traffic_reset: 'monthly', grace_days: 3 });
    expect(Boolean(row.traffic_carry_over)).toBe(true);
    expect(Number(row.grace_data_limit)).toBe(2 * GB);
    const rules = { trafficReset: 'monthly', trafficCarryOver: true, graceDays: 3, graceDataBytes: 2 * GB };
    expect((await call('GET', '/api/admin/plans')).json()[0]).toMatchObject({ id: plan.id, ...rules });
    expect((await call('GET', '/api/plans', undefined, null)).json()[0]).toMatchObject({ id: plan.id, ...rules });
    const renamed = await call('PATCH', `/api/admin/plans/${plan.id}`, { name: 'Renamed' });
    expect(renamed.json()).toMatchObject({ name: 'Renamed', ...rules });
  });

  it('gives a plan created without them the old behaviour: no monthly reset, nothing carried, no grace', async () => {
    const plan = await create();
    expect(plan).toMatchObject({ trafficReset: 'none', trafficCarryOver: false, graceDays: 0, graceDataBytes: null });
    expect((await rows())[0]).toMatchObject({ traffic_reset: 'none', grace_days: 0, grace_data_limit: null });
  });

  it('changes each rule alone with a PATCH, and turns them off again', async () => {
    const plan = await create();
    const patch = async (body: object) => {
      const res = await call('PATCH', `/api/admin/plans/${plan.id}`, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(await patch({ trafficReset: 'monthly' })).toMatchObject({ trafficReset: 'monthly', trafficCarryOver: false });
    expect(await patch({ trafficCarryOver: true })).toMatchObject({ trafficReset: 'monthly', trafficCarryOver: true });
    expect(await patch({ graceDays: 30, graceDataBytes: MB })).toMatchObject({ graceDays: 30, graceDataBytes: MB });
    expect(await patch({ graceDataBytes: null, graceDays: 0 })).toMatchObject({ graceDays: 0, graceDataBytes: null });
    expect(await patch({ trafficReset: 'none', trafficCarryOver: false })).toMatchObject({ trafficReset: 'none', trafficCarryOver: false });
  });

  it.each([
    ['a reset that is neither none nor monthly', { trafficReset: 'weekly' }, 'trafficReset'],
    ['a monthly reset of a 31-day plan', { days: 31, trafficReset: 'monthly' }, 'trafficReset'],
    ['carry-over that is not a boolean', { trafficCarryOver: 'yes' }, 'trafficCarryOver'],
    ['negative grace days', { graceDays: -1 }, 'graceDays'],
    ['more than 30 grace days', { graceDays: 31 }, 'graceDays'],
    ['fractional grace days', { graceDays: 1.5 }, 'graceDays'],
    ['grace days sent as text', { graceDays: '3' }, 'graceDays'],
    ['grace data under 1 MB', { graceDays: 3, graceDataBytes: MB - 1 }, 'graceDataBytes'],
    ['fractional grace data', { graceDays: 3, graceDataBytes: 1.5 * MB + 0.5 }, 'graceDataBytes'],
    ['grace data without grace days', { graceDataBytes: GB }, 'graceDataBytes'],
  ])('refuses %s with 400 validation_failed naming the field, and writes nothing', async (_case, bad, field) => {
    const created = await call('POST', '/api/admin/plans', yearly(bad));
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

  it('says why in plain words, and judges a PATCH with the plan as saved: a monthly plan cannot be shortened to a month', async () => {
    const short = await call('POST', '/api/admin/plans', yearly({ days: 30, trafficReset: 'monthly' }));
    expect(short.json()).toEqual({
      code: 'validation_failed',
      message: PLAN_TRAFFIC_MESSAGES.monthlyNeedsLongPlan,
      fields: { trafficReset: PLAN_TRAFFIC_MESSAGES.monthlyNeedsLongPlan },
    });
    const plan = await create({ trafficReset: 'monthly', graceDays: 2, graceDataBytes: GB });
    const before = await rows();
    const shortened = await call('PATCH', `/api/admin/plans/${plan.id}`, { days: 30 });
    expect(shortened.statusCode).toBe(400);
    expect(shortened.json().fields).toEqual({ trafficReset: PLAN_TRAFFIC_MESSAGES.monthlyNeedsLongPlan });
    const noDays = await call('PATCH', `/api/admin/plans/${plan.id}`, { graceDays: 0 });
    expect(noDays.json().fields).toEqual({ graceDataBytes: PLAN_TRAFFIC_MESSAGES.graceDataNeedsDays });
    expect(await rows()).toEqual(before);
    // 32 days is more than a month: allowed.
    expect((await call('PATCH', `/api/admin/plans/${plan.id}`, { days: 32 })).statusCode).toBe(200);
  });

  it('answers 401 signed out and 403 to a customer, and writes nothing', async () => {
    const plan = await create();
    const before = await rows();
    for (const session of [null, user]) {
      const expected = session ? 403 : 401;
      expect((await call('POST', '/api/admin/plans', yearly({ trafficReset: 'monthly' }), session)).statusCode).toBe(expected);
      expect((await call('PATCH', `/api/admin/plans/${plan.id}`, { trafficReset: 'monthly', graceDays: 5 }, session)).statusCode).toBe(expected);
    }
    expect(await rows()).toEqual(before);
  });

  it('answers 404 for the rules of a plan that does not exist', async () => {
    const res = await call('PATCH', '/api/admin/plans/00000000-0000-0000-0000-000000000000', { trafficReset: 'monthly' });
    expect(res.statusCode).toBe(404);
    expect(await rows()).toHaveLength(0);
  });
});

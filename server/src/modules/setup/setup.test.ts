import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../../test/test-app.js';

/** The admin's setup checklist: brand, support address, a server and a plan, each read from what is saved. */
describe.each(TEST_DATABASES)('admin setup checklist (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: WebSession;
  let customer: WebSession;

  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'setup-admin@example.com' } });
    admin = await signInWeb(t, env.smtp, 'setup-admin@example.com');
    customer = await signInWeb(t, env.smtp, 'setup-customer@example.com');
  });
  afterAll(async () => {
    await t.app.close();
  });

  const get = (session: WebSession | null) =>
    t.app.inject({ method: 'GET', url: '/api/admin/setup', headers: { origin: TEST_ORIGIN, ...(session ? { cookie: session.cookie } : {}) } });
  const done = async () => Object.fromEntries(((await get(admin)).json().steps as Array<{ id: string; done: boolean }>).map((step) => [step.id, step.done]));

  it('answers 401 signed out and 403 to a customer', async () => {
    expect((await get(null)).statusCode).toBe(401);
    const forbidden = await get(customer);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  it('lists every step undone on a fresh install, and ticks each as the operator saves it', async () => {
    const fresh = await get(admin);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().complete).toBe(false);
    expect(await done()).toEqual({ brand: false, supportEmail: false, server: false, plan: false, payment: false, trial: false });

    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: { origin: TEST_ORIGIN, cookie: admin.cookie },
      payload: { brandName: 'Acme VPN', supportEmail: 'Help@Acme.test' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ brandName: 'Acme VPN', supportEmail: 'help@acme.test', supportEmailSet: true });
    expect(await done()).toEqual({ brand: true, supportEmail: true, server: false, plan: false, payment: false, trial: false });

    const now = new Date();
    await env.database.db('masterservers').insert({
      id: 'setup-server',
      kind: 'marzneshin',
      name: 'de-1',
      url: 'https://panel.test',
      username: 'a',
      password_encrypted: 'v1.x',
      service_id: '1',
      locations: 'all',
      status: 'disabled',
      created_at: now,
      updated_at: now,
    });
    expect((await done()).server).toBe(false);
    await env.database.db('masterservers').where({ id: 'setup-server' }).update({ status: 'active' });
    await env.database
      .db('plans')
      .insert({ id: 'setup-plan', name: 'Basic', price: 500, days: 30, data_limit: 0, status: 'active', created_at: now, updated_at: now });
    expect(await done()).toMatchObject({ server: true, plan: true, payment: false, trial: false });
  });

  it('asks for a trial plan on sale, or the free-trial promise switched off; the public settings promise a trial only then', async () => {
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: { origin: TEST_ORIGIN, cookie: admin.cookie }, payload });
    const trialOffered = async () => (await t.app.inject({ method: 'GET', url: '/api/config' })).json().trialOffered;
    expect((await done()).trial).toBe(false);
    expect(await trialOffered()).toBe(false);

    const now = new Date();
    await env.database
      .db('plans')
      .insert({ id: 'setup-trial', name: 'Trial', price: 0, days: 3, data_limit: 0, status: 'active', created_at: now, updated_at: now });
    const saved = await put({ trialPlanId: 'setup-trial' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ trialPlanId: 'setup-trial', trialPromise: true });
    expect((await done()).trial).toBe(true);
    expect(await trialOffered()).toBe(true);

    // The trial plan off sale: the promise would be empty again.
    await env.database.db('plans').where({ id: 'setup-trial' }).update({ status: 'disabled' });
    t.app.services.changeSignal.changed();
    expect((await done()).trial).toBe(false);
    expect(await trialOffered()).toBe(false);

    // The operator switches the promise off: the step is done, and the site promises nothing.
    const off = await put({ trialPromise: false });
    expect(off.json()).toMatchObject({ trialPromise: false });
    expect((await done()).trial).toBe(true);
    await env.database.db('plans').where({ id: 'setup-trial' }).update({ status: 'active' });
    t.app.services.changeSignal.changed();
    expect(await trialOffered()).toBe(false);
    expect((await put({ trialPromise: 'no' })).statusCode).toBe(400);
  });

  it('keeps the support address empty in the settings form until one is saved, while the site shows support@ its host', async () => {
    await env.database.db('settings').where({ id: 'app_config' }).delete();
    t.app.services.changeSignal.changed();
    const form = await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: { origin: TEST_ORIGIN, cookie: admin.cookie } });
    expect(form.json()).toMatchObject({ supportEmail: '', supportEmailSet: false, locationsClaim: '50+', protectionFeatures: true });
    const config = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(config.json().supportEmail).toBe('support@localhost');
  });

  it('refuses a locations claim that is not a number', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: { origin: TEST_ORIGIN, cookie: admin.cookie },
      payload: { locationsClaim: 'lots of' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.stringContaining('number') });
    const ok = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: { origin: TEST_ORIGIN, cookie: admin.cookie },
      payload: { locationsClaim: '12', protectionFeatures: false },
    });
    expect(ok.json()).toMatchObject({ locationsClaim: '12', protectionFeatures: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({ locationsClaim: '12', protectionFeatures: false });
  });
});

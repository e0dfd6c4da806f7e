import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../../test/test-app.js';

/**
 * `/api/plans` and `/api/config` are sent as JSON serialised once per change (issue 27): a change made here,
 * or announced by another instance through the change signal, shows on the very next request (the test
 * clock never moves, so no cache lifetime can be what lets it through).
 */
describe.each(TEST_DATABASES)('the public plans and config answers (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: WebSession;

  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'admin@example.com' } });
    admin = await signInWeb(t, env.smtp, 'admin@example.com');
  });
  afterAll(async () => {
    await t.app.close();
  });
  beforeEach(async () => {
    await env.database.db('settings').where({ id: 'app_config' }).delete();
    await env.database.db('plans').delete();
    t.app.services.changeSignal.changed();
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const asAdmin = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: object) =>
    t.app.inject({ method, url, headers: { origin: TEST_ORIGIN, cookie: admin.cookie }, payload });
  const createPlan = async (name: string, price = 500) => {
    const res = await asAdmin('POST', '/api/admin/plans', { name, days: 30, dataLimitBytes: 1024 ** 3, price, locations: 'all' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string };
  };
  const names = async () => (await get('/api/plans')).json().map((plan: { name: string }) => plan.name);

  it('shows a plan created, edited or marked the trial here on the next request', async () => {
    expect(await names()).toEqual([]);
    const plan = await createPlan('Monthly');
    expect(await names()).toEqual(['Monthly']);
    expect((await asAdmin('PATCH', `/api/admin/plans/${plan.id}`, { price: 700 })).statusCode).toBe(200);
    expect((await get('/api/plans')).json()).toMatchObject([{ name: 'Monthly', price: 700, isTrial: false }]);
    expect((await asAdmin('PUT', '/api/admin/settings', { trialPlanId: plan.id })).statusCode).toBe(200);
    expect((await get('/api/plans')).json()).toMatchObject([{ name: 'Monthly', isTrial: true }]);
  });

  it('shows a plan another instance changed as soon as its signal arrives', async () => {
    const plan = await createPlan('Monthly');
    expect(await names()).toEqual(['Monthly']);
    await env.database.db('plans').where({ id: plan.id }).update({ name: 'Renamed elsewhere' });
    t.app.services.changeSignal.changed(); // what the broadcast does when another instance saves
    expect(await names()).toEqual(['Renamed elsewhere']);
  });

  it('shows settings saved here, or announced by another instance, on the next /api/config', async () => {
    expect((await get('/api/config')).json()).toMatchObject({ brandName: 'Lumen VPN' });
    expect((await asAdmin('PUT', '/api/admin/settings', { brandName: 'Saved Here VPN' })).statusCode).toBe(200);
    expect((await get('/api/config')).json()).toMatchObject({ brandName: 'Saved Here VPN' });
    const stored = await env.database.db('settings').where({ id: 'app_config' }).first();
    const value = typeof stored.value === 'string' ? JSON.parse(stored.value) : stored.value;
    await env.database
      .db('settings')
      .where({ id: 'app_config' })
      .update({ value: JSON.stringify({ ...value, brand_name: 'Elsewhere VPN' }) });
    t.app.services.changeSignal.changed();
    expect((await get('/api/config')).json()).toMatchObject({ brandName: 'Elsewhere VPN' });
  });

  it.each(['/api/plans', '/api/config'])('%s answers JSON with an ETag, 304 to a client holding it, and a new one after a change', async (url) => {
    await createPlan('Monthly');
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);

    const again = await get(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    await createPlan('Yearly', 5000);
    expect((await asAdmin('PUT', '/api/admin/settings', { brandName: 'Changed VPN' })).statusCode).toBe(200);
    const changed = await get(url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).not.toBe(first.body);
  });

  it('sends /api/plans compressed as the client accepts, from bytes made once per change; whole to a client that takes neither', async () => {
    for (let i = 0; i < 6; i++) await createPlan(`Plan with a long enough name to pass the threshold ${i}`, 500 + i);
    const whole = await get('/api/plans');
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.headers.vary).toMatch(/accept-encoding/i);
    expect(whole.body.length).toBeGreaterThan(1024);
    const br = await get('/api/plans', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(whole.rawPayload.length / 2);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(whole.body);
    expect(br.headers.etag).toBe(whole.headers.etag);
    const gzip = await get('/api/plans', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(whole.body);
    expect((await get('/api/plans', { 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding']).toBeUndefined();

    await createPlan('One more');
    const changed = await get('/api/plans', { 'accept-encoding': 'br' });
    expect(JSON.parse(brotliDecompressSync(changed.rawPayload).toString('utf8')).map((plan: { name: string }) => plan.name)).toContain('One more');
  });
});

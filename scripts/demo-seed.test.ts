import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../server/test/databases.js';
import { useTestEnvironment } from '../server/test/environment.js';
import { startFakeBtcpay, type FakeBtcpay } from '../server/test/fake-btcpay/index.js';
import { startFakeMarzneshin, type FakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { startFakeStripe, type FakeStripe } from '../server/test/fake-stripe/index.js';
import { startFakeYookassa, type FakeYookassa } from '../server/test/fake-yookassa/index.js';
import { startFakeCryptopay, type FakeCryptopay } from '../server/test/fake-cryptopay/index.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp } from '../server/test/test-app.js';
import { DEMO_BRAND, DEMO_BTCPAY, DEMO_CRYPTOPAY, DEMO_STRIPE_KEYS, DEMO_YOOKASSA, seedDemo } from './demo-seed.js';

const ADMIN = 'admin@demo.local';

/** What `npm run demo` seeds: a demo admin finds the setup done, and customers a real support address. */
describe.each(TEST_DATABASES)('the demo seed (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let panel: FakeMarzneshin;
  let stripe: FakeStripe;
  let btcpay: FakeBtcpay;
  let yookassa: FakeYookassa;
  let cryptopay: FakeCryptopay;

  beforeAll(async () => {
    panel = await startFakeMarzneshin();
    stripe = await startFakeStripe({ ...DEMO_STRIPE_KEYS, webhookUrl: `${TEST_ORIGIN}/api/webhooks/stripe` });
    btcpay = await startFakeBtcpay({ ...DEMO_BTCPAY, webhookUrl: `${TEST_ORIGIN}/api/webhooks/btcpay` });
    yookassa = await startFakeYookassa({ ...DEMO_YOOKASSA });
    cryptopay = await startFakeCryptopay({ token: DEMO_CRYPTOPAY.apiToken, network: DEMO_CRYPTOPAY.network });
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: ADMIN, STRIPE_API_URL: stripe.url, YOOKASSA_API_URL: `${yookassa.url}/v3`, CRYPTOPAY_API_URL: `${cryptopay.url}/api` },
    });
    await seedDemo(t.app, { panel, btcpayUrl: btcpay.url, adminEmail: ADMIN, localProviders: true });
  });
  afterAll(async () => {
    await t?.app.close();
    await Promise.all([panel?.close(), stripe?.close(), btcpay?.close(), yookassa?.close(), cryptopay?.close()]);
  });

  it("finishes every step of the admin's setup checklist", async () => {
    const admin = await signInWeb(t, env.smtp, ADMIN);
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/setup', headers: { origin: TEST_ORIGIN, cookie: admin.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().steps.filter((step: { done: boolean }) => !step.done)).toEqual([]);
    expect(res.json().complete).toBe(true);
  });

  it('gives the public pages its support address, not support@localhost', async () => {
    const config = (await t.app.inject({ method: 'GET', url: '/api/config' })).json();
    expect(config).toMatchObject({ supportEmail: DEMO_BRAND.supportEmail, brandName: DEMO_BRAND.brandName, cardPaymentsEnabled: true });
    expect(JSON.stringify(config)).not.toContain('localhost');
  });

  it('takes every payment method the store can: YooKassa waits for roubles', async () => {
    const config = (await t.app.inject({ method: 'GET', url: '/api/config' })).json();
    expect(config.paymentMethods).toEqual(['card', 'cryptopay', 'crypto']);
    await expect(t.app.services.yookassa.publicState('rub')).resolves.toMatchObject({ ready: true });
  });

  it('shows customers the server by its public name', async () => {
    const status = (await t.app.inject({ method: 'GET', url: '/api/status' })).json();
    expect(status.regions).toEqual([expect.objectContaining({ name: 'Germany', locationNumber: null })]);
  });
});

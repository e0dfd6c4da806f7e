import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { useTestEnvironment } from '../../../../test/environment.js';
import { bearer, buildTestApp, signInDesktop, type DesktopSession, type TestApp } from '../../../../test/test-app.js';

const ENV_KEYS = {
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fromEnv',
  STRIPE_SECRET_KEY: 'sk_test_fromEnv0123456789',
  STRIPE_WEBHOOK_SECRET: 'whsec_fromEnv0123456789',
};

describe.each(TEST_DATABASES)('card keys from the environment (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: DesktopSession;

  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'admin@example.com', ...ENV_KEYS } });
    admin = await signInDesktop(t, env.smtp, 'admin@example.com');
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('turns card payments on with nothing saved, shows the keys as set by the environment, and never returns the secrets', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/payments/card', headers: bearer(admin.accessToken) });
    expect(res.json()).toEqual({
      enabled: true,
      publishableKey: ENV_KEYS.STRIPE_PUBLISHABLE_KEY,
      secretKeySet: true,
      webhookSecretSet: true,
      sources: { publishableKey: 'env', secretKey: 'env', webhookSecret: 'env' },
      webhookUrl: 'http://localhost:3000/api/webhooks/stripe',
    });
    expect(res.body).not.toContain(ENV_KEYS.STRIPE_SECRET_KEY);
    expect((await t.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({
      cardPaymentsEnabled: true,
      stripePublishableKey: ENV_KEYS.STRIPE_PUBLISHABLE_KEY,
    });
  });

  it('refuses to change a key the environment sets, naming the variable; the switch still works', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/payments/card',
      headers: bearer(admin.accessToken),
      payload: { secretKey: 'sk_test_other' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ secretKey: 'Set by the STRIPE_SECRET_KEY environment variable' });
    const off = await t.app.inject({ method: 'PUT', url: '/api/admin/payments/card', headers: bearer(admin.accessToken), payload: { enabled: false } });
    expect(off.json()).toMatchObject({ enabled: false, secretKeySet: true });
    expect((await t.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({ cardPaymentsEnabled: false });
  });
});

describe.each(TEST_DATABASES)('card keys from the environment without a webhook secret (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;

  beforeAll(async () => {
    const { STRIPE_WEBHOOK_SECRET: _missing, ...apiKeys } = ENV_KEYS;
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'admin@example.com', ...apiKeys } });
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('leaves card payments off: no payment could be confirmed without the webhook', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({ cardPaymentsEnabled: false, stripePublishableKey: null });
    const admin = await signInDesktop(t, env.smtp, 'admin@example.com');
    const checkout = await t.app.inject({ method: 'POST', url: '/api/checkout', headers: bearer(admin.accessToken), payload: { planId: 'any' } });
    expect(checkout.statusCode).toBe(503);
    expect(checkout.json().code).toBe('payment_not_configured');
  });
});

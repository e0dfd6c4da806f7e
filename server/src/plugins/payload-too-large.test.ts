import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../test/databases.js';
import { useTestEnvironment } from '../../test/environment.js';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../test/test-app.js';
import { WEBHOOK_BODY_LIMIT_BYTES } from '../modules/billing/webhooks/payment-webhooks.routes.js';
import { BODY_LIMIT_BYTES } from '../app.js';

const TOO_LARGE = { code: 'payload_too_large', message: 'The request body is too large.' };
/** A 2 MB JSON body: far over the API's limit and the webhook's own. */
const twoMegabytes = JSON.stringify({ email: 'a@example.com', type: 'checkout.session.completed', pad: 'x'.repeat(2 * 1024 * 1024) });

describe.each(TEST_DATABASES)('bodies over the limit answer 413 (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.app.close();
  });

  const count = async (table: string) => Number((await env.database.db(table).count({ n: '*' }).first())?.n ?? 0);

  it('the limits are what docs/api.md says: 64 KB for the API, 512 KB for the Stripe webhook', () => {
    expect(BODY_LIMIT_BYTES).toBe(64 * 1024);
    expect(WEBHOOK_BODY_LIMIT_BYTES).toBe(512 * 1024);
    expect(twoMegabytes.length).toBeGreaterThan(2 * 1024 * 1024);
  });

  it.each([
    ['a JSON route', '/api/auth/otp', 'otp_codes'],
    ['the Stripe webhook', '/api/webhooks/stripe', 'webhook_events'],
  ])('%s: 413 payload_too_large over real HTTP, not a 500 or a reset, and nothing stored', async (_what, path, table) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: TEST_ORIGIN, 'stripe-signature': 't=1,v1=00' },
      body: twoMegabytes,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(TOO_LARGE);
    expect(await count(table)).toBe(0);
    // The server is still there for the next request.
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });

  it('answers the same through inject, and a body just under the limit is read', async () => {
    for (const url of ['/api/auth/otp', '/api/webhooks/stripe']) {
      const res = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', origin: TEST_ORIGIN }, payload: twoMegabytes });
      expect(res.statusCode, url).toBe(413);
      expect(res.json(), url).toEqual(TOO_LARGE);
    }
    const fits = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: JSON.stringify({ pad: 'x'.repeat(WEBHOOK_BODY_LIMIT_BYTES - 100) }),
    });
    // Read, then refused for what it says (card payments are not set up in this app), not for its size.
    expect(fits.statusCode).toBe(503);
    expect(fits.json().code).toBe('payment_not_configured');
  });
});

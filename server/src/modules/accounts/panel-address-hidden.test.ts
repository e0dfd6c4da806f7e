import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { TEST_ORIGIN } from '../../../test/test-app.js';

const OWN_SUB_LINK = new RegExp(`^${TEST_ORIGIN}/sub/[\\w-]{20,}$`);

describe.each(TEST_DATABASES)('customer answers carry our own /sub link, never a panel address (%s)', (kind) => {
  const f = useBillingFixture(kind);
  const panelHost = () => new URL(f.panel.url).host; // 127.0.0.1:<port>

  const expectNoPanelAddress = (res: LightMyRequestResponse, what: string) => {
    expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(400);
    expect(`${JSON.stringify(res.headers)}\n${res.body}`, what).not.toContain(panelHost());
  };

  it('a claimed trial: the claim, the account list and every other customer answer hold no panel host:port', async () => {
    const user = await f.newUser();
    const claimed = await f.call(user, 'POST', '/api/accounts', { planId: f.trialPlanId });
    expect(claimed.statusCode).toBe(201);
    const account = claimed.json();
    expect(account.combinedUrl).toMatch(OWN_SUB_LINK);
    expect(account.subscriptionUrl).toBe(account.combinedUrl);

    // The panel's own address is kept on our side (the /sub proxy reads it), never handed out.
    const row = await f.env.database.db('vpn_accounts').where({ id: account.id }).first();
    expect(row.subscription_url).toContain(panelHost());

    const listed = await f.call(user, 'GET', '/api/accounts');
    expect(listed.json()).toEqual([expect.objectContaining({ id: account.id, combinedUrl: account.combinedUrl, subscriptionUrl: account.combinedUrl })]);
    const answers: Array<[string, LightMyRequestResponse]> = [
      ['POST /api/accounts', claimed],
      ['GET /api/accounts', listed],
      ['GET /api/me', await f.call(user, 'GET', '/api/me')],
      ['GET /api/subscriptions', await f.call(user, 'GET', '/api/subscriptions')],
      ['GET /api/transactions', await f.call(user, 'GET', '/api/transactions')],
      ['GET /api/status', await f.call(null, 'GET', '/api/status')],
      ['GET /api/config', await f.call(null, 'GET', '/api/config')],
      ['GET /sub (client)', await f.t.app.inject({ url: new URL(account.combinedUrl).pathname, headers: { 'user-agent': 'v2rayNG/1.8.5' } })],
      ['GET /sub (browser)', await f.t.app.inject({ url: new URL(account.combinedUrl).pathname, headers: { accept: 'text/html' } })],
    ];
    for (const [what, res] of answers) expectNoPanelAddress(res, what);
  });

  it('a bought account: the checkout status `account` holds our link only', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    await f.stripe.pay(sessionId);
    await f.runJobs();
    const status = await f.call(user, 'GET', `/api/checkout/${sessionId}`);
    expect(status.json()).toMatchObject({ status: 'succeeded', account: { combinedUrl: expect.stringMatching(OWN_SUB_LINK) } });
    expect(status.json().account.subscriptionUrl).toBe(status.json().account.combinedUrl);
    expectNoPanelAddress(status, 'GET /api/checkout/:sessionId');
    expectNoPanelAddress(await f.call(user, 'GET', '/api/accounts'), 'GET /api/accounts');
  });

  it("answers 401 to the account list signed out, and 404 for someone else's checkout, without a panel address", async () => {
    const signedOut = await f.call(null, 'GET', '/api/accounts');
    expect(signedOut.statusCode).toBe(401);
    const owner = await f.newUser();
    const { sessionId } = await f.checkout(owner, { planId: f.paidPlanId });
    const other = await f.call(await f.newUser(), 'GET', `/api/checkout/${sessionId}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ code: 'not_found', message: expect.any(String) });
    for (const res of [signedOut, other]) expect(res.body).not.toContain(panelHost());
  });
});

import { describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { ACCOUNT_MESSAGES } from '../../../../../shared/accounts.js';
import { GB, STRIPE_KEYS, useBillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';

const DAY_MS = 24 * 3600 * 1000;

describe.each(TEST_DATABASES)('card checkout (%s)', (kind) => {
  const f = useBillingFixture(kind);

  it('buys a plan: checkout, payment, webhook, provisioning job, a working account', async () => {
    const user = await f.newUser();
    const started = await f.checkout(user, { planId: f.paidPlanId });
    expect(started).toEqual({
      url: expect.stringMatching(new RegExp(`^${f.stripe.url}/checkout/pay/cs_test_`)),
      sessionId: expect.stringMatching(/^cs_test_/),
      subscriptionId: expect.any(String),
    });

    // What the server asked Stripe for: the plan's price and name, usd, the customer, our return pages.
    const session = f.stripe.getSession(started.sessionId)!;
    expect(session).toMatchObject({
      amount_total: 499,
      currency: 'usd',
      mode: 'payment',
      customer_email: expect.stringContaining('@example.com'),
      client_reference_id: user.userId,
      success_url: 'http://localhost:3000/thank-you?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: expect.stringMatching(/^http:\/\/localhost:3000\/dashboard\?checkout=cancelled&order=[\w-]+$/),
      metadata: {
        subscription_id: started.subscriptionId,
        user_id: user.userId,
        plan_id: f.paidPlanId,
        kind: 'purchase',
        transaction_id: expect.any(String),
        vpn_account_id: expect.any(String),
      },
    });
    expect(f.stripe.requests.find((r) => r.method === 'POST')?.idempotencyKey).toBe(`checkout:${session.metadata!.transaction_id}`);

    // Before payment: incomplete subscription, pending transaction named by the session, suspended account.
    const db = f.env.database.db;
    expect(await db('subscriptions').where({ id: started.subscriptionId }).first()).toMatchObject({
      status: 'incomplete',
      vpn_account_id: session.metadata!.vpn_account_id,
    });
    expect(await db('transactions').where({ subscription_id: started.subscriptionId }).first()).toMatchObject({
      status: 'pending',
      amount: 499,
      currency: 'usd',
      provider_transaction_id: started.sessionId,
    });
    expect(await db('vpn_accounts').where({ id: session.metadata!.vpn_account_id }).first()).toMatchObject({ status: 'suspended', user_id: user.userId });
    expect((await f.call(user, 'GET', `/api/checkout/${started.sessionId}`)).json()).toEqual({
      status: 'pending',
      subscriptionId: started.subscriptionId,
      renewal: false,
      currency: 'usd',
    });
    const listed = (await f.call(user, 'GET', '/api/accounts')).json();
    expect(listed).toEqual([expect.objectContaining({ status: 'suspended', combinedUrl: null, renewable: false })]);

    await f.stripe.pay(started.sessionId);
    expect(f.stripe.deliveries.at(-1)).toMatchObject({ type: 'checkout.session.completed', status: 200 });
    const subscription = await db('subscriptions').where({ id: started.subscriptionId }).first();
    expect(subscription.status).toBe('active');
    const periodDays = (new Date(subscription.current_period_end).getTime() - new Date(subscription.current_period_start).getTime()) / DAY_MS;
    expect(periodDays).toBeCloseTo(30, 5);
    expect(await f.count('transactions', { subscription_id: started.subscriptionId, status: 'succeeded' })).toBe(1);
    // Paid, not yet provisioned: the return page keeps waiting.
    expect((await f.call(user, 'GET', `/api/checkout/${started.sessionId}`)).json()).toEqual({
      status: 'succeeded',
      subscriptionId: started.subscriptionId,
      renewal: false,
      currency: 'usd',
    });

    expect(await f.runJobs()).toBeGreaterThanOrEqual(1);
    const status = (await f.call(user, 'GET', `/api/checkout/${started.sessionId}`)).json();
    expect(status).toMatchObject({
      status: 'succeeded',
      account: {
        id: session.metadata!.vpn_account_id,
        status: 'active',
        dataLimitBytes: 10 * GB,
        planName: 'Plus Monthly',
        renewable: true,
        combinedUrl: expect.stringMatching(/^http:\/\/localhost:3000\/sub\//),
      },
    });
    const panelUser = asMarzneshinUser(f.panel.users.get(status.account.username));
    expect(panelUser.note).toBe(status.account.id);
    expect(new Date(panelUser.expire_date!).getTime()).toBeCloseTo(new Date(subscription.current_period_end).getTime(), -4);

    const sub = await f.t.app.inject({ method: 'GET', url: new URL(status.account.combinedUrl).pathname, headers: { 'user-agent': 'v2rayNG/1.8.5' } });
    expect(sub.statusCode).toBe(200);
    expect(Buffer.from(sub.body, 'base64').toString()).toMatch(/^vless:\/\//);

    const transactions = (await f.call(user, 'GET', '/api/transactions')).json();
    expect(transactions).toEqual([
      {
        id: expect.any(String),
        subscriptionId: started.subscriptionId,
        status: 'succeeded',
        amount: 499,
        amountRefunded: 0,
        currency: 'usd',
        planName: 'Plus Monthly',
        renewal: false,
        createdAt: expect.any(String),
        method: 'card',
      },
    ]);
    const subscriptions = (await f.call(user, 'GET', '/api/subscriptions')).json();
    expect(subscriptions).toEqual([
      expect.objectContaining({
        id: started.subscriptionId,
        status: 'active',
        planName: 'Plus Monthly',
        price: 499,
        providerName: 'stripe',
        autoRenews: false,
        cancelAtPeriodEnd: false,
        canceledAt: null,
        error: null,
      }),
    ]);
  });

  it('takes the price from the plan: a client-sent price or amount is refused, and the session charges the plan', async () => {
    const user = await f.newUser();
    for (const body of [
      { planId: f.paidPlanId, price: 1 },
      { planId: f.paidPlanId, amount: 1 },
      { planId: f.paidPlanId, accountId: 'x' },
      {},
      { planId: '' },
    ]) {
      const res = await f.call(user, 'POST', '/api/checkout', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const started = await f.checkout(user, { planId: f.paidPlanId });
    expect(f.stripe.getSession(started.sessionId)?.amount_total).toBe(499);
  });

  it('refuses a plan that is not for sale: unknown 404, the trial and free plans 400', async () => {
    const user = await f.newUser();
    expect((await f.call(user, 'POST', '/api/checkout', { planId: 'no-such-plan' })).json()).toEqual({
      code: 'not_found',
      message: BILLING_MESSAGES.planNotFound,
    });
    const trial = await f.call(user, 'POST', '/api/checkout', { planId: f.trialPlanId });
    expect(trial.statusCode).toBe(400);
    expect(trial.json().code).toBe('not_purchasable');
    expect(await f.count('subscriptions', { user_id: user.userId })).toBe(0);
  });

  it("answers 503 'Payment provider not properly configured' while card payments are off, and /api/config says so", async () => {
    const user = await f.newUser();
    expect((await f.call(f.admin, 'PUT', '/api/admin/payments/card', { enabled: false })).json()).toMatchObject({ enabled: false, secretKeySet: true });
    try {
      expect((await f.call(null, 'GET', '/api/config')).json()).toMatchObject({ cardPaymentsEnabled: false, stripePublishableKey: null });
      const res = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: 'payment_not_configured', message: BILLING_MESSAGES.notConfigured });
      expect(await f.count('subscriptions', { user_id: user.userId })).toBe(0);
    } finally {
      await f.call(f.admin, 'PUT', '/api/admin/payments/card', { enabled: true });
    }
    expect((await f.call(null, 'GET', '/api/config')).json()).toMatchObject({ cardPaymentsEnabled: true, stripePublishableKey: STRIPE_KEYS.publishableKey });
  });

  it('validates the card settings: key kinds, unknown fields, and enabling without keys or the webhook secret', async () => {
    for (const body of [{ publishableKey: 'sk_test_wrongField' }, { secretKey: 'pk_test_x' }, { webhookSecret: 'secret' }, { enabled: 'yes' }, { price: 1 }]) {
      const res = await f.call(f.admin, 'PUT', '/api/admin/payments/card', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    const cleared = await f.call(f.admin, 'PUT', '/api/admin/payments/card', { enabled: true, secretKey: null });
    expect(cleared.statusCode).toBe(400);
    expect(cleared.json().fields).toEqual({ secretKey: expect.any(String) });
    // Without the webhook secret no payment could be confirmed by Stripe's webhook.
    const noWebhookSecret = await f.call(f.admin, 'PUT', '/api/admin/payments/card', { enabled: true, webhookSecret: null });
    expect(noWebhookSecret.statusCode).toBe(400);
    expect(noWebhookSecret.json().fields).toEqual({ webhookSecret: 'Add the webhook signing secret before enabling card payments' });
    expect((await f.call(f.admin, 'GET', '/api/admin/payments/card')).json()).toMatchObject({
      enabled: true,
      publishableKey: STRIPE_KEYS.publishableKey,
      secretKeySet: true,
      webhookSecretSet: true,
      sources: { publishableKey: 'settings', secretKey: 'settings', webhookSecret: 'settings' },
      webhookUrl: 'http://localhost:3000/api/webhooks/stripe',
    });
  });

  it('answers 503 with the spec message when no active server covers the plan, saving nothing', async () => {
    const user = await f.newUser();
    expect((await f.call(f.admin, 'POST', `/api/admin/servers/${f.serverId}/disable`)).statusCode).toBe(200);
    const res = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId });
    expect((await f.call(f.admin, 'POST', `/api/admin/servers/${f.serverId}/enable`)).statusCode).toBe(200);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ code: 'service_unavailable', message: ACCOUNT_MESSAGES.serviceUnavailable });
    expect(await f.count('subscriptions', { user_id: user.userId })).toBe(0);
    expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(0);
  });

  it("answers 502 'Failed to create payment intent' when Stripe fails, leaving no record behind", async () => {
    const user = await f.newUser();
    f.stripe.failNextCreates(3); // the SDK retries twice
    const res = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ code: 'payment_provider_error', message: BILLING_MESSAGES.checkoutFailed });
    for (const table of ['subscriptions', 'transactions', 'vpn_accounts']) expect(await f.count(table, { user_id: user.userId })).toBe(0);
  });

  it('needs a session: 401 signed out on every customer payment route', async () => {
    for (const [method, url] of [
      ['POST', '/api/checkout'],
      ['GET', '/api/checkout/cs_test_x'],
      ['GET', '/api/subscriptions'],
      ['POST', '/api/subscriptions/x/cancel'],
      ['GET', '/api/transactions'],
    ] as const) {
      const res = await f.call(null, method, url, method === 'POST' ? { planId: f.paidPlanId } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it("never shows one customer another's session, subscription or transactions (404 / not listed)", async () => {
    const owner = await f.newUser();
    const other = await f.newUser();
    const started = await f.checkout(owner, { planId: f.paidPlanId });
    await f.stripe.pay(started.sessionId);
    await f.runJobs();

    expect((await f.call(other, 'GET', `/api/checkout/${started.sessionId}`)).statusCode).toBe(404);
    const cancel = await f.call(other, 'POST', `/api/subscriptions/${started.subscriptionId}/cancel`);
    expect(cancel.statusCode).toBe(404);
    expect(cancel.json()).toEqual({ code: 'not_found', message: BILLING_MESSAGES.subscriptionNotFound });
    expect((await f.call(other, 'GET', '/api/transactions')).json()).toEqual([]);
    expect((await f.call(other, 'GET', '/api/subscriptions')).json()).toEqual([]);
    const account = (await f.call(owner, 'GET', '/api/accounts')).json()[0];
    expect((await f.call(other, 'POST', '/api/checkout', { accountId: account.id })).statusCode).toBe(404);
    expect((await f.env.database.db('subscriptions').where({ id: started.subscriptionId }).first()).cancel_at_period_end).toBeFalsy();
  });

  it('offers no cancel on a one-off purchase, and shows it as ended once its period is over', async () => {
    const user = await f.newUser();
    const started = await f.checkout(user, { planId: f.paidPlanId });
    await f.stripe.pay(started.sessionId);
    const res = await f.call(user, 'POST', `/api/subscriptions/${started.subscriptionId}/cancel`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'not_recurring', message: BILLING_MESSAGES.oneOffNotCancelable });
    expect(await f.env.database.db('subscriptions').where({ id: started.subscriptionId }).first()).toMatchObject({ status: 'active', canceled_at: null });
    const own = async () => (await f.call(user, 'GET', '/api/subscriptions')).json().find((s: { id: string }) => s.id === started.subscriptionId);
    expect(await own()).toMatchObject({ status: 'active', autoRenews: false });
    await f.env.database
      .db('subscriptions')
      .where({ id: started.subscriptionId })
      .update({ current_period_end: new Date(f.t.clock.now().getTime() - 1000) });
    expect(await own()).toMatchObject({ status: 'ended' });
    const other = await f.newUser();
    expect((await f.call(other, 'POST', `/api/subscriptions/${started.subscriptionId}/cancel`)).statusCode).toBe(404);
  });

  it('follows up a checkout nobody reported: the job asks Stripe and provisions a paid one', async () => {
    const user = await f.newUser();
    const started = await f.checkout(user, { planId: f.paidPlanId });
    f.stripe.setWebhookUrl(null);
    try {
      await f.stripe.pay(started.sessionId);
    } finally {
      await f.restart(); // sets the webhook URL again
    }
    expect(await f.count('transactions', { provider_transaction_id: started.sessionId, status: 'pending' })).toBe(1);
    f.t.clock.advance(11 * 60);
    await f.runJobs();
    expect(await f.count('transactions', { provider_transaction_id: started.sessionId, status: 'succeeded' })).toBe(1);
    expect((await f.call(user, 'GET', `/api/checkout/${started.sessionId}`)).json().account.status).toBe('active');
  });

  it('cleans up an abandoned checkout when its session expires: failed, error kept, waiting account removed', async () => {
    const user = await f.newUser();
    const started = await f.checkout(user, { planId: f.paidPlanId });
    const accountId = f.stripe.getSession(started.sessionId)!.metadata!.vpn_account_id;
    await f.stripe.expire(started.sessionId);
    expect(f.stripe.deliveries.at(-1)).toMatchObject({ type: 'checkout.session.expired', status: 200 });
    expect((await f.call(user, 'GET', `/api/checkout/${started.sessionId}`)).json()).toEqual({
      status: 'failed',
      subscriptionId: started.subscriptionId,
      renewal: false,
      currency: 'usd',
      error: BILLING_MESSAGES.paymentExpired,
    });
    const subscription = (await f.call(user, 'GET', '/api/subscriptions')).json().find((s: { id: string }) => s.id === started.subscriptionId);
    expect(subscription).toMatchObject({ status: 'incomplete', error: BILLING_MESSAGES.paymentExpired, vpnAccountId: null });
    expect(await f.count('vpn_accounts', { id: accountId })).toBe(0);
    expect((await f.call(user, 'GET', '/api/transactions')).json()[0]).toMatchObject({ status: 'failed' });
  });

  it("cancelled on the provider's page: the checkout closes at once, no waiting account is left, and the history says so", async () => {
    const user = await f.newUser();
    const started = await f.checkout(user, { planId: f.paidPlanId });
    const session = f.stripe.getSession(started.sessionId)!;
    const accountId = session.metadata!.vpn_account_id;
    const order = new URL(session.cancel_url!).searchParams.get('order')!;
    expect(order).toBe(session.metadata!.transaction_id);

    const other = await f.newUser();
    expect((await f.call(other, 'POST', `/api/checkout/${order}/cancel`)).statusCode).toBe(404);
    expect((await f.call(null, 'POST', `/api/checkout/${order}/cancel`)).statusCode).toBe(401);

    const res = await f.call(user, 'POST', `/api/checkout/${order}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'cancelled' });
    expect(f.stripe.getSession(started.sessionId)!.status).toBe('expired');
    expect(await f.count('vpn_accounts', { id: accountId })).toBe(0);
    expect((await f.call(user, 'GET', '/api/accounts')).json()).toEqual([]);
    expect((await f.call(user, 'GET', '/api/subscriptions')).json()[0]).toMatchObject({ error: BILLING_MESSAGES.paymentCancelled, vpnAccountId: null });
    // Again (a reload of the page it returned to): nothing more happens.
    expect((await f.call(user, 'POST', `/api/checkout/${order}/cancel`)).json()).toEqual({ status: 'cancelled' });
    expect((await f.call(user, 'POST', '/api/checkout/no-such-order/cancel')).statusCode).toBe(404);
    // Cancelled, not failed: in the customer's history, the return page's poll and the admin's list (and its filter).
    expect((await f.call(user, 'GET', '/api/transactions')).json()[0]).toMatchObject({ id: order, status: 'cancelled' });
    expect((await f.call(user, 'GET', `/api/checkout/${started.sessionId}`)).json()).toMatchObject({
      status: 'cancelled',
      error: BILLING_MESSAGES.paymentCancelled,
    });
    const cancelledOnes = (await f.call(f.admin, 'GET', '/api/admin/transactions?status=cancelled')).json() as Array<{ id: string; status: string }>;
    expect(cancelledOnes.find((t) => t.id === order)).toMatchObject({ status: 'cancelled' });
    expect(((await f.call(f.admin, 'GET', '/api/admin/transactions?status=failed')).json() as Array<{ id: string }>).map((t) => t.id)).not.toContain(order);
  });

  it("cancelled, and the provider's expiry of the checkout arrives before the cancel is saved: cancelled, not failed", async () => {
    const user = await f.newUser();
    const started = await f.checkout(user, { planId: f.paidPlanId });
    const session = f.stripe.getSession(started.sessionId)!;
    const order = new URL(session.cancel_url!).searchParams.get('order')!;
    // The cancel's first step (its intent, written before the provider is asked to close the checkout)...
    const row = await f.env.database.db('transactions').where({ id: order }).first();
    const metadata = typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata;
    await f.env.database
      .db('transactions')
      .where({ id: order })
      .update({ metadata: JSON.stringify({ ...metadata, cancel_requested_at: new Date().toISOString() }) });
    // ...then the provider's checkout.session.expired, delivered before the cancel request goes on.
    await f.stripe.expire(started.sessionId);
    expect(f.stripe.deliveries.at(-1)).toMatchObject({ type: 'checkout.session.expired', status: 200 });
    expect((await f.call(user, 'GET', '/api/transactions')).json()[0]).toMatchObject({ id: order, status: 'cancelled' });
    expect((await f.call(user, 'POST', `/api/checkout/${order}/cancel`)).json()).toEqual({ status: 'cancelled' });
    expect((await f.call(user, 'GET', '/api/subscriptions')).json()[0]).toMatchObject({ error: BILLING_MESSAGES.paymentCancelled, vpnAccountId: null });
    expect(await f.count('vpn_accounts', { id: session.metadata!.vpn_account_id })).toBe(0);
  });

  it('a cancel sent twice at once (two tabs) closes the checkout once and answers both', async () => {
    const user = await f.newUser();
    const started = await f.checkout(user, { planId: f.paidPlanId });
    const session = f.stripe.getSession(started.sessionId)!;
    const order = new URL(session.cancel_url!).searchParams.get('order')!;
    const answers = await Promise.all([f.call(user, 'POST', `/api/checkout/${order}/cancel`), f.call(user, 'POST', `/api/checkout/${order}/cancel`)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => a.json())).toEqual([{ status: 'cancelled' }, { status: 'cancelled' }]);
    expect(await f.count('vpn_accounts', { id: session.metadata!.vpn_account_id })).toBe(0);
    // Closed once: one 'payment_cancelled' step for this customer, however many requests raced.
    expect(await f.count('vpn_account_logs', { user_id: user.userId, step: 'payment_cancelled' })).toBe(1);
    expect((await f.call(user, 'GET', '/api/subscriptions')).json()[0]).toMatchObject({ error: BILLING_MESSAGES.paymentCancelled });
  });

  it('cancelled after all, but paid a moment before: the payment counts and the account is made', async () => {
    const user = await f.newUser();
    const started = await f.checkout(user, { planId: f.paidPlanId });
    const order = new URL(f.stripe.getSession(started.sessionId)!.cancel_url!).searchParams.get('order')!;
    await f.stripe.pay(started.sessionId);
    expect((await f.call(user, 'POST', `/api/checkout/${order}/cancel`)).json()).toEqual({ status: 'succeeded' });
    await f.runJobs();
    expect((await f.call(user, 'GET', `/api/checkout/${started.sessionId}`)).json().account.status).toBe('active');
  });

  it('a cancel and the payment at the same moment: a payment that went through always counts, once; otherwise the order is cancelled', async () => {
    for (let round = 0; round < 6; round += 1) {
      const user = await f.newUser();
      const started = await f.checkout(user, { planId: f.paidPlanId });
      const order = new URL(f.stripe.getSession(started.sessionId)!.cancel_url!).searchParams.get('order')!;
      // Either side first, the other a moment later (0–50 ms: each round lands elsewhere in the other's steps).
      const later = <T>(run: () => Promise<T>) => new Promise<void>((resolve) => setTimeout(resolve, round * 10)).then(run);
      const pay = () =>
        f.stripe.pay(started.sessionId).then(
          () => true,
          () => false,
        );
      const cancel = () => f.call(user, 'POST', `/api/checkout/${order}/cancel`);
      const [paid, answer] =
        round % 2 === 0
          ? await Promise.all([pay(), later(cancel)])
          : ((await Promise.all([cancel(), later(pay)])).reverse() as [boolean, Awaited<ReturnType<typeof cancel>>]);
      expect(answer.statusCode, answer.body).toBe(200);
      await f.runJobs();
      const state = (await f.call(user, 'GET', `/api/checkout/${started.sessionId}`)).json();
      if (paid) {
        expect(state.status, `round ${round}`).toBe('succeeded');
        expect(state.account.status).toBe('active');
        expect(await f.count('transactions', { user_id: user.userId, status: 'succeeded' })).toBe(1);
        expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(1);
      } else {
        expect(state.status, `round ${round}`).toBe('cancelled');
        expect(await f.count('transactions', { user_id: user.userId, status: 'succeeded' })).toBe(0);
        expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(0);
      }
    }
  });

  it('renews the same panel account: expiry + plan days from the current expiry, usage reset, no second account', async () => {
    const user = await f.newUser();
    const first = await f.checkout(user, { planId: f.paidPlanId });
    await f.stripe.pay(first.sessionId);
    await f.runJobs();
    const account = (await f.call(user, 'GET', `/api/checkout/${first.sessionId}`)).json().account;
    const panelUser = asMarzneshinUser(f.panel.users.get(account.username));
    const expiryBefore = new Date(panelUser.expire_date!).getTime();
    panelUser.used_traffic = 3 * GB;
    f.t.clock.advance(3600);

    const renewal = await f.checkout(user, { accountId: account.id });
    expect(f.stripe.getSession(renewal.sessionId)).toMatchObject({ amount_total: 499, metadata: { kind: 'renewal', vpn_account_id: account.id } });
    expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(1);
    await f.stripe.pay(renewal.sessionId);
    await f.runJobs();

    const renewed = asMarzneshinUser(f.panel.users.get(account.username));
    expect(new Date(renewed.expire_date!).getTime() - expiryBefore).toBeCloseTo(30 * DAY_MS, -4);
    expect(renewed.used_traffic).toBe(0);
    expect(renewed.data_limit).toBe(10 * GB);
    const status = (await f.call(user, 'GET', `/api/checkout/${renewal.sessionId}`)).json();
    expect(status).toMatchObject({ status: 'succeeded', renewal: true, account: { id: account.id, username: account.username, usedTrafficBytes: 0 } });
    expect(new Date(status.account.expireDate).getTime()).toBe(new Date(renewed.expire_date!).getTime());
    expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(1);
    expect(f.panel.users.size).toBeGreaterThan(0);
    expect([...f.panel.users.values()].filter((u) => asMarzneshinUser(u).note === account.id)).toHaveLength(1);
    expect((await f.call(user, 'GET', '/api/transactions')).json().map((t: { renewal: boolean; status: string }) => [t.renewal, t.status])).toEqual([
      [true, 'succeeded'],
      [false, 'succeeded'],
    ]);
  });

  it('refuses to renew an account that is still waiting for its payment, or from a plan no longer on sale', async () => {
    const user = await f.newUser();
    const started = await f.checkout(user, { planId: f.paidPlanId });
    const waitingId = f.stripe.getSession(started.sessionId)!.metadata!.vpn_account_id;
    expect((await f.call(user, 'POST', '/api/checkout', { accountId: waitingId })).json().code).toBe('account_suspended');
    const trial = (await f.call(user, 'POST', '/api/accounts', { planId: f.trialPlanId })).json();
    expect(trial.renewable).toBe(false);
    expect((await f.call(user, 'POST', '/api/checkout', { accountId: trial.id })).json().code).toBe('not_renewable');
  });

  it('never returns the secret key or webhook secret, and stores them encrypted', async () => {
    const bodies = [
      (await f.call(f.admin, 'GET', '/api/admin/payments/card')).body,
      (await f.call(f.admin, 'PUT', '/api/admin/payments/card', { enabled: true })).body,
      (await f.call(f.admin, 'GET', '/api/admin/system')).body,
      (await f.call(f.admin, 'GET', '/api/admin/settings')).body,
      (await f.call(null, 'GET', '/api/config')).body,
      (await f.call(f.admin, 'GET', '/api/subscriptions')).body,
    ].join('\n');
    expect(bodies).not.toContain(STRIPE_KEYS.secretKey);
    expect(bodies).not.toContain(STRIPE_KEYS.webhookSecret);
    const row = await f.env.database.db('payment_providers').where({ type: 'card' }).first();
    expect(JSON.stringify(row)).not.toContain(STRIPE_KEYS.secretKey);
    expect(JSON.stringify(row)).not.toContain(STRIPE_KEYS.webhookSecret);
    expect(row.secret_key_encrypted).toMatch(/^v1\./);
    const audit = await f.env.database.db('audit_log').where({ action: 'payments.card.update' });
    expect(JSON.stringify(audit)).not.toContain(STRIPE_KEYS.secretKey);
  });
});

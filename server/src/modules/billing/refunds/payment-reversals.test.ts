import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { emailOf } from '../../../../test/billing-mail.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import type { DesktopSession } from '../../../../test/test-app.js';

const DAY_MS = 24 * 3600 * 1000;

/** The panel user of an account, as the panel's API shows it. */
function panelUserOf(f: BillingFixture, accountId: string) {
  const user = [...f.panel.users.values()].map(asMarzneshinUser).find((u) => u.note === accountId);
  if (!user) throw new Error(`no panel user for ${accountId}`);
  return { enabled: user.enabled, expiresAt: new Date(user.expire_date!).getTime() };
}

/** The PaymentIntent that paid the account's purchase (what refunds and disputes name). */
async function paymentOf(f: BillingFixture, sessionId: string): Promise<string> {
  const paymentIntent = f.stripe.getSession(sessionId)!.payment_intent;
  expect(typeof paymentIntent).toBe('string');
  return paymentIntent as string;
}

async function buy(f: BillingFixture, user: DesktopSession) {
  const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
  await f.stripe.pay(sessionId);
  await f.runJobs();
  const accountId = f.stripe.getSession(sessionId)!.metadata!.vpn_account_id!;
  return { sessionId, accountId, paymentRef: await paymentOf(f, sessionId) };
}

const transactionsOf = async (f: BillingFixture, user: DesktopSession) => (await f.call(user, 'GET', '/api/transactions')).json();

describe.each(TEST_DATABASES)('refunds and disputes (%s)', (kind) => {
  const f = useBillingFixture(kind);

  it('a full refund made in Stripe: history says Refunded, the account is paused, the customer is told', async () => {
    const user = await f.newUser();
    const { accountId, paymentRef } = await buy(f, user);
    const paidUntil = panelUserOf(f, accountId).expiresAt;
    const mailsBefore = f.env.smtp.messages.length;

    await f.stripe.refund(paymentRef);
    expect(f.stripe.deliveries.at(-1)).toMatchObject({ status: 200 });
    expect(await transactionsOf(f, user)).toEqual([expect.objectContaining({ status: 'refunded', amount: 499, amountRefunded: 499 })]);
    expect((await f.call(user, 'GET', '/api/subscriptions')).json()).toEqual([expect.objectContaining({ status: 'canceled' })]);
    await f.runJobs();
    const panelUser = panelUserOf(f, accountId);
    expect(panelUser.enabled).toBe(false);
    expect(panelUser.expiresAt).toBeLessThan(paidUntil);
    const mail = await f.env.smtp.waitFor(await emailOf(f, user), { after: mailsBefore });
    expect(mail.subject).toContain('refunded');
    expect(mail.raw).toContain('$4.99');
  });

  it('refunding a renewal takes exactly its period off, and the account keeps running', async () => {
    const user = await f.newUser();
    const { accountId } = await buy(f, user);
    const renewal = await f.checkout(user, { accountId });
    await f.stripe.pay(renewal.sessionId);
    await f.runJobs();
    const renewedUntil = panelUserOf(f, accountId).expiresAt;

    await f.stripe.refund(await paymentOf(f, renewal.sessionId));
    await f.runJobs();
    const panelUser = panelUserOf(f, accountId);
    expect(panelUser.enabled).toBe(true);
    expect((renewedUntil - panelUser.expiresAt) / DAY_MS).toBeCloseTo(30, 2);
  });

  it('refunding the purchase of a renewed account moves the renewal back by one period', async () => {
    const user = await f.newUser();
    const { accountId, paymentRef } = await buy(f, user);
    const renewal = await f.checkout(user, { accountId });
    await f.stripe.pay(renewal.sessionId);
    await f.runJobs();
    const renewedUntil = panelUserOf(f, accountId).expiresAt;

    await f.stripe.refund(paymentRef);
    await f.runJobs();
    const panelUser = panelUserOf(f, accountId);
    expect(panelUser.enabled).toBe(true);
    expect((renewedUntil - panelUser.expiresAt) / DAY_MS).toBeCloseTo(30, 2);
    const statuses = (await transactionsOf(f, user)).map((t: { status: string; renewal: boolean }) => [t.renewal, t.status]);
    expect(statuses).toEqual(
      expect.arrayContaining([
        [true, 'succeeded'],
        [false, 'refunded'],
      ]),
    );
  });

  it('a partial refund records the amount and changes nothing else', async () => {
    const user = await f.newUser();
    const { accountId, paymentRef } = await buy(f, user);
    const before = panelUserOf(f, accountId);
    await f.stripe.refund(paymentRef, { amount: 100 });
    await f.runJobs();
    expect(await transactionsOf(f, user)).toEqual([expect.objectContaining({ status: 'succeeded', amountRefunded: 100 })]);
    expect(panelUserOf(f, accountId)).toEqual(before);
  });

  it('the same refund and dispute events delivered 3 times more are applied once', async () => {
    const redeliver = async (event: Parameters<BillingFixture['stripe']['deliver']>[0]) => {
      for (let i = 0; i < 3; i += 1) {
        const { body, signature } = f.stripe.signedDelivery(event);
        expect((await f.postWebhook(body, signature)).body).toEqual({ received: true, duplicate: true });
      }
    };
    const refunded = await f.newUser();
    const bought = await buy(f, refunded);
    const email = await emailOf(f, refunded);
    const mailsBefore = f.env.smtp.messages.length;
    await redeliver(await f.stripe.refund(bought.paymentRef, { amount: 100 }));
    await f.runJobs();
    expect(await transactionsOf(f, refunded)).toEqual([expect.objectContaining({ status: 'succeeded', amountRefunded: 100 })]);
    await f.env.smtp.waitFor(email, { after: mailsBefore });
    expect(f.env.smtp.messages.slice(mailsBefore).filter((m) => m.to.includes(email))).toHaveLength(1);

    const disputed = await f.newUser();
    const { accountId, paymentRef } = await buy(f, disputed);
    const opened = await f.stripe.openDispute(paymentRef);
    await redeliver(opened);
    await redeliver(await f.stripe.closeDispute(opened.data.object.id, 'lost'));
    await f.runJobs();
    expect(await transactionsOf(f, disputed)).toEqual([expect.objectContaining({ status: 'refunded', amountRefunded: 499 })]);
    expect(await f.count('jobs', { type: 'sync_paid_period', dedupe_key: `sync_paid_period:${accountId}:dispute:${opened.data.object.id}` })).toBe(1);
    expect(await f.count('jobs', { type: 'sync_paid_period', dedupe_key: `sync_paid_period:${accountId}:dispute-lost:${opened.data.object.id}` })).toBe(1);
    expect(panelUserOf(f, accountId).enabled).toBe(false);
  });

  it('a dispute pauses the account until it is closed: won runs it again', async () => {
    const user = await f.newUser();
    const { accountId, paymentRef } = await buy(f, user);
    const opened = await f.stripe.openDispute(paymentRef, { reason: 'fraudulent' });
    await f.runJobs();
    expect(await transactionsOf(f, user)).toEqual([expect.objectContaining({ status: 'disputed' })]);
    expect(panelUserOf(f, accountId).enabled).toBe(false);
    const listed = (await f.call(f.admin, 'GET', '/api/admin/transactions?status=disputed')).json();
    expect(listed).toEqual(
      expect.arrayContaining([expect.objectContaining({ userId: user.userId, refundable: false, note: expect.stringContaining('fraudulent') })]),
    );

    await f.stripe.closeDispute(opened.data.object.id, 'won');
    await f.runJobs();
    expect(await transactionsOf(f, user)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    expect(panelUserOf(f, accountId).enabled).toBe(true);
  });

  it('a lost dispute ends the period like a full refund', async () => {
    const user = await f.newUser();
    const { accountId, paymentRef } = await buy(f, user);
    const opened = await f.stripe.openDispute(paymentRef);
    await f.stripe.closeDispute(opened.data.object.id, 'lost');
    await f.runJobs();
    expect(await transactionsOf(f, user)).toEqual([expect.objectContaining({ status: 'refunded', amountRefunded: 499 })]);
    expect(panelUserOf(f, accountId).enabled).toBe(false);
  });
});

describe.each(TEST_DATABASES)('the admin Refund action (%s)', (kind) => {
  const f = useBillingFixture(kind);
  const refund = (session: DesktopSession | null, id: string, body: unknown = {}) => f.call(session, 'POST', `/api/admin/transactions/${id}/refund`, body);
  const transactionIdOf = (sessionId: string) => f.stripe.getSession(sessionId)!.metadata!.transaction_id!;

  it('refunds part, then the rest: once per click, the customer sees it and is told', async () => {
    const user = await f.newUser();
    const { sessionId, accountId } = await buy(f, user);
    const id = transactionIdOf(sessionId);
    const email = await emailOf(f, user);

    // One click sent twice carries one request id (as the admin's dialog sends it): without one, a second request that
    // arrives after the first was answered is a second refund, which only timing tells apart.
    const clickId = randomUUID();
    const [first, again] = await Promise.all([
      refund(f.admin, id, { amount: 199, note: 'slow in Berlin', requestId: clickId }),
      refund(f.admin, id, { amount: 199, note: 'slow in Berlin', requestId: clickId }),
    ]);
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(f.stripe.listRefunds().filter((r) => r.payment_intent === f.stripe.getSession(sessionId)!.payment_intent)).toHaveLength(1);
    expect(first.json()).toMatchObject({ id, status: 'succeeded', amountRefunded: 199, refundable: true, userEmail: email });
    expect(panelUserOf(f, accountId).enabled).toBe(true);

    const rest = await refund(f.admin, id, { reason: 'requested_by_customer' });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json()).toMatchObject({ status: 'refunded', amountRefunded: 499, refundable: false });
    await f.stripe.waitForDeliveries();
    await f.runJobs();
    expect(await transactionsOf(f, user)).toEqual([expect.objectContaining({ status: 'refunded', amountRefunded: 499 })]);
    expect(panelUserOf(f, accountId).enabled).toBe(false);
    const mails = f.env.smtp.messages.filter((m) => m.to.includes(email) && /refunded/.test(m.subject));
    expect(mails.map((m) => m.subject).sort()).toEqual(['Lumen VPN: part of your payment was refunded', 'Lumen VPN: your payment was refunded']);
    expect(await f.env.database.db('audit_log').where({ action: 'payments.refund', target_id: id }).count({ n: '*' }).first()).toMatchObject({ n: 2 });
  });

  it('two admins refund the same part at once (each their own request id): one refund is made; the other is told so (409), none is made for it', async () => {
    const user = await f.newUser();
    const { sessionId, paymentRef } = await buy(f, user);
    const id = transactionIdOf(sessionId);
    const refundsAtStripe = () => f.stripe.listRefunds().filter((r) => r.payment_intent === paymentRef);
    // Stripe is slow to answer: both requests are in while the first refund waits for it.
    const release = f.stripe.holdRefunds();
    const racing = [
      refund(f.admin, id, { amount: 199, requestId: '0b7d3c1e-5a0f-4c55-9c1e-1f2a3b4c5d01' }),
      refund(f.admin, id, { amount: 199, requestId: '0b7d3c1e-5a0f-4c55-9c1e-1f2a3b4c5d02' }),
      refund(f.admin, id, { amount: 199, requestId: '0b7d3c1e-5a0f-4c55-9c1e-1f2a3b4c5d03' }),
    ];
    await expect.poll(async () => f.count('refunds', { transaction_id: id }), { timeout: 10_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    const answers = await Promise.all(racing);
    const made = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode === 409);
    expect(made, answers.map((answer) => answer.body).join('\n')).toHaveLength(1);
    expect(made[0]!.json()).toMatchObject({ id, status: 'succeeded', amountRefunded: 199 });
    expect(refused).toHaveLength(2);
    for (const answer of refused) {
      expect(answer.json()).toEqual({
        code: 'refund_in_progress',
        message: expect.stringMatching(/^Another refund of \$1\.99 of this payment, asked for at the same moment, .* so yours was not made\./),
      });
    }
    expect(refundsAtStripe()).toHaveLength(1);
    expect(await f.count('refunds', { transaction_id: id })).toBe(1);

    // Told, an admin who meant a second refund asks again (a new click, a new request id: any of the three may have won): it is made.
    await f.stripe.waitForDeliveries();
    await f.runJobs();
    const again = await refund(f.admin, id, { amount: 199, requestId: '0b7d3c1e-5a0f-4c55-9c1e-1f2a3b4c5d04' });
    expect(again.statusCode, again.body).toBe(200);
    expect(refundsAtStripe()).toHaveLength(2);
    expect(await f.count('refunds', { transaction_id: id })).toBe(2);
  });

  it('refuses bad amounts, unpaid or refunded transactions, strangers and the signed-out, changing nothing', async () => {
    const user = await f.newUser();
    const { sessionId } = await buy(f, user);
    const id = transactionIdOf(sessionId);
    for (const body of [{ amount: 500 }, { amount: 0 }, { amount: -1 }, { amount: 1.5 }, { reason: 'because' }, { extra: true }]) {
      const res = await refund(f.admin, id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect((await refund(null, id)).statusCode).toBe(401);
    expect((await refund(user, id)).statusCode).toBe(403);
    expect((await f.call(user, 'GET', '/api/admin/transactions')).statusCode).toBe(403);
    expect((await refund(f.admin, 'no-such-transaction')).statusCode).toBe(404);
    const pending = await f.checkout(user, { planId: f.paidPlanId });
    const unpaid = await refund(f.admin, transactionIdOf(pending.sessionId));
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().code).toBe('not_refundable');
    expect(f.stripe.listRefunds().filter((r) => r.payment_intent === f.stripe.getSession(sessionId)!.payment_intent)).toHaveLength(0);
    expect(await transactionsOf(f, user)).toEqual(expect.arrayContaining([expect.objectContaining({ status: 'succeeded', amountRefunded: 0 })]));
  });
});

describe.each(TEST_DATABASES)('true words after paying (%s)', (kind) => {
  const f = useBillingFixture(kind);

  it('a paid account that waits for its panel says it is being set up, not waiting for payment', async () => {
    const user = await f.newUser();
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    f.panel.faults.down = true;
    try {
      await f.stripe.pay(sessionId);
      await f.runJobs();
      const token = (await f.env.database.db('vpn_accounts').where({ user_id: user.userId }).first()).sub_token;
      const res = await f.t.app.inject({ method: 'GET', url: `/sub/${token}`, headers: { 'user-agent': 'v2rayNG/1.8.0' } });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe('Your payment is confirmed; your account is being set up. Please try again in a minute.');
    } finally {
      f.panel.faults.down = false;
    }
  });
});

describe.each(TEST_DATABASES)('deleting an account while a renewal is in flight (%s)', (kind) => {
  const f = useBillingFixture(kind);
  const remove = (user: DesktopSession, accountId: string) => f.call(user, 'DELETE', `/api/accounts/${accountId}`);

  it('closes an open renewal checkout first, so it can no longer be paid', async () => {
    const user = await f.newUser();
    const { accountId } = await buy(f, user);
    const renewal = await f.checkout(user, { accountId });
    expect((await remove(user, accountId)).statusCode).toBe(204);
    expect(f.stripe.getSession(renewal.sessionId)?.status).toBe('expired');
    expect(await f.count('transactions', { provider_transaction_id: renewal.sessionId, status: 'failed' })).toBe(1);
    await expect(f.stripe.pay(renewal.sessionId)).rejects.toThrow();
  });

  it('refuses the deletion when the renewal was paid a moment ago, and applies the payment', async () => {
    const user = await f.newUser();
    const { accountId } = await buy(f, user);
    const renewal = await f.checkout(user, { accountId });
    await f.payQuietly(() => f.stripe.pay(renewal.sessionId)); // paid; Stripe's webhook is still on its way
    const res = await remove(user, accountId);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('renewal_paid');
    expect(await f.count('vpn_accounts', { id: accountId })).toBe(1);
    expect(await f.count('transactions', { provider_transaction_id: renewal.sessionId, status: 'succeeded' })).toBe(1);
  });

  it('refunds a renewal that was paid for an account deleted before it could be applied', async () => {
    const user = await f.newUser();
    const { accountId } = await buy(f, user);
    const renewal = await f.checkout(user, { accountId });
    await f.stripe.pay(renewal.sessionId); // confirmed; its job has not run yet
    expect((await remove(user, accountId)).statusCode).toBe(204);
    await f.runJobs();
    const paymentIntent = f.stripe.getSession(renewal.sessionId)!.payment_intent;
    expect(f.stripe.listRefunds().filter((r) => r.payment_intent === paymentIntent)).toEqual([expect.objectContaining({ amount: 499, status: 'succeeded' })]);
    expect(await transactionsOf(f, user)).toEqual(
      expect.arrayContaining([expect.objectContaining({ renewal: true, status: 'refunded', amountRefunded: 499 })]),
    );
    expect(await f.count('jobs', { type: 'provision_paid_account', status: 'failed' })).toBe(0);
  });
});

describe.each(TEST_DATABASES)('reversals that overtake the payment, and refunds that fail later (%s)', (kind) => {
  const f = useBillingFixture(kind);
  const deliver = async (event: Parameters<BillingFixture['stripe']['deliver']>[0]) => {
    const { body, signature } = f.stripe.signedDelivery(event);
    const answer = await f.postWebhook(body, signature);
    expect(answer.status).toBe(200);
  };
  /** Pays at Stripe with nothing delivered yet: returns checkout.session.completed to deliver when the test says. */
  const payUndelivered = async (user: DesktopSession) => {
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    const completed = await f.payQuietly(() => f.stripe.pay(sessionId));
    return { sessionId, completed, paymentRef: await paymentOf(f, sessionId) };
  };
  const accountsOf = async (user: DesktopSession) => (await f.call(user, 'GET', '/api/accounts')).json() as Array<{ status: string }>;

  it('charge.refunded before checkout.session.completed: the refund is kept, and the payment confirms as refunded; nothing is delivered', async () => {
    const user = await f.newUser();
    const email = await emailOf(f, user);
    const { completed, paymentRef } = await payUndelivered(user);
    const refunded = await f.payQuietly(() => f.stripe.refund(paymentRef));
    await deliver(refunded);
    expect(await transactionsOf(f, user)).toEqual([expect.objectContaining({ status: 'pending' })]);

    await deliver(completed);
    await f.runJobs();
    expect(await transactionsOf(f, user)).toEqual([expect.objectContaining({ status: 'refunded', amountRefunded: 499 })]);
    expect(await accountsOf(user)).toEqual([]);
    expect(f.panel.users.size === 0 || ![...f.panel.users.values()].map(asMarzneshinUser).some((u) => u.note && u.username.includes(user.userId))).toBe(true);
    expect(f.env.smtp.messages.filter((m) => m.to.includes(email) && /your payment was refunded/.test(m.subject))).toHaveLength(1);
  });

  it('the same when the return page confirms the payment instead of the webhook', async () => {
    const user = await f.newUser();
    const { sessionId, paymentRef } = await payUndelivered(user);
    await deliver(await f.payQuietly(() => f.stripe.refund(paymentRef)));
    const polled = await f.call(user, 'GET', `/api/checkout/${sessionId}`);
    expect(polled.json()).toMatchObject({ status: 'refunded' });
    await f.runJobs();
    expect(await accountsOf(user)).toEqual([]);
  });

  it('a dispute before checkout.session.completed: confirmed as disputed, not delivered; won, it is delivered', async () => {
    const user = await f.newUser();
    const { completed, paymentRef } = await payUndelivered(user);
    const opened = await f.payQuietly(() => f.stripe.openDispute(paymentRef));
    await deliver(opened);
    await deliver(completed);
    await f.runJobs();
    expect(await transactionsOf(f, user)).toEqual([expect.objectContaining({ status: 'disputed' })]);
    expect((await accountsOf(user)).filter((a) => a.status === 'active')).toEqual([]);

    await f.stripe.closeDispute(opened.data.object.id, 'won');
    await f.runJobs();
    expect(await transactionsOf(f, user)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    expect(await accountsOf(user)).toEqual([expect.objectContaining({ status: 'active' })]);
  });

  it('a refund that fails at Stripe after it was made: the payment counts it no more, the admin is told, and refunding again works', async () => {
    const user = await f.newUser();
    const { sessionId, accountId } = await buy(f, user);
    const id = f.stripe.getSession(sessionId)!.metadata!.transaction_id!;
    const first = await f.call(f.admin, 'POST', `/api/admin/transactions/${id}/refund`, {});
    expect(first.statusCode, first.body).toBe(200);
    await f.runJobs();
    expect(panelUserOf(f, accountId).enabled).toBe(false);
    const [made] = f.stripe.listRefunds().filter((r) => r.metadata?.transaction_id === id);

    await f.stripe.failRefund(made!.id);
    await f.runJobs();
    const listed = (await f.call(f.admin, 'GET', '/api/admin/transactions?status=refunded')).json().find((t: { id: string }) => t.id === id);
    expect(listed).toMatchObject({
      amountRefunded: 0,
      refundable: true,
      note: expect.stringMatching(/failed at the provider \(expired_or_canceled_card\): the customer was not repaid/),
    });
    // The account stays as the refund left it.
    expect(panelUserOf(f, accountId).enabled).toBe(false);
    expect(await f.env.database.db('refunds').where({ transaction_id: id }).select('status', 'amount')).toEqual([{ status: 'failed', amount: 499 }]);

    const again = await f.call(f.admin, 'POST', `/api/admin/transactions/${id}/refund`, {});
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ status: 'refunded', amountRefunded: 499, refundable: false });
    expect(again.json().note ?? '').not.toMatch(/failed/);
    expect(f.stripe.listRefunds().filter((r) => r.metadata?.transaction_id === id)).toHaveLength(2);
  });
});

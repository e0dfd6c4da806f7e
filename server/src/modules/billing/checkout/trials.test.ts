import { beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../../../shared/constants.js';
import { GB, useBillingFixture, type BillingFixture } from '../../../../test/billing-fixture.js';
import { emailOf } from '../../../../test/billing-mail.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { asMarzneshinUser } from '../../../../test/fake-panels/marzneshin.js';
import type { StripeEventObject } from '../../../../test/fake-stripe/index.js';
import { mailParts } from '../../../../test/smtp-catcher.js';
import { signInDesktop, type DesktopSession } from '../../../../test/test-app.js';

const HOUR_MS = 3600 * 1000;
const parse = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;

/**
 * Trials the operator shapes (issue 55): a trial with a price is bought through checkout with any method, once per
 * person (the free trial included), decided again under the person's lock; a second one paid anyway is given back; a
 * plan bought within the trial goes to the trial's own account (same panel user and link, days after the trial's),
 * and its refund makes it the trial again.
 */
describe.each(TEST_DATABASES)('trials the operator shapes (%s)', (kind) => {
  const f: BillingFixture = useBillingFixture(kind);
  const db = () => f.env.database.db;
  let paidTrialId = '';
  let proPlanId = '';

  beforeAll(async () => {
    const plan = async (body: Record<string, unknown>) => {
      const res = await f.call(f.admin, 'POST', '/api/admin/plans', { locations: 'all', ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    };
    paidTrialId = await plan({ name: 'Trial Week', days: 7, dataLimitBytes: 2 * GB, price: 100, isTrial: true, deviceLimit: 1 });
    proPlanId = await plan({ name: 'Pro 30', days: 30, dataLimitBytes: 20 * GB, price: 999, deviceLimit: 3 });
  });

  const me = async (user: DesktopSession) => (await f.call(user, 'GET', '/api/me')).json() as { trialUsed: boolean };
  const accountsOf = async (user: DesktopSession) =>
    (await f.call(user, 'GET', '/api/accounts')).json() as Array<Record<string, unknown> & { id: string; subscriptionUrl: string | null }>;
  const panelUserOf = async (accountId: string) => {
    const { username } = await db()('vpn_accounts').where({ id: accountId }).first();
    return asMarzneshinUser(f.panel.users.get(username));
  };
  const panelExpiry = async (accountId: string) => new Date(`${(await panelUserOf(accountId)).expire_date}Z`).getTime();
  const fund = async (user: DesktopSession, amount: number) =>
    expect((await f.call(f.admin, 'POST', `/api/admin/users/${user.userId}/wallet`, { amount, note: 'Test balance' })).statusCode).toBe(200);
  const trialHolders = (userId: string) => f.count('vpn_accounts', { trial_user_id: userId });
  /** A customer on the free trial (the fixture's: 3 hours, 1 GB): the trial account. */
  const onFreeTrial = async () => {
    const user = await f.newUser();
    const claimed = await f.call(user, 'POST', '/api/accounts', { planId: f.trialPlanId });
    expect(claimed.statusCode, claimed.body).toBe(201);
    return { user, trial: claimed.json() as { id: string; expireDate: string; subscriptionUrl: string; username: string } };
  };

  describe('a trial with a price', () => {
    it('is bought by card, once: never claimed free, a second order waits for the first, and once paid it is used', async () => {
      const user = await f.newUser();
      // Claimed free, it is refused, pointing to checkout, and nothing is written.
      const claimed = await f.call(user, 'POST', '/api/accounts', { planId: paidTrialId });
      expect(claimed.statusCode).toBe(402);
      expect(claimed.json()).toEqual({ code: 'payment_required', message: 'This trial has a price: start it with a payment from your dashboard.' });
      expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(0);

      const quoted = (await f.call(user, 'POST', '/api/checkout/quote', { planId: paidTrialId })).json();
      expect(quoted).toMatchObject({ planId: paidTrialId, amount: 100, total: 100, bonusDays: 0 });
      expect(quoted.convertsTrial).toBeUndefined();
      const { sessionId } = await f.checkout(user, { planId: paidTrialId });
      expect(f.stripe.getSession(sessionId)!.amount_total).toBe(100);
      // Its waiting account holds the trial: a second order meanwhile is refused, and so is the free trial.
      const again = await f.call(user, 'POST', '/api/checkout', { planId: paidTrialId });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'trial_in_progress' });
      expect((await f.call(user, 'POST', '/api/accounts', { planId: f.trialPlanId })).statusCode).toBe(409);
      expect(await me(user)).toMatchObject({ trialUsed: false });

      await f.stripe.pay(sessionId);
      await f.runJobs();
      const accountId = f.stripe.getSession(sessionId)!.metadata!.vpn_account_id!;
      expect(await accountsOf(user)).toEqual([expect.objectContaining({ id: accountId, status: 'active', planName: 'Trial Week', deviceLimit: 1 })]);
      expect((await panelUserOf(accountId)).data_limit).toBe(2 * GB);
      expect(await me(user)).toMatchObject({ trialUsed: true });
      expect(await trialHolders(user.userId)).toBe(1);
      expect(await f.count('paid_periods', { vpn_account_id: accountId })).toBe(1);

      // The second time for the same person: refused, whatever the method, and the free trial too.
      for (const method of ['card', 'wallet']) {
        const refused = await f.call(user, 'POST', '/api/checkout', { planId: paidTrialId, method });
        expect(refused.statusCode, method).toBe(409);
        expect(refused.json()).toMatchObject({ code: 'trial_used', message: 'Trial Already Used' });
      }
      expect((await f.call(user, 'POST', '/api/checkout/quote', { planId: paidTrialId })).json()).toMatchObject({ code: 'trial_used' });
      expect((await f.call(user, 'POST', '/api/accounts', { planId: f.trialPlanId })).json()).toMatchObject({ code: 'trial_used' });
      expect(await f.count('subscriptions', { user_id: user.userId })).toBe(1);
    });

    it('is refused to someone who had the free trial, and paid from the wallet is made at once', async () => {
      const { user } = await onFreeTrial();
      const refused = await f.call(user, 'POST', '/api/checkout', { planId: paidTrialId, method: 'card' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'trial_used' });

      const buyer = await f.newUser();
      await fund(buyer, 150);
      const started = await f.call(buyer, 'POST', '/api/checkout', { planId: paidTrialId, method: 'wallet' });
      expect(started.statusCode, started.body).toBe(200);
      await f.runJobs();
      expect((await f.call(buyer, 'GET', '/api/wallet')).json().balance).toBe(50);
      expect(await accountsOf(buyer)).toEqual([expect.objectContaining({ status: 'active', planName: 'Trial Week' })]);
      expect(await me(buyer)).toMatchObject({ trialUsed: true });
    });

    it('answers 401 signed out, 400 for a bad body and 404 for an unknown plan, writing nothing', async () => {
      const user = await f.newUser();
      expect((await f.call(null, 'POST', '/api/checkout', { planId: paidTrialId })).statusCode).toBe(401);
      expect((await f.call(null, 'POST', '/api/checkout/quote', { planId: paidTrialId })).statusCode).toBe(401);
      const bad = await f.call(user, 'POST', '/api/checkout', { planId: '' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'validation_failed' });
      expect((await f.call(user, 'POST', '/api/checkout', { planId: paidTrialId, method: 'cash' })).statusCode).toBe(400);
      expect((await f.call(user, 'POST', '/api/checkout', { planId: 'no-such-plan' })).statusCode).toBe(404);
      expect(await f.count('subscriptions', { user_id: user.userId })).toBe(0);
      expect(await trialHolders(user.userId)).toBe(0);
    });

    it('paid twice (one order closed, then paid late, after another was paid from the wallet): the late one is refunded in full', async () => {
      const user = await f.newUser();
      // The card order is paid by a bank debit that settles later; meanwhile its checkout is reported expired.
      const late = await f.checkout(user, { planId: paidTrialId });
      const completed = await f.payQuietly(() => f.stripe.pay(late.sessionId, { async: true, evenIfNotOffered: true }));
      const expired = structuredClone(completed) as unknown as StripeEventObject;
      Object.assign(expired, { id: `evt_1TrialExpired${kind}`, type: 'checkout.session.expired' });
      Object.assign(expired.data.object, { status: 'expired', payment_status: 'unpaid' });
      const stray = f.stripe.signedDelivery(expired);
      expect((await f.postWebhook(stray.body, stray.signature)).status).toBe(200);
      expect(await trialHolders(user.userId)).toBe(0);
      // So the customer takes the trial again, from the wallet.
      await fund(user, 100);
      expect((await f.call(user, 'POST', '/api/checkout', { planId: paidTrialId, method: 'wallet' })).statusCode).toBe(200);
      await f.runJobs();
      expect(await me(user)).toMatchObject({ trialUsed: true });
      // The bank debit settles after all: the trial was taken, so nothing is delivered and the money goes back.
      const succeeded = await f.payQuietly(() => f.stripe.succeedAsync(late.sessionId));
      expect(await f.stripe.deliver(succeeded)).toBe(200);
      await f.runJobs();
      const transaction = await db()('transactions').where({ provider_transaction_id: late.sessionId }).first();
      expect(transaction).toMatchObject({ status: 'refunded', amount_refunded: 100 });
      expect(await f.count('refunds', { transaction_id: transaction.id, source: 'undeliverable', status: 'succeeded' })).toBe(1);
      expect(parse((await db()('subscriptions').where({ id: transaction.subscription_id }).first()).metadata)).toMatchObject({ trial_refused: true });
      expect(await f.count('paid_periods', { transaction_id: transaction.id })).toBe(0);
      expect(await accountsOf(user)).toHaveLength(1);
      expect(await trialHolders(user.userId)).toBe(1);
    });

    it.runIf(kind === 'postgres')('two checkouts of it at once make one trial (the person’s row is locked; SQLite has one writer)', async () => {
      for (let round = 0; round < 5; round += 1) {
        const user = await f.newUser();
        const answers = await Promise.all([
          f.call(user, 'POST', '/api/checkout', { planId: paidTrialId, method: 'card' }),
          f.call(user, 'POST', '/api/checkout', { planId: paidTrialId, method: 'card' }),
        ]);
        expect(answers.map((answer) => answer.statusCode).sort(), `round ${round}`).toEqual([200, 409]);
        expect(['trial_used', 'trial_in_progress']).toContain(answers.find((answer) => answer.statusCode === 409)!.json().code);
        expect(await trialHolders(user.userId)).toBe(1);
        expect(await f.count('subscriptions', { user_id: user.userId })).toBe(1);
      }
    });
  });

  describe('a plan bought within the trial', () => {
    it('goes to the trial’s own account: the same panel user and link, the plan’s limits, its days after the trial’s', async () => {
      const { user, trial } = await onFreeTrial();
      const trialEnd = new Date(trial.expireDate).getTime();
      const quoted = (await f.call(user, 'POST', '/api/checkout/quote', { planId: proPlanId })).json();
      expect(quoted).toMatchObject({ amount: 999, convertsTrial: { accountId: trial.id } });
      const { sessionId } = await f.checkout(user, { planId: proPlanId });
      expect(f.stripe.getSession(sessionId)!.metadata!.vpn_account_id).toBe(trial.id);
      expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(1);
      const before = await panelUserOf(trial.id);
      await f.stripe.pay(sessionId);
      await f.runJobs();

      expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(1);
      const after = await panelUserOf(trial.id);
      expect(after.username).toBe(before.username);
      expect(after.data_limit).toBe(20 * GB);
      expect(await panelExpiry(trial.id)).toBe(Math.floor((trialEnd + 30 * DAY_MS) / 1000) * 1000);
      const [shown] = await accountsOf(user);
      expect(shown).toMatchObject({ id: trial.id, planId: proPlanId, planName: 'Pro 30', deviceLimit: 3, subscriptionUrl: trial.subscriptionUrl });
      const [period] = await db()('paid_periods').where({ vpn_account_id: trial.id });
      expect(new Date(period.starts_at).getTime()).toBe(trialEnd);
      expect(new Date(period.ends_at).getTime()).toBe(trialEnd + 30 * DAY_MS);
      // The thank-you page and the receipt say the trial became the plan.
      expect((await f.call(user, 'GET', `/api/checkout/${sessionId}`)).json()).toMatchObject({
        status: 'succeeded',
        change: 'trial',
        account: { id: trial.id },
      });
      const email = await emailOf(f, user);
      const receipt = f.env.smtp.messages.filter((m) => m.to.includes(email) && /receipt/i.test(m.subject)).at(-1)!;
      expect(mailParts(receipt).text).toContain('Your trial is now Pro 30');
      // Someone else's order is not theirs to read.
      expect((await f.call(await f.newUser(), 'GET', `/api/checkout/${sessionId}`)).statusCode).toBe(404);
      // A trial converted is no trial any more: nothing more converts, and the trial is not claimed again.
      expect((await f.call(user, 'POST', '/api/checkout/quote', { planId: f.paidPlanId })).json().convertsTrial).toBeUndefined();
      expect((await f.call(user, 'POST', '/api/accounts', { planId: f.trialPlanId })).statusCode).toBe(409);
    });

    it('a refund of it makes the account the trial again, with the trial’s end and limits', async () => {
      const { user, trial } = await onFreeTrial();
      const { sessionId } = await f.checkout(user, { planId: proPlanId });
      await f.stripe.pay(sessionId);
      await f.runJobs();
      const { id: transactionId } = await db()('transactions').where({ provider_transaction_id: sessionId }).first();
      const refunded = await f.call(f.admin, 'POST', `/api/admin/transactions/${transactionId}/refund`, {});
      expect(refunded.statusCode, refunded.body).toBe(200);
      await f.runJobs();
      const [shown] = await accountsOf(user);
      expect(shown).toMatchObject({ id: trial.id, planId: f.trialPlanId, deviceLimit: null, subscriptionUrl: trial.subscriptionUrl });
      expect((await db()('vpn_accounts').where({ id: trial.id }).first()).paid_until).toBeNull();
      expect((await panelUserOf(trial.id)).data_limit).toBe(GB);
      expect(await panelExpiry(trial.id)).toBe(Math.floor(new Date(trial.expireDate).getTime() / 1000) * 1000);
      expect(await f.count('paid_periods', { vpn_account_id: trial.id, voided_at: null })).toBe(0);
    });

    it('a second order paid after the first converted the trial makes a new account, as any purchase', async () => {
      const { user, trial } = await onFreeTrial();
      const first = await f.checkout(user, { planId: proPlanId });
      const second = await f.checkout(user, { planId: f.paidPlanId });
      expect(f.stripe.getSession(second.sessionId)!.metadata!.vpn_account_id).toBe(trial.id);
      await f.stripe.pay(first.sessionId);
      await f.stripe.pay(second.sessionId);
      await f.runJobs();
      const accounts = await accountsOf(user);
      expect(accounts).toHaveLength(2);
      expect(accounts.find((account) => account.id === trial.id)).toMatchObject({ planName: 'Pro 30' });
      const other = accounts.find((account) => account.id !== trial.id)!;
      expect(other).toMatchObject({ planName: 'Plus Monthly', status: 'active' });
      expect(other.subscriptionUrl).not.toBe(trial.subscriptionUrl);
      const order = await db()('subscriptions').where({ id: second.subscriptionId }).first();
      expect(order.vpn_account_id).toBe(other.id);
      expect(parse(order.metadata).converts_trial).toBeUndefined();
    });

    it('a trial over before the order is not converted: a new account, as for anyone', async () => {
      const { user, trial } = await onFreeTrial();
      f.t.clock.advance((4 * HOUR_MS) / 1000);
      const again = await signInDesktop(f.t, f.env.smtp, await emailOf(f, user));
      expect((await f.call(again, 'POST', '/api/checkout/quote', { planId: proPlanId })).json().convertsTrial).toBeUndefined();
      const { sessionId } = await f.checkout(again, { planId: proPlanId });
      expect(f.stripe.getSession(sessionId)!.metadata!.vpn_account_id).not.toBe(trial.id);
      await f.stripe.pay(sessionId);
      await f.runJobs();
      expect(await accountsOf(again)).toHaveLength(2);
    });

    it('a paid trial converts too, from the wallet: its days come after the trial’s paid end', async () => {
      const user = await f.newUser();
      await fund(user, 100 + 999);
      expect((await f.call(user, 'POST', '/api/checkout', { planId: paidTrialId, method: 'wallet' })).statusCode).toBe(200);
      await f.runJobs();
      const [trial] = await accountsOf(user);
      const trialEnd = new Date((await db()('vpn_accounts').where({ id: trial!.id }).first()).paid_until).getTime();
      expect((await f.call(user, 'POST', '/api/checkout', { planId: proPlanId, method: 'wallet' })).statusCode).toBe(200);
      await f.runJobs();
      const accounts = await accountsOf(user);
      expect(accounts).toEqual([expect.objectContaining({ id: trial!.id, planName: 'Pro 30', subscriptionUrl: trial!.subscriptionUrl })]);
      expect(new Date((await db()('vpn_accounts').where({ id: trial!.id }).first()).paid_until).getTime()).toBe(trialEnd + 30 * DAY_MS);
      expect(await f.count('paid_periods', { vpn_account_id: trial!.id })).toBe(2);
    });

    it('a card subscription bought within a paid trial: the trial’s paid time ends where Stripe’s first period starts, on the same account', async () => {
      const user = await f.newUser();
      await fund(user, 100);
      expect((await f.call(user, 'POST', '/api/checkout', { planId: paidTrialId, method: 'wallet' })).statusCode).toBe(200);
      await f.runJobs();
      const [trial] = await accountsOf(user);
      const { sessionId } = await f.checkout(user, { planId: f.recurringPlanId });
      expect(f.stripe.getSession(sessionId)!.metadata!.vpn_account_id).toBe(trial!.id);
      await f.stripe.pay(sessionId);
      await f.runJobs();
      expect(await accountsOf(user)).toEqual([expect.objectContaining({ id: trial!.id, planName: 'Plus Auto', subscriptionUrl: trial!.subscriptionUrl })]);
      const first = await db()('transactions').where({ provider_transaction_id: sessionId }).first();
      expect(first.status).toBe('succeeded');
      const periods = await db()('paid_periods').where({ vpn_account_id: trial!.id }).orderBy('created_at');
      expect(periods).toHaveLength(2);
      expect(periods[0].cut_by_transaction_id).toBe(first.id);
      expect(new Date(periods[0].ends_at).getTime()).toBe(new Date(periods[1].starts_at).getTime());
      expect((await panelUserOf(trial!.id)).data_limit).toBe(10 * GB);
      expect(await panelExpiry(trial!.id)).toBeGreaterThan(f.t.clock.now().getTime() + 29 * DAY_MS);
    });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES } from '../../../../shared/billing.js';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { panelExpiryOf, subscribeToRecurring } from '../../../test/recurring-subscriber.js';
import { mailParts } from '../../../test/smtp-catcher.js';
import type { DesktopSession } from '../../../test/test-app.js';
import { SCAN_WALLET_RENEWALS } from './wallet-renewals.js';
import { schedulePeriodicJob } from '../../jobs/periodic-jobs.js';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Auto-renew from the balance: the customer turns it on for an account (`POST /api/accounts/:id/auto-renew`); a
 * day before the account ends it renews itself from the wallet, once per period (also with two scans at once);
 * a balance that will not cover it is e-mailed ahead with a top-up link, and again when the renewal finds it short.
 */
describe.each(TEST_DATABASES)('auto-renew from the balance (%s)', (kind) => {
  const f = useBillingFixture(kind);
  const db = () => f.env.database.db;
  const autoRenew = (user: DesktopSession | null, accountId: string, body: unknown) => f.call(user, 'POST', `/api/accounts/${accountId}/auto-renew`, body);
  const balanceOf = async (user: DesktopSession) => (await f.call(user, 'GET', '/api/wallet')).json().balance as number;
  /** Money in, as the admin's adjustment (through the service: the fixture's admin session does not outlive the clock's jumps). */
  const fund = async (user: DesktopSession, amount: number) => {
    await f.t.app.services.wallet.adjust({ id: null, email: 'admin@example.com' }, user.userId, { amount, note: 'Test money' });
  };
  /** A customer with an account of the paid plan ($4.99, 30 days) bought from their balance, and `left` cents after it. */
  const customerWithAccount = async (left: number) => {
    const user = await f.newUser();
    await fund(user, 499);
    const bought = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'wallet' });
    expect(bought.statusCode, bought.body).toBe(200);
    await f.runJobs();
    if (left > 0) await fund(user, left);
    const account = await db()('vpn_accounts').where({ user_id: user.userId }).first();
    return { user, accountId: account.id as string, end: new Date(account.paid_until) };
  };
  const paidUntil = async (accountId: string) => new Date((await db()('vpn_accounts').where({ id: accountId }).first()).paid_until).getTime();
  /** Our clock moved to `at` (never back), then the due jobs run: the scan among them. */
  const runAt = async (at: number) => {
    const ahead = Math.ceil((at - f.t.clock.now().getTime()) / 1000);
    if (ahead > 0) f.t.clock.advance(ahead);
    await f.runJobs();
  };
  const mailsTo = async (user: DesktopSession, subject: RegExp) => {
    const { email } = await db()('user_profiles').where({ id: user.userId }).first();
    return f.env.smtp.messages.filter((m) => m.to.includes(email) && subject.test(m.subject));
  };

  beforeAll(async () => {
    // The periodic scan, as main.ts queues it (the fixture queues no periodic job of its own).
    await schedulePeriodicJob(f.t.app.services.jobs, SCAN_WALLET_RENEWALS, f.t.clock.now());
  });

  describe('turning it on and off', () => {
    it("turns on and off for the caller's account, shown in the account list", async () => {
      const { user, accountId } = await customerWithAccount(0);
      const on = await autoRenew(user, accountId, { enabled: true });
      expect(on.statusCode, on.body).toBe(200);
      expect(on.json()).toMatchObject({ id: accountId, autoRenewFromWallet: true });
      expect((await f.call(user, 'GET', '/api/accounts')).json()).toEqual([expect.objectContaining({ id: accountId, autoRenewFromWallet: true })]);
      const off = await autoRenew(user, accountId, { enabled: false });
      expect(off.json()).toMatchObject({ autoRenewFromWallet: false });
      expect(await db()('vpn_account_logs').where({ vpn_account_id: accountId, step: 'wallet_auto_renew' })).toHaveLength(2);
    });

    it("is 401 signed out, 404 for someone else's account, 400 for a bad body; nothing changes", async () => {
      const { user, accountId } = await customerWithAccount(0);
      const other = await f.newUser();
      expect((await autoRenew(null, accountId, { enabled: true })).statusCode).toBe(401);
      const foreign = await autoRenew(other, accountId, { enabled: true });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ code: 'not_found', message: 'Account not found' });
      for (const body of [{}, { enabled: 'yes' }, { enabled: 1 }]) {
        const bad = await autoRenew(user, accountId, body);
        expect(bad.statusCode, JSON.stringify(body)).toBe(400);
        expect(bad.json().code).toBe('validation_failed');
      }
      expect((await db()('vpn_accounts').where({ id: accountId }).first()).wallet_auto_renew).toBeFalsy();
    });

    it('is refused (409) for an account a card subscription renews already', async () => {
      const s = await subscribeToRecurring(f);
      const res = await autoRenew(s.user, s.accountId, { enabled: true });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ code: 'already_renews', message: BILLING_MESSAGES.alreadyRenews });
      // Turning it off is always allowed.
      expect((await autoRenew(s.user, s.accountId, { enabled: false })).statusCode).toBe(200);
    });
  });

  describe('renewing', () => {
    it('renews once from the balance a day before the account ends, with a receipt', async () => {
      const { user, accountId, end } = await customerWithAccount(499);
      expect((await autoRenew(user, accountId, { enabled: true })).statusCode).toBe(200);
      // Three days before: the balance covers it, so nothing is said and nothing is taken yet.
      await runAt(end.getTime() - 2 * DAY_MS);
      expect(await balanceOf(user)).toBe(499);
      expect(await mailsTo(user, /top up/i)).toHaveLength(0);
      await runAt(end.getTime() - 23 * HOUR_MS);
      expect(await balanceOf(user)).toBe(0);
      expect(await paidUntil(accountId)).toBe(end.getTime() + 30 * DAY_MS);
      expect(panelExpiryOf(f, accountId)).toBe(Math.floor((end.getTime() + 30 * DAY_MS) / 1000) * 1000);
      const renewal = await db()('transactions')
        .where({ provider_transaction_id: `wallet_renewal:${accountId}:${end.toISOString()}` })
        .first();
      expect(renewal).toMatchObject({ status: 'succeeded', amount: 0 });
      expect((await f.call(user, 'GET', '/api/wallet')).json().movements[0]).toMatchObject({ kind: 'renewal', amount: -499 });
      expect(await mailsTo(user, /receipt/i)).toHaveLength(2);
      // The next scans change nothing more.
      await fund(user, 499);
      await runAt(end.getTime() - 20 * HOUR_MS);
      expect(await balanceOf(user)).toBe(499);
      expect(await f.count('transactions', { user_id: user.userId, status: 'succeeded' })).toBe(2);
    });

    it('two scans at once renew it once', async () => {
      const { user, accountId, end } = await customerWithAccount(3 * 499);
      expect((await autoRenew(user, accountId, { enabled: true })).statusCode).toBe(200);
      f.t.clock.advance(Math.ceil((end.getTime() - 23 * HOUR_MS - f.t.clock.now().getTime()) / 1000));
      const { walletRenewals } = f.t.app.services;
      await Promise.all([walletRenewals.scan(), walletRenewals.scan(), walletRenewals.scan()]);
      await f.runJobs();
      expect(await balanceOf(user)).toBe(2 * 499);
      expect(await paidUntil(accountId)).toBe(end.getTime() + 30 * DAY_MS);
      expect(await f.count('transactions', { user_id: user.userId, status: 'succeeded' })).toBe(2);
    });

    it("a short balance is e-mailed 3 days ahead and when the renewal fails, in the customer's language; topped up in time, it renews", async () => {
      const { user, accountId, end } = await customerWithAccount(100);
      expect((await f.call(user, 'PATCH', '/api/me', { locale: 'ru' })).statusCode).toBe(200);
      expect((await autoRenew(user, accountId, { enabled: true })).statusCode).toBe(200);
      await runAt(end.getTime() - 3 * DAY_MS + HOUR_MS);
      const [ahead] = await mailsTo(user, /пополните баланс/);
      expect(ahead).toBeDefined();
      expect(mailParts(ahead!).text).toContain('не хватает');
      expect(mailParts(ahead!).text).toMatch(/http:\/\/localhost:3000\/ru\/wallet/);
      // No "your plan ends" reminder besides: this account renews by itself once topped up.
      expect(await mailsTo(user, /ends|закончится|заканчивается/i)).toHaveLength(0);
      await runAt(end.getTime() - 23 * HOUR_MS);
      expect(await mailsTo(user, /не удалось продлить/)).toHaveLength(1);
      expect(await paidUntil(accountId)).toBe(end.getTime());
      // Each is sent once however often the scan runs.
      await runAt(end.getTime() - 22 * HOUR_MS);
      expect(await mailsTo(user, /пополните баланс/)).toHaveLength(1);
      expect(await mailsTo(user, /не удалось продлить/)).toHaveLength(1);
      // Topped up before the end: the next scan renews it.
      await fund(user, 399);
      await runAt(end.getTime() - 21 * HOUR_MS);
      expect(await paidUntil(accountId)).toBe(end.getTime() + 30 * DAY_MS);
      expect(await balanceOf(user)).toBe(0);
    });

    it('turned off again, nothing is taken', async () => {
      const { user, accountId, end } = await customerWithAccount(499);
      expect((await autoRenew(user, accountId, { enabled: true })).statusCode).toBe(200);
      expect((await autoRenew(user, accountId, { enabled: false })).statusCode).toBe(200);
      await runAt(end.getTime() - 23 * HOUR_MS);
      expect(await balanceOf(user)).toBe(499);
      expect(await paidUntil(accountId)).toBe(end.getTime());
    });
  });
});

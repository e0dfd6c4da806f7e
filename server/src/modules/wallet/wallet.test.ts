import { beforeAll, describe, expect, it } from 'vitest';
import { WALLET_MESSAGES } from '../../../../shared/wallet.js';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { CRYPTOPAY, useFakeCryptopay } from '../../../test/cryptopay-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import type { DesktopSession } from '../../../test/test-app.js';
import { YOOKASSA, useFakeYookassa } from '../../../test/yookassa-fixture.js';

/**
 * The wallet: one balance per customer (a ledger), topped up through a provider, spent on plans (also 20 at once on
 * a balance that covers 3), adjusted by an admin, and where a Crypto Pay refund goes. A rouble store, so YooKassa
 * takes the top-ups.
 */
describe.each(TEST_DATABASES)('the wallet (%s)', (kind) => {
  const yookassa = useFakeYookassa(() => f);
  const cryptopay = useFakeCryptopay(() => f);
  const f = useBillingFixture(kind, { env: () => ({ ...yookassa.env(), ...cryptopay.env() }) });
  const wallet = async (user: DesktopSession) => (await f.call(user, 'GET', '/api/wallet')).json();
  /** Money in, as an admin's adjustment (each test's customer starts from nothing). */
  const fund = async (user: DesktopSession, amount: number) => {
    const res = await f.call(f.admin, 'POST', `/api/admin/users/${user.userId}/wallet`, { amount, note: 'Opening balance' });
    expect(res.statusCode, res.body).toBe(200);
  };
  const topUp = async (user: DesktopSession, amount: number) => {
    const res = await f.call(user, 'POST', '/api/wallet/top-up', { amount, method: 'yookassa' });
    expect(res.statusCode, res.body).toBe(200);
    const { sessionId } = res.json() as { url: string; sessionId: string };
    await yookassa.fake.pay(sessionId);
    return sessionId;
  };

  beforeAll(async () => {
    yookassa.fake.setWebhookUrl(yookassa.webhookUrl());
    cryptopay.fake.setWebhookUrl(cryptopay.webhookUrl());
    expect((await f.call(f.admin, 'PUT', '/api/admin/settings', { currency: 'rub' })).statusCode).toBe(200);
    expect((await f.call(f.admin, 'PUT', '/api/admin/payments/yookassa', { enabled: true, ...YOOKASSA })).statusCode).toBe(200);
    expect(
      (await f.call(f.admin, 'PUT', '/api/admin/payments/cryptopay', { enabled: true, apiToken: CRYPTOPAY.apiToken, network: CRYPTOPAY.network })).statusCode,
    ).toBe(200);
  });

  describe('reading it', () => {
    it('is 401 signed out; a new customer has nothing, with the ways and limits to top up', async () => {
      expect((await f.call(null, 'GET', '/api/wallet')).statusCode).toBe(401);
      expect(await wallet(await f.newUser())).toEqual({
        currency: 'rub',
        balance: 0,
        pending: 0,
        movements: [],
        topUp: { methods: ['yookassa', 'card', 'cryptopay'], min: 500, max: 100000 },
      });
    });
  });

  describe('topping up', () => {
    it('puts what YooKassa took into the balance, once, with a movement and a payment in the history', async () => {
      const user = await f.newUser();
      const sessionId = await topUp(user, 150000 - 50000);
      const transaction = await f.env.database.db('transactions').where({ provider_transaction_id: sessionId }).first();
      expect(yookassa.fake.getPayment(sessionId)).toMatchObject({ amount: { value: '1000.00', currency: 'RUB' }, metadata: { order_id: transaction.id } });
      const after = await wallet(user);
      expect(after).toMatchObject({ balance: 100000, movements: [{ kind: 'top_up', amount: 100000, currency: 'rub' }] });
      // The notification again: the money is in once.
      await yookassa.fake.redeliver(yookassa.fake.sent.length - 1);
      expect((await wallet(user)).balance).toBe(100000);
      expect((await f.call(user, 'GET', `/api/checkout/${transaction.id}`)).json()).toMatchObject({ status: 'succeeded' });
      expect((await f.call(user, 'GET', '/api/transactions')).json()).toEqual([
        expect.objectContaining({ status: 'succeeded', amount: 100000, method: 'yookassa', topUp: true }),
      ]);
      // A top-up is a payment, not a plan.
      expect((await f.call(user, 'GET', '/api/subscriptions')).json()).toEqual([]);
    });

    it('refuses bad input and amounts outside the limits (400), a method that is not set up (503), and 401 signed out; nothing is written', async () => {
      const user = await f.newUser();
      expect((await f.call(null, 'POST', '/api/wallet/top-up', { amount: 1000, method: 'yookassa' })).statusCode).toBe(401);
      for (const body of [
        { amount: 0, method: 'yookassa' },
        { amount: 10.5, method: 'yookassa' },
        { amount: 1000, method: 'wallet' },
        { amount: 1000 },
        { amount: 1000, method: 'yookassa', extra: 1 },
      ]) {
        const res = await f.call(user, 'POST', '/api/wallet/top-up', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().code).toBe('validation_failed');
      }
      const tooMuch = await f.call(user, 'POST', '/api/wallet/top-up', { amount: 100001, method: 'yookassa' });
      expect(tooMuch.json()).toMatchObject({
        code: 'validation_failed',
        message: WALLET_MESSAGES.topUpLimits,
        fields: { amount: expect.stringMatching(/^Top up ₽5\.00 to ₽1,000\.00 at a time$/) },
      });
      expect((await f.call(user, 'POST', '/api/wallet/top-up', { amount: 499, method: 'yookassa' })).statusCode).toBe(400);
      expect((await f.call(user, 'POST', '/api/wallet/top-up', { amount: 1000, method: 'crypto' })).statusCode).toBe(503);
      expect(await f.count('transactions', { user_id: user.userId })).toBe(0);
    });

    it('follows the limits the admin sets, and refuses top-ups while they are off', async () => {
      const user = await f.newUser();
      const set = (walletTopUps: object) => f.call(f.admin, 'PUT', '/api/admin/settings', { walletTopUps });
      expect((await set({ enabled: true, min: 10000, max: 5000 })).json().fields).toHaveProperty('walletTopUps.max');
      expect((await set({ enabled: true, min: 10000, max: 20000 })).statusCode).toBe(200);
      try {
        expect((await wallet(user)).topUp).toMatchObject({ min: 10000, max: 20000 });
        expect((await f.call(user, 'POST', '/api/wallet/top-up', { amount: 5000, method: 'yookassa' })).statusCode).toBe(400);
        await set({ enabled: false, min: 10000, max: 20000 });
        expect((await wallet(user)).topUp).toBeNull();
        expect((await f.call(user, 'POST', '/api/wallet/top-up', { amount: 15000, method: 'yookassa' })).json()).toMatchObject({ code: 'top_ups_off' });
      } finally {
        await set({ enabled: true, min: 500, max: 100000 });
      }
    });
  });

  describe('paying from it', () => {
    it('buys a plan from the balance: delivered, the balance down by the price, the movement names the plan', async () => {
      const user = await f.newUser();
      await topUp(user, 1000);
      const res = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'wallet' });
      expect(res.statusCode, res.body).toBe(200);
      const { sessionId } = res.json();
      expect(sessionId).toMatch(/^free_/);
      await f.runJobs();
      const status = (await f.call(user, 'GET', `/api/checkout/${sessionId}`)).json();
      expect(status).toMatchObject({ status: 'succeeded', account: { status: 'active' } });
      const after = await wallet(user);
      expect(after.balance).toBe(1000 - 499);
      expect(after.movements[0]).toMatchObject({ kind: 'purchase', amount: -499, note: 'Plus Monthly' });
      const purchase = (await f.call(user, 'GET', '/api/transactions')).json().find((transaction: { topUp?: boolean }) => !transaction.topUp);
      expect(purchase).toMatchObject({ method: 'wallet', amount: 0, credit: 499, status: 'succeeded' });
    });

    it('refuses a plan the balance does not cover: 409 insufficient_balance with what is missing, and nothing is written', async () => {
      const user = await f.newUser();
      await fund(user, 300);
      const res = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'wallet' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ code: 'insufficient_balance', message: WALLET_MESSAGES.insufficient, needed: 199 });
      expect(await f.count('subscriptions', { user_id: user.userId })).toBe(0);
      expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(0);
      expect((await wallet(user)).balance).toBe(300);
    });

    it('20 purchases at once from a balance that covers 3 deliver exactly 3, and the balance ends exact', async () => {
      const user = await f.newUser();
      await fund(user, 3 * 499 + 100);
      const answers = await Promise.all(Array.from({ length: 20 }, () => f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'wallet' })));
      const statuses = answers.map((res) => res.statusCode).sort();
      expect(statuses.filter((status) => status === 200)).toHaveLength(3);
      expect(statuses.filter((status) => status === 409)).toHaveLength(17);
      expect(answers.filter((res) => res.statusCode === 409).every((res) => res.json().code === 'insufficient_balance')).toBe(true);
      await f.runJobs();
      expect(await f.count('transactions', { user_id: user.userId, status: 'succeeded' })).toBe(3);
      expect(await f.count('vpn_accounts', { user_id: user.userId })).toBe(3);
      expect((await wallet(user)).balance).toBe(100);
    });
  });

  describe('the admin', () => {
    it('answers 401 signed out, 403 to a customer, 404 for nobody; a bad adjustment is 400', async () => {
      const user = await f.newUser();
      expect((await f.call(null, 'GET', `/api/admin/users/${user.userId}/wallet`)).statusCode).toBe(401);
      expect((await f.call(user, 'GET', `/api/admin/users/${user.userId}/wallet`)).statusCode).toBe(403);
      expect((await f.call(user, 'POST', `/api/admin/users/${user.userId}/wallet`, { amount: 100, note: 'Me' })).statusCode).toBe(403);
      expect((await f.call(f.admin, 'GET', '/api/admin/users/00000000-0000-4000-8000-000000000000/wallet')).statusCode).toBe(404);
      expect((await f.call(f.admin, 'POST', '/api/admin/users/00000000-0000-4000-8000-000000000000/wallet', { amount: 100, note: 'x' })).statusCode).toBe(404);
      for (const body of [{ amount: 0, note: 'x' }, { amount: 100 }, { amount: 100, note: '' }, { amount: 1.5, note: 'x' }]) {
        expect((await f.call(f.admin, 'POST', `/api/admin/users/${user.userId}/wallet`, body)).statusCode, JSON.stringify(body)).toBe(400);
      }
      expect((await wallet(user)).movements).toEqual([]);
    });

    it('puts money in and takes it out with a note the customer sees, audited; never below zero (409)', async () => {
      const user = await f.newUser();
      const added = await f.call(f.admin, 'POST', `/api/admin/users/${user.userId}/wallet`, { amount: 2000, note: 'Sorry for the outage' });
      expect(added.json()).toMatchObject({
        userId: user.userId,
        balance: 2000,
        movements: [{ kind: 'adjustment', amount: 2000, note: 'Sorry for the outage' }],
      });
      const overdraw = await f.call(f.admin, 'POST', `/api/admin/users/${user.userId}/wallet`, { amount: -2001, note: 'Too much' });
      expect(overdraw.statusCode).toBe(409);
      expect(overdraw.json()).toMatchObject({ code: 'insufficient_balance', message: WALLET_MESSAGES.adjustmentOverdraws });
      expect((await f.call(f.admin, 'POST', `/api/admin/users/${user.userId}/wallet`, { amount: -500, note: 'Correction' })).json().balance).toBe(1500);
      expect((await wallet(user)).movements.map((movement: { note: string }) => movement.note)).toEqual(['Correction', 'Sorry for the outage']);
      const audit = await f.env.database.db('audit_log').where({ action: 'wallet.adjustment', target_id: user.userId }).orderBy('created_at');
      expect(audit).toHaveLength(2);
      expect(audit[0]).toMatchObject({ actor_email: 'admin@example.com' });
    });
  });

  describe('refunds', () => {
    const paidWithCryptopay = async (user: DesktopSession) => {
      const res = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'cryptopay' });
      const { sessionId } = res.json();
      await cryptopay.fake.pay(Number(sessionId.replace('testnet-', '')));
      await f.runJobs();
      return f.env.database.db('transactions').where({ provider_transaction_id: sessionId }).first();
    };

    it('a Crypto Pay payment is refunded into the wallet by default: the balance up, the payment refunded, its period taken back', async () => {
      const user = await f.newUser();
      const transaction = await paidWithCryptopay(user);
      const listed = (await f.call(f.admin, 'GET', '/api/admin/transactions?limit=5')).json().find((row: { id: string }) => row.id === transaction.id);
      expect(listed).toMatchObject({ refundable: true, refundDestinations: ['wallet', 'manual'] });
      const res = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'refunded', amountRefunded: 499 });
      expect(await wallet(user)).toMatchObject({ balance: 499, movements: [{ kind: 'refund', amount: 499 }] });
      expect((await f.env.database.db('paid_periods').where({ transaction_id: transaction.id }).first()).void_reason).toBe('refunded');
      expect(await f.count('audit_log', { action: 'payments.refund_to_wallet', target_id: transaction.id })).toBe(1);
      // Through Crypto Pay itself: it has no refunds.
      expect((await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, { destination: 'provider' })).statusCode).toBe(409);
    });

    it('paid back by hand needs a note, leaves the wallet alone, and is refunded once however often it is sent', async () => {
      const user = await f.newUser();
      const transaction = await paidWithCryptopay(user);
      expect((await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, { destination: 'manual' })).json().fields).toEqual({
        note: 'Say how it was paid back',
      });
      const body = { destination: 'manual', amount: 200, note: 'Sent 2 USDT to the customer', requestId: '6f7c1a52-7d44-4b8f-9a3c-6b0a1f0e2d11' };
      const [first, again] = [
        await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, body),
        await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, body),
      ];
      expect(first.json()).toMatchObject({ status: 'succeeded', amountRefunded: 200 });
      expect(again.json()).toMatchObject({ amountRefunded: 200 });
      expect(await f.count('refunds', { transaction_id: transaction.id, source: 'manual' })).toBe(1);
      expect((await wallet(user)).balance).toBe(0);
    });

    it('a top-up given back through YooKassa comes out of the wallet; once spent it can no longer be refunded (409)', async () => {
      const user = await f.newUser();
      const sessionId = await topUp(user, 1000);
      const transaction = await f.env.database.db('transactions').where({ provider_transaction_id: sessionId }).first();
      expect((await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, { destination: 'wallet' })).statusCode).toBe(409);
      const part = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, { amount: 300 });
      expect(part.statusCode, part.body).toBe(200);
      expect((await wallet(user)).balance).toBe(700);
      expect((await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'wallet' })).statusCode).toBe(200);
      const rest = await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, {});
      expect(rest.statusCode).toBe(409);
      expect(rest.json().code).toBe('top_up_spent');
      expect((await wallet(user)).balance).toBe(201);
    });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import { YOOKASSA, useFakeYookassa } from '../../../../test/yookassa-fixture.js';

/**
 * Admin → Payments by provider: the transactions filtered by how they were paid, the revenue each provider took
 * per currency (less refunds), and (System) each provider's health: offered or not, answering now, last payment.
 */
describe.each(TEST_DATABASES)('payments by provider, for the admin (%s)', (kind) => {
  const shop = useFakeYookassa(() => f);
  const f = useBillingFixture(kind, { env: () => shop.env() });
  const ids: Record<'card' | 'wallet' | 'yookassa' | 'gift', string> = { card: '', wallet: '', yookassa: '', gift: '' };

  beforeAll(async () => {
    shop.fake.setWebhookUrl(shop.webhookUrl());
    expect((await f.call(f.admin, 'PUT', '/api/admin/payments/yookassa', { enabled: true, ...YOOKASSA })).statusCode).toBe(200);
    // A dollar card payment (part refunded) and a dollar order from the balance; then, selling in roubles, a YooKassa payment.
    const buyer = await f.newUser();
    await f.buyAccount(buyer);
    ids.card = (await f.env.database.db('transactions').where({ user_id: buyer.userId, status: 'succeeded' }).first()).id;
    expect((await f.call(f.admin, 'POST', `/api/admin/transactions/${ids.card}/refund`, { amount: 100 })).statusCode).toBe(200);
    expect((await f.call(f.admin, 'POST', `/api/admin/users/${buyer.userId}/wallet`, { amount: 499, note: 'Goodwill' })).statusCode).toBe(200);
    const fromBalance = await f.call(buyer, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'wallet' });
    expect(fromBalance.statusCode, fromBalance.body).toBe(200);
    ids.wallet = (await f.env.database.db('transactions').where({ provider_transaction_id: fromBalance.json().sessionId }).first()).id;
    // A gift code redeemed: nothing paid, by no provider and not from the balance either.
    const gift = await f.call(f.admin, 'POST', '/api/admin/gift-codes', { planId: f.paidPlanId, count: 1 });
    const redeemed = await f.call(await f.newUser(), 'POST', '/api/gift-codes/redeem', { code: gift.json().codes[0] });
    expect(redeemed.statusCode, redeemed.body).toBe(201);
    ids.gift = (await f.env.database.db('transactions').where({ provider_transaction_id: redeemed.json().sessionId }).first()).id;
    expect((await f.call(f.admin, 'PUT', '/api/admin/settings', { currency: 'rub' })).statusCode).toBe(200);
    const rouble = await f.call(buyer, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'yookassa' });
    expect(rouble.statusCode, rouble.body).toBe(200);
    await shop.fake.pay(rouble.json().sessionId);
    ids.yookassa = (await f.env.database.db('transactions').where({ provider_transaction_id: rouble.json().sessionId }).first()).id;
    await f.runJobs();
  });

  it('answers 401 signed out and 403 to a customer; a bad filter is 400', async () => {
    const customer = await f.newUser();
    for (const url of ['/api/admin/payments/revenue', '/api/admin/transactions?method=card']) {
      expect((await f.call(null, 'GET', url)).statusCode, url).toBe(401);
      expect((await f.call(customer, 'GET', url)).statusCode, url).toBe(403);
    }
    const method = await f.call(f.admin, 'GET', '/api/admin/transactions?method=cash');
    expect(method.statusCode).toBe(400);
    expect(method.json()).toMatchObject({ code: 'validation_failed', fields: { method: expect.any(String) } });
    for (const days of ['0', '4000', 'week']) {
      const res = await f.call(f.admin, 'GET', `/api/admin/payments/revenue?days=${days}`);
      expect(res.statusCode, days).toBe(400);
      expect(res.json().fields).toEqual({ days: 'days is a whole number from 1 to 3660' });
    }
  });

  it('lists the payments taken one way; a gift code redeemed is its own kind, neither card nor balance', async () => {
    const list = async (method: string) =>
      (await f.call(f.admin, 'GET', `/api/admin/transactions?method=${method}`)).json() as Array<{ id: string; method: string }>;
    expect((await list('card')).map((row) => row.id)).toEqual([ids.card]);
    expect((await list('yookassa')).map((row) => [row.id, row.method])).toEqual([[ids.yookassa, 'yookassa']]);
    expect((await list('wallet')).map((row) => [row.id, row.method])).toEqual([[ids.wallet, 'wallet']]);
    expect((await list('gift_code')).map((row) => [row.id, row.method])).toEqual([[ids.gift, 'gift_code']]);
    const all = (await f.call(f.admin, 'GET', '/api/admin/transactions')).json() as Array<{ id: string; method: string; giftCode?: string }>;
    expect(all.find((row) => row.id === ids.gift)).toMatchObject({ method: 'gift_code', giftCode: expect.any(String) });
    expect(await list('cryptopay')).toEqual([]);
    const both = (await f.call(f.admin, 'GET', '/api/admin/transactions?method=card&status=succeeded')).json();
    expect(both.map((row: { id: string }) => row.id)).toEqual([ids.card]);
  });

  it('sums what each provider took per currency, less refunds; the balance took nothing itself', async () => {
    const res = await f.call(f.admin, 'GET', '/api/admin/payments/revenue');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      days: 30,
      since: expect.any(String),
      rows: [
        { method: 'yookassa', currency: 'rub', payments: 1, amount: 499, refunded: 0, net: 499 },
        { method: 'card', currency: 'usd', payments: 1, amount: 499, refunded: 100, net: 399 },
      ],
    });
  });

  it('shows each provider with keys in System: offered, answering, and its last payment; one that does not answer says why', async () => {
    const providers = async () => (await f.call(f.admin, 'GET', '/api/admin/system')).json().payments.providers as Array<Record<string, unknown>>;
    expect(await providers()).toEqual([
      { method: 'card', offered: true, reachable: true, latencyMs: expect.any(Number), error: null, lastPaidAt: expect.any(String) },
      { method: 'yookassa', offered: true, reachable: true, latencyMs: expect.any(Number), error: null, lastPaidAt: expect.any(String) },
    ]);
    shop.fake.failNext('GET', /^\/v3\/me$/, { status: 500, code: 'internal_server_error', description: 'Internal server error' });
    const yookassa = (await providers()).find((provider) => provider.method === 'yookassa')!;
    expect(yookassa).toMatchObject({ reachable: false, latencyMs: null, error: expect.stringContaining('Reading the shop') });
    // Back to dollars: YooKassa keeps its keys, but is no longer offered.
    expect((await f.call(f.admin, 'PUT', '/api/admin/settings', { currency: 'usd' })).statusCode).toBe(200);
    expect((await providers()).find((provider) => provider.method === 'yookassa')).toMatchObject({ offered: false, reachable: true });
  });
});

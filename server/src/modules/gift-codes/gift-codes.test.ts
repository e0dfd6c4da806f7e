import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { GIFT_MESSAGES } from '../../../../shared/gift-codes.js';
import { GB, useBillingFixture, type BillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';

const DAY_MS = 24 * 3600 * 1000;

async function issue(f: BillingFixture, planId: string, count: number, note?: string): Promise<{ batch: { id: string }; codes: string[] }> {
  const res = await f.call(f.admin, 'POST', '/api/admin/gift-codes', { planId, count, ...(note ? { note } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe.each(TEST_DATABASES)('gift codes (%s)', (kind) => {
  const f = useBillingFixture(kind);

  it('admin: issues a batch for a plan, lists it, downloads it as CSV; customers and strangers are refused', async () => {
    const user = await f.newUser();
    expect((await f.call(null, 'POST', '/api/admin/gift-codes', { planId: f.paidPlanId, count: 2 })).statusCode).toBe(401);
    expect((await f.call(user, 'POST', '/api/admin/gift-codes', { planId: f.paidPlanId, count: 2 })).statusCode).toBe(403);
    expect((await f.call(user, 'GET', '/api/admin/gift-codes')).statusCode).toBe(403);

    const created = await issue(f, f.paidPlanId, 25, 'Conference');
    expect(created.codes).toHaveLength(25);
    expect(new Set(created.codes).size).toBe(25);
    for (const code of created.codes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{4}(-[A-HJKMNP-Z2-9]{4}){3}$/);
    expect(created.batch).toMatchObject({ planId: f.paidPlanId, planName: 'Plus Monthly', count: 25, redeemed: 0, revoked: 0, note: 'Conference' });
    expect((await f.call(f.admin, 'GET', '/api/admin/gift-codes')).json()[0]).toMatchObject({ id: created.batch.id, count: 25 });

    const csv = await f.call(f.admin, 'GET', `/api/admin/gift-codes/${created.batch.id}/csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="gift-codes-\d{4}-\d{2}-\d{2}-[\w-]{8}\.csv"$/);
    const parsed = Papa.parse<Record<string, string>>(csv.body.trim(), { header: true });
    expect(parsed.meta.fields).toEqual(['code', 'plan', 'status', 'redeemed_by', 'redeemed_at']);
    expect(parsed.data.map((row) => row.code).sort()).toEqual([...created.codes].sort());
    expect(parsed.data.every((row) => row.status === 'unused' && row.plan === 'Plus Monthly')).toBe(true);
    expect((await f.call(user, 'GET', `/api/admin/gift-codes/${created.batch.id}/csv`)).statusCode).toBe(403);
    expect((await f.call(f.admin, 'GET', '/api/admin/gift-codes/nope/csv')).statusCode).toBe(404);

    for (const body of [
      { planId: f.paidPlanId, count: 0 },
      { planId: f.paidPlanId, count: 1001 },
      { planId: 'nope', count: 1 },
      { count: 1 },
      { planId: f.paidPlanId, count: 1, price: 0 },
    ]) {
      const res = await f.call(f.admin, 'POST', '/api/admin/gift-codes', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
    expect(await f.count('audit_log', { action: 'gift_codes.create', target_id: created.batch.id })).toBe(1);
  });

  it('redeemed once: an account of its plan; a second redemption is 409, by anyone', async () => {
    const { batch, codes } = await issue(f, f.paidPlanId, 2);
    const user = await f.newUser();
    // Typed in lower case, without dashes: the same code.
    const res = await f.call(user, 'POST', '/api/gift-codes/redeem', { code: codes[0]!.toLowerCase().replaceAll('-', '') });
    expect(res.statusCode, res.body).toBe(201);
    const redeemed = res.json();
    expect(redeemed).toEqual({
      sessionId: expect.stringMatching(/^free_/),
      subscriptionId: expect.any(String),
      accountId: expect.any(String),
      planId: f.paidPlanId,
      planName: 'Plus Monthly',
      renewal: false,
    });
    await f.runJobs();
    expect((await f.call(user, 'GET', `/api/checkout/${redeemed.sessionId}`)).json()).toMatchObject({
      status: 'succeeded',
      account: { id: redeemed.accountId, status: 'active', dataLimitBytes: 10 * GB },
    });
    expect((await f.call(user, 'GET', '/api/transactions')).json()).toEqual([expect.objectContaining({ amount: 0, status: 'succeeded', giftCode: codes[0] })]);

    for (const who of [user, await f.newUser()]) {
      const again = await f.call(who, 'POST', '/api/gift-codes/redeem', { code: codes[0] });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ code: 'gift_code_used', message: GIFT_MESSAGES.used });
    }
    expect((await f.call(f.admin, 'GET', '/api/admin/gift-codes')).json().find((b: { id: string }) => b.id === batch.id)).toMatchObject({ redeemed: 1 });
    const csv = Papa.parse<Record<string, string>>((await f.call(f.admin, 'GET', `/api/admin/gift-codes/${batch.id}/csv`)).body.trim(), { header: true }).data;
    expect(csv.find((row) => row.code === codes[0])).toMatchObject({
      status: 'redeemed',
      redeemed_by: expect.stringContaining('@example.com'),
      redeemed_at: expect.stringMatching(/^\d{4}-/),
    });
    expect(await f.count('audit_log', { action: 'gift_code.redeem' })).toBeGreaterThanOrEqual(1);
  });

  it('two customers redeeming the same code at once: one account, one 409', async () => {
    const { codes } = await issue(f, f.paidPlanId, 1);
    const users = await Promise.all([f.newUser(), f.newUser(), f.newUser()]);
    const answers = await Promise.all(users.map((user) => f.call(user, 'POST', '/api/gift-codes/redeem', { code: codes[0] })));
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409, 409]);
    const transactions = await f.env.database
      .db('transactions')
      .whereRaw(kind === 'postgres' ? "metadata->>'gift_code' = ?" : "json_extract(metadata, '$.gift_code') = ?", [codes[0]!]);
    expect(transactions).toHaveLength(1);
  });

  it("adds the plan's days to an account of the caller's on the same plan; refuses another plan's account and someone else's", async () => {
    const user = await f.newUser();
    const accountId = await f.buyAccount(user);
    const before = new Date((await f.env.database.db('vpn_accounts').where({ id: accountId }).first()).expire_date).getTime();
    const { codes } = await issue(f, f.paidPlanId, 3);

    const stranger = await f.newUser();
    const notYours = await f.call(stranger, 'POST', '/api/gift-codes/redeem', { code: codes[0], accountId });
    expect(notYours.statusCode).toBe(404);

    const res = await f.call(user, 'POST', '/api/gift-codes/redeem', { code: codes[0], accountId });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ accountId, renewal: true });
    await f.runJobs();
    const after = new Date((await f.env.database.db('vpn_accounts').where({ id: accountId }).first()).expire_date).getTime();
    expect((after - before) / DAY_MS).toBeCloseTo(30, 3);

    const other = (await f.call(f.admin, 'POST', '/api/admin/plans', { name: 'Other', days: 7, dataLimitBytes: GB, price: 100, locations: 'all' })).json().id;
    const otherCodes = (await issue(f, other, 1)).codes;
    const wrongPlan = await f.call(user, 'POST', '/api/gift-codes/redeem', { code: otherCodes[0], accountId });
    expect(wrongPlan.statusCode).toBe(409);
    expect(wrongPlan.json()).toEqual({ code: 'gift_other_plan', message: GIFT_MESSAGES.otherPlan });
    // Refused: the code is still unused.
    expect((await f.call(user, 'POST', '/api/gift-codes/redeem', { code: otherCodes[0] })).statusCode).toBe(201);
  });

  it("says before redeeming which of the caller's accounts a code can extend: only those on its plan", async () => {
    const user = await f.newUser();
    const accountId = await f.buyAccount(user);
    const other = (await f.call(f.admin, 'POST', '/api/admin/plans', { name: 'Weekly', days: 7, dataLimitBytes: GB, price: 100, locations: 'all' })).json().id;
    const [sameCode] = (await issue(f, f.paidPlanId, 1)).codes;
    const [otherCode] = (await issue(f, other, 1)).codes;

    const same = await f.call(user, 'POST', '/api/gift-codes/check', { code: sameCode!.toLowerCase() });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toEqual({ planName: 'Plus Monthly', accountIds: [accountId] });
    expect((await f.call(user, 'POST', '/api/gift-codes/check', { code: otherCode })).json()).toEqual({ planName: 'Weekly', accountIds: [] });
    // Someone else's accounts are never offered; checking takes nothing.
    expect((await f.call(await f.newUser(), 'POST', '/api/gift-codes/check', { code: sameCode })).json()).toEqual({ planName: 'Plus Monthly', accountIds: [] });
    expect((await f.call(user, 'POST', '/api/gift-codes/check', { code: 'NOPE-NOPE-NOPE-NOPE' })).json()).toMatchObject({ code: 'gift_code_not_found' });
    expect((await f.call(null, 'POST', '/api/gift-codes/check', { code: sameCode })).statusCode).toBe(401);
    expect((await f.call(user, 'POST', '/api/gift-codes/redeem', { code: sameCode, accountId })).statusCode).toBe(201);
    expect((await f.call(user, 'POST', '/api/gift-codes/check', { code: sameCode })).json()).toMatchObject({ code: 'gift_code_used' });
  });

  it('unknown, revoked, signed out and bad bodies are refused, and nothing is written', async () => {
    const { batch, codes } = await issue(f, f.paidPlanId, 2);
    const user = await f.newUser();
    const before = await f.count('transactions');
    expect((await f.call(null, 'POST', '/api/gift-codes/redeem', { code: codes[0] })).statusCode).toBe(401);
    expect((await f.call(user, 'POST', '/api/gift-codes/redeem', { code: 'AAAA-BBBB-CCCC-DDDD' })).json()).toEqual({
      code: 'gift_code_not_found',
      message: GIFT_MESSAGES.notFound,
    });
    for (const body of [{}, { code: '' }, { code: 'x'.repeat(41) }, { code: codes[0], extra: 1 }]) {
      expect((await f.call(user, 'POST', '/api/gift-codes/redeem', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const revoked = await f.call(f.admin, 'POST', `/api/admin/gift-codes/${batch.id}/revoke`);
    expect(revoked.json()).toMatchObject({ id: batch.id, revoked: 2 });
    expect((await f.call(user, 'POST', `/api/admin/gift-codes/${batch.id}/revoke`)).statusCode).toBe(403);
    const res = await f.call(user, 'POST', '/api/gift-codes/redeem', { code: codes[1] });
    expect(res.statusCode).toBe(404);
    expect(await f.count('transactions')).toBe(before);
  });
});

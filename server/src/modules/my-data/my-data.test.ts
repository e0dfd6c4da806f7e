import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useBillingFixture, type BillingFixture } from '../../../test/billing-fixture.js';
import { subscribeToRecurring } from '../../../test/recurring-subscriber.js';
import { mailParts } from '../../../test/smtp-catcher.js';
import { signInDesktop, type DesktopSession } from '../../../test/test-app.js';

/** `GET /api/me/export` and `DELETE /api/me`: a customer's own data, taken and erased (issue 56). */
describe.each(TEST_DATABASES)('my data (%s)', (kind) => {
  const f: BillingFixture = useBillingFixture(kind);
  const db = () => f.env.database.db;
  const usernameOf = async (accountId: string) => String((await db()('vpn_accounts').where({ id: accountId }).first('username')).username);
  /** A passkey as the passkeys module stores one (its key is opaque bytes here: only the name may be exported). */
  const addPasskey = (userId: string, name: string) =>
    db()('passkeys').insert({
      id: randomUUID(),
      user_id: userId,
      credential_id: randomUUID(),
      public_key: 'public-key-bytes',
      counter: 0,
      transports: '',
      name,
      created_at: new Date(),
    });
  const emailOf = async (user: DesktopSession) => String((await db()('user_profiles').where({ id: user.userId }).first('email')).email);

  it('answers 401 to a signed-out visitor on both routes', async () => {
    for (const [method, url] of [
      ['GET', '/api/me/export'],
      ['DELETE', '/api/me'],
    ] as const) {
      const res = await f.call(null, method, url);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'unauthenticated', message: expect.any(String) });
    }
  });

  it("exports the caller's profile, accounts, payments and sign-ins as a file, and nothing of anyone else", async () => {
    const buyer = await f.newUser();
    const accountId = await f.buyAccount(buyer);
    const other = await f.newUser();
    const otherAccountId = await f.buyAccount(other);

    await addPasskey(buyer.userId, 'Laptop');
    const res = await f.call(buyer, 'GET', '/api/me/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json();
    expect(data.profile).toMatchObject({ id: buyer.userId, email: await emailOf(buyer) });
    expect(data.accounts.map((a: { id: string }) => a.id)).toEqual([accountId]);
    expect(data.payments).toEqual([expect.objectContaining({ status: 'succeeded', amount: 499, refunds: [] })]);
    expect(data.subscriptions).toHaveLength(1);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.passkeys).toEqual([{ name: 'Laptop', createdAt: expect.any(String), lastUsedAt: null }]);
    expect(res.body).not.toContain('public-key-bytes');
    expect(data.securityEvents.map((e: { action: string }) => e.action)).toContain('auth.sign_in');
    const text = res.body;
    expect(text).not.toContain(other.userId);
    expect(text).not.toContain(otherAccountId);
    expect(text).not.toContain(await emailOf(other));
  });

  it('refuses while a subscription renews by itself, changing nothing; once auto-renew is off it deletes', async () => {
    const subscriber = await subscribeToRecurring(f);
    const email = await emailOf(subscriber.user);
    const refused = await f.call(subscriber.user, 'DELETE', '/api/me');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: 'auto_renew_on', message: expect.stringContaining('auto-renew') });
    expect(await emailOf(subscriber.user)).toBe(email);
    expect(f.panel.users.has(await usernameOf(subscriber.accountId))).toBe(true);

    expect((await f.call(subscriber.user, 'POST', `/api/subscriptions/${subscriber.subscriptionId}/cancel`)).statusCode).toBe(200);
    expect((await f.call(subscriber.user, 'DELETE', '/api/me')).statusCode).toBe(204);
  });

  it('removes the panel users, erases the personal data, keeps the payments without a name, signs out everywhere and mails the address', async () => {
    const buyer = await f.newUser();
    const accountId = await f.buyAccount(buyer);
    const username = await usernameOf(accountId);
    const email = await emailOf(buyer);
    const secondDevice = await signInDesktop(f.t, f.env.smtp, email);
    await addPasskey(buyer.userId, 'Phone');
    const mailsBefore = f.env.smtp.messages.length;

    const res = await f.call(buyer, 'DELETE', '/api/me');
    expect(res.statusCode).toBe(204);

    expect(f.panel.users.has(username)).toBe(false);
    expect(await f.count('vpn_accounts', { user_id: buyer.userId })).toBe(0);
    const profile = await db()('user_profiles').where({ id: buyer.userId }).first();
    expect(profile.email).toBeNull();
    const erased = await db()('erased_customers').where({ user_id: buyer.userId }).first();
    expect(erased.erased_at).not.toBeNull();
    expect(erased.email_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await f.count('sessions', { user_id: buyer.userId })).toBe(0);
    expect(await f.count('passkeys', { user_id: buyer.userId })).toBe(0);
    expect(await f.count('otp_codes', { email })).toBe(0);
    const payments = await db()('transactions').where({ user_id: buyer.userId });
    expect(payments).toEqual([expect.objectContaining({ status: 'succeeded', amount: 499, card_fingerprint: null })]);
    const audit = await db()('audit_log').where({ actor_id: buyer.userId });
    expect(audit.map((row: { action: string }) => row.action)).toContain('user.erased');
    expect(audit.every((row: { actor_email: string | null; ip: string | null }) => row.actor_email === null && row.ip === null)).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(email);

    for (const session of [buyer, secondDevice]) expect((await f.call(session, 'GET', '/api/me')).statusCode).toBe(401);
    const mail = await f.env.smtp.waitFor(email, { after: mailsBefore });
    expect(mail.subject).toMatch(/your account has been deleted/);
    expect(mailParts(mail).text).toContain('kept without your name or address');
  });

  it('keeps everything when a panel cannot be reached, and says so', async () => {
    const buyer = await f.newUser();
    const accountId = await f.buyAccount(buyer);
    f.panel.faults.down = true;
    try {
      const res = await f.call(buyer, 'DELETE', '/api/me');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: 'panel_error', message: expect.stringContaining('your account was not deleted') });
    } finally {
      f.panel.faults.down = false;
    }
    expect(await f.count('vpn_accounts', { id: accountId })).toBe(1);
    expect((await f.call(buyer, 'GET', '/api/me')).json().email).toMatch(/@example\.com$/);
  });

  it('refuses while a payment is open, and for a staff member', async () => {
    const buyer = await f.newUser();
    await f.checkout(buyer, { planId: f.paidPlanId });
    const open = await f.call(buyer, 'DELETE', '/api/me');
    expect(open.statusCode).toBe(409);
    expect(open.json().code).toBe('payment_open');
    expect(await f.count('sessions', { user_id: buyer.userId })).toBeGreaterThan(0);

    const staff = await f.call(f.admin, 'DELETE', '/api/me');
    expect(staff.statusCode).toBe(409);
    expect(staff.json().code).toBe('staff_account');
  });

  it('the same address signing up again after its trial is a new customer without a second trial', async () => {
    const email = `returning-${kind}@example.com`;
    const first = await signInDesktop(f.t, f.env.smtp, email);
    expect((await f.call(first, 'POST', '/api/accounts', { planId: f.trialPlanId })).statusCode).toBe(201);
    expect((await f.call(first, 'DELETE', '/api/me')).statusCode).toBe(204);

    const again = await signInDesktop(f.t, f.env.smtp, email);
    expect(again.userId).not.toBe(first.userId);
    expect((await f.call(again, 'GET', '/api/me')).json()).toMatchObject({ email, trialUsed: true });
    expect((await f.call(again, 'GET', '/api/me/export')).json().accounts).toEqual([]);
  });

  it('two deletions at once erase once', async () => {
    const buyer = await f.newUser();
    await f.buyAccount(buyer);
    const [a, b] = await Promise.all([f.call(buyer, 'DELETE', '/api/me'), f.call(buyer, 'DELETE', '/api/me')]);
    expect([a.statusCode, b.statusCode]).toContain(204);
    for (const res of [a, b]) expect([204, 401, 404]).toContain(res.statusCode);
    expect(await f.count('audit_log', { actor_id: buyer.userId, action: 'user.erased' })).toBe(1);
  });
});

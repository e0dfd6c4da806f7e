import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECOVERY_CODE_COUNT } from '../../../../shared/passkeys.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { createSoftAuthenticator, type SoftAuthenticator } from '../../../test/soft-authenticator.js';
import { bearer, buildTestApp, signInDesktop, TEST_ORIGIN, type DesktopSession, type TestApp } from '../../../test/test-app.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const RP = { origin: TEST_ORIGIN, rpId: new URL(TEST_ORIGIN).hostname };

describe.each(TEST_DATABASES)('staff passkeys (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let seq = 0;

  const api = (session: DesktopSession | null, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url, headers: session ? bearer(session.accessToken) : {}, ...(payload ? { payload } : {}) });
  const signIn = (email: string) => signInDesktop(t, env.smtp, email);
  const staffEmail = () => `staff-${(seq += 1)}-${kind}@example.com`;
  const rows = (table: string, where: object) => env.database.db(table).where(where);

  /** Registers `key` for the session: the answer of `POST /api/me/passkeys`. */
  async function enroll(session: DesktopSession, key: SoftAuthenticator, name = 'Laptop') {
    const options = await api(session, 'POST', '/api/me/passkeys/registration-options');
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json()).toMatchObject({ rp: { id: RP.rpId }, challenge: expect.any(String) });
    return api(session, 'POST', '/api/me/passkeys', { name, credential: key.register(options.json()) });
  }

  /** Proves `key` for the session: the answer of `POST /api/auth/passkey/verify`. */
  async function prove(session: DesktopSession, key: SoftAuthenticator) {
    const options = await api(session, 'POST', '/api/auth/passkey/options');
    expect(options.statusCode, options.body).toBe(200);
    return api(session, 'POST', '/api/auth/passkey/verify', { credential: key.authenticate(options.json()) });
  }

  /** A staff member with a registered passkey, signed in again with the e-mailed code alone. */
  async function staffWithPasskey() {
    const email = staffEmail();
    const first = await signIn(email);
    const key = createSoftAuthenticator(RP);
    const registered = await enroll(first, key);
    expect(registered.statusCode, registered.body).toBe(201);
    return { email, key, recoveryCodes: registered.json().recoveryCodes as string[], session: await signIn(email) };
  }

  beforeAll(async () => {
    // Every staff-<n> address is staff (ADMIN_EMAILS lists them; customers are anyone else).
    const staff = Array.from({ length: 40 }, (_, i) => `staff-${i + 1}-${kind}@example.com`).join(',');
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: staff } });
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('a staff member without a passkey opens the admin with the code alone, while passkeys are not required', async () => {
    const session = await signIn(staffEmail());
    expect((await api(session, 'GET', '/api/admin/settings')).statusCode).toBe(200);
    const mine = await api(session, 'GET', '/api/me/passkeys');
    expect(mine.json()).toEqual({ passkeys: [], sessionVerified: false, recoveryCodesLeft: 0, required: false });
  });

  it('registers a first passkey with 10 recovery codes shown once, and stores only their hashes', async () => {
    const session = await signIn(staffEmail());
    const key = createSoftAuthenticator(RP);
    const res = await enroll(session, key, 'My laptop');
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.passkey).toMatchObject({ name: 'My laptop', lastUsedAt: null });
    expect(body.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(body.recoveryCodes[0]).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const stored = await rows('passkey_recovery_codes', { user_id: session.userId });
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    expect(stored.map((row) => row.code_hash)).not.toContain(body.recoveryCodes[0]);
    expect(await rows('passkeys', { user_id: session.userId })).toEqual([expect.objectContaining({ credential_id: key.id, name: 'My laptop' })]);
    const mine = (await api(session, 'GET', '/api/me/passkeys')).json();
    expect(mine).toMatchObject({ passkeys: [{ id: body.passkey.id, name: 'My laptop' }], sessionVerified: true, recoveryCodesLeft: RECOVERY_CODE_COUNT });
    // A second passkey from the same (verified) session: no new recovery codes.
    const second = await enroll(session, createSoftAuthenticator(RP), 'Phone');
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().recoveryCodes).toBeUndefined();
    expect(await rows('passkey_recovery_codes', { user_id: session.userId })).toHaveLength(RECOVERY_CODE_COUNT);
  });

  it('refuses passkey routes signed out (401) and a malformed registration (400), saving nothing', async () => {
    for (const [method, url] of [
      ['GET', '/api/me/passkeys'],
      ['POST', '/api/me/passkeys/registration-options'],
      ['POST', '/api/me/passkeys'],
      ['DELETE', '/api/me/passkeys/x'],
      ['POST', '/api/auth/passkey/options'],
      ['POST', '/api/auth/passkey/verify'],
      ['POST', '/api/auth/passkey/recovery'],
    ] as const) {
      const res = await api(null, method, url, method === 'POST' ? {} : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    const session = await signIn(staffEmail());
    expect((await api(session, 'POST', '/api/me/passkeys', { credential: 'nope' })).json()).toMatchObject({ code: 'validation_failed' });
    expect((await api(session, 'POST', '/api/auth/passkey/verify', {})).json()).toMatchObject({ code: 'validation_failed' });
    expect((await api(session, 'POST', '/api/auth/passkey/recovery', { code: 1 })).json()).toMatchObject({ code: 'validation_failed' });
    // A well-formed answer to no challenge: refused.
    const noChallenge = await api(session, 'POST', '/api/me/passkeys', { credential: createSoftAuthenticator(RP).register({ challenge: 'made-up' }) });
    expect(noChallenge.statusCode).toBe(400);
    expect(noChallenge.json().code).toBe('passkey_invalid');
    expect(await rows('passkeys', { user_id: session.userId })).toEqual([]);
  });

  it('refuses a replayed challenge: the same registration or the same assertion sent twice', async () => {
    const email = staffEmail();
    const session = await signIn(email);
    const key = createSoftAuthenticator(RP);
    const options = (await api(session, 'POST', '/api/me/passkeys/registration-options')).json();
    const credential = key.register(options);
    expect((await api(session, 'POST', '/api/me/passkeys', { credential })).statusCode).toBe(201);
    const again = await api(session, 'POST', '/api/me/passkeys', { credential });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('passkey_invalid');
    expect(await rows('passkeys', { user_id: session.userId })).toHaveLength(1);

    const later = await signIn(email);
    const challenge = (await api(later, 'POST', '/api/auth/passkey/options')).json();
    const assertion = key.authenticate(challenge);
    expect((await api(later, 'POST', '/api/auth/passkey/verify', { credential: assertion })).statusCode).toBe(200);
    const replayed = await api(later, 'POST', '/api/auth/passkey/verify', { credential: assertion });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().code).toBe('passkey_invalid');
  });

  it('with a passkey, the code alone does not open the admin (403 passkey_required); the passkey does', async () => {
    const { key, session } = await staffWithPasskey();
    const refused = await api(session, 'GET', '/api/admin/settings');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('passkey_required');
    // Their own pages are not the admin.
    expect((await api(session, 'GET', '/api/me')).statusCode).toBe(200);
    expect((await api(session, 'GET', '/api/accounts')).statusCode).toBe(200);
    const verified = await prove(session, key);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toEqual({ verified: true });
    expect((await api(session, 'GET', '/api/admin/settings')).statusCode).toBe(200);
    expect((await rows('passkeys', { credential_id: key.id }).first()).last_used_at).not.toBeNull();
    expect(await rows('audit_log', { actor_id: session.userId, action: 'passkey.verify' })).toHaveLength(1);
  });

  it("refuses someone else's passkey, an answer from another origin, and an unverified session changing passkeys", async () => {
    const mine = await staffWithPasskey();
    const theirs = await staffWithPasskey();
    const options = (await api(mine.session, 'POST', '/api/auth/passkey/options')).json();
    const foreign = await api(mine.session, 'POST', '/api/auth/passkey/verify', { credential: theirs.key.authenticate(options) });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().code).toBe('passkey_invalid');
    const elsewhere = (await api(mine.session, 'POST', '/api/auth/passkey/options')).json();
    const phished = await api(mine.session, 'POST', '/api/auth/passkey/verify', {
      credential: mine.key.authenticate(elsewhere, { origin: 'https://evil.example' }),
    });
    expect(phished.statusCode).toBe(400);
    expect((await api(mine.session, 'GET', '/api/admin/settings')).json().code).toBe('passkey_required');
    // Adding another passkey or deleting one needs the passkey first.
    expect((await api(mine.session, 'POST', '/api/me/passkeys/registration-options')).json().code).toBe('passkey_required');
    const [row] = await rows('passkeys', { credential_id: mine.key.id });
    expect((await api(mine.session, 'DELETE', `/api/me/passkeys/${row.id}`)).json().code).toBe('passkey_required');
    expect(await rows('passkeys', { id: row.id })).toHaveLength(1);
  });

  it("deletes the caller's own passkey once verified (someone else's is 404), and the last one takes the recovery codes", async () => {
    const mine = await staffWithPasskey();
    const theirs = await staffWithPasskey();
    const [own] = await rows('passkeys', { credential_id: mine.key.id });
    const [other] = await rows('passkeys', { credential_id: theirs.key.id });
    expect((await prove(mine.session, mine.key)).statusCode).toBe(200);
    const foreign = await api(mine.session, 'DELETE', `/api/me/passkeys/${other.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(await rows('passkeys', { id: other.id })).toHaveLength(1);
    expect((await api(mine.session, 'DELETE', '/api/me/passkeys/no-such-id')).statusCode).toBe(404);
    expect((await api(mine.session, 'DELETE', `/api/me/passkeys/${own.id}`)).statusCode).toBe(204);
    expect(await rows('passkeys', { user_id: mine.session.userId })).toEqual([]);
    expect(await rows('passkey_recovery_codes', { user_id: mine.session.userId })).toEqual([]);
    // With no passkey left (and none required), the code alone opens the admin again.
    expect((await api(await signIn(mine.email), 'GET', '/api/admin/settings')).statusCode).toBe(200);
  });

  it('one recovery code sent from two sessions at once verifies one of them', async () => {
    const { email, recoveryCodes, session } = await staffWithPasskey();
    const other = await signIn(email);
    const code = recoveryCodes[5]!;
    const answers = await Promise.all([session, other].map((each) => api(each, 'POST', '/api/auth/passkey/recovery', { code })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    expect(await rows('passkey_recovery_codes', { user_id: session.userId }).whereNotNull('used_at')).toHaveLength(1);
  });

  it('a recovery code verifies the session instead of the passkey, once', async () => {
    const { email, recoveryCodes, session } = await staffWithPasskey();
    const code = recoveryCodes[3]!;
    const used = await api(session, 'POST', '/api/auth/passkey/recovery', { code: code.toLowerCase().replaceAll('-', ' ') });
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json()).toEqual({ verified: true, recoveryCodesLeft: RECOVERY_CODE_COUNT - 1 });
    expect((await api(session, 'GET', '/api/admin/settings')).statusCode).toBe(200);
    const next = await signIn(email);
    const again = await api(next, 'POST', '/api/auth/passkey/recovery', { code });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('recovery_code_invalid');
    expect((await api(next, 'GET', '/api/admin/settings')).json().code).toBe('passkey_required');
    // Someone else's code is no code of theirs.
    const other = await staffWithPasskey();
    const foreign = await api(next, 'POST', '/api/auth/passkey/recovery', { code: other.recoveryCodes[0]! });
    expect(foreign.json().code).toBe('recovery_code_invalid');
    expect(await rows('passkey_recovery_codes', { user_id: other.session.userId }).whereNotNull('used_at')).toEqual([]);
  });

  it('customers are never asked: their pages work with or without a passkey, and the admin stays 403 forbidden', async () => {
    const customer = await signIn(`customer-${kind}@example.com`);
    const key = createSoftAuthenticator(RP);
    expect((await enroll(customer, key)).statusCode).toBe(201);
    const again = await signIn(`customer-${kind}@example.com`);
    expect((await api(again, 'GET', '/api/accounts')).statusCode).toBe(200);
    expect((await api(again, 'GET', '/api/me/passkeys')).json()).toMatchObject({ sessionVerified: false });
    const admin = await api(again, 'GET', '/api/admin/settings');
    expect(admin.statusCode).toBe(403);
    expect(admin.json().code).not.toMatch(/passkey/);
  });

  describe('required by the owner, and the step-up', () => {
    let owner: Awaited<ReturnType<typeof staffWithPasskey>>;

    beforeAll(async () => {
      owner = await staffWithPasskey();
      expect((await prove(owner.session, owner.key)).statusCode).toBe(200);
    });
    afterAll(async () => {
      expect((await prove(owner.session, owner.key)).statusCode).toBe(200);
      await api(owner.session, 'PUT', '/api/admin/settings', { staffPasskeysRequired: false, refundStepUpAbove: 0 });
    });

    it('with passkeys required, a staff member without one gets passkey_setup_required until they add one', async () => {
      const saved = await api(owner.session, 'PUT', '/api/admin/settings', { staffPasskeysRequired: true });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().staffPasskeysRequired).toBe(true);
      const newcomer = await signIn(staffEmail());
      const refused = await api(newcomer, 'GET', '/api/admin/users');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('passkey_setup_required');
      expect((await api(newcomer, 'GET', '/api/me/passkeys')).json()).toMatchObject({ required: true, passkeys: [] });
      expect((await enroll(newcomer, createSoftAuthenticator(RP))).statusCode).toBe(201);
      expect((await api(newcomer, 'GET', '/api/admin/users')).statusCode).toBe(200);
      // Customers still sign in with the code alone.
      expect((await api(await signIn(`customer-2-${kind}@example.com`), 'GET', '/api/accounts')).statusCode).toBe(200);
    });

    it('a refund over the set amount asks for the passkey again (step_up_required); after it, the refund is made', async () => {
      expect((await prove(owner.session, owner.key)).statusCode).toBe(200);
      expect((await api(owner.session, 'PUT', '/api/admin/settings', { refundStepUpAbove: 100 })).json().refundStepUpAbove).toBe(100);
      const customer = await signIn(`refunded-${kind}@example.com`);
      const now = new Date();
      await env.database
        .db('subscriptions')
        .insert({ id: `sub-${kind}`, user_id: customer.userId, status: 'active', metadata: '{}', created_at: now, updated_at: now });
      await env.database.db('transactions').insert({
        id: `tx-${kind}`,
        subscription_id: `sub-${kind}`,
        user_id: customer.userId,
        status: 'succeeded',
        amount: 499,
        currency: 'usd',
        provider_payment_id: `pay-${kind}`,
        metadata: '{}',
        created_at: now,
        updated_at: now,
      });
      const refund = (amount: number) => ({ amount, destination: 'manual', note: 'Paid back in cash', reason: 'requested_by_customer' });
      t.clock.advance(6 * 60);
      // Under the amount: no question.
      const small = await api(owner.session, 'POST', `/api/admin/transactions/tx-${kind}/refund`, refund(100));
      expect(small.statusCode, small.body).toBe(200);
      const large = await api(owner.session, 'POST', `/api/admin/transactions/tx-${kind}/refund`, refund(300));
      expect(large.statusCode).toBe(403);
      expect(large.json().code).toBe('step_up_required');
      expect(await rows('refunds', { transaction_id: `tx-${kind}` })).toHaveLength(1);
      expect((await prove(owner.session, owner.key)).statusCode).toBe(200);
      const made = await api(owner.session, 'POST', `/api/admin/transactions/tx-${kind}/refund`, refund(300));
      expect(made.statusCode, made.body).toBe(200);
      expect(await rows('refunds', { transaction_id: `tx-${kind}` })).toHaveLength(2);
    });

    it('changing payment keys asks for the passkey again once the last proof is over 5 minutes old', async () => {
      expect((await prove(owner.session, owner.key)).statusCode).toBe(200);
      expect((await api(owner.session, 'PUT', '/api/admin/payments/card', { enabled: false })).statusCode).toBe(200);
      t.clock.advance(5 * 60 + 1);
      const stale = await api(owner.session, 'PUT', '/api/admin/payments/card', { enabled: false });
      expect(stale.statusCode).toBe(403);
      expect(stale.json().code).toBe('step_up_required');
      // Reading is not a change.
      expect((await api(owner.session, 'GET', '/api/admin/payments/card')).statusCode).toBe(200);
      // Nor can the passkey rules be loosened without it.
      const loosened = await api(owner.session, 'PUT', '/api/admin/settings', { staffPasskeysRequired: false });
      expect(loosened.json().code).toBe('step_up_required');
      expect((await api(owner.session, 'GET', '/api/admin/settings')).json().staffPasskeysRequired).toBe(true);
      const yookassa = await api(owner.session, 'PUT', '/api/admin/payments/yookassa', { enabled: false });
      expect(yookassa.json().code).toBe('step_up_required');
    });
  });
});

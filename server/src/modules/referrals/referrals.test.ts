import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REFERRAL_COOKIE } from '../../../../shared/referrals.js';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { stripePeriodEnd, subscribeToRecurring } from '../../../test/recurring-subscriber.js';
import { SWEEP_REFERRAL_CREDIT } from '../billing/recurring/credit-push.js';
import { TEST_ORIGIN } from '../../../test/test-app.js';
import {
  DAY_S,
  OTHER_CARD,
  PROGRAMME,
  buy,
  buyAccount,
  detailsOf,
  later,
  myReferrals,
  referralOf,
  setProgramme,
  signIn,
  signUp,
} from '../../../test/referral-kit.js';

describe.each(TEST_DATABASES)('referrals (%s)', (kind) => {
  const f = useBillingFixture(kind);

  it('admin: reads and sets the programme; customers and strangers are refused; nonsense is refused by field', async () => {
    const user = await f.newUser();
    expect((await f.call(null, 'GET', '/api/admin/referrals/settings')).statusCode).toBe(401);
    expect((await f.call(user, 'PUT', '/api/admin/referrals/settings', PROGRAMME)).statusCode).toBe(403);
    expect((await f.call(user, 'GET', '/api/admin/referrals')).statusCode).toBe(403);
    expect((await f.call(f.admin, 'GET', '/api/admin/referrals/settings')).json()).toEqual({
      enabled: false,
      referredBenefit: { kind: 'none' },
      reward: { kind: 'percent', percent: 10, months: 12 },
      refundWindowDays: 14,
    });

    for (const [body, field] of [
      [{ reward: { kind: 'percent', percent: 0, months: 3 } }, 'reward.percent'],
      [{ reward: { kind: 'percent', percent: 20 } }, 'reward.months'],
      [{ reward: { kind: 'fixed', amount: -1 } }, 'reward.amount'],
      [{ refundWindowDays: -1 }, 'refundWindowDays'],
      [{ referredBenefit: { kind: 'discount', percentOff: 0 } }, 'referredBenefit.percentOff'],
      [{ enabled: 'yes' }, 'enabled'],
    ] as const) {
      const res = await f.call(f.admin, 'PUT', '/api/admin/referrals/settings', { ...PROGRAMME, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields), JSON.stringify(body)).toContain(field);
    }
    expect((await f.call(f.admin, 'GET', '/api/admin/referrals/settings')).json().enabled).toBe(false);

    expect(await setProgramme(f, { reward: { kind: 'fixed', amount: 300 } })).toEqual({
      ...PROGRAMME,
      reward: { kind: 'fixed', amount: 300, currency: 'usd' },
    });
    expect(await f.count('audit_log', { action: 'referral.settings_updated' })).toBeGreaterThan(0);
  });

  it('a link: its cookie for 30 days, the sign-up attributed once; not an existing customer, not oneself', async () => {
    await setProgramme(f);
    const referrer = await f.newUser();
    expect((await f.call(null, 'GET', '/api/referrals/me')).statusCode).toBe(401);
    const mine = await myReferrals(f, referrer);
    expect(mine).toMatchObject({
      enabled: true,
      code: expect.stringMatching(/^[A-Z2-9]{8}$/),
      signedUp: 0,
      paid: 0,
      credit: [],
      movements: [],
      terms: { reward: PROGRAMME.reward, refundWindowDays: 14 },
    });
    expect(mine.link).toBe(`${TEST_ORIGIN}/r/${mine.code}`);
    expect((await myReferrals(f, referrer)).code).toBe(mine.code);

    const visit = await f.t.app.inject({ method: 'GET', url: `/r/${mine.code.toLowerCase()}` });
    expect(visit.statusCode).toBe(302);
    expect(visit.headers.location).toBe('/');
    const cookie = visit.cookies.find((c) => c.name === REFERRAL_COOKIE)!;
    expect(cookie).toMatchObject({ value: mine.code, maxAge: 30 * DAY_S, httpOnly: true, sameSite: 'Lax', path: '/' });
    const unknown = await f.t.app.inject({ method: 'GET', url: '/r/NOSUCHCODE' });
    expect(unknown.statusCode).toBe(302);
    expect(unknown.cookies).toEqual([]);

    const byCookie = await signUp(f, { cookie: cookie.value });
    const byBody = await signUp(f, { code: mine.code });
    expect(await referralOf(f, byCookie.userId)).toMatchObject({ referrer_id: referrer.userId, status: 'active', hold_reason: null });
    expect(await referralOf(f, byBody.userId)).toMatchObject({ referrer_id: referrer.userId, status: 'active' });
    // An existing customer signing in with a code, a made-up code, oneself: nothing.
    const existing = await f.newUser();
    const { email } = await f.env.database.db('user_profiles').where({ id: existing.userId }).first();
    const after = f.env.smtp.messages.length;
    await f.t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email } });
    await f.env.smtp.waitFor(email, { after });
    f.t.clock.advance(61);
    const again = await f.t.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { email, code: await f.env.smtp.latestCode(email), client: 'desktop', referralCode: mine.code },
    });
    expect(again.statusCode).toBe(200);
    expect(await referralOf(f, existing.userId)).toBeUndefined();
    const stranger = await signUp(f, { code: 'ZZZZZZZZ' });
    expect(await referralOf(f, stranger.userId)).toBeUndefined();
    const garbage = await signUp(f, { code: '<script>' });
    expect(await referralOf(f, garbage.userId)).toBeUndefined();
    expect((await myReferrals(f, referrer)).signedUp).toBe(2);
  });

  it("tells a visitor of a friend's invitation: by the link's cookie signed out, by the referral signed in until the first payment", async () => {
    await setProgramme(f, { referredBenefit: { kind: 'days', days: 7 } });
    const referrer = await f.newUser();
    const { code } = await myReferrals(f, referrer);
    const ask = (headers: Record<string, string> = {}) => f.t.app.inject({ method: 'GET', url: '/api/referrals/invitation', headers });
    const stranger = await ask();
    expect(stranger.statusCode).toBe(200);
    expect(stranger.headers['cache-control']).toContain('no-store');
    expect(stranger.json()).toEqual({ invited: false, benefit: { kind: 'none' } });
    expect((await ask({ cookie: `${REFERRAL_COOKIE}=NOSUCHCO` })).json().invited).toBe(false);
    expect((await ask({ cookie: `${REFERRAL_COOKIE}=${code}` })).json()).toEqual({ invited: true, benefit: { kind: 'days', days: 7 } });

    // Signed in: the referral's own terms, until the first payment.
    const friend = await signUp(f, { cookie: code });
    const asFriend = () => f.call(friend, 'GET', '/api/referrals/invitation');
    expect((await asFriend()).json()).toEqual({ invited: true, benefit: { kind: 'days', days: 7 } });
    expect((await f.call(referrer, 'GET', '/api/referrals/invitation')).json().invited).toBe(false);

    // A programme that gives the friend nothing: the invitation only; switched off: nothing for a new visitor.
    await setProgramme(f, { referredBenefit: { kind: 'none' } });
    expect((await ask({ cookie: `${REFERRAL_COOKIE}=${code}` })).json()).toEqual({ invited: true, benefit: { kind: 'none' } });
    await setProgramme(f, { enabled: false });
    expect((await ask({ cookie: `${REFERRAL_COOKIE}=${code}` })).json().invited).toBe(false);
    await setProgramme(f);
  });

  it('the referred customer pays: 20 % pending for the window, then available; a refund inside the window cancels it', async () => {
    await setProgramme(f);
    const referrer = await signUp(f);
    const { code } = await myReferrals(f, referrer);
    const referred = await signUp(f, { code });
    const payment = await buy(f, referred);

    const pending = await myReferrals(f, referrer);
    expect(pending).toMatchObject({ signedUp: 1, paid: 1, credit: [{ currency: 'usd', pending: 99, available: 0 }] });
    expect(pending.movements).toEqual([expect.objectContaining({ kind: 'earned', amount: 99, currency: 'usd' })]);
    const earned = await f.env.database.db('wallet_movements').where({ user_id: referrer.userId }).first();
    const audit = await f.env.database.db('audit_log').where({ action: 'referral.credit_earned', target_id: referrer.userId }).select('details');
    expect(audit.map((row: { details: unknown }) => detailsOf(row.details))).toEqual([
      expect.objectContaining({ creditId: earned.id, amount: 99, transactionId: expect.any(String) }),
    ]);
    // The referred customer sees none of it.
    expect((await myReferrals(f, referred)).credit).toEqual([]);

    // Another referred customer, refunded inside the window: cancelled, and it never matures.
    const second = await signUp(f, { code });
    const secondPayment = await buy(f, second);
    expect((await myReferrals(f, referrer)).credit).toEqual([{ currency: 'usd', pending: 198, available: 0 }]);
    await later(f, 3 * 86_400, async () => {
      await f.stripe.refund(secondPayment);
      await f.runJobs();
      const after = await myReferrals(f, await signIn(f, referrer.email));
      expect(after.credit).toEqual([{ currency: 'usd', pending: 99, available: 0 }]);
      expect(after.movements[0]).toMatchObject({ kind: 'cancelled', amount: -99, note: 'refunded' });
    });

    // After the window: the first is available; a refund after the window leaves it.
    await later(f, 15 * 86_400, async () => {
      const again = await signIn(f, referrer.email);
      expect((await myReferrals(f, again)).credit).toEqual([{ currency: 'usd', pending: 0, available: 99 }]);
      await f.stripe.refund(payment);
      await f.runJobs();
      expect((await myReferrals(f, again)).credit).toEqual([{ currency: 'usd', pending: 0, available: 99 }]);
    });
  });

  it('a dispute cancels a pending reward; won, it is back; a fixed reward is paid on the first payment only', async () => {
    await setProgramme(f, { reward: { kind: 'fixed', amount: 300 } });
    const referrer = await f.newUser();
    const { code } = await myReferrals(f, referrer);
    const referred = await signUp(f, { code });
    const payment = await buy(f, referred);
    expect((await myReferrals(f, referrer)).credit).toEqual([{ currency: 'usd', pending: 300, available: 0 }]);
    const opened = await f.stripe.openDispute(payment);
    expect((await myReferrals(f, referrer)).credit).toEqual([]);
    await f.stripe.closeDispute((opened.data.object as { id: string }).id, 'won');
    expect((await myReferrals(f, referrer)).credit).toEqual([{ currency: 'usd', pending: 300, available: 0 }]);
    expect((await myReferrals(f, referrer)).movements.map((m: { kind: string }) => m.kind)).toEqual(['reinstated', 'cancelled', 'earned']);

    // The second payment earns nothing under a fixed reward.
    await buy(f, referred);
    expect((await myReferrals(f, referrer)).credit).toEqual([{ currency: 'usd', pending: 300, available: 0 }]);
  });

  it('the same card: held with "same card", no credit; the admin sees it, releases it (credit written) or voids it', async () => {
    await setProgramme(f);
    const referrer = await f.newUser();
    const { code } = await myReferrals(f, referrer);
    await buy(f, referrer, '5555 5555 5555 4444');
    const referred = await signUp(f, { code });
    await buy(f, referred, '5555 5555 5555 4444');

    expect(await referralOf(f, referred.userId)).toMatchObject({ status: 'held', hold_reason: 'same_card' });
    expect(await myReferrals(f, referrer)).toMatchObject({ signedUp: 1, paid: 1, credit: [] });
    const page = (await f.call(f.admin, 'GET', '/api/admin/referrals?status=held')).json();
    const held = page.referrals.find((r: { referred: { id: string } }) => r.referred.id === referred.userId);
    expect(held).toMatchObject({ status: 'held', holdReason: 'same_card', referrer: { id: referrer.userId }, earned: [] });
    expect(page.counts.held).toBeGreaterThan(0);
    expect(page.top.find((t: { user: { id: string } }) => t.user.id === referrer.userId)).toMatchObject({ signedUp: 1, paid: 1, held: 1 });

    const user = await f.newUser();
    expect((await f.call(user, 'POST', `/api/admin/referrals/${held.id}/release`)).statusCode).toBe(403);
    expect((await f.call(f.admin, 'POST', '/api/admin/referrals/nope/release')).statusCode).toBe(404);
    expect((await f.call(f.admin, 'GET', '/api/admin/referrals?status=nope')).statusCode).toBe(400);
    expect((await f.call(f.admin, 'POST', `/api/admin/referrals/${held.id}/release`)).statusCode).toBe(204);
    expect((await f.call(f.admin, 'POST', `/api/admin/referrals/${held.id}/release`)).json().code).toBe('referral_not_held');
    expect((await myReferrals(f, referrer)).credit).toEqual([{ currency: 'usd', pending: 99, available: 0 }]);
    // Released: the next payment earns without the checks.
    await buy(f, referred, '5555 5555 5555 4444');
    expect((await myReferrals(f, referrer)).credit).toEqual([{ currency: 'usd', pending: 198, available: 0 }]);

    expect((await f.call(f.admin, 'POST', `/api/admin/referrals/${held.id}/void`)).statusCode).toBe(204);
    expect((await myReferrals(f, referrer)).credit).toEqual([]);
    await buy(f, referred);
    expect((await myReferrals(f, referrer)).credit).toEqual([]);
    const actions = (await f.env.database.db('audit_log').where({ target_id: held.id }).orderBy('id').select('action')).map(
      (row: { action: string }) => row.action,
    );
    expect(actions).toEqual(['referral.signed_up', 'referral.held', 'referral.released', 'referral.voided']);
  });

  it('the same address within a day, or the same device: held at once', async () => {
    await setProgramme(f);
    const referrer = await f.newUser(); // signed in from 127.0.0.1
    const { code } = await myReferrals(f, referrer);
    const sameAddress = await signUp(f, { code, ip: '127.0.0.1' });
    expect(await referralOf(f, sameAddress.userId)).toMatchObject({ status: 'held', hold_reason: 'same_address' });
    await buy(f, sameAddress);
    expect((await myReferrals(f, referrer)).credit).toEqual([]);

    // Two days later the same address is another household's (a shared exit, a café).
    await later(f, 2 * DAY_S, async () => {
      const next = await signUp(f, { code, ip: '127.0.0.1' });
      expect(await referralOf(f, next.userId)).toMatchObject({ status: 'active' });
    });

    // The two customers' VPN clients announce one device id on /sub.
    const referrerAccount = (await buyAccount(f, referrer, '4242 4242 4242 4242')).accountId;
    const other = await signUp(f, { code });
    const otherAccount = (await buyAccount(f, other, OTHER_CARD)).accountId;
    expect(await referralOf(f, other.userId)).toMatchObject({ status: 'active' });
    const db = f.env.database.db;
    const now = new Date(f.t.clock.now());
    for (const accountId of [referrerAccount, otherAccount]) {
      await db('account_devices').insert({
        id: randomUUID(),
        vpn_account_id: accountId,
        hwid: `hw-${referrerAccount.slice(0, 8)}`,
        first_seen_at: now,
        last_seen_at: now,
      });
    }
    await buy(f, other);
    expect(await referralOf(f, other.userId)).toMatchObject({ status: 'held', hold_reason: 'same_device' });
  });

  it('one person found only after a payment earned (the same device seen later): the hold takes back what it earned, pending or available; released, it comes back', async () => {
    await setProgramme(f);
    const db = f.env.database.db;
    const shareDevice = async (accounts: string[]) => {
      const now = new Date(f.t.clock.now());
      const hwid = `hw-${randomUUID().slice(0, 8)}`;
      for (const accountId of accounts)
        await db('account_devices').insert({ id: randomUUID(), vpn_account_id: accountId, hwid, first_seen_at: now, last_seen_at: now });
    };
    const referrerWithFriend = async () => {
      const referrer = await signUp(f);
      const referrerAccount = (await buyAccount(f, referrer, '4242 4242 4242 4242')).accountId;
      const { code } = await myReferrals(f, referrer);
      const friend = await signUp(f, { code });
      const friendAccount = (await buyAccount(f, friend, OTHER_CARD)).accountId;
      expect(await referralOf(f, friend.userId)).toMatchObject({ status: 'active' });
      expect((await myReferrals(f, referrer)).credit).toEqual([{ currency: 'usd', pending: 99, available: 0 }]);
      return { referrer, friend, accounts: [referrerAccount, friendAccount] };
    };

    // Pending: taken back whole; released, it comes back (and the payment that found it earns too).
    const one = await referrerWithFriend();
    await shareDevice(one.accounts);
    await buy(f, one.friend);
    expect(await referralOf(f, one.friend.userId)).toMatchObject({ status: 'held', hold_reason: 'same_device' });
    const held = await myReferrals(f, one.referrer);
    expect(held.credit).toEqual([]);
    expect(held.movements.map((m: { kind: string; amount: number; note: string | null }) => [m.kind, m.amount, m.note])).toEqual([
      ['cancelled', -99, 'held'],
      ['earned', 99, null],
    ]);
    const id = (await referralOf(f, one.friend.userId)).id;
    expect((await f.call(f.admin, 'POST', `/api/admin/referrals/${id}/release`)).statusCode).toBe(204);
    expect((await myReferrals(f, one.referrer)).credit).toEqual([{ currency: 'usd', pending: 198, available: 0 }]);
    // Released twice over (void, then released again) gives nothing back twice.
    expect((await f.call(f.admin, 'POST', `/api/admin/referrals/${id}/void`)).statusCode).toBe(204);
    expect((await f.call(f.admin, 'POST', `/api/admin/referrals/${id}/release`)).statusCode).toBe(204);
    expect(await f.count('wallet_movements', { referral_id: id, kind: 'reinstated' })).toBe(1);

    // Available (the refund window over): taken back too. Spent already: the balance never goes below zero.
    const two = await referrerWithFriend();
    const three = await referrerWithFriend();
    await later(f, 15 * DAY_S, async () => {
      const referrerTwo = await signIn(f, two.referrer.email);
      expect((await myReferrals(f, referrerTwo)).credit).toEqual([{ currency: 'usd', pending: 0, available: 99 }]);
      await shareDevice(two.accounts);
      await buy(f, await signIn(f, two.friend.email));
      expect(await referralOf(f, two.friend.userId)).toMatchObject({ status: 'held', hold_reason: 'same_device' });
      const after = await myReferrals(f, referrerTwo);
      expect(after.credit).toEqual([]);
      expect(after.movements[0]).toMatchObject({ kind: 'cancelled', amount: -99, note: 'held' });

      const referrerThree = await signIn(f, three.referrer.email);
      await buy(f, referrerThree, '4242 4242 4242 4242'); // the 99 available pays part of it
      expect(await f.count('wallet_movements', { user_id: three.referrer.userId, kind: 'spent' })).toBe(1);
      await shareDevice(three.accounts);
      await buy(f, await signIn(f, three.friend.email));
      expect(await referralOf(f, three.friend.userId)).toMatchObject({ status: 'held', hold_reason: 'same_device' });
      expect((await myReferrals(f, referrerThree)).credit).toEqual([]);
      expect(await f.count('wallet_movements', { user_id: three.referrer.userId, kind: 'cancelled' })).toBe(0);
    });
  });

  it("the referred customer's first payment has the referral discount by itself; a typed code replaces it; nobody else has it", async () => {
    await setProgramme(f, { referredBenefit: { kind: 'discount', percentOff: 20 } });
    const referrer = await f.newUser();
    const { code } = await myReferrals(f, referrer);
    const referred = await signUp(f, { code });

    // Asked as often as the dialog opens: a quote without a code guesses nothing and is not counted.
    for (let i = 0; i < 12; i += 1) expect((await f.call(referred, 'POST', '/api/checkout/quote', { planId: f.paidPlanId })).statusCode).toBe(200);
    const quote = (await f.call(referred, 'POST', '/api/checkout/quote', { planId: f.paidPlanId })).json();
    expect(quote).toEqual({
      planId: f.paidPlanId,
      currency: 'usd',
      amount: 499,
      total: 399,
      discount: 100,
      credit: 0,
      bonusDays: 0,
      promo: { code: 'REFERRAL-20', duration: 'once', durationMonths: null, percentOff: 20, amountOff: null, referral: true },
    });
    // The programme's code cannot be typed.
    const typed = await f.call(referred, 'POST', '/api/checkout/quote', { planId: f.paidPlanId, promoCode: 'REFERRAL-20' });
    expect(typed.json()).toMatchObject({ code: 'promo_invalid', reason: 'not_found' });
    // Someone not referred, or referred from the referrer's own address (held), pays the list price.
    const stranger = await f.newUser();
    expect((await f.call(stranger, 'POST', '/api/checkout/quote', { planId: f.paidPlanId })).json()).toMatchObject({ total: 499, promo: null });
    const sameHome = await signUp(f, { code, ip: '127.0.0.1' });
    expect((await f.call(sameHome, 'POST', '/api/checkout/quote', { planId: f.paidPlanId })).json()).toMatchObject({ total: 499, promo: null });

    const started = await f.checkout(referred, { planId: f.paidPlanId });
    expect(f.stripe.getSession(started.sessionId)).toMatchObject({ amount_subtotal: 499, amount_total: 399, metadata: { promo_code: 'REFERRAL-20' } });
    await f.stripe.pay(started.sessionId, { card: OTHER_CARD });
    await f.runJobs();
    const [transaction] = (await f.call(referred, 'GET', '/api/transactions')).json();
    expect(transaction).toMatchObject({ status: 'succeeded', amount: 399, promo: { code: 'REFERRAL-20', amountBefore: 499, discount: 100 } });
    // The referrer earns on what was paid.
    expect((await myReferrals(f, referrer)).credit).toEqual([{ currency: 'usd', pending: 79, available: 0 }]);
    // The first payment only.
    expect((await f.call(referred, 'POST', '/api/checkout/quote', { planId: f.paidPlanId })).json()).toMatchObject({ total: 499, promo: null });
    const codes = (await f.call(f.admin, 'GET', '/api/admin/promo-codes')).json();
    expect(codes.find((c: { code: string }) => c.code === 'REFERRAL-20')).toMatchObject({
      referral: true,
      percentOff: 20,
      duration: 'once',
      oncePerCustomer: true,
      paidCount: 1,
    });

    // A typed code replaces the referral discount.
    const other = await signUp(f, { code });
    const created = await f.call(f.admin, 'POST', '/api/admin/promo-codes', { code: `HALF${kind}`, percentOff: 50, duration: 'once' });
    expect(created.statusCode, created.body).toBe(201);
    const half = await f.checkout(other, { planId: f.paidPlanId, promoCode: `HALF${kind}` });
    expect(f.stripe.getSession(half.sessionId)).toMatchObject({ amount_subtotal: 499, amount_total: 249, metadata: { promo_code: `HALF${kind}` } });
  });

  it("after the refund window the credit goes to the referrer's card account: their next renewal is charged that much less", async () => {
    await setProgramme(f);
    const referrer = await signUp(f);
    const subscriber = await subscribeToRecurring(f, referrer);
    const { code } = await myReferrals(f, referrer);
    const referred = await signUp(f, { code });
    await buy(f, referred);
    const sweep = async () => {
      await f.t.app.services.jobs.enqueue({ type: SWEEP_REFERRAL_CREDIT, payload: {} }, new Date(f.t.clock.now()));
      await f.runJobs();
    };
    // Pending credit stays with us.
    await sweep();
    expect(f.stripe.getCustomer(subscriber.customer)!.balance).toBe(0);

    await later(f, 15 * 86_400, async () => {
      // Two moves at once (two instances' workers): the user's row lock lets one credit through.
      await Promise.all([f.t.app.services.creditPush.push(referrer.userId), f.t.app.services.creditPush.push(referrer.userId)]);
      // And the sweep after: nothing left to move.
      await sweep();
      const again = await signIn(f, referrer.email);
      const mine = await myReferrals(f, again);
      expect(mine.credit).toEqual([]);
      expect(mine.movements[0]).toMatchObject({ kind: 'spent', amount: -99, note: 'provider_balance' });
    });
    expect(f.stripe.getCustomer(subscriber.customer)!.balance).toBe(-99);
    const moved = await f.env.database.db('wallet_movements').where({ user_id: referrer.userId, kind: 'spent' });
    expect(moved).toHaveLength(1);
    expect(moved[0].provider_ref).toMatch(/^cbtxn_/);
    // The process died after Stripe took the credit and before we noted it: sent again with the same key, credited once.
    await f.env.database.db('wallet_movements').where({ id: moved[0].id }).update({ provider_ref: null });
    await later(f, 16 * 86_400, sweep);
    expect(f.stripe.getCustomer(subscriber.customer)!.balance).toBe(-99);
    expect((await f.env.database.db('wallet_movements').where({ id: moved[0].id }).first()).provider_ref).toBe(moved[0].provider_ref);
    expect(await f.count('wallet_movements', { user_id: referrer.userId, kind: 'spent' })).toBe(1);

    await f.stripe.advanceClock(subscriber.clock, stripePeriodEnd(f, subscriber) + 2 * 3600);
    await f.runJobs();
    const invoices = f.stripe.listInvoices(subscriber.stripeSubscription);
    expect(invoices.map((invoice) => [invoice.total, invoice.amount_paid, invoice.starting_balance, invoice.ending_balance])).toEqual([
      [499, 499, 0, 0],
      [499, 400, -99, 0],
    ]);
    expect(f.stripe.getCustomer(subscriber.customer)!.balance).toBe(0);
    const renewal = (await f.call(referrer, 'GET', '/api/transactions')).json().find((t: { renewal: boolean }) => t.renewal);
    expect(renewal).toMatchObject({ renewal: true, amount: 400, status: 'succeeded' });
    const row = await f.env.database.db('transactions').where({ provider_invoice_id: invoices[1]!.id }).first();
    expect(detailsOf(row.metadata)).toMatchObject({ credit_applied: 99 });
  });

  it('a paid event delivered twice at once earns once', async () => {
    await setProgramme(f);
    const referrer = await f.newUser();
    const { code } = await myReferrals(f, referrer);
    const referred = await signUp(f, { code });
    const { sessionId } = await f.checkout(referred, { planId: f.paidPlanId });
    const completed = await f.payQuietly(() => f.stripe.pay(sessionId, { card: OTHER_CARD }));
    const delivery = f.stripe.signedDelivery(completed);
    const answers = await Promise.all([1, 2, 3].map(() => f.postWebhook(delivery.body, delivery.signature)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    await f.runJobs();
    expect(await f.count('wallet_movements', { user_id: referrer.userId, kind: 'earned' })).toBe(1);
    expect((await myReferrals(f, referrer)).credit).toEqual([{ currency: 'usd', pending: 99, available: 0 }]);
  });
});

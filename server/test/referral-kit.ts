import { expect } from 'vitest';
import { REFERRAL_COOKIE } from '../../shared/referrals.js';
import type { BillingFixture } from './billing-fixture.js';
import type { DesktopSession } from './test-app.js';

/**
 * What the referral tests do as customers and as the admin: set the programme, sign up through a link (from an
 * address of one's own), sign in again, pay, and read the Referrals page's figures.
 */
export const DAY_S = 86_400;
export const OTHER_CARD = '4000 0566 5566 5556';
let people = 0;
let addresses = 10;
/** An address no other customer of the file signed in from (so the same-address check finds nothing). */
export const freshAddress = () => `10.0.${Math.floor((addresses += 1) / 250)}.${addresses % 250}`;

export const PROGRAMME = {
  enabled: true,
  referredBenefit: { kind: 'none' },
  reward: { kind: 'percent', percent: 20, months: 3 },
  refundWindowDays: 14,
};

export async function setProgramme(f: BillingFixture, body: Record<string, unknown> = {}) {
  const res = await f.call(f.admin, 'PUT', '/api/admin/referrals/settings', { ...PROGRAMME, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A new customer signing up from `ip` with a referral code (in the body, as the desktop app sends it, or in the link's cookie). */
export async function signUp(f: BillingFixture, options: { code?: string; cookie?: string; ip?: string } = {}): Promise<DesktopSession & { email: string }> {
  const email = `referred${(people += 1)}-${f.env.database.kind}@example.com`;
  const remoteAddress = options.ip ?? freshAddress();
  const after = f.env.smtp.messages.length;
  expect((await f.t.app.inject({ method: 'POST', url: '/api/auth/otp', remoteAddress, payload: { email } })).statusCode).toBe(200);
  await f.env.smtp.waitFor(email, { after });
  f.t.clock.advance(61);
  const res = await f.t.app.inject({
    method: 'POST',
    url: '/api/auth/verify',
    remoteAddress,
    headers: options.cookie ? { cookie: `${REFERRAL_COOKIE}=${options.cookie}` } : {},
    payload: { email, code: await f.env.smtp.latestCode(email), client: 'desktop', ...(options.code ? { referralCode: options.code } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
  // The link's cookie has done its work.
  if (options.cookie) expect(res.cookies.find((c) => c.name === REFERRAL_COOKIE)).toMatchObject({ value: '', maxAge: 0, path: '/', httpOnly: true });
  const body = res.json();
  return { accessToken: body.accessToken, refreshToken: body.refreshToken, userId: body.user.id, email };
}

/** Signs in again (an access token lives 15 minutes: one from before the clock moved is no longer good). */
export async function signIn(f: BillingFixture, email: string): Promise<DesktopSession> {
  const after = f.env.smtp.messages.length;
  await f.t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email } });
  await f.env.smtp.waitFor(email, { after });
  f.t.clock.advance(61);
  const res = await f.t.app.inject({
    method: 'POST',
    url: '/api/auth/verify',
    payload: { email, code: await f.env.smtp.latestCode(email), client: 'desktop' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { accessToken: res.json().accessToken, refreshToken: res.json().refreshToken, userId: res.json().user.id };
}

/** Runs `check` `seconds` later, then turns the clock back (the other tests' sessions stay good). */
export async function later<T>(f: BillingFixture, seconds: number, check: () => Promise<T>): Promise<T> {
  f.t.clock.advance(seconds);
  try {
    return await check();
  } finally {
    f.t.clock.advance(-seconds);
  }
}

export const detailsOf = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

export async function myReferrals(f: BillingFixture, user: DesktopSession) {
  const res = await f.call(user, 'GET', '/api/referrals/me');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Buys the $4.99 plan with `card` and pays: the PaymentIntent. */
export async function buy(f: BillingFixture, user: DesktopSession, card = OTHER_CARD): Promise<string> {
  return (await buyAccount(f, user, card)).paymentIntent;
}

export async function buyAccount(f: BillingFixture, user: DesktopSession, card: string): Promise<{ paymentIntent: string; accountId: string }> {
  const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
  await f.stripe.pay(sessionId, { card });
  await f.runJobs();
  const session = f.stripe.getSession(sessionId)!;
  return { paymentIntent: session.payment_intent as string, accountId: session.metadata!.vpn_account_id! };
}

export const referralOf = (f: BillingFixture, referredId: string) => f.env.database.db('referrals').where({ referred_id: referredId }).first();

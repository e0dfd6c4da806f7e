import { randomUUID } from 'node:crypto';
import { REFERRAL_CODE_PATTERN, REFERRAL_PATH, type MyReferrals, type ReferralInvitation, type ReferredBenefit } from '../../../../shared/referrals.js';
import { newReferralCode, termsOf } from './referral-terms.js';
import { getReferralSettings, type ReferralsDeps } from './referrals-deps.js';

/**
 * The referral programme as customers meet it: their own link and credit, the referrer a link names, the sign-up
 * it brings, and what being referred gives a first payment (a discount code or extra days).
 */

const MOVEMENTS_SHOWN = 20;

/** The user's link code, made on first use (a code another user has is drawn again). */
async function linkCode(deps: ReferralsDeps, userId: string): Promise<string> {
  const { repo, clock } = deps;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const found = await repo.findLinkCode(userId);
    if (found) return found;
    await repo.insertLink(userId, newReferralCode(), clock());
  }
  const found = await repo.findLinkCode(userId);
  if (!found) throw new Error(`No referral code could be kept for ${userId}`);
  return found;
}

/** What the customer's referral gives their first payment: null when not referred, held or voided, or paid before. */
async function firstPaymentBenefit(deps: ReferralsDeps, userId: string): Promise<ReferredBenefit | null> {
  const { db, repo } = deps;
  const referral = await repo.findByReferred(userId);
  if (!referral || referral.status === 'held' || referral.status === 'void' || referral.terms.referredBenefit.kind === 'none') return null;
  return (await repo.paidBefore(userId, '', db)) ? null : referral.terms.referredBenefit;
}

export async function myReferrals(deps: ReferralsDeps, userId: string): Promise<MyReferrals> {
  const { repo, clock } = deps;
  const settings = await getReferralSettings(deps);
  const code = await linkCode(deps, userId);
  const [counts, credit, movements] = await Promise.all([repo.countsOf(userId), repo.balances(userId, clock()), repo.movements(userId, MOVEMENTS_SHOWN)]);
  return {
    enabled: settings.enabled,
    code,
    link: new URL(`${REFERRAL_PATH}${code}`, deps.publicUrl).toString(),
    terms: termsOf(settings),
    signedUp: counts.signedUp,
    paid: counts.paid,
    credit,
    movements,
  };
}

/**
 * The discount code of a customer referred with a first-payment discount who has not paid yet; null for anyone
 * else (not referred, referred with no discount, paid before, or a referral held or voided as the referrer's own).
 */
export async function discountCodeFor(deps: ReferralsDeps, userId: string): Promise<string | null> {
  const benefit = await firstPaymentBenefit(deps, userId);
  return benefit?.kind === 'discount' ? deps.promos.referralCode(benefit.percentOff) : null;
}

/**
 * The extra days of a customer referred with extra days, for their first order (none is open, paid or being paid:
 * two orders at once, or a free one before, get none); 0 for anyone else.
 */
export async function bonusDaysFor(deps: ReferralsDeps, userId: string): Promise<number> {
  const benefit = await firstPaymentBenefit(deps, userId);
  return benefit?.kind === 'days' && !(await deps.repo.orderedBefore(userId)) ? benefit.days : 0;
}

const NOT_INVITED: ReferralInvitation = { invited: false, benefit: { kind: 'none' } };

/**
 * What a visitor is told of a friend's invitation: a signed-in customer, by their referral (not held or voided, and
 * no payment yet: what their terms give); anyone else by the link's cookie (a code someone has, the programme on:
 * what the programme gives today). Not invited: nothing to say.
 */
export async function invitationFor(deps: ReferralsDeps, who: { userId: string | null; code: string | undefined }): Promise<ReferralInvitation> {
  if (who.userId) {
    const referral = await deps.repo.findByReferred(who.userId);
    if (!referral || referral.status === 'held' || referral.status === 'void') return NOT_INVITED;
    if (await deps.repo.paidBefore(who.userId, '', deps.db)) return NOT_INVITED;
    return { invited: true, benefit: referral.terms.referredBenefit };
  }
  if (!who.code || !(await referrerOf(deps, who.code))) return NOT_INVITED;
  return { invited: true, benefit: (await getReferralSettings(deps)).referredBenefit };
}

/** The referrer a link code names, when the programme runs. */
export async function referrerOf(deps: ReferralsDeps, code: string): Promise<string | undefined> {
  if (!REFERRAL_CODE_PATTERN.test(code) || !(await getReferralSettings(deps)).enabled) return undefined;
  return (await deps.repo.findReferrerByCode(code))?.userId;
}

/**
 * A customer who just signed up with a referral code: the referral is written with the programme's terms of
 * today, held at once when the two look like one person (same device, or signed in from one address within a day).
 */
export async function attributeSignUp(deps: ReferralsDeps, referredId: string, code: string, ip: string | null): Promise<void> {
  const { db, repo, rewards, clock } = deps;
  const settings = await getReferralSettings(deps);
  if (!settings.enabled || !REFERRAL_CODE_PATTERN.test(code)) return;
  const referrer = await repo.findReferrerByCode(code);
  if (!referrer || referrer.userId === referredId) return;
  const now = clock();
  await db.transaction(async (trx) => {
    const id = randomUUID();
    const draft = {
      id,
      referrerId: referrer.userId,
      referredId,
      code: referrer.code,
      status: 'active' as const,
      holdReason: null,
      terms: termsOf(settings),
      firstPaidAt: null,
      createdAt: now,
    };
    const reason = await rewards.relation(draft, null, now, trx);
    const written = await repo.insertReferral({ ...draft, signupIp: ip, status: reason ? 'held' : 'active', holdReason: reason }, now, trx);
    if (!written) return;
    await deps.audit.record(
      {
        actorId: referredId,
        actorEmail: null,
        action: 'referral.signed_up',
        targetType: 'referral',
        targetId: id,
        details: { referrerId: referrer.userId, code: referrer.code, ...(reason ? { held: reason } : {}) },
        ip,
        now,
      },
      trx,
    );
  });
}

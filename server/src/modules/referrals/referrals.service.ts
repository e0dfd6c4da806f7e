import type { AdminReferralsQuery, UpdateReferralSettingsBody } from '../../../../shared/referrals.js';
import type { Actor } from '../users/index.js';
import { attributeSignUp, bonusDaysFor, discountCodeFor, invitationFor, myReferrals, referrerOf } from './customer-referrals.js';
import { adminReferralsPage, releaseReferral, updateReferralSettings, voidReferral } from './referral-admin.js';
import { getReferralSettings, type ReferralsDeps } from './referrals-deps.js';

export type { ReferralsDeps } from './referrals-deps.js';

/**
 * The referral programme: its settings, each customer's link and credit, sign-up attribution, and the admin's decisions.
 * Each use case is a function of its own (customer-referrals.ts, referral-admin.ts) taking the dependencies first; this binds them.
 */
export function createReferralsService(deps: ReferralsDeps) {
  return {
    getSettings: () => getReferralSettings(deps),
    updateSettings: (actor: Actor, body: UpdateReferralSettingsBody) => updateReferralSettings(deps, actor, body),
    mine: (userId: string) => myReferrals(deps, userId),
    /** The discount code of a customer referred with a first-payment discount who has not paid yet; null for anyone else. */
    discountCodeFor: (userId: string) => discountCodeFor(deps, userId),
    /** The extra days of a customer referred with extra days, for their first order; 0 for anyone else. */
    bonusDaysFor: (userId: string) => bonusDaysFor(deps, userId),
    /** What a visitor (signed in or with a link's cookie) is told of a friend's invitation. */
    invitationFor: (who: { userId: string | null; code: string | undefined }) => invitationFor(deps, who),
    /** The referrer a link code names, when the programme runs. */
    referrerOf: (code: string) => referrerOf(deps, code),
    /** A customer who just signed up with a referral code: the referral is written (held when the two look like one person). */
    attribute: (referredId: string, code: string, ip: string | null) => attributeSignUp(deps, referredId, code, ip),
    adminPage: (query: AdminReferralsQuery) => adminReferralsPage(deps, query),
    /** A held (or void) referral released: it earns from now on, and what its paid payments would have earned is written now. */
    release: (actor: Actor, id: string) => releaseReferral(deps, actor, id),
    /** A referral voided: it earns nothing more, and what it earned that is still pending is cancelled. */
    void: (actor: Actor, id: string) => voidReferral(deps, actor, id),
  };
}

export type ReferralsService = ReturnType<typeof createReferralsService>;

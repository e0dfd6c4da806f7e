import { z } from 'zod';
import {
  REFERRAL_CREDIT_KINDS,
  REFERRAL_HOLD_REASONS,
  REFERRAL_STATUSES,
  type AdminReferral,
  type AdminReferralsPage,
  type CreditBalance,
  type CreditMovement,
  type MyReferrals,
  type ReferralInvitation,
  type ReferralReward,
  type ReferralSettings,
  type ReferredBenefit,
  type TopReferrer,
} from '../../../shared/referrals.js';

/**
 * What the referral routes answer: the customer's link, what it brought and the credit it earned, the programme's
 * settings, and the admin's page of referrals and top referrers, checked against the shared types. Amounts are
 * integer minor units of their currency; times are ISO strings. `/r/<code>` is a redirect, not described here.
 */

/** A minor-units amount, a count, a percentage or a number of days or months (all whole). */
const Int = z.number().int();

/** What the referred customer gets. */
const ReferredBenefitAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('discount'), percentOff: Int }),
  z.object({ kind: z.literal('days'), days: Int }),
]) satisfies z.ZodType<ReferredBenefit>;

/** What the referrer earns: a percentage for some months, or a fixed amount (in `currency`) for the first payment. */
const ReferralRewardAnswer = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('percent'), percent: Int, months: Int }),
  z.object({ kind: z.literal('fixed'), amount: Int, currency: z.string() }),
]) satisfies z.ZodType<ReferralReward>;

/** The terms a referral is made under: the settings without the switch. */
const referralTerms = {
  referredBenefit: ReferredBenefitAnswer,
  reward: ReferralRewardAnswer,
  /** Days a reward stays pending. */
  refundWindowDays: Int,
};

/** `GET`/`PUT /api/admin/referrals/settings`. */
export const ReferralSettingsAnswer = z.object({ enabled: z.boolean(), ...referralTerms }) satisfies z.ZodType<ReferralSettings>;

const CreditBalanceAnswer = z.object({ currency: z.string(), pending: Int, available: Int }) satisfies z.ZodType<CreditBalance>;

const CreditMovementAnswer = z.object({
  id: z.string(),
  kind: z.enum(REFERRAL_CREDIT_KINDS),
  amount: Int,
  currency: z.string(),
  availableAt: z.string(),
  createdAt: z.string(),
  note: z.string().nullable(),
}) satisfies z.ZodType<CreditMovement>;

/** `GET /api/referrals/invitation`. */
export const ReferralInvitationAnswer = z.object({ invited: z.boolean(), benefit: ReferredBenefitAnswer }) satisfies z.ZodType<ReferralInvitation>;

/** `GET /api/referrals/me`. */
export const MyReferralsAnswer = z.object({
  enabled: z.boolean(),
  code: z.string(),
  link: z.string(),
  terms: z.object(referralTerms),
  signedUp: Int,
  paid: Int,
  credit: z.array(CreditBalanceAnswer),
  /** Newest first. */
  movements: z.array(CreditMovementAnswer),
}) satisfies z.ZodType<MyReferrals>;

const UserRef = z.object({ id: z.string(), email: z.string().nullable() });
/** Credit earned, net of cancellations, per currency. */
const Earned = z.array(z.object({ currency: z.string(), amount: Int }));

const AdminReferralAnswer = z.object({
  id: z.string(),
  referrer: UserRef,
  referred: UserRef,
  status: z.enum(REFERRAL_STATUSES),
  holdReason: z.enum(REFERRAL_HOLD_REASONS).nullable(),
  createdAt: z.string(),
  firstPaidAt: z.string().nullable(),
  earned: Earned,
}) satisfies z.ZodType<AdminReferral>;

const TopReferrerAnswer = z.object({
  user: UserRef,
  signedUp: Int,
  paid: Int,
  held: Int,
  earned: Earned,
}) satisfies z.ZodType<TopReferrer>;

/** `GET /api/admin/referrals`: the settings, a page of referrals (newest first), the top referrers and the count per status. */
export const AdminReferralsPageAnswer = z.object({
  settings: ReferralSettingsAnswer,
  referrals: z.array(AdminReferralAnswer),
  top: z.array(TopReferrerAnswer),
  counts: z.record(z.enum(REFERRAL_STATUSES), Int),
}) satisfies z.ZodType<AdminReferralsPage>;

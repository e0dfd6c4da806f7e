/**
 * Referrals: every customer's link (`/r/<code>`), what the customer they bring gets, and what the referrer earns
 * as credit (a ledger of movements, maturing after the refund window), as the operator sets it.
 */
import { z } from 'zod';

/** The first-party cookie `/r/<code>` sets: the code, kept 30 days and read when the visitor signs up. */
export const REFERRAL_COOKIE = 'vpn_ref';
export const REFERRAL_COOKIE_DAYS = 30;
export const REFERRAL_PATH = '/r/';
/** A link code: 8 characters of an alphabet without look-alikes (see server referral-code.ts). */
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9]{4,16}$/;

/**
 * What the referred customer gets: nothing more, a discount on their first payment, or extra days on their first
 * order paid once (a one-off plan, a renewal by hand, a crypto payment; a card subscription's periods are Stripe's,
 * so it starts as usual).
 */
export type ReferredBenefit = { kind: 'none' } | { kind: 'discount'; percentOff: number } | { kind: 'days'; days: number };

/**
 * What the referrer earns: a percentage of every payment the referred customer makes in their first `months`
 * months (counted from their first payment), or a fixed amount (minor units of `currency`) for their first payment.
 */
export type ReferralReward = { kind: 'percent'; percent: number; months: number } | { kind: 'fixed'; amount: number; currency: string };

export interface ReferralSettings {
  enabled: boolean;
  referredBenefit: ReferredBenefit;
  reward: ReferralReward;
  /** Days a reward stays pending: a refund or a lost dispute in them cancels it. */
  refundWindowDays: number;
}

/** The terms a referral was made under (the settings at the referred customer's sign-up). */
export type ReferralTerms = Omit<ReferralSettings, 'enabled'>;

export const REFERRAL_DEFAULTS: ReferralSettings = {
  enabled: false,
  referredBenefit: { kind: 'none' },
  reward: { kind: 'percent', percent: 10, months: 12 },
  refundWindowDays: 14,
};

export const REFERRAL_LIMITS = { maxPercent: 100, maxMonths: 120, maxWindowDays: 180, maxBonusDays: 365 } as const;

const percent = (what: string) =>
  z
    .number({ error: `${what} is a number` })
    .int(`${what}: a whole percentage`)
    .min(1, `${what}: at least 1%`)
    .max(REFERRAL_LIMITS.maxPercent, `${what}: at most 100%`);

const ReferredBenefitSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('none') }).strict(),
    z.object({ kind: z.literal('discount'), percentOff: percent('The discount') }).strict(),
    z
      .object({
        kind: z.literal('days'),
        days: z
          .number({ error: 'Extra days: a number' })
          .int('Extra days: whole days')
          .min(1, 'Extra days: at least 1')
          .max(REFERRAL_LIMITS.maxBonusDays, `Extra days: at most ${REFERRAL_LIMITS.maxBonusDays}`),
      })
      .strict(),
  ],
  { error: 'What the referred customer gets: none, discount or days' },
);

/** `PUT /api/admin/referrals/settings`. A fixed reward's currency is the store's, set by the server. */
export const UpdateReferralSettingsBody = z
  .object({
    enabled: z.boolean({ error: 'On or off' }),
    referredBenefit: ReferredBenefitSchema,
    reward: z.discriminatedUnion(
      'kind',
      [
        z
          .object({
            kind: z.literal('percent'),
            percent: percent('The reward'),
            months: z
              .number()
              .int('Months: a whole number')
              .min(1, 'Months: at least 1')
              .max(REFERRAL_LIMITS.maxMonths, `Months: at most ${REFERRAL_LIMITS.maxMonths}`),
          })
          .strict(),
        z
          .object({
            kind: z.literal('fixed'),
            amount: z
              .number({ error: 'The reward is an amount in minor units' })
              .int('The reward: whole minor units (cents)')
              .min(1, 'The reward: more than 0')
              .max(100_000_00, 'The reward is too large'),
          })
          .strict(),
      ],
      { error: 'What the referrer earns: percent or fixed' },
    ),
    refundWindowDays: z
      .number()
      .int('The refund window: whole days')
      .min(0, 'The refund window cannot be negative')
      .max(REFERRAL_LIMITS.maxWindowDays, `The refund window: at most ${REFERRAL_LIMITS.maxWindowDays} days`),
  })
  .strict();
export type UpdateReferralSettingsBody = z.infer<typeof UpdateReferralSettingsBody>;

export const REFERRAL_STATUSES = ['active', 'held', 'released', 'void'] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];

/** Why a referral earns nothing until an admin releases it: the two customers look like one person. */
export const REFERRAL_HOLD_REASONS = ['same_card', 'same_device', 'same_address'] as const;
export type ReferralHoldReason = (typeof REFERRAL_HOLD_REASONS)[number];

/** The note of a `spent` movement that moved credit to the customer's balance at the payment provider (taken off their next renewal). */
/**
 * The code in what a customer typed or pasted as their friend's referral: the code itself in any case, or the whole
 * link (`…/r/<code>`). Null when it holds no code.
 */
export function referralCodeFrom(input: string): string | null {
  const text = input.trim();
  const fromLink = /\/r\/([A-Za-z0-9]+)\/?(?:[?#].*)?$/.exec(text)?.[1];
  const code = (fromLink ?? text).toUpperCase();
  return /^[A-Z0-9]{4,16}$/.test(code) ? code : null;
}

export const PROVIDER_BALANCE_NOTE = 'provider_balance';

/** The note of what a hold took back of a referral's reward (`cancelled`), and of what releasing it gave back (`reinstated`). */
export const HELD_NOTE = 'held';

/**
 * The least a payment is left to pay once referral credit has paid the rest (minor units of the store's currency).
 * Stripe refuses charges under about $0.50 (€0.50, ¥50; £0.30): an order the credit does not cover entirely keeps at
 * least this much to pay, and the rest of the credit stays for later.
 */
export const CREDIT_MIN_CHARGE = 50;

export const REFERRAL_CREDIT_KINDS = ['earned', 'cancelled', 'reinstated', 'spent', 'restored'] as const;
export type ReferralCreditKind = (typeof REFERRAL_CREDIT_KINDS)[number];

/** Credit in one currency: pending (inside the refund window) and available (to spend). Minor units. */
export interface CreditBalance {
  currency: string;
  pending: number;
  available: number;
}

export interface CreditMovement {
  id: string;
  kind: ReferralCreditKind;
  amount: number;
  currency: string;
  /** When it counts as available (an earned reward: after the refund window). */
  availableAt: string;
  createdAt: string;
  /** Why, for a cancellation: refunded | disputed | voided | held (and `held` for what releasing gave back). */
  note: string | null;
}

/**
 * `GET /api/referrals/invitation`: whether the visitor came through a friend's link (the `vpn_ref` cookie, the
 * programme on) or, signed in, was referred and has not paid yet; and what that gives them, as the programme says
 * (`none`: only the invitation, no promise).
 */
export interface ReferralInvitation {
  invited: boolean;
  benefit: ReferredBenefit;
}

/** `GET /api/referrals/me`. */
export interface MyReferrals {
  enabled: boolean;
  code: string;
  /** The full link to share: `<public url>/r/<code>`. */
  link: string;
  terms: ReferralTerms;
  /** Customers who signed up with the link, and how many of them have paid. */
  signedUp: number;
  paid: number;
  credit: CreditBalance[];
  /** The latest movements, newest first. */
  movements: CreditMovement[];
}

/** One referral in the admin's list. */
export interface AdminReferral {
  id: string;
  referrer: { id: string; email: string | null };
  referred: { id: string; email: string | null };
  status: ReferralStatus;
  holdReason: ReferralHoldReason | null;
  createdAt: string;
  firstPaidAt: string | null;
  /** Credit the referral has earned, net of cancellations, per currency. */
  earned: Array<{ currency: string; amount: number }>;
}

export interface TopReferrer {
  user: { id: string; email: string | null };
  signedUp: number;
  paid: number;
  held: number;
  earned: Array<{ currency: string; amount: number }>;
}

export const AdminReferralsQuery = z
  .object({
    status: z.enum(REFERRAL_STATUSES, { error: 'status: active, held, released or void' }).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    before: z.iso.datetime({ error: 'before: an ISO date and time' }).optional(),
  })
  .strict();
export type AdminReferralsQuery = z.infer<typeof AdminReferralsQuery>;

/** `GET /api/admin/referrals`. */
export interface AdminReferralsPage {
  settings: ReferralSettings;
  referrals: AdminReferral[];
  top: TopReferrer[];
  counts: Record<ReferralStatus, number>;
}

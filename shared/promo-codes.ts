/**
 * Promo codes: a discount the operator hands out (percent or a fixed amount of the store's currency), on
 * the first payment or on every payment of an auto-renewing plan for some months or for ever (Stripe's
 * coupon durations), limited to some plans, some dates, some uses in all and once per customer.
 */
import { z } from 'zod';
import { PROMO_CODE_PATTERN } from './promo-link.js';

export const PROMO_DURATIONS = ['once', 'repeating', 'forever'] as const;
export type PromoDuration = (typeof PROMO_DURATIONS)[number];

/**
 * Why a code cannot be used for this checkout (`promo_invalid`'s `reason`): no such code (or switched
 * off), not yet or no longer valid, every use taken, not for this plan (or not in the store's currency
 * now), this customer has used it already, or it would leave less to pay than a payment provider can charge
 * (`below_minimum`: between 1 and CREDIT_MIN_CHARGE − 1 minor units; a code that leaves nothing makes the order free).
 */
export const PROMO_INVALID_REASONS = ['not_found', 'not_started', 'expired', 'used_up', 'not_for_plan', 'already_used', 'below_minimum'] as const;
export type PromoInvalidReason = (typeof PROMO_INVALID_REASONS)[number];

/** The message of each reason, as the API sends it (translated like every customer message). */
export const PROMO_MESSAGES: Readonly<Record<PromoInvalidReason, string>> = {
  not_found: 'This promo code does not exist.',
  not_started: 'This promo code is not valid yet.',
  expired: 'This promo code has expired.',
  used_up: 'This promo code has been used up.',
  not_for_plan: 'This promo code is not valid for this plan.',
  already_used: 'You have already used this promo code.',
  below_minimum: 'This promo code would leave less to pay than the smallest amount that can be charged, so it cannot be used for this plan.',
};

export { PROMO_CODE_PATTERN, PROMO_LINK_PARAM } from './promo-link.js';

/** How a code is matched: the same whatever the case it is typed in. */
export const promoCodeKey = (code: string) => code.trim().toUpperCase();

/** A code as the admin sees it. Amounts are minor units of `currency` (the store's when the code was made). */
export interface AdminPromoCode {
  id: string;
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  currency: string | null;
  duration: PromoDuration;
  durationMonths: number | null;
  /** null: every paid plan. */
  planIds: string[] | null;
  maxRedemptions: number | null;
  oncePerCustomer: boolean;
  startsAt: string | null;
  endsAt: string | null;
  active: boolean;
  /** The referral programme's own code (its referred customers' first-payment discount): never typed, applied by itself. */
  referral: boolean;
  /** Checkouts holding a use now (open, or paid): what counts against `maxRedemptions`. */
  used: number;
  /** Payments made with it, and what it took off them in all. */
  paidCount: number;
  discountTotal: number;
  createdAt: string;
}

/** What a code does to one plan's price (`POST /api/checkout/quote`): the dialog shows before and after. */
export interface CheckoutQuote {
  planId: string;
  currency: string;
  /** The plan's price. */
  amount: number;
  /** What is charged now (the first payment). */
  total: number;
  discount: number;
  /** `referral`: not a typed code but the discount the customer was referred with (applied when no code is typed). */
  promo: { code: string; duration: PromoDuration; durationMonths: number | null; percentOff: number | null; amountOff: number | null; referral?: true } | null;
  /**
   * What the customer's referral credit pays of `total` when it is paid once (a one-off plan, a renewal by hand, a
   * crypto payment): it leaves `total - credit` to pay. A card subscription's first payment is `total`; the credit
   * goes to its renewals.
   */
  credit: number;
  /** Extra days the customer's referral adds to their first order paid once (0 when none); a card subscription starts as usual. */
  bonusDays: number;
  /**
   * Bought now, the plan goes to the customer's trial account, which becomes it (the same link, the days added after
   * the trial's): present while the trial runs (see payments.md, Trials).
   */
  convertsTrial?: { accountId: string };
}

const Code = z.string({ error: 'Enter a code' }).trim().regex(PROMO_CODE_PATTERN, 'A code is 3 to 40 letters, digits, - or _');
const Instant = z.iso.datetime({ offset: true, error: 'A date and time in ISO 8601, e.g. 2026-12-01T00:00:00Z' });

/** `POST /api/admin/promo-codes`. */
export const CreatePromoCodeBody = z
  .object({
    code: Code,
    percentOff: z.number().int('A whole percentage').min(1, 'At least 1%').max(100, 'At most 100%').optional(),
    amountOff: z.number().int("In the store currency's minor units (cents)").min(1, 'At least 1').max(99_999_999).optional(),
    duration: z.enum(PROMO_DURATIONS, { error: 'The duration is "once", "repeating" or "forever"' }),
    durationMonths: z.number().int().min(1, 'At least 1 month').max(36, 'At most 36 months').optional(),
    planIds: z.array(z.string().trim().min(1).max(64)).min(1, 'Pick at least one plan, or leave it out for every plan').max(100).optional(),
    maxRedemptions: z.number().int().min(1, 'At least 1').max(1_000_000).optional(),
    oncePerCustomer: z.boolean().optional(),
    startsAt: Instant.optional(),
    endsAt: Instant.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.percentOff === undefined) === (body.amountOff === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['percentOff'], message: 'Give either percentOff or amountOff' });
    }
    if (body.duration === 'repeating' && body.durationMonths === undefined) {
      ctx.addIssue({ code: 'custom', path: ['durationMonths'], message: 'A repeating discount needs durationMonths' });
    }
    if (body.duration !== 'repeating' && body.durationMonths !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['durationMonths'], message: 'durationMonths goes with duration "repeating" only' });
    }
    if (body.startsAt && body.endsAt && Date.parse(body.endsAt) <= Date.parse(body.startsAt)) {
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'The end comes after the start' });
    }
  });
export type CreatePromoCodeBody = z.infer<typeof CreatePromoCodeBody>;

/** `PATCH /api/admin/promo-codes/:id`: what a code's uses do not depend on. Its discount never changes once made. */
export const UpdatePromoCodeBody = z
  .object({
    active: z.boolean(),
    maxRedemptions: z.number().int().min(1).max(1_000_000).nullable(),
    endsAt: Instant.nullable(),
  })
  .partial()
  .strict();
export type UpdatePromoCodeBody = z.infer<typeof UpdatePromoCodeBody>;

/** `POST /api/checkout/quote`. */
export const CheckoutQuoteBody = z.object({ planId: z.string().trim().min(1).max(64), promoCode: Code.optional() }).strict();
export type CheckoutQuoteBody = z.infer<typeof CheckoutQuoteBody>;

/** The promo code field of a checkout: what the customer typed. */
export const PromoCodeField = Code;

import { z } from 'zod';
import { VpnAccountAnswer } from './accounts.js';
import { TRANSACTION_STATUSES, type CheckoutStarted, type CheckoutStatus } from '../../../shared/billing.js';
import { PROMO_DURATIONS, type CheckoutQuote } from '../../../shared/promo-codes.js';
import { CryptoProgressAnswer } from './billing.js';
import type { PlanChangeQuote, PlanChangeStarted } from '../../../shared/plan-changes.js';
import type { CheckoutService } from '../modules/billing/checkout/checkout.service.js';

/**
 * What the checkout routes answer: a started checkout, a quote, the return pages' status (with the account once
 * it is provisioned) and a cancel's outcome, each checked against the shared type the service returns. Amounts are
 * integer minor units of the order's currency.
 */

const Int = z.number().int();

/** `POST /api/checkout`: send the browser to `url`. */
export const CheckoutStartedAnswer = z.object({
  url: z.string(),
  sessionId: z.string(),
  subscriptionId: z.string(),
}) satisfies z.ZodType<CheckoutStarted>;

/** `POST /api/checkout/quote`: the plan's price before and after the code (or the referral discount) and the credit. */
export const CheckoutQuoteAnswer = z.object({
  planId: z.string(),
  currency: z.string(),
  amount: Int,
  total: Int,
  discount: Int,
  promo: z
    .object({
      code: z.string(),
      duration: z.enum(PROMO_DURATIONS),
      durationMonths: Int.nullable(),
      percentOff: Int.nullable(),
      amountOff: Int.nullable(),
      referral: z.literal(true).optional(),
    })
    .nullable(),
  credit: Int,
  bonusDays: Int,
  convertsTrial: z.object({ accountId: z.string() }).optional(),
}) satisfies z.ZodType<CheckoutQuote>;

/** `GET /api/checkout/:sessionId`, polled by the return pages. */
export const CheckoutStatusAnswer = z.object({
  status: z.enum(TRANSACTION_STATUSES),
  subscriptionId: z.string(),
  renewal: z.boolean(),
  /** The account it provisioned, as `GET /api/accounts` shows it, once it is ready. */
  account: VpnAccountAnswer.optional(),
  error: z.string().optional(),
  crypto: CryptoProgressAnswer.optional(),
  currency: z.string(),
  topUp: z.literal(true).optional(),
  change: z.enum(['plan', 'add_on', 'trial']).optional(),
}) satisfies z.ZodType<CheckoutStatus>;

/** `POST /api/checkout/:orderId/cancel`: where the order stands once closed (or paid meanwhile). */
export const CheckoutCancelledAnswer = z.object({
  status: z.enum(TRANSACTION_STATUSES),
}) satisfies z.ZodType<Awaited<ReturnType<CheckoutService['cancelCheckout']>>>;

/** `POST /api/accounts/:id/change-plan/quote`: what switching the account to the plan would do now. */
export const PlanChangeQuoteAnswer = z.object({
  accountId: z.string(),
  fromPlanId: z.string().nullable(),
  planId: z.string(),
  currency: z.string(),
  price: Int,
  credit: Int,
  creditDays: Int,
  charge: Int,
  walletCredit: Int,
  takesEffect: z.enum(['now', 'period_end']),
  effectiveAt: z.string(),
  expiresAt: z.string(),
  balanceCredit: Int.optional(),
}) satisfies z.ZodType<PlanChangeQuote>;

/** `POST /api/accounts/:id/change-plan`: the payment started (send the browser to `url`), or the downgrade set for the paid end. */
export const PlanChangeStartedAnswer = z.union([
  z.object({ takesEffect: z.literal('now'), url: z.string(), sessionId: z.string(), subscriptionId: z.string() }),
  z.object({ takesEffect: z.literal('period_end'), planId: z.string(), effectiveAt: z.string() }),
]) satisfies z.ZodType<PlanChangeStarted>;

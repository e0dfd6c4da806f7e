import { z } from 'zod';
import { VpnAccountAnswer } from './accounts.js';
import { TRANSACTION_STATUSES, type CheckoutStarted, type CheckoutStatus } from '../../../shared/billing.js';
import { PROMO_DURATIONS, type CheckoutQuote } from '../../../shared/promo-codes.js';
import { CryptoProgressAnswer } from './billing.js';
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
}) satisfies z.ZodType<CheckoutStatus>;

/** `POST /api/checkout/:orderId/cancel`: where the order stands once closed (or paid meanwhile). */
export const CheckoutCancelledAnswer = z.object({
  status: z.enum(TRANSACTION_STATUSES),
}) satisfies z.ZodType<Awaited<ReturnType<CheckoutService['cancelCheckout']>>>;

import { z } from 'zod';
import { PROMO_DURATIONS, type AdminPromoCode } from '../../../shared/promo-codes.js';

/**
 * What the admin's promo-code routes answer: a code with its uses, checked against the shared type. Amounts are
 * integer minor units of the code's currency; times are ISO strings. A checkout's quote is checkout's
 * (checkout.ts).
 */

/** A minor-units amount or a count. */
const Int = z.number().int();

/** A promo code as the admin sees it: the list's rows, and the answer of creating or changing one. */
export const AdminPromoCodeAnswer = z.object({
  id: z.string(),
  code: z.string(),
  percentOff: Int.nullable(),
  amountOff: Int.nullable(),
  currency: z.string().nullable(),
  duration: z.enum(PROMO_DURATIONS),
  durationMonths: Int.nullable(),
  /** null: every paid plan. */
  planIds: z.array(z.string()).nullable(),
  maxRedemptions: Int.nullable(),
  oncePerCustomer: z.boolean(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  active: z.boolean(),
  referral: z.boolean(),
  used: Int,
  paidCount: Int,
  discountTotal: Int,
  createdAt: z.string(),
}) satisfies z.ZodType<AdminPromoCode>;

/** `GET /api/admin/promo-codes`: newest first. */
export const AdminPromoCodeListAnswer = z.array(AdminPromoCodeAnswer);

import type { PromoInvalidReason } from '../../../../shared/promo-codes.js';
import { CREDIT_MIN_CHARGE } from '../../../../shared/referrals.js';
import type { PromoCodeRecord } from './promo-codes.repo.js';

/**
 * What a code takes off a price: a percentage rounded to the nearest minor unit (half up), or a fixed amount,
 * never more than the price. The provider is told the same terms and charges what it computes (checkout keeps
 * the provider's figure when it reports one).
 */
export function discountOf(code: Pick<PromoCodeRecord, 'percentOff' | 'amountOff'>, price: number): number {
  if (code.percentOff !== null) return Math.min(price, Math.round((price * code.percentOff) / 100));
  return Math.min(price, code.amountOff ?? 0);
}

/** Why a code cannot be used on this plan now, or null when it can (its uses are counted apart, under a lock). */
export function refusalOf(code: PromoCodeRecord, plan: { id: string }, currency: string, now: Date): PromoInvalidReason | null {
  if (!code.active) return 'not_found';
  if (code.startsAt && now < code.startsAt) return 'not_started';
  if (code.endsAt && now >= code.endsAt) return 'expired';
  if (code.planIds && !code.planIds.includes(plan.id)) return 'not_for_plan';
  // A fixed amount is in the currency the store had when the code was made.
  if (code.amountOff !== null && code.currency !== currency) return 'not_for_plan';
  return null;
}

/** Whether the uses held now leave one for this customer. */
export function usesRefusal(code: PromoCodeRecord, held: { total: number; byUser: number }): PromoInvalidReason | null {
  if (code.oncePerCustomer && held.byUser > 0) return 'already_used';
  if (code.maxRedemptions !== null && held.total >= code.maxRedemptions) return 'used_up';
  return null;
}

/**
 * Whether what the code leaves to pay can be charged: nothing (the order is free) or at least CREDIT_MIN_CHARGE,
 * the least a payment provider takes (Stripe refuses a charge under $0.50), as referral credit leaves. A code
 * leaving between 1 and 49 minor units is refused here, at the quote and at checkout, never sent to the provider.
 */
export function chargeRefusal(total: number): PromoInvalidReason | null {
  return total > 0 && total < CREDIT_MIN_CHARGE ? 'below_minimum' : null;
}

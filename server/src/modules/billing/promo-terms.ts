import type { OrderPromo, SubscriptionRecord } from './billing.repo.js';

/** The date `months` calendar months after `from` (UTC; the 31st runs over into the next month, as Date does). */
function monthsAfter(from: Date, months: number): Date {
  const date = new Date(from);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date;
}

/**
 * Whether a later charge (a renewal at `chargeAt`) of an order bought at `boughtAt` with `promo` is discounted, as
 * the provider's coupon decides it: `once` discounts the first payment only, `forever` every one, `repeating`
 * those made before its months have run out.
 */
export function discountsLaterCharge(promo: OrderPromo | undefined, boughtAt: Date, chargeAt: Date): boolean {
  if (!promo || promo.duration === 'once') return false;
  if (promo.duration === 'forever') return true;
  return chargeAt < monthsAfter(boughtAt, promo.duration_months ?? 0);
}

/** What the subscription's next charge (at `chargeAt`) will be: its price, less its code's discount while that lasts. */
export function nextChargeAmount(subscription: Pick<SubscriptionRecord, 'metadata' | 'createdAt'>, chargeAt: Date): number {
  const { price, promo } = subscription.metadata;
  return discountsLaterCharge(promo, subscription.createdAt, chargeAt) ? price - promo!.discount : price;
}

import type Stripe from 'stripe';
import type { OrderDiscount } from '../payment-driver.js';
import { calling, isMissing } from './stripe-calls.js';

/** Our promo code's coupon at Stripe: one per code (a code's terms never change once it is made). */
export const couponIdOf = (discount: Pick<OrderDiscount, 'ref'>) => `vpn_promo_${discount.ref.replace(/[^A-Za-z0-9_-]/g, '')}`;

/**
 * Stripe coupons for our promo codes, made when first needed. Our side counts the uses, the dates and who may
 * use a code; the coupon only carries the discount and how long it lasts on a subscription, so Stripe's
 * receipts and invoices show it and a subscription's later invoices get it (`repeating`, `forever`).
 */
export function couponMethods(stripe: Stripe) {
  const known = new Map<string, Promise<string>>();

  async function ensure(discount: OrderDiscount, currency: string): Promise<string> {
    const id = couponIdOf(discount);
    try {
      await calling('Reading the promo code coupon', () => stripe.coupons.retrieve(id));
      return id;
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
    const terms: Stripe.CouponCreateParams =
      discount.percentOff !== null ? { percent_off: discount.percentOff } : { amount_off: discount.amountOff ?? 0, currency };
    await calling('Creating the promo code coupon', () =>
      stripe.coupons.create(
        {
          id,
          name: discount.code.slice(0, 40),
          ...terms,
          duration: discount.duration,
          ...(discount.duration === 'repeating' ? { duration_in_months: discount.durationMonths ?? 1 } : {}),
          metadata: { promo_code_id: discount.ref },
        },
        { idempotencyKey: `coupon:${id}` },
      ),
    );
    return id;
  }

  return {
    /**
     * A one-off order's own coupon, when referral credit paid part of it: Stripe takes one discount per session, so the
     * code's discount (if any) and the credit are one amount, off once, usable once. Made under the order's id (a retry
     * finds the one it made).
     */
    async ensureOrderCoupon(order: { orderId: string; amountOff: number; currency: string; code: string | null }): Promise<string> {
      const id = `vpn_order_${order.orderId.replace(/[^A-Za-z0-9_-]/g, '')}`;
      try {
        await calling('Reading the order coupon', () => stripe.coupons.retrieve(id));
        return id;
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
      await calling('Creating the order coupon', () =>
        stripe.coupons.create(
          {
            id,
            name: (order.code ? `${order.code} + referral credit` : 'Referral credit').slice(0, 40),
            amount_off: order.amountOff,
            currency: order.currency,
            duration: 'once',
            max_redemptions: 1,
            metadata: { transaction_id: order.orderId },
          },
          { idempotencyKey: `coupon:${id}` },
        ),
      );
      return id;
    },

    /** The coupon's id, created at Stripe when missing (asked once per code and key while it answers). */
    ensureCoupon(discount: OrderDiscount, currency: string): Promise<string> {
      const id = couponIdOf(discount);
      let pending = known.get(id);
      if (!pending) {
        pending = ensure(discount, currency);
        pending.catch(() => known.delete(id));
        known.set(id, pending);
      }
      return pending;
    },
  };
}

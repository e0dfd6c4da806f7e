/**
 * Coupons (`POST /v1/coupons`, `GET /v1/coupons/:id`): a percentage or an amount off, once, for some months or for
 * ever. Sessions and subscriptions name them in `discounts` (session-params.ts); how much one takes off an amount is
 * `couponDiscount`, for sessions and invoices alike.
 */
import type Stripe from 'stripe';
import type { FormHash } from './form-body.js';
import { integerParam, metadataParam, optionalString, rejectUnknown, unsupported } from './form-params.js';
import { invalidParam, missingParam } from './stripe-errors.js';
import { stripeId } from './stripe-ids.js';

export type CouponObject = Stripe.Coupon;

/** Every parameter CouponCreateParams knows (SDK 23.1.0). */
const COUPON_CREATE = new Set([
  'amount_off',
  'applies_to',
  'currency',
  'currency_options',
  'duration',
  'duration_in_months',
  'expand',
  'id',
  'max_redemptions',
  'metadata',
  'name',
  'percent_off',
  'redeem_by',
]);
const UNMODELLED = ['applies_to', 'currency_options', 'expand'];

/** `POST /v1/coupons`, validated as Stripe words its 400s. */
export function newCoupon(params: FormHash, created: number): CouponObject {
  rejectUnknown(params, COUPON_CREATE, '');
  const other = UNMODELLED.find((key) => params[key] !== undefined);
  if (other !== undefined) throw unsupported(other, `${other} on coupons`);
  const percentText = optionalString(params.percent_off, 'percent_off');
  const amountOff = integerParam(params.amount_off, 'amount_off', 1) ?? null;
  if ((percentText === undefined) === (amountOff === null)) {
    throw invalidParam('percent_off', 'You must pass exactly one of amount_off or percent_off.');
  }
  let percentOff: number | null = null;
  if (percentText !== undefined) {
    percentOff = Number(percentText);
    if (!Number.isFinite(percentOff) || percentOff <= 0 || percentOff > 100 || Math.round(percentOff * 100) !== percentOff * 100) {
      throw invalidParam('percent_off', 'Invalid percent_off: must be greater than 0 and at most 100, with up to two decimal places.');
    }
  }
  const currency = optionalString(params.currency, 'currency')?.toLowerCase() ?? null;
  if (amountOff !== null && currency === null) throw invalidParam('currency', 'You must pass a currency when passing amount_off.');
  if (percentOff !== null && currency !== null) throw invalidParam('currency', 'You may only pass currency with amount_off.');
  const duration = optionalString(params.duration, 'duration') ?? 'once';
  if (!['once', 'repeating', 'forever'].includes(duration)) throw invalidParam('duration', 'Invalid duration: must be one of forever, once, or repeating');
  const months = integerParam(params.duration_in_months, 'duration_in_months', 1, 1200) ?? null;
  if (duration === 'repeating' && months === null) throw missingParam('duration_in_months');
  if (duration !== 'repeating' && months !== null) throw invalidParam('duration_in_months', 'duration_in_months can only be passed with duration=repeating.');
  const id = optionalString(params.id, 'id') ?? stripeId('', 8);
  const name = optionalString(params.name, 'name') ?? null;
  if (name !== null && name.length > 40) throw invalidParam('name', 'Invalid name: must be at most 40 characters');
  return {
    id,
    object: 'coupon',
    amount_off: amountOff,
    created,
    currency,
    duration,
    duration_in_months: months,
    livemode: false,
    max_redemptions: integerParam(params.max_redemptions, 'max_redemptions', 1) ?? null,
    metadata: metadataParam(params.metadata, 'metadata'),
    name,
    percent_off: percentOff,
    redeem_by: integerParam(params.redeem_by, 'redeem_by', 0) ?? null,
    times_redeemed: 0,
    valid: true,
  };
}

/** Whether the coupon may be applied now to an amount in `currency` (the 400 Stripe answers otherwise). */
export function checkApplicable(coupon: CouponObject, currency: string, now: number, param: string): void {
  const exhausted = coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions;
  if (!coupon.valid || exhausted || (coupon.redeem_by !== null && now > coupon.redeem_by)) {
    throw invalidParam(param, `Coupon ${coupon.id} is not valid anymore.`, 'coupon_expired');
  }
  if (coupon.amount_off !== null && coupon.currency !== currency) {
    throw invalidParam(param, `The coupon ${coupon.id} is in ${coupon.currency}, but this is in ${currency}.`);
  }
}

/** What the coupon takes off `amount`: a percentage rounded to the nearest minor unit, or a fixed amount; never more than `amount`. */
export function couponDiscount(coupon: CouponObject, amount: number): number {
  if (coupon.percent_off !== null) return Math.min(amount, Math.round((amount * coupon.percent_off) / 100));
  return Math.min(amount, coupon.amount_off ?? 0);
}

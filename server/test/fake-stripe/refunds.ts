import type Stripe from 'stripe';
import { formatAmount } from './checkout-page.js';
import type { FormHash } from './form-body.js';
import { integerParam, metadataParam, optionalString, rejectUnknown, unsupported } from './form-params.js';
import type { ChargeObject } from './payment-objects.js';
import { stripeId } from './stripe-ids.js';
import { invalidParam, StripeApiError } from './stripe-errors.js';

/** A Refund exactly as the SDK types it. */
export type RefundObject = Stripe.Refund;

/** The reasons a refund may give (Stripe sets `expired_uncaptured_charge` itself; the fake never does). */
export type RefundReason = 'duplicate' | 'fraudulent' | 'requested_by_customer';
const REASONS: readonly RefundReason[] = ['duplicate', 'fraudulent', 'requested_by_customer'];

/** Which payment to refund, how much (undefined = all that remains), why, and the refund's metadata. */
export interface RefundRequest {
  paymentIntent: string | null;
  charge: string | null;
  amount: number | undefined;
  reason: RefundReason | null;
  metadata: Record<string, string>;
}

/** Every parameter of Stripe's RefundCreateParams (SDK 23.1.0); the ones after `reason` are not modelled. */
const KNOWN_PARAMS = new Set([
  'amount',
  'charge',
  'expand',
  'metadata',
  'payment_intent',
  'reason',
  'currency',
  'customer',
  'instructions_email',
  'origin',
  'refund_application_fee',
  'reverse_transfer',
]);
const UNMODELLED_PARAMS = ['currency', 'customer', 'instructions_email', 'origin', 'refund_application_fee', 'reverse_transfer'];

/** Validates `POST /v1/refunds` like Stripe (first problem wins, with its `param`). */
export function parseRefundCreate(params: FormHash): RefundRequest {
  rejectUnknown(params, KNOWN_PARAMS, '');
  for (const param of UNMODELLED_PARAMS) if (params[param] !== undefined) throw unsupported(param, `${param} on refunds`);
  if (params.expand !== undefined) throw unsupported('expand', 'expand on refunds');
  const paymentIntent = optionalString(params.payment_intent, 'payment_intent') ?? null;
  const charge = optionalString(params.charge, 'charge') ?? null;
  if (paymentIntent === null && charge === null) {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      'One of the following params should be provided for this request: payment_intent or charge.',
      'parameter_missing',
      undefined,
      true,
    );
  }
  const amount = integerParam(params.amount, 'amount', 1);
  const reason = optionalString(params.reason, 'reason') ?? null;
  if (reason !== null && !REASONS.includes(reason as RefundReason)) {
    throw invalidParam('reason', 'Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer');
  }
  return { paymentIntent, charge, amount, reason: reason as RefundReason | null, metadata: metadataParam(params.metadata, 'metadata') };
}

/**
 * How much a refund of `charge` takes: `requested`, or (undefined) everything not yet refunded. Throws Stripe's
 * errors: a charge in a chargeback (`charge_disputed`), one refunded in full (`charge_already_refunded`), more
 * than remains (`amount_too_large`).
 */
export function refundAmount(charge: ChargeObject, requested: number | undefined, chargedBack: boolean): number {
  if (chargedBack) {
    throw new StripeApiError(400, 'invalid_request_error', `Charge ${charge.id} has been charged back; cannot issue a refund.`, 'charge_disputed');
  }
  const remaining = charge.amount - charge.amount_refunded;
  if (charge.refunded || remaining <= 0) {
    throw new StripeApiError(400, 'invalid_request_error', `Charge ${charge.id} has already been refunded.`, 'charge_already_refunded');
  }
  const amount = requested ?? remaining;
  if (amount > remaining) {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      `Refund amount (${formatAmount(amount, charge.currency)}) is greater than unrefunded amount on charge (${formatAmount(remaining, charge.currency)})`,
      'amount_too_large',
      'amount',
    );
  }
  return amount;
}

/** A succeeded refund of `amount` from `charge`. */
export function newRefund(charge: ChargeObject, request: Pick<RefundRequest, 'reason' | 'metadata'> & { amount: number }, created: number): RefundObject {
  return {
    id: stripeId('re_3', 24),
    object: 'refund',
    amount: request.amount,
    balance_transaction: stripeId('txn_3', 24),
    charge: charge.id,
    created,
    currency: charge.currency,
    customer: null,
    customer_account: null,
    metadata: { ...request.metadata },
    payment_intent: typeof charge.payment_intent === 'string' ? charge.payment_intent : (charge.payment_intent?.id ?? null),
    payment_method: charge.payment_method,
    reason: request.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

/**
 * Applies a refund to its charge (`amount_refunded`, `refunded` once nothing remains) and returns the fields
 * as they were, for the charge.refunded event's `previous_attributes`.
 */
export function applyRefund(charge: ChargeObject, refund: RefundObject): Partial<ChargeObject> {
  const previous: Partial<ChargeObject> = { amount_refunded: charge.amount_refunded };
  charge.amount_refunded += refund.amount;
  if (charge.amount_refunded >= charge.amount && !charge.refunded) {
    previous.refunded = false;
    charge.refunded = true;
  }
  return previous;
}

/**
 * A refund that fails after it was made (the card was closed, the bank sent it back): Stripe marks it
 * failed with a `failure_reason` and the money returns to the balance, so the charge no longer counts it
 * as refunded. Returns the refund's and the charge's fields as they were (for the events).
 */
export function failRefund(charge: ChargeObject, refund: RefundObject, reason: string): { refund: Partial<RefundObject>; charge: Partial<ChargeObject> } {
  const previousRefund: Partial<RefundObject> = { status: refund.status, failure_reason: refund.failure_reason };
  const previousCharge: Partial<ChargeObject> = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
  refund.status = 'failed';
  refund.failure_reason = reason;
  charge.amount_refunded = Math.max(0, charge.amount_refunded - refund.amount);
  charge.refunded = charge.amount_refunded >= charge.amount;
  return { refund: previousRefund, charge: previousCharge };
}

import type Stripe from 'stripe';
import { closeDisputeObject, newDispute, type DisputeObject, type DisputeOutcome, type DisputeReason } from './disputes.js';
import {
  newCharge,
  newPaymentIntent,
  settleFailed,
  settleSucceeded,
  type ChargeObject,
  type PaymentInput,
  type PaymentIntentObject,
} from './payment-objects.js';
import { applyRefund, failRefund, newRefund, refundAmount, type RefundObject, type RefundRequest } from './refunds.js';
import { nowSeconds, stripeId } from './stripe-ids.js';
import { noSuch, StripeApiError } from './stripe-errors.js';
import type { EventOfType, EventRequest, StripeEventType } from './webhooks.js';

/** Records an event (the ledger never delivers; its caller does). */
export type EmitEvent = <T extends StripeEventType>(
  type: T,
  object: EventOfType<T>['data']['object'],
  options?: { request?: EventRequest; previousAttributes?: EventOfType<T>['data']['previous_attributes'] },
) => EventOfType<T>;

/** A refund and the two events it made, in the order they were created. */
export interface RefundOutcome {
  refund: RefundObject;
  chargeRefunded: Stripe.ChargeRefundedEvent;
  refundCreated: Stripe.RefundCreatedEvent;
}

/** The fake's PaymentIntents, Charges, Refunds and Disputes, and what changes them. */
export interface PaymentLedger {
  /** A customer pays: a PaymentIntent and its Charge (settled for a card, processing for a bank debit). */
  startPayment(input: PaymentInput): PaymentIntentObject;
  /** A processing bank debit succeeds or fails. */
  settlePayment(paymentIntentId: string, succeeded: boolean): void;
  paymentIntent(id: string): PaymentIntentObject | undefined;
  charge(id: string): ChargeObject | undefined;
  refund(id: string): RefundObject | undefined;
  dispute(id: string): DisputeObject | undefined;
  /** Every refund, oldest first. */
  refunds(): RefundObject[];
  /** Refunds a payment (throws Stripe's errors as StripeApiError) and emits charge.refunded, then refund.created. */
  createRefund(request: RefundRequest, eventRequest?: EventRequest): RefundOutcome;
  /** A succeeded refund fails afterwards: emits charge.refund.updated, then refund.failed. */
  failRefund(refundId: string, reason: string): [Stripe.ChargeRefundUpdatedEvent, Stripe.RefundFailedEvent];
  /** The cardholder's bank opens a chargeback: emits charge.dispute.created. */
  openDispute(paymentIntentOrChargeId: string, options: { reason: DisputeReason; amount?: number }): Stripe.ChargeDisputeCreatedEvent;
  /** The chargeback ends won or lost: emits charge.dispute.closed. */
  closeDispute(disputeId: string, outcome: DisputeOutcome): Stripe.ChargeDisputeClosedEvent;
}

const OPEN_DISPUTE_STATUSES = new Set(['needs_response', 'under_review', 'warning_needs_response', 'warning_under_review']);

const idOf = (value: string | { id: string } | null): string | null => (typeof value === 'string' ? value : (value?.id ?? null));

export function createPaymentLedger(emit: EmitEvent): PaymentLedger {
  const paymentIntents = new Map<string, PaymentIntentObject>();
  const charges = new Map<string, ChargeObject>();
  const refunds = new Map<string, RefundObject>();
  const disputes = new Map<string, DisputeObject>();
  const disputeOfCharge = new Map<string, DisputeObject>();

  const latestChargeOf = (paymentIntent: PaymentIntentObject): ChargeObject | undefined => {
    const chargeId = idOf(paymentIntent.latest_charge);
    return chargeId === null ? undefined : charges.get(chargeId);
  };

  const noSuccessfulCharge = (paymentIntentId: string | null, param: string): StripeApiError =>
    new StripeApiError(400, 'invalid_request_error', `This PaymentIntent (${paymentIntentId}) does not have a successful charge to refund.`, undefined, param);

  /** The succeeded charge a refund request names (Stripe's 404 / 400 when there is none). */
  const refundableCharge = (request: RefundRequest): ChargeObject => {
    let charge: ChargeObject | undefined;
    if (request.charge !== null) {
      charge = charges.get(request.charge);
      if (!charge) throw noSuch('charge', request.charge, 'charge');
    }
    if (request.paymentIntent !== null) {
      const paymentIntent = paymentIntents.get(request.paymentIntent);
      if (!paymentIntent) throw noSuch('payment_intent', request.paymentIntent, 'payment_intent');
      const latest = latestChargeOf(paymentIntent);
      if (!latest || latest.status !== 'succeeded') throw noSuccessfulCharge(paymentIntent.id, 'payment_intent');
      if (charge && charge.id !== latest.id) {
        throw new StripeApiError(
          400,
          'invalid_request_error',
          `Charge ${charge.id} does not belong to PaymentIntent ${paymentIntent.id}.`,
          undefined,
          'charge',
        );
      }
      charge = latest;
    }
    if (!charge) throw new Error('fake Stripe: a refund names neither a charge nor a payment intent');
    if (charge.status !== 'succeeded') throw noSuccessfulCharge(idOf(charge.payment_intent), 'charge');
    return charge;
  };

  /** For the control methods: a `pi_…` or `ch_…` id to its charge, or a plain Error. */
  const chargeNamed = (id: string): ChargeObject => {
    const paymentIntent = paymentIntents.get(id);
    const charge = paymentIntent ? latestChargeOf(paymentIntent) : charges.get(id);
    if (!charge) throw new Error(`fake Stripe: no payment intent or charge ${id}`);
    return charge;
  };

  return {
    startPayment(input) {
      const ids = { charge: stripeId('ch_3', 24), paymentIntent: '', paymentMethod: stripeId('pm_1', 24) };
      const paymentIntent = newPaymentIntent(input, ids.charge, ids.paymentMethod);
      ids.paymentIntent = paymentIntent.id;
      paymentIntents.set(paymentIntent.id, paymentIntent);
      charges.set(ids.charge, newCharge(input, ids));
      return paymentIntent;
    },

    settlePayment(paymentIntentId, succeeded) {
      const paymentIntent = paymentIntents.get(paymentIntentId);
      const charge = paymentIntent && latestChargeOf(paymentIntent);
      if (!paymentIntent || !charge || paymentIntent.status !== 'processing') {
        throw new Error(`fake Stripe: payment intent ${paymentIntentId} is not processing`);
      }
      if (succeeded) settleSucceeded(paymentIntent, charge);
      else settleFailed(paymentIntent, charge);
    },

    paymentIntent: (id) => paymentIntents.get(id),
    charge: (id) => charges.get(id),
    refund: (id) => refunds.get(id),
    dispute: (id) => disputes.get(id),
    refunds: () => [...refunds.values()],

    createRefund(request, eventRequest) {
      const charge = refundableCharge(request);
      const dispute = disputeOfCharge.get(charge.id);
      const amount = refundAmount(charge, request.amount, dispute !== undefined && !dispute.is_charge_refundable);
      const refund = newRefund(charge, { amount, reason: request.reason, metadata: request.metadata }, nowSeconds());
      refunds.set(refund.id, refund);
      const previousAttributes = applyRefund(charge, refund);
      const chargeRefunded = emit('charge.refunded', charge, { request: eventRequest, previousAttributes });
      const refundCreated = emit('refund.created', refund, { request: eventRequest });
      return { refund, chargeRefunded, refundCreated };
    },

    failRefund(refundId, reason) {
      const refund = refunds.get(refundId);
      if (!refund) throw new Error(`fake Stripe: no refund ${refundId}`);
      if (refund.status !== 'succeeded' && refund.status !== 'pending') throw new Error(`fake Stripe: refund ${refundId} is ${refund.status}`);
      const charge = charges.get(idOf(refund.charge)!)!;
      const previous = failRefund(charge, refund, reason);
      const updated = emit('charge.refund.updated', refund, { previousAttributes: previous.refund });
      const failed = emit('refund.failed', refund, {});
      return [updated, failed];
    },

    openDispute(paymentIntentOrChargeId, options) {
      const charge = chargeNamed(paymentIntentOrChargeId);
      if (charge.status !== 'succeeded') throw new Error(`fake Stripe: charge ${charge.id} is ${charge.status}; only a succeeded charge can be disputed`);
      if (disputeOfCharge.has(charge.id)) throw new Error(`fake Stripe: charge ${charge.id} is already disputed`);
      const amount = options.amount ?? charge.amount - charge.amount_refunded;
      if (!Number.isSafeInteger(amount) || amount < 1 || amount > charge.amount) {
        throw new Error(`fake Stripe: a dispute of charge ${charge.id} takes 1 to ${charge.amount}, not ${amount}`);
      }
      const dispute = newDispute(charge, { amount, reason: options.reason, created: nowSeconds() });
      disputes.set(dispute.id, dispute);
      disputeOfCharge.set(charge.id, dispute);
      charge.disputed = true;
      return emit('charge.dispute.created', dispute);
    },

    closeDispute(disputeId, outcome) {
      const dispute = disputes.get(disputeId);
      if (!dispute) throw new Error(`fake Stripe: no dispute ${disputeId}`);
      if (!OPEN_DISPUTE_STATUSES.has(dispute.status)) throw new Error(`fake Stripe: dispute ${disputeId} is already closed (${dispute.status})`);
      const status = closeDisputeObject(dispute, outcome, nowSeconds());
      return emit('charge.dispute.closed', dispute, { previousAttributes: { status } });
    },
  };
}

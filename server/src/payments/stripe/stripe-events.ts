import type Stripe from 'stripe';
import type { CheckoutOutcome, CheckoutState, PaymentEvent } from '../payment-driver.js';
import { billingEventOf } from './stripe-billing-events.js';

/** The Checkout Session events that move a checkout. */
const CHECKOUT_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);

const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === 'string' ? value : (value?.id ?? null));

function outcomeOf(session: Stripe.Checkout.Session, eventType?: string): CheckoutOutcome {
  if (eventType === 'checkout.session.async_payment_failed') return 'failed';
  if (session.status === 'expired') return 'expired';
  if (session.status === 'complete' && (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')) return 'paid';
  return 'open';
}

/** What a Checkout Session (and the event that carried it, if any) says about the payment. */
export function checkoutStateOf(session: Stripe.Checkout.Session, eventType?: string): CheckoutState {
  const outcome = outcomeOf(session, eventType);
  return {
    checkoutId: session.id,
    orderId: session.metadata?.transaction_id ?? null,
    outcome,
    amountPaid: outcome === 'paid' ? session.amount_total : null,
    currency: session.currency,
    paymentRef: idOf(session.payment_intent),
    subscriptionRef: idOf(session.subscription),
    customerRef: idOf(session.customer),
  };
}

/** A charge's payment is named by its PaymentIntent (what a paid Checkout Session names too). */
const paymentRefOfCharge = (charge: Stripe.Charge): string => idOf(charge.payment_intent) ?? charge.id;

function disputeRef(dispute: Stripe.Dispute): string {
  return idOf(dispute.payment_intent) ?? idOf(dispute.charge) ?? dispute.id;
}

/** Stripe's event in our words; null for an event we do not act on. */
export function paymentEventOf(event: Stripe.Event): PaymentEvent | null {
  if (CHECKOUT_EVENTS.has(event.type)) {
    return { kind: 'checkout', checkout: checkoutStateOf(event.data.object as Stripe.Checkout.Session, event.type) };
  }
  switch (event.type) {
    case 'charge.refunded': {
      const charge = event.data.object;
      return {
        kind: 'refunded',
        paymentRef: paymentRefOfCharge(charge),
        amountRefunded: charge.amount_refunded,
        currency: charge.currency,
        fullyRefunded: charge.refunded,
      };
    }
    // A refund Stripe had accepted failed (the card was closed, the bank refused it): the money is back with the operator.
    case 'refund.failed':
    case 'charge.refund.updated': {
      const refund = event.data.object;
      if (refund.status !== 'failed') return null;
      const paymentRef = idOf(refund.payment_intent) ?? idOf(refund.charge);
      if (!paymentRef) return null;
      return {
        kind: 'refund_failed',
        paymentRef,
        refundId: refund.id,
        refundRef: refund.metadata?.refund_id ?? null,
        amount: refund.amount,
        reason: refund.failure_reason ?? null,
      };
    }
    case 'charge.dispute.created': {
      const dispute = event.data.object;
      return { kind: 'disputed', paymentRef: disputeRef(dispute), disputeId: dispute.id, amount: dispute.amount, reason: dispute.reason ?? null };
    }
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      // 'warning_closed' ends an inquiry that never became a chargeback: the money stays ours.
      return { kind: 'dispute_closed', paymentRef: disputeRef(dispute), disputeId: dispute.id, outcome: dispute.status === 'lost' ? 'lost' : 'won' };
    }
    default:
      return billingEventOf(event);
  }
}

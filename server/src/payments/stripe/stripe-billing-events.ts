import type Stripe from 'stripe';
import type { InvoiceState, RecurringState, RecurringStatus } from '../payment-driver.js';

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** Stripe's subscription statuses in ours: trialing runs, unpaid and paused wait for a card, the expired first payment is over. */
const STATUSES: Record<Stripe.Subscription.Status, RecurringStatus> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  paused: 'past_due',
  incomplete: 'incomplete',
  incomplete_expired: 'canceled',
  canceled: 'canceled',
};

/** The subscription an invoice bills, and its metadata (this API version names them under `parent`). */
function subscriptionOf(invoice: Stripe.Invoice): { ref: string | null; metadata: Record<string, string> } {
  const details = invoice.parent?.subscription_details;
  return { ref: idOf(details?.subscription), metadata: details?.metadata ?? {} };
}

/** The PaymentIntent that paid the invoice, when `payments` was expanded. */
function paidWith(invoice: Stripe.Invoice): string | null {
  const payment = invoice.payments?.data.find((entry) => entry.status === 'paid') ?? invoice.payments?.data[0];
  return idOf(payment?.payment.payment_intent ?? null);
}

function outcomeOf(invoice: Stripe.Invoice, eventType?: string): InvoiceState['outcome'] {
  if (eventType === 'invoice.payment_failed') return 'failed';
  if (invoice.status === 'paid') return 'paid';
  if (invoice.status === 'void' || invoice.status === 'uncollectible') return 'void';
  return invoice.attempted && invoice.attempt_count > 0 ? 'failed' : 'open';
}

/** A subscription's invoice in our words; null for an invoice that bills no subscription. */
export function invoiceStateOf(invoice: Stripe.Invoice, eventType?: string): InvoiceState | null {
  const subscription = subscriptionOf(invoice);
  if (!subscription.ref || !invoice.id) return null;
  // The line bills the subscription's period; the invoice's own period_start/end is the one before it.
  const line = invoice.lines.data.find((entry) => entry.parent?.subscription_item_details) ?? invoice.lines.data[0];
  const period = line?.period ?? { start: invoice.period_start, end: invoice.period_end };
  return {
    invoiceId: invoice.id,
    subscriptionRef: subscription.ref,
    orderRef: subscription.metadata.subscription_id ?? null,
    outcome: outcomeOf(invoice, eventType),
    first: invoice.billing_reason === 'subscription_create',
    amountDue: invoice.amount_due,
    amountPaid: invoice.amount_paid,
    currency: invoice.currency,
    periodStart: fromUnix(period.start),
    periodEnd: fromUnix(period.end),
    paymentRef: paidWith(invoice),
    nextAttemptAt: invoice.next_payment_attempt ? fromUnix(invoice.next_payment_attempt) : null,
  };
}

/** A subscription in our words, as it was at `observedAt`. */
export function recurringStateOf(subscription: Stripe.Subscription, observedAt: Date): RecurringState {
  const item = subscription.items.data[0];
  return {
    subscriptionRef: subscription.id,
    customerRef: idOf(subscription.customer)!,
    orderRef: subscription.metadata?.subscription_id ?? null,
    status: STATUSES[subscription.status] ?? 'incomplete',
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    canceledAt: subscription.canceled_at ? fromUnix(subscription.canceled_at) : null,
    currentPeriodEnd: item ? fromUnix(item.current_period_end) : null,
    observedAt,
  };
}

/** Stripe's Billing events that move our subscriptions. */
export function billingEventOf(event: Stripe.Event): { kind: 'invoice'; invoice: InvoiceState } | { kind: 'subscription'; subscription: RecurringState } | null {
  switch (event.type) {
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = invoiceStateOf(event.data.object, event.type);
      return invoice ? { kind: 'invoice', invoice } : null;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return { kind: 'subscription', subscription: recurringStateOf(event.data.object, fromUnix(event.created)) };
    default:
      return null;
  }
}

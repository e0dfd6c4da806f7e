import type Stripe from 'stripe';
import { PaymentProviderError, UnreadableEventError, type InvoiceState, type PaymentEvent, type RecurringState } from '../payment-driver.js';
import { billingShapeOf, OLDEST_READABLE_VERSION } from './stripe-api-versions.js';
import { readInvoice, readSubscription, ShapeError } from './stripe-billing-objects.js';

const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** What our API calls get back is in the SDK's own version, the current shape; anything else is Stripe's fault. */
function fromApi<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ShapeError) throw new PaymentProviderError(`Stripe answered an object this version cannot read: ${err.message}`);
    throw err;
  }
}

/** An invoice read from the API (the SDK's version) in our words; null for an invoice that bills no subscription. */
export const invoiceStateOf = (invoice: Stripe.Invoice): InvoiceState | null => fromApi(() => readInvoice('current', invoice));

/** A subscription read from the API (the SDK's version) in our words, as it was at `observedAt`. */
export const recurringStateOf = (subscription: Stripe.Subscription, observedAt: Date): RecurringState =>
  fromApi(() => readSubscription('current', subscription, observedAt));

const INVOICE_EVENTS = new Set(['invoice.paid', 'invoice.payment_failed']);
const SUBSCRIPTION_EVENTS = new Set(['customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted']);

/**
 * Stripe's Billing events that move our subscriptions, read in the shape of the event's own API version (the
 * webhook endpoint's). Throws UnreadableEventError for a version older than we read, or an object without a
 * field we need: such an event must not be acknowledged as if it said nothing.
 */
export function billingEventOf(event: Stripe.Event): Extract<PaymentEvent, { kind: 'invoice' | 'subscription' }> | null {
  const isInvoice = INVOICE_EVENTS.has(event.type);
  if (!isInvoice && !SUBSCRIPTION_EVENTS.has(event.type)) return null;
  const described = { id: event.id, type: event.type, apiVersion: event.api_version };
  const shape = billingShapeOf(event.api_version);
  if (!shape)
    throw new UnreadableEventError(
      described,
      `API version ${event.api_version ?? '(none)'} is not one this version reads (${OLDEST_READABLE_VERSION} or later)`,
    );
  try {
    if (!isInvoice) return { kind: 'subscription', subscription: readSubscription(shape, event.data.object, fromUnix(event.created)) };
    const invoice = readInvoice(shape, event.data.object, event.type);
    return invoice ? { kind: 'invoice', invoice } : null;
  } catch (err) {
    if (err instanceof ShapeError) throw new UnreadableEventError(described, `${err.message} (read as API version ${event.api_version})`);
    throw err;
  }
}

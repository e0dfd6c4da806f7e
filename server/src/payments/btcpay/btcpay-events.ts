/** What a BTCPay invoice (and the webhook that names it) means to us: our CheckoutState and events. */
import type { CheckoutOutcome, CheckoutState } from '../payment-driver.js';
import { currencyDecimals } from '../../../../shared/currencies.js';
import { decimalToMinor } from './btcpay-amounts.js';
import type { GreenfieldInvoice, GreenfieldPaymentMethod, GreenfieldWebhookEvent } from './greenfield-types.js';

/**
 * The webhook types after which we read the invoice and report it as a checkout event. Each says the
 * invoice moved (payment seen, paid in full, a payment confirmed — for a late payment, the only event its
 * confirmation sends —, settled, expired, paid late, invalid); the read says where it stands now, so a late or repeated delivery can only repeat or advance what we know.
 */
export const INVOICE_EVENT_TYPES: ReadonlySet<string> = new Set([
  'InvoiceReceivedPayment',
  'InvoiceProcessing',
  'InvoicePaymentSettled',
  'InvoiceSettled',
  'InvoiceExpired',
  'InvoiceExpiredPaidPartial',
  'InvoicePaidAfterExpiration',
  'InvoiceInvalid',
]);

/**
 * Settled (confirmed under the store's speed policy, or marked settled by the operator) is paid. An
 * invoice paid in full after its expiry stays Expired with PaidLate, and BTCPay never settles it (its
 * invoice watcher moves only a Processing invoice on to Settled): it is paid once its payments are
 * confirmed (`lateConfirmed`, read from its payment methods), open until then — an unconfirmed payment
 * can still be replaced. Invalid (marked invalid, or payments that never confirmed) is failed. New and
 * Processing (paid, waiting for confirmations) are open.
 */
export function outcomeOf(invoice: Pick<GreenfieldInvoice, 'status' | 'additionalStatus'>, lateConfirmed = false): CheckoutOutcome {
  switch (invoice.status) {
    case 'Settled':
      return 'paid';
    case 'Expired':
      if (invoice.additionalStatus !== 'PaidLate') return 'expired';
      return lateConfirmed ? 'paid' : 'open';
    case 'Invalid':
      return 'failed';
    default:
      return 'open';
  }
}

/**
 * Whether the invoice's payment methods are worth a read: for what was paid when some payment may have
 * arrived without the invoice being settled, for the confirmations of a late payment, and for how much
 * an overpaid one got. Nothing is paid on a New or Expired invoice without an additional status, and a
 * Settled one is paid in full.
 */
export function needsPaymentRead(invoice: Pick<GreenfieldInvoice, 'status' | 'additionalStatus'>): boolean {
  if (invoice.status === 'Settled') return invoice.additionalStatus === 'PaidOver';
  return !((invoice.status === 'New' || invoice.status === 'Expired') && invoice.additionalStatus === 'None');
}

/**
 * What is paid and still due, in minor units of the invoice currency, from its payment methods: the crypto
 * paid by all methods (`totalPaid`, in the first method's currency) times that method's `rate`, and due =
 * the invoice amount minus that (never below 0). Approximate (the rate of the invoice, network fees
 * included), for showing progress and for review; null when no method says.
 */
export function cryptoProgress(invoiceAmount: number, currency: string, methods: GreenfieldPaymentMethod[]): { amountPaid: number; amountDue: number } | null {
  const method = methods.find((m) => Number(m.rate) > 0 && Number.isFinite(Number(m.totalPaid)));
  if (!method) return null;
  const scale = 10 ** currencyDecimals(currency);
  const amountPaid = Math.max(0, Math.round(Number(method.totalPaid) * Number(method.rate) * scale));
  return { amountPaid, amountDue: Math.max(0, invoiceAmount - amountPaid) };
}

/**
 * Whether every payment that still counts (not Invalid) is Settled, i.e. has the confirmations the store's
 * speed policy asks for; false when there is none, or when the server lists no payments.
 */
export function paymentsConfirmed(methods: GreenfieldPaymentMethod[]): boolean {
  const counted = methods.flatMap((m) => (Array.isArray(m.payments) ? m.payments : [])).filter((p) => p.status !== 'Invalid');
  return counted.length > 0 && counted.every((p) => p.status === 'Settled');
}

/** What a read of the invoice's payment methods said (see needsPaymentRead). */
export interface PaymentRead {
  progress: { amountPaid: number; amountDue: number } | null;
  confirmed: boolean;
}

/** The payment methods as a PaymentRead. */
export function paymentReadOf(invoiceAmount: number, currency: string, methods: GreenfieldPaymentMethod[]): PaymentRead {
  return { progress: cryptoProgress(invoiceAmount, currency, methods), confirmed: paymentsConfirmed(methods) };
}

/** The amounts when no payment-method read was needed (see needsPaymentRead). */
function knownProgress(invoice: GreenfieldInvoice, invoiceAmount: number): { amountPaid: number; amountDue: number } | null {
  if (invoice.status === 'Settled' && invoice.additionalStatus !== 'PaidOver') return { amountPaid: invoiceAmount, amountDue: 0 };
  if (!needsPaymentRead(invoice)) return { amountPaid: 0, amountDue: invoiceAmount };
  return null;
}

/**
 * The invoice as our CheckoutState; `read` is what its payment methods said, when they were read. A paid
 * invoice was paid its price (BTCPay's tolerance aside), so amountPaid is the invoice amount; what the
 * customer really sent (more when overpaid, some on an expired or invalid one) is in `crypto.amountPaid`.
 * `paymentRef` (the invoice) is set once there is money to refund: paid, or closed with a payment on it.
 */
export function checkoutStateOf(invoice: GreenfieldInvoice, read: PaymentRead | null = null): CheckoutState {
  const outcome = outcomeOf(invoice, read?.confirmed ?? false);
  const currency = invoice.currency.toLowerCase();
  const amount = decimalToMinor(invoice.amount, currency);
  const orderId = invoice.metadata?.orderId;
  const seen = read?.progress ?? (amount === null ? null : knownProgress(invoice, amount));
  // A closed invoice with money on it can be refunded too: refunds name the invoice.
  const closedWithMoney = (outcome === 'expired' || outcome === 'failed') && (seen?.amountPaid ?? 0) > 0;
  return {
    checkoutId: invoice.id,
    orderId: typeof orderId === 'string' && orderId ? orderId : null,
    outcome,
    amountPaid: outcome === 'paid' ? amount : null,
    currency,
    paymentRef: outcome === 'paid' || closedWithMoney ? invoice.id : null,
    crypto: {
      status: invoice.status,
      additionalStatus: invoice.additionalStatus,
      amountDue: seen?.amountDue ?? null,
      amountPaid: seen?.amountPaid ?? null,
    },
  };
}

/** Thrown by the parse below at a NUL character in a key or a string (no field of BTCPay's holds one). */
const NUL_FOUND = new Error('NUL');

/**
 * The webhook body as a Greenfield event, or null when it is not one (checked after the signature): not JSON,
 * not an event, or a NUL character in any key or string (PostgreSQL cannot store one, and BTCPay never sends it).
 */
export function parseWebhookEvent(rawBody: Buffer): GreenfieldWebhookEvent | null {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'), (key, value: unknown) => {
      if (key.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000'))) throw NUL_FOUND;
      return value;
    });
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const event = body as Partial<GreenfieldWebhookEvent>;
  if (typeof event.deliveryId !== 'string' || !event.deliveryId || typeof event.type !== 'string' || !event.type) return null;
  return {
    ...event,
    deliveryId: event.deliveryId,
    webhookId: typeof event.webhookId === 'string' ? event.webhookId : '',
    originalDeliveryId: typeof event.originalDeliveryId === 'string' && event.originalDeliveryId ? event.originalDeliveryId : null,
    isRedelivery: event.isRedelivery === true,
    type: event.type,
    timestamp: typeof event.timestamp === 'number' ? event.timestamp : 0,
  };
}

/**
 * The delivery's id for our exactly-once gate: a redelivery (BTCPay's "Redeliver" button, or its automatic
 * retries) carries the first delivery's id in `originalDeliveryId`, so every delivery of one event has one id.
 */
export const eventIdOf = (event: GreenfieldWebhookEvent): string => event.originalDeliveryId ?? event.deliveryId;

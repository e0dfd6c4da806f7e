/**
 * InvoicePayments: what paid (or tried to pay) an invoice. In this API version the invoice no longer names its
 * PaymentIntent; its payments are an includable `payments` list (`expand[]=payments`) and `GET /v1/invoice_payments`.
 *
 * The fake makes one PaymentIntent per attempt (Stripe retries the invoice's one PaymentIntent), so an invoice
 * whose card declined before it was paid has several payments: the latest is the default one (`is_default`), and
 * the earlier, unpaid ones are canceled at the next attempt.
 */
import type Stripe from 'stripe';
import type { FormHash } from './form-body.js';
import { hashParam, optionalString, rejectUnknown, requiredString, unsupported } from './form-params.js';
import type { PaymentLedger } from './payment-ledger.js';
import { PAGE_PARAMS } from './list-pages.js';
import { invalidParam } from './stripe-errors.js';
import { stripeId } from './stripe-ids.js';

export type InvoicePaymentObject = Stripe.InvoicePayment;

/** One attempt to pay an invoice: the PaymentIntent made for it, and when. */
interface Attempt {
  id: string;
  invoice: string;
  paymentIntent: string;
  created: number;
}

export interface InvoicePayments {
  /** Records the PaymentIntent made to pay an invoice (one per attempt). */
  record(invoiceId: string, paymentIntentId: string, created: number): void;
  /** The PaymentIntents that tried to pay an invoice, oldest first. */
  paymentIntentsOf(invoiceId: string): string[];
  /** The invoice's payments as they are now, oldest first. */
  of(invoiceId: string): InvoicePaymentObject[];
  get(id: string): InvoicePaymentObject | undefined;
  /** Every invoice payment, oldest first. */
  all(): InvoicePaymentObject[];
}

export function createInvoicePayments(ledger: Pick<PaymentLedger, 'paymentIntent'>): InvoicePayments {
  const attempts: Attempt[] = [];
  const attemptsOf = (invoiceId: string): Attempt[] => attempts.filter((attempt) => attempt.invoice === invoiceId);
  const show = (attempt: Attempt): InvoicePaymentObject => {
    const ofInvoice = attemptsOf(attempt.invoice);
    return invoicePaymentOf(attempt, ofInvoice[ofInvoice.indexOf(attempt) + 1], ledger);
  };
  return {
    record(invoiceId, paymentIntentId, created) {
      attempts.push({ id: stripeId('inpay_1', 23), invoice: invoiceId, paymentIntent: paymentIntentId, created });
    },
    paymentIntentsOf: (invoiceId) => attemptsOf(invoiceId).map((attempt) => attempt.paymentIntent),
    of: (invoiceId) => attemptsOf(invoiceId).map(show),
    get(id) {
      const attempt = attempts.find((a) => a.id === id);
      return attempt && show(attempt);
    },
    all: () => attempts.map(show),
  };
}

/** An attempt as Stripe shows it: paid once its PaymentIntent succeeded, canceled once a later attempt replaced it, else open. */
function invoicePaymentOf(attempt: Attempt, next: Attempt | undefined, ledger: Pick<PaymentLedger, 'paymentIntent'>): InvoicePaymentObject {
  const paymentIntent = ledger.paymentIntent(attempt.paymentIntent);
  if (!paymentIntent) throw new Error(`fake Stripe: no payment intent ${attempt.paymentIntent}`);
  const paid = paymentIntent.status === 'succeeded';
  const canceledAt = !paid && next ? next.created : null;
  return {
    id: attempt.id,
    object: 'invoice_payment',
    amount_paid: paid ? paymentIntent.amount_received : null,
    amount_requested: paymentIntent.amount,
    created: attempt.created,
    currency: paymentIntent.currency,
    invoice: attempt.invoice,
    is_default: next === undefined,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: paymentIntent.id },
    status: paid ? 'paid' : canceledAt !== null ? 'canceled' : 'open',
    status_transitions: { canceled_at: canceledAt, paid_at: paid ? attempt.created : null },
  };
}

/** `invoice.payments` when it is included: the invoice's payments, newest first. */
export function includedPayments(payments: InvoicePaymentObject[]): Stripe.ApiList<InvoicePaymentObject> {
  return { object: 'list', data: [...payments].reverse(), has_more: false, url: '/v1/invoice_payments' };
}

/** What `GET /v1/invoice_payments` filters by. */
export interface InvoicePaymentFilter {
  invoice?: string;
  paymentIntent?: string;
  status?: string;
}

const LIST_PARAMS = new Set(['created', 'expand', 'invoice', 'payment', 'status', ...PAGE_PARAMS]);
const PAYMENT_FILTER = new Set(['payment_intent', 'payment_record', 'type']);
const STATUSES = ['canceled', 'open', 'paid'];

/**
 * `GET /v1/invoice_payments` parameters. The fake lists the payments of one invoice (`invoice`) or of one
 * PaymentIntent (`payment[type]=payment_intent&payment[payment_intent]=pi_…`), not every payment of the account.
 */
export function parseInvoicePaymentList(params: FormHash): InvoicePaymentFilter {
  rejectUnknown(params, LIST_PARAMS, '');
  if (params.created !== undefined) throw unsupported('created', 'filtering invoice payments by created');
  if (params.expand !== undefined) throw unsupported('expand', 'expand on invoice payment lists');
  const invoice = optionalString(params.invoice, 'invoice');
  const payment = hashParam(params.payment, 'payment');
  let paymentIntent: string | undefined;
  if (payment) {
    rejectUnknown(payment, PAYMENT_FILTER, 'payment');
    const type = requiredString(payment.type, 'payment[type]');
    if (type !== 'payment_intent') throw unsupported('payment[type]', `invoice payments of type ${type}`);
    paymentIntent = requiredString(payment.payment_intent, 'payment[payment_intent]');
  }
  if (invoice === undefined && paymentIntent === undefined) throw unsupported('invoice', 'listing invoice payments without `invoice` or `payment`');
  const status = optionalString(params.status, 'status');
  if (status !== undefined && !STATUSES.includes(status)) throw invalidParam('status', 'Invalid status: must be one of canceled, open, or paid');
  return { invoice, paymentIntent, status };
}

export function matchesFilter(payment: InvoicePaymentObject, filter: InvoicePaymentFilter): boolean {
  return (
    (filter.invoice === undefined || payment.invoice === filter.invoice) &&
    (filter.paymentIntent === undefined || payment.payment.payment_intent === filter.paymentIntent) &&
    (filter.status === undefined || payment.status === filter.status)
  );
}

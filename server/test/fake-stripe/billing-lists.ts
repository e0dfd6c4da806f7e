/**
 * The Billing reads that list or include: `GET /v1/prices`, `GET /v1/subscriptions`, `GET /v1/invoices`,
 * `GET /v1/invoices/:id` (`expand[]=payments`), `GET /v1/invoice_payments` and `GET /v1/invoice_payments/:id`.
 * Lists are newest first, `limit` 1 to 100 (default 10), with `starting_after` / `ending_before`.
 */
import type Stripe from 'stripe';
import type { Billing } from './billing.js';
import type { FormHash } from './form-body.js';
import { booleanParam, expandParam, listParam, optionalString, rejectUnknown, requiredString, retrieveParams, unsupported } from './form-params.js';
import { json, type HttpAnswer } from './http.js';
import { includedPayments, matchesFilter, parseInvoicePaymentList } from './invoice-payments.js';
import type { InvoiceObject } from './invoices.js';
import { listPage, newestFirst, PAGE_PARAMS } from './list-pages.js';
import type { PriceObject } from './products-prices.js';
import { invalidParam, noSuch } from './stripe-errors.js';
import type { SubscriptionObject } from './subscription-objects.js';

/** Every parameter of PriceListParams (SDK 23.1.0). */
const PRICE_LIST = new Set(['active', 'created', 'currency', 'expand', 'lookup_keys', 'product', 'recurring', 'type', ...PAGE_PARAMS]);
const PRICE_LIST_UNMODELLED = ['created', 'recurring'];
const MAX_LOOKUP_KEYS = 10;

/** `GET /v1/prices`: filtered by `lookup_keys[]`, `active`, `product`, `currency`, `type`; `expand[]=data.product`. */
export function listPrices(params: FormHash, billing: Billing): Stripe.ApiList<PriceObject> {
  rejectUnknown(params, PRICE_LIST, '');
  for (const param of PRICE_LIST_UNMODELLED) if (params[param] !== undefined) throw unsupported(param, `filtering prices by ${param}`);
  const expand = expandParam(params.expand, ['data.product']);
  const lookupKeys = listParam(params.lookup_keys, 'lookup_keys')?.map((key, i) => requiredString(key, `lookup_keys[${i}]`));
  if (lookupKeys && lookupKeys.length > MAX_LOOKUP_KEYS) {
    throw invalidParam('lookup_keys', `You can pass at most ${MAX_LOOKUP_KEYS} lookup keys (got ${lookupKeys.length}).`);
  }
  const active = booleanParam(params.active, 'active');
  const product = optionalString(params.product, 'product');
  const currency = optionalString(params.currency, 'currency')?.toLowerCase();
  const type = optionalString(params.type, 'type');
  if (type !== undefined && type !== 'one_time' && type !== 'recurring') throw invalidParam('type', 'Invalid type: must be one of one_time or recurring');
  const matching = billing
    .prices()
    .filter((price) => lookupKeys === undefined || (price.lookup_key !== null && lookupKeys.includes(price.lookup_key)))
    .filter((price) => active === undefined || price.active === active)
    .filter((price) => product === undefined || price.product === product)
    .filter((price) => currency === undefined || price.currency === currency)
    .filter((price) => type === undefined || price.type === type);
  const page = listPage(newestFirst(matching), params, 'price', '/v1/prices');
  if (!expand.has('data.product')) return page;
  return { ...page, data: page.data.map((price) => ({ ...price, product: billing.product(price.product as string)! })) };
}

/** Every parameter of SubscriptionListParams (SDK 23.1.0). */
const SUBSCRIPTION_LIST = new Set([
  'automatic_tax',
  'collection_method',
  'created',
  'current_period_end',
  'current_period_start',
  'customer',
  'customer_account',
  'expand',
  'plan',
  'price',
  'status',
  'test_clock',
  ...PAGE_PARAMS,
]);
const SUBSCRIPTION_LIST_UNMODELLED = ['automatic_tax', 'collection_method', 'created', 'current_period_end', 'current_period_start', 'customer_account'];
const SUBSCRIPTION_STATUSES = ['active', 'all', 'canceled', 'ended', 'incomplete', 'incomplete_expired', 'past_due', 'paused', 'trialing', 'unpaid'];

/** Which statuses `status` asks for: none given = every subscription that is not canceled, as at Stripe. */
function matchesStatus(subscription: SubscriptionObject, status: string | undefined): boolean {
  if (status === undefined) return subscription.status !== 'canceled';
  if (status === 'all') return true;
  if (status === 'ended') return subscription.status === 'canceled' || subscription.status === 'incomplete_expired';
  return subscription.status === status;
}

/** `GET /v1/subscriptions`: by `customer`, `status`, `price` (or `plan`), `test_clock`; `expand[]=data.customer`, `data.latest_invoice`. */
export function listSubscriptions(params: FormHash, billing: Billing): Stripe.ApiList<SubscriptionObject> {
  rejectUnknown(params, SUBSCRIPTION_LIST, '');
  for (const param of SUBSCRIPTION_LIST_UNMODELLED) if (params[param] !== undefined) throw unsupported(param, `filtering subscriptions by ${param}`);
  const expand = expandParam(params.expand, ['data.customer', 'data.latest_invoice']);
  const customer = optionalString(params.customer, 'customer');
  const price = optionalString(params.price, 'price') ?? optionalString(params.plan, 'plan');
  const testClock = optionalString(params.test_clock, 'test_clock');
  const status = optionalString(params.status, 'status');
  if (status !== undefined && !SUBSCRIPTION_STATUSES.includes(status)) {
    throw invalidParam('status', `Invalid status: must be one of ${SUBSCRIPTION_STATUSES.slice(0, -1).join(', ')}, or ${SUBSCRIPTION_STATUSES.at(-1)}`);
  }
  const matching = billing
    .subscriptions()
    .filter((s) => customer === undefined || s.customer === customer)
    .filter((s) => price === undefined || s.items.data.some((item) => item.price.id === price))
    .filter((s) => testClock === undefined || s.test_clock === testClock)
    .filter((s) => matchesStatus(s, status));
  const page = listPage(newestFirst(matching), params, 'subscription', '/v1/subscriptions');
  return { ...page, data: page.data.map((s) => expandSubscription(s, expand, billing)) };
}

/** A subscription with `customer` and `latest_invoice` expanded when asked (paths relative to the subscription). */
export function expandSubscription(subscription: SubscriptionObject, expand: Set<string>, billing: Billing): SubscriptionObject {
  const has = (path: string) => expand.has(path) || expand.has(`data.${path}`);
  const latest = subscription.latest_invoice as string | null;
  return {
    ...subscription,
    ...(has('latest_invoice') && latest ? { latest_invoice: billing.invoice(latest) } : {}),
    ...(has('customer') ? { customer: billing.customer(subscription.customer as string)! } : {}),
  };
}

/** Every parameter of InvoiceListParams (SDK 23.1.0). */
const INVOICE_LIST = new Set(['collection_method', 'created', 'customer', 'customer_account', 'due_date', 'expand', 'status', 'subscription', ...PAGE_PARAMS]);
const INVOICE_LIST_UNMODELLED = ['collection_method', 'created', 'customer_account', 'due_date'];
const INVOICE_STATUSES = ['draft', 'open', 'paid', 'uncollectible', 'void'];

/** `GET /v1/invoices`: by `subscription`, `customer`, `status`; `expand[]=data.payments` includes each invoice's payments. */
export function listInvoices(params: FormHash, billing: Billing): Stripe.ApiList<InvoiceObject> {
  rejectUnknown(params, INVOICE_LIST, '');
  for (const param of INVOICE_LIST_UNMODELLED) if (params[param] !== undefined) throw unsupported(param, `filtering invoices by ${param}`);
  const expand = expandParam(params.expand, ['data.payments']);
  const subscription = optionalString(params.subscription, 'subscription');
  const customer = optionalString(params.customer, 'customer');
  const status = optionalString(params.status, 'status');
  if (status !== undefined && !INVOICE_STATUSES.includes(status)) {
    throw invalidParam('status', 'Invalid status: must be one of draft, open, paid, uncollectible, or void');
  }
  const matching = billing
    .invoices()
    .filter((invoice) => subscription === undefined || invoice.parent?.subscription_details?.subscription === subscription)
    .filter((invoice) => customer === undefined || invoice.customer === customer)
    .filter((invoice) => status === undefined || invoice.status === status);
  const page = listPage(newestFirst(matching), params, 'invoice', '/v1/invoices');
  if (!expand.has('data.payments')) return page;
  return { ...page, data: page.data.map((invoice) => withPayments(invoice, billing)) };
}

/** `GET /v1/invoices/:id`; `expand[]=payments` includes the invoice's payments. */
export function retrieveInvoice(params: FormHash, id: string, billing: Billing): HttpAnswer {
  const expand = retrieveParams(params, ['payments']);
  const invoice = billing.invoice(id);
  if (!invoice) throw noSuch('invoice', id, 'id');
  return json(200, expand.has('payments') ? withPayments(invoice, billing) : invoice);
}

const withPayments = (invoice: InvoiceObject, billing: Billing): InvoiceObject => ({
  ...invoice,
  payments: includedPayments(billing.invoicePayments.of(invoice.id)),
});

/** `GET /v1/invoice_payments?invoice=in_…` (or `payment[payment_intent]=pi_…`), by `status`. */
export function listInvoicePayments(params: FormHash, billing: Billing): Stripe.ApiList<Stripe.InvoicePayment> {
  const filter = parseInvoicePaymentList(params);
  if (filter.invoice !== undefined && !billing.invoice(filter.invoice)) throw noSuch('invoice', filter.invoice, 'invoice');
  const matching = billing.invoicePayments.all().filter((payment) => matchesFilter(payment, filter));
  return listPage(newestFirst(matching), params, 'invoice_payment', '/v1/invoice_payments');
}

/** `GET /v1/invoice_payments/:id`. */
export function retrieveInvoicePayment(params: FormHash, id: string, billing: Billing): HttpAnswer {
  retrieveParams(params);
  const payment = billing.invoicePayments.get(id);
  if (!payment) throw noSuch('invoice_payment', id, 'id');
  return json(200, payment);
}

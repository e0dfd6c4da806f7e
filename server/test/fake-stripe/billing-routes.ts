/**
 * The Billing endpoints: customers, products, prices, subscriptions, invoices and their payments, test clocks and
 * customer portal sessions (lists are in billing-lists.ts). Events a request causes are delivered in the background
 * (the answer does not wait, as at Stripe).
 */
import type { Billing, SubscriptionChange } from './billing.js';
import type { BillingPortal } from './billing-portal.js';
import {
  expandSubscription,
  listInvoicePayments,
  listInvoices,
  listPrices,
  listSubscriptions,
  retrieveInvoice,
  retrieveInvoicePayment,
} from './billing-lists.js';
import { adjustBalance, balanceTransactionsOf, parseBalanceAdjustment } from './customers.js';
import type { FormHash } from './form-body.js';
import { booleanParam, integerParam, optionalString, rejectUnknown, retrieveParams, unsupported } from './form-params.js';
import { eventRequest, json, type ApiContext, type HttpAnswer } from './http.js';
import { mergeMetadata } from './products-prices.js';
import { invalidParam, noSuch } from './stripe-errors.js';
import { nowSeconds } from './stripe-ids.js';
import { parseItemsParam, parsePaymentBehavior, parsePreview, parseProrationDate } from './prorations.js';
import { parseAdvance, parseTestClockCreate } from './test-clocks.js';
import type { StripeEventObject } from './webhooks.js';

export interface BillingRoutesDeps {
  billing: Billing;
  portal: BillingPortal;
  deliverInBackground(events: StripeEventObject[]): void;
}

/**
 * Every parameter SubscriptionUpdateParams knows (SDK 23.1.0); the fake acts on cancel_at_period_end, metadata,
 * trial_end with proration_behavior=none (moving the billing date), and an item's new price with
 * proration_behavior always_invoice or none (prorations.ts; create_prorations' pending invoice items are not modelled).
 */
const SUBSCRIPTION_UPDATE = new Set([
  'add_invoice_items',
  'application_fee_percent',
  'automatic_tax',
  'billing_cycle_anchor',
  'billing_schedules',
  'billing_thresholds',
  'cancel_at',
  'cancel_at_period_end',
  'cancellation_details',
  'collection_method',
  'days_until_due',
  'default_payment_method',
  'default_source',
  'default_tax_rates',
  'description',
  'discounts',
  'expand',
  'invoice_settings',
  'items',
  'metadata',
  'off_session',
  'on_behalf_of',
  'pause_collection',
  'payment_behavior',
  'payment_settings',
  'pending_invoice_item_interval',
  'proration_behavior',
  'proration_date',
  'transfer_data',
  'trial_end',
  'trial_from_plan',
  'trial_settings',
]);
const MODELLED_UPDATE = new Set([
  'cancel_at_period_end',
  'cancellation_details',
  'expand',
  'items',
  'metadata',
  'payment_behavior',
  'proration_behavior',
  'proration_date',
  'trial_end',
]);
const PRORATION_BEHAVIORS = ['always_invoice', 'create_prorations', 'none'];

/** Answers a Billing request, or returns null when the path is not one of these. */
export function routeBilling(method: string, parts: string[], ctx: ApiContext, deps: BillingRoutesDeps): HttpAnswer | null {
  const [, resource, id, action, ...rest] = parts;
  if (resource === 'test_helpers') return routeTestClocks(method, parts, ctx, deps);
  if (rest.length > 0) return null;
  const { billing } = deps;
  const single = parts.length === 3 && id !== undefined;
  switch (resource) {
    case 'customers':
      if (parts.length === 2 && method === 'POST') return json(200, billing.createCustomer(ctx.params));
      if (single && method === 'GET') return retrieve(ctx, billing.customer(id), 'customer', id);
      if (single && method === 'POST') return json(200, billing.updateCustomer(id, ctx.params));
      if (parts.length === 4 && action === 'balance_transactions' && id !== undefined) return routeBalanceTransactions(method, id, ctx, billing);
      return null;
    case 'coupons':
      if (parts.length === 2 && method === 'POST') return json(200, billing.createCoupon(ctx.params));
      if (single && method === 'GET') return retrieve(ctx, billing.coupon(id), 'coupon', id);
      return null;
    case 'products':
      if (parts.length === 2 && method === 'POST') return json(200, billing.createProduct(ctx.params));
      if (single && method === 'GET') return retrieve(ctx, billing.product(id), 'product', id);
      if (single && method === 'POST') return json(200, billing.updateProduct(id, ctx.params));
      return null;
    case 'prices':
      if (parts.length === 2 && method === 'POST') return json(200, billing.createPrice(ctx.params));
      if (parts.length === 2 && method === 'GET') return json(200, listPrices(ctx.params, billing));
      if (single && method === 'GET') return retrieve(ctx, billing.price(id), 'price', id);
      if (single && method === 'POST') return json(200, billing.updatePrice(id, ctx.params));
      return null;
    case 'subscriptions':
      if (parts.length === 2 && method === 'GET') return json(200, listSubscriptions(ctx.params, billing));
      return single ? routeSubscription(method, id, ctx, deps) : null;
    case 'invoices':
      if (single && id === 'create_preview' && method === 'POST') {
        const preview = parsePreview(ctx.params);
        return json(200, billing.previewPriceChange(preview.subscription, preview.change, preview.customer));
      }
      if (single && method === 'GET') return retrieveInvoice(ctx.params, id, billing);
      if (parts.length === 2 && method === 'GET') return json(200, listInvoices(ctx.params, billing));
      return null;
    case 'invoice_payments':
      if (single && method === 'GET') return retrieveInvoicePayment(ctx.params, id, billing);
      if (parts.length === 2 && method === 'GET') return json(200, listInvoicePayments(ctx.params, billing));
      return null;
    case 'billing_portal':
      if (id === 'sessions' && action === undefined && method === 'POST') return json(200, deps.portal.create(ctx.params));
      return null;
    default:
      return null;
  }
}

function retrieve(ctx: ApiContext, found: object | undefined, name: string, id: string): HttpAnswer {
  retrieveParams(ctx.params);
  if (!found) throw noSuch(name, id, 'id');
  return json(200, found);
}

function routeSubscription(method: string, id: string, ctx: ApiContext, deps: BillingRoutesDeps): HttpAnswer | null {
  if (method === 'GET') return retrieveSubscription(ctx, id, deps.billing);
  if (method === 'POST') {
    const current = deps.billing.subscription(id);
    if (!current) throw noSuch('subscription', id, 'id');
    const outcome = deps.billing.updateSubscription(id, parseSubscriptionUpdate(ctx.params, current.metadata), eventRequest(ctx));
    deps.deliverInBackground(outcome.events);
    return json(200, outcome.result);
  }
  if (method === 'DELETE') {
    rejectUnknown(ctx.params, new Set(['cancellation_details', 'expand', 'invoice_now', 'prorate']), '');
    if (ctx.params.invoice_now === 'true') throw unsupported('invoice_now', 'a final invoice on cancellation (invoice_now)');
    const outcome = deps.billing.cancelSubscription(id, eventRequest(ctx));
    deps.deliverInBackground(outcome.events);
    return json(200, outcome.result);
  }
  return null;
}

/** `GET /v1/subscriptions/:id`, with `expand[]=latest_invoice` and `expand[]=customer`. */
function retrieveSubscription(ctx: ApiContext, id: string, billing: Billing): HttpAnswer {
  const expand = retrieveParams(ctx.params, ['latest_invoice', 'customer']);
  const subscription = billing.subscription(id);
  if (!subscription) throw noSuch('subscription', id, 'id');
  return json(200, expandSubscription(subscription, expand, billing));
}

function parseSubscriptionUpdate(params: FormHash, metadata: Record<string, string>): SubscriptionChange {
  rejectUnknown(params, SUBSCRIPTION_UPDATE, '');
  const other = Object.keys(params).find((key) => !MODELLED_UPDATE.has(key));
  if (other !== undefined) throw unsupported(other, `updating a subscription's ${other}`);
  retrieveParams(params.expand === undefined ? {} : { expand: params.expand });
  const proration = optionalString(params.proration_behavior, 'proration_behavior');
  if (proration !== undefined && !PRORATION_BEHAVIORS.includes(proration)) {
    throw invalidParam('proration_behavior', `Invalid proration_behavior: must be one of ${PRORATION_BEHAVIORS.join(', ')}`);
  }
  const trialEnd = params.trial_end === 'now' ? 'now' : integerParam(params.trial_end, 'trial_end', 0);
  if (trialEnd === 'now') throw unsupported('trial_end', 'ending a trial now');
  if (trialEnd !== undefined && (proration ?? 'create_prorations') !== 'none')
    throw unsupported('proration_behavior', 'prorations (a trial added with proration_behavior other than none)');
  const items = parseItemsParam(params.items);
  if (items && trialEnd !== undefined) throw unsupported('items', 'a new price and a trial in one update');
  if (trialEnd === undefined && !items && proration !== undefined) throw unsupported('proration_behavior', 'prorations without a change that prorates');
  if (items && proration !== 'always_invoice' && proration !== 'none')
    throw unsupported('proration_behavior', 'a price change with create_prorations (pending proration invoice items)');
  const prorationDate = parseProrationDate(params.proration_date);
  if (prorationDate !== undefined && !items) throw unsupported('proration_date', 'proration_date without a price change');
  const paymentBehavior = parsePaymentBehavior(params.payment_behavior);
  return {
    cancelAtPeriodEnd: booleanParam(params.cancel_at_period_end, 'cancel_at_period_end'),
    metadata: params.metadata === undefined ? undefined : mergeMetadata(metadata, params.metadata, 'metadata'),
    ...(trialEnd !== undefined ? { trialEnd } : {}),
    ...(items
      ? { price: { ...items, proration: proration as 'always_invoice' | 'none', ...(prorationDate !== undefined ? { prorationDate } : {}), paymentBehavior } }
      : {}),
  };
}

/** `/v1/test_helpers/test_clocks`, `…/:id`, `…/:id/advance`. */
function routeTestClocks(method: string, parts: string[], ctx: ApiContext, deps: BillingRoutesDeps): HttpAnswer | null {
  const [, , kind, id, action, ...rest] = parts;
  if (kind !== 'test_clocks' || rest.length > 0) return null;
  if (id === undefined && method === 'POST') return json(200, deps.billing.createClock(parseTestClockCreate(ctx.params)));
  if (id === undefined) return null;
  const clock = deps.billing.clock(id);
  if (action === undefined && method === 'GET') return retrieve(ctx, clock, 'test_helpers.test_clock', id);
  if (action === 'advance' && method === 'POST') {
    if (!clock) throw noSuch('test_helpers.test_clock', id, 'test_clock');
    if (clock.status !== 'ready') throw invalidParam('test_clock', `The test clock ${id} is ${clock.status}; it can only be advanced when ready.`);
    const to = parseAdvance(ctx.params, clock);
    // Stripe answers at once with the clock `advancing`; the clock is ready once the events are made.
    const answer = json(200, { ...clock, status: 'advancing', status_details: { advancing: { target_frozen_time: to } } });
    deps.deliverInBackground(deps.billing.advanceClock(id, to).events);
    return answer;
  }
  return null;
}

/** `POST, GET /v1/customers/:id/balance_transactions`: adjust the customer's balance; list its transactions (newest first). */
function routeBalanceTransactions(method: string, customerId: string, ctx: ApiContext, billing: BillingRoutesDeps['billing']): HttpAnswer | null {
  const customer = billing.customer(customerId);
  if (!customer) throw noSuch('customer', customerId, 'id');
  if (method === 'POST') return json(200, adjustBalance(customer, parseBalanceAdjustment(ctx.params), nowSeconds()));
  if (method === 'GET') {
    const data = balanceTransactionsOf(customer);
    return json(200, { object: 'list', data, has_more: false, url: `/v1/customers/${customerId}/balance_transactions` });
  }
  return null;
}

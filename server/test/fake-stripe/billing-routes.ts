/**
 * The Billing endpoints: customers, products, prices, subscriptions, invoices, test clocks and customer portal
 * sessions. Events a request causes are delivered in the background (the answer does not wait, as at Stripe).
 */
import type { Billing, SubscriptionChange } from './billing.js';
import type { BillingPortal } from './billing-portal.js';
import type { FormHash, FormValue } from './form-body.js';
import { integerParam, optionalString, rejectUnknown, retrieveParams, unsupported } from './form-params.js';
import { eventRequest, json, type ApiContext, type HttpAnswer } from './http.js';
import { mergeMetadata } from './products-prices.js';
import { invalidParam, noSuch } from './stripe-errors.js';
import { parseAdvance, parseTestClockCreate } from './test-clocks.js';
import type { StripeEventObject } from './webhooks.js';

export interface BillingRoutesDeps {
  billing: Billing;
  portal: BillingPortal;
  deliverInBackground(events: StripeEventObject[]): void;
}

/** Every parameter SubscriptionUpdateParams knows (SDK 23.1.0); the fake acts on cancel_at_period_end and metadata. */
const SUBSCRIPTION_UPDATE = new Set([
  'add_invoice_items', 'application_fee_percent', 'automatic_tax', 'billing_cycle_anchor', 'billing_schedules',
  'billing_thresholds', 'cancel_at', 'cancel_at_period_end', 'cancellation_details', 'collection_method',
  'days_until_due', 'default_payment_method', 'default_source', 'default_tax_rates', 'description', 'discounts',
  'expand', 'invoice_settings', 'items', 'metadata', 'off_session', 'on_behalf_of', 'pause_collection',
  'payment_behavior', 'payment_settings', 'pending_invoice_item_interval', 'proration_behavior', 'proration_date',
  'transfer_data', 'trial_end', 'trial_from_plan', 'trial_settings',
]);
const MODELLED_UPDATE = new Set(['cancel_at_period_end', 'cancellation_details', 'expand', 'metadata']);

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
      return null;
    case 'products':
      if (parts.length === 2 && method === 'POST') return json(200, billing.createProduct(ctx.params));
      if (single && method === 'GET') return retrieve(ctx, billing.product(id), 'product', id);
      return null;
    case 'prices':
      if (parts.length === 2 && method === 'POST') return json(200, billing.createPrice(ctx.params));
      if (single && method === 'GET') return retrieve(ctx, billing.price(id), 'price', id);
      if (single && method === 'POST') return json(200, billing.updatePrice(id, ctx.params));
      return null;
    case 'subscriptions':
      return single ? routeSubscription(method, id, ctx, deps) : null;
    case 'invoices':
      if (single && method === 'GET') return retrieve(ctx, billing.invoice(id), 'invoice', id);
      if (parts.length === 2 && method === 'GET') return listInvoices(ctx, billing);
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
  const latest = subscription.latest_invoice as string | null;
  return json(200, {
    ...subscription,
    ...(expand.has('latest_invoice') && latest ? { latest_invoice: billing.invoice(latest) } : {}),
    ...(expand.has('customer') ? { customer: billing.customer(subscription.customer as string) } : {}),
  });
}

function parseSubscriptionUpdate(params: FormHash, metadata: Record<string, string>): SubscriptionChange {
  rejectUnknown(params, SUBSCRIPTION_UPDATE, '');
  const other = Object.keys(params).find((key) => !MODELLED_UPDATE.has(key));
  if (other !== undefined) throw unsupported(other, `updating a subscription's ${other}`);
  retrieveParams(params.expand === undefined ? {} : { expand: params.expand });
  return {
    cancelAtPeriodEnd: booleanParam(params.cancel_at_period_end, 'cancel_at_period_end'),
    metadata: params.metadata === undefined ? undefined : mergeMetadata(metadata, params.metadata, 'metadata'),
  };
}

function booleanParam(value: FormValue | undefined, param: string): boolean | undefined {
  const text = optionalString(value, param);
  if (text === undefined) return undefined;
  if (text !== 'true' && text !== 'false') throw invalidParam(param, `Invalid boolean: ${text}`);
  return text === 'true';
}

/** `GET /v1/invoices?subscription=sub_…` (newest first, as Stripe lists). */
function listInvoices(ctx: ApiContext, billing: Billing): HttpAnswer {
  rejectUnknown(ctx.params, new Set(['subscription', 'limit', 'expand']), '');
  const subscription = optionalString(ctx.params.subscription, 'subscription');
  if (subscription === undefined) throw unsupported('subscription', 'listing invoices without `subscription`');
  const limit = integerParam(ctx.params.limit, 'limit', 1, 100) ?? 10;
  const all = billing.invoicesOf(subscription).reverse();
  return json(200, { object: 'list', data: all.slice(0, limit), has_more: all.length > limit, url: '/v1/invoices' });
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

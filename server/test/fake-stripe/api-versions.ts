/**
 * Events as a webhook endpoint pinned to another API version receives them. The fake keeps every object in the
 * SDK's version (Stripe.API_VERSION); a delivery to an endpoint of a version before 2025-03-31 (basil) renders
 * invoices and subscriptions the way 2024-06-20 shows them:
 * - an invoice names its subscription in `subscription` and `subscription_details` (not `parent`), its payment in
 *   `payment_intent` and `charge` (there is no `payments`), and says `paid`;
 * - its lines say their kind in `type` with `subscription`, `subscription_item`, `proration` (not `parent`);
 * - a subscription has `current_period_start`/`current_period_end`, its items none.
 * Other objects are the same in both for what the fake shows.
 */
import Stripe from 'stripe';
import type { StripeEventObject } from './webhooks.js';

/** The first version in the SDK's shape. */
const PARENT_SHAPE_SINCE = '2025-03-31';

const VERSION = /^(\d{4}-\d{2}-\d{2})(?:\.[a-z]+)?$/;

/** What an old-shape invoice needs that the fake keeps elsewhere: the latest PaymentIntent that tried to pay it. */
export interface LegacyPaymentLookup {
  paymentOf(invoiceId: string): { paymentIntent: string | null; charge: string | null };
}

/** Throws for what is not an API version (`2024-06-20`, `2025-03-31.basil`). */
export function checkApiVersion(apiVersion: string): void {
  if (!VERSION.test(apiVersion)) throw new Error(`fake Stripe: ${apiVersion} is not an API version (like 2024-06-20 or ${Stripe.API_VERSION})`);
}

const isLegacy = (apiVersion: string): boolean => VERSION.exec(apiVersion)![1]! < PARENT_SHAPE_SINCE;

type Json = Record<string, unknown>;

function legacyLine(line: Json): Json {
  const { parent, pricing: _pricing, ...rest } = line as { parent: Stripe.InvoiceLineItem['parent'] } & Json;
  const item = parent?.subscription_item_details ?? null;
  return {
    ...rest,
    type: item ? 'subscription' : 'invoiceitem',
    subscription: item?.subscription ?? null,
    subscription_item: item?.subscription_item ?? null,
    invoice_item: parent?.invoice_item_details?.invoice_item ?? item?.invoice_item ?? null,
    proration: item?.proration ?? parent?.invoice_item_details?.proration ?? false,
    proration_details: item?.proration_details ?? { credited_items: null },
  };
}

function legacyInvoice(invoice: Json, payments: LegacyPaymentLookup): Json {
  const { parent, payments: _payments, lines, ...rest } = invoice as { parent: Stripe.Invoice['parent']; lines: Stripe.Invoice['lines'] } & Json;
  const details = parent?.subscription_details ?? null;
  const paid = payments.paymentOf(rest.id as string);
  return {
    ...rest,
    charge: paid.charge,
    paid: rest.status === 'paid',
    paid_out_of_band: false,
    payment_intent: paid.paymentIntent,
    quote: parent?.quote_details?.quote ?? null,
    subscription: details?.subscription ?? null,
    subscription_details: details ? { metadata: details.metadata } : null,
    subscription_proration_date: null,
    lines: { ...lines, data: lines.data.map((line) => legacyLine(line as unknown as Json)) },
  };
}

/** A subscription (or its previous attributes) with the period on itself, taken from its first item. */
function legacySubscription(subscription: Json): Json {
  const items = subscription.items as Stripe.Subscription['items'] | undefined;
  if (!items) return subscription;
  const first = items.data[0];
  const data = items.data.map(({ current_period_start: _start, current_period_end: _end, ...item }) => item);
  return {
    ...subscription,
    ...(first ? { current_period_start: first.current_period_start, current_period_end: first.current_period_end } : {}),
    items: { ...items, data },
  };
}

/**
 * `event` as an endpoint of `apiVersion` receives it: `api_version` set, and invoices and subscriptions in the
 * 2024-06-20 shape for a version before basil. The event itself (its id, its time) is the same.
 */
export function eventInVersion(event: StripeEventObject, apiVersion: string, payments: LegacyPaymentLookup): StripeEventObject {
  checkApiVersion(apiVersion);
  const rendered = structuredClone(event) as unknown as { api_version: string; data: { object: Json; previous_attributes?: Json } };
  rendered.api_version = apiVersion;
  if (isLegacy(apiVersion)) {
    const { object, previous_attributes: previous } = rendered.data;
    if (object.object === 'invoice') rendered.data.object = legacyInvoice(object, payments);
    if (object.object === 'subscription') {
      rendered.data.object = legacySubscription(object);
      if (previous) rendered.data.previous_attributes = legacySubscription(previous);
    }
  }
  return rendered as unknown as StripeEventObject;
}

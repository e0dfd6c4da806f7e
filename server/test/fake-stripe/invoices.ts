/**
 * Subscription invoices: a draft with one line for the subscription's item and period, then finalized (open,
 * numbered), then paid or left open after a failed attempt. In this API version an invoice names its subscription
 * in `parent.subscription_details` and its payments in `payments` (not on the invoice itself).
 */
import type Stripe from 'stripe';
import { applyBalance, type CustomerObject } from './customers.js';
import { wireDecimal } from './products-prices.js';
import { itemOf, type SubscriptionObject } from './subscription-objects.js';
import { stripeId } from './stripe-ids.js';

export type InvoiceObject = Stripe.Invoice;
export type InvoiceBillingReason = 'subscription_create' | 'subscription_cycle' | 'subscription_update';

/** Stripe retries a failed renewal (Smart Retries default) — the fake only shows when the next attempt would be. */
const RETRY_SECONDS = 3 * 24 * 60 * 60;

export interface NewInvoiceInput {
  customer: CustomerObject;
  subscription: SubscriptionObject;
  billingReason: InvoiceBillingReason;
  /** The invoice's own period (`period_start`/`period_end`). */
  period: { start: number; end: number };
  /** The subscription period its line bills. */
  linePeriod: { start: number; end: number };
  created: number;
  /** The subscription's discount on this invoice (its coupon's amount off the line), if it has one for this period. */
  discount?: { id: string; amount: number } | null;
  /** It bills a trial: its line is free ("Trial period for …"). */
  trial?: boolean;
}

/** A draft invoice for one period of `subscription`. */
export function newInvoice(input: NewInvoiceInput): InvoiceObject {
  const { customer, subscription } = input;
  const item = itemOf(subscription);
  const quantity = item.quantity ?? 1;
  const unitAmount = input.trial ? 0 : (item.price.unit_amount ?? 0);
  const amount = unitAmount * quantity;
  const discount = input.trial ? null : (input.discount ?? null);
  const total = amount - (discount?.amount ?? 0);
  const discountAmounts = discount ? [{ amount: discount.amount, discount: discount.id }] : [];
  const id = stripeId('in_1', 23);
  const line: Stripe.InvoiceLineItem = {
    id: stripeId('il_1', 23),
    object: 'line_item',
    amount,
    currency: subscription.currency,
    description: input.trial
      ? `Trial period for ${item.price.nickname ?? item.price.product}`
      : `${quantity} × ${item.price.nickname ?? item.price.product} (at ${item.price.unit_amount} / ${item.price.recurring?.interval})`,
    discount_amounts: discountAmounts,
    discountable: true,
    discounts: discount ? [discount.id] : [],
    invoice: id,
    livemode: false,
    metadata: { ...subscription.metadata },
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: subscription.id,
        subscription_item: item.id,
      },
      type: 'subscription_item_details',
    },
    period: { start: input.linePeriod.start, end: input.linePeriod.end },
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: item.price.id, product: item.price.product as string },
      type: 'price_details',
      unit_amount_decimal: wireDecimal(unitAmount),
    },
    quantity,
    quantity_decimal: wireDecimal(quantity),
    subscription: subscription.id,
    subtotal: amount,
    taxes: [],
  };
  return {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Fake Stripe',
    account_tax_ids: null,
    amount_due: total,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: total,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: input.billingReason,
    collection_method: 'charge_automatically',
    created: input.created,
    currency: subscription.currency,
    custom_fields: null,
    customer: customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: customer.email,
    customer_name: customer.name ?? null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: discount ? [discount.id] : [],
    due_date: null,
    effective_at: null,
    ending_balance: null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: 'list', data: [line], has_more: false, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id },
      type: 'subscription_details',
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: input.period.end,
    period_start: input.period.start,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: 'draft',
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: amount,
    subtotal_excluding_tax: amount,
    test_clock: customer.test_clock as string | null,
    total,
    total_discount_amounts: discountAmounts,
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  };
}

/** Draft → open, numbered `<customer prefix>-<sequence>`; the customer's credit balance pays what it can of it. */
export function finalizeInvoice(invoice: InvoiceObject, customer: CustomerObject, now: number, baseUrl: string): void {
  applyBalance(customer, invoice, now);
  const sequence = customer.next_invoice_sequence ?? 1;
  customer.next_invoice_sequence = sequence + 1;
  invoice.status = 'open';
  invoice.number = `${customer.invoice_prefix}-${String(sequence).padStart(4, '0')}`;
  invoice.effective_at = now;
  invoice.status_transitions.finalized_at = now;
  invoice.hosted_invoice_url = `${baseUrl}/invoice/${invoice.id}`;
  invoice.webhooks_delivered_at = now;
}

/** One payment attempt. Paid: amount_paid, status paid. Failed: stays open, `next_payment_attempt` set. */
export function recordAttempt(invoice: InvoiceObject, paid: boolean, now: number): void {
  invoice.attempt_count += 1;
  invoice.attempted = true;
  if (paid) {
    invoice.status = 'paid';
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.status_transitions.paid_at = now;
    invoice.next_payment_attempt = null;
    invoice.ending_balance ??= 0;
  } else {
    invoice.next_payment_attempt = now + RETRY_SECONDS;
  }
}

/**
 * Invoices and subscriptions in both shapes a webhook may carry them in (see stripe-api-versions.ts), read into
 * our InvoiceState and RecurringState. Only the fields we use are checked, and each must be there: an object
 * missing one is not read as "nothing to do" but refused (ShapeError), so its event is delivered again.
 */
import { z } from 'zod';
import type { InvoiceState, RecurringState, RecurringStatus } from '../payment-driver.js';
import type { BillingShape } from './stripe-api-versions.js';

/** An id, or the expanded object that has it. */
const ref = z.union([z.string(), z.object({ id: z.string() })]).transform((value) => (typeof value === 'string' ? value : value.id));
const metadata = z.record(z.string(), z.string());
const unix = z.number().int();
const period = z.object({ start: unix, end: unix });

/** What both shapes say alike about an invoice. */
const invoiceFields = {
  id: z.string(),
  status: z.string().nullable(),
  billing_reason: z.string().nullable(),
  amount_due: z.number().int(),
  amount_paid: z.number().int(),
  currency: z.string(),
  attempted: z.boolean(),
  attempt_count: z.number().int(),
  next_payment_attempt: unix.nullable(),
  period_start: unix,
  period_end: unix,
  /** What discounts (our promo codes' coupons) took off it; absent in older events: nothing. */
  total_discount_amounts: z.array(z.object({ amount: z.number().int() })).nullish(),
  /** The customer's balance before and after the invoice took from it (negative: credit); null before finalisation. */
  starting_balance: z.number().int().nullish(),
  ending_balance: z.number().int().nullish(),
};

/** 2025-03-31 (basil) and later: the subscription under `parent`, the payments in `payments` (when expanded). */
const CurrentInvoice = z.object({
  ...invoiceFields,
  parent: z.object({ subscription_details: z.object({ subscription: ref, metadata: metadata.nullable() }).nullish() }).nullable(),
  lines: z.object({ data: z.array(z.object({ period, parent: z.object({ subscription_item_details: z.unknown().nullish() }).nullable() })) }),
  payments: z.object({ data: z.array(z.object({ status: z.string(), payment: z.object({ payment_intent: ref.nullish() }) })) }).optional(),
});

/** 2024-06-20 up to basil: the subscription and the payment on the invoice itself, the line's kind in `type`. */
const LegacyInvoice = z.object({
  ...invoiceFields,
  subscription: ref.nullable(),
  subscription_details: z.object({ metadata: metadata.nullable() }).nullish(),
  payment_intent: ref.nullish(),
  charge: ref.nullish(),
  lines: z.object({ data: z.array(z.object({ period, type: z.string() })) }),
});

const subscriptionFields = {
  id: z.string(),
  customer: ref,
  status: z.string(),
  cancel_at_period_end: z.boolean(),
  canceled_at: unix.nullable(),
  metadata: metadata.nullish(),
};

/** basil and later: each item has its own period. */
const CurrentSubscription = z.object({ ...subscriptionFields, items: z.object({ data: z.array(z.object({ current_period_end: unix })) }) });

/** Before basil: one period on the subscription. */
const LegacySubscription = z.object({ ...subscriptionFields, current_period_end: unix });

/** An object that is not in the shape its API version promises; the message names the first field that is not. */
export class ShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShapeError';
  }
}

function parse<S extends z.ZodType>(schema: S, object: unknown, what: string): z.output<S> {
  const result = schema.safeParse(object);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new ShapeError(`${[what, ...issue.path].join('.')}: ${issue.message}`);
}

const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** Stripe's subscription statuses in ours: trialing runs, unpaid and paused wait for a card, the expired first payment is over. */
const STATUSES: Record<string, RecurringStatus> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  paused: 'past_due',
  incomplete: 'incomplete',
  incomplete_expired: 'canceled',
  canceled: 'canceled',
};

type InvoiceFields = z.output<z.ZodObject<typeof invoiceFields>>;

/** What an invoice's shape says in its own places: the subscription it bills, the line's period, the payment. */
interface Billed {
  invoice: InvoiceFields;
  subscriptionRef: string | null;
  metadata: Record<string, string>;
  linePeriod: { start: number; end: number } | undefined;
  paymentRef: string | null;
}

function billedNow(object: unknown): Billed {
  const invoice = parse(CurrentInvoice, object, 'invoice');
  const details = invoice.parent?.subscription_details;
  const line = invoice.lines.data.find((entry) => entry.parent?.subscription_item_details) ?? invoice.lines.data[0];
  // The PaymentIntent that paid it, when `payments` was expanded (an event never carries it).
  const payment = invoice.payments?.data.find((entry) => entry.status === 'paid') ?? invoice.payments?.data[0];
  return {
    invoice,
    subscriptionRef: details?.subscription ?? null,
    metadata: details?.metadata ?? {},
    linePeriod: line?.period,
    paymentRef: payment?.payment.payment_intent ?? null,
  };
}

function billedBefore(object: unknown): Billed {
  const invoice = parse(LegacyInvoice, object, 'invoice');
  const line = invoice.lines.data.find((entry) => entry.type === 'subscription') ?? invoice.lines.data[0];
  // Refunds and disputes name the PaymentIntent, or the charge when there is none (see paymentRefOfCharge).
  const paymentRef = invoice.payment_intent ?? invoice.charge ?? null;
  return { invoice, subscriptionRef: invoice.subscription, metadata: invoice.subscription_details?.metadata ?? {}, linePeriod: line?.period, paymentRef };
}

function outcomeOf(invoice: InvoiceFields, eventType?: string): InvoiceState['outcome'] {
  if (eventType === 'invoice.payment_failed') return 'failed';
  if (invoice.status === 'paid') return 'paid';
  if (invoice.status === 'void' || invoice.status === 'uncollectible') return 'void';
  return invoice.attempted && invoice.attempt_count > 0 ? 'failed' : 'open';
}

/**
 * A subscription's invoice in our words, read in `shape`; null for an invoice that bills no subscription.
 * Throws ShapeError when a field we read is missing or of another type.
 */
export function readInvoice(shape: BillingShape, object: unknown, eventType?: string): InvoiceState | null {
  const billed = shape === 'current' ? billedNow(object) : billedBefore(object);
  const { invoice } = billed;
  if (!billed.subscriptionRef) return null;
  // The line bills the subscription's period; the invoice's own period_start/end is the one before it.
  const period = billed.linePeriod ?? { start: invoice.period_start, end: invoice.period_end };
  return {
    invoiceId: invoice.id,
    subscriptionRef: billed.subscriptionRef,
    orderRef: billed.metadata.subscription_id ?? null,
    outcome: outcomeOf(invoice, eventType),
    first: invoice.billing_reason === 'subscription_create',
    forChange: invoice.billing_reason === 'subscription_update',
    amountDue: invoice.amount_due,
    amountPaid: invoice.amount_paid,
    ...discountOf(invoice),
    ...creditOf(invoice),
    currency: invoice.currency,
    periodStart: fromUnix(period.start),
    periodEnd: fromUnix(period.end),
    paymentRef: billed.paymentRef,
    nextAttemptAt: invoice.next_payment_attempt ? fromUnix(invoice.next_payment_attempt) : null,
    // A plan change's proration invoice: the subscription's metadata names our transaction of it.
    ...(billed.metadata.plan_change_id ? { changeRef: billed.metadata.plan_change_id } : {}),
  };
}

/** What the customer's credit balance paid of the invoice, when it paid anything (the balance rose towards 0 by that much). */
function creditOf(invoice: { starting_balance?: number | null; ending_balance?: number | null }): { creditApplied?: number } {
  const start = invoice.starting_balance ?? 0;
  const applied = start < 0 && invoice.ending_balance !== null && invoice.ending_balance !== undefined ? Math.min(invoice.ending_balance, 0) - start : 0;
  return applied > 0 ? { creditApplied: applied } : {};
}

/** What discounts took off the invoice, when they took anything. */
function discountOf(invoice: { total_discount_amounts?: Array<{ amount: number }> | null }): { amountDiscount?: number } {
  const amount = (invoice.total_discount_amounts ?? []).reduce((sum, entry) => sum + entry.amount, 0);
  return amount > 0 ? { amountDiscount: amount } : {};
}

/** A subscription in our words, read in `shape`, as it was at `observedAt`. Throws ShapeError like readInvoice. */
export function readSubscription(shape: BillingShape, object: unknown, observedAt: Date): RecurringState {
  const subscription = shape === 'current' ? parse(CurrentSubscription, object, 'subscription') : parse(LegacySubscription, object, 'subscription');
  const periodEnd = 'items' in subscription ? subscription.items.data[0]?.current_period_end : subscription.current_period_end;
  return {
    subscriptionRef: subscription.id,
    customerRef: subscription.customer,
    orderRef: subscription.metadata?.subscription_id ?? null,
    status: STATUSES[subscription.status] ?? 'incomplete',
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    canceledAt: subscription.canceled_at ? fromUnix(subscription.canceled_at) : null,
    currentPeriodEnd: periodEnd === undefined ? null : fromUnix(periodEnd),
    observedAt,
  };
}

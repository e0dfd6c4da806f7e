import type Stripe from 'stripe';
import { PaymentProviderError, type InvoiceState, type PaymentDriver, type PriceChangeProration, type RecurringPriceSpec } from '../payment-driver.js';
import { calling, isMissing, stripeLocale } from './stripe-calls.js';
import { customerMethods } from './stripe-customers.js';
import { invoiceStateOf, recurringStateOf } from './stripe-billing-events.js';

export interface RecurringOptions {
  /**
   * Test mode only (sk_test_ keys): each new customer gets a test clock of its own, so renewals can be
   * simulated by advancing it (`npm run demo`, the tests). Ignored with live keys.
   */
  testClocks: boolean;
}

type RecurringMethods = Pick<
  PaymentDriver,
  | 'createCustomer'
  | 'setCustomerLanguage'
  | 'creditCustomer'
  | 'ensureRecurringPrice'
  | 'readSubscription'
  | 'setCancelAtPeriodEnd'
  | 'deferNextCharge'
  | 'cancelNow'
  | 'openBillingPortal'
  | 'previewSubscriptionPrice'
  | 'changeSubscriptionPrice'
> & {
  /** The invoice with its payment, as our state (for a paid invoice's event, which does not carry the payment). */
  readInvoice(invoiceId: string): Promise<InvoiceState | null>;
};

/** How many of a subscription's invoices a read looks at (newest first): a renewal missed for longer is an outage of weeks. */
const RECENT_INVOICES = 6;

/** The product of a plan: one per plan, found by its id, whatever prices it has had. */
const productIdOf = (planId: string) => `vpn_plan_${planId.replace(/[^A-Za-z0-9_-]/g, '')}`;

/** A price never changes at Stripe, so a price is found by everything that makes it: plan, amount, currency, interval. */
const lookupKeyOf = (spec: RecurringPriceSpec) => `${productIdOf(spec.planId)}_${spec.amount}${spec.currency}_${spec.interval.unit}${spec.interval.count}`;

/** Stripe Billing: customers, the recurring catalogue, subscriptions and the customer portal. */
export function recurringMethods(stripe: Stripe, secretKey: string, options: RecurringOptions): RecurringMethods {
  const useTestClocks = options.testClocks && secretKey.startsWith('sk_test_');
  /** lookup key + product text → price id, so a checkout does not ask Stripe again while nothing changed. */
  const prices = new Map<string, string>();

  async function ensureProduct(spec: RecurringPriceSpec): Promise<string> {
    const id = productIdOf(spec.planId);
    try {
      const product = await calling('Reading the plan product', () => stripe.products.retrieve(id));
      if (product.name !== spec.productName || product.description !== spec.description || !product.active) {
        await calling('Updating the plan product', () => stripe.products.update(id, { name: spec.productName, description: spec.description, active: true }));
      }
    } catch (err) {
      if (!isMissing(err)) throw err;
      await calling('Creating the plan product', () =>
        stripe.products.create(
          { id, name: spec.productName, description: spec.description, metadata: { plan_id: spec.planId } },
          { idempotencyKey: `product:${id}` },
        ),
      );
    }
    return id;
  }

  async function readInvoice(invoiceId: string): Promise<InvoiceState | null> {
    return invoiceStateOf(await calling('Reading the invoice', () => stripe.invoices.retrieve(invoiceId, { expand: ['payments'] })));
  }

  return {
    readInvoice,
    ...priceChangeMethods(stripe, readInvoice),

    ...customerMethods(stripe, useTestClocks),

    async ensureRecurringPrice(spec) {
      const lookupKey = lookupKeyOf(spec);
      const cacheKey = `${lookupKey}|${spec.productName}|${spec.description}`;
      const cached = prices.get(cacheKey);
      if (cached) return cached;
      const product = await ensureProduct(spec);
      const found = await calling('Finding the plan price', () => stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 }));
      const price =
        found.data[0] ??
        (await calling('Creating the plan price', () =>
          stripe.prices.create(
            {
              product,
              unit_amount: spec.amount,
              currency: spec.currency,
              lookup_key: lookupKey,
              recurring: { interval: spec.interval.unit, interval_count: spec.interval.count },
              metadata: { plan_id: spec.planId },
              // An archived price may hold the key: the new one takes it over.
              transfer_lookup_key: true,
            },
            { idempotencyKey: `price:${lookupKey}` },
          ),
        ));
      prices.set(cacheKey, price.id);
      return price.id;
    },

    async readSubscription(subscriptionRef) {
      const subscription = await calling('Reading the subscription', () => stripe.subscriptions.retrieve(subscriptionRef));
      const listed = await calling('Listing the invoices', () => stripe.invoices.list({ subscription: subscriptionRef, limit: RECENT_INVOICES }));
      const invoices: InvoiceState[] = [];
      for (const invoice of listed.data) {
        // A paid invoice is read again with its payment, which the list does not carry.
        const state = invoice.status === 'paid' && invoice.id ? await readInvoice(invoice.id) : invoiceStateOf(invoice);
        if (state) invoices.push(state);
      }
      return { subscription: recurringStateOf(subscription, new Date()), invoices };
    },

    async setCancelAtPeriodEnd(subscriptionRef, cancel) {
      const subscription = await calling(cancel ? 'Cancelling auto-renew' : 'Resuming auto-renew', () =>
        stripe.subscriptions.update(subscriptionRef, { cancel_at_period_end: cancel }),
      );
      return recurringStateOf(subscription, new Date());
    },

    async deferNextCharge(subscriptionRef, until) {
      const trialEnd = Math.floor(until.getTime() / 1000);
      const current = await calling('Reading the subscription', () => stripe.subscriptions.retrieve(subscriptionRef));
      // Already there (a retry after the answer was lost): another update would make Stripe invoice the trial again.
      if (current.trial_end === trialEnd) return recurringStateOf(current, new Date());
      // A trial moves the billing date without a proration: the days before it are free, nothing is credited for them.
      const subscription = await calling('Moving the next charge', () =>
        stripe.subscriptions.update(subscriptionRef, { trial_end: trialEnd, proration_behavior: 'none' }),
      );
      return recurringStateOf(subscription, new Date());
    },

    async cancelNow(subscriptionRef) {
      const subscription = await calling('Cancelling the subscription', () => stripe.subscriptions.cancel(subscriptionRef));
      return recurringStateOf(subscription, new Date());
    },

    async openBillingPortal(customerRef, returnUrl, locale) {
      const language = stripeLocale(locale);
      const session = await calling('Opening the billing portal', () =>
        stripe.billingPortal.sessions.create({ customer: customerRef, return_url: returnUrl, ...(language && { locale: language }) }),
      );
      return session.url;
    },
  };
}

const unix = (date: Date) => Math.floor(date.getTime() / 1000);

/** A proration invoice (or its preview) in our words: its `proration` lines split into what is credited and what is charged. */
function prorationOf(invoice: Stripe.Invoice, periodEnd: number): PriceChangeProration {
  let credit = 0;
  let debit = 0;
  for (const line of invoice.lines.data) {
    if (!line.parent?.subscription_item_details?.proration) continue;
    if (line.amount < 0) credit -= line.amount;
    else debit += line.amount;
  }
  // A negative total is not charged: Stripe adds it to the customer's balance, which pays their next invoices.
  return {
    credit,
    debit,
    amountDue: invoice.amount_due,
    balanceCredit: Math.max(0, -invoice.total),
    currency: invoice.currency,
    periodEnd: new Date(periodEnd * 1000),
  };
}

/**
 * A plan change of a card subscription: its one item moves to the new plan's price now, Stripe prorating it to the
 * second (the unused time of the old price credited, the rest of the period at the new one charged) and invoicing the
 * difference at once (`always_invoice`), paid with the customer's default payment method. `error_if_incomplete`: a
 * charge that fails (declined, or needing the customer's authentication) leaves the subscription as it was and answers
 * 402, so a change is either made and paid, or not made at all. (`pending_if_incomplete` would keep an open invoice and a
 * `pending_update` that expires by itself, and takes only the pending-update parameters: not the metadata that names
 * our change on the proration invoice.) `proration_date` is the instant the quote previewed, so both come to the
 * same figures.
 */
function priceChangeMethods(
  stripe: Stripe,
  readInvoice: (invoiceId: string) => Promise<InvoiceState | null>,
): Pick<RecurringMethods, 'previewSubscriptionPrice' | 'changeSubscriptionPrice'> {
  async function onlyItem(subscriptionRef: string): Promise<Stripe.SubscriptionItem> {
    const subscription = await calling('Reading the subscription', () => stripe.subscriptions.retrieve(subscriptionRef));
    const [item, ...more] = subscription.items.data;
    if (!item || more.length > 0)
      throw new PaymentProviderError(`Subscription ${subscriptionRef} has ${subscription.items.data.length} items; a plan change moves one`);
    return item;
  }
  return {
    async previewSubscriptionPrice(subscriptionRef, change) {
      const item = await onlyItem(subscriptionRef);
      const preview = await calling('Previewing the plan change', () =>
        stripe.invoices.createPreview({
          subscription: subscriptionRef,
          subscription_details: {
            items: [{ id: item.id, price: change.priceRef }],
            proration_behavior: 'always_invoice',
            proration_date: unix(change.prorateAt),
          },
        }),
      );
      return prorationOf(preview, item.current_period_end);
    },

    async changeSubscriptionPrice(subscriptionRef, change) {
      const item = await onlyItem(subscriptionRef);
      const updated = await calling('Changing the subscription price', () =>
        stripe.subscriptions.update(
          subscriptionRef,
          {
            items: [{ id: item.id, price: change.priceRef }],
            proration_behavior: 'always_invoice',
            proration_date: unix(change.prorateAt),
            payment_behavior: 'error_if_incomplete',
            metadata: change.metadata,
          },
          { idempotencyKey: change.idempotencyKey },
        ),
      );
      const invoiceId = typeof updated.latest_invoice === 'string' ? updated.latest_invoice : (updated.latest_invoice?.id ?? null);
      const invoice = invoiceId ? await readInvoice(invoiceId) : null;
      return { subscription: recurringStateOf(updated, new Date()), invoice: invoice?.forChange ? invoice : null };
    },
  };
}

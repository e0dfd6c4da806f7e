import { readFileSync } from 'node:fs';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { UnreadableEventError } from '../payment-driver.js';
import { billingShapeOf } from './stripe-api-versions.js';
import { billingEventOf } from './stripe-billing-events.js';
import { createStripeDrivers } from './stripe-driver.js';
import { paymentEventOf } from './stripe-events.js';

const PERIOD = { start: 1_767_225_600, end: 1_769_904_000 }; // 2026-01-01 → 2026-02-01, what the line bills
const BEFORE = { start: 1_764_547_200, end: PERIOD.start }; // the invoice's own period: the one that just ended

/** A renewal invoice as an endpoint pinned to 2024-06-20 receives it (fields as Stripe documented them then). */
function invoice2024(overrides: Record<string, unknown> = {}) {
  return {
    id: 'in_1Renewal2024',
    object: 'invoice',
    account_country: 'US',
    amount_due: 499,
    amount_paid: 499,
    amount_remaining: 0,
    attempt_count: 1,
    attempted: true,
    billing_reason: 'subscription_cycle',
    charge: 'ch_1Renewal2024',
    collection_method: 'charge_automatically',
    currency: 'usd',
    customer: 'cus_Renewal',
    livemode: false,
    next_payment_attempt: null,
    paid: true,
    paid_out_of_band: false,
    payment_intent: 'pi_1Renewal2024',
    period_end: BEFORE.end,
    period_start: BEFORE.start,
    quote: null,
    status: 'paid',
    subscription: 'sub_1Renewal',
    subscription_details: { metadata: { subscription_id: 'our-sub-1', transaction_id: 'our-txn-1' } },
    subscription_proration_date: null,
    total: 499,
    lines: {
      object: 'list',
      has_more: false,
      url: '/v1/invoices/in_1Renewal2024/lines',
      data: [
        {
          id: 'il_1Renewal2024',
          object: 'line_item',
          amount: 499,
          currency: 'usd',
          description: '1 × Plus Auto (at $4.99 / month)',
          discountable: true,
          invoice_item: null,
          livemode: false,
          metadata: { subscription_id: 'our-sub-1' },
          period: PERIOD,
          proration: false,
          proration_details: { credited_items: null },
          quantity: 1,
          subscription: 'sub_1Renewal',
          subscription_item: 'si_Renewal',
          type: 'subscription',
        },
      ],
    },
    ...overrides,
  };
}

/** The same invoice in the SDK's shape (2025-03-31 and later). */
function invoiceNow(overrides: Record<string, unknown> = {}) {
  const {
    charge: _c,
    paid: _p,
    paid_out_of_band: _o,
    payment_intent: _pi,
    quote: _q,
    subscription: _s,
    subscription_details: details,
    subscription_proration_date: _d,
    lines,
    ...rest
  } = invoice2024();
  const [line] = lines.data;
  const { invoice_item: _i, proration: _pr, proration_details: _pd, subscription: _ls, subscription_item: _si, type: _t, ...lineRest } = line!;
  return {
    ...rest,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: 'sub_1Renewal', metadata: details.metadata } },
    lines: {
      ...lines,
      data: [
        {
          ...lineRest,
          parent: {
            type: 'subscription_item_details',
            invoice_item_details: null,
            subscription_item_details: {
              subscription: 'sub_1Renewal',
              subscription_item: 'si_Renewal',
              proration: false,
              proration_details: { credited_items: null },
              invoice_item: null,
            },
          },
        },
      ],
    },
    ...overrides,
  };
}

function subscription2024(overrides: Record<string, unknown> = {}) {
  return {
    id: 'sub_1Renewal',
    object: 'subscription',
    cancel_at_period_end: false,
    canceled_at: null,
    current_period_end: PERIOD.end,
    current_period_start: PERIOD.start,
    customer: 'cus_Renewal',
    metadata: { subscription_id: 'our-sub-1' },
    status: 'past_due',
    items: { object: 'list', has_more: false, data: [{ id: 'si_Renewal', object: 'subscription_item', quantity: 1 }] },
    ...overrides,
  };
}

function subscriptionNow(overrides: Record<string, unknown> = {}) {
  const { current_period_end: _e, current_period_start: _s, items, ...rest } = subscription2024();
  return { ...rest, items: { ...items, data: [{ ...items.data[0], current_period_start: PERIOD.start, current_period_end: PERIOD.end }] }, ...overrides };
}

const CREATED = 1_767_229_200;

function event(type: string, apiVersion: string | null, object: unknown): Stripe.Event {
  return {
    id: `evt_${type}_${apiVersion}`,
    object: 'event',
    api_version: apiVersion,
    created: CREATED,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  } as unknown as Stripe.Event;
}

/** The reason an event was refused with. */
function refusal(read: () => unknown): UnreadableEventError {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(UnreadableEventError);
    return err as UnreadableEventError;
  }
  throw new Error('the event was read');
}

const renewal = {
  invoiceId: 'in_1Renewal2024',
  subscriptionRef: 'sub_1Renewal',
  orderRef: 'our-sub-1',
  outcome: 'paid',
  first: false,
  forChange: false,
  amountDue: 499,
  amountPaid: 499,
  currency: 'usd',
  periodStart: new Date(PERIOD.start * 1000),
  periodEnd: new Date(PERIOD.end * 1000),
  nextAttemptAt: null,
};

describe('Stripe API versions', () => {
  it('reads the dates of 2024-06-20 up to basil in the old shape, basil and later in the current one, and nothing older', () => {
    expect(billingShapeOf('2024-06-20')).toBe('legacy');
    expect(billingShapeOf('2024-09-30.acacia')).toBe('legacy');
    expect(billingShapeOf('2025-02-24.acacia')).toBe('legacy');
    expect(billingShapeOf('2025-03-31.basil')).toBe('current');
    expect(billingShapeOf('2025-09-30.clover')).toBe('current');
    expect(billingShapeOf(Stripe.API_VERSION)).toBe('current');
    for (const unreadable of ['2024-04-10', '2023-10-16', '2020-08-27', null, '', 'latest', '2025-03-31 basil']) expect(billingShapeOf(unreadable)).toBeNull();
  });

  it("the Stripe setup in docs/payments.md names the SDK's version for the webhook endpoint (an SDK upgrade must update it)", () => {
    const guide = readFileSync(new URL('../../../../docs/payments.md', import.meta.url), 'utf8');
    expect(guide).toContain(`**The endpoint's API version**: choose \`${Stripe.API_VERSION}\``);
  });
});

describe('billing events in the 2024-06-20 shape', () => {
  it('invoice.paid: the subscription, our ids from subscription_details, the line period and the PaymentIntent', () => {
    expect(billingEventOf(event('invoice.paid', '2024-06-20', invoice2024()))).toEqual({
      kind: 'invoice',
      invoice: { ...renewal, paymentRef: 'pi_1Renewal2024' },
    });
  });

  it('the same invoice in the current shape reads the same (its payment is read from Stripe, not the event)', () => {
    expect(billingEventOf(event('invoice.paid', Stripe.API_VERSION, invoiceNow()))).toEqual({ kind: 'invoice', invoice: { ...renewal, paymentRef: null } });
    expect(billingEventOf(event('invoice.paid', '2025-03-31.basil', invoiceNow()))).toEqual({ kind: 'invoice', invoice: { ...renewal, paymentRef: null } });
  });

  it('an acacia version is read in the old shape too; expanded subscription and PaymentIntent objects give their ids', () => {
    const expanded = invoice2024({
      subscription: { id: 'sub_1Renewal', object: 'subscription' },
      payment_intent: { id: 'pi_1Renewal2024', object: 'payment_intent' },
    });
    expect(billingEventOf(event('invoice.paid', '2025-02-24.acacia', expanded))).toEqual({
      kind: 'invoice',
      invoice: { ...renewal, paymentRef: 'pi_1Renewal2024' },
    });
  });

  it('an invoice paid without a PaymentIntent is named by its charge, as refunds and disputes name it', () => {
    const read = billingEventOf(event('invoice.paid', '2024-06-20', invoice2024({ payment_intent: null })));
    expect(read).toMatchObject({ kind: 'invoice', invoice: { paymentRef: 'ch_1Renewal2024' } });
  });

  it('invoice.payment_failed: failed, with the next attempt', () => {
    const failed = invoice2024({
      status: 'open',
      amount_paid: 0,
      amount_remaining: 499,
      paid: false,
      charge: null,
      next_payment_attempt: CREATED + 3 * 86_400,
    });
    expect(billingEventOf(event('invoice.payment_failed', '2024-06-20', failed))).toEqual({
      kind: 'invoice',
      invoice: { ...renewal, outcome: 'failed', amountPaid: 0, paymentRef: 'pi_1Renewal2024', nextAttemptAt: new Date((CREATED + 3 * 86_400) * 1000) },
    });
  });

  it('an invoice of no subscription is not ours in either shape (acknowledged, nothing to do)', () => {
    expect(billingEventOf(event('invoice.paid', '2024-06-20', invoice2024({ subscription: null, subscription_details: null })))).toBeNull();
    expect(billingEventOf(event('invoice.paid', Stripe.API_VERSION, invoiceNow({ parent: null })))).toBeNull();
  });

  it("a line that is not the subscription's does not give the period: the subscription line does", () => {
    const base = invoice2024();
    const extra = { ...base.lines.data[0]!, id: 'il_extra', type: 'invoiceitem', subscription: null, subscription_item: null, period: { start: 1, end: 2 } };
    const read = billingEventOf(event('invoice.paid', '2024-06-20', invoice2024({ lines: { ...base.lines, data: [extra, base.lines.data[0]] } })));
    expect(read).toMatchObject({ invoice: { periodStart: renewal.periodStart, periodEnd: renewal.periodEnd } });
  });

  it('customer.subscription.updated: the period from the subscription itself, in the old shape; from its item in the current one', () => {
    const expected = {
      subscriptionRef: 'sub_1Renewal',
      customerRef: 'cus_Renewal',
      orderRef: 'our-sub-1',
      status: 'past_due',
      cancelAtPeriodEnd: false,
      canceledAt: null,
      currentPeriodEnd: new Date(PERIOD.end * 1000),
      observedAt: new Date(CREATED * 1000),
    };
    expect(billingEventOf(event('customer.subscription.updated', '2024-06-20', subscription2024()))).toEqual({ kind: 'subscription', subscription: expected });
    expect(billingEventOf(event('customer.subscription.updated', Stripe.API_VERSION, subscriptionNow()))).toEqual({
      kind: 'subscription',
      subscription: expected,
    });
  });

  it('customer.subscription.deleted in the old shape: canceled, with when', () => {
    const read = billingEventOf(event('customer.subscription.deleted', '2024-06-20', subscription2024({ status: 'canceled', canceled_at: CREATED })));
    expect(read).toMatchObject({ kind: 'subscription', subscription: { status: 'canceled', canceledAt: new Date(CREATED * 1000) } });
  });
});

describe('billing events that cannot be read are refused, never read as nothing', () => {
  it('a version older than 2024-06-20, or none: refused with the version', () => {
    for (const version of ['2023-10-16', null]) {
      const err = refusal(() => billingEventOf(event('invoice.paid', version, invoice2024())));
      expect(err.event).toEqual({ id: `evt_invoice.paid_${version}`, type: 'invoice.paid', apiVersion: version });
      expect(err.reason).toContain('2024-06-20 or later');
    }
    expect(refusal(() => billingEventOf(event('customer.subscription.updated', '2024-04-10', subscription2024()))).reason).toContain('2024-04-10');
  });

  it('an old-shape invoice under a current version, and the other way round: refused, naming the missing field', () => {
    expect(refusal(() => billingEventOf(event('invoice.paid', Stripe.API_VERSION, invoice2024()))).reason).toMatch(/^invoice\.parent: /);
    expect(refusal(() => billingEventOf(event('invoice.paid', '2024-06-20', invoiceNow()))).reason).toMatch(/^invoice\.subscription: /);
    expect(refusal(() => billingEventOf(event('customer.subscription.updated', Stripe.API_VERSION, subscription2024()))).reason).toMatch(
      /^subscription\.items\.data\.0\.current_period_end: /,
    );
    expect(refusal(() => billingEventOf(event('customer.subscription.updated', '2024-06-20', subscriptionNow()))).reason).toMatch(
      /^subscription\.current_period_end: /,
    );
  });

  it('a field of the wrong type or a line without its period: refused', () => {
    expect(refusal(() => billingEventOf(event('invoice.paid', '2024-06-20', invoice2024({ amount_paid: '499' })))).reason).toMatch(/^invoice\.amount_paid: /);
    const base = invoice2024();
    const { period: _period, ...line } = base.lines.data[0]!;
    expect(refusal(() => billingEventOf(event('invoice.paid', '2024-06-20', invoice2024({ lines: { ...base.lines, data: [line] } })))).reason).toMatch(
      /^invoice\.lines\.data\.0\.period: /,
    );
  });

  it('events we do not act on, and charge events (the same in every version), are read whatever the version', () => {
    expect(paymentEventOf(event('invoice.created', '2023-10-16', invoice2024()))).toBeNull();
    const charge = { id: 'ch_1', object: 'charge', payment_intent: 'pi_1', amount_refunded: 499, currency: 'usd', refunded: true };
    expect(paymentEventOf(event('charge.refunded', '2023-10-16', charge))).toEqual({
      kind: 'refunded',
      paymentRef: 'pi_1',
      amountRefunded: 499,
      currency: 'usd',
      fullyRefunded: true,
    });
  });
});

describe('the Stripe driver verifying an event in another version', () => {
  const secret = 'whsec_versions_unit';
  // No request reaches Stripe: an old-shape paid invoice names its payment itself.
  const driver = createStripeDrivers('http://127.0.0.1:9')({ secretKey: 'sk_test_versions', webhookSecret: secret });
  const signed = (payload: unknown) => {
    const body = JSON.stringify(payload);
    return { body: Buffer.from(body), headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) } };
  };

  it('a 2024-06-20 invoice.paid is read with its payment and says which version it was read in', async () => {
    const { body, headers } = signed(event('invoice.paid', '2024-06-20', invoice2024()));
    expect(await driver.verifyWebhook(body, headers)).toEqual({
      id: 'evt_invoice.paid_2024-06-20',
      type: 'invoice.paid',
      apiVersion: '2024-06-20',
      event: { kind: 'invoice', invoice: { ...renewal, paymentRef: 'pi_1Renewal2024' } },
    });
  });

  it('a signed event in a version it cannot read rejects with UnreadableEventError', async () => {
    const { body, headers } = signed(event('invoice.paid', '2023-10-16', invoice2024()));
    await expect(driver.verifyWebhook(body, headers)).rejects.toBeInstanceOf(UnreadableEventError);
  });
});

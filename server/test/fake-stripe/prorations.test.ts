import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { DAY, HOUR, START, subscribe } from './billing-kit.js';
import { caught, typesOf, useFakeStripe, verifiedEvents } from './test-kit.js';

/** A monthly subscription from 15 January (31 days) changed on day 10: 21 days of 31 left, prorated to the second. */
const LEFT = 21 * DAY;
const PERIOD = 31 * DAY;
const prorated = (amount: number) => Math.round((amount * LEFT) / PERIOD);

describe('fake Stripe Billing: a price change prorated at once (always_invoice)', () => {
  const t = useFakeStripe();

  /** A subscription at 999 a month, ten days in, and the prices it can move to. */
  async function tenDaysIn() {
    const subscribed = await subscribe(t);
    await t.fake.advanceClock(subscribed.clock.id, START + 10 * DAY);
    const price = (unit_amount: number) =>
      t.stripe.prices.create({ product: subscribed.product.id, unit_amount, currency: 'usd', recurring: { interval: 'month' } });
    return { ...subscribed, dearer: await price(1999), cheaper: await price(499), item: subscribed.subscription.items.data[0]! };
  }

  it('previews the proration invoice, then makes it: credit for the unused time, the rest at the new price, charged to the card', async () => {
    const { subscription, dearer, item, customer } = await tenDaysIn();
    const at = START + 10 * DAY;
    const details = { items: [{ id: item.id, price: dearer.id }], proration_behavior: 'always_invoice' as const, proration_date: at };
    const preview = await t.stripe.invoices.createPreview({ subscription: subscription.id, subscription_details: details });
    // 999 × 21/31 = 676.74 credited; 1999 × 21/31 = 1354.16 charged.
    expect(prorated(999)).toBe(677);
    expect(prorated(1999)).toBe(1354);
    expect(preview).toMatchObject({ billing_reason: 'subscription_update', total: 677, amount_due: 677, status: 'draft', customer: customer.id });
    expect(preview.id).toMatch(/^upcoming_in_/);
    expect(preview.lines.data.map((line) => [line.amount, line.parent?.subscription_item_details?.proration, line.period])).toEqual([
      [-677, true, { start: at, end: START + PERIOD }],
      [1354, true, { start: at, end: START + PERIOD }],
    ]);
    expect(preview.lines.data.map((line) => line.description)).toEqual([
      'Unused time on VPN Pro after 25 Jan 2026',
      'Remaining time on VPN Pro after 25 Jan 2026',
    ]);
    // A preview changes nothing.
    expect(t.fake.listInvoices(subscription.id)).toHaveLength(1);

    const hook = await t.receiver();
    const updated = await t.stripe.subscriptions.update(
      subscription.id,
      {
        items: [{ id: item.id, price: dearer.id }],
        proration_behavior: 'always_invoice',
        proration_date: at,
        payment_behavior: 'error_if_incomplete',
        metadata: { plan_change_id: 'tx_1' },
      },
      { idempotencyKey: 'change-1' },
    );
    expect(updated.items.data[0]).toMatchObject({ id: item.id, price: { id: dearer.id }, current_period_start: START, current_period_end: START + PERIOD });
    expect(updated.metadata).toMatchObject({ planId: 'pro-monthly', plan_change_id: 'tx_1' });
    const invoice = t.fake.getInvoice(updated.latest_invoice as string)!;
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', amount_due: 677, amount_paid: 677, total: 677 });
    expect(invoice.parent?.subscription_details?.metadata).toMatchObject({ plan_change_id: 'tx_1' });
    expect(invoice.lines.data.map((line) => line.amount)).toEqual([-677, 1354]);
    expect(t.fake.invoicePaymentIntents(invoice.id)).toHaveLength(1);
    await t.fake.waitForDeliveries();
    expect(typesOf(verifiedEvents(hook))).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.updated',
    ]);
    expect(verifiedEvents(hook)[4]!.data.previous_attributes).toMatchObject({ metadata: { planId: 'pro-monthly' } });

    // The same key is the same change: no second invoice.
    const again = await t.stripe.subscriptions.update(
      subscription.id,
      {
        items: [{ id: item.id, price: dearer.id }],
        proration_behavior: 'always_invoice',
        proration_date: at,
        payment_behavior: 'error_if_incomplete',
        metadata: { plan_change_id: 'tx_1' },
      },
      { idempotencyKey: 'change-1' },
    );
    expect(again.latest_invoice).toBe(invoice.id);
    expect(t.fake.listInvoices(subscription.id)).toHaveLength(2);

    // The next renewal bills the new price.
    await t.fake.advanceClock(t.fake.getCustomer(customer.id)!.test_clock as string, START + PERIOD + 2 * HOUR);
    expect(t.fake.listInvoices(subscription.id)[2]).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', amount_paid: 1999 });
  });

  it('a downgrade charges nothing: the negative total goes into the customer balance, which pays the next invoice', async () => {
    const { subscription, cheaper, item, customer, clock } = await tenDaysIn();
    const updated = await t.stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: cheaper.id }],
      proration_behavior: 'always_invoice',
      payment_behavior: 'error_if_incomplete',
    });
    // 499 × 21/31 = 338.03 charged, 677 credited: 339 to the balance.
    const invoice = t.fake.getInvoice(updated.latest_invoice as string)!;
    expect(invoice).toMatchObject({ status: 'paid', total: -339, amount_due: 0, amount_paid: 0, starting_balance: 0, ending_balance: -339 });
    expect(t.fake.invoicePaymentIntents(invoice.id)).toEqual([]);
    expect((await t.stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({ balance: -339 });
    const balance = await t.stripe.customers.listBalanceTransactions(customer.id);
    expect(balance.data[0]).toMatchObject({ type: 'applied_to_invoice', amount: -339, invoice: invoice.id });

    // The renewal at 499 is paid by the balance first: 160 by card.
    await t.fake.advanceClock(clock.id, START + PERIOD + 2 * HOUR);
    expect(t.fake.listInvoices(subscription.id)[2]).toMatchObject({
      status: 'paid',
      amount_due: 160,
      amount_paid: 160,
      starting_balance: -339,
      ending_balance: 0,
    });
  });

  it('error_if_incomplete with a card that declines: 402, and the subscription as it was; allow_incomplete: past_due', async () => {
    const { subscription, dearer, item, customer } = await tenDaysIn();
    t.fake.setCardDeclines(customer.id, true);
    const params = { items: [{ id: item.id, price: dearer.id }], proration_behavior: 'always_invoice' as const, metadata: { plan_change_id: 'tx_2' } };
    const refused = await caught(t.stripe.subscriptions.update(subscription.id, { ...params, payment_behavior: 'error_if_incomplete' }));
    expect(refused).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(refused).toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'insufficient_funds' });
    const unchanged = await t.stripe.subscriptions.retrieve(subscription.id);
    expect(unchanged.items.data[0]!.price.id).toBe(item.price.id);
    expect(unchanged.metadata.plan_change_id).toBeUndefined();
    expect(t.fake.listInvoices(subscription.id)).toHaveLength(1);

    const incomplete = await t.stripe.subscriptions.update(subscription.id, params);
    expect(incomplete).toMatchObject({ status: 'past_due', items: { data: [{ price: { id: dearer.id } }] } });
    expect(t.fake.getInvoice(incomplete.latest_invoice as string)).toMatchObject({ status: 'open', amount_due: 677, attempt_count: 1 });
  });

  it('refuses what it does not model or Stripe would not take', async () => {
    const { subscription, dearer, item } = await tenDaysIn();
    const yearly = await t.stripe.prices.create({ product: dearer.product as string, unit_amount: 9999, currency: 'usd', recurring: { interval: 'year' } });
    const update = (params: Stripe.SubscriptionUpdateParams) => caught(t.stripe.subscriptions.update(subscription.id, params));
    expect(await update({ items: [{ id: item.id, price: dearer.id }] })).toMatchObject({ statusCode: 400, param: 'proration_behavior' });
    expect(await update({ items: [{ id: 'si_nope', price: dearer.id }], proration_behavior: 'always_invoice' })).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    expect(await update({ items: [{ id: item.id, price: 'price_nope' }], proration_behavior: 'always_invoice' })).toMatchObject({ code: 'resource_missing' });
    expect(await update({ items: [{ id: item.id, price: yearly.id }], proration_behavior: 'always_invoice' })).toMatchObject({
      statusCode: 400,
      param: 'items[0][price]',
    });
    expect(await update({ items: [{ id: item.id, price: dearer.id }], proration_behavior: 'always_invoice', proration_date: START + 40 * DAY })).toMatchObject({
      statusCode: 400,
      param: 'proration_date',
    });
    expect(
      await update({ items: [{ id: item.id, price: dearer.id }], proration_behavior: 'always_invoice', payment_behavior: 'pending_if_incomplete' }),
    ).toMatchObject({ statusCode: 400, param: 'payment_behavior' });
    expect(t.fake.listInvoices(subscription.id)).toHaveLength(1);
  });
});

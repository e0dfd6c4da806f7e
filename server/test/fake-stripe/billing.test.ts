import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { periodBoundary } from './subscription-objects.js';
import { DAY, HOUR, RENEWAL_EVENTS, START, subscribe, SUBSCRIPTION_START_EVENTS } from './billing-kit.js';
import { caught, SUCCESS_URL, typesOf, useFakeStripe, verifiedEvents } from './test-kit.js';

describe('fake Stripe Billing: customers, products and prices', () => {
  const t = useFakeStripe();

  it('creates and retrieves a customer, a product and a recurring price', async () => {
    const customer = await t.stripe.customers.create({ email: 'a@example.com', metadata: { accountId: 'acc_1' } });
    expect(customer).toMatchObject({ object: 'customer', email: 'a@example.com', metadata: { accountId: 'acc_1' }, test_clock: null, livemode: false });
    expect(customer.id).toMatch(/^cus_[A-Za-z0-9]{14}$/);
    expect(await t.stripe.customers.retrieve(customer.id)).toEqual(customer);
    expect(t.fake.getCustomer(customer.id)).toEqual(customer);

    const product = await t.stripe.products.create({ name: 'VPN Pro', description: '5 devices' });
    expect(product).toMatchObject({ object: 'product', name: 'VPN Pro', description: '5 devices', active: true, type: 'service' });
    expect(await t.stripe.products.retrieve(product.id)).toEqual(product);

    const price = await t.stripe.prices.create({
      product: product.id,
      unit_amount: 999,
      currency: 'USD',
      recurring: { interval: 'month', interval_count: 3 },
    });
    expect(price).toMatchObject({
      object: 'price',
      product: product.id,
      unit_amount: 999,
      currency: 'usd',
      type: 'recurring',
      active: true,
      recurring: { interval: 'month', interval_count: 3, usage_type: 'licensed' },
    });
    expect((await t.stripe.prices.retrieve(price.id)).id).toBe(price.id);
  });

  it('updates a price’s active flag and metadata, but not its amount', async () => {
    const product = await t.stripe.products.create({ name: 'VPN Pro' });
    const price = await t.stripe.prices.create({ product: product.id, unit_amount: 999, currency: 'usd', recurring: { interval: 'year' } });
    const updated = await t.stripe.prices.update(price.id, { active: false, metadata: { legacy: 'yes' } });
    expect(updated).toMatchObject({ active: false, metadata: { legacy: 'yes' }, unit_amount: 999 });

    const refused = await caught(t.stripe.prices.update(price.id, { unit_amount: 1999 } as Stripe.PriceUpdateParams));
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refused).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'unit_amount' });
    expect((await t.stripe.prices.retrieve(price.id)).unit_amount).toBe(999);
  });

  it('refuses a bad interval, a price of an unknown product, and unknown ids', async () => {
    const product = await t.stripe.products.create({ name: 'VPN Pro' });
    const badInterval = await caught(
      t.stripe.prices.create({ product: product.id, unit_amount: 1, currency: 'usd', recurring: { interval: 'hour' as 'day' } }),
    );
    expect(badInterval).toMatchObject({ statusCode: 400, param: 'recurring[interval]' });
    const noProduct = await caught(t.stripe.prices.create({ product: 'prod_nope', unit_amount: 1, currency: 'usd' }));
    expect(noProduct).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'product' });
    for (const [request, name] of [
      [t.stripe.customers.retrieve('cus_nope'), 'customer'],
      [t.stripe.prices.retrieve('price_nope'), 'price'],
      [t.stripe.subscriptions.retrieve('sub_nope'), 'subscription'],
      [t.stripe.testHelpers.testClocks.retrieve('clock_nope'), 'test_helpers.test_clock'],
    ] as const) {
      expect(await caught(request)).toMatchObject({ statusCode: 404, code: 'resource_missing', message: expect.stringContaining(`No such ${name}`) });
    }
    const noClock = await caught(t.stripe.customers.create({ email: 'a@example.com', test_clock: 'clock_nope' }));
    expect(noClock).toMatchObject({ statusCode: 404, param: 'test_clock' });
  });
});

describe('fake Stripe Billing: subscription-mode checkout', () => {
  const t = useFakeStripe();

  it('paying creates an active subscription, a paid first invoice, and sends the events in order, signed', async () => {
    const hook = await t.receiver();
    const { clock, customer, price, session, subscription } = await subscribe(t);
    expect(subscription.test_clock).toBe(clock.id);
    expect(session).toMatchObject({ mode: 'subscription', status: 'complete', payment_status: 'paid', customer: customer.id, payment_intent: null });
    expect(session.customer_details?.email).toBe('subscriber@example.com');
    expect(subscription).toMatchObject({
      object: 'subscription',
      status: 'active',
      customer: customer.id,
      currency: 'usd',
      cancel_at_period_end: false,
      metadata: { accountId: 'acc_7', planId: 'pro-monthly' },
      start_date: START,
      billing_cycle_anchor: START,
      collection_method: 'charge_automatically',
    });
    const [item] = subscription.items.data;
    expect(item).toMatchObject({
      object: 'subscription_item',
      quantity: 1,
      current_period_start: START,
      current_period_end: Date.UTC(2026, 1, 15) / 1000,
      price: { id: price.id, unit_amount: 999 },
      plan: { id: price.id, interval: 'month', amount: 999 },
    });
    expect(session.invoice).toBe(subscription.latest_invoice);

    const invoice = await t.stripe.invoices.retrieve(subscription.latest_invoice as string);
    expect(invoice).toMatchObject({
      object: 'invoice',
      status: 'paid',
      billing_reason: 'subscription_create',
      customer: customer.id,
      amount_due: 999,
      amount_paid: 999,
      amount_remaining: 0,
      attempt_count: 1,
      period_start: START,
      period_end: START,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata: { accountId: 'acc_7', planId: 'pro-monthly' } },
      },
      status_transitions: { finalized_at: START, paid_at: START },
    });
    expect(invoice.lines.data[0]).toMatchObject({ amount: 999, period: { start: START, end: item!.current_period_end } });
    expect(t.fake.getSubscription(subscription.id)?.status).toBe('active');
    expect(t.fake.listInvoices(subscription.id).map((i) => i.id)).toEqual([invoice.id]);
    const expanded = await t.stripe.subscriptions.retrieve(subscription.id, { expand: ['latest_invoice', 'customer'] });
    expect(expanded.latest_invoice).toMatchObject({ id: invoice.id, object: 'invoice' });
    expect(expanded.customer).toMatchObject({ id: customer.id, object: 'customer' });
    const listed = await t.stripe.invoices.list({ subscription: subscription.id });
    expect(listed.data.map((i) => i.id)).toEqual([invoice.id]);

    const events = verifiedEvents(hook);
    expect(typesOf(events)).toEqual(SUBSCRIPTION_START_EVENTS);
    expect((events[0]!.data.object as Stripe.Subscription).status).toBe('incomplete');
    expect((events[1]!.data.object as Stripe.Invoice).status).toBe('draft');
    expect(events[5]!.data.previous_attributes).toEqual({ status: 'incomplete' });
    expect((events[6]!.data.object as Stripe.Checkout.Session).subscription).toBe(subscription.id);
  });

  it('a paid session names its subscription, customer and first invoice, with the invoice’s total and no payment_intent', async () => {
    const { customer, session, subscription } = await subscribe(t);
    const [firstInvoice] = t.fake.listInvoices(subscription.id);
    const expected = {
      status: 'complete',
      payment_status: 'paid',
      subscription: subscription.id,
      customer: customer.id,
      invoice: firstInvoice!.id,
      amount_subtotal: firstInvoice!.subtotal,
      amount_total: firstInvoice!.total,
      payment_intent: null,
    };
    expect(await t.stripe.checkout.sessions.retrieve(session.id)).toMatchObject(expected);
    const completed = t.fake.events.find((event) => event.type === 'checkout.session.completed')!;
    expect(completed.data.object).toMatchObject(expected);
  });

  it('the first invoice’s payment is an ordinary PaymentIntent that can be refunded', async () => {
    const { subscription } = await subscribe(t);
    const [paymentIntentId] = t.fake.invoicePaymentIntents(subscription.latest_invoice as string);
    const paymentIntent = await t.stripe.paymentIntents.retrieve(paymentIntentId!);
    expect(paymentIntent).toMatchObject({ status: 'succeeded', amount: 999, customer: subscription.customer });
    const refund = await t.stripe.refunds.create({ payment_intent: paymentIntentId! });
    expect(refund).toMatchObject({ status: 'succeeded', amount: 999 });
  });

  it('the hosted page’s Pay button starts the subscription and waits for its webhooks', async () => {
    const hook = await t.receiver();
    const customer = await t.stripe.customers.create({ email: 'page@example.com' });
    const product = await t.stripe.products.create({ name: 'VPN Pro' });
    const price = await t.stripe.prices.create({ product: product.id, unit_amount: 500, currency: 'usd', recurring: { interval: 'week' } });
    const session = await t.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: price.id, quantity: 2 }],
      success_url: SUCCESS_URL,
    });
    expect(session.amount_total).toBe(1000);
    const page = await fetch(session.url!);
    expect(await page.text()).not.toContain('name="email"');
    const paid = await fetch(session.url!, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ method: 'card' }) });
    expect(paid.status).toBe(303);
    expect(typesOf(verifiedEvents(hook))).toEqual(SUBSCRIPTION_START_EVENTS);
    const subscription = t.fake.getSubscription(t.fake.getSession(session.id)!.subscription as string)!;
    expect(subscription.items.data[0]).toMatchObject({ quantity: 2 });
    expect(subscription.items.data[0]!.current_period_end - subscription.items.data[0]!.current_period_start).toBe(7 * DAY);
  });

  it('refuses a one-time price, an unknown price and an unknown customer', async () => {
    const customer = await t.stripe.customers.create({ email: 'a@example.com' });
    const product = await t.stripe.products.create({ name: 'VPN Pro' });
    const oneTime = await t.stripe.prices.create({ product: product.id, unit_amount: 500, currency: 'usd' });
    const params = (price: string, customerId = customer.id): Stripe.Checkout.SessionCreateParams => ({
      mode: 'subscription',
      customer: customerId,
      line_items: [{ price, quantity: 1 }],
      success_url: SUCCESS_URL,
    });
    expect(await caught(t.stripe.checkout.sessions.create(params(oneTime.id)))).toMatchObject({ statusCode: 400, param: 'line_items[0][price]' });
    expect(await caught(t.stripe.checkout.sessions.create(params('price_nope')))).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    expect(await caught(t.stripe.checkout.sessions.create(params(oneTime.id, 'cus_nope')))).toMatchObject({ statusCode: 404, param: 'customer' });
    const both = await caught(t.stripe.checkout.sessions.create({ ...params(oneTime.id), customer_email: 'a@example.com' }));
    expect(both).toMatchObject({ statusCode: 400, param: 'customer_email' });
  });
});

describe('fake Stripe Billing: renewals on a test clock', () => {
  const t = useFakeStripe();

  it('advancing three periods renews three times: three paid subscription_cycle invoices and three sets of events', async () => {
    const { clock, subscription } = await subscribe(t);
    const hook = await t.receiver();
    const target = Date.UTC(2026, 3, 20) / 1000; // 20 April: past 15 Feb, 15 Mar, 15 Apr.
    const advanced = await t.fake.advanceClock(clock.id, target);
    expect(advanced).toMatchObject({ status: 'ready', frozen_time: target });

    const invoices = t.fake.listInvoices(subscription.id);
    expect(invoices.map((i) => i.billing_reason)).toEqual(['subscription_create', 'subscription_cycle', 'subscription_cycle', 'subscription_cycle']);
    expect(invoices.every((i) => i.status === 'paid' && i.amount_paid === 999)).toBe(true);
    const boundaries = [1, 2, 3].map((month) => Date.UTC(2026, month, 15) / 1000);
    expect(invoices.slice(1).map((i) => i.created)).toEqual(boundaries);
    expect(invoices[1]).toMatchObject({
      period_start: START,
      period_end: boundaries[0],
      status_transitions: { finalized_at: boundaries[0]! + HOUR, paid_at: boundaries[0]! + HOUR },
    });

    const renewed = await t.stripe.subscriptions.retrieve(subscription.id);
    expect(renewed.status).toBe('active');
    expect(renewed.latest_invoice).toBe(invoices[3]!.id);
    expect(renewed.items.data[0]).toMatchObject({ current_period_start: boundaries[2], current_period_end: Date.UTC(2026, 4, 15) / 1000 });

    const events = verifiedEvents(hook);
    expect(typesOf(events)).toEqual([
      'test_helpers.test_clock.advancing',
      ...RENEWAL_EVENTS,
      ...RENEWAL_EVENTS,
      ...RENEWAL_EVENTS,
      'test_helpers.test_clock.ready',
    ]);
    const firstUpdate = events[2]!.data;
    expect((firstUpdate.previous_attributes as Partial<Stripe.Subscription>).items?.data[0]?.current_period_end).toBe(boundaries[0]);
  });

  it('a renewal invoice stays a draft for an hour after the period ends, then is finalized and paid', async () => {
    const { clock, subscription } = await subscribe(t);
    const periodEnd = subscription.items.data[0]!.current_period_end;
    const hook = await t.receiver();
    await t.fake.advanceClock(clock.id, periodEnd + 30 * 60);
    const draft = t.fake.listInvoices(subscription.id)[1]!;
    expect(draft).toMatchObject({ status: 'draft', billing_reason: 'subscription_cycle', automatically_finalizes_at: periodEnd + HOUR, number: null });
    expect(t.fake.getSubscription(subscription.id)!.items.data[0]!.current_period_start).toBe(periodEnd);
    expect(typesOf(verifiedEvents(hook))).toEqual([
      'test_helpers.test_clock.advancing',
      'invoice.created',
      'customer.subscription.updated',
      'test_helpers.test_clock.ready',
    ]);

    await t.fake.advanceClock(clock.id, periodEnd + HOUR);
    expect(t.fake.getInvoice(draft.id)).toMatchObject({ status: 'paid', amount_paid: 999 });
    expect(typesOf(verifiedEvents(hook)).slice(4)).toEqual([
      'test_helpers.test_clock.advancing',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'test_helpers.test_clock.ready',
    ]);
  });

  it('the advance endpoint answers with the clock advancing, then it is ready with the renewal made', async () => {
    const { clock, subscription } = await subscribe(t);
    const target = Date.UTC(2026, 1, 16) / 1000;
    const answer = await t.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: target });
    expect(answer).toMatchObject({ status: 'advancing', status_details: { advancing: { target_frozen_time: target } } });
    await t.fake.waitForDeliveries();
    expect(await t.stripe.testHelpers.testClocks.retrieve(clock.id)).toMatchObject({ status: 'ready', frozen_time: target });
    expect(t.fake.listInvoices(subscription.id)).toHaveLength(2);
    const backwards = await caught(t.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: START }));
    expect(backwards).toMatchObject({ statusCode: 400, param: 'frozen_time' });
  });

  it('a declining card leaves the renewal open and the subscription past_due; paying the open invoices makes it active', async () => {
    const { clock, customer, subscription } = await subscribe(t);
    const hook = await t.receiver();
    t.fake.setCardDeclines(customer.id, true);
    await t.fake.advanceClock(clock.id, Date.UTC(2026, 1, 16) / 1000);

    const renewal = t.fake.listInvoices(subscription.id)[1]!;
    expect(renewal).toMatchObject({ status: 'open', attempt_count: 1, attempted: true, amount_paid: 0, amount_remaining: 999 });
    expect(renewal.next_payment_attempt).not.toBeNull();
    expect((await t.stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due');
    expect(t.fake.getCustomer(customer.id)?.delinquent).toBe(true);
    const failed = await t.stripe.paymentIntents.retrieve(t.fake.invoicePaymentIntents(renewal.id)[0]!);
    expect(failed).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'card_declined', type: 'card_error' } });
    expect(typesOf(verifiedEvents(hook))).toEqual([
      'test_helpers.test_clock.advancing',
      'invoice.created',
      'customer.subscription.updated',
      'invoice.finalized',
      'invoice.payment_failed',
      'customer.subscription.updated',
      'test_helpers.test_clock.ready',
    ]);
    expect(verifiedEvents(hook)[5]!.data.previous_attributes).toEqual({ status: 'active' });

    hook.received.length = 0;
    t.fake.setCardDeclines(customer.id, false);
    const tried = await t.fake.payOpenInvoices(customer.id);
    expect(tried.map((i) => i.id)).toEqual([renewal.id]);
    expect(t.fake.getInvoice(renewal.id)).toMatchObject({ status: 'paid', attempt_count: 2, amount_paid: 999 });
    expect((await t.stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
    expect(t.fake.getCustomer(customer.id)?.delinquent).toBe(false);
    const events = verifiedEvents(hook);
    expect(typesOf(events)).toEqual(['invoice.paid', 'invoice.payment_succeeded', 'customer.subscription.updated']);
    expect(events[2]!.data.previous_attributes).toEqual({ status: 'past_due' });
  });

  it('cancel_at_period_end: no invoice at the period end, the subscription ends then', async () => {
    const { clock, subscription } = await subscribe(t);
    const hook = await t.receiver();
    const periodEnd = subscription.items.data[0]!.current_period_end;
    const updated = await t.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true, metadata: { reason: 'too expensive' } });
    expect(updated).toMatchObject({ cancel_at_period_end: true, cancel_at: periodEnd, canceled_at: START, status: 'active' });
    expect(updated.metadata).toEqual({ accountId: 'acc_7', planId: 'pro-monthly', reason: 'too expensive' });
    await t.fake.waitForDeliveries();
    const [updateEvent] = verifiedEvents(hook);
    expect(updateEvent).toMatchObject({ type: 'customer.subscription.updated', request: { id: expect.stringMatching(/^req_/) } });
    expect(updateEvent!.data.previous_attributes).toMatchObject({
      cancel_at_period_end: false,
      cancel_at: null,
      metadata: { accountId: 'acc_7', planId: 'pro-monthly' },
    });

    hook.received.length = 0;
    await t.fake.advanceClock(clock.id, periodEnd + 40 * DAY);
    expect(t.fake.listInvoices(subscription.id)).toHaveLength(1);
    expect(await t.stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'canceled', ended_at: periodEnd, canceled_at: START });
    expect(typesOf(verifiedEvents(hook))).toEqual(['test_helpers.test_clock.advancing', 'customer.subscription.deleted', 'test_helpers.test_clock.ready']);
  });

  it('cancel now: canceled at once, customer.subscription.deleted, and no more renewals', async () => {
    const { clock, subscription } = await subscribe(t);
    const hook = await t.receiver();
    const canceled = await t.stripe.subscriptions.cancel(subscription.id);
    expect(canceled).toMatchObject({ status: 'canceled', canceled_at: START, ended_at: START, cancellation_details: { reason: 'cancellation_requested' } });
    await t.fake.waitForDeliveries();
    expect(typesOf(verifiedEvents(hook))).toEqual(['customer.subscription.deleted']);
    // At Stripe a canceled subscription is as good as deleted: cancelling it again is a 404.
    expect(await caught(t.stripe.subscriptions.cancel(subscription.id))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: `No such subscription: '${subscription.id}'`,
    });
    expect(await caught(t.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true }))).toMatchObject({ statusCode: 400 });
    await t.fake.advanceClock(clock.id, START + 100 * DAY);
    expect(t.fake.listInvoices(subscription.id)).toHaveLength(1);
  });

  it('a trial added without proration moves the next charge: a paid invoice for 0, trialing, then renewals from the trial end', async () => {
    const { clock, subscription } = await subscribe(t);
    const hook = await t.receiver();
    const periodEnd = subscription.items.data[0]!.current_period_end;
    const trialEnd = periodEnd + 7 * DAY;
    const updated = await t.stripe.subscriptions.update(subscription.id, { trial_end: trialEnd, proration_behavior: 'none' });
    expect(updated).toMatchObject({ status: 'trialing', trial_start: START, trial_end: trialEnd, billing_cycle_anchor: trialEnd });
    expect(updated.items.data[0]).toMatchObject({ current_period_start: START, current_period_end: trialEnd });
    const trialInvoice = t.fake.listInvoices(subscription.id)[1]!;
    expect(trialInvoice).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', amount_due: 0, amount_paid: 0, total: 0 });
    expect(trialInvoice.lines.data[0]).toMatchObject({
      amount: 0,
      period: { start: START, end: trialEnd },
      description: expect.stringMatching(/^Trial period for /),
    });
    expect(t.fake.invoicePaymentIntents(trialInvoice.id)).toEqual([]);
    await t.fake.waitForDeliveries();
    expect(typesOf(verifiedEvents(hook))).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.updated',
    ]);
    expect(verifiedEvents(hook)[4]!.data.previous_attributes).toMatchObject({ status: 'active', trial_end: null, billing_cycle_anchor: START });

    // Nothing is charged at the old period end.
    await t.fake.advanceClock(clock.id, periodEnd + DAY);
    expect(t.fake.listInvoices(subscription.id)).toHaveLength(2);

    await t.fake.advanceClock(clock.id, trialEnd + HOUR);
    const renewal = t.fake.listInvoices(subscription.id)[2]!;
    expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', amount_paid: 999 });
    expect(renewal.lines.data[0]!.period).toEqual({ start: trialEnd, end: periodBoundary(trialEnd, 'month', 1, 1) });
    expect(await t.stripe.subscriptions.retrieve(subscription.id)).toMatchObject({ status: 'active' });
  });

  it('refuses a trial in the past, a trial with prorations, and a trial on a canceled subscription', async () => {
    const { subscription } = await subscribe(t);
    expect(await caught(t.stripe.subscriptions.update(subscription.id, { trial_end: START - DAY, proration_behavior: 'none' }))).toMatchObject({
      statusCode: 400,
      param: 'trial_end',
    });
    expect(await caught(t.stripe.subscriptions.update(subscription.id, { trial_end: START + 40 * DAY }))).toMatchObject({
      statusCode: 400,
      param: 'proration_behavior',
    });
    expect(
      await caught(t.stripe.subscriptions.update(subscription.id, { trial_end: START + 40 * DAY, proration_behavior: 'sometimes' as 'none' })),
    ).toMatchObject({ statusCode: 400, param: 'proration_behavior' });
    expect((await t.stripe.subscriptions.retrieve(subscription.id)).status).toBe('active');
    await t.stripe.subscriptions.cancel(subscription.id);
    expect(await caught(t.stripe.subscriptions.update(subscription.id, { trial_end: START + 40 * DAY, proration_behavior: 'none' }))).toMatchObject({
      statusCode: 400,
      param: 'trial_end',
    });
    expect(t.fake.getSubscription(subscription.id)!.status).toBe('canceled');
    expect(t.fake.listInvoices(subscription.id)).toHaveLength(1);
  });

  it('month periods keep the anchor day, clamped to short months', () => {
    const jan31 = Date.UTC(2026, 0, 31) / 1000;
    expect([1, 2, 3].map((n) => periodBoundary(jan31, 'month', 1, n))).toEqual([
      Date.UTC(2026, 1, 28) / 1000,
      Date.UTC(2026, 2, 31) / 1000,
      Date.UTC(2026, 3, 30) / 1000,
    ]);
    expect(periodBoundary(jan31, 'year', 1, 1)).toBe(Date.UTC(2027, 0, 31) / 1000);
  });
});

describe('fake Stripe Billing: customer portal', () => {
  const t = useFakeStripe();

  it('a portal session’s url serves a page whose Update card pays the open invoices', async () => {
    const { clock, customer, subscription } = await subscribe(t);
    t.fake.setCardDeclines(customer.id, true);
    await t.fake.advanceClock(clock.id, Date.UTC(2026, 1, 16) / 1000);
    const hook = await t.receiver();

    const portal = await t.stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'https://shop.example/account' });
    expect(portal).toMatchObject({ object: 'billing_portal.session', customer: customer.id, return_url: 'https://shop.example/account' });
    expect(portal.id).toMatch(/^bps_1/);
    const page = await fetch(portal.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Update card');
    expect(html).toContain('href="https://shop.example/account"');
    expect(html).toContain('past_due');

    const form = /action="([^"]+update-card)"/.exec(html)![1]!;
    const posted = await fetch(new URL(form, portal.url), { method: 'POST', redirect: 'manual' });
    expect(posted.status).toBe(303);
    expect(typesOf(verifiedEvents(hook))).toEqual(['invoice.paid', 'invoice.payment_succeeded', 'customer.subscription.updated']);
    expect(t.fake.getSubscription(subscription.id)?.status).toBe('active');

    // The card works again: the next renewal is paid.
    await t.fake.advanceClock(clock.id, Date.UTC(2026, 2, 16) / 1000);
    expect(t.fake.listInvoices(subscription.id).at(-1)?.status).toBe('paid');
    expect(await caught(t.stripe.billingPortal.sessions.create({ customer: 'cus_nope' }))).toMatchObject({ statusCode: 404, param: 'customer' });
  });

  it('a portal session keeps the language asked for, and refuses one Stripe does not have', async () => {
    const { customer } = await subscribe(t);
    const russian = await t.stripe.billingPortal.sessions.create({ customer: customer.id, locale: 'ru' });
    expect(russian.locale).toBe('ru');
    expect(await (await fetch(russian.url)).text()).toContain('Page language: ru');
    expect((await t.stripe.billingPortal.sessions.create({ customer: customer.id })).locale).toBeNull();
    expect(await caught(t.stripe.billingPortal.sessions.create({ customer: customer.id, locale: 'fa' }))).toMatchObject({ statusCode: 400, param: 'locale' });
  });
});

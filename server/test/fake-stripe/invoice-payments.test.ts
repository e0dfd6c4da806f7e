import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { DAY, START, subscribe } from './billing-kit.js';
import { caught, typesOf, useFakeStripe, verifiedEvents } from './test-kit.js';

describe('fake Stripe Billing: invoice payments', () => {
  const t = useFakeStripe();

  it('expand[]=payments includes the invoice’s InvoicePayment, in Stripe’s shape; without it there is none', async () => {
    const { subscription } = await subscribe(t);
    const invoiceId = subscription.latest_invoice as string;
    const [paymentIntent] = t.fake.invoicePaymentIntents(invoiceId);

    const invoice = await t.stripe.invoices.retrieve(invoiceId, { expand: ['payments'] });
    expect(invoice.payments).toEqual({
      object: 'list',
      data: [
        {
          id: expect.stringMatching(/^inpay_1[A-Za-z0-9]{23}$/),
          object: 'invoice_payment',
          amount_paid: 999,
          amount_requested: 999,
          created: START,
          currency: 'usd',
          invoice: invoiceId,
          is_default: true,
          livemode: false,
          payment: { type: 'payment_intent', payment_intent: paymentIntent },
          status: 'paid',
          status_transitions: { canceled_at: null, paid_at: START },
        },
      ],
      has_more: false,
      url: '/v1/invoice_payments',
    });
    expect(await t.stripe.paymentIntents.retrieve(paymentIntent!)).toMatchObject({ status: 'succeeded', amount: 999 });

    const plain = await t.stripe.invoices.retrieve(invoiceId);
    expect(plain).not.toHaveProperty('payments');
    expect(plain).not.toHaveProperty('payment_intent');
    expect(t.fake.events.filter((event) => event.type.startsWith('invoice.')).every((event) => !('payments' in event.data.object))).toBe(true);
    const listed = await t.stripe.invoices.list({ subscription: subscription.id, expand: ['data.payments'] });
    expect(listed.data[0]!.payments).toEqual(invoice.payments);
  });

  it('GET /v1/invoice_payments lists an invoice’s payments (invoice required) and retrieves one', async () => {
    const { subscription } = await subscribe(t);
    const invoiceId = subscription.latest_invoice as string;
    const { payments } = await t.stripe.invoices.retrieve(invoiceId, { expand: ['payments'] });

    const listed = await t.stripe.invoicePayments.list({ invoice: invoiceId });
    expect(listed).toMatchObject({ object: 'list', has_more: false, url: '/v1/invoice_payments' });
    expect(listed.data).toEqual(payments!.data);
    expect(await t.stripe.invoicePayments.retrieve(listed.data[0]!.id)).toEqual(listed.data[0]);
    const byIntent = await t.stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: t.fake.invoicePaymentIntents(invoiceId)[0]! },
    });
    expect(byIntent.data).toEqual(listed.data);
    expect((await t.stripe.invoicePayments.list({ invoice: invoiceId, status: 'open' })).data).toEqual([]);

    expect(await caught(t.stripe.invoicePayments.list())).toMatchObject({ statusCode: 400, param: 'invoice' });
    expect(await caught(t.stripe.invoicePayments.list({ invoice: 'in_nope' }))).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'invoice' });
    expect(await caught(t.stripe.invoicePayments.list({ invoice: invoiceId, limit: 101 }))).toMatchObject({ statusCode: 400, param: 'limit' });
    expect(await caught(t.stripe.invoicePayments.retrieve('inpay_nope'))).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('a declined renewal’s payment is open with nothing paid; paying again cancels it and the new one is paid', async () => {
    const { clock, customer, subscription } = await subscribe(t);
    t.fake.setCardDeclines(customer.id, true);
    const periodEnd = subscription.items.data[0]!.current_period_end;
    await t.fake.advanceClock(clock.id, periodEnd + 2 * 60 * 60);
    const renewal = t.fake.listInvoices(subscription.id)[1]!;
    const attemptedAt = periodEnd + 60 * 60;

    const declined = await t.stripe.invoicePayments.list({ invoice: renewal.id });
    expect(declined.data).toEqual([
      expect.objectContaining({
        status: 'open',
        amount_paid: null,
        amount_requested: 999,
        is_default: true,
        status_transitions: { canceled_at: null, paid_at: null },
      }),
    ]);

    t.fake.setCardDeclines(customer.id, false);
    await t.fake.advanceClock(clock.id, periodEnd + DAY);
    await t.fake.payOpenInvoices(customer.id);
    const [retry, first] = (await t.stripe.invoicePayments.list({ invoice: renewal.id })).data;
    const [firstIntent, retryIntent] = t.fake.invoicePaymentIntents(renewal.id);
    expect(first).toMatchObject({
      id: declined.data[0]!.id,
      status: 'canceled',
      is_default: false,
      amount_paid: null,
      payment: { payment_intent: firstIntent },
    });
    expect(first!.status_transitions).toEqual({ canceled_at: periodEnd + DAY, paid_at: null });
    expect(first!.created).toBe(attemptedAt);
    expect(retry).toMatchObject({ status: 'paid', is_default: true, amount_paid: 999, payment: { payment_intent: retryIntent } });
    expect(retry!.status_transitions).toEqual({ canceled_at: null, paid_at: periodEnd + DAY });
  });

  it('refunding an invoice’s PaymentIntent sends charge.refunded naming that PaymentIntent; the payment stays paid', async () => {
    const { subscription } = await subscribe(t);
    const invoiceId = subscription.latest_invoice as string;
    const [paymentIntent] = t.fake.invoicePaymentIntents(invoiceId);
    const hook = await t.receiver();

    const refund = await t.stripe.refunds.create({ payment_intent: paymentIntent! });
    expect(refund).toMatchObject({ status: 'succeeded', amount: 999, payment_intent: paymentIntent });
    await t.fake.waitForDeliveries();
    const events = verifiedEvents(hook);
    expect(typesOf(events)).toEqual(['charge.refunded', 'refund.created']);
    const charge = events[0]!.data.object as Stripe.Charge;
    expect(charge).toMatchObject({ object: 'charge', payment_intent: paymentIntent, refunded: true, amount_refunded: 999 });
    expect((await t.stripe.invoicePayments.list({ invoice: invoiceId })).data[0]).toMatchObject({ status: 'paid', amount_paid: 999 });
  });
});

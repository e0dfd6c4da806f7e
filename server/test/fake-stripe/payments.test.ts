import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { caught, checkoutParams, useFakeStripe } from './test-kit.js';

describe('fake Stripe: the PaymentIntent and Charge behind a paid session', () => {
  const t = useFakeStripe();

  it('a card payment: session.payment_intent names a succeeded PaymentIntent whose latest_charge is a succeeded Charge', async () => {
    const session = await t.stripe.checkout.sessions.create(
      checkoutParams({ payment_intent_data: { metadata: { orderId: '42', accountId: 'acc_7' }, description: 'VPN Pro' } }),
    );
    await t.fake.pay(session.id);
    const paid = await t.stripe.checkout.sessions.retrieve(session.id);
    expect(paid.payment_intent).toMatch(/^pi_3[A-Za-z0-9]{24}$/);

    const paymentIntent = await t.stripe.paymentIntents.retrieve(paid.payment_intent as string);
    expect(paymentIntent).toMatchObject({
      id: paid.payment_intent,
      object: 'payment_intent',
      status: 'succeeded',
      amount: 1299,
      amount_received: 1299,
      currency: 'usd',
      description: 'VPN Pro',
      metadata: { orderId: '42', accountId: 'acc_7' },
      payment_method_types: ['card'],
      livemode: false,
    });
    expect(paymentIntent.latest_charge).toMatch(/^ch_3/);

    const charge = await t.stripe.charges.retrieve(paymentIntent.latest_charge as string);
    expect(charge).toMatchObject({
      id: paymentIntent.latest_charge,
      object: 'charge',
      payment_intent: paymentIntent.id,
      amount: 1299,
      amount_captured: 1299,
      amount_refunded: 0,
      refunded: false,
      paid: true,
      captured: true,
      status: 'succeeded',
      currency: 'usd',
      disputed: false,
      metadata: { orderId: '42', accountId: 'acc_7' },
      billing_details: { email: 'buyer@example.com' },
      payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242' } },
    });
    // Since API version 2022-11-15 a Charge lists its refunds only when asked to.
    expect(charge).not.toHaveProperty('refunds');
    expect(t.fake.getPaymentIntent(paymentIntent.id)).toEqual(paymentIntent);
    expect(t.fake.getCharge(charge.id)).toMatchObject({ id: charge.id, status: 'succeeded' });
  });

  it('expands latest_charge on a PaymentIntent, and refuses to expand anything else', async () => {
    const session = await t.stripe.checkout.sessions.create(checkoutParams());
    await t.fake.pay(session.id);
    const id = t.fake.getSession(session.id)!.payment_intent as string;
    const expanded = await t.stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] });
    expect(expanded.latest_charge).toMatchObject({ object: 'charge', payment_intent: id, status: 'succeeded' });

    const refused = await caught(t.stripe.paymentIntents.retrieve(id, { expand: ['customer'] }));
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refused).toMatchObject({ statusCode: 400, param: 'expand', message: expect.stringMatching(/^This property cannot be expanded \(customer\)/) });
  });

  it('answers unknown PaymentIntent, Charge, Refund and Dispute ids with 404 resource_missing', async () => {
    const cases: Array<[Promise<unknown>, string]> = [
      [t.stripe.paymentIntents.retrieve('pi_nope'), "No such payment_intent: 'pi_nope'"],
      [t.stripe.charges.retrieve('ch_nope'), "No such charge: 'ch_nope'"],
      [t.stripe.refunds.retrieve('re_nope'), "No such refund: 're_nope'"],
      [t.stripe.disputes.retrieve('dp_nope'), "No such dispute: 'dp_nope'"],
    ];
    for (const [request, message] of cases) {
      const error = await caught(request);
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 404, code: 'resource_missing', message });
    }
  });

  it('a bank debit: the PaymentIntent is processing and its Charge pending until the payment succeeds', async () => {
    const session = await t.stripe.checkout.sessions.create(checkoutParams());
    await t.fake.pay(session.id, { async: true });
    const id = t.fake.getSession(session.id)!.payment_intent as string;
    const processing = await t.stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] });
    expect(processing).toMatchObject({ status: 'processing', amount_received: 0, payment_method_types: ['us_bank_account'] });
    expect(processing.latest_charge).toMatchObject({ status: 'pending', paid: false, payment_method_details: { type: 'us_bank_account' } });

    await t.fake.succeedAsync(session.id);
    const succeeded = await t.stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] });
    expect(succeeded).toMatchObject({ status: 'succeeded', amount_received: 1299 });
    expect(succeeded.latest_charge).toMatchObject({ status: 'succeeded', paid: true, amount_captured: 1299 });
  });

  it('a failed bank debit: the Charge failed, the PaymentIntent wants another payment method', async () => {
    const session = await t.stripe.checkout.sessions.create(checkoutParams());
    await t.fake.pay(session.id, { async: true });
    await t.fake.failAsync(session.id);
    const id = t.fake.getSession(session.id)!.payment_intent as string;
    const failed = await t.stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] });
    expect(failed).toMatchObject({ status: 'requires_payment_method', amount_received: 0, last_payment_error: { code: 'insufficient_funds' } });
    expect(failed.latest_charge).toMatchObject({ status: 'failed', paid: false, amount_captured: 0, failure_code: 'insufficient_funds' });
  });

  it('allowed_payment_method_types: ["card"] is recorded on the session; the page offers no bank debit and refuses one', async () => {
    const session = await t.stripe.checkout.sessions.create(checkoutParams({ allowed_payment_method_types: ['card'] }));
    expect(session).toMatchObject({ allowed_payment_method_types: ['card'], payment_method_types: ['card'] });
    expect((await t.stripe.checkout.sessions.retrieve(session.id)).payment_method_types).toEqual(['card']);

    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('value="card" checked');
    expect(page).not.toContain('Bank debit');
    const post = await fetch(session.url!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'method=delayed',
      redirect: 'manual',
    });
    expect(post.status).toBe(400);
    expect(t.fake.getSession(session.id)!.status).toBe('open');
    await expect(t.fake.pay(session.id, { async: true })).rejects.toThrow(/offers no delayed \(bank debit\) payment/);
    expect(t.fake.getSession(session.id)!.status).toBe('open');
    await t.fake.pay(session.id);
    expect(t.fake.getSession(session.id)).toMatchObject({ status: 'complete', payment_status: 'paid' });
  });

  it('evenIfNotOffered pays a card-only session by bank debit, for tests of events Stripe would not send', async () => {
    const session = await t.stripe.checkout.sessions.create(checkoutParams({ allowed_payment_method_types: ['card'] }));
    const completed = await t.fake.pay(session.id, { async: true, evenIfNotOffered: true });
    expect(completed.data.object).toMatchObject({ status: 'complete', payment_status: 'unpaid' });
    expect(t.fake.getPaymentIntent(completed.data.object.payment_intent as string)).toMatchObject({
      status: 'processing',
      payment_method_types: ['us_bank_account'],
    });
    await expect(t.fake.succeedAsync(session.id)).resolves.toMatchObject({ type: 'checkout.session.async_payment_succeeded' });
  });

  it('payment_method_types: ["card"] is accepted and recorded on API versions before 2026-09-30.endive', async () => {
    const params = { ...checkoutParams(), payment_method_types: ['card'] };
    const session = (await t.stripe.rawRequest('POST', '/v1/checkout/sessions', params, {
      apiVersion: '2026-08-26.dahlia',
    })) as unknown as Stripe.Checkout.Session;
    expect(session).toMatchObject({ payment_method_types: ['card'], allowed_payment_method_types: null });
    expect(t.fake.getSession(session.id)!.payment_method_types).toEqual(['card']);
    expect(await (await fetch(session.url!)).text()).not.toContain('Bank debit');
  });

  it("payment_method_types on the SDK's own API version: 400 payment_method_types_no_longer_supported, as at Stripe", async () => {
    const error = await caught(t.stripe.rawRequest('POST', '/v1/checkout/sessions', { ...checkoutParams(), payment_method_types: ['card'] }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, code: 'payment_method_types_no_longer_supported', param: 'payment_method_types' });
    expect(t.fake.listSessions()).toEqual([]);
  });

  it("without payment_method_types a session offers a card and its currency's bank debit", async () => {
    const usd = await t.stripe.checkout.sessions.create(checkoutParams());
    expect(usd.payment_method_types).toEqual(['card', 'us_bank_account']);
    const page = await (await fetch(usd.url!)).text();
    expect(page).toContain('Test card (paid at once)');
    expect(page).toContain('Bank debit (confirmed later)');
    const jpy = await t.stripe.checkout.sessions.create(
      checkoutParams({ line_items: [{ price_data: { currency: 'jpy', unit_amount: 500, product_data: { name: 'x' } }, quantity: 1 }] }),
    );
    expect(jpy.payment_method_types).toEqual(['card']);
  });

  it('allowed and excluded payment method types filter what the session offers; nothing left is a 400', async () => {
    const debitOnly = await t.stripe.checkout.sessions.create(checkoutParams({ allowed_payment_method_types: ['sepa_debit', 'us_bank_account'] }));
    expect(debitOnly.payment_method_types).toEqual(['us_bank_account']);
    await expect(t.fake.pay(debitOnly.id)).rejects.toThrow(/offers no card payment/);
    const noDebit = await t.stripe.checkout.sessions.create(checkoutParams({ excluded_payment_method_types: ['us_bank_account'] }));
    expect(noDebit.payment_method_types).toEqual(['card']);

    const none = await caught(t.stripe.checkout.sessions.create(checkoutParams({ allowed_payment_method_types: ['paypal'] })));
    expect(none).toMatchObject({ statusCode: 400, param: 'allowed_payment_method_types' });
    const both = await caught(
      t.stripe.checkout.sessions.create(checkoutParams({ allowed_payment_method_types: ['card'], excluded_payment_method_types: ['us_bank_account'] })),
    );
    expect(both).toMatchObject({ statusCode: 400, param: 'excluded_payment_method_types' });
    const old = { apiVersion: '2026-08-26.dahlia' };
    const paypal = await caught(t.stripe.rawRequest('POST', '/v1/checkout/sessions', { ...checkoutParams(), payment_method_types: ['paypal'] }, old));
    expect(paypal).toMatchObject({ statusCode: 400, param: 'payment_method_types[0]' });
    const sepa = await caught(t.stripe.rawRequest('POST', '/v1/checkout/sessions', { ...checkoutParams(), payment_method_types: ['card', 'sepa_debit'] }, old));
    expect(sepa).toMatchObject({ statusCode: 400, param: 'payment_method_types' });
    const unknownData = await caught(t.stripe.rawRequest('POST', '/v1/checkout/sessions', { ...checkoutParams(), payment_intent_data: { colour: 'blue' } }));
    expect(unknownData).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'payment_intent_data[colour]' });
    expect(t.fake.listSessions().map((s) => s.id)).toEqual([debitOnly.id, noDebit.id]);
  });
});

import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { caught, checkoutParams, typesOf, useFakeStripe, verifiedEvents } from './test-kit.js';

describe('fake Stripe: refunds', () => {
  const t = useFakeStripe();

  /** A session paid by card; its PaymentIntent and Charge ids. */
  const paidSession = async (params: Partial<Stripe.Checkout.SessionCreateParams> = {}) => {
    const session = await t.stripe.checkout.sessions.create(checkoutParams(params));
    await t.fake.pay(session.id);
    const paymentIntent = t.fake.getSession(session.id)!.payment_intent as string;
    const charge = t.fake.getPaymentIntent(paymentIntent)!.latest_charge as string;
    return { sessionId: session.id, paymentIntent, charge };
  };

  it('refunds a payment in full: a succeeded Refund, the Charge refunded, charge.refunded and refund.created delivered signed', async () => {
    const { paymentIntent, charge } = await paidSession();
    const hook = await t.receiver();
    const before = Math.floor(Date.now() / 1000);

    const refund = await t.stripe.refunds.create(
      { payment_intent: paymentIntent, reason: 'requested_by_customer', metadata: { ticket: 'T-1' } },
      { idempotencyKey: 'refund-order-42' },
    );
    expect(refund).toMatchObject({
      object: 'refund',
      amount: 1299,
      currency: 'usd',
      charge,
      payment_intent: paymentIntent,
      status: 'succeeded',
      reason: 'requested_by_customer',
      metadata: { ticket: 'T-1' },
    });
    expect(refund.id).toMatch(/^re_/);
    expect(refund.created).toBeGreaterThanOrEqual(before);
    expect(await t.stripe.refunds.retrieve(refund.id)).toEqual(refund);

    const updated = await t.stripe.charges.retrieve(charge, { expand: ['refunds'] });
    expect(updated).toMatchObject({ amount_refunded: 1299, refunded: true, refunds: { object: 'list', has_more: false } });
    expect(updated.refunds!.data.map((r) => r.id)).toEqual([refund.id]);

    await t.fake.waitForDeliveries();
    const delivered = verifiedEvents(hook);
    expect(typesOf(delivered)).toEqual(['charge.refunded', 'refund.created']);
    const [chargeRefunded, refundCreated] = delivered as [Stripe.ChargeRefundedEvent, Stripe.RefundCreatedEvent];
    expect(chargeRefunded.data.object).toMatchObject({ object: 'charge', id: charge, amount_refunded: 1299, refunded: true, payment_intent: paymentIntent });
    expect(chargeRefunded.data.previous_attributes).toEqual({ amount_refunded: 0, refunded: false });
    expect(chargeRefunded.request).toEqual({ id: refund.lastResponse.requestId, idempotency_key: 'refund-order-42' });
    expect(refundCreated.data.object).toEqual(refund);
    expect(t.fake.listRefunds()).toEqual([refund]);
  });

  it('partial refunds add up; the same Idempotency-Key answers the same refund and refunds nothing more', async () => {
    const { paymentIntent, charge } = await paidSession();
    const first = await t.stripe.refunds.create({ payment_intent: paymentIntent, amount: 500 }, { idempotencyKey: 'partial-1' });
    const again = await t.stripe.refunds.create({ payment_intent: paymentIntent, amount: 500 }, { idempotencyKey: 'partial-1' });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(t.fake.listRefunds()).toHaveLength(1);
    expect(t.fake.getCharge(charge)).toMatchObject({ amount_refunded: 500, refunded: false });
    expect(typesOf(t.fake.events.filter((e) => e.type !== 'checkout.session.completed'))).toEqual(['charge.refunded', 'refund.created']);

    const rest = await t.stripe.refunds.create({ charge }, { idempotencyKey: 'partial-2' });
    expect(rest.amount).toBe(799);
    expect(t.fake.getCharge(charge)).toMatchObject({ amount_refunded: 1299, refunded: true });
    const latest = t.fake.events.at(-2) as Stripe.ChargeRefundedEvent;
    expect(latest.data.previous_attributes).toEqual({ amount_refunded: 500, refunded: false });

    const listed = await t.stripe.refunds.list({ payment_intent: paymentIntent });
    expect(listed.data.map((r) => r.id)).toEqual([rest.id, first.id]);
  });

  it('refusing more than remains: 400 amount_too_large, nothing refunded', async () => {
    const { paymentIntent, charge } = await paidSession();
    await t.stripe.refunds.create({ payment_intent: paymentIntent, amount: 1000 });
    const error = await caught(t.stripe.refunds.create({ payment_intent: paymentIntent, amount: 300 }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      code: 'amount_too_large',
      param: 'amount',
      message: 'Refund amount ($3.00) is greater than unrefunded amount on charge ($2.99)',
    });
    expect(t.fake.getCharge(charge)).toMatchObject({ amount_refunded: 1000, refunded: false });
    expect(t.fake.listRefunds()).toHaveLength(1);
  });

  it('refusing a second full refund: 400 charge_already_refunded, no new refund or event', async () => {
    const { paymentIntent, charge } = await paidSession();
    await t.stripe.refunds.create({ payment_intent: paymentIntent });
    const eventsBefore = t.fake.events.length;
    const error = await caught(t.stripe.refunds.create({ payment_intent: paymentIntent }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, code: 'charge_already_refunded', message: `Charge ${charge} has already been refunded.` });
    expect(t.fake.listRefunds()).toHaveLength(1);
    expect(t.fake.events).toHaveLength(eventsBefore);
  });

  it('unknown ids: 404 resource_missing naming the param', async () => {
    const byIntent = await caught(t.stripe.refunds.create({ payment_intent: 'pi_missing' }));
    expect(byIntent).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(byIntent).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'payment_intent', message: "No such payment_intent: 'pi_missing'" });
    const byCharge = await caught(t.stripe.refunds.create({ charge: 'ch_missing' }));
    expect(byCharge).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'charge' });
    expect(t.fake.listRefunds()).toEqual([]);
  });

  it('bad parameters: no target, a zero amount, an unknown reason', async () => {
    expect(await caught(t.stripe.refunds.create({}))).toMatchObject({ statusCode: 400, code: 'parameter_missing' });
    const { paymentIntent } = await paidSession();
    expect(await caught(t.stripe.refunds.create({ payment_intent: paymentIntent, amount: 0 }))).toMatchObject({ statusCode: 400, param: 'amount' });
    expect(await caught(t.stripe.refunds.create({ payment_intent: paymentIntent, reason: 'changed_mind' }))).toMatchObject({
      statusCode: 400,
      param: 'reason',
    });
    expect(t.fake.listRefunds()).toEqual([]);
  });

  it('a payment that has not succeeded cannot be refunded', async () => {
    const session = await t.stripe.checkout.sessions.create(checkoutParams());
    await t.fake.pay(session.id, { async: true });
    const paymentIntent = t.fake.getSession(session.id)!.payment_intent as string;
    const error = await caught(t.stripe.refunds.create({ payment_intent: paymentIntent }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, message: `This PaymentIntent (${paymentIntent}) does not have a successful charge to refund.` });
  });

  it('fake.refund(): a Dashboard refund with the same effects and events, returning charge.refunded', async () => {
    const { paymentIntent, charge } = await paidSession();
    const hook = await t.receiver();
    const event = await t.fake.refund(charge, { amount: 299, reason: 'duplicate' });
    expect(event.type).toBe('charge.refunded');
    expect(event.data.object).toMatchObject({ id: charge, amount_refunded: 299, refunded: false });
    expect(t.fake.listRefunds()).toMatchObject([{ amount: 299, reason: 'duplicate', charge, payment_intent: paymentIntent, status: 'succeeded' }]);
    // Delivered before refund() resolves.
    expect(typesOf(verifiedEvents(hook))).toEqual(['charge.refunded', 'refund.created']);

    await t.fake.refund(paymentIntent);
    expect(t.fake.getCharge(charge)).toMatchObject({ amount_refunded: 1299, refunded: true });
    await expect(t.fake.refund(paymentIntent)).rejects.toMatchObject({ code: 'charge_already_refunded' });
    await expect(t.fake.refund('pi_unknown')).rejects.toMatchObject({ code: 'resource_missing' });
  });
});

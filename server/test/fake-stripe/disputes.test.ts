import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { caught, checkoutParams, typesOf, useFakeStripe, verifiedEvents } from './test-kit.js';

describe('fake Stripe: disputes', () => {
  const t = useFakeStripe();

  const paidIntent = async (): Promise<{ paymentIntent: string; charge: string }> => {
    const session = await t.stripe.checkout.sessions.create(checkoutParams());
    await t.fake.pay(session.id);
    const paymentIntent = t.fake.getSession(session.id)!.payment_intent as string;
    return { paymentIntent, charge: t.fake.getPaymentIntent(paymentIntent)!.latest_charge as string };
  };

  it('openDispute: a needs_response Dispute, the charge disputed, charge.dispute.created delivered signed', async () => {
    const { paymentIntent, charge } = await paidIntent();
    const hook = await t.receiver();
    const created = await t.fake.openDispute(paymentIntent);
    expect(created.type).toBe('charge.dispute.created');
    const dispute = created.data.object;
    expect(dispute).toMatchObject({
      object: 'dispute',
      amount: 1299,
      currency: 'usd',
      charge,
      payment_intent: paymentIntent,
      reason: 'fraudulent',
      status: 'needs_response',
      is_charge_refundable: false,
      livemode: false,
    });
    expect(dispute.id).toMatch(/^dp_/);
    expect(await t.stripe.disputes.retrieve(dispute.id)).toEqual(dispute);
    expect(t.fake.getDispute(dispute.id)).toEqual(dispute);
    expect((await t.stripe.charges.retrieve(charge)).disputed).toBe(true);

    const [delivered] = verifiedEvents(hook) as [Stripe.ChargeDisputeCreatedEvent];
    expect(delivered).toEqual(created);
    expect(delivered.request).toEqual({ id: null, idempotency_key: null });
  });

  it('closeDispute won: status won, charge.dispute.closed with the previous status', async () => {
    const { charge } = await paidIntent();
    const hook = await t.receiver();
    const { data } = await t.fake.openDispute(charge, { reason: 'product_not_received', amount: 1000 });
    const closed = await t.fake.closeDispute(data.object.id, 'won');
    expect(closed.type).toBe('charge.dispute.closed');
    expect(closed.data.object).toMatchObject({ id: data.object.id, status: 'won', reason: 'product_not_received', amount: 1000 });
    expect(closed.data.previous_attributes).toEqual({ status: 'needs_response' });
    expect(closed.data.object.balance_transactions.map((txn) => txn.amount)).toEqual([-1000, 1000]);
    expect(typesOf(verifiedEvents(hook))).toEqual(['charge.dispute.created', 'charge.dispute.closed']);
    await expect(t.fake.closeDispute(data.object.id, 'lost')).rejects.toThrow(/already closed/);
  });

  it('closeDispute lost: status lost, and the charge is not marked refunded (the dispute took the money)', async () => {
    const { paymentIntent, charge } = await paidIntent();
    const { data } = await t.fake.openDispute(paymentIntent);
    const closed = await t.fake.closeDispute(data.object.id, 'lost');
    expect(closed.data.object.status).toBe('lost');
    expect(await t.stripe.charges.retrieve(charge)).toMatchObject({ disputed: true, refunded: false, amount_refunded: 0 });
    expect(t.fake.listRefunds()).toEqual([]);
    expect(typesOf(t.fake.events)).toEqual(['checkout.session.completed', 'charge.dispute.created', 'charge.dispute.closed']);
  });

  it('a charged-back payment cannot be refunded: 400 charge_disputed', async () => {
    const { paymentIntent, charge } = await paidIntent();
    await t.fake.openDispute(paymentIntent);
    const error = await caught(t.stripe.refunds.create({ payment_intent: paymentIntent }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, code: 'charge_disputed', message: `Charge ${charge} has been charged back; cannot issue a refund.` });
    expect(t.fake.getCharge(charge)).toMatchObject({ amount_refunded: 0, refunded: false });
  });

  it('refuses a second dispute, an unknown payment, and an amount over the charge', async () => {
    const { paymentIntent } = await paidIntent();
    await expect(t.fake.openDispute(paymentIntent, { amount: 5000 })).rejects.toThrow(/takes 1 to 1299/);
    await t.fake.openDispute(paymentIntent);
    await expect(t.fake.openDispute(paymentIntent)).rejects.toThrow(/already disputed/);
    await expect(t.fake.openDispute('pi_unknown')).rejects.toThrow(/no payment intent or charge pi_unknown/);
    await expect(t.fake.closeDispute('dp_unknown', 'won')).rejects.toThrow(/no dispute dp_unknown/);
  });
});

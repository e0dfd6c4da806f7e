import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { DAY, HOUR, RENEWAL_EVENTS, START, subscribe } from './billing-kit.js';
import { startFakeStripe } from './fake-stripe.js';
import { SECRET_KEY, typesOf, useFakeStripe, verifiedEvents, WEBHOOK_SECRET } from './test-kit.js';

/** The fields of an event's object, whatever its type (the SDK types only the current shape). */
const objectOf = (event: Stripe.Event) => event.data.object as unknown as Record<string, unknown>;

describe('fake Stripe: a webhook endpoint pinned to an older API version', () => {
  const t = useFakeStripe();

  it('delivers a renewal in the 2024-06-20 shape, signed: invoice.subscription, payment_intent and charge; the period on the subscription', async () => {
    const { clock, subscription } = await subscribe(t);
    const receiver = await t.receiver();
    t.fake.setWebhookApiVersion('2024-06-20');
    await t.fake.advanceClock(clock.id, START + 31 * DAY + 2 * HOUR);
    const events = verifiedEvents(receiver).filter((event) => !event.type.startsWith('test_helpers.'));
    expect(typesOf(events)).toEqual(RENEWAL_EVENTS);
    expect(events.every((event) => event.api_version === '2024-06-20')).toBe(true);

    const paid = objectOf(events.find((event) => event.type === 'invoice.paid')!);
    const [paymentIntent] = t.fake.invoicePaymentIntents(paid.id as string);
    expect(paid).toMatchObject({
      subscription: subscription.id,
      subscription_details: { metadata: { accountId: 'acc_7', planId: 'pro-monthly' } },
      paid: true,
      status: 'paid',
      payment_intent: paymentIntent,
      charge: t.fake.getPaymentIntent(paymentIntent!)!.latest_charge,
    });
    expect(paid).not.toHaveProperty('parent');
    expect(paid).not.toHaveProperty('payments');
    const [line] = (paid.lines as { data: Array<Record<string, unknown>> }).data;
    expect(line).toMatchObject({ type: 'subscription', subscription: subscription.id, subscription_item: subscription.items.data[0]!.id, proration: false });
    expect(line).not.toHaveProperty('parent');

    const updated = events.find((event) => event.type === 'customer.subscription.updated')!;
    const item = t.fake.getSubscription(subscription.id)!.items.data[0]!;
    expect(objectOf(updated)).toMatchObject({ current_period_start: item.current_period_start, current_period_end: item.current_period_end });
    expect((objectOf(updated).items as { data: object[] }).data[0]).not.toHaveProperty('current_period_end');
    // What changed is said in the same shape: the previous period, on the subscription.
    expect(updated.data.previous_attributes).toMatchObject({ current_period_end: item.current_period_start });

    // The fake's own objects stay in the SDK's shape, and so does the API.
    expect(t.fake.getInvoice(paid.id as string)).toHaveProperty('parent.subscription_details.subscription', subscription.id);
    expect(await t.stripe.invoices.retrieve(paid.id as string)).not.toHaveProperty('subscription');
  });

  it('back on the SDK version, and per delivery: the same event in either shape, with the same id', async () => {
    const { clock } = await subscribe(t);
    const receiver = await t.receiver();
    await t.fake.advanceClock(clock.id, START + 31 * DAY + 2 * HOUR);
    const paid = t.fake.events.find((event) => event.type === 'invoice.paid' && event.data.object.billing_reason === 'subscription_cycle')!;
    expect(await t.fake.deliver(paid, { apiVersion: '2025-02-24.acacia' })).toBe(200);
    t.fake.setWebhookApiVersion('2024-06-20');
    t.fake.setWebhookApiVersion(null);
    expect(await t.fake.deliver(paid)).toBe(200);
    const [older, current] = verifiedEvents(receiver).slice(-2);
    expect(older).toMatchObject({ id: paid.id, api_version: '2025-02-24.acacia', data: { object: { subscription: expect.any(String) } } });
    expect(current).toMatchObject({ id: paid.id, api_version: Stripe.API_VERSION, data: { object: { parent: { type: 'subscription_details' } } } });
    expect(objectOf(current!)).not.toHaveProperty('subscription');
  });

  it('a version from 2025-03-31 on keeps the current shape; anything that is not a version is refused', async () => {
    const { clock } = await subscribe(t);
    const receiver = await t.receiver();
    t.fake.setWebhookApiVersion('2025-03-31.basil');
    await t.fake.advanceClock(clock.id, START + 31 * DAY + 2 * HOUR);
    const paid = verifiedEvents(receiver).find((event) => event.type === 'invoice.paid')!;
    expect(paid).toMatchObject({ api_version: '2025-03-31.basil', data: { object: { parent: { type: 'subscription_details' } } } });
    expect(() => t.fake.setWebhookApiVersion('latest')).toThrow(/not an API version/);
    await expect(startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, webhookApiVersion: '2024/06/20' })).rejects.toThrow(
      /not an API version/,
    );
  });
});

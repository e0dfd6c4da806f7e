import { describe, expect, it } from 'vitest';
import { caught, useFakeStripe } from './test-kit.js';

const session = (extra: Record<string, unknown> = {}) => ({
  mode: 'payment' as const,
  line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 1000, product_data: { name: 'VPN' } } }],
  success_url: 'https://shop.example/thank-you',
  ...extra,
});

describe('fake Stripe: coupons and discounted sessions', () => {
  const t = useFakeStripe();

  it('creates and retrieves a coupon; its id is unique; terms are checked as Stripe checks them', async () => {
    const coupon = await t.stripe.coupons.create({ id: 'spring', percent_off: 20, duration: 'repeating', duration_in_months: 3, name: 'SPRING' });
    expect(coupon).toMatchObject({
      id: 'spring',
      object: 'coupon',
      percent_off: 20,
      amount_off: null,
      duration: 'repeating',
      duration_in_months: 3,
      times_redeemed: 0,
      valid: true,
    });
    expect(await t.stripe.coupons.retrieve('spring')).toEqual(coupon);
    expect(await caught(t.stripe.coupons.create({ id: 'spring', percent_off: 10 }))).toMatchObject({ statusCode: 400, code: 'resource_already_exists' });
    expect(await caught(t.stripe.coupons.retrieve('nope'))).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    expect(await caught(t.stripe.coupons.create({ percent_off: 10, amount_off: 100, currency: 'usd' }))).toMatchObject({
      statusCode: 400,
      param: 'percent_off',
    });
    expect(await caught(t.stripe.coupons.create({ amount_off: 100 }))).toMatchObject({ statusCode: 400, param: 'currency' });
    expect(await caught(t.stripe.coupons.create({ percent_off: 10, duration: 'repeating' }))).toMatchObject({ statusCode: 400, param: 'duration_in_months' });
    expect(await caught(t.stripe.coupons.create({ percent_off: 101 }))).toMatchObject({ statusCode: 400, param: 'percent_off' });
  });

  it('a session with a coupon: subtotal, discount and total, and the coupon counted once paid', async () => {
    await t.stripe.coupons.create({ id: 'off3', amount_off: 300, currency: 'usd' });
    const created = await t.stripe.checkout.sessions.create(session({ discounts: [{ coupon: 'off3' }] }));
    expect(created).toMatchObject({
      amount_subtotal: 1000,
      amount_total: 700,
      total_details: { amount_discount: 300 },
      discounts: [{ coupon: 'off3', promotion_code: null }],
    });
    await t.fake.pay(created.id);
    expect(t.fake.getPaymentIntent(t.fake.getSession(created.id)!.payment_intent as string)).toMatchObject({ amount: 700 });
    expect((await t.stripe.coupons.retrieve('off3')).times_redeemed).toBe(1);
  });

  it('refuses an unknown coupon, one in another currency, and discounts with allow_promotion_codes', async () => {
    await t.stripe.coupons.create({ id: 'eur5', amount_off: 500, currency: 'eur' });
    expect(await caught(t.stripe.checkout.sessions.create(session({ discounts: [{ coupon: 'missing' }] })))).toMatchObject({
      statusCode: 404,
      param: 'discounts[0][coupon]',
    });
    expect(await caught(t.stripe.checkout.sessions.create(session({ discounts: [{ coupon: 'eur5' }] })))).toMatchObject({
      statusCode: 400,
      param: 'discounts[0][coupon]',
    });
    await t.stripe.coupons.create({ id: 'pct', percent_off: 10 });
    expect(await caught(t.stripe.checkout.sessions.create(session({ discounts: [{ coupon: 'pct' }], allow_promotion_codes: true })))).toMatchObject({
      statusCode: 400,
      param: 'discounts',
    });
  });
});

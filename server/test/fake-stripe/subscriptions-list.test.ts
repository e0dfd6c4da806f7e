import { describe, expect, it } from 'vitest';
import { subscribe } from './billing-kit.js';
import { caught, SUCCESS_URL, useFakeStripe } from './test-kit.js';

const ids = (list: { data: Array<{ id: string }> }): string[] => list.data.map((object) => object.id);

describe('fake Stripe Billing: listing subscriptions', () => {
  const t = useFakeStripe();

  /** A second paid subscription for the same customer, on the same price. */
  const subscribeAgain = async (customer: string, price: string): Promise<string> => {
    const session = await t.stripe.checkout.sessions.create({ mode: 'subscription', customer, line_items: [{ price, quantity: 1 }], success_url: SUCCESS_URL });
    await t.fake.pay(session.id);
    return t.fake.getSession(session.id)!.subscription as string;
  };

  /** Customer A with an older subscription (then canceled) and a newer one; customer B with one. */
  const accounts = async () => {
    const a = await subscribe(t, { email: 'a@example.com' });
    const newer = await subscribeAgain(a.customer.id, a.price.id);
    await t.stripe.subscriptions.cancel(a.subscription.id);
    const b = await subscribe(t, { email: 'b@example.com' });
    return { customerA: a.customer.id, canceled: a.subscription.id, newer, customerB: b.customer.id, ofB: b.subscription.id, price: a.price.id };
  };

  it('lists a customer’s subscriptions newest first: not canceled by default, every one with status=all', async () => {
    const { customerA, canceled, newer, customerB, ofB } = await accounts();
    const current = await t.stripe.subscriptions.list({ customer: customerA });
    expect(current).toMatchObject({ object: 'list', has_more: false, url: '/v1/subscriptions' });
    expect(ids(current)).toEqual([newer]);
    expect(current.data[0]).toEqual(await t.stripe.subscriptions.retrieve(newer));

    expect(ids(await t.stripe.subscriptions.list({ customer: customerA, status: 'all' }))).toEqual([newer, canceled]);
    expect(ids(await t.stripe.subscriptions.list({ customer: customerA, status: 'canceled' }))).toEqual([canceled]);
    expect(ids(await t.stripe.subscriptions.list({ customer: customerA, status: 'ended' }))).toEqual([canceled]);
    expect(ids(await t.stripe.subscriptions.list({ customer: customerA, status: 'active' }))).toEqual([newer]);
    expect(ids(await t.stripe.subscriptions.list({ customer: customerA, status: 'past_due' }))).toEqual([]);
    expect(ids(await t.stripe.subscriptions.list({ customer: customerB, status: 'all' }))).toEqual([ofB]);
    expect(ids(await t.stripe.subscriptions.list({ status: 'all' }))).toEqual([ofB, newer, canceled]);
  });

  it('pages with limit and starting_after, filters by price, and expands data.customer', async () => {
    const { customerA, canceled, newer, price } = await accounts();
    const first = await t.stripe.subscriptions.list({ customer: customerA, status: 'all', limit: 1 });
    expect(ids(first)).toEqual([newer]);
    expect(first.has_more).toBe(true);
    const second = await t.stripe.subscriptions.list({ customer: customerA, status: 'all', limit: 1, starting_after: newer });
    expect(ids(second)).toEqual([canceled]);
    expect(second.has_more).toBe(false);
    expect(ids(await t.stripe.subscriptions.list({ price, status: 'all' }))).toEqual([newer, canceled]);

    const expanded = await t.stripe.subscriptions.list({ customer: customerA, expand: ['data.customer'] });
    expect(expanded.data[0]!.customer).toMatchObject({ id: customerA, object: 'customer', email: 'a@example.com' });
  });

  it('refuses an unknown status, a limit over 100, unknown parameters and an unknown cursor', async () => {
    const { customerA } = await accounts();
    const badStatus = await caught(t.stripe.subscriptions.list({ customer: customerA, status: 'expired' }));
    expect(badStatus).toMatchObject({ statusCode: 400, param: 'status', message: expect.stringContaining('Invalid status: must be one of active, all,') });
    expect(await caught(t.stripe.subscriptions.list({ limit: 101 }))).toMatchObject({ statusCode: 400, param: 'limit' });
    expect(await caught(t.stripe.subscriptions.list({ customers: customerA } as never))).toMatchObject({ statusCode: 400, code: 'parameter_unknown' });
    expect(await caught(t.stripe.subscriptions.list({ starting_after: 'sub_nope' }))).toMatchObject({ statusCode: 404, param: 'starting_after' });
  });
});

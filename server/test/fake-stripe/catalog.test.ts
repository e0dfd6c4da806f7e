import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { caught, useFakeStripe } from './test-kit.js';

const ids = (list: { data: Array<{ id: string }> }): string[] => list.data.map((object) => object.id);

describe('fake Stripe Billing: listing prices', () => {
  const t = useFakeStripe();

  /** Two products; prices made in this order: monthly (lookup key), yearly (lookup key, archived), other product's. */
  const catalog = async () => {
    const vpn = await t.stripe.products.create({ name: 'VPN Pro' });
    const other = await t.stripe.products.create({ name: 'Dedicated IP' });
    const recurring = (interval: 'month' | 'year', lookupKey?: string) =>
      t.stripe.prices.create({ product: vpn.id, unit_amount: 999, currency: 'usd', recurring: { interval }, ...(lookupKey ? { lookup_key: lookupKey } : {}) });
    const monthly = await recurring('month', 'pro_monthly');
    const yearly = await recurring('year', 'pro_yearly');
    await t.stripe.prices.update(yearly.id, { active: false });
    const ip = await t.stripe.prices.create({ product: other.id, unit_amount: 300, currency: 'eur' });
    return { vpn, other, monthly, yearly, ip };
  };

  it('lists newest first as Stripe’s list object, filtered by lookup_keys, active and product', async () => {
    const { vpn, other, monthly, yearly, ip } = await catalog();
    const all = await t.stripe.prices.list();
    expect(all).toMatchObject({ object: 'list', has_more: false, url: '/v1/prices' });
    expect(ids(all)).toEqual([ip.id, yearly.id, monthly.id]);
    expect(all.data[2]).toEqual(await t.stripe.prices.retrieve(monthly.id));

    expect(ids(await t.stripe.prices.list({ lookup_keys: ['pro_monthly', 'pro_yearly'] }))).toEqual([yearly.id, monthly.id]);
    expect(ids(await t.stripe.prices.list({ lookup_keys: ['pro_monthly', 'pro_yearly'], active: true, limit: 1 }))).toEqual([monthly.id]);
    expect(ids(await t.stripe.prices.list({ active: false }))).toEqual([yearly.id]);
    expect(ids(await t.stripe.prices.list({ product: other.id }))).toEqual([ip.id]);
    expect(ids(await t.stripe.prices.list({ product: vpn.id, type: 'one_time' }))).toEqual([]);
    expect(ids(await t.stripe.prices.list({ lookup_keys: ['nobody_uses_this'] }))).toEqual([]);
  });

  it('pages by limit (default 10, at most 100) with has_more and starting_after', async () => {
    const product = await t.stripe.products.create({ name: 'VPN Pro' });
    const made: string[] = [];
    for (let i = 0; i < 12; i++) made.push((await t.stripe.prices.create({ product: product.id, unit_amount: 100 + i, currency: 'usd' })).id);
    const newest = [...made].reverse();

    const first = await t.stripe.prices.list();
    expect(ids(first)).toEqual(newest.slice(0, 10));
    expect(first.has_more).toBe(true);
    const rest = await t.stripe.prices.list({ starting_after: first.data.at(-1)!.id });
    expect(ids(rest)).toEqual(newest.slice(10));
    expect(rest.has_more).toBe(false);
    expect(ids(await t.stripe.prices.list({ limit: 3, ending_before: newest[5]! }))).toEqual(newest.slice(2, 5));

    expect(await caught(t.stripe.prices.list({ limit: 101 }))).toMatchObject({ statusCode: 400, param: 'limit', type: 'StripeInvalidRequestError' });
    expect(await caught(t.stripe.prices.list({ limit: 0 }))).toMatchObject({ statusCode: 400, param: 'limit' });
  });

  it('expands data.product, and refuses unknown parameters, other expansions and more than 10 lookup keys', async () => {
    const { vpn, monthly } = await catalog();
    const expanded = await t.stripe.prices.list({ lookup_keys: ['pro_monthly'], expand: ['data.product'] });
    expect(expanded.data[0]).toMatchObject({ id: monthly.id, product: { id: vpn.id, object: 'product', name: 'VPN Pro' } });

    const unknown = await caught(t.stripe.prices.list({ lookup_key: 'pro_monthly' } as Stripe.PriceListParams));
    expect(unknown).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(unknown).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'lookup_key', message: 'Received unknown parameter: lookup_key' });
    expect(await caught(t.stripe.prices.list({ expand: ['data.tiers'] }))).toMatchObject({ statusCode: 400, param: 'expand' });
    const eleven = Array.from({ length: 11 }, (_, i) => `key_${i}`);
    expect(await caught(t.stripe.prices.list({ lookup_keys: eleven }))).toMatchObject({ statusCode: 400, param: 'lookup_keys' });
  });
});

describe('fake Stripe Billing: a lookup key names one price', () => {
  const t = useFakeStripe();

  const product = () => t.stripe.products.create({ name: 'VPN Pro' });
  const monthlyPrice = (productId: string, amount: number, extra: Partial<Stripe.PriceCreateParams> = {}) =>
    t.stripe.prices.create({ product: productId, unit_amount: amount, currency: 'usd', recurring: { interval: 'month' }, ...extra });

  it('refuses a second price with a lookup key in use, and creates nothing', async () => {
    const { id } = await product();
    const first = await monthlyPrice(id, 999, { lookup_key: 'pro_monthly' });
    expect(first.lookup_key).toBe('pro_monthly');

    const refused = await caught(monthlyPrice(id, 1299, { lookup_key: 'pro_monthly' }));
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refused).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      rawType: 'invalid_request_error',
      param: 'lookup_key',
      message: `A price (\`${first.id}\`) already uses that lookup key.`,
    });
    expect(ids(await t.stripe.prices.list())).toEqual([first.id]);
    // An archived price keeps its lookup key.
    await t.stripe.prices.update(first.id, { active: false });
    expect(await caught(monthlyPrice(id, 1299, { lookup_key: 'pro_monthly' }))).toMatchObject({ statusCode: 400, param: 'lookup_key' });
  });

  it('transfer_lookup_key moves the key from the old price to the new one', async () => {
    const { id } = await product();
    const old = await monthlyPrice(id, 999, { lookup_key: 'pro_monthly' });
    const replacement = await monthlyPrice(id, 1299, { lookup_key: 'pro_monthly', transfer_lookup_key: true });
    expect(replacement.lookup_key).toBe('pro_monthly');
    expect((await t.stripe.prices.retrieve(old.id)).lookup_key).toBeNull();
    expect(ids(await t.stripe.prices.list({ lookup_keys: ['pro_monthly'] }))).toEqual([replacement.id]);
  });

  it('POST /v1/prices/:id sets, moves (transfer_lookup_key) and removes a lookup key by the same rule', async () => {
    const { id } = await product();
    const holder = await monthlyPrice(id, 999, { lookup_key: 'pro_monthly' });
    const other = await monthlyPrice(id, 1299);

    const refused = await caught(t.stripe.prices.update(other.id, { lookup_key: 'pro_monthly', nickname: 'New price' }));
    expect(refused).toMatchObject({ statusCode: 400, param: 'lookup_key', message: `A price (\`${holder.id}\`) already uses that lookup key.` });
    expect(await t.stripe.prices.retrieve(other.id)).toMatchObject({ lookup_key: null, nickname: null });

    const moved = await t.stripe.prices.update(other.id, { lookup_key: 'pro_monthly', transfer_lookup_key: true });
    expect(moved.lookup_key).toBe('pro_monthly');
    expect((await t.stripe.prices.retrieve(holder.id)).lookup_key).toBeNull();
    expect((await t.stripe.prices.update(other.id, { lookup_key: 'pro_monthly' })).lookup_key).toBe('pro_monthly');

    const removed = await t.stripe.prices.update(other.id, { lookup_key: '' });
    expect(removed.lookup_key).toBeNull();
    expect((await monthlyPrice(id, 1499, { lookup_key: 'pro_monthly' })).lookup_key).toBe('pro_monthly');
  });
});

describe('fake Stripe Billing: updating and creating products', () => {
  const t = useFakeStripe();

  it('updates name, description, active and default_price, and merges metadata as Stripe does', async () => {
    const product = await t.stripe.products.create({ name: 'VPN Pro', description: '5 devices', metadata: { plan: 'pro', tier: 'gold' } });
    const price = await t.stripe.prices.create({ product: product.id, unit_amount: 999, currency: 'usd' });

    const updated = await t.stripe.products.update(product.id, {
      name: 'VPN Pro+',
      description: '10 devices',
      active: false,
      default_price: price.id,
      metadata: { tier: '', region: 'eu' },
    });
    expect(updated).toMatchObject({
      id: product.id,
      object: 'product',
      name: 'VPN Pro+',
      description: '10 devices',
      active: false,
      default_price: price.id,
      metadata: { plan: 'pro', region: 'eu' },
    });
    expect(updated.metadata).not.toHaveProperty('tier');
    expect(updated.updated).toBeGreaterThanOrEqual(product.updated);
    expect(await t.stripe.products.retrieve(product.id)).toEqual(updated);

    const cleared = await t.stripe.products.update(product.id, { description: '', metadata: '' });
    expect(cleared).toMatchObject({ description: null, metadata: {}, name: 'VPN Pro+' });
  });

  it('refuses unknown and unmodelled parameters, a price of another product, an unknown price or product; nothing changes', async () => {
    const product = await t.stripe.products.create({ name: 'VPN Pro' });
    const other = await t.stripe.products.create({ name: 'Dedicated IP' });
    const otherPrice = await t.stripe.prices.create({ product: other.id, unit_amount: 300, currency: 'usd' });

    const unknown = await caught(t.stripe.products.update(product.id, { name: 'X', unit_amount: 5, currency: 'usd' } as Stripe.ProductUpdateParams));
    expect(unknown).toMatchObject({
      statusCode: 400,
      code: 'parameter_unknown',
      param: 'unit_amount',
      message: 'Received unknown parameters: unit_amount, currency',
    });
    const unmodelled = await caught(t.stripe.products.update(product.id, { url: 'https://vpn.example' }));
    expect(unmodelled).toMatchObject({ statusCode: 400, param: 'url', message: expect.stringContaining('does not support') });
    const foreign = await caught(t.stripe.products.update(product.id, { name: 'X', default_price: otherPrice.id }));
    expect(foreign).toMatchObject({ statusCode: 400, param: 'default_price' });
    const missingPrice = await caught(t.stripe.products.update(product.id, { default_price: 'price_nope' }));
    expect(missingPrice).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'default_price' });
    const emptyName = await caught(t.stripe.products.update(product.id, { name: '' }));
    expect(emptyName).toMatchObject({ statusCode: 400, code: 'parameter_invalid_empty', param: 'name' });
    expect(await caught(t.stripe.products.update('prod_nope', { name: 'X' }))).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such product: 'prod_nope'",
    });
    expect(await t.stripe.products.retrieve(product.id)).toEqual(product);
  });

  it('refuses to create a product with an id that exists: 400 resource_already_exists, the product unchanged', async () => {
    const product = await t.stripe.products.create({ id: 'vpn_plan_pro', name: 'VPN Pro' });
    expect(product.id).toBe('vpn_plan_pro');
    const again = await caught(t.stripe.products.create({ id: 'vpn_plan_pro', name: 'Other' }));
    expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(again).toMatchObject({ statusCode: 400, code: 'resource_already_exists', param: 'id', message: 'Product already exists.' });
    expect(await t.stripe.products.retrieve('vpn_plan_pro')).toEqual(product);
  });
});

/** The Billing objects that only the API changes: customers, products, prices and test clocks. */
import type { FormHash } from './form-body.js';
import { newCoupon, type CouponObject } from './coupons.js';
import { newCustomer, parseCustomerCreate, updateCustomer, type CustomerObject } from './customers.js';
import {
  applyPriceUpdate,
  applyProductUpdate,
  newPrice,
  newProduct,
  parsePriceUpdate,
  parseProductUpdate,
  type LookupKeyClaim,
  type PriceObject,
  type ProductObject,
} from './products-prices.js';
import { invalidParam, noSuch } from './stripe-errors.js';
import { nowSeconds } from './stripe-ids.js';
import { newTestClock, type TestClockObject } from './test-clocks.js';

export interface BillingCatalog {
  customer(id: string): CustomerObject | undefined;
  product(id: string): ProductObject | undefined;
  price(id: string): PriceObject | undefined;
  /** Every price, oldest first. */
  prices(): PriceObject[];
  clock(id: string): TestClockObject | undefined;
  /** Every test clock, oldest first. */
  clocks(): TestClockObject[];
  /** `POST /v1/customers`; a customer with `test_clock` lives in that clock's time. */
  createCustomer(params: FormHash): CustomerObject;
  /** `POST /v1/customers/:id`: email, name, description, metadata, preferred_locales. */
  updateCustomer(id: string, params: FormHash): CustomerObject;
  /** `POST /v1/products`; an `id` already taken is 400 resource_already_exists. */
  createProduct(params: FormHash): ProductObject;
  /** `POST /v1/products/:id` (name, description, active, metadata, default_price). */
  updateProduct(id: string, params: FormHash): ProductObject;
  /** `POST /v1/prices`; a lookup key names one price (see `transfer_lookup_key`). */
  createPrice(params: FormHash): PriceObject;
  /** `POST /v1/prices/:id` (active, metadata, nickname, lookup_key; the amount never changes). */
  updatePrice(id: string, params: FormHash): PriceObject;
  createClock(input: { frozenTime: number; name: string | null }): TestClockObject;
  coupon(id: string): CouponObject | undefined;
  /** `POST /v1/coupons`; an `id` already taken is 400 resource_already_exists. */
  createCoupon(params: FormHash): CouponObject;
  /** A session or subscription used it: `times_redeemed` goes up. */
  redeemCoupon(id: string): void;
}

export function createBillingCatalog(): BillingCatalog {
  const customers = new Map<string, CustomerObject>();
  const products = new Map<string, ProductObject>();
  const prices = new Map<string, PriceObject>();
  const clocks = new Map<string, TestClockObject>();
  const coupons = new Map<string, CouponObject>();

  /**
   * The price that holds the lookup key `price` claims gives it up when the claim says `transfer`; otherwise the
   * claim is Stripe's 400. Checks only: `takeLookupKey` moves the key once the whole request is valid.
   */
  const holderOf = (price: PriceObject, claim: LookupKeyClaim): PriceObject | undefined => {
    if (claim.lookupKey === null) return undefined;
    const holder = [...prices.values()].find((other) => other.lookup_key === claim.lookupKey && other.id !== price.id);
    if (holder && !claim.transfer) throw invalidParam('lookup_key', `A price (\`${holder.id}\`) already uses that lookup key.`);
    return holder;
  };
  const takeLookupKey = (price: PriceObject, claim: LookupKeyClaim, holder: PriceObject | undefined): void => {
    if (holder) holder.lookup_key = null;
    price.lookup_key = claim.lookupKey;
  };

  return {
    customer: (id) => customers.get(id),
    product: (id) => products.get(id),
    price: (id) => prices.get(id),
    prices: () => [...prices.values()],
    clock: (id) => clocks.get(id),
    clocks: () => [...clocks.values()],

    createCustomer(params) {
      const input = parseCustomerCreate(params);
      const clock = input.testClock === null ? undefined : clocks.get(input.testClock);
      if (input.testClock !== null && !clock) throw noSuch('test_helpers.test_clock', input.testClock, 'test_clock');
      const customer = newCustomer(input, clock?.frozen_time ?? nowSeconds());
      customers.set(customer.id, customer);
      return customer;
    },
    updateCustomer(id, params) {
      const customer = customers.get(id);
      if (!customer) throw noSuch('customer', id, 'id');
      updateCustomer(customer, params);
      return customer;
    },
    createProduct(params) {
      const product = newProduct(params, nowSeconds());
      if (products.has(product.id)) throw invalidParam('id', 'Product already exists.', 'resource_already_exists');
      products.set(product.id, product);
      return product;
    },
    updateProduct(id, params) {
      const product = products.get(id);
      if (!product) throw noSuch('product', id, 'id');
      const change = parseProductUpdate(params, product);
      if (change.defaultPrice !== undefined) {
        const price = prices.get(change.defaultPrice);
        if (!price) throw invalidParam('default_price', `No such price: '${change.defaultPrice}'`, 'resource_missing');
        if (price.product !== id) {
          throw invalidParam('default_price', `The price \`${price.id}\` belongs to another product; a default price must be one of this product's prices.`);
        }
      }
      applyProductUpdate(product, change, nowSeconds());
      return product;
    },
    createPrice(params) {
      const { price, claim } = newPrice(params, nowSeconds(), (id) => products.has(id));
      takeLookupKey(price, claim, holderOf(price, claim));
      prices.set(price.id, price);
      return price;
    },
    updatePrice(id, params) {
      const price = prices.get(id);
      if (!price) throw noSuch('price', id, 'price');
      const change = parsePriceUpdate(params, price);
      const holder = change.claim && holderOf(price, change.claim);
      applyPriceUpdate(price, change);
      if (change.claim) takeLookupKey(price, change.claim, holder);
      return price;
    },
    coupon: (id) => coupons.get(id),
    createCoupon(params) {
      const coupon = newCoupon(params, nowSeconds());
      if (coupons.has(coupon.id)) throw invalidParam('id', 'Coupon already exists.', 'resource_already_exists');
      coupons.set(coupon.id, coupon);
      return coupon;
    },
    redeemCoupon(id) {
      const coupon = coupons.get(id);
      if (coupon) coupon.times_redeemed += 1;
    },
    createClock(input) {
      const clock = newTestClock(input, nowSeconds());
      clocks.set(clock.id, clock);
      return clock;
    },
  };
}

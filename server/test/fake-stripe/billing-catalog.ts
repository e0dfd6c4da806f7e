/** The Billing objects that only the API changes: customers, products, prices and test clocks. */
import type { FormHash } from './form-body.js';
import { newCustomer, parseCustomerCreate, type CustomerObject } from './customers.js';
import { newPrice, newProduct, updatePrice, type PriceObject, type ProductObject } from './products-prices.js';
import { invalidParam, noSuch } from './stripe-errors.js';
import { nowSeconds } from './stripe-ids.js';
import { newTestClock, type TestClockObject } from './test-clocks.js';

export interface BillingCatalog {
  customer(id: string): CustomerObject | undefined;
  product(id: string): ProductObject | undefined;
  price(id: string): PriceObject | undefined;
  clock(id: string): TestClockObject | undefined;
  /** `POST /v1/customers`; a customer with `test_clock` lives in that clock's time. */
  createCustomer(params: FormHash): CustomerObject;
  createProduct(params: FormHash): ProductObject;
  createPrice(params: FormHash): PriceObject;
  /** `POST /v1/prices/:id` (active, metadata, nickname; the amount never changes). */
  updatePrice(id: string, params: FormHash): PriceObject;
  createClock(input: { frozenTime: number; name: string | null }): TestClockObject;
}

export function createBillingCatalog(): BillingCatalog {
  const customers = new Map<string, CustomerObject>();
  const products = new Map<string, ProductObject>();
  const prices = new Map<string, PriceObject>();
  const clocks = new Map<string, TestClockObject>();
  return {
    customer: (id) => customers.get(id),
    product: (id) => products.get(id),
    price: (id) => prices.get(id),
    clock: (id) => clocks.get(id),

    createCustomer(params) {
      const input = parseCustomerCreate(params);
      const clock = input.testClock === null ? undefined : clocks.get(input.testClock);
      if (input.testClock !== null && !clock) throw noSuch('test_helpers.test_clock', input.testClock, 'test_clock');
      const customer = newCustomer(input, clock?.frozen_time ?? nowSeconds());
      customers.set(customer.id, customer);
      return customer;
    },
    createProduct(params) {
      const product = newProduct(params, nowSeconds());
      if (products.has(product.id)) throw invalidParam('id', 'Product already exists.', 'resource_already_exists');
      products.set(product.id, product);
      return product;
    },
    createPrice(params) {
      const price = newPrice(params, nowSeconds(), (id) => products.has(id));
      prices.set(price.id, price);
      return price;
    },
    updatePrice(id, params) {
      const price = prices.get(id);
      if (!price) throw noSuch('price', id, 'price');
      updatePrice(price, params);
      return price;
    },
    createClock(input) {
      const clock = newTestClock(input, nowSeconds());
      clocks.set(clock.id, clock);
      return clock;
    },
  };
}

import type { Db } from '../../../db/knex.js';
import type { Clock } from '../../../lib/clock.js';
import type { PaymentDriver } from '../../../payments/payment-driver.js';
import type { UserProfile } from '../../users/index.js';

export interface PaymentCustomer {
  customerRef: string;
  testClockRef: string | null;
}

/** payment_customers' key: the provider and its account (`stripe:acct_…`), the same after a key is rolled. */
export const customerKeyOf = (provider: string, accountRef: string) => `${provider}:${accountRef}`;

/** The key of the account a driver's keys belong to (asks the provider once per key). */
export const customerKeyOfDriver = async (driver: PaymentDriver) => customerKeyOf(driver.name, await driver.identifyAccount());

/**
 * One provider customer per user and provider account, created on the first recurring checkout and
 * reused for every later one and for the billing portal. Two first checkouts racing create the same
 * customer (the provider's idempotency key is the user) and the first insert wins.
 */
export function createPaymentCustomers(deps: { db: Db; clock: Clock }) {
  const { db } = deps;

  async function find(userId: string, providerKey: string): Promise<PaymentCustomer | undefined> {
    const row = (await db('payment_customers').select('customer_id', 'test_clock_id').where({ user_id: userId, provider_key: providerKey }).first()) as
      { customer_id: string; test_clock_id: string | null } | undefined;
    return row && { customerRef: row.customer_id, testClockRef: row.test_clock_id ?? null };
  }

  return {
    find,

    /** Whether the user has a customer at any provider. */
    async anyOf(userId: string): Promise<boolean> {
      return Boolean(await db('payment_customers').select('user_id').where({ user_id: userId }).first());
    },

    async ensure(user: UserProfile, driver: PaymentDriver): Promise<PaymentCustomer> {
      const providerKey = await customerKeyOfDriver(driver);
      const known = await find(user.id, providerKey);
      if (known) return known;
      const created = await driver.createCustomer({ userId: user.id, email: user.email, locale: user.locale });
      await db('payment_customers')
        .insert({
          user_id: user.id,
          provider_key: providerKey,
          customer_id: created.customerRef,
          test_clock_id: created.testClockRef,
          created_at: deps.clock(),
        })
        .onConflict(['user_id', 'provider_key'])
        .ignore();
      return (await find(user.id, providerKey))!;
    },
  };
}

export type PaymentCustomers = ReturnType<typeof createPaymentCustomers>;

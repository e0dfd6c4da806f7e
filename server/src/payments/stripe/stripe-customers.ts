import type Stripe from 'stripe';
import type { PaymentDriver } from '../payment-driver.js';
import { calling, stripePreferredLocales } from './stripe-calls.js';

/**
 * Stripe's customers: one per user (with a test clock of its own in test mode when asked), the language of its
 * receipts and invoices, and its balance, which referral credit goes into.
 */
export function customerMethods(stripe: Stripe, useTestClocks: boolean): Pick<PaymentDriver, 'createCustomer' | 'setCustomerLanguage' | 'creditCustomer'> {
  return {
    async createCustomer({ userId, email, locale }) {
      const preferredLocales = stripePreferredLocales(locale); // Stripe's receipts and invoices in their language, where Stripe has it
      let testClock: string | undefined;
      if (useTestClocks) {
        const clock = await calling('Creating a test clock', () =>
          stripe.testHelpers.testClocks.create(
            { frozen_time: Math.floor(Date.now() / 1000), name: `customer ${userId}` },
            { idempotencyKey: `test-clock:${userId}` },
          ),
        );
        testClock = clock.id;
      }
      const params = {
        ...(email ? { email } : {}),
        metadata: { user_id: userId },
        ...(preferredLocales.length ? { preferred_locales: preferredLocales } : {}),
      };
      const customer = await calling('Creating the customer', () =>
        stripe.customers.create({ ...params, ...(testClock ? { test_clock: testClock } : {}) }, { idempotencyKey: `customer:${userId}` }),
      );
      return { customerRef: customer.id, testClockRef: testClock ?? null };
    },

    async setCustomerLanguage(customerRef, locale) {
      const preferredLocales = stripePreferredLocales(locale);
      // A language Stripe does not write in: the list is emptied (Stripe reads an empty value as "remove it"), so its
      // e-mails fall back to the account's default rather than staying in the language the customer left.
      const update = { preferred_locales: preferredLocales.length ? preferredLocales : ('' as unknown as string[]) };
      await calling('Setting the customer language', () => stripe.customers.update(customerRef, update));
    },

    async creditCustomer(customerRef, credit) {
      // A move sent before whose answer was lost (Stripe keeps idempotency keys for a day only): found by our id.
      const recent = await calling('Reading the customer balance', () => stripe.customers.listBalanceTransactions(customerRef, { limit: 100 }));
      const sent = recent.data.find(
        (transaction) => transaction.metadata?.credit_id !== undefined && transaction.metadata.credit_id === credit.metadata.credit_id,
      );
      if (sent) return { ref: sent.id };
      const made = await calling('Crediting the customer balance', () =>
        stripe.customers.createBalanceTransaction(
          customerRef,
          {
            amount: -credit.amount,
            currency: credit.currency,
            description: credit.description,
            metadata: credit.metadata,
          },
          { idempotencyKey: credit.idempotencyKey },
        ),
      );
      return { ref: made.id };
    },
  };
}

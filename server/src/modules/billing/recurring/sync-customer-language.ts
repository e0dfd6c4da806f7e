import { z } from 'zod';
import type { JobsRepo } from '../../../jobs/jobs.repo.js';
import { PermanentJobError, type JobHandler } from '../../../jobs/worker.js';
import type { UsersRepo } from '../../users/index.js';
import { customerKeyOfDriver, type PaymentCustomers } from '../provider-accounts/payment-customers.js';
import type { StripeDriverSource } from '../provider-accounts/stripe-driver-source.js';

export const SYNC_CUSTOMER_LANGUAGE = 'sync_customer_language';

/**
 * After a customer chose another language: their card provider's customer is told, so Stripe's own receipts and
 * invoices follow (retried while Stripe does not answer). Only for those who have a customer there.
 */
export async function enqueueCustomerLanguageSync(deps: { jobs: JobsRepo; customers: PaymentCustomers }, userId: string, now: Date): Promise<void> {
  if (!(await deps.customers.anyOf(userId))) return;
  // No dedupe key: each change is a job, and each sets the language the user has when it runs.
  await deps.jobs.enqueue({ type: SYNC_CUSTOMER_LANGUAGE, payload: { userId }, maxAttempts: 50 }, now);
}

const Payload = z.object({ userId: z.string().min(1) });

/**
 * Sets the customer's language at the card provider in force to the one the user has now (read when it runs, so
 * the last choice wins however the jobs are ordered). A customer made under earlier keys of another Stripe account
 * is left as it is: the store no longer bills through it.
 */
export function createSyncCustomerLanguageHandler(deps: { users: UsersRepo; customers: PaymentCustomers; cards: StripeDriverSource }): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad customer language payload');
    const user = await deps.users.findById(parsed.data.userId);
    if (!user?.locale) return;
    const driver = await deps.cards.current();
    if (!driver) return;
    const customer = await deps.customers.find(user.id, await customerKeyOfDriver(driver));
    if (!customer) return;
    await driver.setCustomerLanguage(customer.customerRef, user.locale);
  };
}

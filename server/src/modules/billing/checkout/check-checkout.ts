import { z } from 'zod';
import type { BillingRepo } from '../billing.repo.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import { CHECKOUT_SESSION_TTL_SECONDS } from './checkout.service.js';
import type { PaymentConfirmation } from './payment-confirmation.js';
import type { Clock } from '../../../lib/clock.js';
import { PermanentJobError, RetryJobLater, type JobHandler } from '../../../jobs/worker.js';

const Payload = z.object({ transactionId: z.string().min(1) });
/** How often an open checkout is asked about again. */
export const FOLLOW_UP_INTERVAL_SECONDS = 900;

/**
 * The payment follow-up: for a checkout still pending (no webhook, customer never came back), asks
 * the provider for the checkout and applies it, until it is paid or closed. This is what cleans up the
 * waiting account of an abandoned checkout, and what saves a payment whose webhook never arrived.
 */
export function createCheckCheckoutHandler(deps: {
  billing: BillingRepo;
  payments: PaymentDrivers;
  confirmation: PaymentConfirmation;
  clock: Clock;
}): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad checkout follow-up payload');
    const transaction = await deps.billing.findTransaction(parsed.data.transactionId);
    if (!transaction || transaction.status !== 'pending') return;
    if (!transaction.providerTransactionId) {
      // The server stopped between creating the checkout and saving its session: nobody got its page.
      const age = (deps.clock().getTime() - transaction.createdAt.getTime()) / 1000;
      if (age > CHECKOUT_SESSION_TTL_SECONDS) await deps.confirmation.markAbandoned(transaction);
      else throw new RetryJobLater('checkout session not saved yet', FOLLOW_UP_INTERVAL_SECONDS);
      return;
    }
    const driver = await deps.payments.forTransaction(transaction);
    if (!driver) throw new RetryJobLater('the payment provider is not configured', FOLLOW_UP_INTERVAL_SECONDS);
    const outcome = await deps.confirmation.apply(await driver.readCheckout(transaction.providerTransactionId));
    if (outcome === 'open') throw new RetryJobLater('the checkout is still open', FOLLOW_UP_INTERVAL_SECONDS);
  };
}

import { z } from 'zod';
import type { Db } from '../../../db/knex.js';
import { PermanentJobError, type JobHandler } from '../../../jobs/worker.js';
import { PaymentProviderError } from '../../../payments/payment-driver.js';
import type { BillingRepo } from '../billing.repo.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import { END_REFUNDED_SUBSCRIPTION, SEND_REFUND_NOTICE } from './payment-reversals.js';
import type { RecurringPayments } from '../recurring/recurring-payments.js';
import { SEND_REFUND, type RefundSender } from './refund-sender.js';
import { createSendRefundNoticeHandler } from './send-refund-notice.js';

const RefundPayload = z.object({ refundId: z.string().min(1) });
const SubscriptionPayload = z.object({ subscriptionId: z.string().min(1) });

/**
 * Sends again a refund whose first attempt did not settle (the provider did not answer, or the process
 * stopped mid-way). It asks the provider for the refund an earlier attempt may have made before making one.
 */
function createSendRefundHandler(deps: { sender: RefundSender }): JobHandler {
  return async (payload) => {
    const parsed = RefundPayload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad refund payload');
    const outcome = await deps.sender.send(parsed.data.refundId);
    if (outcome.kind === 'busy') throw new Error('Another attempt is sending this refund');
    if (outcome.kind === 'unanswered') throw new Error(outcome.message);
  };
}

/**
 * Ends at the provider, at once, a recurring subscription whose payment was refunded in full (it is
 * already canceled here), so it charges nothing more. One the provider has already ended is left as it is.
 */
function createEndRefundedSubscriptionHandler(deps: { db: Db; billing: BillingRepo; payments: PaymentDrivers; recurring: RecurringPayments }): JobHandler {
  return async (payload) => {
    const parsed = SubscriptionPayload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad subscription payload');
    const subscription = await deps.billing.findSubscription(parsed.data.subscriptionId);
    // Gone, or a plan this server renews (nothing at the provider to end).
    if (!subscription || subscription.metadata.renewed_by === 'store') return;
    // Not linked yet (refunded before its checkout completed): linking it comes with the checkout; try again then.
    if (!subscription.providerSubscriptionId) throw new Error(`Subscription ${subscription.id} has no provider subscription yet`);
    const driver = await deps.payments.forSubscription(subscription);
    if (!driver) throw new Error('The payment provider is not configured: the refunded subscription cannot be ended there yet');
    const ref = subscription.providerSubscriptionId;
    let state;
    try {
      state = await driver.cancelNow(ref);
    } catch (err) {
      if (!(err instanceof PaymentProviderError && err.rejected)) throw err;
      // Refused: most likely it has ended already. Read it to be sure.
      state = (await driver.readSubscription(ref)).subscription;
      if (state.status !== 'canceled') throw err;
    }
    await deps.db.transaction((trx) => deps.recurring.applyState(state, trx));
  };
}

/** The refund module's jobs, by type, for the worker. */
export function refundJobHandlers(
  deps: { db: Db; billing: BillingRepo; payments: PaymentDrivers; recurring: RecurringPayments; sender: RefundSender } & Parameters<
    typeof createSendRefundNoticeHandler
  >[0],
): Record<string, JobHandler> {
  return {
    [SEND_REFUND]: createSendRefundHandler(deps),
    [END_REFUNDED_SUBSCRIPTION]: createEndRefundedSubscriptionHandler(deps),
    [SEND_REFUND_NOTICE]: createSendRefundNoticeHandler(deps),
  };
}

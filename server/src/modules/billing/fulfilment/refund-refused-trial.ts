import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import type { SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import { markFulfilled, type FulfilmentDeps } from './fulfilment-deps.js';

/**
 * A paid trial refused when it was paid (checkout/confirm-trial.ts: the person's trial was taken by then): its whole
 * payment goes back, once (refundUndeliverable's ledger key is the payment; a provider that cannot send money back
 * pays it into the wallet). Throws while the provider has not confirmed it, so the job tries again.
 */
export async function refundRefusedTrial(deps: FulfilmentDeps, subscription: SubscriptionRecord, transaction: TransactionRecord): Promise<void> {
  await deps.refundUndeliverable(transaction.id, BILLING_MESSAGES.trialTaken);
  await deps.db.transaction(async (trx) => {
    await markFulfilled(deps, subscription, transaction, trx);
    await deps.accounts.insertLog(
      {
        accountId: null,
        userId: subscription.userId,
        step: 'trial_refunded',
        status: 'success',
        details: { transactionId: transaction.id, subscriptionId: subscription.id, reason: 'trial already taken' },
        now: deps.clock(),
      },
      trx,
    );
  });
}

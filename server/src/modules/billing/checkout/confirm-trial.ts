import type { Db } from '../../../db/knex.js';
import type { CheckoutState } from '../../../payments/payment-driver.js';
import type { SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import { enqueueFulfilment } from '../fulfilment/paid-account-jobs.js';
import type { PaymentConfirmationDeps } from './payment-confirmation-deps.js';

/**
 * A paid trial paid after the person's trial was taken (two orders of it paid, say one by card and one in crypto, or
 * the free trial claimed meanwhile; billing/trials/trial-confirmation.ts decided it under the person's lock). The money
 * is never kept for nothing: no period is recorded and no account made, the order says why (`trial_refused`), and the
 * fulfilment job gives the payment back in full (refundUndeliverable: to the card or provider, into the wallet for a
 * provider that cannot send money back). The refund's e-mail tells the customer; no receipt is sent for it.
 */
export async function confirmRefusedTrial(
  deps: PaymentConfirmationDeps,
  transaction: TransactionRecord,
  subscription: SubscriptionRecord,
  state: CheckoutState,
  trx: Db,
): Promise<boolean> {
  const { billing, accounts, clock } = deps;
  const now = clock();
  const removed = subscription.vpnAccountId !== null && (await accounts.removeIfSuspended(subscription.vpnAccountId, trx));
  await billing.updateSubscription(
    subscription.id,
    { event: 'paid', currentPeriodStart: now, metadata: { ...subscription.metadata, trial_refused: true }, ...(removed ? { vpnAccountId: null } : {}) },
    now,
    trx,
  );
  await enqueueFulfilment(deps.jobs, { transactionId: transaction.id, accountId: null }, now, trx);
  await accounts.insertLog(
    {
      accountId: null,
      userId: subscription.userId,
      step: 'trial_refused',
      status: 'failure',
      details: { transactionId: transaction.id, checkoutId: state.checkoutId, amount: transaction.amount, reason: 'trial already taken' },
      now,
    },
    trx,
  );
  await deps.reversals.applyKept(state.paymentRef, trx);
  return true;
}

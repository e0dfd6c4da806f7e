import type { Db } from '../../../db/knex.js';
import type { CheckoutState } from '../../../payments/payment-driver.js';
import type { ReviewReason, TransactionRecord } from '../billing.repo.js';
import type { PaymentConfirmationDeps } from './payment-confirmation-deps.js';

/** A payment that closed unpaid (failed, expired, cancelled, or held for review with what was paid), and the customer's request to cancel one. */

/**
 * pending → failed (or cancelled, when the customer cancelled; or needs_review, with what was paid): the
 * subscription stays incomplete with the error; a purchase's waiting account is removed.
 */
export async function closeUnpaid(
  deps: PaymentConfirmationDeps,
  transaction: TransactionRecord,
  error: string,
  trx: Db,
  review?: { state: CheckoutState; reason: ReviewReason; amountPaid: number | null },
  cancelled = false,
): Promise<boolean> {
  const { billing, accounts, clock } = deps;
  const now = clock();
  const changed = cancelled
    ? await billing.markTransactionCancelled(transaction.id, error, now, trx)
    : review
      ? await billing.markTransactionNeedsReview(
          transaction.id,
          {
            checkoutId: review.state.checkoutId,
            paymentRef: review.state.paymentRef,
            review: { reason: review.reason, amount_paid: review.amountPaid, currency_paid: review.state.currency },
          },
          now,
          trx,
        )
      : await billing.markTransactionFailed(transaction.id, error, now, trx);
  if (!changed) return false;
  const subscription = (await billing.findSubscription(transaction.subscriptionId, trx))!;
  const removeAccount =
    subscription.metadata.kind === 'purchase' && subscription.vpnAccountId !== null && (await accounts.removeIfSuspended(subscription.vpnAccountId, trx));
  await billing.updateSubscription(
    subscription.id,
    {
      metadata: { ...subscription.metadata, error },
      ...(removeAccount ? { vpnAccountId: null } : {}),
    },
    now,
    trx,
  );
  await accounts.insertLog(
    {
      accountId: null,
      userId: subscription.userId,
      step: review ? 'payment_needs_review' : cancelled ? 'payment_cancelled' : 'payment_failed',
      status: 'failure',
      details: {
        transactionId: transaction.id,
        error,
        removedAccountId: removeAccount ? subscription.vpnAccountId : null,
        ...(review ? { reason: review.reason, amountPaid: review.amountPaid, currencyPaid: review.state.currency, amountOrdered: transaction.amount } : {}),
      },
      now,
    },
    trx,
  );
  if (review) await deps.reversals.applyKept(review.state.paymentRef, trx);
  return true;
}

/** The customer asked to cancel: noted on the pending payment before its checkout is closed at the provider. */
export function recordCancelRequest(deps: PaymentConfirmationDeps, transaction: TransactionRecord): Promise<void> {
  const { billing, clock } = deps;
  return deps.db.transaction(async (trx) => {
    const current = await billing.findTransactionForUpdate(transaction.id, trx);
    if (current?.status !== 'pending' || current.metadata.cancel_requested_at) return;
    await billing.setTransactionMetadata(current.id, { ...current.metadata, cancel_requested_at: clock().toISOString() }, clock(), trx);
  });
}

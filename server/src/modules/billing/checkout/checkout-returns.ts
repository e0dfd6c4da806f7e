import { BILLING_MESSAGES, type CheckoutStatus } from '../../../../../shared/billing.js';
import { AppError, notFound } from '../../../errors.js';
import type { UserProfile } from '../../users/index.js';
import type { SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import { convertedTrial } from '../trials/trial-rules.js';
import type { CheckoutDeps } from './checkout-deps.js';

/** After a checkout started: the return pages' poll, the customer's Cancel, and closing what an account deletion leaves open. */

/**
 * Before an account is deleted: its open renewal checkouts are closed at the provider first, so
 * nobody can pay for an account that is gone. One that was paid meanwhile is applied, and the
 * deletion is refused so the customer decides again; a provider that does not answer refuses it too.
 */
export async function closeOpenRenewals(deps: CheckoutDeps, accountId: string): Promise<void> {
  const pending = await deps.billing.listPendingForAccount(accountId);
  for (const transaction of pending) {
    if (!transaction.providerTransactionId) {
      await deps.confirmation.markAbandoned(transaction);
      continue;
    }
    const driver = await deps.payments.forTransaction(transaction);
    if (!driver) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.openRenewalUnreachable);
    let outcome;
    try {
      outcome = await deps.confirmation.apply(await driver.expireCheckout(transaction.providerTransactionId));
    } catch (err) {
      deps.log.warn({ err, transactionId: transaction.id }, 'payment: could not close an open renewal before deleting its account');
      throw new AppError(503, 'payment_provider_error', BILLING_MESSAGES.openRenewalUnreachable);
    }
    if (outcome === 'paid') throw new AppError(409, 'renewal_paid', BILLING_MESSAGES.renewalJustPaid);
  }
}

/**
 * The customer came back with Cancel: the checkout is closed at the provider and its pending rows go,
 * as when it expires (a purchase's waiting account with them), unless it was paid meanwhile: then the
 * payment is applied. Someone else's order is a 404.
 */
export async function cancelCheckout(deps: CheckoutDeps, user: UserProfile, orderId: string): Promise<{ status: CheckoutStatus['status'] }> {
  const transaction = await deps.billing.findTransaction(orderId);
  if (!transaction || transaction.userId !== user.id) throw notFound('Payment session not found');
  if (transaction.status === 'pending') {
    const driver = await deps.payments.forTransaction(transaction);
    if (transaction.providerTransactionId && driver) {
      const checkoutId = transaction.providerTransactionId;
      await deps.confirmation.recordCancelRequest(transaction);
      let state;
      try {
        state = await driver.expireCheckout(checkoutId);
      } catch {
        // Already closed (a second tab's cancel got there first) or paid: what it is now decides.
        try {
          state = await driver.readCheckout(checkoutId);
        } catch (err) {
          deps.log.warn({ err, transactionId: transaction.id }, 'payment: could not close a cancelled checkout; it expires by itself');
          throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.checkStatusFailedDashboard);
        }
      }
      if (state.outcome === 'expired') await deps.confirmation.markCancelled(transaction);
      else await deps.confirmation.apply(state);
    } else {
      await deps.confirmation.markCancelled(transaction);
    }
  }
  return { status: (await deps.billing.findTransaction(transaction.id))!.status };
}

/**
 * The return pages' poll. While the payment is pending it also asks Stripe, which covers a webhook
 * that is late or was never configured.
 */
export async function getCheckoutStatus(deps: CheckoutDeps, user: UserProfile, sessionId: string): Promise<CheckoutStatus> {
  let transaction = await deps.billing.findTransactionBySessionForUser(sessionId, user.id);
  if (!transaction) throw notFound('Payment session not found');
  if (transaction.status === 'pending') {
    try {
      const driver = await deps.payments.forTransaction(transaction);
      const checkoutId = transaction.providerTransactionId;
      if (driver && checkoutId) await deps.confirmation.apply(await driver.readCheckout(checkoutId));
    } catch (err) {
      deps.log.warn({ err, sessionId }, 'payment: could not ask Stripe about a pending checkout; the webhook or the next poll will tell');
    }
    transaction = (await deps.billing.findTransaction(transaction.id))!;
  }
  const subscription = (await deps.billing.findSubscription(transaction.subscriptionId))!;
  const ready = transaction.status === 'succeeded' && subscription.metadata.fulfilled_at && subscription.vpnAccountId;
  const account = ready ? await deps.accountsService.findAccount(user.id, subscription.vpnAccountId!) : undefined;
  return {
    status: transaction.status,
    subscriptionId: subscription.id,
    renewal: subscription.metadata.kind === 'renewal',
    currency: transaction.currency,
    ...(subscription.metadata.kind === 'top_up' ? { topUp: true as const } : {}),
    ...changeOf(subscription, transaction),
    ...(account ? { account } : {}),
    ...(transaction.status === 'failed' ? { error: transaction.metadata.error ?? BILLING_MESSAGES.paymentFailed } : {}),
    ...(transaction.status === 'cancelled' ? { error: transaction.metadata.error ?? BILLING_MESSAGES.paymentCancelled } : {}),
    ...(transaction.status === 'needs_review'
      ? { error: transaction.metadata.review?.reason === 'partial_payment' ? BILLING_MESSAGES.partialPaymentExpired : BILLING_MESSAGES.paymentNeedsReview }
      : {}),
    ...(transaction.status === 'pending' && transaction.metadata.crypto ? { crypto: transaction.metadata.crypto } : {}),
  };
}

/** What the order did to an existing account besides a renewal: a plan change, an add-on, or the trial made the plan bought. */
function changeOf(subscription: SubscriptionRecord, transaction: TransactionRecord): Pick<CheckoutStatus, 'change'> {
  if (subscription.metadata.kind === 'change') return { change: 'plan' };
  if (subscription.metadata.kind === 'add_on') return { change: 'add_on' };
  return convertedTrial(subscription, transaction) ? { change: 'trial' } : {};
}

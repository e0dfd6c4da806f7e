import { randomUUID } from 'node:crypto';
import { PermanentJobError, RetryJobLater } from '../../../jobs/worker.js';
import { crashPoint } from '../../../lib/crash-points.js';
import { PaymentProviderError, type CheckoutState } from '../../../payments/payment-driver.js';
import type { StoreCharge, SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import { nextChargeAmount } from '../promo-terms.js';
import { chargesOf, renewalKeyOf, STORE_RENEWAL } from './store-renewal-schedule.js';
import type { StoreRenewalsDeps } from './store-renewals-deps.js';

/**
 * The tries of a renewal this server charges: each counted and written with its idempotency key before it is sent,
 * sent (again, after a lost answer, with the same key), read again while the provider processes it, and its answer
 * recorded on it and applied.
 */

/** The period's renewal transaction, if a try was made. */
export const renewalOf = (deps: StoreRenewalsDeps, subscription: SubscriptionRecord, periodEnd: Date): Promise<TransactionRecord | undefined> =>
  deps.billing.findInvoiceTransaction(subscription.id, renewalKeyOf(subscription.id, periodEnd), false, deps.db);

/**
 * Counts try `attempt` and writes it with its key, with the period's renewal transaction the first time (made
 * once, whoever asks first; its amount is the price the plan renews at): null when another runner did first.
 */
export async function startTry(
  deps: StoreRenewalsDeps,
  subscription: SubscriptionRecord,
  periodEnd: Date,
  attempt: number,
): Promise<{ transaction: TransactionRecord; charge: StoreCharge } | null> {
  const { billing, clock } = deps;
  const key = renewalKeyOf(subscription.id, periodEnd);
  return deps.db.transaction(async (trx) => {
    const now = clock();
    await billing.insertInvoiceTransaction(
      {
        id: randomUUID(),
        subscriptionId: subscription.id,
        userId: subscription.userId,
        invoiceId: key,
        amount: nextChargeAmount(subscription, periodEnd),
        currency: subscription.metadata.currency ?? 'usd',
        metadata: { plan_name: subscription.metadata.plan_name, kind: 'renewal', charges: [] },
      },
      now,
      trx,
    );
    const made = (await billing.findInvoiceTransaction(subscription.id, key, false, trx))!;
    if (!(await billing.countChargeAttempt(made.id, attempt - 1, now, trx))) return null;
    const current = (await billing.findTransactionForUpdate(made.id, trx))!;
    const charge: StoreCharge = { attempt, key: `${made.id}:${attempt}`, at: now.toISOString(), sending_until: leaseFrom(now) };
    const metadata = { ...current.metadata, charges: [...chargesOf(current), charge] };
    await billing.setTransactionMetadata(made.id, metadata, now, trx);
    return { transaction: { ...current, metadata }, charge };
  });
}

const leaseFrom = (now: Date): string => new Date(now.getTime() + STORE_RENEWAL.sendLeaseSeconds * 1000).toISOString();

/**
 * Takes over sending try `attempt` again (its answer was lost): only once the runner that sent it can no longer be
 * waiting for the answer, and only one runner at a time (compare and set on the locked row). Null while another may
 * still be sending it; the seconds until it may be taken over.
 */
export async function claimResend(
  deps: StoreRenewalsDeps,
  transaction: TransactionRecord,
  attempt: number,
): Promise<{ charge: StoreCharge } | { waitSeconds: number }> {
  const { billing, clock } = deps;
  return deps.db.transaction(async (trx) => {
    const now = clock();
    const current = (await billing.findTransactionForUpdate(transaction.id, trx))!;
    const charge = chargesOf(current).find((entry) => entry.attempt === attempt)!;
    const leasedUntil = charge.sending_until ? new Date(charge.sending_until).getTime() : 0;
    if (leasedUntil > now.getTime() || charge.payment_id) return { waitSeconds: Math.max(1, Math.ceil((leasedUntil - now.getTime()) / 1000)) };
    const claimed = { ...charge, sending_until: leaseFrom(now) };
    const charges = chargesOf(current).map((entry) => (entry.attempt === attempt ? claimed : entry));
    await billing.setTransactionMetadata(transaction.id, { ...current.metadata, charges }, now, trx);
    return { charge: claimed };
  });
}

/** The provider's answer to a try, recorded on it, then applied (paid, declined, or still open). */
async function recordAnswer(deps: StoreRenewalsDeps, transaction: TransactionRecord, attempt: number, state: CheckoutState): Promise<void> {
  const { billing, clock } = deps;
  await deps.db.transaction(async (trx) => {
    const now = clock();
    const current = (await billing.findTransactionForUpdate(transaction.id, trx))!;
    const charges = chargesOf(current).map((charge) => (charge.attempt === attempt ? { ...charge, payment_id: state.checkoutId } : charge));
    await billing.setTransactionMetadata(transaction.id, { ...current.metadata, charges }, now, trx);
    await deps.apply(state, trx);
  });
}

/** Sends try `charge` of the renewal to the provider (again, after a lost answer: the same key is the same payment). */
export async function sendTry(
  deps: StoreRenewalsDeps,
  subscription: SubscriptionRecord,
  transaction: TransactionRecord,
  charge: StoreCharge,
): Promise<CheckoutState> {
  const driver = await deps.payments.forSubscription(subscription);
  if (!driver?.chargeSavedMethod)
    throw new RetryJobLater('the payment provider that keeps the saved method is not configured', STORE_RENEWAL.pendingRecheckSeconds);
  const method = subscription.savedMethodId ? await deps.savedMethods.findById(subscription.savedMethodId) : undefined;
  const user = await deps.users.findById(subscription.userId);
  if (!method || !user) throw new PermanentJobError(`Subscription ${subscription.id} has no saved method (or customer) to charge`);
  let state: CheckoutState;
  try {
    state = await driver.chargeSavedMethod({
      methodRef: method.methodRef,
      orderId: transaction.id,
      amount: transaction.amount,
      currency: transaction.currency,
      description: `${subscription.metadata.plan_name} (renewal)`,
      customerEmail: user.email,
      idempotencyKey: charge.key,
      metadata: { subscription_id: subscription.id, kind: 'renewal', attempt: String(charge.attempt) },
    });
  } catch (err) {
    // Refused outright (a 4xx: the saved method is gone or cannot be charged): as a decline, no payment made.
    // Anything else (no answer, a 5xx) is retried by the job with the same key.
    if (!(err instanceof PaymentProviderError) || !err.rejected) throw err;
    state = {
      checkoutId: `refused:${charge.key}`,
      orderId: transaction.id,
      outcome: 'failed',
      amountPaid: 0,
      currency: transaction.currency,
      paymentRef: null,
      declineReason: err.code ?? 'refused',
    };
  }
  await crashPoint('store-renewal:after-charge');
  await recordAnswer(deps, transaction, charge.attempt, state);
  return state;
}

/** A try the provider was still processing, read again. */
export async function rereadTry(
  deps: StoreRenewalsDeps,
  subscription: SubscriptionRecord,
  transaction: TransactionRecord,
  charge: StoreCharge,
): Promise<CheckoutState> {
  const driver = await deps.payments.forSubscription(subscription);
  if (!driver) throw new RetryJobLater('the payment provider that keeps the saved method is not configured', STORE_RENEWAL.pendingRecheckSeconds);
  const state = await driver.readCheckout(charge.payment_id!);
  await recordAnswer(deps, transaction, charge.attempt, state);
  return state;
}

import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import type { Db } from '../../../db/knex.js';
import { accountSerialKey, type JobsRepo } from '../../../jobs/jobs.repo.js';
import type { Clock } from '../../../lib/clock.js';
import type { CheckoutOutcome, CheckoutState } from '../../../payments/payment-driver.js';
import { expiryAfterDays } from '../../accounts/account-values.js';
import type { AccountsRepo } from '../../accounts/accounts.repo.js';
import type { BillingRepo, ReviewReason, SubscriptionRecord, TransactionMetadata, TransactionRecord } from '../billing.repo.js';
import type { WalletLedger } from '../../wallet/wallet-ledger.js';
import type { SavedMethodsRepo } from '../recurring/saved-methods.repo.js';
import type { StoreRenewalOutcomes } from '../recurring/store-renewal-outcomes.js';
import type { BillingNotices } from '../billing-notices.js';
import { cryptoOverpayment, cryptoPaidOnClosedInvoice, isLatePaymentSeen, isMarkedInvalid } from './btcpay-checkout.js';
import { PROVISION_MAX_ATTEMPTS, PROVISION_PAID_ACCOUNT } from '../fulfilment/paid-account-jobs.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import type { PaymentReversals } from '../refunds/payment-reversals.js';
import type { RecurringPayments } from '../recurring/recurring-payments.js';

export { PROVISION_MAX_ATTEMPTS, PROVISION_PAID_ACCOUNT } from '../fulfilment/paid-account-jobs.js';

const later = (...dates: Array<Date | null | undefined>) =>
  new Date(Math.max(...dates.filter((date): date is Date => date instanceof Date).map((date) => date.getTime())));

/**
 * Applies what a payment provider says about a checkout to our records, exactly once: the webhook,
 * the return pages' check and the follow-up job all come here, in any order and as often as they
 * like. Each change runs in the caller's database transaction and is gated by a conditional update of
 * the transaction's status.
 */
export function createPaymentConfirmation(deps: {
  db: Db; billing: BillingRepo; periods: PaidPeriodsRepo; accounts: AccountsRepo; jobs: JobsRepo; recurring: RecurringPayments; reversals: PaymentReversals; notices: BillingNotices;
  /** Where a paid top-up goes. */
  wallet: Pick<WalletLedger, 'creditTopUp'>;
  /** Plans this server renews: the method their first payment saved, and what each renewal try came to. */
  savedMethods: SavedMethodsRepo;
  storeOutcomes: StoreRenewalOutcomes;
  clock: Clock; log: FastifyBaseLogger;
}) {
  const { billing, accounts, clock, log } = deps;

  async function findTransaction(state: CheckoutState, trx: Db): Promise<TransactionRecord | undefined> {
    const transaction = state.orderId ? await billing.findTransaction(state.orderId, trx) : await billing.findTransactionBySession(state.checkoutId, trx);
    if (!transaction) return undefined;
    // A checkout that is not the one this transaction was paid through (metadata copied elsewhere): ignore.
    if (transaction.providerTransactionId && transaction.providerTransactionId !== state.checkoutId) return undefined;
    return transaction;
  }

  /**
   * pending → succeeded: the period it bought goes into the ledger, the subscription becomes active for
   * it (its dates shown as the ledger has them) and the account is provisioned by a job.
   * `fromReview`: a crypto invoice closed part-paid (needs_review) that was paid in full and confirmed after all.
   */
  async function confirmPaid(
    transaction: TransactionRecord, state: CheckoutState, trx: Db, extra: { fromReview?: boolean; overpaid?: TransactionMetadata['overpaid'] } = {},
  ): Promise<boolean> {
    const now = clock();
    if (!(await billing.markTransactionSucceeded(transaction.id, { checkoutId: state.checkoutId, paymentRef: state.paymentRef, cardFingerprint: state.cardFingerprint ?? null, ...extra }, now, trx))) return false;
    const subscription = (await billing.findSubscription(transaction.subscriptionId, trx))!;
    if (subscription.metadata.kind === 'top_up') return confirmTopUp(transaction, subscription, state, trx);
    const { metadata, vpnAccountId: accountId } = subscription;
    // Payments that buy time on one account queue here, so each reads the ledger as the one before left it.
    if (accountId) await billing.lockAccount(accountId, trx);
    let start = now;
    // A renewal by hand (its order's kind), or a renewal this server charged on a plan it renews (the payment's kind).
    if ((transaction.metadata.kind ?? metadata.kind) === 'renewal' && accountId) {
      // A renewal starts where what is paid ends: it never overlaps an earlier period, one-off or recurring.
      // An account with nothing in the ledger (made by an admin) keeps the time it was given.
      const paidEnd = await deps.periods.latestEnd(accountId, trx);
      start = later(now, paidEnd ?? (await accounts.findById(accountId, trx))?.expireDate);
    }
    // A renewal of a plan renewed here buys the plan's days (the first period alone had a referral's extra days).
    const renewalHere = metadata.renewed_by === 'store' && transaction.metadata.kind === 'renewal';
    const end = expiryAfterDays(start, renewalHere ? metadata.days - (metadata.bonus_days ?? 0) : metadata.days);
    const recorded = await deps.periods.insert({
      id: randomUUID(), vpnAccountId: accountId, transactionId: transaction.id, subscriptionId: subscription.id, billing: subscription.billing, startsAt: start, endsAt: end,
    }, now, trx);
    // Chained after every period of the account, it cannot overlap one: this would be a broken ledger, so nothing is applied.
    if (recorded.kind === 'overlaps') throw new Error(`The period of transaction ${transaction.id} would overlap the paid period ${recorded.period.id}`);
    const { error: _cleared, past_due_since: _paid, ...rest } = metadata;
    await billing.updateSubscription(subscription.id, { status: 'active', currentPeriodStart: start, currentPeriodEnd: end, metadata: rest }, now, trx);
    if (metadata.renewed_by === 'store' && transaction.metadata.kind !== 'renewal') await keepSavedMethod(subscription, transaction, state, trx);
    await deps.jobs.enqueue({
      type: PROVISION_PAID_ACCOUNT, payload: { transactionId: transaction.id }, serialKey: accountSerialKey(accountId),
      dedupeKey: `${PROVISION_PAID_ACCOUNT}:${transaction.id}`, maxAttempts: PROVISION_MAX_ATTEMPTS,
    }, now, trx);
    await deps.notices.notify({ kind: 'receipt', transactionId: transaction.id }, transaction.id, trx);
    await accounts.insertLog({
      accountId: subscription.vpnAccountId, userId: subscription.userId, step: 'payment_succeeded', status: 'success',
      details: { transactionId: transaction.id, checkoutId: state.checkoutId, amount: transaction.amount, kind: metadata.kind }, now,
    }, trx);
    // A refund or dispute that overtook this confirmation takes back what was just confirmed, in the same transaction.
    await deps.reversals.applyKept(state.paymentRef, trx);
    return true;
  }

  /**
   * The first payment of a plan this server renews: the payment method it saved is kept and renews the plan. A
   * method the customer did not let be saved (an SBP payment, say) cannot be charged again: the plan runs its
   * period, with auto-renew off, and the customer is told on their dashboard.
   */
  async function keepSavedMethod(subscription: SubscriptionRecord, transaction: TransactionRecord, state: CheckoutState, trx: Db): Promise<void> {
    const now = clock();
    if (!state.savedMethod) {
      await billing.updateSubscription(subscription.id, { cancelAtPeriodEnd: true, metadata: { ...(await billing.findSubscription(subscription.id, trx))!.metadata, error: BILLING_MESSAGES.methodNotSaved } }, now, trx);
      log.info({ transactionId: transaction.id }, 'recurring: the first payment saved no payment method; the plan will not renew by itself');
      return;
    }
    const method = await deps.savedMethods.keep({
      userId: subscription.userId, provider: subscription.providerName ?? 'yookassa', providerAccountId: transaction.providerAccountId ?? subscription.providerAccountId,
      methodRef: state.savedMethod.ref, title: state.savedMethod.title,
    }, now, trx);
    await billing.updateSubscription(subscription.id, { savedMethodId: method.id }, now, trx);
  }

  /**
   * A renewal this server charged on a plan it renews: paid, it is delivered as any payment is (the period follows
   * the one paid); declined, the customer is told and it is tried again (store-renewal-outcomes.ts).
   */
  async function applyStoreRenewal(transaction: TransactionRecord, state: CheckoutState, trx: Db): Promise<CheckoutOutcome> {
    const subscription = (await billing.findSubscription(transaction.subscriptionId, trx))!;
    if (state.outcome === 'paid') {
      await deps.storeOutcomes.markPaid(transaction, state, trx);
      await applyPaid(transaction, state, trx);
    } else if (state.outcome === 'failed' || state.outcome === 'expired') {
      await deps.storeOutcomes.applyDecline(transaction, subscription, state, trx);
    } else {
      await deps.storeOutcomes.markPending(transaction, state, trx);
    }
    return state.outcome;
  }

  /** A top-up paid (its status just changed, in `trx`): the money goes into the customer's wallet, once, and a receipt is sent. */
  async function confirmTopUp(transaction: TransactionRecord, subscription: SubscriptionRecord, state: CheckoutState, trx: Db): Promise<boolean> {
    const now = clock();
    await deps.wallet.creditTopUp(transaction, now, trx);
    await billing.updateSubscription(subscription.id, { status: 'active', currentPeriodStart: now }, now, trx);
    await deps.notices.notify({ kind: 'receipt', transactionId: transaction.id }, transaction.id, trx);
    await accounts.insertLog({
      accountId: null, userId: subscription.userId, step: 'wallet_topped_up', status: 'success',
      details: { transactionId: transaction.id, checkoutId: state.checkoutId, amount: transaction.amount, currency: transaction.currency }, now,
    }, trx);
    await deps.reversals.applyKept(state.paymentRef, trx);
    return true;
  }

  /**
   * pending → failed (or cancelled, when the customer cancelled; or needs_review, with what was paid): the
   * subscription stays incomplete with the error; a purchase's waiting account is removed.
   */
  async function closeUnpaid(
    transaction: TransactionRecord, error: string, trx: Db, review?: { state: CheckoutState; reason: ReviewReason; amountPaid: number | null }, cancelled = false,
  ): Promise<boolean> {
    const now = clock();
    const changed = cancelled ? await billing.markTransactionCancelled(transaction.id, error, now, trx) : review
      ? await billing.markTransactionNeedsReview(transaction.id, {
        checkoutId: review.state.checkoutId, paymentRef: review.state.paymentRef,
        review: { reason: review.reason, amount_paid: review.amountPaid, currency_paid: review.state.currency },
      }, now, trx)
      : await billing.markTransactionFailed(transaction.id, error, now, trx);
    if (!changed) return false;
    const subscription = (await billing.findSubscription(transaction.subscriptionId, trx))!;
    const removeAccount = subscription.metadata.kind === 'purchase' && subscription.vpnAccountId !== null
      && (await accounts.removeIfSuspended(subscription.vpnAccountId, trx));
    await billing.updateSubscription(subscription.id, {
      metadata: { ...subscription.metadata, error },
      ...(removeAccount ? { vpnAccountId: null } : {}),
    }, now, trx);
    await accounts.insertLog({
      accountId: null, userId: subscription.userId, step: review ? 'payment_needs_review' : cancelled ? 'payment_cancelled' : 'payment_failed', status: 'failure',
      details: {
        transactionId: transaction.id, error, removedAccountId: removeAccount ? subscription.vpnAccountId : null,
        ...(review ? { reason: review.reason, amountPaid: review.amountPaid, currencyPaid: review.state.currency, amountOrdered: transaction.amount } : {}),
      }, now,
    }, trx);
    if (review) await deps.reversals.applyKept(review.state.paymentRef, trx);
    return true;
  }

  /**
   * A subscription checkout: the provider's subscription is linked to ours, and its first paid invoice
   * (carried by a read of the checkout, or its own event) provisions the account. Unpaid ends as a purchase does.
   */
  async function applyRecurringCheckout(transaction: TransactionRecord, state: CheckoutState, trx: Db): Promise<CheckoutOutcome> {
    if (state.subscriptionRef) await deps.recurring.find({ subscriptionRef: state.subscriptionRef, orderRef: transaction.subscriptionId }, trx);
    if (state.outcome === 'paid' && state.invoice) await deps.recurring.applyInvoice(state.invoice, trx);
    if (state.outcome === 'failed' || state.outcome === 'expired') {
      const error = state.outcome === 'failed' ? BILLING_MESSAGES.paymentFailed : BILLING_MESSAGES.paymentExpired;
      if (await closeUnpaid(transaction, error, trx)) log.info({ transactionId: transaction.id, checkoutId: state.checkoutId, outcome: state.outcome }, 'subscription checkout did not complete');
    }
    return state.outcome;
  }

  /** A one-off checkout paid: delivered once, unless it paid another amount or currency than ordered. */
  async function applyPaid(transaction: TransactionRecord, state: CheckoutState, trx: Db): Promise<void> {
    if (state.amountPaid !== transaction.amount || state.currency !== transaction.currency) {
      const review = { state, reason: 'amount_mismatch' as const, amountPaid: state.amountPaid };
      if (await closeUnpaid(transaction, BILLING_MESSAGES.paymentNeedsReview, trx, review)) {
        log.error({ checkoutId: state.checkoutId, transactionId: transaction.id, amountPaid: state.amountPaid, currency: state.currency }, 'payment: paid amount differs from the order; needs review');
      }
      return;
    }
    // An invoice closed part-paid whose rest came late and confirmed (or that the operator marked settled): paid after all.
    const fromReview = transaction.status === 'needs_review' && transaction.metadata.review?.reason === 'partial_payment';
    const overpaid = cryptoOverpayment(state) ?? undefined;
    if (await confirmPaid(transaction, state, trx, { fromReview, overpaid })) {
      log.info({ transactionId: transaction.id, checkoutId: state.checkoutId, ...(overpaid ? { amountOver: overpaid.amount_over } : {}) }, 'payment succeeded');
    }
  }

  /**
   * A one-off checkout that closed unpaid (expired, failed). A crypto invoice with money on it (part paid,
   * then expired or marked invalid) is not failed: it needs review, and the customer is told that what
   * they sent will be refunded. A delivered crypto invoice the operator marked invalid is taken back.
   */
  async function applyClosed(transaction: TransactionRecord, state: CheckoutState, trx: Db): Promise<void> {
    if (transaction.status === 'succeeded' && isMarkedInvalid(state) && transaction.providerPaymentId) {
      // As a lost dispute: the period it bought comes off the account, and it no longer counts as revenue.
      await deps.reversals.applyDisputeClosed({ kind: 'dispute_closed', paymentRef: transaction.providerPaymentId, disputeId: `marked_invalid:${state.checkoutId}`, outcome: 'lost' }, trx);
      log.warn({ transactionId: transaction.id, checkoutId: state.checkoutId }, 'payment: the delivered crypto invoice was marked invalid in BTCPay; account taken back');
      return;
    }
    const cancelled = state.outcome === 'expired' && (transaction.metadata.cancel_requested_at !== undefined || state.expiredUnpaid === true);
    const error = cancelled ? BILLING_MESSAGES.paymentCancelled : state.outcome === 'failed' ? BILLING_MESSAGES.paymentFailed : BILLING_MESSAGES.paymentExpired;
    const paidInPart = cryptoPaidOnClosedInvoice(state);
    if (paidInPart === null) {
      if (await closeUnpaid(transaction, error, trx, undefined, cancelled)) log.info({ transactionId: transaction.id, checkoutId: state.checkoutId, outcome: state.outcome }, 'payment did not complete');
      return;
    }
    const review = { state, reason: 'partial_payment' as const, amountPaid: paidInPart };
    if (await closeUnpaid(transaction, BILLING_MESSAGES.partialPaymentExpired, trx, review)) {
      await deps.notices.notify({ kind: 'partial_payment', transactionId: transaction.id }, transaction.id, trx);
      log.error({ transactionId: transaction.id, checkoutId: state.checkoutId, amountPaid: paidInPart, amountOrdered: transaction.amount }, 'payment: crypto invoice closed part-paid; needs review and a refund');
    }
  }

  /** Applies a checkout's state inside `trx`; returns its outcome, or null for a checkout that is not ours. */
  async function applyCheckout(state: CheckoutState, trx: Db): Promise<CheckoutOutcome | null> {
    const transaction = await findTransaction(state, trx);
    if (!transaction) {
      log.warn({ checkoutId: state.checkoutId }, 'payment: a checkout with no transaction of ours; ignored');
      return null;
    }
    const subscription = (await billing.findSubscription(transaction.subscriptionId, trx))!;
    const renewedHere = subscription.metadata.renewed_by === 'store';
    if (subscription.billing === 'recurring' && !renewedHere) return applyRecurringCheckout(transaction, state, trx);
    if (renewedHere && transaction.metadata.kind === 'renewal') return applyStoreRenewal(transaction, state, trx);
    if (state.outcome === 'paid') await applyPaid(transaction, state, trx);
    else if (state.outcome === 'failed' || state.outcome === 'expired') await applyClosed(transaction, state, trx);
    else if (state.crypto) {
      // Still open: a crypto payment seen and waiting for confirmations, or a partial one. The return page
      // says so; a late payment seen on an invoice we had closed as expired reopens it while it confirms.
      await billing.recordCryptoProgress(transaction.id, state.crypto, clock(), trx, { reopen: isLatePaymentSeen(state) });
    }
    return state.outcome;
  }

  return {
    applyCheckout,

    /** The same in a transaction of its own (the return check and the follow-up job). */
    apply: (state: CheckoutState) => deps.db.transaction((trx) => applyCheckout(state, trx)),

    /** A checkout whose session was never saved (the server stopped mid-way): nobody can have paid it. */
    markAbandoned: (transaction: TransactionRecord) => deps.db.transaction((trx) => closeUnpaid(transaction, BILLING_MESSAGES.paymentExpired, trx)),
    /** The customer asked to cancel: noted on the pending payment before its checkout is closed at the provider. */
    recordCancelRequest: (transaction: TransactionRecord) => deps.db.transaction(async (trx) => {
      const current = await billing.findTransactionForUpdate(transaction.id, trx);
      if (current?.status !== 'pending' || current.metadata.cancel_requested_at) return;
      await billing.setTransactionMetadata(current.id, { ...current.metadata, cancel_requested_at: clock().toISOString() }, clock(), trx);
    }),
    /** The customer left the provider's page with Cancel: closed like an expired one, saying so. */
    markCancelled: (transaction: TransactionRecord) => deps.db.transaction((trx) => closeUnpaid(transaction, BILLING_MESSAGES.paymentCancelled, trx, undefined, true)),
  };
}

export type PaymentConfirmation = ReturnType<typeof createPaymentConfirmation>;

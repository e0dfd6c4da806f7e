import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import type { Db } from '../../../db/knex.js';
import type { CheckoutOutcome, CheckoutState } from '../../../payments/payment-driver.js';
import type { TransactionRecord } from '../billing.repo.js';
import { cryptoOverpayment, cryptoPaidOnClosedInvoice, isLatePaymentSeen, isMarkedInvalid } from './btcpay-checkout.js';
import { closeUnpaid } from './close-unpaid.js';
import { confirmPaid } from './confirm-paid.js';
import type { PaymentConfirmationDeps } from './payment-confirmation-deps.js';

/**
 * What a provider says about a checkout, applied to the transaction it belongs to: a one-off payment paid or
 * closed, a subscription checkout, a renewal this server charged, or a crypto payment still confirming.
 */

async function findTransaction(deps: PaymentConfirmationDeps, state: CheckoutState, trx: Db): Promise<TransactionRecord | undefined> {
  const { billing } = deps;
  const transaction = state.orderId ? await billing.findTransaction(state.orderId, trx) : await billing.findTransactionBySession(state.checkoutId, trx);
  if (!transaction) return undefined;
  // A checkout that is not the one this transaction was paid through (metadata copied elsewhere): ignore.
  if (transaction.providerTransactionId && transaction.providerTransactionId !== state.checkoutId) return undefined;
  return transaction;
}

/**
 * A renewal this server charged on a plan it renews: paid, it is delivered as any payment is (the period follows
 * the one paid); declined, the customer is told and it is tried again (store-renewal-outcomes.ts).
 */
async function applyStoreRenewal(deps: PaymentConfirmationDeps, transaction: TransactionRecord, state: CheckoutState, trx: Db): Promise<CheckoutOutcome> {
  const subscription = (await deps.billing.findSubscription(transaction.subscriptionId, trx))!;
  if (state.outcome === 'paid') {
    await deps.storeOutcomes.markPaid(transaction, state, trx);
    await applyPaid(deps, transaction, state, trx);
  } else if (state.outcome === 'failed' || state.outcome === 'expired') {
    await deps.storeOutcomes.applyDecline(transaction, subscription, state, trx);
  } else {
    await deps.storeOutcomes.markPending(transaction, state, trx);
  }
  return state.outcome;
}

/**
 * A subscription checkout: the provider's subscription is linked to ours, and its first paid invoice
 * (carried by a read of the checkout, or its own event) provisions the account. Unpaid ends as a purchase does.
 */
async function applyRecurringCheckout(deps: PaymentConfirmationDeps, transaction: TransactionRecord, state: CheckoutState, trx: Db): Promise<CheckoutOutcome> {
  if (state.subscriptionRef) await deps.recurring.find({ subscriptionRef: state.subscriptionRef, orderRef: transaction.subscriptionId }, trx);
  if (state.outcome === 'paid' && state.invoice) await deps.recurring.applyInvoice(state.invoice, trx);
  if (state.outcome === 'failed' || state.outcome === 'expired') {
    const error = state.outcome === 'failed' ? BILLING_MESSAGES.paymentFailed : BILLING_MESSAGES.paymentExpired;
    if (await closeUnpaid(deps, transaction, error, trx))
      deps.log.info({ transactionId: transaction.id, checkoutId: state.checkoutId, outcome: state.outcome }, 'subscription checkout did not complete');
  }
  return state.outcome;
}

/** A one-off checkout paid: delivered once, unless it paid another amount or currency than ordered. */
async function applyPaid(deps: PaymentConfirmationDeps, transaction: TransactionRecord, state: CheckoutState, trx: Db): Promise<void> {
  const { log } = deps;
  if (state.amountPaid !== transaction.amount || state.currency !== transaction.currency) {
    const review = { state, reason: 'amount_mismatch' as const, amountPaid: state.amountPaid };
    if (await closeUnpaid(deps, transaction, BILLING_MESSAGES.paymentNeedsReview, trx, review)) {
      log.error(
        { checkoutId: state.checkoutId, transactionId: transaction.id, amountPaid: state.amountPaid, currency: state.currency },
        'payment: paid amount differs from the order; needs review',
      );
    }
    return;
  }
  // An invoice closed part-paid whose rest came late and confirmed (or that the operator marked settled): paid after all.
  const fromReview = transaction.status === 'needs_review' && transaction.metadata.review?.reason === 'partial_payment';
  const overpaid = cryptoOverpayment(state) ?? undefined;
  if (await confirmPaid(deps, transaction, state, trx, { fromReview, overpaid })) {
    log.info({ transactionId: transaction.id, checkoutId: state.checkoutId, ...(overpaid ? { amountOver: overpaid.amount_over } : {}) }, 'payment succeeded');
  }
}

/**
 * A one-off checkout that closed unpaid (expired, failed). A crypto invoice with money on it (part paid,
 * then expired or marked invalid) is not failed: it needs review, and the customer is told that what
 * they sent will be refunded. A delivered crypto invoice the operator marked invalid is taken back.
 */
async function applyClosed(deps: PaymentConfirmationDeps, transaction: TransactionRecord, state: CheckoutState, trx: Db): Promise<void> {
  const { log } = deps;
  if (transaction.status === 'succeeded' && isMarkedInvalid(state) && transaction.providerPaymentId) {
    // As a lost dispute: the period it bought comes off the account, and it no longer counts as revenue.
    await deps.reversals.applyDisputeClosed(
      { kind: 'dispute_closed', paymentRef: transaction.providerPaymentId, disputeId: `marked_invalid:${state.checkoutId}`, outcome: 'lost' },
      trx,
    );
    log.warn(
      { transactionId: transaction.id, checkoutId: state.checkoutId },
      'payment: the delivered crypto invoice was marked invalid in BTCPay; account taken back',
    );
    return;
  }
  const cancelled = state.outcome === 'expired' && (transaction.metadata.cancel_requested_at !== undefined || state.expiredUnpaid === true);
  const error = cancelled ? BILLING_MESSAGES.paymentCancelled : state.outcome === 'failed' ? BILLING_MESSAGES.paymentFailed : BILLING_MESSAGES.paymentExpired;
  const paidInPart = cryptoPaidOnClosedInvoice(state);
  if (paidInPart === null) {
    if (await closeUnpaid(deps, transaction, error, trx, undefined, cancelled))
      log.info({ transactionId: transaction.id, checkoutId: state.checkoutId, outcome: state.outcome }, 'payment did not complete');
    return;
  }
  const review = { state, reason: 'partial_payment' as const, amountPaid: paidInPart };
  if (await closeUnpaid(deps, transaction, BILLING_MESSAGES.partialPaymentExpired, trx, review)) {
    await deps.notices.notify({ kind: 'partial_payment', transactionId: transaction.id }, transaction.id, trx);
    log.error(
      { transactionId: transaction.id, checkoutId: state.checkoutId, amountPaid: paidInPart, amountOrdered: transaction.amount },
      'payment: crypto invoice closed part-paid; needs review and a refund',
    );
  }
}

/** Applies a checkout's state inside `trx`; returns its outcome, or null for a checkout that is not ours. */
export async function applyCheckout(deps: PaymentConfirmationDeps, state: CheckoutState, trx: Db): Promise<CheckoutOutcome | null> {
  const { billing, clock, log } = deps;
  const transaction = await findTransaction(deps, state, trx);
  if (!transaction) {
    log.warn({ checkoutId: state.checkoutId }, 'payment: a checkout with no transaction of ours; ignored');
    return null;
  }
  const subscription = (await billing.findSubscription(transaction.subscriptionId, trx))!;
  const renewedHere = subscription.metadata.renewed_by === 'store';
  if (subscription.billing === 'recurring' && !renewedHere) return applyRecurringCheckout(deps, transaction, state, trx);
  if (renewedHere && transaction.metadata.kind === 'renewal') return applyStoreRenewal(deps, transaction, state, trx);
  if (state.outcome === 'paid') await applyPaid(deps, transaction, state, trx);
  else if (state.outcome === 'failed' || state.outcome === 'expired') await applyClosed(deps, transaction, state, trx);
  else if (state.crypto) {
    // Still open: a crypto payment seen and waiting for confirmations, or a partial one. The return page
    // says so; a late payment seen on an invoice we had closed as expired reopens it while it confirms.
    await billing.recordCryptoProgress(transaction.id, state.crypto, clock(), trx, { reopen: isLatePaymentSeen(state) });
  }
  return state.outcome;
}

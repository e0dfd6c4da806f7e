import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { BILLING_MESSAGES, type SubscriptionStatus } from '../../../../../shared/billing.js';
import type { Db } from '../../../db/knex.js';
import { accountSerialKey, type JobsRepo } from '../../../jobs/jobs.repo.js';
import type { Clock } from '../../../lib/clock.js';
import type { InvoiceState, RecurringState } from '../../../payments/payment-driver.js';
import type { AccountsRepo } from '../../accounts/accounts.repo.js';
import type { BillingRepo, SubscriptionRecord, TransactionMetadata, TransactionRecord } from '../billing.repo.js';
import type { BillingNotices } from '../billing-notices.js';
import { PROVISION_MAX_ATTEMPTS, PROVISION_PAID_ACCOUNT } from '../fulfilment/paid-account-jobs.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import { SYNC_PAID_PERIOD } from '../ledger/sync-paid-period.js';
import type { PaymentReversals } from '../refunds/payment-reversals.js';
import { sourcesOf } from '../ledger/transaction-states.js';
import { enqueueDeferRenewal } from './defer-renewal.js';
import { DAY_MS } from '../../../../../shared/constants.js';

const later = (a: Date | null, b: Date) => (a && a > b ? a : b);

/** It will be charged again: the grace period applies to its account (see paid-period.ts). */
const renews = (sub: { status: SubscriptionStatus; cancelAtPeriodEnd: boolean }) =>
  (sub.status === 'active' || sub.status === 'past_due') && !sub.cancelAtPeriodEnd;

/**
 * Applies what the provider says about recurring subscriptions: invoices (the first provisions the
 * account, each later one extends the same account) and the subscription's own state. Everything
 * runs in the caller's database transaction, on the subscription's row lock (PostgreSQL), and is
 * gated per invoice by its unique transaction and a conditional status change, so the webhook, the
 * return check and the reconcile job can deliver the same facts in any order, as often as they like.
 */
export function createRecurringPayments(deps: {
  billing: BillingRepo; periods: PaidPeriodsRepo; accounts: AccountsRepo; jobs: JobsRepo; reversals: Pick<PaymentReversals, 'applyKept'>; notices: BillingNotices; clock: Clock; log: FastifyBaseLogger;
}) {
  const { billing, accounts, notices, clock, log } = deps;

  /** Puts the account's panel user in step (expiry with or without grace, enabled or paused), after the transaction. */
  async function syncAccount(subscription: SubscriptionRecord, reason: string, trx: Db): Promise<void> {
    if (!subscription.vpnAccountId || !subscription.metadata.fulfilled_at) return;
    await deps.jobs.enqueue({
      type: SYNC_PAID_PERIOD, payload: { accountId: subscription.vpnAccountId }, serialKey: accountSerialKey(subscription.vpnAccountId),
      dedupeKey: `${SYNC_PAID_PERIOD}:${subscription.vpnAccountId}:${reason}`, maxAttempts: 200,
    }, clock(), trx);
  }

  /** A renewal the subscription's promo code discounted: the code and what it took off, as its receipt says. */
  const renewalPromo = (subscription: SubscriptionRecord, invoice: InvoiceState): Pick<TransactionMetadata, 'promo'> => {
    const promo = subscription.metadata.promo;
    const discount = invoice.amountDiscount ?? 0;
    return promo && discount > 0 ? { promo: { code: promo.code, amount_before: invoice.amountDue + discount, discount } } : {};
  };

  async function find(ref: { subscriptionRef: string; orderRef: string | null }, trx: Db): Promise<SubscriptionRecord | undefined> {
    const subscription = await billing.findRecurring({ providerSubscriptionId: ref.subscriptionRef, orderRef: ref.orderRef }, trx);
    if (!subscription) {
      log.warn({ subscriptionRef: ref.subscriptionRef, orderRef: ref.orderRef }, 'recurring: a provider subscription with no subscription of ours; ignored');
      return undefined;
    }
    if (!subscription.providerSubscriptionId) {
      await billing.updateSubscription(subscription.id, { providerSubscriptionId: ref.subscriptionRef }, clock(), trx);
      subscription.providerSubscriptionId = ref.subscriptionRef;
    }
    return subscription;
  }

  /** The invoice's transaction: the checkout's for the first invoice, a new one (once per invoice) for a renewal. */
  async function transactionOf(subscription: SubscriptionRecord, invoice: InvoiceState, trx: Db): Promise<TransactionRecord | undefined> {
    const existing = await billing.findInvoiceTransaction(subscription.id, invoice.invoiceId, invoice.first, trx);
    if (existing || invoice.first) return existing;
    await billing.insertInvoiceTransaction({
      id: randomUUID(), subscriptionId: subscription.id, userId: subscription.userId, invoiceId: invoice.invoiceId,
      amount: invoice.amountDue, currency: invoice.currency,
      metadata: { plan_name: subscription.metadata.plan_name, kind: 'renewal', ...renewalPromo(subscription, invoice), ...(invoice.creditApplied ? { credit_applied: invoice.creditApplied } : {}) },
    }, clock(), trx);
    return billing.findInvoiceTransaction(subscription.id, invoice.invoiceId, false, trx);
  }

  async function applyPaid(subscription: SubscriptionRecord, transaction: TransactionRecord, invoice: InvoiceState, trx: Db): Promise<boolean> {
    const now = clock();
    if (invoice.paymentRef && transaction.status === 'succeeded' && !transaction.providerPaymentId) {
      await billing.setPaymentRef(transaction.id, invoice.paymentRef, now, trx);
      await deps.reversals.applyKept(invoice.paymentRef, trx);
    }
    // The first payment must be what was ordered; a renewal is whatever the subscription's price charges.
    // Credit the customer had with the provider (referral credit) paid part of it: the order is what card and credit paid together.
    if (invoice.first && (invoice.amountPaid + (invoice.creditApplied ?? 0) !== transaction.amount || invoice.currency !== transaction.currency)) {
      const review = { reason: 'amount_mismatch' as const, amount_paid: invoice.amountPaid, currency_paid: invoice.currency };
      if (await billing.markTransactionNeedsReview(transaction.id, { checkoutId: transaction.providerTransactionId ?? invoice.invoiceId, paymentRef: invoice.paymentRef, review }, now, trx)) {
        log.error({ transactionId: transaction.id, invoiceId: invoice.invoiceId, amountPaid: invoice.amountPaid }, 'recurring: first invoice differs from the order; needs review');
        await deps.reversals.applyKept(invoice.paymentRef, trx);
      }
      return false;
    }
    // The transaction's row, then the account's (the order every payment and reversal takes them in): the
    // ledger read below stays true until this commits.
    const locked = await billing.findTransactionForUpdate(transaction.id, trx);
    if (!locked || !sourcesOf('paid').includes(locked.status)) return false;
    if (subscription.vpnAccountId) await billing.lockAccount(subscription.vpnAccountId, trx);
    // A referral's extra days lengthen the first period: the provider's next charge moves after them (defer-renewal.ts).
    const bonusMs = invoice.first ? (subscription.metadata.bonus_days ?? 0) * DAY_MS : 0;
    const endsAt = new Date(invoice.periodEnd.getTime() + bonusMs);
    const period = { vpnAccountId: subscription.vpnAccountId, billing: 'recurring' as const, startsAt: invoice.periodStart, endsAt };
    const overlap = await deps.periods.overlapping(period, trx);
    if (overlap) return holdPaidTwice(subscription, transaction, invoice, overlap.transactionId, trx);
    const credit = invoice.first && invoice.creditApplied ? { amount: invoice.amountPaid, creditApplied: invoice.creditApplied } : {};
    if (!(await billing.markInvoicePaid(transaction.id, { invoiceId: invoice.invoiceId, paymentRef: invoice.paymentRef, ...credit }, now, trx))) return false;
    await deps.periods.insert({ id: randomUUID(), transactionId: transaction.id, subscriptionId: subscription.id, ...period }, now, trx);
    const newest = !subscription.currentPeriodEnd || endsAt >= subscription.currentPeriodEnd;
    const { error: _cleared, past_due_since: _paid, ...metadata } = subscription.metadata;
    await billing.updateSubscription(subscription.id, {
      status: subscription.status === 'canceled' ? 'canceled' : 'active',
      currentPeriodEnd: later(subscription.currentPeriodEnd, endsAt),
      ...(newest ? { currentPeriodStart: invoice.periodStart } : {}),
      metadata,
    }, now, trx);
    if (bonusMs > 0) await enqueueDeferRenewal(deps.jobs, subscription.id, endsAt, now, trx);
    await deps.jobs.enqueue({
      type: PROVISION_PAID_ACCOUNT, payload: { transactionId: transaction.id }, serialKey: accountSerialKey(subscription.vpnAccountId),
      dedupeKey: `${PROVISION_PAID_ACCOUNT}:${transaction.id}`, maxAttempts: PROVISION_MAX_ATTEMPTS,
    }, now, trx);
    await notices.notify({ kind: 'receipt', transactionId: transaction.id }, transaction.id, trx);
    await accounts.insertLog({
      accountId: subscription.vpnAccountId, userId: subscription.userId, step: invoice.first ? 'payment_succeeded' : 'renewal_paid', status: 'success',
      details: { transactionId: transaction.id, invoiceId: invoice.invoiceId, amount: invoice.amountPaid, periodEnd: invoice.periodEnd.toISOString() }, now,
    }, trx);
    log.info({ transactionId: transaction.id, invoiceId: invoice.invoiceId, first: invoice.first }, 'recurring payment succeeded');
    await deps.reversals.applyKept(invoice.paymentRef, trx);
    return true;
  }

  /**
   * An invoice for days a one-off payment of the account already paid: auto-renew was off, the customer
   * renewed by hand (that period starts where the subscription's ends), and auto-renew was turned back on
   * somewhere we could not refuse it (the provider's portal or dashboard; our Resume refuses it). Applying
   * it would count the same days twice, and moving it after the one-off period would leave the account's
   * paid end out of step with the provider's charges and its grace period. So it is held for review like a
   * payment that is not what was ordered: nothing is delivered, the admin sees it (Payments, System tab)
   * and refunds it, and the account keeps exactly the one-off period it paid for.
   */
  async function holdPaidTwice(subscription: SubscriptionRecord, transaction: TransactionRecord, invoice: InvoiceState, paidBy: string, trx: Db): Promise<boolean> {
    const now = clock();
    const review = { reason: 'period_already_paid' as const, amount_paid: invoice.amountPaid, currency_paid: invoice.currency };
    if (!(await billing.markTransactionNeedsReview(transaction.id, { checkoutId: transaction.providerTransactionId ?? invoice.invoiceId, paymentRef: invoice.paymentRef, review }, now, trx))) return false;
    await accounts.insertLog({
      accountId: subscription.vpnAccountId, userId: subscription.userId, step: 'renewal_held', status: 'failure',
      details: { transactionId: transaction.id, invoiceId: invoice.invoiceId, amount: invoice.amountPaid, paidByTransactionId: paidBy }, now,
    }, trx);
    log.error({ transactionId: transaction.id, invoiceId: invoice.invoiceId, paidBy }, 'recurring: an invoice for days a one-off payment already paid; held for review and a refund');
    await deps.reversals.applyKept(invoice.paymentRef, trx);
    return false;
  }

  /** A renewal charge failed: past_due, the customer is told, and the account is paused after the grace period unless it is paid. */
  async function applyFailed(subscription: SubscriptionRecord, transaction: TransactionRecord, invoice: InvoiceState, trx: Db): Promise<boolean> {
    const now = clock();
    if (!(await billing.markTransactionFailed(transaction.id, BILLING_MESSAGES.renewalFailed, now, trx))) return false;
    await billing.updateSubscription(subscription.id, {
      ...(subscription.status === 'active' ? { status: 'past_due' as const } : {}),
      metadata: { ...subscription.metadata, past_due_since: subscription.metadata.past_due_since ?? now.toISOString() },
    }, now, trx);
    await syncAccount({ ...subscription, status: 'past_due' }, `dunning:${invoice.invoiceId}`, trx);
    await notices.notify({ kind: 'payment_failed', transactionId: transaction.id, nextAttemptAt: invoice.nextAttemptAt?.toISOString() ?? null }, invoice.invoiceId, trx);
    await accounts.insertLog({
      accountId: subscription.vpnAccountId, userId: subscription.userId, step: 'renewal_failed', status: 'failure',
      details: { transactionId: transaction.id, invoiceId: invoice.invoiceId, amount: invoice.amountDue }, now,
    }, trx);
    log.warn({ transactionId: transaction.id, invoiceId: invoice.invoiceId }, 'recurring: renewal charge failed; past_due');
    return true;
  }

  /** Applies an invoice's state inside `trx`; true when it changed something. */
  async function applyInvoice(invoice: InvoiceState, trx: Db): Promise<boolean> {
    if (invoice.outcome !== 'paid' && invoice.outcome !== 'failed') return false;
    // Made for a change that charges nothing (the trial that moves the next charge after a referral's days): no payment, no period.
    if (invoice.forChange && invoice.amountDue === 0) return false;
    const subscription = await find(invoice, trx);
    if (!subscription) return false;
    // The first invoice's failures are the checkout page's business: the customer is still on it.
    if (invoice.outcome === 'failed' && invoice.first) return false;
    const transaction = await transactionOf(subscription, invoice, trx);
    if (!transaction) {
      log.warn({ subscriptionId: subscription.id, invoiceId: invoice.invoiceId }, 'recurring: first invoice without its checkout transaction; ignored');
      return false;
    }
    return invoice.outcome === 'paid' ? applyPaid(subscription, transaction, invoice, trx) : applyFailed(subscription, transaction, invoice, trx);
  }

  /**
   * Mirrors the provider's status, cancel_at_period_end and canceled_at. An older state never
   * overwrites a newer one; `canceled` is final; only a paid invoice makes an incomplete subscription active.
   */
  async function applyState(state: RecurringState, trx: Db, options: { byAdmin?: boolean } = {}): Promise<SubscriptionRecord | undefined> {
    const subscription = await find(state, trx);
    if (!subscription) return undefined;
    return applyStateTo(subscription, state, trx, options);
  }

  /** The same for a subscription already found (and locked): a plan this server renews changes here, with no provider to ask. */
  async function applyStateTo(subscription: SubscriptionRecord, state: Pick<RecurringState, 'status' | 'cancelAtPeriodEnd' | 'canceledAt' | 'observedAt'>, trx: Db, options: { byAdmin?: boolean } = {}): Promise<SubscriptionRecord> {
    const seen = subscription.metadata.provider_observed_at;
    // The end is final whenever it is heard of; anything else older than what was applied is stale.
    if (subscription.status === 'canceled' || (state.status !== 'canceled' && seen && state.observedAt < new Date(seen))) return subscription;
    const now = clock();
    let status: SubscriptionStatus = subscription.status;
    if (state.status === 'canceled') status = 'canceled';
    else if (status !== 'incomplete' && state.status !== 'incomplete') status = state.status;
    const next = { ...subscription, status, cancelAtPeriodEnd: state.cancelAtPeriodEnd, canceledAt: state.canceledAt };
    await billing.updateSubscription(subscription.id, {
      status, cancelAtPeriodEnd: state.cancelAtPeriodEnd, canceledAt: state.canceledAt,
      metadata: { ...subscription.metadata, provider_observed_at: state.observedAt.toISOString() },
    }, now, trx);
    if (renews(subscription) !== renews(next)) await syncAccount(next, `renewing:${subscription.id}:${state.observedAt.getTime()}`, trx);
    const wasEnding = subscription.cancelAtPeriodEnd;
    const ending = next.cancelAtPeriodEnd || next.status === 'canceled';
    if (!wasEnding && ending && subscription.metadata.fulfilled_at) {
      await notices.notify({ kind: 'subscription_canceled', subscriptionId: subscription.id, byAdmin: options.byAdmin ?? false }, `${subscription.id}:${state.observedAt.getTime()}`, trx);
      await accounts.insertLog({
        accountId: subscription.vpnAccountId, userId: subscription.userId, step: 'subscription_canceled', status: 'success',
        details: { subscriptionId: subscription.id, atPeriodEnd: next.status !== 'canceled', byAdmin: options.byAdmin ?? false }, now,
      }, trx);
    }
    // Turned back on (Resume, or at the provider's billing page): the customer is told, as when it was turned off.
    if (wasEnding && !ending && subscription.metadata.fulfilled_at) {
      await notices.notify({ kind: 'subscription_resumed', subscriptionId: subscription.id }, `${subscription.id}:${state.observedAt.getTime()}`, trx);
    }
    return { ...next, metadata: { ...subscription.metadata, provider_observed_at: state.observedAt.toISOString() } };
  }

  return { applyInvoice, applyState, applyStateTo, find };
}

export type RecurringPayments = ReturnType<typeof createRecurringPayments>;

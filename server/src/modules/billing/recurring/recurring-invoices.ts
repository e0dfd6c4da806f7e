import { randomUUID } from 'node:crypto';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { DAY_MS } from '../../../../../shared/constants.js';
import type { Db } from '../../../db/knex.js';
import type { InvoiceState } from '../../../payments/payment-driver.js';
import type { SubscriptionRecord, TransactionMetadata, TransactionRecord } from '../billing.repo.js';
import { enqueueFulfilment } from '../fulfilment/paid-account-jobs.js';
import { sourcesOf } from '../../orders/index.js';
import { applyPlanChangeInvoice, planChangeOf } from './card-plan-change-invoices.js';
import { enqueueDeferRenewal } from './defer-renewal.js';
import { findRecurring, syncAccount, type RecurringPaymentsDeps } from './recurring-payments-deps.js';
import { convertTrial } from '../trials/trial-confirmation.js';

/**
 * A recurring subscription's invoices, as the provider reports them: the first provisions the account, each later
 * one extends the same account, and a failed renewal charge makes the subscription past due.
 */

const later = (a: Date | null, b: Date) => (a && a > b ? a : b);

/** A renewal the subscription's promo code discounted: the code and what it took off, as its receipt says. */
const renewalPromo = (subscription: SubscriptionRecord, invoice: InvoiceState): Pick<TransactionMetadata, 'promo'> => {
  const promo = subscription.metadata.promo;
  const discount = invoice.amountDiscount ?? 0;
  return promo && discount > 0 ? { promo: { code: promo.code, amount_before: invoice.amountDue + discount, discount } } : {};
};

/** The invoice's transaction: the checkout's for the first invoice, a new one (once per invoice) for a renewal. */
async function transactionOf(
  deps: RecurringPaymentsDeps,
  subscription: SubscriptionRecord,
  invoice: InvoiceState,
  trx: Db,
): Promise<TransactionRecord | undefined> {
  const { billing, clock } = deps;
  const existing = await billing.findInvoiceTransaction(subscription.id, invoice.invoiceId, invoice.first, trx);
  if (existing || invoice.first) return existing;
  await billing.insertInvoiceTransaction(
    {
      id: randomUUID(),
      subscriptionId: subscription.id,
      userId: subscription.userId,
      invoiceId: invoice.invoiceId,
      amount: invoice.amountDue,
      currency: invoice.currency,
      metadata: {
        plan_name: subscription.metadata.plan_name,
        kind: 'renewal',
        ...renewalPromo(subscription, invoice),
        ...(invoice.creditApplied ? { credit_applied: invoice.creditApplied } : {}),
      },
    },
    clock(),
    trx,
  );
  return billing.findInvoiceTransaction(subscription.id, invoice.invoiceId, false, trx);
}

async function applyPaid(
  deps: RecurringPaymentsDeps,
  ordered: SubscriptionRecord,
  transaction: TransactionRecord,
  invoice: InvoiceState,
  trx: Db,
): Promise<boolean> {
  const { billing, accounts, notices, clock, log } = deps;
  const now = clock();
  let subscription = ordered;
  if (invoice.paymentRef && transaction.status === 'succeeded' && !transaction.providerPaymentId) {
    await billing.setPaymentRef(transaction.id, invoice.paymentRef, now, trx);
    await deps.reversals.applyKept(invoice.paymentRef, trx);
  }
  // The first payment must be what was ordered; a renewal is whatever the subscription's price charges.
  // Credit the customer had with the provider (referral credit) paid part of it: the order is what card and credit paid together.
  if (invoice.first && (invoice.amountPaid + (invoice.creditApplied ?? 0) !== transaction.amount || invoice.currency !== transaction.currency)) {
    const review = { reason: 'amount_mismatch' as const, amount_paid: invoice.amountPaid, currency_paid: invoice.currency };
    if (
      await billing.markTransactionNeedsReview(
        transaction.id,
        { checkoutId: transaction.providerTransactionId ?? invoice.invoiceId, paymentRef: invoice.paymentRef, review },
        now,
        trx,
      )
    ) {
      log.error(
        { transactionId: transaction.id, invoiceId: invoice.invoiceId, amountPaid: invoice.amountPaid },
        'recurring: first invoice differs from the order; needs review',
      );
      await deps.reversals.applyKept(invoice.paymentRef, trx);
    }
    return false;
  }
  // The transaction's row, then the account's (the order every payment and reversal takes them in): the
  // ledger read below stays true until this commits.
  const locked = await billing.findTransactionForUpdate(transaction.id, trx);
  if (!locked || !sourcesOf('paid').includes(locked.status)) return false;
  // Bought within the trial: the trial's account gets it, its paid time ending where the provider's period starts.
  if (invoice.first && subscription.metadata.converts_trial && !subscription.metadata.converts_trial.converted_at) {
    await convertTrial(deps, subscription, transaction, trx, { cutAt: invoice.periodStart });
    subscription = (await billing.findSubscription(subscription.id, trx))!;
  }
  if (subscription.vpnAccountId) await billing.lockAccount(subscription.vpnAccountId, trx);
  // A referral's extra days lengthen the first period: the provider's next charge moves after them (defer-renewal.ts).
  const bonusMs = invoice.first ? (subscription.metadata.bonus_days ?? 0) * DAY_MS : 0;
  const endsAt = new Date(invoice.periodEnd.getTime() + bonusMs);
  const period = { vpnAccountId: subscription.vpnAccountId, billing: 'recurring' as const, startsAt: invoice.periodStart, endsAt };
  const overlap = await deps.periods.overlapping(period, trx);
  if (overlap) return holdPaidTwice(deps, subscription, transaction, invoice, overlap.transactionId, trx);
  const credit = invoice.first && invoice.creditApplied ? { amount: invoice.amountPaid, creditApplied: invoice.creditApplied } : {};
  if (!(await billing.markInvoicePaid(transaction.id, { invoiceId: invoice.invoiceId, paymentRef: invoice.paymentRef, ...credit }, now, trx))) return false;
  await deps.periods.insert({ id: randomUUID(), transactionId: transaction.id, subscriptionId: subscription.id, ...period }, now, trx);
  const newest = !subscription.currentPeriodEnd || endsAt >= subscription.currentPeriodEnd;
  const { error: _cleared, past_due_since: _paid, ...metadata } = subscription.metadata;
  await billing.updateSubscription(
    subscription.id,
    {
      event: 'paid',
      currentPeriodEnd: later(subscription.currentPeriodEnd, endsAt),
      ...(newest ? { currentPeriodStart: invoice.periodStart } : {}),
      metadata,
    },
    now,
    trx,
  );
  if (bonusMs > 0) await enqueueDeferRenewal(deps.jobs, subscription.id, endsAt, now, trx);
  await enqueueFulfilment(deps.jobs, { transactionId: transaction.id, accountId: subscription.vpnAccountId }, now, trx);
  await notices.notify({ kind: 'receipt', transactionId: transaction.id }, transaction.id, trx);
  await accounts.insertLog(
    {
      accountId: subscription.vpnAccountId,
      userId: subscription.userId,
      step: invoice.first ? 'payment_succeeded' : 'renewal_paid',
      status: 'success',
      details: { transactionId: transaction.id, invoiceId: invoice.invoiceId, amount: invoice.amountPaid, periodEnd: invoice.periodEnd.toISOString() },
      now,
    },
    trx,
  );
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
async function holdPaidTwice(
  deps: RecurringPaymentsDeps,
  subscription: SubscriptionRecord,
  transaction: TransactionRecord,
  invoice: InvoiceState,
  paidBy: string,
  trx: Db,
): Promise<boolean> {
  const { billing, accounts, clock, log } = deps;
  const now = clock();
  const review = { reason: 'period_already_paid' as const, amount_paid: invoice.amountPaid, currency_paid: invoice.currency };
  if (
    !(await billing.markTransactionNeedsReview(
      transaction.id,
      { checkoutId: transaction.providerTransactionId ?? invoice.invoiceId, paymentRef: invoice.paymentRef, review },
      now,
      trx,
    ))
  )
    return false;
  await accounts.insertLog(
    {
      accountId: subscription.vpnAccountId,
      userId: subscription.userId,
      step: 'renewal_held',
      status: 'failure',
      details: { transactionId: transaction.id, invoiceId: invoice.invoiceId, amount: invoice.amountPaid, paidByTransactionId: paidBy },
      now,
    },
    trx,
  );
  log.error(
    { transactionId: transaction.id, invoiceId: invoice.invoiceId, paidBy },
    'recurring: an invoice for days a one-off payment already paid; held for review and a refund',
  );
  await deps.reversals.applyKept(invoice.paymentRef, trx);
  return false;
}

/** A renewal charge failed: past_due, the customer is told, and the account is paused after the grace period unless it is paid. */
async function applyFailed(
  deps: RecurringPaymentsDeps,
  subscription: SubscriptionRecord,
  transaction: TransactionRecord,
  invoice: InvoiceState,
  trx: Db,
): Promise<boolean> {
  const { billing, accounts, notices, clock, log } = deps;
  const now = clock();
  if (!(await billing.markTransactionFailed(transaction.id, BILLING_MESSAGES.renewalFailed, now, trx))) return false;
  await billing.updateSubscription(
    subscription.id,
    {
      event: 'renewal_failed',
      metadata: { ...subscription.metadata, past_due_since: subscription.metadata.past_due_since ?? now.toISOString() },
    },
    now,
    trx,
  );
  await syncAccount(deps, { ...subscription, status: 'past_due' }, `dunning:${invoice.invoiceId}`, trx);
  await notices.notify(
    { kind: 'payment_failed', transactionId: transaction.id, nextAttemptAt: invoice.nextAttemptAt?.toISOString() ?? null },
    invoice.invoiceId,
    trx,
  );
  await accounts.insertLog(
    {
      accountId: subscription.vpnAccountId,
      userId: subscription.userId,
      step: 'renewal_failed',
      status: 'failure',
      details: { transactionId: transaction.id, invoiceId: invoice.invoiceId, amount: invoice.amountDue },
      now,
    },
    trx,
  );
  log.warn({ transactionId: transaction.id, invoiceId: invoice.invoiceId }, 'recurring: renewal charge failed; past_due');
  return true;
}

/** Applies an invoice's state inside `trx`; true when it changed something. */
export async function applyInvoice(deps: RecurringPaymentsDeps, invoice: InvoiceState, trx: Db): Promise<boolean> {
  if (invoice.outcome !== 'paid' && invoice.outcome !== 'failed') return false;
  // A plan change's proration invoice (a downgrade's charges nothing): the change's own movement.
  const change = await planChangeOf(deps, invoice, trx);
  if (change) return applyPlanChangeInvoice(deps, change.subscription, change.transaction, invoice, trx);
  // Made for a change that charges nothing (the trial that moves the next charge after a referral's days): no payment, no period.
  if (invoice.forChange && invoice.amountDue === 0) return false;
  const subscription = await findRecurring(deps, invoice, trx);
  if (!subscription) return false;
  // The first invoice's failures are the checkout page's business: the customer is still on it.
  if (invoice.outcome === 'failed' && invoice.first) return false;
  const transaction = await transactionOf(deps, subscription, invoice, trx);
  if (!transaction) {
    deps.log.warn({ subscriptionId: subscription.id, invoiceId: invoice.invoiceId }, 'recurring: first invoice without its checkout transaction; ignored');
    return false;
  }
  return invoice.outcome === 'paid' ? applyPaid(deps, subscription, transaction, invoice, trx) : applyFailed(deps, subscription, transaction, invoice, trx);
}

import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/knex.js';
import { accountSerialKey, type JobsRepo } from '../../../jobs/jobs.repo.js';
import type { Clock } from '../../../lib/clock.js';
import type { PaymentEvent } from '../../../payments/payment-driver.js';
import type { AccountsRepo } from '../../accounts/accounts.repo.js';
import type { BillingRepo, SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import type { KeptReversal, KeptReversalsRepo } from './kept-reversals.repo.js';
import { PROVISION_MAX_ATTEMPTS, PROVISION_PAID_ACCOUNT } from '../fulfilment/paid-account-jobs.js';
import type { PaidPeriodsRepo, PeriodVoidReason } from '../ledger/paid-periods.repo.js';
import { SYNC_PAID_PERIOD } from '../ledger/sync-paid-period.js';
import type { RefundsRepo } from './refunds.repo.js';
import type { WalletLedger } from '../../wallet/wallet-ledger.js';

/** Tells the customer about a refund (see send-refund-notice.ts). */
export const SEND_REFUND_NOTICE = 'send_refund_notice';
/** Ends at the provider a recurring subscription whose payment was refunded in full (see refund-jobs.ts). */
export const END_REFUNDED_SUBSCRIPTION = 'end_refunded_subscription';
/** Both act on the outside world (a panel, a mail server) and are retried until it answers. */
const FOLLOW_UP_MAX_ATTEMPTS = 200;

type RefundEvent = Extract<PaymentEvent, { kind: 'refunded' }>;
type DisputeEvent = Extract<PaymentEvent, { kind: 'disputed' }>;
type DisputeClosedEvent = Extract<PaymentEvent, { kind: 'dispute_closed' }>;
type RefundFailedEvent = Extract<PaymentEvent, { kind: 'refund_failed' }>;

/**
 * Money going back: refunds (full and partial, from the admin or from the provider's dashboard) and
 * disputes. Each change runs in the caller's transaction, is gated by a conditional update of the
 * transaction's status, and leaves the panel work to a durable job that reads the paid periods again
 * when it runs, so any order of events ends in the same place.
 */
export function createPaymentReversals(deps: {
  billing: BillingRepo; periods: PaidPeriodsRepo; accounts: AccountsRepo; refunds: RefundsRepo; kept: KeptReversalsRepo; jobs: JobsRepo;
  wallet: Pick<WalletLedger, 'takeBackTopUp'>; clock: Clock; log: FastifyBaseLogger;
}) {
  const { billing, accounts, jobs, clock, log } = deps;

  /** No payment of ours has this ref yet: the event is kept and applied when the payment confirms (see applyKept). */
  async function keep(event: KeptReversal, trx: Db): Promise<void> {
    await deps.kept.keep(event, clock(), trx);
    log.warn({ paymentRef: event.paymentRef, kind: event.kind }, 'payment reversal for a payment not confirmed yet: kept until it is');
  }

  /** `paidUntilIfNone`: where the paid time ends when no paid period is left (the refunded one's start). */
  async function syncAccount(accountId: string | null, reason: string, trx: Db, paidUntilIfNone?: Date): Promise<void> {
    if (!accountId) return;
    await jobs.enqueue({
      type: SYNC_PAID_PERIOD, payload: { accountId, ...(paidUntilIfNone ? { paidUntilIfNone: paidUntilIfNone.toISOString() } : {}) }, serialKey: accountSerialKey(accountId),
      dedupeKey: `${SYNC_PAID_PERIOD}:${accountId}:${reason}`, maxAttempts: FOLLOW_UP_MAX_ATTEMPTS,
    }, clock(), trx);
  }

  async function notifyRefund(transaction: TransactionRecord, amountRefunded: number, trx: Db): Promise<void> {
    await jobs.enqueue({
      type: SEND_REFUND_NOTICE, payload: { transactionId: transaction.id, amountRefunded },
      dedupeKey: `${SEND_REFUND_NOTICE}:${transaction.id}:${amountRefunded}`, maxAttempts: FOLLOW_UP_MAX_ATTEMPTS,
    }, clock(), trx);
  }

  /**
   * The period a refunded (or lost) payment bought is taken off its account: its ledger row is voided,
   * and the account's later periods that were chained after it move back by its length, so the account's
   * paid end goes back by exactly that period. Its subscription ends; a recurring one ends here at once
   * and at the provider by a job (no further charge): money given back in full ends what it paid for.
   * The account runs to what is still paid, without grace.
   */
  async function takeBackPeriod(transaction: TransactionRecord, reason: PeriodVoidReason, trx: Db): Promise<{ accountId: string | null; periodStart?: Date }> {
    const subscription = await billing.findSubscription(transaction.subscriptionId, trx);
    if (!subscription) return { accountId: null };
    const now = clock();
    if (subscription.vpnAccountId) await billing.lockAccount(subscription.vpnAccountId, trx);
    const voided = await deps.periods.void(transaction.id, reason, now, trx);
    const length = voided ? voided.endsAt.getTime() - voided.startsAt.getTime() : 0;
    if (voided?.vpnAccountId) {
      for (const moved of await deps.periods.moveBack(voided.vpnAccountId, voided.endsAt, length, now, trx)) {
        // A one-off subscription shows the one period it paid for: it shows it where it is now.
        if (moved.billing === 'one_off') await billing.updateSubscription(moved.subscriptionId, { currentPeriodStart: moved.startsAt, currentPeriodEnd: moved.endsAt }, now, trx);
      }
    }
    if (subscription.billing === 'one_off') {
      await billing.updateSubscription(subscription.id, { status: 'canceled', canceledAt: now }, now, trx);
    } else if (!(transaction.status === 'needs_review' && transaction.metadata.review?.reason === 'period_already_paid')) {
      // (A renewal held because a one-off payment had paid its days bought nothing: giving it back ends nothing.)
      await endRecurring(subscription, `refund:${transaction.id}`, now, trx);
      // The subscription's shown period (the provider's, for display) loses what was given back, as the account did.
      if (voided && subscription.currentPeriodEnd) {
        await billing.updateSubscription(subscription.id, { currentPeriodEnd: new Date(subscription.currentPeriodEnd.getTime() - length) }, now, trx);
      }
    }
    return { accountId: await withoutUndelivered(subscription, trx), periodStart: voided?.startsAt };
  }

  /**
   * A purchase taken back before it was delivered (the refund overtook the payment's confirmation): its
   * waiting account is removed, as for a payment that failed. Returns the account left to sync, if any.
   */
  async function withoutUndelivered(subscription: SubscriptionRecord, trx: Db): Promise<string | null> {
    if (!subscription.vpnAccountId || subscription.metadata.kind !== 'purchase' || subscription.metadata.fulfilled_at) return subscription.vpnAccountId;
    if (!(await accounts.removeIfSuspended(subscription.vpnAccountId, trx))) return subscription.vpnAccountId;
    await billing.updateSubscription(subscription.id, { vpnAccountId: null }, clock(), trx);
    return null;
  }

  async function endRecurring(subscription: SubscriptionRecord, reason: string, now: Date, trx: Db): Promise<void> {
    if (subscription.status === 'canceled') return;
    await billing.updateSubscription(subscription.id, { status: 'canceled', canceledAt: now, cancelAtPeriodEnd: false }, now, trx);
    // A plan this server renews has nothing at the provider to end: canceled here, it is never charged again.
    if (subscription.metadata.renewed_by !== 'store') {
      await jobs.enqueue({
        type: END_REFUNDED_SUBSCRIPTION, payload: { subscriptionId: subscription.id },
        dedupeKey: `${END_REFUNDED_SUBSCRIPTION}:${subscription.id}`, maxAttempts: FOLLOW_UP_MAX_ATTEMPTS,
      }, now, trx);
    }
    await accounts.insertLog({
      accountId: subscription.vpnAccountId, userId: subscription.userId, step: 'subscription_canceled', status: 'success',
      details: { subscriptionId: subscription.id, atPeriodEnd: false, byAdmin: false, reason }, now,
    }, trx);
  }

  async function logStep(transaction: TransactionRecord, accountId: string | null, step: string, details: Record<string, unknown>, trx: Db): Promise<void> {
    await accounts.insertLog({ accountId, userId: transaction.userId, step, status: 'success', details: { transactionId: transaction.id, ...details }, now: clock() }, trx);
  }

  /**
   * The provider's running total of what was refunded, as a ledger row for what our own refunds do not
   * account for (a refund made in the provider's dashboard). Keyed by the total: a redelivery adds nothing.
   */
  async function recordProviderRefund(transaction: TransactionRecord, amountRefunded: number, trx: Db): Promise<void> {
    const counted = await deps.refunds.countedTotal(transaction.id, trx);
    if (amountRefunded <= counted) return;
    await deps.refunds.insert({
      id: randomUUID(), transactionId: transaction.id, amount: amountRefunded - counted, currency: transaction.currency, status: 'succeeded',
      source: 'provider', idempotencyKey: `provider:${transaction.id}:${amountRefunded}`,
    }, clock(), trx);
  }

  /** A full refund ends what the payment bought; a partial one is recorded and changes nothing else. */
  async function applyRefund(event: Pick<RefundEvent, 'paymentRef' | 'amountRefunded' | 'fullyRefunded'> & { reason?: string; currency?: string }, trx: Db): Promise<boolean> {
    const transaction = await billing.findTransactionByPaymentRef(event.paymentRef, trx);
    if (!transaction) {
      await keep({ kind: 'refunded', paymentRef: event.paymentRef, amountRefunded: event.amountRefunded, fullyRefunded: event.fullyRefunded, currency: event.currency ?? '' }, trx);
      return false;
    }
    await recordProviderRefund(transaction, event.amountRefunded, trx);
    const now = clock();
    // A top-up given back: its money comes out of the wallet (what was spent of it already cannot).
    if (transaction.metadata.kind === 'top_up') {
      const short = await deps.wallet.takeBackTopUp(transaction, event.amountRefunded, now, trx);
      if (short > 0) log.warn({ transactionId: transaction.id, short }, 'refund: a top-up was refunded after part of it was spent; the wallet held less than was refunded');
    }
    // A payment under review gives back what was paid (a crypto invoice closed part-paid), not what was ordered.
    const { review } = transaction.metadata;
    const paid = transaction.status === 'needs_review' && review?.amount_paid != null && review.currency_paid === transaction.currency ? review.amount_paid : transaction.amount;
    const fully = event.fullyRefunded || event.amountRefunded >= paid;
    if (fully && (await billing.markTransactionRefunded(transaction.id, { amountRefunded: event.amountRefunded, reason: event.reason }, now, trx))) {
      const { accountId, periodStart } = await takeBackPeriod(transaction, 'refunded', trx);
      await syncAccount(accountId, `refund:${transaction.id}`, trx, periodStart);
      await notifyRefund(transaction, event.amountRefunded, trx);
      await logStep(transaction, accountId, 'payment_refunded', { amountRefunded: event.amountRefunded, full: true }, trx);
      log.info({ transactionId: transaction.id, amountRefunded: event.amountRefunded }, 'payment refunded in full');
      return true;
    }
    if (await billing.recordAmountRefunded(transaction.id, event.amountRefunded, now, trx)) {
      await notifyRefund(transaction, event.amountRefunded, trx);
      await logStep(transaction, null, 'payment_refunded', { amountRefunded: event.amountRefunded, full: false }, trx);
      return true;
    }
    return false;
  }

  /**
   * A refund the provider had made failed afterwards: its ledger row becomes failed and the payment's
   * refunded total goes down by it, so it can be refunded again. What the refund ended (the account's
   * period, a subscription) stays ended: the admin decides, with the payment's note saying what happened.
   */
  async function applyRefundFailed(event: RefundFailedEvent, trx: Db): Promise<boolean> {
    const transaction = await billing.findTransactionByPaymentRef(event.paymentRef, trx);
    if (!transaction) {
      await keep(event, trx);
      return false;
    }
    const now = clock();
    const byProvider = await deps.refunds.findByProviderRefundId(event.refundId, trx);
    const byOurs = !byProvider && event.refundRef ? await deps.refunds.find(event.refundRef, trx) : undefined;
    const dashboard = !byProvider && !byOurs
      ? (await deps.refunds.listForTransaction(transaction.id, trx)).find((refund) => refund.source === 'provider' && refund.status === 'succeeded' && refund.amount === event.amount)
      : undefined;
    const refund = byProvider ?? (byOurs?.transactionId === transaction.id ? byOurs : undefined) ?? dashboard;
    const why = event.reason ?? 'failed';
    if (refund) {
      if (!(await deps.refunds.markFailedLater(refund.id, why, now, trx))) return false;
    } else {
      // A refund we never heard of (made and failed before its own event arrived): recorded as failed, once.
      const recorded = await deps.refunds.insert({
        id: randomUUID(), transactionId: transaction.id, amount: event.amount, currency: transaction.currency, status: 'failed', source: 'provider',
        idempotencyKey: `provider-failed:${event.refundId}`, providerRefundId: event.refundId,
      }, now, trx);
      if (!recorded) return false;
    }
    const total = await deps.refunds.countedTotal(transaction.id, trx);
    await billing.setAmountRefunded(transaction.id, Math.min(total, transaction.amountRefunded), now, trx);
    await logStep(transaction, null, 'refund_failed', { refundId: event.refundId, amount: event.amount, reason: event.reason }, trx);
    log.error({ transactionId: transaction.id, refundId: event.refundId, reason: event.reason }, 'a refund failed at the payment provider: the customer was not repaid');
    return true;
  }

  /** The account is paused while the customer's bank disputes the payment. */
  async function applyDispute(event: DisputeEvent, trx: Db): Promise<void> {
    const transaction = await billing.findTransactionByPaymentRef(event.paymentRef, trx);
    if (!transaction) {
      await keep(event, trx);
      return;
    }
    if (!(await billing.markTransactionDisputed(transaction.id, { id: event.disputeId, status: 'open', reason: event.reason }, clock(), trx))) return;
    const subscription = await billing.findSubscription(transaction.subscriptionId, trx);
    await syncAccount(subscription?.vpnAccountId ?? null, `dispute:${event.disputeId}`, trx);
    await logStep(transaction, subscription?.vpnAccountId ?? null, 'payment_disputed', { disputeId: event.disputeId, reason: event.reason, amount: event.amount }, trx);
    log.warn({ transactionId: transaction.id, disputeId: event.disputeId }, 'payment disputed: account paused');
  }

  /** Won: the account runs again (delivered now, if the dispute came before it was). Lost: as a full refund. */
  async function applyDisputeClosed(event: DisputeClosedEvent, trx: Db): Promise<void> {
    const transaction = await billing.findTransactionByPaymentRef(event.paymentRef, trx);
    if (!transaction) {
      await keep(event, trx);
      return;
    }
    const now = clock();
    if (event.outcome === 'won') {
      if (!(await billing.markDisputeWon(transaction.id, event.disputeId, now, trx))) return;
      const subscription = await billing.findSubscription(transaction.subscriptionId, trx);
      await syncAccount(subscription?.vpnAccountId ?? null, `dispute-won:${event.disputeId}`, trx);
      await jobs.enqueue({
        type: PROVISION_PAID_ACCOUNT, payload: { transactionId: transaction.id }, serialKey: accountSerialKey(subscription?.vpnAccountId),
        dedupeKey: `${PROVISION_PAID_ACCOUNT}:${transaction.id}:dispute-won:${event.disputeId}`, maxAttempts: PROVISION_MAX_ATTEMPTS,
      }, now, trx);
      await logStep(transaction, subscription?.vpnAccountId ?? null, 'dispute_won', { disputeId: event.disputeId }, trx);
      return;
    }
    const dispute = { id: event.disputeId, status: 'lost' as const };
    if (!(await billing.markTransactionRefunded(transaction.id, { amountRefunded: transaction.amount, dispute }, now, trx))) return;
    const { accountId, periodStart } = await takeBackPeriod(transaction, 'dispute_lost', trx);
    await syncAccount(accountId, `dispute-lost:${event.disputeId}`, trx, periodStart);
    await logStep(transaction, accountId, 'dispute_lost', { disputeId: event.disputeId }, trx);
  }

  /** Applies, in `trx`, what was kept for a payment that has just been confirmed with this ref (oldest first). */
  async function applyKept(paymentRef: string | null, trx: Db): Promise<void> {
    if (!paymentRef) return;
    for (const event of await deps.kept.take(paymentRef, clock(), trx)) {
      log.warn({ paymentRef, kind: event.kind }, 'applying a reversal that arrived before its payment was confirmed');
      if (event.kind === 'refunded') await applyRefund(event, trx);
      else if (event.kind === 'refund_failed') await applyRefundFailed(event, trx);
      else if (event.kind === 'disputed') await applyDispute(event, trx);
      else await applyDisputeClosed(event, trx);
    }
  }

  return { applyRefund, applyRefundFailed, applyDispute, applyDisputeClosed, applyKept };
}

export type PaymentReversals = ReturnType<typeof createPaymentReversals>;

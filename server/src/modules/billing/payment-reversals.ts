import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/knex.js';
import type { JobsRepo } from '../../jobs/jobs.repo.js';
import type { Clock } from '../../lib/clock.js';
import type { PaymentEvent } from '../../payments/payment-driver.js';
import type { AccountsRepo } from '../accounts/accounts.repo.js';
import type { BillingRepo, SubscriptionRecord, TransactionRecord } from './billing.repo.js';

/** Puts an account's panel user in step with what is paid for it (see sync-paid-period.ts). */
export const SYNC_PAID_PERIOD = 'sync_paid_period';
/** Tells the customer about a refund (see refund-notice.ts). */
export const SEND_REFUND_NOTICE = 'send_refund_notice';
/** Both act on the outside world (a panel, a mail server) and are retried until it answers. */
const FOLLOW_UP_MAX_ATTEMPTS = 200;

type RefundEvent = Extract<PaymentEvent, { kind: 'refunded' }>;
type DisputeEvent = Extract<PaymentEvent, { kind: 'disputed' }>;
type DisputeClosedEvent = Extract<PaymentEvent, { kind: 'dispute_closed' }>;

/**
 * Money going back: refunds (full and partial, from the admin or from the provider's dashboard) and
 * disputes. Each change runs in the caller's transaction, is gated by a conditional update of the
 * transaction's status, and leaves the panel work to a durable job that reads the paid periods again
 * when it runs, so any order of events ends in the same place.
 */
export function createPaymentReversals(deps: { billing: BillingRepo; accounts: AccountsRepo; jobs: JobsRepo; clock: Clock; log: FastifyBaseLogger }) {
  const { billing, accounts, jobs, clock, log } = deps;

  /** `paidUntilIfNone`: where the paid time ends when no paid period is left (the refunded one's start). */
  async function syncAccount(accountId: string | null, reason: string, trx: Db, paidUntilIfNone?: Date): Promise<void> {
    if (!accountId) return;
    await jobs.enqueue({
      type: SYNC_PAID_PERIOD, payload: { accountId, ...(paidUntilIfNone ? { paidUntilIfNone: paidUntilIfNone.toISOString() } : {}) },
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
   * The period a refunded (or lost) payment bought is taken off its account: its subscription ends,
   * and the account's later paid periods move back by its length, so the account's paid end goes back
   * by exactly that period.
   */
  async function takeBackPeriod(transaction: TransactionRecord, trx: Db): Promise<{ accountId: string | null; periodStart?: Date }> {
    const subscription = await billing.findSubscription(transaction.subscriptionId, trx);
    if (!subscription) return { accountId: null };
    const now = clock();
    if (subscription.vpnAccountId) await billing.lockAccount(subscription.vpnAccountId, trx);
    if (subscription.billing === 'recurring') return takeBackInvoicePeriod(subscription, transaction, now, trx);
    const { currentPeriodStart: start, currentPeriodEnd: end } = subscription;
    const wasActive = subscription.status === 'active' && start && end;
    await billing.updateSubscription(subscription.id, { status: 'canceled', canceledAt: now }, now, trx);
    if (wasActive && subscription.vpnAccountId) {
      const length = end.getTime() - start.getTime();
      for (const later of await billing.listActivePeriodsFrom(subscription.vpnAccountId, end, trx)) {
        if (later.id === subscription.id || !later.currentPeriodStart || !later.currentPeriodEnd) continue;
        await billing.updateSubscription(later.id, {
          currentPeriodStart: new Date(later.currentPeriodStart.getTime() - length), currentPeriodEnd: new Date(later.currentPeriodEnd.getTime() - length),
        }, now, trx);
      }
    }
    return { accountId: subscription.vpnAccountId, periodStart: wasActive ? start : undefined };
  }

  /**
   * A recurring subscription's invoice: the period it bought comes off the subscription's paid end. The
   * subscription itself goes on (Stripe decides whether it renews; the admin can cancel it).
   */
  async function takeBackInvoicePeriod(subscription: SubscriptionRecord, transaction: TransactionRecord, now: Date, trx: Db): Promise<{ accountId: string | null; periodStart?: Date }> {
    const { period_start: start, period_end: end } = transaction.metadata;
    if (!start || !end || !subscription.currentPeriodEnd) return { accountId: subscription.vpnAccountId };
    const length = new Date(end).getTime() - new Date(start).getTime();
    await billing.updateSubscription(subscription.id, { currentPeriodEnd: new Date(subscription.currentPeriodEnd.getTime() - length) }, now, trx);
    return { accountId: subscription.vpnAccountId, periodStart: new Date(start) };
  }

  async function logStep(transaction: TransactionRecord, accountId: string | null, step: string, details: Record<string, unknown>, trx: Db): Promise<void> {
    await accounts.insertLog({ accountId, userId: transaction.userId, step, status: 'success', details: { transactionId: transaction.id, ...details }, now: clock() }, trx);
  }

  /** A full refund ends what the payment bought; a partial one is recorded and changes nothing else. */
  async function applyRefund(event: Pick<RefundEvent, 'paymentRef' | 'amountRefunded' | 'fullyRefunded'> & { reason?: string }, trx: Db): Promise<boolean> {
    const transaction = await billing.findTransactionByPaymentRef(event.paymentRef, trx);
    if (!transaction) {
      log.warn({ paymentRef: event.paymentRef }, 'refund: no transaction of ours for this payment; ignored');
      return false;
    }
    const now = clock();
    const fully = event.fullyRefunded || event.amountRefunded >= transaction.amount;
    if (fully && (await billing.markTransactionRefunded(transaction.id, { amountRefunded: event.amountRefunded, reason: event.reason }, now, trx))) {
      const { accountId, periodStart } = await takeBackPeriod(transaction, trx);
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

  /** The account is paused while the customer's bank disputes the payment. */
  async function applyDispute(event: DisputeEvent, trx: Db): Promise<void> {
    const transaction = await billing.findTransactionByPaymentRef(event.paymentRef, trx);
    if (!transaction) {
      log.warn({ paymentRef: event.paymentRef, disputeId: event.disputeId }, 'dispute: no transaction of ours for this payment; ignored');
      return;
    }
    if (!(await billing.markTransactionDisputed(transaction.id, { id: event.disputeId, status: 'open', reason: event.reason }, clock(), trx))) return;
    const subscription = await billing.findSubscription(transaction.subscriptionId, trx);
    await syncAccount(subscription?.vpnAccountId ?? null, `dispute:${event.disputeId}`, trx);
    await logStep(transaction, subscription?.vpnAccountId ?? null, 'payment_disputed', { disputeId: event.disputeId, reason: event.reason, amount: event.amount }, trx);
    log.warn({ transactionId: transaction.id, disputeId: event.disputeId }, 'payment disputed: account paused');
  }

  /** Won: the account runs again. Lost: as a full refund. */
  async function applyDisputeClosed(event: DisputeClosedEvent, trx: Db): Promise<void> {
    const transaction = await billing.findTransactionByPaymentRef(event.paymentRef, trx);
    if (!transaction) return;
    const now = clock();
    if (event.outcome === 'won') {
      if (!(await billing.markDisputeWon(transaction.id, event.disputeId, now, trx))) return;
      const subscription = await billing.findSubscription(transaction.subscriptionId, trx);
      await syncAccount(subscription?.vpnAccountId ?? null, `dispute-won:${event.disputeId}`, trx);
      await logStep(transaction, subscription?.vpnAccountId ?? null, 'dispute_won', { disputeId: event.disputeId }, trx);
      return;
    }
    const dispute = { id: event.disputeId, status: 'lost' as const };
    if (!(await billing.markTransactionRefunded(transaction.id, { amountRefunded: transaction.amount, dispute }, now, trx))) return;
    const { accountId, periodStart } = await takeBackPeriod(transaction, trx);
    await syncAccount(accountId, `dispute-lost:${event.disputeId}`, trx, periodStart);
    await logStep(transaction, accountId, 'dispute_lost', { disputeId: event.disputeId }, trx);
  }

  return { applyRefund, applyDispute, applyDisputeClosed };
}

export type PaymentReversals = ReturnType<typeof createPaymentReversals>;

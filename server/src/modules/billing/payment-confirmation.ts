import type { FastifyBaseLogger } from 'fastify';
import type Stripe from 'stripe';
import { BILLING_MESSAGES } from '../../../../shared/billing.js';
import type { Db } from '../../db/knex.js';
import type { JobsRepo } from '../../jobs/jobs.repo.js';
import type { Clock } from '../../lib/clock.js';
import { expiryAfterDays } from '../accounts/account-values.js';
import type { AccountsRepo } from '../accounts/accounts.repo.js';
import type { BillingRepo, TransactionRecord } from './billing.repo.js';

export const PROVISION_PAID_ACCOUNT = 'provision_paid_account';
/** A paid order is never given up on: with the back-off capped, this is weeks of retries (the admin sees it under System). */
export const PROVISION_MAX_ATTEMPTS = 5000;

export type SessionOutcome = 'paid' | 'failed' | 'expired' | 'open';

/** What a Checkout Session (and the event that carried it, if any) says about the payment. */
export function outcomeOf(session: Stripe.Checkout.Session, eventType?: string): SessionOutcome {
  if (eventType === 'checkout.session.async_payment_failed') return 'failed';
  if (session.status === 'expired') return 'expired';
  if (session.status === 'complete' && (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')) return 'paid';
  return 'open';
}

const later = (...dates: Array<Date | null | undefined>) =>
  new Date(Math.max(...dates.filter((date): date is Date => date instanceof Date).map((date) => date.getTime())));

/**
 * Applies what Stripe says about a Checkout Session to our records, exactly once: the webhook, the
 * return pages' check and the follow-up job all come here, in any order and as often as they like.
 * Each change is one database transaction gated by a conditional update of the transaction's status.
 */
export function createPaymentConfirmation(deps: { db: Db; billing: BillingRepo; accounts: AccountsRepo; jobs: JobsRepo; clock: Clock; log: FastifyBaseLogger }) {
  const { billing, accounts, clock, log } = deps;

  async function findTransaction(session: Stripe.Checkout.Session): Promise<TransactionRecord | undefined> {
    const transactionId = session.metadata?.transaction_id;
    const transaction = transactionId ? await billing.findTransaction(transactionId) : await billing.findTransactionBySession(session.id);
    if (!transaction) return undefined;
    // A session that is not the one this transaction was paid through (metadata copied elsewhere): ignore.
    if (transaction.providerTransactionId && transaction.providerTransactionId !== session.id) return undefined;
    return transaction;
  }

  /** pending → succeeded: the subscription becomes active for its period and the account is provisioned by a job. */
  async function confirmPaid(transaction: TransactionRecord, session: Stripe.Checkout.Session): Promise<boolean> {
    const paymentIntent = typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
    return deps.db.transaction(async (trx) => {
      const now = clock();
      if (!(await billing.markTransactionSucceeded(transaction.id, { sessionId: session.id, paymentIntent }, now, trx))) return false;
      const subscription = (await billing.findSubscription(transaction.subscriptionId, trx))!;
      const { metadata } = subscription;
      let start = now;
      if (metadata.kind === 'renewal' && subscription.vpnAccountId) {
        // The later of now and what is already paid for, so two renewals paid together add up.
        const account = await accounts.findById(subscription.vpnAccountId, trx);
        start = later(now, account?.expireDate, await billing.latestPaidPeriodEnd(subscription.vpnAccountId, trx));
      }
      const { error: _cleared, ...rest } = metadata;
      await billing.updateSubscription(subscription.id, {
        status: 'active', currentPeriodStart: start, currentPeriodEnd: expiryAfterDays(start, metadata.days), metadata: rest,
      }, now, trx);
      await deps.jobs.enqueue({
        type: PROVISION_PAID_ACCOUNT, payload: { transactionId: transaction.id },
        dedupeKey: `${PROVISION_PAID_ACCOUNT}:${transaction.id}`, maxAttempts: PROVISION_MAX_ATTEMPTS,
      }, now, trx);
      await accounts.insertLog({
        accountId: subscription.vpnAccountId, userId: subscription.userId, step: 'payment_succeeded', status: 'success',
        details: { transactionId: transaction.id, sessionId: session.id, amount: transaction.amount, kind: metadata.kind }, now,
      }, trx);
      return true;
    });
  }

  /** pending → failed: the subscription stays incomplete with the error; a purchase's waiting account is removed. */
  async function markFailed(transaction: TransactionRecord, error: string): Promise<boolean> {
    return deps.db.transaction(async (trx) => {
      const now = clock();
      if (!(await billing.markTransactionFailed(transaction.id, error, now, trx))) return false;
      const subscription = (await billing.findSubscription(transaction.subscriptionId, trx))!;
      const removeAccount = subscription.metadata.kind === 'purchase' && subscription.vpnAccountId !== null
        && (await accounts.removeIfSuspended(subscription.vpnAccountId, trx));
      await billing.updateSubscription(subscription.id, {
        metadata: { ...subscription.metadata, error },
        ...(removeAccount ? { vpnAccountId: null } : {}),
      }, now, trx);
      await accounts.insertLog({
        accountId: null, userId: subscription.userId, step: 'payment_failed', status: 'failure',
        details: { transactionId: transaction.id, error, removedAccountId: removeAccount ? subscription.vpnAccountId : null }, now,
      }, trx);
      return true;
    });
  }

  return {
    /** Applies the session's state; returns its outcome, or null for a session that is not ours. */
    async apply(session: Stripe.Checkout.Session, eventType?: string): Promise<SessionOutcome | null> {
      const transaction = await findTransaction(session);
      if (!transaction) {
        log.warn({ sessionId: session.id, eventType }, 'payment: a Checkout Session with no transaction of ours; ignored');
        return null;
      }
      const outcome = outcomeOf(session, eventType);
      if (outcome === 'paid') {
        if (session.amount_total !== transaction.amount || session.currency !== transaction.currency) {
          log.error({ sessionId: session.id, transactionId: transaction.id, amountTotal: session.amount_total, currency: session.currency }, 'payment: paid amount differs from the order; not provisioned');
          return null;
        }
        if (await confirmPaid(transaction, session)) log.info({ transactionId: transaction.id, sessionId: session.id }, 'payment succeeded');
      } else if (outcome === 'failed' || outcome === 'expired') {
        const error = outcome === 'failed' ? BILLING_MESSAGES.paymentFailed : BILLING_MESSAGES.paymentExpired;
        if (await markFailed(transaction, error)) log.info({ transactionId: transaction.id, sessionId: session.id, outcome }, 'payment did not complete');
      }
      return outcome;
    },

    /** A checkout whose session was never saved (the server stopped mid-way): nobody can have paid it. */
    markAbandoned: (transaction: TransactionRecord) => markFailed(transaction, BILLING_MESSAGES.paymentExpired),
  };
}

export type PaymentConfirmation = ReturnType<typeof createPaymentConfirmation>;

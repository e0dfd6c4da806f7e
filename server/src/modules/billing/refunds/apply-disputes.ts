import type { Db } from '../../../db/knex.js';
import { enqueueFulfilment } from '../fulfilment/paid-account-jobs.js';
import { keep, logStep, syncAccount, type DisputeClosedEvent, type DisputeEvent, type PaymentReversalsDeps } from './payment-reversals-deps.js';
import { takeBackPeriod } from './take-back-period.js';

/** Disputes: the account paused while one is open, running again when it is won, taken back as by a full refund when it is lost. */

/** The account is paused while the customer's bank disputes the payment. */
export async function applyDispute(deps: PaymentReversalsDeps, event: DisputeEvent, trx: Db): Promise<void> {
  const { billing, clock, log } = deps;
  const transaction = await billing.findTransactionByPaymentRef(event.paymentRef, trx);
  if (!transaction) {
    await keep(deps, event, trx);
    return;
  }
  if (!(await billing.markTransactionDisputed(transaction.id, { id: event.disputeId, status: 'open', reason: event.reason }, clock(), trx))) return;
  const subscription = await billing.findSubscription(transaction.subscriptionId, trx);
  await syncAccount(deps, subscription?.vpnAccountId ?? null, `dispute:${event.disputeId}`, trx);
  await logStep(
    deps,
    transaction,
    subscription?.vpnAccountId ?? null,
    'payment_disputed',
    { disputeId: event.disputeId, reason: event.reason, amount: event.amount },
    trx,
  );
  log.warn({ transactionId: transaction.id, disputeId: event.disputeId }, 'payment disputed: account paused');
}

/** Won: the account runs again (delivered now, if the dispute came before it was). Lost: as a full refund. */
export async function applyDisputeClosed(deps: PaymentReversalsDeps, event: DisputeClosedEvent, trx: Db): Promise<void> {
  const { billing, jobs, clock } = deps;
  const transaction = await billing.findTransactionByPaymentRef(event.paymentRef, trx);
  if (!transaction) {
    await keep(deps, event, trx);
    return;
  }
  const now = clock();
  if (event.outcome === 'won') {
    if (!(await billing.markDisputeWon(transaction.id, event.disputeId, now, trx))) return;
    const subscription = await billing.findSubscription(transaction.subscriptionId, trx);
    await syncAccount(deps, subscription?.vpnAccountId ?? null, `dispute-won:${event.disputeId}`, trx);
    await enqueueFulfilment(jobs, { transactionId: transaction.id, accountId: subscription?.vpnAccountId, again: `dispute-won:${event.disputeId}` }, now, trx);
    await logStep(deps, transaction, subscription?.vpnAccountId ?? null, 'dispute_won', { disputeId: event.disputeId }, trx);
    return;
  }
  const dispute = { id: event.disputeId, status: 'lost' as const };
  if (!(await billing.markTransactionRefunded(transaction.id, { amountRefunded: transaction.amount, dispute }, now, trx))) return;
  const { accountId, ...taken } = await takeBackPeriod(deps, transaction, 'dispute_lost', trx);
  await syncAccount(deps, accountId, `dispute-lost:${event.disputeId}`, trx, taken);
  await logStep(deps, transaction, accountId, 'dispute_lost', { disputeId: event.disputeId }, trx);
}

import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/knex.js';
import type { TransactionRecord } from '../billing.repo.js';
import { keep, logStep, notifyRefund, syncAccount, type PaymentReversalsDeps, type RefundEvent, type RefundFailedEvent } from './payment-reversals-deps.js';
import { takeBackPeriod } from './take-back-period.js';

/** Refunds the provider reports (ours, or made in its dashboard), full or partial, and refunds that failed there afterwards. */

/**
 * The provider's running total of what was refunded, as a ledger row for what our own refunds do not
 * account for (a refund made in the provider's dashboard). Keyed by the total: a redelivery adds nothing.
 */
async function recordProviderRefund(deps: PaymentReversalsDeps, transaction: TransactionRecord, amountRefunded: number, trx: Db): Promise<void> {
  const { clock } = deps;
  const counted = await deps.refunds.countedTotal(transaction.id, trx);
  if (amountRefunded <= counted) return;
  const inserted = await deps.refunds.insert(
    {
      id: randomUUID(),
      transactionId: transaction.id,
      amount: amountRefunded - counted,
      currency: transaction.currency,
      status: 'succeeded',
      source: 'provider',
      idempotencyKey: `provider:${transaction.id}:${amountRefunded}`,
    },
    clock(),
    trx,
  );
  if (!inserted || !deps.audit) return;
  await deps.audit.record(
    {
      actorId: null,
      actorEmail: null,
      action: 'payments.refund_by_provider',
      targetType: 'transaction',
      targetId: transaction.id,
      userId: transaction.userId,
      details: { amount: amountRefunded - counted, amountRefunded, currency: transaction.currency },
      now: clock(),
    },
    trx,
  );
}

/** A full refund ends what the payment bought; a partial one is recorded and changes nothing else. */
export async function applyRefund(
  deps: PaymentReversalsDeps,
  event: Pick<RefundEvent, 'paymentRef' | 'amountRefunded' | 'fullyRefunded'> & { reason?: string; currency?: string },
  trx: Db,
): Promise<boolean> {
  const { billing, clock, log } = deps;
  const transaction = await billing.findTransactionByPaymentRef(event.paymentRef, trx);
  if (!transaction) {
    await keep(
      deps,
      {
        kind: 'refunded',
        paymentRef: event.paymentRef,
        amountRefunded: event.amountRefunded,
        fullyRefunded: event.fullyRefunded,
        currency: event.currency ?? '',
      },
      trx,
    );
    return false;
  }
  await recordProviderRefund(deps, transaction, event.amountRefunded, trx);
  const now = clock();
  // A top-up given back: its money comes out of the wallet (what was spent of it already cannot).
  if (transaction.metadata.kind === 'top_up') {
    const short = await deps.wallet.takeBackTopUp(transaction, event.amountRefunded, now, trx);
    if (short > 0)
      log.warn({ transactionId: transaction.id, short }, 'refund: a top-up was refunded after part of it was spent; the wallet held less than was refunded');
  }
  // A payment under review gives back what was paid (a crypto invoice closed part-paid), not what was ordered.
  const { review } = transaction.metadata;
  const paid =
    transaction.status === 'needs_review' && review?.amount_paid != null && review.currency_paid === transaction.currency
      ? review.amount_paid
      : transaction.amount;
  const fully = event.fullyRefunded || event.amountRefunded >= paid;
  if (fully && (await billing.markTransactionRefunded(transaction.id, { amountRefunded: event.amountRefunded, reason: event.reason }, now, trx))) {
    const { accountId, ...taken } = await takeBackPeriod(deps, transaction, 'refunded', trx);
    await syncAccount(deps, accountId, `refund:${transaction.id}`, trx, taken);
    await notifyRefund(deps, transaction, event.amountRefunded, trx);
    await logStep(deps, transaction, accountId, 'payment_refunded', { amountRefunded: event.amountRefunded, full: true }, trx);
    log.info({ transactionId: transaction.id, amountRefunded: event.amountRefunded }, 'payment refunded in full');
    return true;
  }
  if (await billing.recordAmountRefunded(transaction.id, event.amountRefunded, now, trx)) {
    await notifyRefund(deps, transaction, event.amountRefunded, trx);
    await logStep(deps, transaction, null, 'payment_refunded', { amountRefunded: event.amountRefunded, full: false }, trx);
    return true;
  }
  return false;
}

/**
 * A refund the provider had made failed afterwards: its ledger row becomes failed and the payment's
 * refunded total goes down by it, so it can be refunded again. What the refund ended (the account's
 * period, a subscription) stays ended: the admin decides, with the payment's note saying what happened.
 */
export async function applyRefundFailed(deps: PaymentReversalsDeps, event: RefundFailedEvent, trx: Db): Promise<boolean> {
  const { billing, clock, log } = deps;
  const transaction = await billing.findTransactionByPaymentRef(event.paymentRef, trx);
  if (!transaction) {
    await keep(deps, event, trx);
    return false;
  }
  const now = clock();
  const byProvider = await deps.refunds.findByProviderRefundId(event.refundId, trx);
  const byOurs = !byProvider && event.refundRef ? await deps.refunds.find(event.refundRef, trx) : undefined;
  const dashboard =
    !byProvider && !byOurs
      ? (await deps.refunds.listForTransaction(transaction.id, trx)).find(
          (refund) => refund.source === 'provider' && refund.status === 'succeeded' && refund.amount === event.amount,
        )
      : undefined;
  const refund = byProvider ?? (byOurs?.transactionId === transaction.id ? byOurs : undefined) ?? dashboard;
  const why = event.reason ?? 'failed';
  if (refund) {
    if (!(await deps.refunds.markFailedLater(refund.id, why, now, trx))) return false;
  } else {
    // A refund we never heard of (made and failed before its own event arrived): recorded as failed, once.
    const recorded = await deps.refunds.insert(
      {
        id: randomUUID(),
        transactionId: transaction.id,
        amount: event.amount,
        currency: transaction.currency,
        status: 'failed',
        source: 'provider',
        idempotencyKey: `provider-failed:${event.refundId}`,
        providerRefundId: event.refundId,
      },
      now,
      trx,
    );
    if (!recorded) return false;
  }
  const total = await deps.refunds.countedTotal(transaction.id, trx);
  await billing.setAmountRefunded(transaction.id, Math.min(total, transaction.amountRefunded), now, trx);
  await logStep(deps, transaction, null, 'refund_failed', { refundId: event.refundId, amount: event.amount, reason: event.reason }, trx);
  log.error(
    { transactionId: transaction.id, refundId: event.refundId, reason: event.reason },
    'a refund failed at the payment provider: the customer was not repaid',
  );
  return true;
}

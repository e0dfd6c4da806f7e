import type { Db } from '../../../db/knex.js';
import { applyDispute, applyDisputeClosed } from './apply-disputes.js';
import { applyRefund, applyRefundFailed } from './apply-refunds.js';
import type { DisputeClosedEvent, DisputeEvent, PaymentReversalsDeps, RefundEvent, RefundFailedEvent } from './payment-reversals-deps.js';

export { END_REFUNDED_SUBSCRIPTION, SEND_REFUND_NOTICE } from './payment-reversals-deps.js';
export type { PaymentReversalsDeps } from './payment-reversals-deps.js';

/** Applies, in `trx`, what was kept for a payment that has just been confirmed with this ref (oldest first). */
async function applyKept(deps: PaymentReversalsDeps, paymentRef: string | null, trx: Db): Promise<void> {
  const { clock, log } = deps;
  if (!paymentRef) return;
  for (const event of await deps.kept.take(paymentRef, clock(), trx)) {
    log.warn({ paymentRef, kind: event.kind }, 'applying a reversal that arrived before its payment was confirmed');
    if (event.kind === 'refunded') await applyRefund(deps, event, trx);
    else if (event.kind === 'refund_failed') await applyRefundFailed(deps, event, trx);
    else if (event.kind === 'disputed') await applyDispute(deps, event, trx);
    else await applyDisputeClosed(deps, event, trx);
  }
}

/**
 * Money going back: refunds (full and partial, from the admin or from the provider's dashboard) and
 * disputes. Each change runs in the caller's transaction, is gated by a conditional update of the
 * transaction's status, and leaves the panel work to a durable job that reads the paid periods again
 * when it runs, so any order of events ends in the same place. The use cases are functions of their own
 * (apply-refunds.ts, apply-disputes.ts, take-back-period.ts) taking the dependencies first; this binds them once.
 */
export function createPaymentReversals(deps: PaymentReversalsDeps) {
  return {
    applyRefund: (event: Pick<RefundEvent, 'paymentRef' | 'amountRefunded' | 'fullyRefunded'> & { reason?: string; currency?: string }, trx: Db) =>
      applyRefund(deps, event, trx),
    applyRefundFailed: (event: RefundFailedEvent, trx: Db) => applyRefundFailed(deps, event, trx),
    applyDispute: (event: DisputeEvent, trx: Db) => applyDispute(deps, event, trx),
    applyDisputeClosed: (event: DisputeClosedEvent, trx: Db) => applyDisputeClosed(deps, event, trx),
    applyKept: (paymentRef: string | null, trx: Db) => applyKept(deps, paymentRef, trx),
  };
}

export type PaymentReversals = ReturnType<typeof createPaymentReversals>;

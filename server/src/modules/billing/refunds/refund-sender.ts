import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/knex.js';
import type { JobsRepo } from '../../../jobs/jobs.repo.js';
import { addSeconds, type Clock } from '../../../lib/clock.js';
import { crashPoint } from '../../../lib/crash-points.js';
import { PaymentProviderError, type RefundResult } from '../../../payments/payment-driver.js';
import type { AuditRepo } from '../../audit/index.js';
import type { BillingRepo } from '../billing.repo.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import type { PaymentReversals } from './payment-reversals.js';
import { refundCap, type RefundRecord, type RefundsRepo } from './refunds.repo.js';

/** Sends a recorded refund whose first attempt did not settle (see refund-sender.ts). */
export const SEND_REFUND = 'send_refund';
/** A provider call takes at most ~45 s (15 s timeout, two retries): nobody else sends the refund meanwhile. */
const LEASE_SECONDS = 120;
/** Tried for about two days with the worker's backoff before it is left to the admin (it stays listed as not confirmed). */
export const SEND_REFUND_MAX_ATTEMPTS = 40;

/**
 * What came of one attempt: `settled` (the provider has it: succeeded or pending), `refused` (the provider
 * said no; nothing was refunded), `busy` (another attempt is talking to the provider now), `unanswered`
 * (no answer: it may or may not have been made; the next attempt finds out before making another).
 */
export type SendOutcome =
  | { kind: 'settled'; refund: RefundRecord }
  | { kind: 'refused'; refund: RefundRecord; message: string }
  | { kind: 'busy' }
  | { kind: 'unanswered'; message: string };

/**
 * The one place a refund reaches a provider. Every refund is in the ledger (refunds.repo.ts) before it is
 * sent; an attempt takes the row's lease, so a double click, the retry job and another instance never call
 * the provider for one refund at the same time; a later attempt asks the provider for the refund an earlier
 * one may have made (Stripe: by its metadata, BTCPay: by the pull payment's name) before making it.
 */
export function createRefundSender(deps: {
  db: Db;
  billing: BillingRepo;
  refunds: RefundsRepo;
  payments: PaymentDrivers;
  reversals: PaymentReversals;
  jobs: JobsRepo;
  audit: AuditRepo;
  clock: Clock;
  log: FastifyBaseLogger;
}) {
  const { refunds, clock, log } = deps;

  /** Completes the ledger row with the provider's answer and applies the refund to the payment, in one database transaction. */
  async function settle(refund: RefundRecord, result: RefundResult): Promise<RefundRecord> {
    await deps.db.transaction(async (trx) => {
      const now = clock();
      const transaction = await deps.billing.findTransactionForUpdate(refund.transactionId, trx);
      if (!transaction?.providerPaymentId) return;
      const status = result.status === 'failed' ? 'failed' : result.status;
      if (!(await refunds.settle(refund.id, { status, providerRefundId: result.refundId, amount: result.amount, claimUrl: result.claimUrl ?? null }, now, trx)))
        return;
      if (status === 'failed') return;
      // A crypto refund is claimed by the customer at BTCPay: the refund e-mail carries the link.
      if (result.claimUrl) await deps.billing.setRefundClaimUrl(transaction.id, result.claimUrl, now, trx);
      const total = await refunds.countedTotal(transaction.id, trx);
      await deps.reversals.applyRefund(
        {
          paymentRef: transaction.providerPaymentId,
          amountRefunded: Math.max(total, transaction.amountRefunded),
          fullyRefunded: total >= refundCap(transaction),
          reason: refund.note ?? refund.reason ?? undefined,
        },
        trx,
      );
      await deps.audit.record(
        {
          actorId: refund.actorId,
          actorEmail: null,
          action: refund.source === 'undeliverable' ? 'payments.refund_undeliverable' : 'payments.refund',
          targetType: 'transaction',
          targetId: transaction.id,
          details: {
            refundId: result.refundId,
            ourRefundId: refund.id,
            amount: result.amount,
            reason: refund.reason,
            note: refund.note,
            userId: transaction.userId,
          },
          ip: null,
          now,
        },
        trx,
      );
    });
    return (await refunds.find(refund.id))!;
  }

  async function refuse(refund: RefundRecord, message: string): Promise<RefundRecord> {
    await deps.db.transaction(async (trx) => {
      if (await refunds.settle(refund.id, { status: 'failed', error: message }, clock(), trx)) {
        log.error({ refundId: refund.id, transactionId: refund.transactionId, message }, 'refund refused by the payment provider');
      }
    });
    return (await refunds.find(refund.id))!;
  }

  return {
    /**
     * Records a refund and the job that will send it again if this attempt does not settle it, in the
     * caller's database transaction (the caller holds the payment's row). Returns false when the key was
     * already used (the same refund, asked for again).
     */
    async record(refund: Parameters<RefundsRepo['insert']>[0], trx: Db): Promise<boolean> {
      const now = clock();
      if (!(await refunds.insert(refund, now, trx))) return false;
      await deps.jobs.enqueue(
        {
          type: SEND_REFUND,
          payload: { refundId: refund.id },
          dedupeKey: `${SEND_REFUND}:${refund.id}`,
          runAt: addSeconds(now, LEASE_SECONDS),
          maxAttempts: SEND_REFUND_MAX_ATTEMPTS,
        },
        now,
        trx,
      );
      return true;
    },

    /** One attempt to get the provider to make this refund (see SendOutcome). */
    async send(refundId: string): Promise<SendOutcome> {
      const now = clock();
      const current = await refunds.find(refundId);
      if (!current) throw new Error(`No refund ${refundId}`);
      if (current.status === 'failed') return { kind: 'refused', refund: current, message: current.error ?? 'The refund failed' };
      if (current.status !== 'requested') return { kind: 'settled', refund: current };
      if (!(await refunds.claim(refundId, now, addSeconds(now, LEASE_SECONDS)))) {
        const after = (await refunds.find(refundId))!;
        if (after.status === 'requested') return { kind: 'busy' };
        return after.status === 'failed' ? { kind: 'refused', refund: after, message: after.error ?? 'The refund failed' } : { kind: 'settled', refund: after };
      }
      const transaction = await deps.billing.findTransaction(current.transactionId);
      const driver = transaction && (await deps.payments.forTransaction(transaction));
      if (!transaction?.providerPaymentId || !driver) {
        const message = 'The payment provider is not configured, so the refund cannot be sent yet.';
        await refunds.release(refundId, message, clock());
        return { kind: 'unanswered', message };
      }
      // The whole payment at once goes without an amount (BTCPay then refunds what was paid at the rate of the claim).
      const whole = current.amount >= transaction.amount && (await refunds.countedTotal(transaction.id)) === current.amount;
      let result: RefundResult;
      try {
        result = await driver.refund({
          paymentRef: transaction.providerPaymentId,
          refundRef: current.id,
          idempotencyKey: current.idempotencyKey,
          ...(whole ? {} : { amount: current.amount }),
          ...(current.reason ? { reason: current.reason } : {}),
          retry: current.attempts > 0,
          metadata: { transaction_id: transaction.id },
        });
      } catch (err) {
        if (!(err instanceof PaymentProviderError)) {
          await refunds.release(refundId, err instanceof Error ? err.message : String(err), clock());
          throw err;
        }
        if (err.rejected) return { kind: 'refused', refund: await refuse(current, err.message), message: err.message };
        await refunds.release(refundId, err.message, clock());
        log.warn({ refundId, transactionId: transaction.id, err: err.message }, 'refund: the payment provider did not answer; it will be sent again');
        return { kind: 'unanswered', message: err.message };
      }
      await crashPoint('refund:after-provider');
      if (result.status === 'failed')
        return { kind: 'refused', refund: await refuse(current, 'The provider failed the refund.'), message: 'The provider failed the refund.' };
      return { kind: 'settled', refund: await settle(current, result) };
    },
  };
}

export type RefundSender = ReturnType<typeof createRefundSender>;

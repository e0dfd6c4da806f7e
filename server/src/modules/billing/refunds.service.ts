import type { AdminTransaction } from '../../../../shared/billing.js';
import { formatMoney } from '../../../../shared/money.js';
import type { RefundBody } from '../../../../shared/billing-schemas.js';
import type { Db } from '../../db/knex.js';
import { AppError, notFound, validationFailed } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { PaymentProviderError } from '../../payments/payment-driver.js';
import type { AuditRepo } from '../audit/audit.repo.js';
import type { Actor } from '../users/users.service.js';
import type { BillingRepo, TransactionRecord } from './billing.repo.js';
import { toTransaction } from './billing.service.js';
import type { PaymentDrivers } from './payment-drivers.js';
import type { PaymentReversals } from './payment-reversals.js';

const REFUNDABLE = new Set(['succeeded', 'needs_review']);

const formatCents = (minor: number, currency: string) => formatMoney(minor, currency, 'en-US', 'symbol');

function noteOf(record: TransactionRecord): string | null {
  const { review, dispute } = record.metadata;
  if (record.status === 'needs_review' && review) {
    const paid = review.amount_paid !== null && review.currency_paid ? formatCents(review.amount_paid, review.currency_paid) : 'an unknown amount';
    return `Paid ${paid}, ordered ${formatCents(record.amount, record.currency)}`;
  }
  if (record.status === 'disputed' && dispute) return `Dispute ${dispute.id} open${dispute.reason ? ` (${dispute.reason})` : ''}`;
  if (dispute?.status === 'lost') return `Dispute ${dispute.id} lost`;
  return record.metadata.refund_reason ?? null;
}

const toAdminTransaction = (record: TransactionRecord & { userEmail: string }): AdminTransaction => ({
  ...toTransaction(record),
  userId: record.userId,
  userEmail: record.userEmail,
  refundable: REFUNDABLE.has(record.status) && record.providerPaymentId !== null && record.amountRefunded < record.amount,
  note: noteOf(record),
  refundClaimUrl: record.metadata.refund_claim_url ?? null,
});

/** The admin's view of payments, and the Refund action. */
export function createRefundsService(deps: { db: Db; billing: BillingRepo; payments: PaymentDrivers; reversals: PaymentReversals; audit: AuditRepo; clock: Clock }) {
  const { billing } = deps;

  async function findForAdmin(id: string): Promise<AdminTransaction> {
    const [record] = (await billing.listTransactionsForAdmin({ limit: 1, id }));
    if (!record) throw notFound('Transaction not found');
    return toAdminTransaction(record);
  }

  return {
    /**
     * A paid renewal whose account no longer exists: nothing can be delivered, so the whole remaining
     * amount goes back, once (the idempotency key is the transaction). Throws while the provider does
     * not answer, so the calling job tries again.
     */
    async refundUndeliverable(transactionId: string, why: string): Promise<void> {
      const transaction = await billing.findTransaction(transactionId);
      if (!transaction || transaction.status !== 'succeeded' || !transaction.providerPaymentId) return;
      const driver = await deps.payments.forTransaction(transaction);
      if (!driver) throw new Error('The payment provider is not configured: an undeliverable renewal cannot be refunded yet');
      const result = await driver.refund({
        paymentRef: transaction.providerPaymentId, reason: 'requested_by_customer',
        idempotencyKey: `undeliverable:${transaction.id}`, metadata: { transaction_id: transaction.id },
      });
      await deps.db.transaction(async (trx) => {
        if (result.claimUrl) await billing.setRefundClaimUrl(transaction.id, result.claimUrl, deps.clock(), trx);
        await deps.reversals.applyRefund({
          paymentRef: transaction.providerPaymentId!, amountRefunded: transaction.amountRefunded + result.amount, fullyRefunded: true, reason: why,
        }, trx);
      });
      await deps.audit.record({
        actorId: null, actorEmail: null, action: 'payments.refund_undeliverable', targetType: 'transaction', targetId: transaction.id,
        details: { refundId: result.refundId, amount: result.amount, reason: why, userId: transaction.userId }, ip: null, now: deps.clock(),
      });
    },

    async listTransactions(filter: Parameters<BillingRepo['listTransactionsForAdmin']>[0]): Promise<AdminTransaction[]> {
      return (await billing.listTransactionsForAdmin(filter)).map(toAdminTransaction);
    },

    /**
     * Refunds the whole remaining amount, or part of it, through the provider, then applies it at
     * once (the provider's webhook, whenever it comes, changes nothing more). The idempotency key is
     * the transaction and what was refunded before: a double click or a retried request refunds once.
     */
    async refundTransaction(actor: Actor, id: string, body: RefundBody): Promise<AdminTransaction> {
      const transaction = await billing.findTransaction(id);
      if (!transaction) throw notFound('Transaction not found');
      if (!REFUNDABLE.has(transaction.status) || !transaction.providerPaymentId) {
        throw new AppError(409, 'not_refundable', `A ${transaction.status.replace('_', ' ')} transaction cannot be refunded.`);
      }
      const remaining = transaction.amount - transaction.amountRefunded;
      const amount = body.amount ?? remaining;
      if (amount > remaining) throw validationFailed({ amount: `At most ${formatCents(remaining, transaction.currency)} can be refunded` });
      const driver = await deps.payments.forTransaction(transaction);
      if (!driver) throw new AppError(503, 'payment_not_configured', 'The payment provider is not configured, so nothing can be refunded.');

      let refunded: number;
      let refundId: string;
      let claimUrl: string | undefined;
      try {
        const result = await driver.refund({
          paymentRef: transaction.providerPaymentId, amount, reason: body.reason,
          idempotencyKey: `refund:${transaction.id}:${transaction.amountRefunded}:${amount}`,
          metadata: { transaction_id: transaction.id },
        });
        if (result.status === 'failed') throw new PaymentProviderError('The refund failed at the provider', null, true);
        refunded = result.amount;
        refundId = result.refundId;
        claimUrl = result.claimUrl;
      } catch (err) {
        if (!(err instanceof PaymentProviderError)) throw err;
        throw new AppError(502, 'payment_provider_error', `The payment provider did not refund it: ${err.message}`);
      }
      const total = transaction.amountRefunded + refunded;
      await deps.db.transaction(async (trx) => {
        // A crypto refund is claimed by the customer at BTCPay: the refund e-mail carries the link.
        if (claimUrl) await billing.setRefundClaimUrl(transaction.id, claimUrl, deps.clock(), trx);
        await deps.reversals.applyRefund({
          paymentRef: transaction.providerPaymentId!, amountRefunded: total, fullyRefunded: total >= transaction.amount, reason: body.note ?? body.reason,
        }, trx);
        // Audited once per refund at the provider, whoever applied it here first (this request, or the provider's
        // webhook that overtook it); a repeated click gets the same refund back and adds nothing. The applying
        // transaction holds the payment's row, so two clicks check this one after the other.
        if (await deps.audit.hasEntry('payments.refund', transaction.id, { key: 'refundId', value: refundId }, trx)) return;
        await deps.audit.record({
          actorId: actor.id, actorEmail: actor.email, action: 'payments.refund', targetType: 'transaction', targetId: transaction.id,
          details: { refundId, amount: refunded, reason: body.reason, note: body.note ?? null, userId: transaction.userId }, ip: actor.ip ?? null, now: deps.clock(),
        }, trx);
      });
      return findForAdmin(transaction.id);
    },
  };
}

export type RefundsService = ReturnType<typeof createRefundsService>;

import type { AdminTransaction } from '../../../../../shared/billing.js';
import type { TransactionMethod } from '../../../../../shared/billing-schemas.js';
import { notFound } from '../../../errors.js';
import type { BillingRepo, TransactionRecord } from '../billing.repo.js';
import { toTransaction } from '../billing.service.js';
import { providerOfMethod } from '../provider-accounts/payment-providers.repo.js';
import { transactionNoteOf } from '../transaction-notes.js';
import { canRefund, destinationsOf, formatCents, type RefundsDeps } from './refunds-deps.js';
import { refundCap, type RefundRecord } from './refunds.repo.js';

/** The admin's view of payments (Admin → Payments): each with its refunds' state, whether it can be refunded, and where to. */

/** The admin's filter of payments: the repository's, with how they were paid in place of the provider's name. */
export type AdminTransactionsFilter = Omit<Parameters<BillingRepo['listTransactionsForAdmin']>[0], 'providerName' | 'giftCode'> & {
  method?: TransactionMethod;
};

/** The repository's filter for a method: its provider's; the wallet and gift codes have none, and are told apart by the code. */
function byMethod(method: TransactionMethod | undefined): Pick<Parameters<BillingRepo['listTransactionsForAdmin']>[0], 'providerName' | 'giftCode'> {
  if (method === undefined) return {};
  if (method === 'gift_code') return { providerName: null, giftCode: true };
  if (method === 'wallet') return { providerName: null, giftCode: false };
  return { providerName: providerOfMethod(method) };
}

/** The ledger's word on a payment's refunds, for the admin: one not confirmed yet, one refused, one failed after it was made. */
function refundNoteOf(record: TransactionRecord, refunds: RefundRecord[]): string | null {
  const open = refunds.find((refund) => refund.status === 'requested');
  if (open) return `Refund of ${formatCents(open.amount, open.currency)} not confirmed by the provider yet: it is sent again automatically, never twice`;
  // A failure matters until refunds made since give back all there is to give back.
  const counted = refunds.filter((refund) => refund.status !== 'failed').reduce((sum, refund) => sum + refund.amount, 0);
  const failed = counted < refundCap(record) ? refunds.filter((refund) => refund.status === 'failed').at(-1) : undefined;
  if (!failed) return null;
  return failed.providerRefundId
    ? `Refund of ${formatCents(failed.amount, failed.currency)} failed at the provider${failed.error ? ` (${failed.error})` : ''}: the customer was not repaid; the account stays as the refund left it. Refund again to retry`
    : `Refund of ${formatCents(failed.amount, failed.currency)} refused by the provider${failed.error ? `: ${failed.error}` : ''}`;
}

function noteOf(record: TransactionRecord, refunds: RefundRecord[]): string | null {
  return refundNoteOf(record, refunds) ?? transactionNoteOf(record);
}

const toAdminTransaction = (record: TransactionRecord & { userEmail: string }, refunds: RefundRecord[]): AdminTransaction => {
  const counted = refunds.filter((refund) => refund.status !== 'failed').reduce((sum, refund) => sum + refund.amount, 0);
  return {
    ...toTransaction(record),
    userId: record.userId,
    userEmail: record.userEmail,
    refundable: canRefund(record, Math.max(counted, record.amountRefunded)) && !refunds.some((refund) => refund.status === 'requested'),
    refundDestinations: destinationsOf(record),
    note: noteOf(record, refunds),
    refundClaimUrl: record.metadata.refund_claim_url ?? null,
  };
};

/** `method`: how they were paid (its provider's; `wallet` for other orders no provider took; `gift_code` for redemptions). */
export async function listTransactions(deps: RefundsDeps, filter: AdminTransactionsFilter): Promise<AdminTransaction[]> {
  const { method, ...rest } = filter;
  const records = await deps.billing.listTransactionsForAdmin({ ...rest, ...byMethod(method) });
  const refunds = await deps.refunds.listForTransactions(records.map((record) => record.id));
  return records.map((record) =>
    toAdminTransaction(
      record,
      refunds.filter((refund) => refund.transactionId === record.id),
    ),
  );
}

export async function findForAdmin(deps: RefundsDeps, id: string): Promise<AdminTransaction> {
  const [found] = await listTransactions(deps, { limit: 1, id });
  if (!found) throw notFound('Transaction not found');
  return found;
}

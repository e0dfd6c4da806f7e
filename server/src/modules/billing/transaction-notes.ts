import { formatMoney } from '../../../../shared/money.js';
import type { TransactionRecord } from './billing.repo.js';

/** The admin's notes are English: amounts with the currency's symbol and its own decimals. */
const formatCents = (minor: number, currency: string) => formatMoney(minor, currency, 'en-US');

/** What the admin needs to know about a payment, in words (Admin → Payments, the System tab's review list). */
export function transactionNoteOf(record: TransactionRecord): string | null {
  const { review, dispute, overpaid } = record.metadata;
  if (record.status === 'needs_review' && review) {
    const paid = review.amount_paid !== null && review.currency_paid ? formatCents(review.amount_paid, review.currency_paid) : 'an unknown amount';
    if (review.reason === 'partial_payment') return `Paid ${paid} of ${formatCents(record.amount, record.currency)}, invoice expired`;
    if (review.reason === 'period_already_paid') return `Renewal charge of ${paid} for days a one-off payment already paid: not applied, refund it`;
    return `Paid ${paid}, ordered ${formatCents(record.amount, record.currency)}`;
  }
  if (record.status === 'disputed' && dispute) return `Dispute ${dispute.id} open${dispute.reason ? ` (${dispute.reason})` : ''}`;
  if (dispute?.status === 'lost' && dispute.id.startsWith('marked_invalid:')) return 'Marked invalid in BTCPay after delivery: account taken back';
  if (dispute?.status === 'lost') return `Dispute ${dispute.id} lost`;
  if (overpaid && record.status === 'succeeded') {
    return `Overpaid by ${formatCents(overpaid.amount_over, record.currency)} (paid ${formatCents(overpaid.amount_paid, record.currency)})`;
  }
  return record.metadata.refund_reason ?? null;
}

import { describe, expect, it } from 'vitest';
import type { TransactionMetadata, TransactionRecord } from './billing.repo.js';
import { transactionNoteOf } from './transaction-notes.js';

function transaction(status: TransactionRecord['status'], metadata: TransactionMetadata): TransactionRecord {
  return {
    id: 't1',
    subscriptionId: 's1',
    userId: 'u1',
    status,
    amount: 499,
    currency: 'usd',
    providerTransactionId: 'inv1',
    providerPaymentId: 'inv1',
    amountRefunded: 0,
    providerInvoiceId: null,
    chargeAttempts: 0,
    metadata,
    createdAt: new Date('2026-11-01T00:00:00Z'),
    providerName: 'btcpay',
    providerAccountId: null,
    cardFingerprint: null,
  };
}

describe('transactionNoteOf', () => {
  it('says how much of the price an expired part-paid invoice got', () => {
    const note = transactionNoteOf(transaction('needs_review', { review: { reason: 'partial_payment', amount_paid: 250, currency_paid: 'usd' } }));
    expect(note).toBe('Paid $2.50 of $4.99, invoice expired');
  });

  it('says what was paid against what was ordered for an amount mismatch', () => {
    const note = transactionNoteOf(transaction('needs_review', { review: { reason: 'amount_mismatch', amount_paid: 999, currency_paid: 'eur' } }));
    expect(note).toBe('Paid €9.99, ordered $4.99');
  });

  it('says by how much a delivered invoice was overpaid', () => {
    expect(transactionNoteOf(transaction('succeeded', { overpaid: { amount_paid: 559, amount_over: 60 } }))).toBe('Overpaid by $0.60 (paid $5.59)');
  });

  it('says a delivered invoice marked invalid in BTCPay was taken back, and names a real lost dispute', () => {
    expect(transactionNoteOf(transaction('refunded', { dispute: { id: 'marked_invalid:inv1', status: 'lost' } }))).toBe(
      'Marked invalid in BTCPay after delivery: account taken back',
    );
    expect(transactionNoteOf(transaction('refunded', { dispute: { id: 'dp_1', status: 'lost' } }))).toBe('Dispute dp_1 lost');
  });

  it('has nothing to say about a plain payment', () => {
    expect(transactionNoteOf(transaction('succeeded', {}))).toBeNull();
  });
});

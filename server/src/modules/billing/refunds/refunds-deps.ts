import { STARS_CURRENCY } from '../../../../../shared/billing-schemas.js';
import type { RefundDestination } from '../../../../../shared/billing.js';
import { formatMoney } from '../../../../../shared/money.js';
import type { Db } from '../../../db/knex.js';
import { AppError } from '../../../errors.js';
import type { Clock } from '../../../lib/clock.js';
import type { AuditRepo } from '../../audit/index.js';
import type { WalletLedger } from '../../credit/index.js';
import type { BillingRepo, TransactionRecord } from '../billing.repo.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import { providerRefunds } from '../provider-accounts/payment-providers.repo.js';
import type { PaymentReversals } from './payment-reversals.js';
import type { RefundSender } from './refund-sender.js';
import { refundCap, type RefundsRepo } from './refunds.repo.js';

/**
 * What the admin's payments list (admin-transactions.ts) and the Refund action (refund-transaction.ts) work with,
 * and the rules they share: whether a payment has something left to give back, where it can go, and how much of a top-up.
 */
export interface RefundsDeps {
  db: Db;
  billing: BillingRepo;
  refunds: RefundsRepo;
  sender: RefundSender;
  payments: PaymentDrivers;
  reversals: Pick<PaymentReversals, 'applyRefund'>;
  wallet: Pick<WalletLedger, 'refundInto' | 'available'>;
  audit: AuditRepo;
  clock: Clock;
}

const REFUNDABLE = new Set(['succeeded', 'needs_review']);

export const formatCents = (minor: number, currency: string) => formatMoney(minor, currency, 'en-US');

/** Paid, or fully refunded by a refund that failed later: something is left to give back. */
export const canRefund = (record: TransactionRecord, refunded: number) =>
  (REFUNDABLE.has(record.status) || record.status === 'refunded') && record.providerPaymentId !== null && refunded < refundCap(record);

/** Where a payment's refund can go, the default first: a provider that cannot send money back (Crypto Pay) leaves the wallet and by hand. */
export const destinationsOf = (record: Pick<TransactionRecord, 'providerName' | 'metadata' | 'currency'>): RefundDestination[] => {
  // A top-up's money is in the wallet already: giving it back takes it out of there, to the provider or by hand.
  // Stars are not the wallet's currency: they go back to the Telegram account that paid them (or by hand).
  const wallet: RefundDestination[] = record.metadata.kind === 'top_up' || record.currency === STARS_CURRENCY ? [] : ['wallet'];
  return providerRefunds(record.providerName) ? ['provider', ...wallet, 'manual'] : [...wallet, 'manual'];
};

/** A top-up can be given back only while its money is still in the wallet (what was spent of it bought something). */
export async function assertTopUpUnspent(deps: RefundsDeps, transaction: TransactionRecord, amount: number, trx: Db): Promise<void> {
  if (transaction.metadata.kind !== 'top_up') return;
  const left = await deps.wallet.available(transaction.userId, transaction.currency, deps.clock(), trx);
  if (amount > left) {
    throw new AppError(
      409,
      'top_up_spent',
      `Only ${formatCents(Math.max(0, left), transaction.currency)} of this top-up is still in the customer's balance: refund at most that.`,
    );
  }
}

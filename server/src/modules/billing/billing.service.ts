import type { Subscription, Transaction } from '../../../../shared/billing.js';
import type { PlanNames } from '../../../../shared/plan-translations.js';
import type { TransactionMethod } from '../../../../shared/billing-schemas.js';
import type { Clock } from '../../lib/clock.js';
import type { UserProfile } from '../users/index.js';
import type { BillingRepo, TransactionRecord } from './billing.repo.js';
import type { PaidPeriods } from './ledger/paid-period.js';
import { methodOfProvider } from './provider-accounts/payment-drivers.js';
import { toSubscription } from './subscription-presenter.js';
import type { SavedMethodsRepo } from './recurring/saved-methods.repo.js';
import { toSavedPaymentMethod } from './recurring/saved-methods.service.js';

/** `planNames`: the names its order kept of its plan in the other languages (for a transaction under the order's own plan name). */
export const toTransaction = (record: TransactionRecord, planNames?: PlanNames): Transaction => ({
  id: record.id,
  subscriptionId: record.subscriptionId,
  status: record.status,
  amount: record.amount,
  amountRefunded: record.amountRefunded,
  currency: record.currency,
  planName: record.metadata.plan_name ?? '',
  ...(planNames && Object.keys(planNames).length > 0 ? { planNames } : {}),
  renewal: record.metadata.kind === 'renewal',
  createdAt: record.createdAt.toISOString(),
  method: methodOf(record),
  ...(record.status === 'pending' && record.metadata.crypto ? { crypto: record.metadata.crypto } : {}),
  ...(record.metadata.gift_code ? { giftCode: record.metadata.gift_code } : {}),
  ...(record.metadata.promo
    ? { promo: { code: record.metadata.promo.code, amountBefore: record.metadata.promo.amount_before, discount: record.metadata.promo.discount } }
    : {}),
  ...creditOf(record),
  ...(record.metadata.kind === 'top_up' ? { topUp: true as const } : {}),
});

/** How it was paid: a gift code redeemed for it; by its provider's method; with none and the wallet's money spent on it, from the wallet. */
function methodOf(record: TransactionRecord): TransactionMethod {
  if (record.providerName === null && record.metadata.gift_code) return 'gift_code';
  if (record.providerName === null && (record.metadata.credit_spent ?? 0) > 0 && record.amount === 0) return 'wallet';
  return methodOfProvider(record.providerName);
}

/** Referral credit that paid part of it: spent from our ledger on a one-off order, or the provider's balance on a renewal. */
function creditOf(record: TransactionRecord): { credit?: number } {
  const credit = record.metadata.credit_spent ?? record.metadata.credit_applied ?? 0;
  return credit > 0 ? { credit } : {};
}

/** The customer's subscriptions and transactions. */
export function createBillingService(deps: {
  billing: BillingRepo;
  paidPeriods: PaidPeriods;
  savedMethods: Pick<SavedMethodsRepo, 'listForUser'>;
  clock: Clock;
}) {
  const { billing } = deps;

  return {
    /** The customer's plans, bought and renewed (a top-up of the wallet is a payment, not a plan: it is in the transactions only). */
    async listSubscriptions(user: UserProfile): Promise<Subscription[]> {
      const [records, grace, methods] = await Promise.all([
        billing.listSubscriptionsForUser(user.id),
        deps.paidPeriods.graceMs(),
        deps.savedMethods.listForUser(user.id),
      ]);
      const now = deps.clock();
      const saved = new Map(methods.map((method) => [method.id, toSavedPaymentMethod(method)]));
      return records.filter((record) => record.metadata.kind !== 'top_up').map((record) => toSubscription(record, now, grace, saved));
    },

    async listTransactions(user: UserProfile): Promise<Transaction[]> {
      const [records, subscriptions] = await Promise.all([billing.listTransactionsForUser(user.id), billing.listSubscriptionsForUser(user.id)]);
      const orders = new Map(subscriptions.map((subscription) => [subscription.id, subscription.metadata]));
      return records.map((record) => {
        const order = orders.get(record.subscriptionId);
        return toTransaction(record, order && order.plan_name === record.metadata.plan_name ? order.plan_names : undefined);
      });
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;

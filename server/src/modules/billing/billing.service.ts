import type { Subscription, Transaction } from '../../../../shared/billing.js';
import { BILLING_MESSAGES } from '../../../../shared/billing.js';
import type { Db } from '../../db/knex.js';
import { AppError, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { WebhookSignatureError, type PaymentEvent, type VerifiedWebhook } from '../../payments/payment-driver.js';
import type { UserProfile } from '../users/users.repo.js';
import type { BillingRepo, SubscriptionRecord, TransactionRecord } from './billing.repo.js';
import type { CardDriverSource } from './card-driver.js';
import type { PaymentConfirmation } from './payment-confirmation.js';
import type { PaymentReversals } from './payment-reversals.js';

/** Every plan is a one-off payment today: its subscription ends with its period and never renews by itself. */
function toSubscription(record: SubscriptionRecord, now: Date): Subscription {
  const ended = record.status === 'active' && record.currentPeriodEnd !== null && record.currentPeriodEnd <= now;
  return {
    id: record.id,
    status: ended ? 'ended' : record.status,
    vpnAccountId: record.vpnAccountId,
    planId: record.planId,
    planName: record.metadata.plan_name,
    price: record.metadata.price,
    currency: 'usd',
    providerName: record.providerName,
    renewal: record.metadata.kind === 'renewal',
    autoRenews: false,
    currentPeriodStart: record.currentPeriodStart?.toISOString() ?? null,
    currentPeriodEnd: record.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: record.cancelAtPeriodEnd,
    canceledAt: record.canceledAt?.toISOString() ?? null,
    error: record.metadata.error ?? null,
    createdAt: record.createdAt.toISOString(),
  };
}

export const toTransaction = (record: TransactionRecord): Transaction => ({
  id: record.id,
  subscriptionId: record.subscriptionId,
  status: record.status,
  amount: record.amount,
  amountRefunded: record.amountRefunded,
  currency: record.currency,
  planName: record.metadata.plan_name ?? '',
  renewal: record.metadata.kind === 'renewal',
  createdAt: record.createdAt.toISOString(),
});

/** The customer's subscriptions and transactions, and the payment providers' webhooks. */
export function createBillingService(deps: {
  db: Db;
  billing: BillingRepo;
  cards: CardDriverSource;
  confirmation: PaymentConfirmation;
  reversals: PaymentReversals;
  clock: Clock;
}) {
  const { billing } = deps;

  /** Our event, applied inside the transaction that recorded the webhook. */
  async function applyEvent(event: PaymentEvent, trx: Db): Promise<void> {
    switch (event.kind) {
      case 'checkout':
        await deps.confirmation.applyCheckout(event.checkout, trx);
        return;
      case 'refunded':
        await deps.reversals.applyRefund(event, trx);
        return;
      case 'disputed':
        await deps.reversals.applyDispute(event, trx);
        return;
      case 'dispute_closed':
        await deps.reversals.applyDisputeClosed(event, trx);
        return;
    }
  }

  return {
    async listSubscriptions(user: UserProfile): Promise<Subscription[]> {
      const now = deps.clock();
      return (await billing.listSubscriptionsForUser(user.id)).map((record) => toSubscription(record, now));
    },

    /**
     * A one-off purchase has nothing to cancel: it ends with its period (409, and the dashboard does
     * not offer it). The route stays for recurring plans.
     */
    async cancelSubscription(user: UserProfile, id: string): Promise<Subscription> {
      const subscription = await billing.findSubscriptionForUser(id, user.id);
      if (!subscription) throw notFound(BILLING_MESSAGES.subscriptionNotFound);
      throw new AppError(409, 'not_recurring', BILLING_MESSAGES.oneOffNotCancelable);
    },

    async listTransactions(user: UserProfile): Promise<Transaction[]> {
      return (await billing.listTransactionsForUser(user.id)).map(toTransaction);
    },

    /**
     * Verifies the signature over the raw body, then records the event and applies it in one database
     * transaction: the insert of the event id is the exactly-once gate, so a redelivery, or the same
     * event racing itself on another instance, applies nothing.
     */
    async handleStripeWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<{ received: true; duplicate?: true }> {
      const driver = await deps.cards.current();
      if (!driver) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.notConfigured);
      let webhook: VerifiedWebhook;
      try {
        webhook = driver.verifyWebhook(rawBody, headers);
      } catch (err) {
        if (err instanceof WebhookSignatureError) throw new AppError(400, 'invalid_signature', err.message);
        throw err;
      }
      const applied = await deps.db.transaction(async (trx) => {
        if (!(await billing.recordEvent({ id: webhook.id, provider: driver.name, type: webhook.type }, deps.clock(), trx))) return false;
        if (webhook.event) await applyEvent(webhook.event, trx);
        return true;
      });
      return applied ? { received: true } : { received: true, duplicate: true };
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;

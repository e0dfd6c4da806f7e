import type { Subscription, Transaction } from '../../../../shared/billing.js';
import { BILLING_MESSAGES, HANDLED_STRIPE_EVENTS } from '../../../../shared/billing.js';
import { AppError, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { UserProfile } from '../users/users.repo.js';
import type { BillingRepo, SubscriptionRecord, TransactionRecord } from './billing.repo.js';
import type { CardSettingsService } from './card-settings.service.js';
import type { PaymentConfirmation } from './payment-confirmation.js';
import type { StripeGateway } from './stripe-gateway.js';
import type Stripe from 'stripe';

function toSubscription(record: SubscriptionRecord): Subscription {
  return {
    id: record.id,
    status: record.status,
    vpnAccountId: record.vpnAccountId,
    planId: record.planId,
    planName: record.metadata.plan_name,
    price: record.metadata.price,
    currency: 'usd',
    providerName: record.providerName,
    renewal: record.metadata.kind === 'renewal',
    currentPeriodStart: record.currentPeriodStart?.toISOString() ?? null,
    currentPeriodEnd: record.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: record.cancelAtPeriodEnd,
    canceledAt: record.canceledAt?.toISOString() ?? null,
    error: record.metadata.error ?? null,
    createdAt: record.createdAt.toISOString(),
  };
}

const toTransaction = (record: TransactionRecord): Transaction => ({
  id: record.id,
  subscriptionId: record.subscriptionId,
  status: record.status,
  amount: record.amount,
  currency: record.currency,
  planName: record.metadata.plan_name ?? '',
  renewal: record.metadata.kind === 'renewal',
  createdAt: record.createdAt.toISOString(),
});

const isHandled = (type: string): boolean => (HANDLED_STRIPE_EVENTS as readonly string[]).includes(type);

/** The customer's subscriptions and transactions, and Stripe's webhook. */
export function createBillingService(deps: {
  billing: BillingRepo;
  card: CardSettingsService;
  gateway: StripeGateway;
  confirmation: PaymentConfirmation;
  clock: Clock;
}) {
  const { billing } = deps;

  return {
    async listSubscriptions(user: UserProfile): Promise<Subscription[]> {
      return (await billing.listSubscriptionsForUser(user.id)).map(toSubscription);
    },

    /** Spec: sets cancel_at_period_end and canceled_at; the status is unchanged. Cancelling twice keeps the first time. */
    async cancelSubscription(user: UserProfile, id: string): Promise<Subscription> {
      const subscription = await billing.findSubscriptionForUser(id, user.id);
      if (!subscription) throw notFound(BILLING_MESSAGES.subscriptionNotFound);
      if (subscription.status !== 'active') throw new AppError(409, 'not_active', 'Only an active subscription can be cancelled.');
      if (!subscription.cancelAtPeriodEnd) await billing.cancelSubscription(id, deps.clock());
      return toSubscription((await billing.findSubscriptionForUser(id, user.id))!);
    },

    async listTransactions(user: UserProfile): Promise<Transaction[]> {
      return (await billing.listTransactionsForUser(user.id)).map(toTransaction);
    },

    /**
     * Verifies the signature over the raw body, skips an event already processed, and applies the
     * Checkout Session events. Anything else is acknowledged and ignored.
     */
    async handleStripeWebhook(rawBody: Buffer, signature: string | undefined): Promise<{ received: true; duplicate?: true }> {
      const { webhookSecret } = await deps.card.resolveKeys();
      if (!webhookSecret) throw new AppError(503, 'payment_not_configured', 'The webhook signing secret is not configured.');
      let event: Stripe.Event;
      try {
        if (!signature) throw new Error('no signature');
        event = deps.gateway.verifyEvent(rawBody, signature, webhookSecret);
      } catch {
        throw new AppError(400, 'invalid_signature', 'The webhook signature is missing or not valid.');
      }
      if (await billing.isEventProcessed(event.id)) return { received: true, duplicate: true };
      if (isHandled(event.type)) await deps.confirmation.apply(event.data.object as Stripe.Checkout.Session, event.type);
      await billing.recordEvent({ id: event.id, provider: 'stripe', type: event.type }, deps.clock());
      return { received: true };
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;

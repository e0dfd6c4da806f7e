import type { SubscriptionStatus, TransactionStatus } from '../../../../shared/billing.js';
import type { Db } from '../../db/knex.js';
import { parseJson, toBool, toDate, toDateOrNull, toJson } from '../../db/values.js';

export type CheckoutKind = 'purchase' | 'renewal';

/** What was bought, copied from the plan at checkout: a later change to the plan does not change a sale. */
export interface SubscriptionMetadata {
  plan_id: string;
  plan_name: string;
  price: number;
  kind: CheckoutKind;
  days: number;
  data_limit: number;
  locations: string;
  /** The payment error (spec: the subscription stays incomplete with the error in its metadata). */
  error?: string;
  /** When the account was created or extended for this payment. */
  fulfilled_at?: string;
}

export interface SubscriptionRecord {
  id: string;
  userId: string;
  vpnAccountId: string | null;
  providerId: string | null;
  providerName: string | null;
  planId: string | null;
  status: SubscriptionStatus;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  metadata: SubscriptionMetadata;
  createdAt: Date;
}

export interface TransactionRecord {
  id: string;
  subscriptionId: string;
  userId: string;
  status: TransactionStatus;
  amount: number;
  currency: string;
  providerTransactionId: string | null;
  metadata: { plan_name?: string; kind?: CheckoutKind; error?: string; payment_intent?: string | null };
  createdAt: Date;
}

export interface NewCheckout {
  subscription: { id: string; userId: string; vpnAccountId: string | null; providerId: string | null; planId: string; metadata: SubscriptionMetadata };
  transaction: { id: string; amount: number; currency: string };
}

function toSubscription(row: Record<string, unknown>): SubscriptionRecord {
  return {
    id: row.id as string,
    userId: row.user_id as string,
    vpnAccountId: (row.vpn_account_id as string | null) ?? null,
    providerId: (row.provider_id as string | null) ?? null,
    providerName: (row.provider_name as string | null) ?? null,
    planId: (row.plan_id as string | null) ?? null,
    status: row.status as SubscriptionStatus,
    currentPeriodStart: toDateOrNull(row.current_period_start),
    currentPeriodEnd: toDateOrNull(row.current_period_end),
    cancelAtPeriodEnd: toBool(row.cancel_at_period_end),
    canceledAt: toDateOrNull(row.canceled_at),
    metadata: parseJson<SubscriptionMetadata>(row.metadata, {} as SubscriptionMetadata),
    createdAt: toDate(row.created_at),
  };
}

function toTransaction(row: Record<string, unknown>): TransactionRecord {
  return {
    id: row.id as string,
    subscriptionId: row.subscription_id as string,
    userId: row.user_id as string,
    status: row.status as TransactionStatus,
    amount: Number(row.amount),
    currency: row.currency as string,
    providerTransactionId: (row.provider_transaction_id as string | null) ?? null,
    metadata: parseJson<TransactionRecord['metadata']>(row.metadata, {}),
    createdAt: toDate(row.created_at),
  };
}

const SUBSCRIPTION_COLUMNS = [
  's.id', 's.user_id', 's.vpn_account_id', 's.provider_id', 's.plan_id', 's.status', 's.current_period_start', 's.current_period_end',
  's.cancel_at_period_end', 's.canceled_at', 's.metadata', 's.created_at', 'pp.name as provider_name',
];

/**
 * Subscriptions, transactions and processed webhook events. Methods that take part in a payment's
 * state change take the transaction (`trx`) they run in.
 */
export function createBillingRepo(db: Db) {
  const subscriptions = (conn: Db = db) =>
    conn('subscriptions as s').leftJoin('payment_providers as pp', 'pp.id', 's.provider_id').select(SUBSCRIPTION_COLUMNS);

  return {
    async insertCheckout(checkout: NewCheckout, now: Date, trx: Db): Promise<void> {
      const { subscription: sub, transaction: tx } = checkout;
      await trx('subscriptions').insert({
        id: sub.id, user_id: sub.userId, vpn_account_id: sub.vpnAccountId, provider_id: sub.providerId, plan_id: sub.planId,
        status: 'incomplete', cancel_at_period_end: false, metadata: toJson(sub.metadata), created_at: now, updated_at: now,
      });
      await trx('transactions').insert({
        id: tx.id, subscription_id: sub.id, user_id: sub.userId, status: 'pending', amount: tx.amount, currency: tx.currency,
        provider_transaction_id: null, metadata: toJson({ plan_name: sub.metadata.plan_name, kind: sub.metadata.kind }), created_at: now, updated_at: now,
      });
    },

    /** Removes a checkout that never reached the provider (its transaction goes with it). */
    async deleteCheckout(subscriptionId: string, trx: Db): Promise<void> {
      await trx('transactions').where({ subscription_id: subscriptionId }).delete();
      await trx('subscriptions').where({ id: subscriptionId }).delete();
    },

    async setProviderTransactionId(transactionId: string, sessionId: string, now: Date): Promise<void> {
      await db('transactions').where({ id: transactionId }).whereNull('provider_transaction_id').update({ provider_transaction_id: sessionId, updated_at: now });
    },

    async findTransaction(id: string, trx: Db = db): Promise<TransactionRecord | undefined> {
      const row = await trx('transactions').select('*').where({ id }).first();
      return row && toTransaction(row);
    },

    async findTransactionBySession(sessionId: string): Promise<TransactionRecord | undefined> {
      const row = await db('transactions').select('*').where({ provider_transaction_id: sessionId }).first();
      return row && toTransaction(row);
    },

    /** The caller's own transaction for a Checkout Session: someone else's is simply not found. */
    async findTransactionBySessionForUser(sessionId: string, userId: string): Promise<TransactionRecord | undefined> {
      const row = await db('transactions').select('*').where({ provider_transaction_id: sessionId, user_id: userId }).first();
      return row && toTransaction(row);
    },

    /**
     * pending/failed → succeeded, once: the conditional update is the exactly-once gate (a second
     * caller, racing or late, changes 0 rows). Returns true for the caller that made the change.
     */
    async markTransactionSucceeded(id: string, details: { sessionId: string; paymentIntent: string | null }, now: Date, trx: Db): Promise<boolean> {
      const current = await this.findTransaction(id, trx);
      if (!current) return false;
      const changed = await trx('transactions')
        .where({ id })
        .whereNot('status', 'succeeded')
        .update({
          status: 'succeeded', provider_transaction_id: details.sessionId,
          metadata: toJson({ ...current.metadata, error: undefined, payment_intent: details.paymentIntent }), updated_at: now,
        });
      return changed > 0;
    },

    /** pending → failed, once; a succeeded payment never becomes failed. */
    async markTransactionFailed(id: string, error: string, now: Date, trx: Db): Promise<boolean> {
      const current = await this.findTransaction(id, trx);
      if (!current) return false;
      const changed = await trx('transactions')
        .where({ id, status: 'pending' })
        .update({ status: 'failed', metadata: toJson({ ...current.metadata, error }), updated_at: now });
      return changed > 0;
    },

    async findSubscription(id: string, trx: Db = db): Promise<SubscriptionRecord | undefined> {
      const row = await subscriptions(trx).where('s.id', id).first();
      return row && toSubscription(row);
    },

    async updateSubscription(
      id: string,
      changes: Partial<{ status: SubscriptionStatus; vpnAccountId: string | null; currentPeriodStart: Date; currentPeriodEnd: Date; metadata: SubscriptionMetadata }>,
      now: Date,
      trx: Db = db,
    ): Promise<void> {
      await trx('subscriptions').where({ id }).update({
        ...(changes.status !== undefined ? { status: changes.status } : {}),
        ...(changes.vpnAccountId !== undefined ? { vpn_account_id: changes.vpnAccountId } : {}),
        ...(changes.currentPeriodStart !== undefined ? { current_period_start: changes.currentPeriodStart } : {}),
        ...(changes.currentPeriodEnd !== undefined ? { current_period_end: changes.currentPeriodEnd } : {}),
        ...(changes.metadata !== undefined ? { metadata: toJson(changes.metadata) } : {}),
        updated_at: now,
      });
    },

    /** The latest paid period end of an account: a renewal starts from it, and its panel expiry is set to it. */
    async latestPaidPeriodEnd(vpnAccountId: string, trx: Db = db): Promise<Date | null> {
      const row = await trx('subscriptions').where({ vpn_account_id: vpnAccountId, status: 'active' }).max({ latest: 'current_period_end' }).first();
      return toDateOrNull(row?.latest);
    },

    async listSubscriptionsForUser(userId: string): Promise<SubscriptionRecord[]> {
      const rows = await subscriptions().where('s.user_id', userId).orderBy([{ column: 's.created_at', order: 'desc' }, { column: 's.id', order: 'desc' }]);
      return rows.map(toSubscription);
    },

    async findSubscriptionForUser(id: string, userId: string): Promise<SubscriptionRecord | undefined> {
      const row = await subscriptions().where({ 's.id': id, 's.user_id': userId }).first();
      return row && toSubscription(row);
    },

    /** Spec: cancel sets cancel_at_period_end and canceled_at; the status is unchanged. */
    async cancelSubscription(id: string, now: Date): Promise<void> {
      await db('subscriptions').where({ id }).update({ cancel_at_period_end: true, canceled_at: now, updated_at: now });
    },

    async listTransactionsForUser(userId: string): Promise<TransactionRecord[]> {
      const rows = await db('transactions').select('*').where({ user_id: userId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
      return rows.map(toTransaction);
    },

    async countTransactions(filter: { status?: TransactionStatus } = {}): Promise<number> {
      const row = await db('transactions').where(filter).count({ count: '*' }).first();
      return Number(row?.count ?? 0);
    },

    async isEventProcessed(eventId: string): Promise<boolean> {
      return (await db('webhook_events').select('id').where({ id: eventId }).first()) !== undefined;
    },

    async recordEvent(event: { id: string; provider: string; type: string }, now: Date): Promise<void> {
      await db('webhook_events').insert({ id: event.id, provider: event.provider, type: event.type, processed_at: now }).onConflict('id').ignore();
    },
  };
}

export type BillingRepo = ReturnType<typeof createBillingRepo>;

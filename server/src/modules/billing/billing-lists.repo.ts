import type { TransactionStatus } from '../../../../shared/billing.js';
import type { Db } from '../../db/knex.js';
import type { SubscriptionRecord, TransactionRecord } from './billing.repo.js';
import { selectSubscriptions, toSubscriptionRecord, toTransactionRecord } from './billing-rows.js';

/**
 * What pages and jobs list: open checkouts, a customer's subscriptions and transactions, the admin's
 * transactions; and the log of processed webhook events.
 */

export function billingListRows(db: Db) {
  return {
    /** Open payments of one provider whose checkout was created, oldest first, with the provider account that took each. */
    async listOpenCheckouts(
      providerName: string,
      limit: number,
    ): Promise<Array<{ transactionId: string; checkoutId: string; providerAccountId: string | null }>> {
      const rows = await db('transactions as t')
        .join('subscriptions as s', 's.id', 't.subscription_id')
        .join('payment_providers as pp', 'pp.id', 's.provider_id')
        .where({ 't.status': 'pending', 'pp.name': providerName })
        .whereNotNull('t.provider_transaction_id')
        .select('t.id', 't.provider_transaction_id', 't.provider_account_id', 's.provider_account_id as subscription_account_id')
        .orderBy('t.created_at', 'asc')
        .limit(limit);
      return rows.map((row: Record<string, unknown>) => ({
        transactionId: row.id as string,
        checkoutId: row.provider_transaction_id as string,
        providerAccountId: (row.provider_account_id as string | null) ?? (row.subscription_account_id as string | null) ?? null,
      }));
    },

    /** Checkouts of this account still waiting for their payment (a renewal in progress). */
    async listPendingForAccount(vpnAccountId: string, trx: Db = db): Promise<TransactionRecord[]> {
      const rows = await trx('transactions as t')
        .join('subscriptions as s', 's.id', 't.subscription_id')
        .where({ 's.vpn_account_id': vpnAccountId, 't.status': 'pending' })
        .select('t.*');
      return rows.map(toTransactionRecord);
    },

    /** Whether a payment for this account is being disputed (the account stays disabled until it is closed). */
    async hasOpenDispute(vpnAccountId: string, trx: Db = db): Promise<boolean> {
      const row = await trx('transactions as t')
        .join('subscriptions as s', 's.id', 't.subscription_id')
        .where({ 's.vpn_account_id': vpnAccountId, 't.status': 'disputed' })
        .select('t.id')
        .first();
      return row !== undefined;
    },

    async listSubscriptionsForUser(userId: string): Promise<SubscriptionRecord[]> {
      const rows = await selectSubscriptions(db)
        .where('s.user_id', userId)
        .orderBy([
          { column: 's.created_at', order: 'desc' },
          { column: 's.id', order: 'desc' },
        ]);
      return rows.map(toSubscriptionRecord);
    },

    async findSubscriptionForUser(id: string, userId: string): Promise<SubscriptionRecord | undefined> {
      const row = await selectSubscriptions(db).where({ 's.id': id, 's.user_id': userId }).first();
      return row && toSubscriptionRecord(row);
    },

    async listTransactionsForUser(userId: string): Promise<TransactionRecord[]> {
      const rows = await db('transactions as t')
        .join('subscriptions as s', 's.id', 't.subscription_id')
        .leftJoin('payment_providers as pp', 'pp.id', 's.provider_id')
        .select('t.*', 'pp.name as provider_name')
        .where({ 't.user_id': userId })
        .orderBy([
          { column: 't.created_at', order: 'desc' },
          { column: 't.id', order: 'desc' },
        ]);
      return rows.map(toTransactionRecord);
    },

    /** The newest transactions of every customer, with the customer's e-mail, for the admin. */
    /**
     * `providerName`: the provider that took them; null for orders no provider took (paid from the balance, or free).
     * `giftCode`: only those a gift code was redeemed for (true), or none of them (false).
     */
    async listTransactionsForAdmin(filter: {
      status?: TransactionStatus;
      id?: string;
      userId?: string;
      providerName?: string | null;
      giftCode?: boolean;
      limit: number;
    }): Promise<Array<TransactionRecord & { userEmail: string }>> {
      const query = db('transactions as t')
        .join('user_profiles as u', 'u.id', 't.user_id')
        .join('subscriptions as s', 's.id', 't.subscription_id')
        .leftJoin('payment_providers as pp', 'pp.id', 's.provider_id')
        .select('t.*', 'u.email as user_email', 'pp.name as provider_name')
        .orderBy([
          { column: 't.created_at', order: 'desc' },
          { column: 't.id', order: 'desc' },
        ])
        .limit(filter.limit);
      if (filter.status) query.where('t.status', filter.status);
      if (filter.id) query.where('t.id', filter.id);
      if (filter.userId) query.where('t.user_id', filter.userId);
      if (filter.providerName === null) query.whereNull('pp.name');
      else if (filter.providerName) query.where('pp.name', filter.providerName);
      if (filter.giftCode !== undefined) {
        const giftCode = db.client.config.client === 'pg' ? "t.metadata->>'gift_code'" : "json_extract(t.metadata, '$.gift_code')";
        query.whereRaw(`${giftCode} is ${filter.giftCode ? 'not ' : ''}null`);
      }
      const rows = await query;
      return rows.map((row: Record<string, unknown>) => ({ ...toTransactionRecord(row), userEmail: row.user_email as string }));
    },

    /**
     * Records a provider's event inside the transaction that applies it. Only the caller whose insert
     * took applies the event: a duplicate (redelivered, or racing) inserts nothing and returns false.
     */
    async recordEvent(event: { id: string; provider: string; type: string }, now: Date, trx: Db): Promise<boolean> {
      const inserted = await trx('webhook_events')
        .insert({ id: event.id, provider: event.provider, type: event.type, processed_at: now })
        .onConflict('id')
        .ignore()
        .returning('id');
      return inserted.length > 0;
    },
  };
}

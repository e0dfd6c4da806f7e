import type { Db } from '../../db/knex.js';
import { toJson } from '../../db/values.js';
import type { NewCheckout, TransactionRecord } from './billing.repo.js';
import { isLockable, toTransactionRecord } from './billing-rows.js';

/** A checkout's rows as it is opened (or taken back), and its transaction found again by our id or the provider's. */

/** Our order ids (transactions.id) are UUIDs. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function billingOrderRows(db: Db) {
  const lockable = isLockable(db);

  return {
    async insertCheckout(checkout: NewCheckout, now: Date, trx: Db): Promise<void> {
      const { subscription: sub, transaction: tx } = checkout;
      await trx('subscriptions').insert({
        id: sub.id,
        user_id: sub.userId,
        vpn_account_id: sub.vpnAccountId,
        provider_id: sub.providerId,
        provider_account_id: sub.providerAccountId ?? null,
        plan_id: sub.planId,
        status: 'incomplete',
        billing: sub.billing,
        cancel_at_period_end: false,
        metadata: toJson(sub.metadata),
        created_at: now,
        updated_at: now,
      });
      await trx('transactions').insert({
        id: tx.id,
        subscription_id: sub.id,
        user_id: sub.userId,
        status: 'pending',
        amount: tx.amount,
        discount: tx.promo?.discount ?? 0,
        currency: tx.currency,
        provider_transaction_id: tx.providerTransactionId ?? null,
        provider_account_id: sub.providerAccountId ?? null,
        metadata: toJson({
          plan_name: sub.metadata.plan_name,
          kind: sub.metadata.kind,
          ...(tx.promo ? { promo: tx.promo } : {}),
          ...(tx.gift_code ? { gift_code: tx.gift_code } : {}),
          ...(tx.credit_spent ? { credit_spent: tx.credit_spent } : {}),
        }),
        created_at: now,
        updated_at: now,
      });
    },

    /** Removes a checkout that never reached the provider (its transaction goes with it). */
    async deleteCheckout(subscriptionId: string, trx: Db): Promise<void> {
      await trx('transactions').where({ subscription_id: subscriptionId }).delete();
      await trx('subscriptions').where({ id: subscriptionId }).delete();
    },

    async setProviderTransactionId(transactionId: string, sessionId: string, now: Date): Promise<void> {
      await db('transactions')
        .where({ id: transactionId })
        .whereNull('provider_transaction_id')
        .update({ provider_transaction_id: sessionId, updated_at: now });
    },

    async findTransaction(id: string, trx: Db = db): Promise<TransactionRecord | undefined> {
      const row = await trx('transactions').select('*').where({ id }).first();
      return row && toTransactionRecord(row);
    },

    /** A transaction, its row held until `trx` ends (PostgreSQL): changes to its refunds queue one behind the other. */
    async findTransactionForUpdate(id: string, trx: Db): Promise<TransactionRecord | undefined> {
      const query = trx('transactions').select('*').where({ id });
      if (lockable) query.forUpdate();
      const row = await query.first();
      return row && toTransactionRecord(row);
    },

    async findTransactionBySession(sessionId: string, trx: Db = db): Promise<TransactionRecord | undefined> {
      const row = await trx('transactions').select('*').where({ provider_transaction_id: sessionId }).first();
      return row && toTransactionRecord(row);
    },

    /**
     * The caller's payment by the id the return page carries: the provider's checkout id, or our own order id
     * (providers that make their id only when the payment is created send the customer back with ours);
     * someone else's is simply not found.
     */
    async findTransactionBySessionForUser(sessionId: string, userId: string): Promise<TransactionRecord | undefined> {
      const bySession = await db('transactions').select('*').where({ provider_transaction_id: sessionId, user_id: userId }).first();
      if (bySession) return toTransactionRecord(bySession);
      if (!UUID.test(sessionId)) return undefined;
      const byOrder = await db('transactions').select('*').where({ id: sessionId, user_id: userId }).first();
      return byOrder && toTransactionRecord(byOrder);
    },
  };
}

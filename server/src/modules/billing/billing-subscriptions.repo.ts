import type { Db } from '../../db/knex.js';
import { toDate, toJson } from '../../db/values.js';
import type { SubscriptionMetadata, SubscriptionRecord, TransactionMetadata, TransactionRecord } from './billing.repo.js';
import { isLockable, selectSubscriptions, toSubscriptionRecord, toTransactionRecord } from './billing-rows.js';
import { changeTransactionStatus, type BillingRepoOptions } from './billing-transitions.repo.js';
import { movesOf, type SubscriptionEvent } from '../orders/index.js';

/** Subscriptions as payments change them, and the invoices and renewal charges of recurring ones. */

/** The status column after `event`: each move of the table for the status the row has, the same status otherwise. */
function statusAfter(trx: Db, event: SubscriptionEvent) {
  const moves = movesOf(event);
  return trx.raw(
    `case status ${moves.map(() => 'when ? then ?').join(' ')} else status end`,
    moves.flatMap((move) => [move.from, move.to]),
  );
}

/** A payment's subscription: found (locked for a change where asked), updated, and an account's renewing one. */
export function billingSubscriptionRows(db: Db) {
  const subscriptions = (conn: Db = db) => selectSubscriptions(conn);
  const lockable = isLockable(db);

  return {
    /**
     * Holds the account's row until the transaction ends, so payments that change its paid period
     * queue one behind the other (PostgreSQL; SQLite has a single writer anyway).
     */
    async lockAccount(vpnAccountId: string, trx: Db): Promise<void> {
      if (lockable) await trx('vpn_accounts').select('id').where({ id: vpnAccountId }).forUpdate().first();
    },

    async findSubscription(id: string, trx: Db = db): Promise<SubscriptionRecord | undefined> {
      const row = await subscriptions(trx).where('s.id', id).first();
      return row && toSubscriptionRecord(row);
    },

    /** The subscription, its row locked until `trx` ends (changes to it queue behind each other). */
    async findSubscriptionForUpdate(id: string, trx: Db): Promise<SubscriptionRecord | undefined> {
      const lock = trx('subscriptions').select('id').where({ id });
      if (lockable) lock.forUpdate();
      if (!(await lock.first())) return undefined;
      const row = await subscriptions(trx).where('s.id', id).first();
      return row && toSubscriptionRecord(row);
    },

    /** Changes its fields; its status only through `event`, by the table of subscription-states.ts. */
    async updateSubscription(
      id: string,
      changes: Partial<{
        event: SubscriptionEvent;
        vpnAccountId: string | null;
        currentPeriodStart: Date;
        currentPeriodEnd: Date;
        cancelAtPeriodEnd: boolean;
        canceledAt: Date | null;
        providerSubscriptionId: string;
        metadata: SubscriptionMetadata;
        savedMethodId: string | null;
      }>,
      now: Date,
      trx: Db = db,
    ): Promise<void> {
      await trx('subscriptions')
        .where({ id })
        .update({
          ...(changes.event !== undefined ? { status: statusAfter(trx, changes.event) } : {}),
          ...(changes.vpnAccountId !== undefined ? { vpn_account_id: changes.vpnAccountId } : {}),
          ...(changes.currentPeriodStart !== undefined ? { current_period_start: changes.currentPeriodStart } : {}),
          ...(changes.currentPeriodEnd !== undefined ? { current_period_end: changes.currentPeriodEnd } : {}),
          ...(changes.canceledAt !== undefined ? { canceled_at: changes.canceledAt } : {}),
          ...(changes.savedMethodId !== undefined ? { saved_method_id: changes.savedMethodId } : {}),
          ...(changes.cancelAtPeriodEnd !== undefined ? { cancel_at_period_end: changes.cancelAtPeriodEnd } : {}),
          ...(changes.providerSubscriptionId !== undefined ? { provider_subscription_id: changes.providerSubscriptionId } : {}),
          ...(changes.metadata !== undefined ? { metadata: toJson(changes.metadata) } : {}),
          updated_at: now,
        });
    },

    /** The account's recurring subscription that will charge again (active or past_due, auto-renew on), if any. */
    async renewingSubscriptionOf(vpnAccountId: string, trx: Db = db): Promise<SubscriptionRecord | undefined> {
      const row = await subscriptions(trx)
        .where({ 's.vpn_account_id': vpnAccountId, 's.billing': 'recurring', 's.cancel_at_period_end': false })
        .whereIn('s.status', ['active', 'past_due'])
        .orderBy('s.created_at', 'desc')
        .first();
      return row && toSubscriptionRecord(row);
    },

    /** A recurring subscription by the provider's id or, before it is linked, by ours; locked for the change (PostgreSQL). */
    async findRecurring(ref: { providerSubscriptionId: string; orderRef: string | null }, trx: Db): Promise<SubscriptionRecord | undefined> {
      const byProvider = await trx('subscriptions').select('id').where({ provider_subscription_id: ref.providerSubscriptionId }).first();
      const id = (byProvider?.id as string | undefined) ?? ref.orderRef;
      if (!id) return undefined;
      const lock = trx('subscriptions').select('id').where({ id, billing: 'recurring' });
      if (lockable) lock.forUpdate();
      if (!(await lock.first())) return undefined;
      const row = await subscriptions(trx).where('s.id', id).first();
      const found = row && toSubscriptionRecord(row);
      // Our id copied onto another provider subscription: not this one.
      if (found?.providerSubscriptionId && found.providerSubscriptionId !== ref.providerSubscriptionId) return undefined;
      return found;
    },
  };
}

/** The transactions of a recurring subscription's invoices, and the renewals this server charges itself. */
export function billingInvoiceRows(db: Db, repoOptions: BillingRepoOptions) {
  return {
    /** The transaction of an invoice, or of a recurring subscription's first payment (made at checkout, before its invoice was known). */
    async findInvoiceTransaction(subscriptionId: string, invoiceId: string, first: boolean, trx: Db): Promise<TransactionRecord | undefined> {
      const byInvoice = await trx('transactions').select('*').where({ provider_invoice_id: invoiceId }).first();
      if (byInvoice) return toTransactionRecord(byInvoice);
      if (!first) return undefined;
      const row = await trx('transactions')
        .select('*')
        .where({ subscription_id: subscriptionId })
        .whereNull('provider_invoice_id')
        .orderBy('created_at', 'asc')
        .first();
      return row && toTransactionRecord(row);
    },

    /** A renewal invoice's transaction, once: a second insert for the same invoice adds nothing (unique invoice id). */
    async insertInvoiceTransaction(
      tx: { id: string; subscriptionId: string; userId: string; invoiceId: string; amount: number; currency: string; metadata: TransactionMetadata },
      now: Date,
      trx: Db,
    ): Promise<void> {
      await trx('transactions')
        .insert({
          id: tx.id,
          subscription_id: tx.subscriptionId,
          user_id: tx.userId,
          status: 'pending',
          amount: tx.amount,
          discount: tx.metadata.promo?.discount ?? 0,
          currency: tx.currency,
          provider_invoice_id: tx.invoiceId,
          metadata: toJson(tx.metadata),
          created_at: now,
          updated_at: now,
          // The account that bills the subscription took the renewal.
          provider_account_id: trx('subscriptions').select('provider_account_id').where({ id: tx.subscriptionId }),
        })
        .onConflict('provider_invoice_id')
        .ignore();
    },

    /**
     * Counts the next try of a renewal charge before it is sent, when `made` tries were made so far and the charge is
     * still open: true for the one caller that moved the counter.
     */
    async countChargeAttempt(id: string, made: number, now: Date, trx: Db): Promise<boolean> {
      // Compare and set: two runners that both saw `made` tries count one; the other finds the try in progress.
      const changed = await trx('transactions')
        .where({ id, charge_attempts: made })
        .whereIn('status', ['pending', 'failed'])
        .update({ charge_attempts: made + 1, updated_at: now });
      return changed > 0;
    },

    /** Subscriptions this server renews whose period ends before `before` (their renewal is due to be charged), oldest end first. */
    async listStoreRenewalsDue(before: Date, limit: number): Promise<Array<{ id: string; vpnAccountId: string | null; currentPeriodEnd: Date }>> {
      const rows = await db('subscriptions')
        .select('id', 'vpn_account_id', 'current_period_end')
        .where({ billing: 'recurring', cancel_at_period_end: false })
        .whereNotNull('saved_method_id')
        .whereIn('status', ['active', 'past_due'])
        .where('current_period_end', '<=', before)
        .orderBy('current_period_end', 'asc')
        .limit(limit);
      return rows.map((row: Record<string, unknown>) => ({
        id: row.id as string,
        vpnAccountId: (row.vpn_account_id as string | null) ?? null,
        currentPeriodEnd: toDate(row.current_period_end),
      }));
    },

    /** pending/failed → succeeded for an invoice, once; it records the invoice and its payment (the period it bought goes to the ledger). */
    async markInvoicePaid(
      id: string,
      details: { invoiceId: string; paymentRef: string | null; amount?: number; creditApplied?: number },
      now: Date,
      trx: Db,
    ): Promise<boolean> {
      return changeTransactionStatus(
        db,
        repoOptions,
        id,
        ['paid'],
        (current) => {
          const { error: _cleared, ...metadata } = current.metadata;
          // A first invoice the customer's credit balance paid part of: the transaction is what the card paid.
          // (A plan change's proration invoice: what it charged, which is what the transaction is for.)
          const credit = details.creditApplied
            ? { amount: details.amount ?? current.amount, metadata: toJson({ ...metadata, credit_applied: details.creditApplied }) }
            : { ...(details.amount !== undefined ? { amount: details.amount } : {}), metadata: toJson(metadata) };
          return { provider_invoice_id: details.invoiceId, provider_payment_id: details.paymentRef, ...credit };
        },
        now,
        trx,
      );
    },

    /** A paid invoice's payment, learnt late (the event did not carry it): refunds and disputes can find it from now on. */
    async setPaymentRef(id: string, paymentRef: string, now: Date, trx: Db): Promise<void> {
      await trx('transactions').where({ id }).whereNull('provider_payment_id').update({ provider_payment_id: paymentRef, updated_at: now });
    },

    async setTransactionMetadata(id: string, metadata: TransactionMetadata, now: Date, trx: Db = db): Promise<void> {
      await trx('transactions')
        .where({ id })
        .update({ metadata: toJson(metadata), updated_at: now });
    },
  };
}

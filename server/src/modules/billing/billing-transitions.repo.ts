import type { CryptoProgress } from '../../../../shared/billing.js';
import type { Db } from '../../db/knex.js';
import { parseJson, toJson } from '../../db/values.js';
import type { TransactionMetadata, TransactionRecord, TransactionTransitionListener } from './billing.repo.js';
import { isLockable, toTransactionRecord } from './billing-rows.js';
import { sourcesOf, targetOf, type TransactionEvent } from '../orders/index.js';

/**
 * A payment's status changes (paid, failed, cancelled, held for review, refunded, disputed) and what goes with
 * them: each one goes through changeTransactionStatus, which tells the repository's listener of it.
 */

/** What the billing repository is created with: the listener told of every status change of a transaction. */
export interface BillingRepoOptions {
  onTransition?: TransactionTransitionListener;
}

/**
 * The one way a transaction's status changes: `events` (all leading to the same status) allow exactly
 * the `from` statuses transaction-states.ts lists for them, and the conditional update is the
 * exactly-once gate (a second caller, racing or late, changes 0 rows). True for the caller that changed it.
 */
export async function changeTransactionStatus(
  db: Db,
  options: BillingRepoOptions,
  id: string,
  events: TransactionEvent[],
  patch: (current: TransactionRecord) => Record<string, unknown>,
  now: Date,
  trx: Db,
): Promise<boolean> {
  const to = targetOf(events[0]!);
  if (events.some((event) => targetOf(event) !== to)) throw new Error(`The events ${events.join(', ')} lead to different statuses`);
  const from = [...new Set(events.flatMap(sourcesOf))];
  const read = trx('transactions').select('*').where({ id });
  if (isLockable(db)) read.forUpdate();
  const row = await read.first();
  if (!row) return false;
  const current = toTransactionRecord(row);
  const patched = patch(current);
  const changed = await trx('transactions')
    .where({ id })
    .whereIn('status', from)
    .update({ status: to, ...patched, updated_at: now });
  if (changed === 0) return false;
  const event = events.find((candidate) => sourcesOf(candidate).includes(current.status))!;
  const after = toTransactionRecord({ ...row, status: to, ...patched, updated_at: now });
  await options.onTransition?.(after, event, now, trx);
  return true;
}

/** A transaction's rows for its status changes: `paymentOutcomeRows` as it is paid (or not), `paymentReversalRows` as money goes back. */
export function billingTransitionRows(db: Db, repoOptions: BillingRepoOptions) {
  return { ...paymentOutcomeRows(db, repoOptions), ...paymentReversalRows(db, repoOptions) };
}

/** Paid, partly paid (crypto), failed, cancelled, or paid but not what was ordered. */
function paymentOutcomeRows(db: Db, repoOptions: BillingRepoOptions) {
  return {
    /**
     * pending/failed → succeeded, once: the conditional update is the exactly-once gate (a second
     * caller, racing or late, changes 0 rows). Returns true for the caller that made the change.
     */
    async markTransactionSucceeded(
      id: string,
      details: {
        checkoutId: string;
        paymentRef: string | null;
        cardFingerprint?: string | null;
        fromReview?: boolean;
        overpaid?: TransactionMetadata['overpaid'];
      },
      now: Date,
      trx: Db,
    ): Promise<boolean> {
      // needs_review only when the caller says so: a crypto invoice closed part-paid that was paid in full after all.
      const events: TransactionEvent[] = details.fromReview ? ['paid', 'paid_after_review'] : ['paid'];
      return changeTransactionStatus(
        db,
        repoOptions,
        id,
        events,
        (current) => {
          const { error: _cleared, ...metadata } = current.metadata;
          return {
            provider_transaction_id: details.checkoutId,
            provider_payment_id: details.paymentRef,
            ...(details.cardFingerprint ? { card_fingerprint: details.cardFingerprint } : {}),
            metadata: toJson({ ...metadata, ...(details.overpaid ? { overpaid: details.overpaid } : {}) }),
          };
        },
        now,
        trx,
      );
    },

    /**
     * A crypto payment still open: records what BTCPay has seen (a payment waiting for confirmations, a
     * partial one). A payment seen after the invoice expired (`reopen`) takes a failed one back to pending.
     */
    async recordCryptoProgress(id: string, crypto: CryptoProgress, now: Date, trx: Db, options: { reopen?: boolean } = {}): Promise<boolean> {
      return changeTransactionStatus(
        db,
        repoOptions,
        id,
        options.reopen ? ['crypto_progress', 'late_payment_seen'] : ['crypto_progress'],
        (current) => {
          const { error: _cleared, ...metadata } = current.metadata;
          return { metadata: toJson({ ...(options.reopen ? metadata : current.metadata), crypto }) };
        },
        now,
        trx,
      );
    },

    /** pending → failed, once; a succeeded payment never becomes failed. */
    async markTransactionFailed(id: string, error: string, now: Date, trx: Db): Promise<boolean> {
      return changeTransactionStatus(db, repoOptions, id, ['failed'], (current) => ({ metadata: toJson({ ...current.metadata, error }) }), now, trx);
    },

    /** pending → cancelled: the customer cancelled at the provider's page; `error` says so. */
    async markTransactionCancelled(id: string, error: string, now: Date, trx: Db): Promise<boolean> {
      return changeTransactionStatus(db, repoOptions, id, ['cancelled'], (current) => ({ metadata: toJson({ ...current.metadata, error }) }), now, trx);
    },

    /** pending/failed → needs_review: paid, but not what was ordered; nothing is delivered until an admin acts. */
    async markTransactionNeedsReview(
      id: string,
      details: { checkoutId: string; paymentRef: string | null; review: NonNullable<TransactionMetadata['review']> },
      now: Date,
      trx: Db,
    ): Promise<boolean> {
      return changeTransactionStatus(
        db,
        repoOptions,
        id,
        ['held_for_review'],
        (current) => ({
          provider_transaction_id: details.checkoutId,
          provider_payment_id: details.paymentRef,
          metadata: toJson({ ...current.metadata, review: details.review }),
        }),
        now,
        trx,
      );
    },
  };
}

/** Refunded (in full, in part, or by a lost dispute), disputed, or the dispute won; and the refund a crypto customer claims. */
function paymentReversalRows(db: Db, repoOptions: BillingRepoOptions) {
  const lockable = isLockable(db);

  return {
    /** → refunded, once: a full refund, or (with `dispute`) a lost dispute. */
    async markTransactionRefunded(
      id: string,
      details: { amountRefunded: number; reason?: string; dispute?: TransactionMetadata['dispute'] },
      now: Date,
      trx: Db,
    ): Promise<boolean> {
      return changeTransactionStatus(
        db,
        repoOptions,
        id,
        [details.dispute?.status === 'lost' ? 'dispute_lost' : 'refunded'],
        (current) => ({
          amount_refunded: Math.max(current.amountRefunded, details.amountRefunded),
          metadata: toJson({
            ...current.metadata,
            refunded_at: now.toISOString(),
            ...(details.reason ? { refund_reason: details.reason } : {}),
            ...(details.dispute ? { dispute: details.dispute } : {}),
          }),
        }),
        now,
        trx,
      );
    },

    /** succeeded → disputed, once per dispute. */
    async markTransactionDisputed(id: string, dispute: NonNullable<TransactionMetadata['dispute']>, now: Date, trx: Db): Promise<boolean> {
      return changeTransactionStatus(db, repoOptions, id, ['disputed'], (current) => ({ metadata: toJson({ ...current.metadata, dispute }) }), now, trx);
    },

    /** disputed → succeeded: the dispute was won. */
    async markDisputeWon(id: string, disputeId: string, now: Date, trx: Db): Promise<boolean> {
      return changeTransactionStatus(
        db,
        repoOptions,
        id,
        ['dispute_won'],
        (current) => ({ metadata: toJson({ ...current.metadata, dispute: { id: disputeId, status: 'won' } }) }),
        now,
        trx,
      );
    },

    /** A crypto refund: where the customer claims it (the refund e-mail links it). */
    async setRefundClaimUrl(id: string, url: string, now: Date, trx: Db): Promise<void> {
      const read = trx('transactions').select('metadata').where({ id });
      if (lockable) read.forUpdate();
      const row = await read.first();
      if (!row) return;
      await trx('transactions')
        .where({ id })
        .update({ metadata: toJson({ ...parseJson<TransactionMetadata>(row.metadata, {}), refund_claim_url: url }), updated_at: now });
    },

    /** Raises the refunded total (never lowers it: a late or repeated event cannot undo a later one). True when it rose. */
    async recordAmountRefunded(id: string, amountRefunded: number, now: Date, trx: Db): Promise<boolean> {
      const changed = await trx('transactions')
        .where({ id })
        .where('amount_refunded', '<', amountRefunded)
        .update({ amount_refunded: amountRefunded, updated_at: now });
      return changed > 0;
    },

    /** Sets the refunded total (a refund that failed later lowers it). */
    async setAmountRefunded(id: string, amountRefunded: number, now: Date, trx: Db): Promise<void> {
      await trx('transactions')
        .where({ id })
        .update({ amount_refunded: Math.max(0, amountRefunded), updated_at: now });
    },

    /** The paid transaction a refund or dispute names, locked for the change (PostgreSQL). */
    async findTransactionByPaymentRef(paymentRef: string, trx: Db): Promise<TransactionRecord | undefined> {
      const query = trx('transactions').select('*').where({ provider_payment_id: paymentRef });
      if (lockable) query.forUpdate();
      const row = await query.first();
      return row && toTransactionRecord(row);
    },
  };
}

import type { RefundReason } from '../../../../../shared/billing.js';
import type { Db } from '../../../db/knex.js';
import { dialectOf } from '../../../db/knex.js';
import { toDate, toDateOrNull } from '../../../db/values.js';
import type { TransactionRecord } from '../billing.repo.js';

/**
 * `requested`: recorded, the provider not yet known to have it (being sent, or its answer was lost);
 * `succeeded` / `pending`: the provider has it (pending: money on its way, or a crypto refund the customer
 * has still to claim); `failed`: the provider refused it, or failed it later.
 */
export type RefundStatus = 'requested' | 'succeeded' | 'pending' | 'failed';
/**
 * Who made it: an admin (through the provider); the server, for a renewal it could not deliver; the operator in the
 * provider's own dashboard; an admin into the customer's wallet here (`wallet`), or paid back by hand (`manual`).
 */
export type RefundSource = 'admin' | 'undeliverable' | 'provider' | 'wallet' | 'manual';

export interface RefundRecord {
  id: string;
  transactionId: string;
  amount: number;
  currency: string;
  status: RefundStatus;
  source: RefundSource;
  idempotencyKey: string;
  providerRefundId: string | null;
  reason: RefundReason | null;
  note: string | null;
  claimUrl: string | null;
  error: string | null;
  actorId: string | null;
  attempts: number;
  leaseUntil: Date | null;
  createdAt: Date;
}

/** Refunds that count against what the payment can still give back: made, or on their way. */
export const COUNTED_REFUND_STATUSES: RefundStatus[] = ['requested', 'succeeded', 'pending'];

/** What a payment can give back at most: what was paid (a payment under review may differ from the order). */
export function refundCap(record: Pick<TransactionRecord, 'status' | 'amount' | 'currency' | 'metadata'>): number {
  const { review } = record.metadata;
  if (record.status === 'needs_review' && review?.amount_paid != null && review.currency_paid === record.currency) return review.amount_paid;
  return record.amount;
}

function toRefund(row: Record<string, unknown>): RefundRecord {
  return {
    id: row.id as string,
    transactionId: row.transaction_id as string,
    amount: Number(row.amount),
    currency: row.currency as string,
    status: row.status as RefundStatus,
    source: row.source as RefundSource,
    idempotencyKey: row.idempotency_key as string,
    providerRefundId: (row.provider_refund_id as string | null) ?? null,
    reason: (row.reason as RefundReason | null) ?? null,
    note: (row.note as string | null) ?? null,
    claimUrl: (row.claim_url as string | null) ?? null,
    error: (row.error as string | null) ?? null,
    actorId: (row.actor_id as string | null) ?? null,
    attempts: Number(row.attempts ?? 0),
    leaseUntil: toDateOrNull(row.lease_until),
    createdAt: toDate(row.created_at),
  };
}

/**
 * The refund ledger: a row per refund, written before the provider is asked and completed with its
 * answer. What a payment has given back is the sum of its rows that were not refused.
 */
export function createRefundsRepo(db: Db) {
  return { ...refundReads(db), ...refundWrites(db) };
}

export type RefundsRepo = ReturnType<typeof createRefundsRepo>;

/** A refund found by our id, its idempotency key or the provider's id; a payment's refunds and what they add up to; the ones left unsettled. */
function refundReads(db: Db) {
  const lockable = dialectOf(db) === 'postgres';

  return {
    async find(id: string, trx: Db = db): Promise<RefundRecord | undefined> {
      const row = await trx('refunds').where({ id }).first();
      return row && toRefund(row);
    },

    async findByKey(idempotencyKey: string, trx: Db = db): Promise<RefundRecord | undefined> {
      const row = await trx('refunds').where({ idempotency_key: idempotencyKey }).first();
      return row && toRefund(row);
    },

    /** The refund the provider knows by this id, locked for the change (PostgreSQL). */
    async findByProviderRefundId(providerRefundId: string, trx: Db): Promise<RefundRecord | undefined> {
      const query = trx('refunds').where({ provider_refund_id: providerRefundId });
      if (lockable) query.forUpdate();
      const row = await query.first();
      return row && toRefund(row);
    },

    async listForTransaction(transactionId: string, trx: Db = db): Promise<RefundRecord[]> {
      const rows = await trx('refunds')
        .where({ transaction_id: transactionId })
        .orderBy([
          { column: 'created_at', order: 'asc' },
          { column: 'id', order: 'asc' },
        ]);
      return rows.map(toRefund);
    },

    /** The refunds of these transactions, for the admin's list (one query for a page). */
    async listForTransactions(transactionIds: string[]): Promise<RefundRecord[]> {
      if (transactionIds.length === 0) return [];
      const rows = await db('refunds')
        .whereIn('transaction_id', transactionIds)
        .orderBy([
          { column: 'created_at', order: 'asc' },
          { column: 'id', order: 'asc' },
        ]);
      return rows.map(toRefund);
    },

    /** What the payment has given back or is giving back: the sum of its refunds that were not refused. */
    async countedTotal(transactionId: string, trx: Db = db): Promise<number> {
      const row = await trx('refunds').where({ transaction_id: transactionId }).whereIn('status', COUNTED_REFUND_STATUSES).sum({ total: 'amount' }).first();
      return Number(row?.total ?? 0);
    },

    /** Refunds whose answer was lost (the process stopped, the provider timed out): the retry job sends them again. */
    async listUnsettled(before: Date, limit: number): Promise<RefundRecord[]> {
      const rows = await db('refunds')
        .where({ status: 'requested' })
        .where('created_at', '<', before)
        .where((q) => q.whereNull('lease_until').orWhere('lease_until', '<', before))
        .orderBy('created_at', 'asc')
        .limit(limit);
      return rows.map(toRefund);
    },
  };
}

/** The refund's row as it goes: the intent written once, the right to send it taken and given back, and the provider's answer. */
function refundWrites(db: Db) {
  return {
    /** Inserts the intent once: a second insert with the same idempotency key adds nothing. True when this one took. */
    async insert(
      refund: {
        id: string;
        transactionId: string;
        amount: number;
        currency: string;
        status: RefundStatus;
        source: RefundSource;
        idempotencyKey: string;
        reason?: RefundReason | null;
        note?: string | null;
        actorId?: string | null;
        providerRefundId?: string | null;
      },
      now: Date,
      trx: Db,
    ): Promise<boolean> {
      const inserted = await trx('refunds')
        .insert({
          id: refund.id,
          transaction_id: refund.transactionId,
          amount: refund.amount,
          currency: refund.currency,
          status: refund.status,
          source: refund.source,
          idempotency_key: refund.idempotencyKey,
          provider_refund_id: refund.providerRefundId ?? null,
          reason: refund.reason ?? null,
          note: refund.note ?? null,
          actor_id: refund.actorId ?? null,
          attempts: 0,
          created_at: now,
          updated_at: now,
        })
        .onConflict('idempotency_key')
        .ignore()
        .returning('id');
      return inserted.length > 0;
    },

    /**
     * Takes the right to call the provider for this refund until `until`: only one sender at a time
     * (a double click, the retry job, another instance). False while another holds it, or once it is settled.
     */
    async claim(id: string, now: Date, until: Date): Promise<boolean> {
      const changed = await db('refunds')
        .where({ id, status: 'requested' })
        .where((q) => q.whereNull('lease_until').orWhere('lease_until', '<', now))
        .update({ lease_until: until, attempts: db.raw('attempts + 1'), updated_at: now });
      return changed > 0;
    },

    /** The provider did not answer: the refund stays requested, free for the next attempt, with what went wrong. */
    async release(id: string, error: string, now: Date): Promise<void> {
      await db('refunds').where({ id, status: 'requested' }).update({ lease_until: null, error, updated_at: now });
    },

    /** requested → succeeded / pending / failed, once. True for the caller that made the change. */
    async settle(
      id: string,
      outcome: {
        status: Exclude<RefundStatus, 'requested'>;
        providerRefundId?: string | null;
        amount?: number;
        claimUrl?: string | null;
        error?: string | null;
      },
      now: Date,
      trx: Db,
    ): Promise<boolean> {
      const changed = await trx('refunds')
        .where({ id, status: 'requested' })
        .update({
          status: outcome.status,
          lease_until: null,
          error: outcome.error ?? null,
          updated_at: now,
          ...(outcome.providerRefundId ? { provider_refund_id: outcome.providerRefundId } : {}),
          ...(outcome.amount !== undefined ? { amount: outcome.amount } : {}),
          ...(outcome.claimUrl ? { claim_url: outcome.claimUrl } : {}),
        });
      return changed > 0;
    },

    /** succeeded / pending → failed: the provider failed a refund it had accepted (the money stayed with the operator). */
    async markFailedLater(id: string, error: string, now: Date, trx: Db): Promise<boolean> {
      const changed = await trx('refunds').where({ id }).whereIn('status', ['succeeded', 'pending']).update({ status: 'failed', error, updated_at: now });
      return changed > 0;
    },
  };
}

import type { Knex } from 'knex';
import type { Db } from '../../../db/knex.js';
import { toDateOrNull } from '../../../db/values.js';
import { SUBSCRIPTION_COLUMNS, toSubscriptionRecord, type SubscriptionRecord } from '../billing.repo.js';
import { LIVE_RECURRING_STATUSES } from './reconcile-policy.js';

/** How reading one subscription from its provider has gone (a row of reconcile_schedule). */
export interface ProviderReadRecord {
  nextTryAt: Date;
  lastReadAt: Date | null;
  lastTriedAt: Date | null;
  failures: number;
  lastError: string | null;
}

export interface DueRead {
  subscription: SubscriptionRecord;
  failures: number;
}

/** The columns of reconcile_schedule (joined as `r`) that toProviderReadRecord reads. */
export const PROVIDER_READ_COLUMNS = [
  'r.next_try_at as read_next_try_at',
  'r.last_read_at as read_last_read_at',
  'r.last_tried_at as read_last_tried_at',
  'r.failures as read_failures',
  'r.last_error as read_last_error',
];

export function toProviderReadRecord(row: Record<string, unknown>): ProviderReadRecord | null {
  const nextTryAt = toDateOrNull(row.read_next_try_at);
  if (!nextTryAt) return null;
  return {
    nextTryAt,
    lastReadAt: toDateOrNull(row.read_last_read_at),
    lastTriedAt: toDateOrNull(row.read_last_tried_at),
    failures: Number(row.read_failures),
    lastError: (row.read_last_error as string | null) ?? null,
  };
}

/** Recurring, linked to the provider, and not over: what the provider may still change. */
export const whereLiveRecurring = <Q extends Knex.QueryBuilder>(query: Q, alias = 's'): Q =>
  query.where(`${alias}.billing`, 'recurring').whereNotNull(`${alias}.provider_subscription_id`).whereIn(`${alias}.status`, LIVE_RECURRING_STATUSES) as Q;

const ERROR_CHARS = 500;

/**
 * When each live recurring subscription is next read from its provider. A read that fails moves only
 * its own row out (backoff), so rows that always fail never hold back the others.
 */
export function createReconcileScheduleRepo(db: Db) {
  return {
    /** Gives each live subscription that has no row yet one, due at once; how many were added. */
    async enrollNew(now: Date, limit = 1000): Promise<number> {
      const rows: Array<{ id: string }> = await whereLiveRecurring(
        db('subscriptions as s').leftJoin('reconcile_schedule as r', 'r.subscription_id', 's.id').whereNull('r.subscription_id'),
      )
        .select('s.id')
        .limit(limit);
      if (rows.length === 0) return 0;
      await db('reconcile_schedule')
        .insert(rows.map((row) => ({ subscription_id: row.id, next_try_at: now, failures: 0 })))
        .onConflict('subscription_id')
        .ignore();
      return rows.length;
    },

    /**
     * Live subscriptions whose read is due: those with no failure run first (the daily read, a renewal
     * that should have come), then failing ones; each group oldest due first.
     */
    async listDue(now: Date, limit: number): Promise<DueRead[]> {
      const rows: Array<Record<string, unknown>> = await whereLiveRecurring(
        db('reconcile_schedule as r')
          .join('subscriptions as s', 's.id', 'r.subscription_id')
          .leftJoin('payment_providers as pp', 'pp.id', 's.provider_id')
          .where('r.next_try_at', '<=', now),
      )
        .select([...SUBSCRIPTION_COLUMNS, 'r.failures as read_failures'])
        .orderByRaw('case when r.failures = 0 then 0 else 1 end')
        .orderBy([
          { column: 'r.next_try_at', order: 'asc' },
          { column: 'r.subscription_id', order: 'asc' },
        ])
        .limit(limit);
      return rows.map((row) => ({ subscription: toSubscriptionRecord(row), failures: Number(row.read_failures) }));
    },

    /** Takes a due row for this pass (it is not due again until the claim runs out); false when another pass took it. */
    async claim(subscriptionId: string, now: Date, until: Date): Promise<boolean> {
      const taken = await db('reconcile_schedule')
        .where({ subscription_id: subscriptionId })
        .where('next_try_at', '<=', now)
        .update({ next_try_at: until, last_tried_at: now });
      return taken === 1;
    },

    /** A read that worked: the failure run is over; next read at `nextTryAt`. */
    async recordRead(subscriptionId: string, now: Date, nextTryAt: Date): Promise<void> {
      await db('reconcile_schedule')
        .where({ subscription_id: subscriptionId })
        .update({ failures: 0, last_error: null, last_read_at: now, last_tried_at: now, next_try_at: nextTryAt });
    },

    /** A read that failed: the counter moves first, then the next try is set from it. Returns the failures in a row. */
    async recordFailure(subscriptionId: string, error: string, now: Date, nextTry: (failures: number) => Date): Promise<number> {
      await db('reconcile_schedule')
        .where({ subscription_id: subscriptionId })
        .update({ failures: db.raw('failures + 1'), last_error: error.slice(0, ERROR_CHARS), last_tried_at: now });
      const row = await db('reconcile_schedule').where({ subscription_id: subscriptionId }).first('failures');
      const failures = Number(row?.failures ?? 1);
      await db('reconcile_schedule')
        .where({ subscription_id: subscriptionId })
        .update({ next_try_at: nextTry(failures) });
      return failures;
    },
  };
}

export type ReconcileScheduleRepo = ReturnType<typeof createReconcileScheduleRepo>;

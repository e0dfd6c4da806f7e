import type { RecurringMetrics, SubscriptionStatus } from '../../../../../shared/billing.js';
import { monthlyAmountOf } from '../../../../../shared/plan-billing.js';
import type { Db } from '../../../db/knex.js';
import { parseJson } from '../../../db/values.js';
import { SUBSCRIPTION_COLUMNS, toSubscriptionRecord, type SubscriptionMetadata, type SubscriptionRecord } from '../billing.repo.js';
import { LIVE_RECURRING_STATUSES, READ_SCHEDULE } from './reconcile-policy.js';
import { PROVIDER_READ_COLUMNS, toProviderReadRecord, whereLiveRecurring, type ProviderReadRecord } from './reconcile-schedule.repo.js';
import { subscriptionCurrency } from '../subscription-currency.js';

export interface AdminSubscriptionRow {
  record: SubscriptionRecord;
  userEmail: string;
  username: string | null;
  /** How reading it from the provider goes, while it is live; null once it is over or before its first read. */
  read: ProviderReadRecord | null;
}

/** Recurring subscriptions across customers, for the admin: the list and the recurring business in figures. */
export function createSubscriptionsAdminRepo(db: Db) {
  return {
    /** Newest first; `email` matches the start of the customer's e-mail; `unreadable`: live ones whose reads keep failing. */
    async list(filter: { status?: SubscriptionStatus; email?: string; id?: string; unreadable?: boolean; limit: number }): Promise<AdminSubscriptionRow[]> {
      const query = db('subscriptions as s')
        .leftJoin('payment_providers as pp', 'pp.id', 's.provider_id')
        .join('user_profiles as u', 'u.id', 's.user_id')
        .leftJoin('vpn_accounts as a', 'a.id', 's.vpn_account_id')
        .leftJoin('reconcile_schedule as r', 'r.subscription_id', 's.id')
        .select([...SUBSCRIPTION_COLUMNS, 'u.email as user_email', 'a.username as account_username', ...PROVIDER_READ_COLUMNS])
        .where('s.billing', 'recurring')
        .orderBy([
          { column: 's.created_at', order: 'desc' },
          { column: 's.id', order: 'desc' },
        ])
        .limit(filter.limit);
      if (filter.status) query.where('s.status', filter.status);
      if (filter.id) query.where('s.id', filter.id);
      if (filter.unreadable) whereLiveRecurring(query).where('r.failures', '>=', READ_SCHEDULE.failuresShown);
      if (filter.email) query.whereRaw("u.email like ? escape '\\'", [`${filter.email.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
      const rows: Array<Record<string, unknown>> = await query;
      return rows.map((row) => {
        const record = toSubscriptionRecord(row);
        const live = record.providerSubscriptionId !== null && (LIVE_RECURRING_STATUSES as readonly string[]).includes(record.status);
        return {
          record,
          userEmail: row.user_email as string,
          username: (row.account_username as string | null) ?? null,
          read: live ? toProviderReadRecord(row) : null,
        };
      });
    },

    /** Live subscriptions whose reads from the provider keep failing: how many, and the latest error. */
    async unreadable(): Promise<{ unreadable: number; lastReadError: string | null }> {
      const failing = () =>
        whereLiveRecurring(
          db('reconcile_schedule as r').join('subscriptions as s', 's.id', 'r.subscription_id').where('r.failures', '>=', READ_SCHEDULE.failuresShown),
        );
      const counted = await failing().count({ n: '*' }).first();
      const latest = await failing()
        .select('r.last_error')
        .orderBy([
          { column: 'r.last_tried_at', order: 'desc' },
          { column: 'r.subscription_id', order: 'asc' },
        ])
        .first();
      return { unreadable: Number(counted?.n ?? 0), lastReadError: (latest?.last_error as string | null | undefined) ?? null };
    },

    /**
     * Active and past_due recurring subscriptions, and monthly recurring revenue in `currency` (the store's):
     * each one's price per month (an average month over its billing period), those ending at their period end
     * included until they end. Subscriptions priced in another currency are counted, and their revenue listed
     * per currency in `otherCurrencies`, never added to the store currency's figure.
     */
    async metrics(currency: string): Promise<Omit<RecurringMetrics, 'unreadable' | 'lastReadError'>> {
      const rows: Array<Record<string, unknown>> = await db('subscriptions')
        .select('status', 'cancel_at_period_end', 'metadata')
        .where({ billing: 'recurring' })
        .whereIn('status', ['active', 'past_due']);
      let activeRecurring = 0;
      let pastDue = 0;
      let cancelingAtPeriodEnd = 0;
      let monthly = 0;
      const others = new Map<string, number>();
      for (const row of rows) {
        const metadata = parseJson<SubscriptionMetadata>(row.metadata, {} as SubscriptionMetadata);
        if (row.status === 'past_due') pastDue += 1;
        else activeRecurring += 1;
        if (row.cancel_at_period_end === true || row.cancel_at_period_end === 1) cancelingAtPeriodEnd += 1;
        if (!(metadata.days > 0)) continue;
        const perMonth = monthlyAmountOf(metadata.price, metadata.days);
        const priced = subscriptionCurrency(metadata);
        if (priced === currency) monthly += perMonth;
        else others.set(priced, (others.get(priced) ?? 0) + perMonth);
      }
      const otherCurrencies = [...others]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([code, mrr]) => ({ currency: code, monthlyRecurringRevenue: Math.round(mrr) }));
      return { activeRecurring, pastDue, cancelingAtPeriodEnd, monthlyRecurringRevenue: Math.round(monthly), currency, otherCurrencies };
    },
  };
}

export type SubscriptionsAdminRepo = ReturnType<typeof createSubscriptionsAdminRepo>;
